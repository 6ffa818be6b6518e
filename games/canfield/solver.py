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
  found lost are kept from round to round, the newest when there are too many.
- Where the pack stands orders positions too: turning it from a stand off its cycle reaches every
  stand three cards on, then the cycle, so a stand found lost makes those lost (unless a base-rank
  card would be shown on the way and go home).
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final, NamedTuple

from ..cards import DECK_SIZE, SUIT_SIZE, number_of, rank_of, suit_of
from .rules import FITTING as FITTING_LIST, PILES, TURN_COUNT, Position

DEFAULT_BUDGET: Final = 20_000  # positions expanded before the search gives up, when no time is given
FIRST_ROUND: Final = 3_000  # positions the first round of each search may expand; each round doubles it
LOST_KEPT: Final = 400_000  # layouts remembered as lost (with the stands where they are) in each of a
# search's two dicts: when the newer is full, the older is forgotten (sound, only slower). With
# ASKED_KEPT and WON_KEPT at most ~200 MB of keys (~115 bytes a layout of the game's, ~83 of the
# easier game's, ~72 a key of a set), so that a deal's whole process stays under 256 MiB
ASKED_KEPT: Final = 400_000  # layouts the easier game was asked about and could not prove lost
WON_KEPT: Final = 200_000  # positions of the easier game remembered as won
CHECK_NODES: Final = 3_000  # positions of the easier game searched, at most, at each layout of the game
EASIER_SHARE: Final = 4  # the easier game's rounds are this many times longer: it settles lost deals sooner
CLOCK_CHECKS: Final = 256  # positions between looks at the clock, and between moments other threads
# may run (a window's frames, a server's sessions, while a search runs on a thread of its own)

# Bit layout of a position's key: 2 bits per card for what it lies on, then the foundations,
# the stock's size and where the pack stands on its turning cycle.
HOME_SHIFT: Final = 104
STOCK_SHIFT: Final = 120
TURNED_SHIFT: Final = 124
LAYOUT: Final = (1 << TURNED_SHIFT) - 1  # the key's bits that do not say where the pack stands
ALL_HOME: Final = (SUIT_SIZE,) * 4
HIGHER_SUITS: Final = number_of(2, 1)  # cards from here on are of suits 2 and 3
ON_CARD: Final = tuple(1 + (under >= HIGHER_SUITS) for under in range(DECK_SIZE))  # `_lies_on` a card `under`
LONGEST_RUN: Final = SUIT_SIZE - 1  # talon cards laid in one run under a card: a king down to an ace below it
SUIT: Final = tuple(suit_of(card) for card in range(DECK_SIZE))  # card -> suit, looked up in the inner loops
HOME_BIT: Final = tuple(1 << (HOME_SHIFT + 4 * suit_of(card)) for card in range(DECK_SIZE))  # card -> the key's
# gain when it goes home: one more card on its suit's foundation
FITTING: Final = tuple(FITTING_LIST)  # what goes on each card (a constant here: compiled, read without a look-up)
HOLDERS: Final = [
    tuple(under for under in range(DECK_SIZE) if card in FITTING[under]) for card in range(DECK_SIZE)
]  # what goes under

# Order of trial
HOME, FROM_STOCK, DIGGING_PILE_MOVE, USEFUL_TALON_CARD, TALON_CARD, OTHER = range(6)


class Solved(enum.Enum):
    """What the solver found."""

    WON = "won"  # a winning line
    LOST = "lost"  # proof that none exists
    UNKNOWN = "unknown"  # neither, within the budget or the time


Homes = tuple[int, ...]  # each suit's cards home
Cards = tuple[int, ...]  # cards in order: a pile bottom first, the waste
Pile = Cards  # a tableau pile, bottom first
Piles = tuple[Pile, ...]
SearchState = tuple[int, Any, int, Homes, Piles, int]
"""A position as the search keeps it, a plain tuple (the search builds millions): the cards left
in the stock (its order is the search's, `_Search.stock`); the waste, the talon then the pack as in
`Position`, a tuple, or in the easier game, where their order means nothing, the set of their cards
as an int's bits (bit n for card n); the cards of the waste on the talon; each suit's cards home;
the tableau; the position's key, without where the pack stands."""
Move = tuple[int, str, SearchState]  # a move: (order of trial, its keys, the state it leads to)
_order_of_trial = itemgetter(0)  # of a move (order of trial, keys, state)


