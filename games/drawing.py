"""What every card screen draws and reads with: the suit UDGs, the baize, a card drawn in cells,
reading a key the way the programs do, and words (and paths) wrapped to a width.

A card is a PAPER 7 (white) rectangle three cells wide: its face (rank letter, T for ten, and the
suit's UDG) in red or black ink; tall cards show the face again, right-aligned, on a second row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from spectrum import Spectrum, sysvars
from spectrum.colours import GREEN, WHITE

from .cards import Card

SUIT_UDGS = {  # USR "a" to "d": the order of `Suit`
    "a": (0x00, 0x10, 0x38, 0x7C, 0xFE, 0xFE, 0x10, 0x38),  # spade
    "b": (0x00, 0x6C, 0xFE, 0xFE, 0x7C, 0x38, 0x10, 0x00),  # heart
    "c": (0x00, 0x10, 0x38, 0x7C, 0xFE, 0x7C, 0x38, 0x10),  # diamond
    "d": (0x00, 0x38, 0x38, 0xD6, 0xFE, 0xD6, 0x10, 0x38),  # club
}
CARD_PAPER = WHITE
BAIZE = GREEN
CARD_WIDTH = 3
DOZE_FRAMES = 50  # the most frames a served screen waiting for a key sleeps through at once


def poke_udgs(machine: Spectrum, udgs: Mapping[str, Sequence[int]]) -> None:
    """POKE USR "x"+i for each UDG's rows, as a BASIC loader does."""
    for letter, rows in udgs.items():
        for offset, value in enumerate(rows):
            machine.poke(machine.usr(letter) + offset, value)


def lay_baize(machine: Spectrum, *, ink: int = WHITE, udgs: Mapping[str, Sequence[int]] | None = None) -> None:
    """Poke the suit UDGs (and `udgs`), then a green border and paper with `ink`, and CLS."""
    poke_udgs(machine, {**SUIT_UDGS, **(udgs or {})})
    machine.set_border(BAIZE)
    machine.colour(ink=ink, paper=BAIZE, bright=0, flash=0, inverse=0, over=0)
    machine.cls()


def draw_card(
    machine: Spectrum, row: int, col: int, card: Card | None, *, tall: bool = True, flash: int = 0, bright: int = 0
) -> None:
    """A card face at (row, col), two rows high when `tall`; None leaves an empty place."""
    if card is None:
        for line in range(2 if tall else 1):
            machine.print_at(row + line, col, " " * CARD_WIDTH, paper=BAIZE, bright=1)
        return
    colours = dict(ink=card.ink, paper=CARD_PAPER, flash=flash, bright=bright)
    machine.print_at(row, col, card.face + " ", **colours)
    if tall:
        machine.print_at(row + 1, col, " " + card.face, **colours)


def next_key(machine: Spectrum, idle: Callable[[], None] | None = None) -> str:
    """The next key pressed, after the last one is let go (INKEY$ in a loop), in lower case;
    `idle` is called once a frame while no key is pressed (to show news as it comes)."""
    while machine.inkey():
        machine.wait_frame()
    while not (key := machine.inkey()):
        if idle is None:
            machine.wait_frames_for_key(DOZE_FRAMES)
        else:
            machine.wait_frame(awaiting_key=True)
            idle()
    return key.lower()


def next_key_code(machine: Spectrum) -> int:
    """PAUSE 0, then the code of the key pressed (PEEK LAST_K): the BASIC way to take any key,
    cursor keys and ENTER included."""
    machine.pause(0)
    return machine.peek(sysvars.LAST_K)


def draw_hand_card(machine: Spectrum, row: int, col: int, card: Card, *, bright: int = 0) -> None:
    """A card of a hand held in a fan: two cells wide, its face on the top row and plain card below;
    the next card lies beside it."""
    machine.print_at(row, col, card.face, ink=card.ink, paper=CARD_PAPER, bright=bright)
    machine.print_at(row + 1, col, "  ", paper=CARD_PAPER, bright=bright)


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width`: broken at spaces or slashes (a path is one word), else
    anywhere."""
    lines = []
    while len(text) > width:
        cut = max(text.rfind(" ", 0, width + 1), text.rfind("/", 0, width) + 1)
        cut = cut if cut > 0 else width
        lines.append(text[:cut].rstrip())
        text = text[cut:].lstrip(" ")
    return lines + [text]
