"""How hard a winnable deal is, from the solver's own work: how many positions it had to look at
before it found its winning line (`Verdict.nodes`, with the record's budget of 100,000). A deal
that its first try wins, every move the first it ranks, takes a few dozen; a deal whose winning
line hides behind many that fail takes thousands.

The levels split the deals the solver wins in three shares about equal, at the bounds below,
measured over numbered deals by

    nice -n 19 python tools/bench_canfield.py --levels 600

which also checks them against play: the benches' rule player (`player.py`) wins more of the easy
deals than of the medium ones, and more of those than of the hard ones (docs/canfield.md has the
figures). A deal the solver can't win, or has not decided, has no level.
"""

from __future__ import annotations

from .solver import Solved, Verdict

LEVELS = ("easy", "medium", "hard")
EASY_UP_TO = 58  # positions searched, at most, for an easy deal
MEDIUM_UP_TO = 900  # and for a medium one; past it, hard


def level_of(verdict: Verdict) -> str | None:
    """The level of a deal from the solver's verdict on it as dealt; None unless it is won."""
    if verdict.outcome is not Solved.WON:
        return None
    if verdict.nodes <= EASY_UP_TO:
        return LEVELS[0]
    if verdict.nodes <= MEDIUM_UP_TO:
        return LEVELS[1]
    return LEVELS[2]