def _trial_then_presses(move: Move) -> int:
    """A move's place in the order of trial, and among moves of the same order the fewer key
    presses first (a move's keys are far fewer than 256)."""
    return (move[0] << 8) + len(move[1])


def pile_takers(piles: Piles) -> dict[int, list[int]]:
    """Card -> the indices of the tableau piles it may be laid on now."""
    takers: dict[int, list[int]] = {}
    for index, pile in enumerate(piles):
        if pile:
            for card in FITTING[pile[-1]]:
                takers.setdefault(card, []).append(index)
    return takers


class Verdict(NamedTuple):
    """What a search found, and how far it went. (A NamedTuple: it goes to and from the host's worker
    processes, and the compiled module's frozen dataclasses do not unpickle.)"""

    outcome: Solved
    line: tuple[str, ...]  # the winning line, when won: each move's key presses
    nodes: int  # positions expanded
    best_home: int = 0  # the most cards home in a position of the game that the search reached


class _OutOfBudget(Exception):
    pass


def _lies_on(card: int, under: int | None) -> int:
    """The 2-bit code of what `card` lies on: 3 for nothing (it starts a pile), else which of the
    two cards of the other colour one rank higher (1 for the lower suit, 2 for the higher)."""
    return 3 if under is None else ON_CARD[under]


def _turns_to(turned: int, target: int) -> int:
    """Presses of P that bring the pack from `turned` to `target` within one pass (target >= turned)."""
    return -(-(target - turned) // TURN_COUNT)


def _raise(homes: Homes, suit: int) -> Homes:
    return homes[:suit] + (homes[suit] + 1,) + homes[suit + 1 :]


def _off_pile_bits(pile: Pile) -> int:
    """What the key loses when the top card of `pile` leaves it: what that card lay on."""
    card = pile[-1]
    return _lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card)


def _bits(cards: Sequence[int]) -> int:
    """The set of `cards` as an int's bits."""
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


def _without(piles: Piles, index: int, pile: Pile) -> Piles:
    """`piles` with pile `index` replaced by `pile`."""
    return piles[:index] + (pile,) + piles[index + 1 :]


class _NoProofs:
    """Lost layouts, when there are none to ask."""

    def __init__(self) -> None:
        self.lost: dict[int, int] = {}
        self.lost_before: dict[int, int] = {}


