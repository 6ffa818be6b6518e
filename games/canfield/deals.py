"""Numbered deals: deal N is the deck a Spectrum shuffles after RANDOMIZE N.

The shuffle is fixed for good, so a deal's number replays it in any version:

    new-deck order: spades, hearts, diamonds, clubs, each ace to king ("as" … "kc")
    RANDOMIZE n
    FOR i = 52 TO 2 STEP -1: j = INT (RND * i) + 1: swap cards i and j: NEXT i

(a Fisher–Yates shuffle driven by the ROM's RND, which the `spectrum` layer reproduces exactly).
The dealing order is then the shuffled deck from card 1 on. RANDOMIZE takes 1–65535 (0 would mean
"from the clock"), so those are the deal numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import NAMES

if TYPE_CHECKING:
    from spectrum import Spectrum

FIRST_DEAL, LAST_DEAL = 1, 65535
NEW_DECK = list(NAMES)  # spades, hearts, diamonds, clubs, each ace to king


def check_deal_number(number: object) -> str | None:
    """Why `number` names no deal, or None."""
    if not isinstance(number, int) or isinstance(number, bool) or not FIRST_DEAL <= number <= LAST_DEAL:
        return f"Deals are numbered {FIRST_DEAL} to {LAST_DEAL}"
    return None


def deck_for(number: int, machine: Spectrum | None = None) -> list[str]:
    """The 52 card names of deal `number`, in dealing order."""
    refusal = check_deal_number(number)
    if refusal:
        raise ValueError(refusal)
    if machine is None:
        from spectrum import Spectrum  # the ROM's RND, kept in the machine's SEED

        machine = Spectrum()
    machine.randomize(number)
    deck = list(NEW_DECK)
    for size in range(52, 1, -1):
        other = int(machine.rnd() * size)
        deck[size - 1], deck[other] = deck[other], deck[size - 1]
    return deck
