"""Spades: the no-bid game (no bidding, no partners: most tricks wins) and the full game to 500.

`rules` is the no-bid game (the reference rules, exactly as the ruleset it comes from) and
`full_rules` the full one, both pure; `seats` is a table (the referee, its seats and its clocks)
playing either, `screen` draws it and `seat_play` is a seat at it on a Spectrum, at home (`home`)
or served; `players` are the computer players.
"""

import argparse
from pathlib import Path

from ..datafolder import check_folder, data_folder, default_folder, held
from ..program import CannotStart, Choice, Keeping, Needs, Seating

TITLE = "Spades"


def new_game(seed: int, *, full_rules: bool = False, blind_nil: bool = False):
    """The seed's game, one hand dealt from `seed` (any whole number); with `full_rules` the full
    game, hand after hand until a partnership wins (`blind_nil` allows blind nil bids)."""
    if full_rules:
        from .full_rules import FullSpadesState
        return FullSpadesState(seed, blind_nil=blind_nil)
    if blind_nil:
        raise ValueError("blind nil is a bid of the full game: add full_rules")
    from .rules import SpadesState
    return SpadesState(seed)


def add_options(parser: argparse.ArgumentParser) -> None:
    from .players import LEVELS

    parser.add_argument("--level", choices=list(LEVELS), default="rules",
                        help="the computer players, weakest to strongest (default: rules)")
    parser.add_argument("--full", dest="full_rules", action="store_true",
                        help="the full game: partners, bidding, nil, bags, game to 500 (kept after every hand)")
    parser.add_argument("--blind-nil", action="store_true",
                        help="full game: a partnership 100 or more behind may bid nil before seeing its cards")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="deal the hands of seed N (any whole number) and repeat them every time")
    parser.add_argument("--new", dest="new_game", action="store_true",
                        help="full game: a new game to 500, the one kept set aside (renamed, not deleted)")
    parser.add_argument("--data-dir", type=data_folder, metavar="DIR",
                        help="full game: keep the game to 500 here (default: the zxcards data folder)")


GAME_LOCK = "spades-game.lock"  # held while the full game kept in a folder is played
GAME_KIND = "spades-game"  # what a shared store keeps the full game under, for each player


SERVED_ONLY = ("store", "owner")  # run's keywords that only `zxcards serve` gives: no command line has them


def run(machine, *, level: str = "rules", seed: int | None = None, full_rules: bool = False,
        data_dir=None, blind_nil: bool = False, new_game: bool = False, store=None, owner: str | None = None) -> None:
    """Play until BREAK: against three computer players of `level`; `seed` makes the deals (and the
    computer players' choices) repeatable; `full_rules` plays the full game instead, kept after
    every move in `data_dir` (default: the zxcards data folder) and taken up again next time;
    `blind_nil` lets a partnership far behind bid blind nil there; `new_game` sets the kept game
    aside for a new one. On a server whose `store` several servers share, the game is kept there
    for the player `owner` instead. One program plays a folder's game at a time. CannotStart, before anything
    is drawn, for options refused together, an unknown level, a data folder that can't be used or
    a game played by another program."""
    from .home import home_table, play_at_home

    if level not in levels():
        raise CannotStart(f"no level {level!r}: choose from {', '.join(levels())}")
    if blind_nil and not full_rules:
        raise CannotStart("--blind-nil is a bid of the full game: add --full")
    if data_dir is not None and not full_rules:
        raise CannotStart("--data-dir is where the full game is kept: add --full")
    if new_game and not full_rules:
        raise CannotStart("--new sets a kept full game aside: add --full")
    if not full_rules:
        play_at_home(machine, *home_table(machine, level=level, seed=seed, full=False, blind_nil=False, folder=None))
        return
    if store is not None and store.url is not None:
        if owner is None:
            raise CannotStart("a game kept in a shared store needs its player's browser secret")
        with store.held(GAME_KIND, owner, "Your game to 500"):
            play_at_home(machine, *home_table(machine, level=level, seed=seed, full=True, blind_nil=blind_nil,
                                              folder=None, new=new_game, kept_in=store.documents(GAME_KIND, owner)))
        return
    folder = Path(data_dir) if data_dir is not None else default_folder()
    check_folder(folder)  # before a hand is played for nothing
    with held(folder / GAME_LOCK, f"The game to 500 kept in {folder}"):
        play_at_home(machine, *home_table(machine, level=level, seed=seed, full=True, blind_nil=blind_nil,
                                          folder=folder, new=new_game))


def seat(machine, tables, code: str, owner: str | None, name: str, *, watch: bool = False, level: str = "rules",
         seed: int | None = None, full_rules: bool = False, blind_nil: bool = False, data_dir=None,
         new_game: bool = False) -> None:
    """A seat at table `code` of `tables` for `owner` as `name` (or a watcher), the table made with
    these options on the first join; a table's game is the server's to keep, not `data_dir`."""
    from .seat_play import run as play_seat

    play_seat(machine, tables, code, owner, name, level=level, seed=seed, full=full_rules, blind_nil=blind_nil,
              watch=watch)


def table_kind() -> type:
    from .seats import SpadesTable

    return SpadesTable


def levels() -> tuple[str, ...]:
    from .players import LEVELS

    return tuple(LEVELS)


NEEDS = Needs(
    keeping=Keeping(kept=lambda options: bool(options.get("full_rules")), by_folder=True),
    seating=Seating(
        table=table_kind, seat=seat, kept_in="tables",
        refusal=lambda options: "blind nil is a bid of the full game: add full"
        if options.get("blind_nil") and not options.get("full_rules") else None,
        choices=(Choice("level", "The computers", levels, "rules", "{} computers"),),
        flags={"full": "full game"}))
