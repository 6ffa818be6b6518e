"""Can this deal still be won, with every card known? A depth-first search with proofs of loss.

The game never repeats a position: every move sends a card home, takes one from the stock or the
talon, or empties a pile. So a search that remembers the positions it has seen is exact: when it
runs out of moves, the deal is lost. Four things make it quick enough:

- Positions are keyed by one integer: for each card on the tableau, which card it lies on (or that
  it starts a pile), plus the foundations' heights and the stock's size. The talon needs no place
  in the key: it is whatever the pack held that is neither home nor on the tableau, in its order.
- Turning the pack is not a move. A position offers every talon card that some number of turns
  would show, and positions whose pack stands anywhere on the same turning cycle are one position.
- Moves that can never hurt are made without trying the others: a card goes home from a pile or
  the stock (or the talon's last card, when the pack is on its cycle) once both cards of the other
  colour one rank below are home, so no card could ever need to lie on it.
- Moves are tried foundations first, then those that dig into the stock, then the rest.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .rules import FITTING, PILES, TURN_COUNT, Position, rank_of, suit_of

DEFAULT_BUDGET = 20_000  # positions expanded before the search gives up, when no time is given
REMEMBERED = 1_500_000  # positions kept as seen; past this the memory is cleared (sound, only slower)
CLOCK_CHECKS = 512  # positions between looks at the clock

# Bit layout of a position's key: 2 bits per card for what it lies on, then the foundations,
# the stock's size and where the pack stands on its turning cycle.
HOME_SHIFT = 104
STOCK_SHIFT = 120
TURNED_SHIFT = 124
ALL_HOME = (13, 13, 13, 13)
OTHER_COLOUR = [(1, 2) if suit_of(card) in (0, 3) else (0, 3) for card in range(52)]


@dataclass(frozen=True)
class Verdict:
    outcome: str  # "won" (a winning line was found), "lost" (none exists) or "unknown" (out of budget or time)
    line: tuple[str, ...]  # the winning line, when won: each move's key presses
    nodes: int  # positions expanded


class _OutOfBudget(Exception):
    pass


def _lies_on(card: int, under: int | None) -> int:
    """The 2-bit code of what `card` lies on: 3 for nothing (it starts a pile), else which of the
    two cards of the other colour one rank higher (1 for the lower suit, 2 for the higher)."""
    return 3 if under is None else 1 + (under >= 26)


def _turns_to(turned: int, target: int) -> int:
    """Presses of P that bring the pack from `turned` to `target` within one pass (target >= turned)."""
    return 0 if target == turned else -(-(target - turned) // TURN_COUNT)


class _Search:
    """One search from one position. State is passed as (stock size, waste, turned, homes, piles,
    key-without-turned); `homes` counts each suit's cards home, by suit."""

    def __init__(self, position: Position, budget: int | None, seconds: float | None):
        stock, waste, turned, homes, tableau, base = position
        self.stock = stock
        self.rel = [(rank_of(card) - base) % 13 for card in range(52)]  # height on its foundation
        self.budget = budget
        self.deadline = None if seconds is None else time.thread_time() + seconds
        self.seen: set[int] = set()
        self.nodes = 0
        self.line: list[str] = []
        heights = [0, 0, 0, 0]
        for pile in homes:
            if pile:
                heights[suit_of(pile[0])] = len(pile)
        key = (len(stock) << STOCK_SHIFT) + sum(height << (HOME_SHIFT + 4 * suit) for suit, height in enumerate(heights))
        for pile in tableau:
            for index, card in enumerate(pile):
                key += _lies_on(card, pile[index - 1] if index else None) << (2 * card)
        self.start = (len(stock), tuple(waste), turned, tuple(heights), tuple(tableau), key)

    # --- positions ---------------------------------------------------------------------------

    def on_cycle(self, waste: tuple, turned: int, homes: tuple) -> bool:
        """Whether the pack stands on its plain turning cycle (every third card and the last), with
        no base-rank card on that cycle to go home on the way: then every stand on it is one."""
        size = len(waste)
        if turned % TURN_COUNT and turned != size:
            return False
        if 0 not in homes:
            return True
        rel = self.rel
        return not any(rel[waste[place - 1]] == 0 for place in range(TURN_COUNT, size, TURN_COUNT)) and not (
            size and rel[waste[-1]] == 0)

    def safe_home(self, card: int, homes: tuple) -> bool:
        """`card` may go home now, and no card still out could ever want to lie on it."""
        height = self.rel[card]
        if homes[card // 13] != height:
            return False
        first, second = OTHER_COLOUR[card]
        return height <= 1 or (homes[first] >= height and homes[second] >= height)

    def settle(self, state: tuple, forced: list[str]) -> tuple:
        """The rules' automatic moves (a base-rank card home, a space filled from the stock), then
        the moves that can never hurt, appending their keys to `forced`, until nothing moves."""
        ns, waste, turned, homes, piles, key = state
        stock, rel = self.stock, self.rel
        while True:
            if 0 in homes:  # an exposed base-rank card goes home by itself
                moved = False
                for index, pile in enumerate(piles):
                    if pile and rel[pile[-1]] == 0:
                        card = pile[-1]
                        key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card))
                        homes = _raise(homes, card // 13)
                        piles = piles[:index] + (pile[:-1],) + piles[index + 1:]
                        moved = True
                        break
                if moved:
                    continue
                if ns and rel[stock[ns - 1]] == 0:
                    card = stock[ns - 1]
                    ns -= 1
                    key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (1 << STOCK_SHIFT)
                    homes = _raise(homes, card // 13)
                    continue
                if turned and rel[waste[turned - 1]] == 0:
                    card = waste[turned - 1]
                    key += 1 << (HOME_SHIFT + 4 * (card // 13))
                    homes = _raise(homes, card // 13)
                    waste = waste[:turned - 1] + waste[turned:]
                    turned -= 1
                    continue
            if ns and () in piles:  # a space takes the stock's top card
                index = piles.index(())
                card = stock[ns - 1]
                ns -= 1
                key += (3 << (2 * card)) - (1 << STOCK_SHIFT)
                piles = piles[:index] + ((card,),) + piles[index + 1:]
                continue
            # Moves that never hurt
            moved = False
            for index, pile in enumerate(piles):
                if pile and self.safe_home(pile[-1], homes):
                    card = pile[-1]
                    key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card))
                    homes = _raise(homes, card // 13)
                    piles = piles[:index] + (pile[:-1],) + piles[index + 1:]
                    forced.append(PILES[index] + "f")
                    moved = True
                    break
            if moved:
                continue
            if ns and self.safe_home(stock[ns - 1], homes):
                card = stock[ns - 1]
                ns -= 1
                key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (1 << STOCK_SHIFT)
                homes = _raise(homes, card // 13)
                forced.append("sf")
                continue
            if waste and self.on_cycle(waste, turned, homes) and self.safe_home(waste[-1], homes):
                card = waste[-1]
                key += 1 << (HOME_SHIFT + 4 * (card // 13))
                homes = _raise(homes, card // 13)
                forced.append("p" * _turns_to(turned, len(waste)) + "tf")
                waste = waste[:-1]
                turned = len(waste)
                continue
            return ns, waste, turned, homes, piles, key

    def key(self, state: tuple) -> int:
        ns, waste, turned, homes, piles, key = state
        if self.on_cycle(waste, turned, homes):
            return key
        return key + (turned << TURNED_SHIFT)

    # --- moves -------------------------------------------------------------------------------

    def moves(self, state: tuple) -> list[tuple[int, str, tuple]]:
        """Every move open now or after turning the pack, as (order of trial, keys, position
        before the automatic moves)."""
        ns, waste, turned, homes, piles, key = state
        stock, rel = self.stock, self.rel
        found = []
        takers: dict[int, list[int]] = {}
        for index, pile in enumerate(piles):
            if pile:
                for card in FITTING[pile[-1]]:
                    takers.setdefault(card, []).append(index)

        def place(card: int, base_key: int, order: int, presses: str, source: str, rest: tuple) -> None:
            """Moves of a lone `card` (off the stock or the talon) home or onto a pile."""
            rest_ns, rest_waste, rest_turned = rest
            suit = card // 13
            if homes[suit] == rel[card]:
                found.append((0, presses + source + "f",
                              (rest_ns, rest_waste, rest_turned, _raise(homes, suit), piles,
                               base_key + (1 << (HOME_SHIFT + 4 * suit)))))
            for index in takers.get(card, ()):
                pile = piles[index]
                found.append((order, presses + source + PILES[index],
                              (rest_ns, rest_waste, rest_turned, homes,
                               piles[:index] + (pile + (card,),) + piles[index + 1:],
                               base_key + (_lies_on(card, pile[-1]) << (2 * card)))))

        if ns:
            place(stock[ns - 1], key - (1 << STOCK_SHIFT), 1, "", "s", (ns - 1, waste, turned))
        for index, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            if homes[card // 13] == rel[card]:
                found.append((0, PILES[index] + "f",
                              (ns, waste, turned, _raise(homes, card // 13), piles[:index] + (pile[:-1],) + piles[index + 1:],
                               key + (1 << (HOME_SHIFT + 4 * (card // 13)))
                               - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card)))))
            bottom = pile[0]
            for target in takers.get(bottom, ()):
                if target != index:
                    under = piles[target]
                    joined = piles[:target] + (under + pile,) + piles[target + 1:]
                    joined = joined[:index] + ((),) + joined[index + 1:]
                    found.append((2 if ns else 3, PILES[index] + PILES[target],
                                  (ns, waste, turned, homes, joined,
                                   key + ((_lies_on(bottom, under[-1]) - 3) << (2 * bottom)))))
        space = piles.index(()) if not ns and () in piles else None
        size = len(waste)
        on_top, presses, visited = turned, "", set()
        while True:
            if on_top:
                card = waste[on_top - 1]
                rest_waste = waste[:on_top - 1] + waste[on_top:]
                if presses and rel[card] == 0:  # turning shows a base-rank card: it goes home
                    found.append((0, presses, (ns, waste, on_top, homes, piles, key)))
                    break
                place(card, key, 3, presses, "t", (ns, rest_waste, on_top - 1))
                if space is not None:
                    found.append((4, presses + "t" + PILES[space],
                                  (ns, rest_waste, on_top - 1, homes,
                                   piles[:space] + ((card,),) + piles[space + 1:], key + (3 << (2 * card)))))
            visited.add(on_top)
            if not size:
                break
            on_top = min(on_top + TURN_COUNT, size) if on_top < size else 0
            presses += "p"
            if on_top in visited:
                break
        found.sort(key=lambda move: (move[0], len(move[1])))
        return found

    # --- the search --------------------------------------------------------------------------

    def search(self, state: tuple) -> bool:
        if state[3] == ALL_HOME:
            return True
        key = self.key(state)
        seen = self.seen
        if key in seen:
            return False
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            self.nodes -= 1
            raise _OutOfBudget
        if self.deadline is not None and not self.nodes % CLOCK_CHECKS and time.thread_time() > self.deadline:
            raise _OutOfBudget
        if len(seen) >= REMEMBERED:
            seen.clear()
        seen.add(key)
        line = self.line
        for _, keys, following in self.moves(state):
            depth = len(line)
            line.append(keys)
            if self.search(self.settle(following, line)):
                return True
            del line[depth:]
        return False

    def run(self) -> Verdict:
        try:
            start = self.settle(self.start, self.line)
            won = self.search(start)
        except _OutOfBudget:
            return Verdict("unknown", (), self.nodes)
        return Verdict("won" if won else "lost", tuple(self.line) if won else (), self.nodes)


def _raise(homes: tuple, suit: int) -> tuple:
    return homes[:suit] + (homes[suit] + 1,) + homes[suit + 1:]


def solve(position: Position, budget: int | None = None, *, seconds: float | None = None) -> Verdict:
    """Search for a winning line from `position`, expanding at most `budget` positions and using at
    most `seconds` of processor time; with neither given, the budget is DEFAULT_BUDGET."""
    if budget is None and seconds is None:
        budget = DEFAULT_BUDGET
    return _Search(position, budget, seconds).run()
