"""Can this deal still be won, with every card known? Depth-first searches with proofs of loss.

The game never repeats a position: every move sends a card home, takes one from the stock or the
talon, or empties a pile. So a search that remembers the positions it has exhausted is exact: when
no move is left untried, the deal is lost. What makes it quick enough:

- Positions are keyed by one integer: for each card on the tableau, which card it lies on (or that
  it starts a pile), plus the foundations' heights and the stock's size. The talon needs no place
  in the key: it is whatever the pack held that is neither home nor on the tableau, in its order.
- Turning the pack is not a move. A position offers every talon card that some number of turns
  would show, and positions whose pack stands anywhere on the same turning cycle are one position.
- Moves that can never hurt are made without trying the others: a card goes home from a pile or
  the stock (or the talon's last card, when the pack is on its cycle) once each card of the other
  colour one rank below is home or lies on the tableau already, so no card could ever need to lie
  on it.
- Moves are tried foundations first, then those that dig into the stock, then the rest.
- An easier game proves losses: any talon card may be played at any time. A position lost even
  so is lost. In that game a talon card may as well wait in the talon until a card is to go on
  it, so it is laid on the tableau only in a run under the stock's top card or a whole pile
  moving at once, which keeps the easier game's search small.
- Two searches take turns with growing budgets: the game's own, each round after the first with
  its ties broken at random (a search that went wrong early is not stuck there), and the easier
  game's from the start. After the first round the game's search also asks the easier game, for a
  few positions' worth, about each layout it meets, and drops those it proves lost. Positions
  found lost are kept from round to round.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .rules import FITTING, PILES, TURN_COUNT, Position, rank_of, suit_of

DEFAULT_BUDGET = 20_000  # positions expanded before the search gives up, when no time is given
FIRST_ROUND = 3_000  # positions the first round of each search may expand; each round doubles it
LOST_KEPT = 600_000  # positions remembered per set; past this a set is emptied (sound, only slower)
WON_KEPT = 200_000  # positions of the easier game remembered as won
CHECK_NODES = 100  # positions of the easier game searched at each position of the game
EASIER_SHARE = 4  # the easier game's rounds are this many times longer: it settles lost deals sooner
CLOCK_CHECKS = 256  # positions between looks at the clock

# Bit layout of a position's key: 2 bits per card for what it lies on, then the foundations,
# the stock's size and where the pack stands on its turning cycle.
HOME_SHIFT = 104
STOCK_SHIFT = 120
TURNED_SHIFT = 124
LAYOUT = (1 << TURNED_SHIFT) - 1  # the key's bits that do not say where the pack stands
ALL_HOME = (13, 13, 13, 13)
HOLDERS = [tuple(under for under in range(52) if card in FITTING[under]) for card in range(52)]  # what goes under

# Order of trial
HOME, FROM_STOCK, DIGGING_PILE_MOVE, USEFUL_TALON_CARD, TALON_CARD, OTHER = range(6)


def pile_takers(piles) -> dict[int, list[int]]:
    """Card -> the indices of the tableau piles it may be laid on now."""
    takers: dict[int, list[int]] = {}
    for index, pile in enumerate(piles):
        if pile:
            for card in FITTING[pile[-1]]:
                takers.setdefault(card, []).append(index)
    return takers


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
    return -(-(target - turned) // TURN_COUNT)


def _raise(homes: tuple, suit: int) -> tuple:
    return homes[:suit] + (homes[suit] + 1,) + homes[suit + 1:]


class _Search:
    """Searches from one position, resumable round after round. A state is (stock size, waste,
    turned, homes, piles, key without the turned part); `homes` counts each suit's cards home.

    With `free_talon`, the game searched is the easier one where any talon card may be played."""

    def __init__(self, position: Position, free_talon: bool = False):
        stock, waste, turned, homes, tableau, base = position
        self.stock = stock
        self.free_talon = free_talon
        self.rel = [(rank_of(card) - base) % 13 for card in range(52)]  # height on its foundation
        self.lost: set[int] = set()
        self.lost_layouts: set[int] = set()  # keys of layouts lost whatever the talon's order
        self.won: set[int] = set()  # in the easier game, positions found won
        self.easier: _Search | None = None  # the easier game, when it is asked at every position
        self.asked: set[int] = set()  # layouts the easier game could not prove lost
        self.nodes = 0
        self.line: list[str] = []
        self.shuffle: random.Random | None = None
        self.limit = 0
        self.deadline: float | None = None
        heights = [0, 0, 0, 0]
        for pile in homes:
            if pile:
                heights[suit_of(pile[0])] = len(pile)
        key = len(stock) << STOCK_SHIFT
        for suit, height in enumerate(heights):
            key += height << (HOME_SHIFT + 4 * suit)
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

    def safe_home(self, card: int, homes: tuple, key: int) -> bool:
        """`card` may go home now, and no card could ever want to lie on it: each card of the other
        colour one rank below is home, or already lies on a card of the tableau (which it leaves
        only for home)."""
        height = self.rel[card]
        if homes[card // 13] != height:
            return False
        if height <= 1:  # only a base-rank card could lie on it, and those go home by themselves
            return True
        for lower in FITTING[card]:
            if homes[lower // 13] < height and (key >> (2 * lower)) & 3 not in (1, 2):
                return False
        return True

    def settle(self, state: tuple, forced: list[str]) -> tuple:
        """The rules' automatic moves (a base-rank card home, a space filled from the stock), then
        the moves that can never hurt, appending their keys to `forced`, until nothing moves."""
        ns, waste, turned, homes, piles, key = state
        stock, rel, safe_home = self.stock, self.rel, self.safe_home
        homes, piles = list(homes), list(piles)
        while True:
            if 0 in homes:  # an exposed base-rank card goes home by itself
                moved = False
                for index, pile in enumerate(piles):
                    if pile and rel[pile[-1]] == 0:
                        card = pile[-1]
                        key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (
                            _lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card))
                        homes[card // 13] += 1
                        piles[index] = pile[:-1]
                        moved = True
                        break
                if moved:
                    continue
                if ns and rel[stock[ns - 1]] == 0:
                    card = stock[ns - 1]
                    ns -= 1
                    key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (1 << STOCK_SHIFT)
                    homes[card // 13] += 1
                    continue
                if turned and rel[waste[turned - 1]] == 0:
                    card = waste[turned - 1]
                    key += 1 << (HOME_SHIFT + 4 * (card // 13))
                    homes[card // 13] += 1
                    waste = waste[:turned - 1] + waste[turned:]
                    turned -= 1
                    continue
            if ns and () in piles:  # a space takes the stock's top card
                index = piles.index(())
                card = stock[ns - 1]
                ns -= 1
                key += (3 << (2 * card)) - (1 << STOCK_SHIFT)
                piles[index] = (card,)
                continue
            # Moves that never hurt
            moved = False
            for index, pile in enumerate(piles):
                while pile:
                    card = pile[-1]
                    if homes[card // 13] != rel[card] or not safe_home(card, homes, key):
                        break
                    key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (
                        _lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card))
                    homes[card // 13] += 1
                    pile = pile[:-1]
                    piles[index] = pile
                    forced.append(PILES[index] + "f")
                    moved = True
            if moved:
                continue
            if ns:
                card = stock[ns - 1]
                if homes[card // 13] == rel[card] and safe_home(card, homes, key):
                    ns -= 1
                    key += (1 << (HOME_SHIFT + 4 * (card // 13))) - (1 << STOCK_SHIFT)
                    homes[card // 13] += 1
                    forced.append("sf")
                    continue
            if self.free_talon:
                # In the easier game the talon's order means nothing: base-rank cards and safe
                # cards anywhere in it go home.
                gone = set()
                while True:
                    before = len(gone)
                    for card in waste:
                        if card not in gone and (rel[card] == 0 or (
                                homes[card // 13] == rel[card] and safe_home(card, homes, key))):
                            key += 1 << (HOME_SHIFT + 4 * (card // 13))
                            homes[card // 13] += 1
                            gone.add(card)
                    if len(gone) == before:
                        break
                if gone:
                    waste = tuple(card for card in waste if card not in gone)
                    continue
            elif waste:
                card = waste[-1]
                if homes[card // 13] == rel[card] and safe_home(card, homes, key) and self.on_cycle(
                        waste, turned, homes):
                    key += 1 << (HOME_SHIFT + 4 * (card // 13))
                    homes[card // 13] += 1
                    forced.append("p" * _turns_to(turned, len(waste)) + "tf")
                    waste = waste[:-1]
                    turned = len(waste)
                    continue
            return ns, waste, turned, tuple(homes), tuple(piles), key

    def key(self, state: tuple) -> int:
        ns, waste, turned, homes, piles, key = state
        if self.free_talon or self.on_cycle(waste, turned, homes):
            return key
        return key + (turned << TURNED_SHIFT)

    # --- moves -------------------------------------------------------------------------------

    def moves(self, state: tuple) -> list[tuple[int, str, tuple]]:
        """Every move open now or after turning the pack, as (order of trial, keys, position
        before the automatic moves), in the order to try them."""
        if self.free_talon:
            return self.free_moves(state)
        ns, waste, turned, homes, piles, key = state
        stock, rel = self.stock, self.rel
        found = []
        takers = pile_takers(piles)
        stock_top = stock[ns - 1] if ns else None
        bottoms = {pile[0] for pile in piles if pile}

        if ns:
            card = stock_top
            suit = card // 13
            rest_key = key - (1 << STOCK_SHIFT)
            if homes[suit] == rel[card]:
                found.append((HOME, "sf", (ns - 1, waste, turned, _raise(homes, suit), piles,
                                           rest_key + (1 << (HOME_SHIFT + 4 * suit)))))
            for index in takers.get(card, ()):
                pile = piles[index]
                found.append((FROM_STOCK, "s" + PILES[index],
                              (ns - 1, waste, turned, homes, piles[:index] + (pile + (card,),) + piles[index + 1:],
                               rest_key + (_lies_on(card, pile[-1]) << (2 * card)))))
        for index, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            if homes[card // 13] == rel[card]:
                found.append((HOME, PILES[index] + "f",
                              (ns, waste, turned, _raise(homes, card // 13),
                               piles[:index] + (pile[:-1],) + piles[index + 1:],
                               key + (1 << (HOME_SHIFT + 4 * (card // 13)))
                               - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card)))))
            bottom = pile[0]
            for target in takers.get(bottom, ()):
                if target != index:
                    under = piles[target]
                    joined = piles[:target] + (under + pile,) + piles[target + 1:]
                    joined = joined[:index] + ((),) + joined[index + 1:]
                    found.append((DIGGING_PILE_MOVE if ns else OTHER, PILES[index] + PILES[target],
                                  (ns, waste, turned, homes, joined,
                                   key + ((_lies_on(bottom, under[-1]) - 3) << (2 * bottom)))))
        space = piles.index(()) if not ns and () in piles else None

        def play(card: int, presses: str, rest_waste: tuple, rest_turned: int) -> None:
            """The moves of talon card `card`, shown after `presses`."""
            suit = card // 13
            if homes[suit] == rel[card]:
                found.append((HOME, presses + "tf", (ns, rest_waste, rest_turned, _raise(homes, suit), piles,
                                                     key + (1 << (HOME_SHIFT + 4 * suit)))))
            targets = takers.get(card, ())
            if targets:
                helps = stock_top in FITTING[card] or not bottoms.isdisjoint(FITTING[card])
                for index in targets:
                    pile = piles[index]
                    found.append((USEFUL_TALON_CARD if helps else TALON_CARD, presses + "t" + PILES[index],
                                  (ns, rest_waste, rest_turned, homes,
                                   piles[:index] + (pile + (card,),) + piles[index + 1:],
                                   key + (_lies_on(card, pile[-1]) << (2 * card)))))
            if space is not None:
                found.append((OTHER, presses + "t" + PILES[space],
                              (ns, rest_waste, rest_turned, homes,
                               piles[:space] + ((card,),) + piles[space + 1:], key + (3 << (2 * card)))))

        def playable(card: int) -> bool:
            return homes[card // 13] == rel[card] or card in takers or space is not None

        size = len(waste)
        on_top, presses, visited = turned, "", set()
        while True:
            if on_top:
                card = waste[on_top - 1]
                if presses and rel[card] == 0:  # turning shows a base-rank card: it goes home
                    found.append((HOME, presses, (ns, waste, on_top, homes, piles, key)))
                    break
                if playable(card):
                    play(card, presses, waste[:on_top - 1] + waste[on_top:], on_top - 1)
            visited.add(on_top)
            if not size:
                break
            on_top = min(on_top + TURN_COUNT, size) if on_top < size else 0
            presses += "p"
            if on_top in visited:
                break
        if self.shuffle is None:
            found.sort(key=lambda move: (move[0], len(move[1])))
        else:
            draw = self.shuffle.random
            found.sort(key=lambda move: (move[0], draw()))
        return found

    def free_moves(self, state: tuple) -> list[tuple[int, str, tuple]]:
        """The moves of the easier game worth trying. There a talon card can wait in the talon
        until it is wanted, so it goes on the tableau only as part of a run laid down at once
        under a card that then moves: the stock's top card, or a whole pile. A card goes home from
        anywhere. (The keys are left empty: no line of the easier game is ever played.)"""
        ns, waste, turned, homes, piles, key = state
        stock, rel = self.stock, self.rel
        in_talon = set(waste)
        found = []
        takers = pile_takers(piles)
        space = piles.index(()) if not ns and () in piles else None

        for index, card in enumerate(waste):
            if homes[card // 13] == rel[card]:
                found.append((HOME, "", (ns, waste[:index] + waste[index + 1:], 0, _raise(homes, card // 13), piles,
                                         key + (1 << (HOME_SHIFT + 4 * (card // 13))))))
        if ns:
            card = stock[ns - 1]
            if homes[card // 13] == rel[card]:
                found.append((HOME, "", (ns - 1, waste, 0, _raise(homes, card // 13), piles,
                                         key + (1 << (HOME_SHIFT + 4 * (card // 13))) - (1 << STOCK_SHIFT))))
        for index, pile in enumerate(piles):
            if pile:
                card = pile[-1]
                if homes[card // 13] == rel[card]:
                    found.append((HOME, "", (ns, waste, 0, _raise(homes, card // 13),
                                             piles[:index] + (pile[:-1],) + piles[index + 1:],
                                             key + (1 << (HOME_SHIFT + 4 * (card // 13)))
                                             - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card)))))

        def runs(card: int, excluded: int | None):
            """(pile, run of talon cards top last) ways to lay a run on which `card` then fits:
            the run empty (`card` goes straight onto the pile), or starting on a pile's top card
            or in a space."""
            for target in takers.get(card, ()):
                if target != excluded:
                    yield target, ()
            waiting = [(card, ())]
            while waiting:
                lowest, run = waiting.pop()
                for holder in HOLDERS[lowest]:
                    if holder in in_talon and holder not in run:
                        longer = (holder,) + run
                        for target in takers.get(holder, ()):
                            if target != excluded:
                                yield target, longer
                        if space is not None:
                            yield space, longer
                        if len(longer) < 12:
                            waiting.append((holder, longer))

        def lay(target: int, run: tuple, card_key: int) -> tuple:
            """Piles, waste and key after laying `run` on pile `target` (its first card on the
            pile's top card, or alone in the space)."""
            pile = piles[target]
            under = pile[-1] if pile else None
            laid_key = card_key
            for card in run:
                laid_key += _lies_on(card, under) << (2 * card)
                under = card
            rest = tuple(card for card in waste if card not in run) if run else waste
            return piles[:target] + (pile + run,) + piles[target + 1:], rest, laid_key, under

        if ns:
            card = stock[ns - 1]
            for target, run in runs(card, None):
                laid, rest, laid_key, under = lay(target, run, key - (1 << STOCK_SHIFT))
                laid = laid[:target] + (laid[target] + (card,),) + laid[target + 1:]
                found.append((FROM_STOCK + len(run), "", (ns - 1, rest, 0, homes, laid,
                                                          laid_key + (_lies_on(card, under) << (2 * card)))))
        for index, pile in enumerate(piles):
            if not pile:
                continue
            bottom = pile[0]
            for target, run in runs(bottom, index):
                laid, rest, laid_key, under = lay(target, run, key)
                laid = laid[:target] + (laid[target] + pile,) + laid[target + 1:]
                laid = laid[:index] + ((),) + laid[index + 1:]
                laid_key += (_lies_on(bottom, under) - 3) << (2 * bottom)
                found.append((DIGGING_PILE_MOVE + len(run), "", (ns, rest, 0, homes, laid, laid_key)))
        found.sort(key=lambda move: move[0])
        return found

    # --- the search --------------------------------------------------------------------------

    def search(self, state: tuple) -> bool:
        """Whether `state` (settled) can be won; the line to it is left in self.line. Positions
        found lost are remembered, and in the easier game those found won too."""
        if state[3] == ALL_HOME:
            return True
        key = self.key(state)
        lost = self.lost
        if key in lost or (key & LAYOUT) in self.lost_layouts:
            return False
        if key in self.won:
            return True
        if self.nodes >= self.limit:
            raise _OutOfBudget
        self.nodes += 1
        if self.deadline is not None and not self.nodes % CLOCK_CHECKS and time.thread_time() > self.deadline:
            raise _OutOfBudget
        easier = self.easier
        if easier is not None and (key & LAYOUT) not in self.asked:
            if easier.proves_lost(state, self):
                self.lost_layouts.add(key & LAYOUT)  # whatever the talon's order
                return False
            if len(self.asked) >= LOST_KEPT:
                self.asked.clear()
            self.asked.add(key & LAYOUT)
        line = self.line
        for _, keys, following in self.moves(state):
            depth = len(line)
            line.append(keys)
            if self.search(self.settle(following, line)):
                if self.free_talon and len(self.won) < WON_KEPT:
                    self.won.add(key)
                return True
            del line[depth:]
        if len(lost) >= LOST_KEPT:
            lost.clear()
        lost.add(key)
        return False

    def round(self, nodes: int, deadline: float | None, shuffle: random.Random | None) -> str:
        """Search again, with at most `nodes` more positions expanded: "won", "lost" or "unknown"."""
        self.limit, self.deadline, self.shuffle = self.nodes + nodes, deadline, shuffle
        self.line = []
        try:
            won = self.search(self.settle(self.start, self.line))
        except _OutOfBudget:
            return "unknown"
        return "won" if won else "lost"

    def proves_lost(self, state: tuple, game: _Search) -> bool:
        """Whether the easier game, searched a little from the game's position `state`, is lost
        from there. The positions it expands are counted to `game`, within its limit."""
        ns, waste, turned, homes, piles, key = state
        nodes = min(CHECK_NODES, game.limit - game.nodes)
        self.limit, self.deadline, self.line = self.nodes + nodes, None, []
        started = self.nodes
        try:
            lost = not self.search(self.settle((ns, waste, 0, homes, piles, key), self.line))
        except _OutOfBudget:
            lost = False
        game.nodes += self.nodes - started
        self.nodes = started
        return lost

def solve(position: Position, *, budget: int | None = None, seconds: float | None = None) -> Verdict:
    """Search for a winning line from `position`, expanding at most `budget` positions and using at
    most `seconds` of this thread's processor time; with neither given, the budget is DEFAULT_BUDGET."""
    if budget is None and seconds is None:
        budget = DEFAULT_BUDGET
    deadline = None if seconds is None else time.thread_time() + seconds
    game, easier = _Search(position), _Search(position, free_talon=True)
    game.lost_layouts = easier.lost  # lost in the easier game is lost in the game
    searches = [game, easier]
    shuffle = None
    allowance = FIRST_ROUND
    while True:
        for search in list(searches):
            spent = game.nodes + easier.nodes
            share = allowance * (EASIER_SHARE if search is easier else 1)
            nodes = share if budget is None else min(share, budget - spent)
            if nodes <= 0 or (deadline is not None and time.thread_time() > deadline):
                return Verdict("unknown", (), spent)
            outcome = search.round(nodes, deadline, shuffle if search is game else None)
            if outcome == "lost":
                return Verdict("lost", (), game.nodes + easier.nodes)
            if outcome == "won":
                if search is game:
                    return Verdict("won", tuple(game.line), game.nodes + easier.nodes)
                searches.remove(easier)  # the easier game is won: it proves nothing
        # Most deals are settled in the first round, without the cost of asking the easier game
        # at every position; the later rounds ask it.
        game.easier = easier
        shuffle = shuffle or random.Random(len(position.waste))
        allowance *= 2
