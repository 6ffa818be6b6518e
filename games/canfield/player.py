"""The rule player: Canfield played by a few fixed rules of thumb, as a careful player plays it
who looks one move ahead and no further. It sees what a player may see (the pack may be turned
round and round, so every talon card the pack would show counts as seen) and, looking ahead, one
thing more: the position after a move, the card it uncovers on the stock included. The benches
measure deals against it: a deal it wins is one a player who follows the obvious moves can win.

It makes the move after which (in this order of weight) the most stock cards have gone, the most
cards are home, some move is still open, and the most piles are empty; among moves alike in that,
a move by the first of these kinds: a card home, the stock's top card onto a pile, a whole pile
onto another, a talon card onto a pile, a talon card into a space; then the move that needs the
fewest turns of the pack, then the first in the rules' own order. Every move the rules count sends
a card home, takes one from the stock or the talon, or empties a pile, so a deal played this way
always ends. It wins 54 of deals 1-300 (`tools/bench_canfield.py --levels` measures it).
"""

from __future__ import annotations

from .rules import DECK_SIZE, STOCK_SIZE, Position, moves

HOME, FROM_STOCK, PILE_ONTO_PILE, TALON_ONTO_PILE, TALON_INTO_SPACE = range(5)


def rule_of(keys: str, position: Position) -> int:
    """Which of the player's rules a move (its keys, as `rules.moves` gives them) falls under."""
    move = keys.lstrip("p")
    if not move or move.endswith("f"):
        return HOME
    source, target = move[0], move[1]
    if source == "s":
        return FROM_STOCK
    if source != "t":
        return PILE_ONTO_PILE
    return TALON_ONTO_PILE if position.tableau["1234".index(target)] else TALON_INTO_SPACE


STOCK_WEIGHT, HOME_WEIGHT, OPEN_WEIGHT, SPACE_WEIGHT = 4, 1, 2, 1
OPEN_COUNTED = 2  # moves still open after it count up to this many


def worth(keys: str, before: Position, after: Position) -> tuple:
    """How the rule player ranks a move, the least first."""
    taken = STOCK_SIZE - len(after.stock)
    open_after = min(len(moves(after)), OPEN_COUNTED)
    spaces = sum(not pile for pile in after.tableau)
    score = STOCK_WEIGHT * taken + HOME_WEIGHT * after.cards_home + OPEN_WEIGHT * open_after + SPACE_WEIGHT * spaces
    return -score, rule_of(keys, before), len(keys) - len(keys.lstrip("p"))


def choose(position: Position) -> tuple[str, Position] | None:
    """The rule player's move (its keys and the position it leads to), or None when none is left."""
    found = moves(position)
    if not found:
        return None
    return min(found, key=lambda move: worth(move[0], position, move[1]))


def play(position: Position) -> tuple[Position, list[str]]:
    """The deal played by the rules to its end: the last position and the keys of every move."""
    line = []
    while position.cards_home < DECK_SIZE:
        move = choose(position)
        if move is None:
            break
        line.append(move[0])
        position = move[1]
    return position, line
