"""What a program tells the host that runs it (`games.host`), so that the host never names a game.

Every program is a light package (`games.PROGRAMS`) with a `TITLE`, `add_options(parser)` (its
options, named as the keywords of its run), `run(machine, **options)`, and a `NEEDS`: a `Needs`
saying whether it keeps what a player owns, under which options and how, and whether it seats
several people at a table and how each seat sees the game. A program that cannot start with the
options it is given raises `CannotStart`, before anything is drawn, with one line for the player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class CannotStart(Exception):
    """A program cannot start (options refused together, a data folder that can't be used): the
    message says why, in one line for the player."""


@dataclass(frozen=True)
class Keeping:
    """A program keeps what a player owns when `kept(options)` is true. On a server it is kept
    `by_folder`: each browser gets a folder of its own (the program's `data_dir`), or else one
    place for every player (`data_dir`), opened only by its `owner` (the hash of a browser's
    secret)."""

    kept: Callable[[dict], bool]
    by_folder: bool


@dataclass(frozen=True)
class Choice:
    """An option a new table's form offers: its `name` (as in a query), what it is `called` there,
    its `values` and the one chosen at first (`default`), each shown as `shown.format(value)` (or
    `shown(value)`, when `shown` is a function)."""

    name: str
    called: str
    values: Callable[[], tuple[str, ...]]
    default: str
    shown: str | Callable[[str], str] = "{}"

    def words(self, value: str) -> str:
        """How `value` is shown in the form."""
        return self.shown(value) if callable(self.shown) else self.shown.format(value)


@dataclass(frozen=True)
class Listing:
    """A table as a list of open tables shows it (its table's `listing()`): its `code`, its `rules`
    in a few words, the `seats` taken (each a name) of `places`, its `score` in a few words (or ""),
    whether a newcomer may sit (`seat_free`) and whether it welcomes watchers (`watchable`)."""

    code: str
    rules: str
    seats: tuple[str, ...]
    places: int
    score: str
    seat_free: bool
    watchable: bool = True


@dataclass(frozen=True)
class Seating:
    """A program that seats several people at a table, each on a Spectrum of their own.

    `table()` is the class of its tables (their referee: see `games.host.tables` for what the host
    asks of one); `seat(machine, tables, code, owner, name, watch=, **options)` plays one seat at
    table `code` (or a watcher's view) on `machine`, the table found or made in `tables`;
    `refusal(options)` says why options can't make a table (None when they can). A new table's form
    offers `choices` and `flags` (an option that is on or off, with its words); those named in
    `folded` are folded away under `folded_called` (the house rules, say), open at a click. A server
    keeps its tables in the data folder's folder `kept_in`. The seat is also given `private`: the
    table, when it makes it, is listed nowhere (its `listing()` None), found only by its link."""

    table: Callable[[], type]
    seat: Callable
    kept_in: str
    refusal: Callable[[dict], str | None] = lambda options: None
    choices: tuple[Choice, ...] = ()
    flags: dict[str, str] = field(default_factory=dict)
    folded: tuple[str, ...] = ()
    folded_called: str = "More"


@dataclass(frozen=True)
class Needs:
    """What a program needs of the host: nothing, by default. A program that `thinks` (searches
    for long) takes a `thinker` in its run on a server: the host's worker processes
    (`submit(work, *arguments)` gives a Future), so that its searches hold up no other session."""

    keeping: Keeping | None = None
    seating: Seating | None = None
    thinks: bool = False


NOTHING = Needs()