class _Search:
    """Searches from one position, resumable round after round, over `SearchState`s.

    With `free_talon`, the game searched is the easier one where any talon card may be played."""

    def __init__(self, position: Position, free_talon: bool = False):
        stock, waste, turned, homes, tableau, base = position
        self.stock = stock
        self.free_talon = free_talon
        self.rel = [(rank_of(card) - base) % SUIT_SIZE for card in range(DECK_SIZE)]  # height on its foundation
        self.next_home = [
            [number_of(suit, (base + height) % SUIT_SIZE + 1) for height in range(SUIT_SIZE)]
            for suit in range(len(ALL_HOME))
        ]  # suit, height -> the card its foundation takes
        self.lost: dict[int, int] = {}  # positions found lost, the newer ones: layout -> the stands of
        # the pack (bit 0 its cycle, bit n standing at n off it) where the layout was found lost
        self.lost_before: dict[int, int] = {}  # the older ones, forgotten next when `lost` is full
        self.proofs: _Search | _NoProofs = self if free_talon else _NoProofs()  # whose lost positions
        # are layouts lost whatever the talon's order: the easier game's, once `solve` joins them
        self.won: set[int] = set()  # in the easier game, positions found won
        self.easier: _Search | None = None  # the easier game, when it is asked at every position
        self.asked: set[int] = set()  # layouts the easier game could not prove lost
        self.nodes = 0
        self.best_home = 0  # the most cards home of the positions searched
        self.line: list[str] = []
        self.shuffle: random.Random | None = None
        self.limit = 0
        self.deadline: float | None = None
        self.next_look = 0  # `nodes` when the clock is looked at next
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
        talon = _bits(waste) if free_talon else tuple(waste)
        self.start = (len(stock), talon, 0 if free_talon else turned, tuple(heights), tuple(tableau), key)

    # --- positions ---------------------------------------------------------------------------

    def on_cycle(self, waste: Cards, turned: int, homes: Homes) -> bool:
        """Whether the pack stands on its plain turning cycle (every third card and the last), with
        no base-rank card on that cycle to go home on the way: then every stand on it is one."""
        size = len(waste)
        if turned % TURN_COUNT and turned != size:
            return False
        if 0 not in homes:
            return True
        rel = self.rel
        return not any(rel[waste[place - 1]] == 0 for place in range(TURN_COUNT, size, TURN_COUNT)) and not (
            size and rel[waste[-1]] == 0
        )

    def reached_from_lost(self, waste: Cards, turned: int, stands: int) -> bool:
        """Whether the pack, off its cycle, stands where turning it from a stand found lost in the
        same layout brings it (three cards back, six, ...) without showing a base-rank card: the
        stand below offers every move this one does, and more, so this one is lost too."""
        rel = self.rel
        stand = turned
        while stand > TURN_COUNT:
            if rel[waste[stand - 1]] == 0:  # turning to `stand` from below would send it home
                return False
            stand -= TURN_COUNT
            if (stands >> stand) & 1:
                return True
        return False

    def remember_lost(self, layout: int, stands: int) -> None:
        """Keep `layout` as lost where the pack stands as `stands` says; when the newer dict is full
        the older one is forgotten and the newer becomes the older (sound: a position forgotten is
        only searched again)."""
        lost = self.lost
        if len(lost) >= LOST_KEPT:
            self.lost_before = lost
            self.lost = lost = {}
        lost[layout] = lost.get(layout, 0) | stands

    def reaches_cycle(self, waste: Cards, turned: int, homes: Homes) -> bool:
        """Whether turning the pack from `turned` reaches its plain turning cycle, one position
        however it stands, without showing a base-rank card: then a position lost off the cycle
        is lost on it too (the cycle offers no move the stand off it does not)."""
        if 0 not in homes:
            return True
        if not self.on_cycle(waste, len(waste), homes):
            return False
        rel = self.rel
        return not any(rel[waste[stand - 1]] == 0 for stand in range(turned + TURN_COUNT, len(waste), TURN_COUNT))

    def safe_home(self, card: int, homes: Sequence[int], key: int) -> bool:
        """`card` may go home now, and no card could ever want to lie on it: each card of the other
        colour one rank below is home, or already lies on a card of the tableau (which it leaves
        only for home)."""
        height = self.rel[card]
        if homes[SUIT[card]] != height:
            return False
        if height <= 1:  # only a base-rank card could lie on it, and those go home by themselves
            return True
        for lower in FITTING[card]:
            if homes[SUIT[lower]] < height and (key >> (2 * lower)) & 3 not in (1, 2):
                return False
        return True

    # --- the moves made without trying others ------------------------------------------------
    # The steps of `settle` and of the move lists take a state's six fields, unpacked once by their
    # caller, and the steps of `settle` hand on the state they lead to (they run millions of times).

    def settle(self, state: SearchState, forced: list[str]) -> SearchState:
        """The rules' automatic moves (a base-rank card home, a space filled from the stock), then
        the moves that can never hurt, appending their keys to `forced`, until nothing moves."""
        free_talon = self.free_talon
        ns, waste, turned, homes, piles, key = state
        moved = False
        while True:
            following = (
                (0 in homes and self._base_card_home(ns, waste, turned, homes, piles, key))
                or (ns and () in piles and self._fill_space(ns, waste, turned, homes, piles, key))
                or self._safe_from_piles(ns, waste, turned, homes, piles, key, forced)
                or (ns and self._safe_from_stock(ns, waste, turned, homes, piles, key, forced))
                or (
                    waste
                    and (
                        self._free_talon_home(ns, waste, turned, homes, piles, key)
                        if free_talon
                        else self._safe_from_talon(ns, waste, turned, homes, piles, key, forced)
                    )
                )
            )
            if not following:
                return (ns, waste, turned, homes, piles, key) if moved else state
            ns, waste, turned, homes, piles, key = following
            moved = True

    def _base_card_home(
        self, ns: int, waste: Any, turned: int, homes: Homes, piles: Piles, key: int
    ) -> SearchState | None:
        """The first exposed base-rank card (a pile's top, the stock's, the talon's) gone home."""
        rel = self.rel
        for index, pile in enumerate(piles):
            if pile and rel[pile[-1]] == 0:
                card = pile[-1]
                return (
                    ns,
                    waste,
                    turned,
                    _raise(homes, SUIT[card]),
                    _without(piles, index, pile[:-1]),
                    key + HOME_BIT[card] - _off_pile_bits(pile),
                )
        if ns and rel[self.stock[ns - 1]] == 0:
            card = self.stock[ns - 1]
            return (ns - 1, waste, turned, _raise(homes, SUIT[card]), piles, key + HOME_BIT[card] - (1 << STOCK_SHIFT))
        if turned and rel[waste[turned - 1]] == 0:
            card = waste[turned - 1]
            return (
                ns,
                waste[: turned - 1] + waste[turned:],
                turned - 1,
                _raise(homes, SUIT[card]),
                piles,
                key + HOME_BIT[card],
            )
        return None

    def _fill_space(self, ns: int, waste: Any, turned: int, homes: Homes, piles: Piles, key: int) -> SearchState:
        """The stock's top card into the first space (there is one, and a stock)."""
        card = self.stock[ns - 1]
        return (
            ns - 1,
            waste,
            turned,
            homes,
            _without(piles, piles.index(()), (card,)),
            key + (3 << (2 * card)) - (1 << STOCK_SHIFT),
        )

    def _safe_from_piles(
        self, ns: int, waste: Any, turned: int, homes: Homes, piles: Piles, key: int, forced: list[str]
    ) -> SearchState | None:
        """Every pile's top card that may safely go home sent there, pile after pile, each pile
        until its top card may not. (Many may go at once: the foundations and piles are lists
        while they do.)"""
        rel = self.rel
        heights: Sequence[int] = homes  # the foundations' heights: `rising` once a card has gone home
        rising: list[int] = []
        left: list[Pile] | None = None  # the piles as a list, once a card has gone home
        for index, pile in enumerate(piles):
            while pile:
                card = pile[-1]
                if heights[SUIT[card]] != rel[card] or not self.safe_home(card, heights, key):
                    break
                if left is None:
                    heights = rising = list(homes)
                    left = list(piles)
                key += HOME_BIT[card] - (_lies_on(card, pile[-2] if len(pile) > 1 else None) << (2 * card))
                rising[SUIT[card]] += 1
                pile = pile[:-1]
                left[index] = pile
                forced.append(PILES[index] + "f")
        return None if left is None else (ns, waste, turned, tuple(rising), tuple(left), key)

    def _safe_from_stock(
        self, ns: int, waste: Any, turned: int, homes: Homes, piles: Piles, key: int, forced: list[str]
    ) -> SearchState | None:
        """The stock's top card home, when it may go safely (there is a stock)."""
        card = self.stock[ns - 1]
        if homes[SUIT[card]] != self.rel[card] or not self.safe_home(card, homes, key):
            return None
        forced.append("sf")
        return (ns - 1, waste, turned, _raise(homes, SUIT[card]), piles, key + HOME_BIT[card] - (1 << STOCK_SHIFT))

    def _safe_from_talon(
        self, ns: int, waste: Cards, turned: int, homes: Homes, piles: Piles, key: int, forced: list[str]
    ) -> SearchState | None:
        """The pack's last card home, turned to, when it may go safely and the pack stands on its
        turning cycle (so that turning to it passes nothing that could matter). There is a pack
        or a talon."""
        card = waste[-1]
        if (
            homes[SUIT[card]] != self.rel[card]
            or not self.safe_home(card, homes, key)
            or not self.on_cycle(waste, turned, homes)
        ):
            return None
        forced.append("p" * _turns_to(turned, len(waste)) + "tf")
        return (ns, waste[:-1], len(waste) - 1, _raise(homes, SUIT[card]), piles, key + HOME_BIT[card])

    def _free_talon_home(
        self, ns: int, waste: int, turned: int, homes: Homes, piles: Piles, key: int
    ) -> SearchState | None:
        """In the easier game the talon's order means nothing: base-rank cards and cards that may
        go safely home from anywhere in it, while any does. Only the next card of each suit may
        go, and going home only makes others safe, so it is enough to look at those four, again
        and again. (No keys: no line of the easier game is ever played.)"""
        next_home = self.next_home
        left = waste
        heights = list(homes)
        moved = True
        while moved:
            moved = False
            for suit in range(len(heights)):
                while heights[suit] < SUIT_SIZE:  # the suit as far up as it goes
                    height = heights[suit]
                    card = next_home[suit][height]
                    if not (left >> card) & 1 or not (height == 0 or self.safe_home(card, heights, key)):
                        break
                    key += HOME_BIT[card]
                    heights[suit] += 1
                    left -= 1 << card
                    moved = True
        if left == waste:
            return None
        return (ns, left, turned, tuple(heights), piles, key)

    def key(self, waste: Any, turned: int, homes: Homes, key: int) -> int:
        """A state's whole key: its `key` and, off the turning cycle, where the pack stands."""
        if self.free_talon or self.on_cycle(waste, turned, homes):
            return key
        return key + (turned << TURNED_SHIFT)

    # --- the moves of the game ---------------------------------------------------------------

    def moves(self, state: SearchState) -> list[Move]:
        """Every move open now or after turning the pack, as (order of trial, keys, position
        before the automatic moves), in the order to try them."""
        if self.free_talon:
            return self.free_moves(state)
        ns, waste, turned, homes, piles, key = state
        takers = pile_takers(piles)
        found: list[Move] = []
        if ns:
            self._stock_moves(ns, waste, turned, homes, piles, key, takers, found)
        self._pile_moves(ns, waste, turned, homes, piles, key, takers, found)
        self._talon_moves(ns, waste, turned, homes, piles, key, takers, found)
        if self.shuffle is None:
            found.sort(key=_trial_then_presses)
        else:
            draw = self.shuffle.random
            found.sort(key=lambda move: (move[0], draw()))
        return found

    def _stock_moves(
        self,
        ns: int,
        waste: Cards,
        turned: int,
        homes: Homes,
        piles: Piles,
        key: int,
        takers: dict[int, list[int]],
        found: list[Move],
    ) -> None:
        """The stock's top card home, and onto each pile that takes it."""
        card = self.stock[ns - 1]
        suit = SUIT[card]
        rest_key = key - (1 << STOCK_SHIFT)
        if homes[suit] == self.rel[card]:
            found.append(
                (
                    HOME,
                    "sf",
                    (ns - 1, waste, turned, _raise(homes, suit), piles, rest_key + HOME_BIT[card]),
                )
            )
        for index in takers.get(card, ()):
            pile = piles[index]
            found.append(
                (
                    FROM_STOCK,
                    "s" + PILES[index],
                    (
                        ns - 1,
                        waste,
                        turned,
                        homes,
                        _without(piles, index, pile + (card,)),
                        rest_key + (ON_CARD[pile[-1]] << (2 * card)),
                    ),
                )
            )

    def _pile_moves(
        self,
        ns: int,
        waste: Cards,
        turned: int,
        homes: Homes,
        piles: Piles,
        key: int,
        takers: dict[int, list[int]],
        found: list[Move],
    ) -> None:
        """Each pile's top card home, and each whole pile onto another that takes it (while the
        stock lasts, a move that digs into it: the space it leaves takes the stock's top card)."""
        rel = self.rel
        for index, pile in enumerate(piles):
            if not pile:
                continue
            card = pile[-1]
            if homes[SUIT[card]] == rel[card]:
                found.append(
                    (
                        HOME,
                        PILES[index] + "f",
                        (
                            ns,
                            waste,
                            turned,
                            _raise(homes, SUIT[card]),
                            _without(piles, index, pile[:-1]),
                            key + HOME_BIT[card] - _off_pile_bits(pile),
                        ),
                    )
                )
            bottom = pile[0]
            for target in takers.get(bottom, ()):
                if target != index:
                    under = piles[target]
                    joined = _without(_without(piles, target, under + pile), index, ())
                    found.append(
                        (
                            DIGGING_PILE_MOVE if ns else OTHER,
                            PILES[index] + PILES[target],
                            (ns, waste, turned, homes, joined, key + ((ON_CARD[under[-1]] - 3) << (2 * bottom))),
                        )
                    )

    def _talon_moves(
        self,
        ns: int,
        waste: Cards,
        turned: int,
        homes: Homes,
        piles: Piles,
        key: int,
        takers: dict[int, list[int]],
        found: list[Move],
    ) -> None:
        """The moves of each talon card that turning the pack would show, once round the pack
        from where it stands: turning stops early where it shows a base-rank card, which goes
        home (a move of presses of P alone)."""
        rel = self.rel
        space = piles.index(()) if not ns and () in piles else None
        movers = {pile[0] for pile in piles if pile}  # cards that move only with a card under them
        if ns:
            movers.add(self.stock[ns - 1])
        size = len(waste)
        on_top, presses, visited = turned, "", set()
        while True:
            if on_top:
                card = waste[on_top - 1]
                if presses and rel[card] == 0:  # turning shows a base-rank card: it goes home
                    found.append((HOME, presses, (ns, waste, on_top, homes, piles, key)))
                    break
                if homes[SUIT[card]] == rel[card] or card in takers or space is not None:
                    self._talon_card_moves(
                        ns, waste, turned, homes, piles, key, card, presses, on_top - 1, takers, space, movers, found
                    )
            visited.add(on_top)
            if not size:
                break
            on_top = (on_top + TURN_COUNT if on_top + TURN_COUNT < size else size) if on_top < size else 0
            presses += "p"
            if on_top in visited:
                break

    def _talon_card_moves(
        self,
        ns: int,
        waste: Cards,
        turned: int,
        homes: Homes,
        piles: Piles,
        key: int,
        card: int,
        presses: str,
        place: int,
        takers: dict[int, list[int]],
        space: int | None,
        movers: set[int],
        found: list[Move],
    ) -> None:
        """The moves of talon card `card`, on top after `presses` at `place` of the waste: home,
        onto each pile that takes it (sooner when one of `movers` could then go on it), into the
        space."""
        rest_waste = waste[:place] + waste[place + 1 :]
        suit = SUIT[card]
        if homes[suit] == self.rel[card]:
            found.append(
                (
                    HOME,
                    presses + "tf",
                    (ns, rest_waste, place, _raise(homes, suit), piles, key + HOME_BIT[card]),
                )
            )
        targets = takers.get(card, ())
        if targets:
            helps = not movers.isdisjoint(FITTING[card])
            for index in targets:
                pile = piles[index]
                found.append(
                    (
                        USEFUL_TALON_CARD if helps else TALON_CARD,
                        presses + "t" + PILES[index],
                        (
                            ns,
                            rest_waste,
                            place,
                            homes,
                            _without(piles, index, pile + (card,)),
                            key + (ON_CARD[pile[-1]] << (2 * card)),
                        ),
                    )
                )
        if space is not None:
            found.append(
                (
                    OTHER,
                    presses + "t" + PILES[space],
                    (ns, rest_waste, place, homes, _without(piles, space, (card,)), key + (3 << (2 * card))),
                )
            )

    # --- the moves of the easier game --------------------------------------------------------

    def free_moves(self, state: SearchState) -> list[Move]:
        """The moves of the easier game worth trying. There a talon card can wait in the talon
        until it is wanted, so it goes on the tableau only as part of a run laid down at once
        under a card that then moves: the stock's top card, or a whole pile. A card goes home from
        anywhere. (The keys are left empty: no line of the easier game is ever played.)"""
        ns, waste, turned, homes, piles, key = state
        found: list[Move] = []
        self._free_home_moves(ns, waste, turned, homes, piles, key, found)
        runs = _Runs(ns, waste, piles)
        if ns:
            self._free_stock_moves(ns, waste, turned, homes, piles, key, runs, found)
        self._free_pile_moves(ns, waste, turned, homes, piles, key, runs, found)
        found.sort(key=_order_of_trial)
        return found

    def _free_home_moves(
        self, ns: int, waste: int, turned: int, homes: Homes, piles: Piles, key: int, found: list[Move]
    ) -> None:
        """Every card that may go home: from the talon, the stock's top, each pile's top. Only the
        next card of each suit may, so the talon is asked for those."""
        rel, next_home = self.rel, self.next_home
        for suit, height in enumerate(homes):
            if height == SUIT_SIZE:
                continue
            card = next_home[suit][height]
            if not (waste >> card) & 1:
                continue
            found.append(
                (
                    HOME,
                    "",
                    (
                        ns,
                        waste - (1 << card),
                        0,
                        _raise(homes, SUIT[card]),
                        piles,
                        key + HOME_BIT[card],
                    ),
                )
            )
        if ns:
            card = self.stock[ns - 1]
            if homes[SUIT[card]] == rel[card]:
                found.append(
                    (
                        HOME,
                        "",
                        (
                            ns - 1,
                            waste,
                            0,
                            _raise(homes, SUIT[card]),
                            piles,
                            key + HOME_BIT[card] - (1 << STOCK_SHIFT),
                        ),
                    )
                )
        for index, pile in enumerate(piles):
            if pile:
                card = pile[-1]
                if homes[SUIT[card]] == rel[card]:
                    found.append(
                        (
                            HOME,
                            "",
                            (
                                ns,
                                waste,
                                0,
                                _raise(homes, SUIT[card]),
                                _without(piles, index, pile[:-1]),
                                key + HOME_BIT[card] - _off_pile_bits(pile),
                            ),
                        )
                    )

    def _free_stock_moves(
        self, ns: int, waste: int, turned: int, homes: Homes, piles: Piles, key: int, runs: _Runs, found: list[Move]
    ) -> None:
        """The stock's top card onto a pile, on a run of talon cards laid there first, or none."""
        card = self.stock[ns - 1]
        for target, run in runs.under(card, None):
            laid, rest, laid_key, under = runs.lay(target, run, key - (1 << STOCK_SHIFT))
            laid = _without(laid, target, laid[target] + (card,))
            found.append(
                (
                    FROM_STOCK + len(run),
                    "",
                    (ns - 1, rest, 0, homes, laid, laid_key + (_lies_on(card, under) << (2 * card))),
                )
            )

    def _free_pile_moves(
        self, ns: int, waste: int, turned: int, homes: Homes, piles: Piles, key: int, runs: _Runs, found: list[Move]
    ) -> None:
        """Each whole pile onto another, on a run of talon cards laid there first, or none."""
        for index, pile in enumerate(piles):
            if not pile:
                continue
            bottom = pile[0]
            for target, run in runs.under(bottom, index):
                laid, rest, laid_key, under = runs.lay(target, run, key)
                laid = _without(_without(laid, target, laid[target] + pile), index, ())
                laid_key += (_lies_on(bottom, under) - 3) << (2 * bottom)
                found.append((DIGGING_PILE_MOVE + len(run), "", (ns, rest, 0, homes, laid, laid_key)))

    # --- the search --------------------------------------------------------------------------

    def search(self, state: SearchState) -> bool:
        """Whether `state` (settled) can be won; the line to it is left in self.line. Positions
        found lost are remembered, and in the easier game those found won too."""
        _, waste, turned, homes, _, key = state
        if homes == ALL_HOME:
            self.best_home = DECK_SIZE
            return True
        home = homes[0] + homes[1] + homes[2] + homes[3]
        if home > self.best_home:
            self.best_home = home
        key = self.key(waste, turned, homes, key)
        layout, stand_bit = key & LAYOUT, 1 << (key >> TURNED_SHIFT)  # bit 0: on the cycle
        proofs = self.proofs
        if layout in proofs.lost or layout in proofs.lost_before:
            return False
        stands = self.lost.get(layout, 0) | self.lost_before.get(layout, 0)
        if stands and (stands & stand_bit or (stand_bit > 1 and self.reached_from_lost(waste, turned, stands))):
            return False
        if key in self.won:
            return True
        if self.nodes >= self.limit:
            raise _OutOfBudget
        self.nodes += 1
        if self.nodes >= self.next_look:
            self.next_look = self.nodes + CLOCK_CHECKS  # (the easier game's positions count too)
            time.sleep(0)  # other threads run here: compiled, the search would hold the GIL to its end
            if self.deadline is not None and time.thread_time() > self.deadline:
                raise _OutOfBudget
        easier = self.easier
        if easier is not None and layout not in self.asked:
            if easier.proves_lost(state, self):
                easier.remember_lost(layout, 1)  # lost whatever the talon's order
                return False
            if len(self.asked) >= ASKED_KEPT:
                self.asked.clear()
            self.asked.add(layout)
        line = self.line
        for _, keys, following in self.moves(state):
            depth = len(line)
            line.append(keys)
            if self.search(self.settle(following, line)):
                if self.free_talon and len(self.won) < WON_KEPT:
                    self.won.add(key)
                return True
            del line[depth:]
        if stand_bit > 1 and self.reaches_cycle(waste, turned, homes):
            stand_bit |= 1  # lost on the cycle too
        self.remember_lost(layout, stand_bit)
        return False

    def round(self, nodes: int, deadline: float | None, shuffle: random.Random | None) -> Solved:
        """Search again, with at most `nodes` more positions expanded."""
        self.limit, self.deadline, self.shuffle = self.nodes + nodes, deadline, shuffle
        self.line = []
        try:
            won = self.search(self.settle(self.start, self.line))
        except _OutOfBudget:
            return Solved.UNKNOWN
        return Solved.WON if won else Solved.LOST

    def proves_lost(self, state: SearchState, game: _Search) -> bool:
        """Whether the easier game, searched a little from the game's position `state`, is lost
        from there. The positions it expands are counted to `game`, within its limit."""
        ns, waste, turned, homes, piles, key = state
        nodes = min(CHECK_NODES, game.limit - game.nodes)
        self.limit, self.deadline, self.line = self.nodes + nodes, game.deadline, []
        self.next_look = self.nodes + CLOCK_CHECKS
        started = self.nodes
        try:
            lost = not self.search(self.settle((ns, _bits(waste), 0, homes, piles, key), self.line))
        except _OutOfBudget:
            lost = False
        game.nodes += self.nodes - started
        self.nodes = started
        return lost


