"""Spades: the no-bid game (no bidding, no partners: most tricks wins) and the full game to 500.

`rules` is the no-bid game (the reference rules, exactly as the ruleset it comes from) and
`full_rules` the full one, both pure; `seats` is a table (the referee, its seats and its clocks)
playing either, `screen` draws it and `seat_play` is a seat at it on a Spectrum, at home (`home`)
or served; `players` are the computer players.
"""

import argparse
from collections.abc import Callable
from pathlib import Path

from ..datafolder import check_folder, data_folder, default_folder, held
from ..program import CannotStart, Choice, Keeping, Needs, Seating
from .house_rules import (
    AWAY_CHOICES,
    BAG_PENALTY_CHOICES,
    BAGS_CHOICES,
    GAME_TO_CHOICES,
    MINIMUM_BID_CHOICES,
    NIL_CHOICES,
    TURN_CHOICES,
    HouseRules,
    RulesRefused,
)

TITLE = "Spades"


def new_game(seed: int, *, full_rules: bool = False, blind_nil: bool = False, rules: HouseRules | None = None):
    """The seed's game, one hand dealt from `seed` (any whole number); with `full_rules` the full
    game, hand after hand until a partnership wins (`blind_nil` allows blind nil bids), under the
    house `rules` if given."""
    if full_rules:
        from .full_rules import FullSpadesState

        return FullSpadesState(seed, blind_nil=blind_nil, rules=rules)
    if blind_nil:
        raise ValueError("blind nil is a bid of the full game: add full_rules")
    from .rules import SpadesState

    return SpadesState(seed)


def add_options(parser: argparse.ArgumentParser) -> None:
    from .players import LEVELS

    parser.add_argument(
        "--level",
        choices=list(LEVELS),
        default="rules",
        help="the computer players, weakest to strongest (default: rules)",
    )
    parser.add_argument(
        "--full",
        dest="full_rules",
        action="store_true",
        help="the full game: partners, bidding, nil, bags, game to 500 (kept after every hand)",
    )
    parser.add_argument(
        "--blind-nil",
        action="store_true",
        help="full game: a partnership 100 or more behind may bid nil before seeing its cards",
    )
    house = parser.add_argument_group("house rules of the full game (each as usual unless given)")
    house.add_argument(
        "--game-to",
        type=int,
        choices=GAME_TO_CHOICES,
        metavar="POINTS",
        help="the game is over at this many points (100-1000; usual: 500)",
    )
    house.add_argument(
        "--bags",
        type=int,
        choices=BAGS_CHOICES,
        metavar="N",
        help="this many bags (tricks over a contract) cost the bag penalty (5-15; usual: 10)",
    )
    house.add_argument(
        "--bag-penalty",
        type=int,
        choices=BAG_PENALTY_CHOICES,
        metavar="POINTS",
        help="what the bags cost (0, 50, 100, 150 or 200; usual: 100)",
    )
    house.add_argument(
        "--nil",
        type=int,
        choices=NIL_CHOICES,
        metavar="POINTS",
        help="a nil made scores this, broken loses it (50, 100 or 200; 0: no nil; usual: 100)",
    )
    house.add_argument(
        "--ten-for-200", action="store_true", help="a partnership's contract of 10 or more scores double: 200 for 10"
    )
    house.add_argument(
        "--minimum-bid",
        type=int,
        choices=MINIMUM_BID_CHOICES,
        metavar="N",
        help="partners bid at least this together, besides nil (2-6; usual: 0, none)",
    )
    house.add_argument(
        "--turn",
        type=int,
        choices=TURN_CHOICES,
        metavar="SECONDS",
        help="a served table: a person's time to move, then a computer plays for them (usual: 60)",
    )
    house.add_argument(
        "--away",
        type=int,
        choices=AWAY_CHOICES,
        metavar="SECONDS",
        help="a served table: a seat whose player's connection has gone is held this long, then a "
        "computer plays it until they are back (usual: 60)",
    )
    parser.add_argument(
        "--seed", type=int, metavar="N", help="deal the hands of seed N (any whole number) and repeat them every time"
    )
    parser.add_argument(
        "--new",
        dest="new_game",
        action="store_true",
        help="full game: a new game to 500, the one kept set aside (renamed, not deleted)",
    )
    parser.add_argument(
        "--data-dir",
        type=data_folder,
        metavar="DIR",
        help="full game: keep the game to 500 here (default: the zxcards data folder)",
    )


GAME_LOCK = "spades-game.lock"  # held while the full game kept in a folder is played
GAME_KIND = "spades-game"  # what a shared store keeps the full game under, for each player


SERVED_ONLY = ("store", "owner", "thinker")  # run's keywords that only `zxcards serve` gives: no command line has them


def house_rules(options: dict, flag: str = "") -> HouseRules:
    """The house rules `options` choose; CannotStart says why they can't be played, each option
    named with `flag` before it (the command line's --)."""
    try:
        return HouseRules.of_options(options)
    except RulesRefused as refused:
        raise CannotStart(refused.said(flag)) from None


