"""Can this deal still be won, with every card known? A depth-first search under a node budget.

The search tries foundation moves first, then moves that free the stock, then the rest, and never
expands a position twice. Positions that differ only in which talon card is on top, where turning
the pack leads from each to the other without a card going home, count as one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import PILES, Position, rank_of, suit_of, moves

DEFAULT_BUDGET = 20_000  # positions expanded before the search gives up


@dataclass(frozen=True)
class Verdict:
    outcome: str  # "won" (a winning line was found), "lost" (none exists) or "unknown" (budget spent)
    line: tuple[str, ...]  # the winning line, when won: each move's key presses
    nodes: int  # positions expanded


class _OutOfBudget(Exception):
    pass


def _on_turning_cycle(position: Position) -> bool:
    """Whether turning the pack from here comes round to every talon position from an empty talon,
    with no base-rank card in the pack to go home on the way."""
    turned, size = position.turned, len(position.waste)
    if turned % 3 and turned != size:
        return False
    if all(position.homes):
        return True
    return not any(rank_of(card) == position.base for card in position.waste)


def _key(position: Position) -> tuple:
    stock, waste, turned, homes, tableau, _ = position
    if _on_turning_cycle(position):
        turned = 0
    progress = tuple(sorted((suit_of(pile[0]), len(pile)) for pile in homes if pile))
    return len(stock), waste, turned, progress, tuple(sorted(tableau))


def _priority(keys: str) -> int:
    """Order of trial: foundations, the stock, whole piles, then talon cards (into spaces last)."""
    if keys.endswith(("f", "p")):  # "p" * n: turning sends a base-rank card home
        return 0
    source = keys[-2]
    if source == "s":
        return 1
    if source in PILES:
        return 2
    return 3


def solve(position: Position, budget: int = DEFAULT_BUDGET) -> Verdict:
    """Search for a winning line from `position`, expanding at most `budget` positions."""
    seen: set[tuple] = set()
    line: list[str] = []

    def search(current: Position) -> bool:
        if current.cards_home == 52:
            return True
        key = _key(current)
        if key in seen:
            return False
        if len(seen) >= budget:
            raise _OutOfBudget
        seen.add(key)
        options = moves(current)
        options.sort(key=lambda option: (_priority(option[0]), len(option[0])))
        for keys, following in options:
            line.append(keys)
            if search(following):
                return True
            line.pop()
        return False

    try:
        won = search(position)
    except _OutOfBudget:
        return Verdict("unknown", (), len(seen))
    return Verdict("won" if won else "lost", tuple(line), len(seen))
