"""How hard a winnable deal is, from the solver's own work: how many positions it had to look at
before it found its winning line (`Verdict.nodes`, with the record's budget of 100,000). A deal
that its first try wins, every move the first it ranks, takes a few dozen; a deal whose winning
line hides behind many that fail takes thousands.

The levels split the deals the solver wins in three shares about equal, at the bounds below,
measured over numbered deals by

    nice -n 19 python tools/bench_canfield.py --levels 600            # deals 1-600: the bounds
    nice -n 19 python tools/bench_canfield.py --levels 600 --first 601  # deals 601-1200: the shares
    nice -n 19 python tools/bench_canfield.py --levels 600 --first 1201  # and 1201-1800

which also checks them against play: the benches' rule player (`player.py`) wins more of the easy
deals than of the medium ones, and more of those than of the hard ones (docs/canfield.md has the
figures). A deal the solver can't win, or has not decided, has no level.
"""

from __future__ import annotations

from .solver import Solved, Verdict

LEVELS = ("easy", "medium", "hard")
EASY_UP_TO = 65  # positions searched, at most, for an easy deal
MEDIUM_UP_TO = 670  # and for a medium one; past it, hard


def level_of(verdict: Verdict) -> str | None:
    """The level of a deal from the solver's verdict on it as dealt; None unless it is won."""
    if verdict.outcome is not Solved.WON:
        return None
    if verdict.nodes <= EASY_UP_TO:
        return LEVELS[0]
    if verdict.nodes <= MEDIUM_UP_TO:
        return LEVELS[1]
    return LEVELS[2]


def budget_for(level: str | None, budget: int) -> int:
    """The positions a search needs to tell whether a deal is of `level` (within `budget`, the
    budget the levels are measured with): a deal its first round of search wins within a level's
    bound is won alike, line and count, with any larger budget, so an easy or a medium deal is
    found with no more than its bound."""
    bounds = {LEVELS[0]: EASY_UP_TO, LEVELS[1]: MEDIUM_UP_TO}
    return min(bounds.get(level, budget), budget) if level is not None else budget