def run(
    machine,
    *,
    level: str = "rules",
    seed: int | None = None,
    full_rules: bool = False,
    data_dir=None,
    blind_nil: bool = False,
    new_game: bool = False,
    game_to: int | None = None,
    bags: int | None = None,
    bag_penalty: int | None = None,
    nil: int | None = None,
    ten_for_200: bool = False,
    minimum_bid: int | None = None,
    turn: int | None = None,
    away: int | None = None,
    store=None,
    owner: str | None = None,
    thinker=None,
) -> None:
    """Play until BREAK: against three computer players of `level`; `seed` makes the deals (and the
    computer players' choices) repeatable; `full_rules` plays the full game instead, kept after
    every move in `data_dir` (default: the zxcards data folder) and taken up again next time;
    `blind_nil` lets a partnership far behind bid blind nil there, and the house rules (`game_to`,
    `bags`, `bag_penalty`, `nil`, `ten_for_200`, `minimum_bid`) are its scoring, for a new game;
    `new_game` sets the kept game aside for a new one. On a server whose `store` several servers
    share, the game is kept there for the player `owner` instead. One program plays a folder's game
    at a time. CannotStart, before anything
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
    if turn is not None or away is not None:
        raise CannotStart(
            f"--{'turn' if turn is not None else 'away'} is a served table's time: at home your time is your own"
        )
    rules = house_rules(
        dict(
            full_rules=full_rules,
            blind_nil=blind_nil,
            game_to=game_to,
            bags=bags,
            bag_penalty=bag_penalty,
            nil=nil,
            ten_for_200=ten_for_200,
            minimum_bid=minimum_bid,
        ),
        "--",
    )

    def at_home(**table) -> None:  # the table at home (`home_table`), its computers' searches by `thinker`
        play_at_home(machine, *home_table(machine, level=level, seed=seed, thinker=thinker, **table))

    if not full_rules:
        at_home(full=False, blind_nil=False, folder=None)
        return
    chosen = any(rule not in (None, False) for rule in (game_to, bags, bag_penalty, nil, ten_for_200, minimum_bid))
    full_game = dict(full=True, blind_nil=blind_nil, new=new_game, rules=rules if chosen else None)
    if store is not None and store.url is not None:
        if owner is None:
            raise CannotStart("a game kept in a shared store needs its player's browser secret")
        with store.held(GAME_KIND, owner, "Your game to 500"):
            at_home(**full_game, folder=None, kept_in=store.documents(GAME_KIND, owner))
        return
    folder = Path(data_dir) if data_dir is not None else default_folder()
    check_folder(folder)  # before a hand is played for nothing
    with held(folder / GAME_LOCK, f"The game to 500 kept in {folder}"):
        at_home(**full_game, folder=folder)


def seat(
    machine,
    tables,
    code: str,
    owner: str | None,
    name: str,
    *,
    watch: bool = False,
    private: bool = False,
    level: str = "rules",
    seed: int | None = None,
    full_rules: bool = False,
    blind_nil: bool = False,
    data_dir=None,
    new_game: bool = False,
    game_to: int | None = None,
    bags: int | None = None,
    bag_penalty: int | None = None,
    nil: int | None = None,
    ten_for_200: bool = False,
    minimum_bid: int | None = None,
    turn: int | None = None,
    away: int | None = None,
) -> None:
    """A seat at table `code` of `tables` for `owner` as `name` (or a watcher), the table made with
    these options (its house rules among them; `private`: listed nowhere) on the first join; a
    table's game is the server's to keep, not `data_dir`."""
    from .seat_play import run as play_seat

    rules = house_rules(
        dict(
            full_rules=full_rules,
            blind_nil=blind_nil,
            game_to=game_to,
            bags=bags,
            bag_penalty=bag_penalty,
            nil=nil,
            ten_for_200=ten_for_200,
            minimum_bid=minimum_bid,
            turn=turn,
            away=away,
        )
    )
    play_seat(machine, tables, code, owner, name, level=level, seed=seed, rules=rules, watch=watch, private=private)


def table_kind() -> type:
    from .seats import SpadesTable

    return SpadesTable


def levels() -> tuple[str, ...]:
    from .players import LEVELS

    return tuple(LEVELS)


def table_refusal(options: dict) -> str | None:
    """Why `options` can't make a table (the house rules can't be played together), or None."""
    if options.get("blind_nil") and not options.get("full_rules"):
        return "blind nil is a bid of the full game: add full"
    try:
        house_rules(options)
    except CannotStart as refused:
        return str(refused)
    return None


def numbers(choices) -> Callable[[], tuple[str, ...]]:
    return lambda: tuple(map(str, choices))


NEEDS = Needs(
    keeping=Keeping(kept=lambda options: bool(options.get("full_rules")), by_folder=True),
    thinks=True,  # a served game at home has its searching computers' moves worked out by the server's workers
    seating=Seating(
        table=table_kind,
        seat=seat,
        kept_in="tables",
        refusal=table_refusal,
        choices=(
            Choice("level", "The computers", levels, "rules", "{} computers"),
            Choice("game-to", "Game to", numbers(GAME_TO_CHOICES), "500", "game to {}"),
            Choice("bags", "Bags", numbers(BAGS_CHOICES), "10", "{} bags"),
            Choice("bag-penalty", "Bag penalty", numbers(BAG_PENALTY_CHOICES), "100", "bags cost {}"),
            Choice(
                "nil", "Nil", numbers(NIL_CHOICES), "100", lambda value: "no nil" if value == "0" else f"nil {value}"
            ),
            Choice(
                "minimum-bid",
                "Minimum bid",
                numbers(MINIMUM_BID_CHOICES),
                "0",
                lambda value: "any bid" if value == "0" else f"partners bid {value}+",
            ),
            Choice("turn", "Time to move", numbers(TURN_CHOICES), "60", "{} s to move"),
            Choice("away", "A seat held", numbers(AWAY_CHOICES), "60", "held {} s if gone"),
        ),
        flags={"full": "full game", "blind-nil": "blind nil", "ten-for-200": "10 for 200"},
        folded=("game-to", "bags", "bag-penalty", "nil", "minimum-bid", "turn", "away", "blind-nil", "ten-for-200"),
        folded_called="House rules",
    ),
)