class _Runs:
    """Runs of talon cards the easier game may lay down on the tableau of one position, each to
    take a card that then moves onto it."""

    def __init__(self, ns: int, waste: int, piles: Piles):
        self.waste, self.piles = waste, piles
        self.takers = pile_takers(piles)
        self.space = piles.index(()) if not ns and () in piles else None

    def under(self, card: int, excluded: int | None) -> list[tuple[int, tuple[int, ...]]]:
        """(pile, run of talon cards top last) ways to lay a run on which `card` then fits: the
        run empty (`card` goes straight onto the pile), or starting on a pile's top card or in a
        space; never on pile `excluded`. (A run's ranks climb from `card`'s and it is shorter
        than a suit, so no card comes twice.)"""
        takers, space, in_talon = self.takers, self.space, self.waste
        ways: list[tuple[int, tuple[int, ...]]] = [
            (target, ()) for target in takers.get(card, ()) if target != excluded
        ]
        waiting: list[tuple[int, tuple[int, ...]]] = [(card, ())]
        while waiting:
            lowest, run = waiting.pop()
            for holder in HOLDERS[lowest]:
                if (in_talon >> holder) & 1:
                    longer = (holder,) + run
                    for target in takers.get(holder, ()):
                        if target != excluded:
                            ways.append((target, longer))
                    if space is not None:
                        ways.append((space, longer))
                    if len(longer) < LONGEST_RUN:
                        waiting.append((holder, longer))
        return ways

    def lay(self, target: int, run: Cards, card_key: int) -> tuple[Piles, int, int, int | None]:
        """(piles, waste, key, the run's last card or the pile's top) after laying `run` on pile
        `target` (its first card on the pile's top card, or alone in the space)."""
        pile = self.piles[target]
        under = pile[-1] if pile else None
        laid_key, rest = card_key, self.waste
        for card in run:
            laid_key += _lies_on(card, under) << (2 * card)
            under = card
            rest -= 1 << card
        return _without(self.piles, target, pile + run), rest, laid_key, under


