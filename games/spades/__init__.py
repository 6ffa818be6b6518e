"""Spades, from the seed's ruleset (no bidding, no partners), and the full game as an option.

`Spades(deck)` is the seed's ruleset as a pure engine; `run(machine)` plays it on the Spectrum.
"""

import random
from pathlib import Path

from .engine import PLAYERS, Spades

TITLE = "Spades"

__all__ = ["PLAYERS", "Spades", "TITLE", "run"]


SAVED_GAME = "spades-game.json"


def run(machine, *, level: str = "rules", seed: int | None = None, full_rules: bool = False,
        data_dir=None) -> None:
    """Play until BREAK: against three computer players of `level` (random, rules or mcts);
    `seed` makes the deals (and the computer players' choices) repeatable; `full_rules` plays the
    full game instead: bidding, partners, nil, bags, game to 500, its score kept after every hand
    in `data_dir` (default: the zxcards data folder) and taken up again next time."""
    from .game import Table
    rng = random.Random(seed)
    if full_rules:
        from ..datafolder import default_folder
        from .full_game import FullTable
        folder = Path(data_dir) if data_dir is not None else default_folder()
        FullTable(machine, level=level, rng=rng, save_path=folder / SAVED_GAME).play()
    else:
        Table(machine, level=level, rng=rng).play()
