"""Spades at home: you at one seat of a Spades table, three computer players at the others.

It is the table a server keeps for four people (`seats.SpadesTable`), with one Spectrum seat
(`seat_play`): its clock is the machine's, the seat's screen makes the computers' moves as their
time comes on that clock, and nobody's time to move runs out. The full game is kept after every
move, in the data folder's `spades-game.json`, and taken up where it was next time (a game kept
by an earlier zxcards, its score between hands, too).
"""

import dataclasses
from pathlib import Path

from spectrum import Spectrum
from spectrum.colours import YELLOW

from ..datafolder import DataUnusable
from ..store import TableStore
from ..drawing import next_key_code, wrapped
from . import targets
from .full_rules import FullMatch
from .house_rules import HouseRules
from .screen import RESULT_WIDTH, Scene, draw, prepare
from .seat_play import machine_clock, play_at
from .seats import SpadesTable
from .variants import FullGame

HOME = "home"  # the table's code, said nowhere
HOME_OWNER = "this machine"  # the one seat's owner
YOUR_NAME = "YOU"
SAVED_GAME = "spades-game.json"


class HomeStore(TableStore):
    """The one table kept at home: `spades-game.json` in the data folder."""

    def path(self, code: str) -> Path:
        return self.folder / SAVED_GAME


def play_at_home(machine: Spectrum, table: SpadesTable, notice: str | None = None) -> None:
    """Hands at `table` (`home_table`) until BREAK, `notice` said first."""
    seat = table.join(HOME_OWNER, YOUR_NAME)
    table.start(seat)
    prepare(machine)
    if notice:
        show_notice(machine, notice)
    play_at(machine, table, seat, deals=True)


SEED_WAITS = "Your kept game goes on. For a new game from this seed: add --new (it keeps this one aside)"
RULES_WAIT = (
    "Your kept game goes on by its own rules ({}). For a new game by these: add --new (it keeps this one aside)"
)


def home_table(
    machine: Spectrum,
    *,
    level: str,
    seed: int | None,
    full: bool,
    blind_nil: bool,
    folder: Path | None,
    new: bool = False,
    rules: HouseRules | None = None,
    kept_in=None,
    thinker=None,
) -> tuple[SpadesTable, str | None]:
    """The table at home on `machine`'s clock, and a notice when a kept one could not be taken up
    (or goes on though a seed, or other house rules, were given): the full game as kept in `folder`
    (its computers of `level`, blind nil as `blind_nil` says, its own house rules), or a new one
    under the house `rules` — always, with `new`, the kept one set aside; the no-bid game is kept
    nowhere. `kept_in` (a `games.store.Documents`: a server's shared store) keeps the full game
    instead of `folder`. A `thinker` (a server's worker processes) works out the searching levels'
    moves, while the machine waits giving way to the server's other sessions."""
    options = dict(clock=machine_clock(machine), turn_seconds=None, thinker=thinker)
    if not full:
        return SpadesTable(HOME, level=level, seed=seed, **options), None
    given, rules = rules is not None, dataclasses.replace(rules or HouseRules(), blind_nil=blind_nil)
    store = kept_in if kept_in is not None else HomeStore(folder)

    def taken_up(data) -> SpadesTable:
        if "format" in data:
            table = SpadesTable.restored(data, code=HOME, store=store, level=level, blind_nil=blind_nil, **options)
            if not any(occupant is not None and occupant.owner == HOME_OWNER for occupant in table.seats):
                raise ValueError("a table with no seat of this machine's")
            return table
        # kept by an earlier zxcards: the score between hands (ValueError when it is not one)
        table = SpadesTable(HOME, level=level, seed=seed, full=True, store=store, **options)
        table.variant = FullGame(table.rng, level, FullMatch.from_saved(data, blind_nil))
        table.rules = table.variant.rules
        return table

    if new:
        try:
            store.set_aside(HOME)
        except OSError as error:
            raise DataUnusable(
                f"{store.place(HOME)} can't be set aside ({error.strerror}): a new game would write over it"
            ) from None
    kept, notice = store.load(HOME, taken_up)
    if kept is not None and seed is not None:
        notice = SEED_WAITS
    if kept is not None and given and dataclasses.replace(kept.rules, blind_nil=blind_nil) != rules:
        notice = RULES_WAIT.format(kept.rules.summary())
    return kept or SpadesTable(HOME, level=level, seed=seed, rules=rules, store=store, **options), notice


def show_notice(machine: Spectrum, notice: str) -> None:
    """`notice` in a panel over the table, until a key."""
    draw(
        machine,
        Scene(
            title="SPADES",
            hand=[],
            trick=[],
            labels={},
            results=wrapped(notice, RESULT_WIDTH),
            message="Any key to go on",
            message_ink=YELLOW,
        ),
    )
    machine.targets = targets.any_key()
    next_key_code(machine)