def is_compiled() -> bool:
    """Whether this module runs compiled to C by mypyc (the install's build, setup.py), not as Python."""
    return not __file__.endswith(".py")


def solve(position: Position, *, budget: int | None = None, seconds: float | None = None) -> Verdict:
    """Search for a winning line from `position`, expanding at most `budget` positions and using at
    most `seconds` of this thread's processor time; with neither given, the budget is DEFAULT_BUDGET."""
    if budget is None and seconds is None:
        budget = DEFAULT_BUDGET
    deadline = None if seconds is None else time.thread_time() + seconds
    game, easier = _Search(position), _Search(position, free_talon=True)
    game.proofs = easier  # lost in the easier game is lost in the game
    searches = [game, easier]
    shuffle = None
    allowance = FIRST_ROUND
    while True:
        for search in list(searches):
            spent = game.nodes + easier.nodes
            share = allowance * (EASIER_SHARE if search is easier else 1)
            nodes = share if budget is None else min(share, budget - spent)
            if nodes <= 0 or (deadline is not None and time.thread_time() > deadline):
                return Verdict(Solved.UNKNOWN, (), spent, game.best_home)
            outcome = search.round(nodes, deadline, shuffle if search is game else None)
            if outcome is Solved.LOST:
                return Verdict(Solved.LOST, (), game.nodes + easier.nodes, game.best_home)
            if outcome is Solved.WON:
                if search is game:
                    return Verdict(Solved.WON, tuple(game.line), game.nodes + easier.nodes, DECK_SIZE)
                searches.remove(easier)  # the easier game is won: it proves nothing
        # Most deals are settled in the first round, without the cost of asking the easier game
        # at every position; the later rounds ask it.
        game.easier = easier
        shuffle = shuffle or random.Random(len(position.waste))
        allowance *= 2
