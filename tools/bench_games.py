"""Random playouts per second for every game, through the one game-state protocol.

    python tools/bench_games.py [SECONDS]

`report()` is the section for tools/bench.py.
"""

import importlib
import random
import sys
import time

from games.protocol import playout
from spectrum.command_line import OneLineParser, positive_number

SECONDS = 5.0  # processor seconds of playouts for each game
VARIANTS = {  # name: (package, new_game options)
    "patience": ("games.patience", {}),
    "canfield": ("games.canfield", {}),
    "spades": ("games.spades", {}),
    "spades full game": ("games.spades", {"full_rules": True}),
}


def playouts_per_second(package: str, options: dict, seconds: float) -> tuple[float, float]:
    """(playouts a second, moves a second) of random legal play from fresh seeds for `seconds`."""
    module = importlib.import_module(package)
    rng = random.Random(1)
    games = moves = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds or not games:
        state = module.new_game(rng.randrange(1, 65536), **options)

        def choose(legal):
            nonlocal moves
            moves += 1
            return rng.choice(legal)

        playout(state, choose)
        games += 1
    spent = time.process_time() - start
    return games / spent, moves / spent


def on_the_api(package: str, options: dict) -> bool:
    """The game's state keeps the state API (Canfield's is moved onto it on a branch of its own)."""
    return hasattr(importlib.import_module(package).new_game(1, **options), "legal_moves")


def report(seconds: float = SECONDS) -> list[str]:
    lines = []
    for name, (package, options) in VARIANTS.items():
        if not on_the_api(package, options):
            lines.append(f"{name:<17} (not yet on the state API)")
            continue
        games, moves = playouts_per_second(package, options, seconds)
        lines.append(f"{name:<17} {games:9.1f} playouts/s CPU  ({moves:,.0f} moves/s)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_games", description=__doc__.splitlines()[0])
    parser.add_argument(
        "seconds",
        nargs="?",
        type=positive_number("SECONDS"),
        default=SECONDS,
        metavar="SECONDS",
        help=f"processor seconds of playouts for each game (default {SECONDS:g})",
    )
    for line in report(parser.parse_args(argv).seconds):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
