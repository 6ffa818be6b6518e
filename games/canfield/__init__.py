"""Canfield, the casino patience of Saratoga Springs: a deck for $50, $5 for every card home.

`rules` holds the game (and `CanfieldState`, a deal as the game-state protocol sees it), `screen`
draws the table, `play` is the program on the machine, `bank` keeps the players' money, `deals`
numbers the shuffles, `solver` says whether a deal can be won and `background` runs it on a thread
of its own while the screen stays live.
"""

import argparse

from ..datafolder import data_folder
from ..program import Keeping, Needs
from .deals import FIRST_DEAL, LAST_DEAL, check_deal_number
from .difficulty import LEVELS

TITLE = "Canfield"


def deal_number(text: str) -> int:
    """An argparse type: a deal number, 1-65535, or one line saying what is wrong."""
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is None or check_deal_number(number):
        raise argparse.ArgumentTypeError(f"deals are numbered {FIRST_DEAL} to {LAST_DEAL}, not {text!r}")
    return number


SERVED_ONLY = ("owner", "thinker", "store")  # run's keywords that only `zxcards serve` gives: no command line has them
# the money game keeps the players' accounts, in one place opened by each account's owner
NEEDS = Needs(
    keeping=Keeping(
        kept=lambda options: (
            not options.get("practice") and options.get("deal") is None and options.get("difficulty") is None
        ),
        by_folder=False,
    ),
    thinks=True,
)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--practice", action="store_true", help="no money; undo and hints allowed")
    parser.add_argument(
        "--deal", type=deal_number, metavar="N", help=f"replay deal N ({FIRST_DEAL}-{LAST_DEAL}) as practice"
    )
    parser.add_argument(
        "--winnable",
        action="store_true",
        help="deal only deals the solver has won (the money game still charges $50 a deck)",
    )
    parser.add_argument(
        "--difficulty",
        choices=LEVELS,
        metavar="LEVEL",
        help=f"practice on winnable deals of one level: {', '.join(LEVELS)}",
    )
    parser.add_argument(
        "--data-dir", type=data_folder, metavar="DIR", help="keep the accounts in DIR (default: $XDG_DATA_HOME/zxcards)"
    )


def new_game(seed: int):
    """Deal number `seed` (1-65535) as a `rules.CanfieldState`."""
    from .deals import deck_for
    from .rules import CanfieldState, Canfield

    return CanfieldState(Canfield(deck_for(seed)).position, seed)


def run(
    machine,
    *,
    data_dir=None,
    deal: int | None = None,
    practice: bool = False,
    owner: str | None = None,
    thinker=None,
    store=None,
    winnable: bool = False,
    difficulty: str | None = None,
) -> None:
    """Play Canfield until BREAK: the money game, or practice (`practice`, `deal` N replayed, or
    a `difficulty`); `winnable` deals only deals the solver has won; `owner`, on a server, is
    whose accounts may be opened (the hash of a browser's secret), kept in the server's `store`
    when it is shared by several servers."""
    from . import play

    play.run(
        machine,
        data_dir=data_dir,
        deal=deal,
        practice=practice,
        owner=owner,
        thinker=thinker,
        store=store,
        winnable=winnable,
        difficulty=difficulty,
    )
