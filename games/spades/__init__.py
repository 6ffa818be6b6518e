"""Spades, from the seed's ruleset (no bidding, no partners), and the full game as an option.

`Spades(deck)` is the seed's ruleset as a pure engine; `run(machine)` plays it on the Spectrum.
"""

import random

from .engine import PLAYERS, Spades

TITLE = "Spades"

__all__ = ["PLAYERS", "Spades", "TITLE", "run"]


def run(machine, *, level: str = "rules", seed: int | None = None, full_rules: bool = False) -> None:
    """Play until BREAK: against three computer players of `level` (random, rules or mcts);
    `seed` makes the deals (and the computer players' choices) repeatable; `full_rules` plays the
    full game instead: bidding, partners, nil, bags, game to 500."""
    from .game import Table
    rng = random.Random(seed)
    if full_rules:
        from .full_game import FullTable
        FullTable(machine, level=level, rng=rng).play()
    else:
        Table(machine, level=level, rng=rng).play()
