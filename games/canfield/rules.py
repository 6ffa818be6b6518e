"""The rules of Canfield, pure: positions, the moves by key pairs, the automatic moves, and the
game-state protocol's view of a deal (`CanfieldState`).

A position is immutable, so the game keeps earlier ones for undo and the solver can explore freely.
Cards are numbers 0-51 inside, `games.cards.Card.index` (suit * 13 + rank, ace = rank 0 here);
outside they are `Card`s and their names ("th" is the ten of hearts).
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import DECK, RANK_LETTERS, RANK_WORDS, Card, Suit, checked_deck
from ..protocol import TERMINAL

PILES = "1234"
TURN_COUNT = 3  # P turns three cards
STOCK_SIZE = 13
DECK_PRICE = 50  # dollars, paid when a deal is dealt
CARD_PAYS = 5  # dollars for every card brought home
RED = tuple(card.is_red for card in DECK)  # by card number: looked up in the search's inner loops


def rank_of(card: int) -> int:
    """The rank counted from 0 (ace) to 12 (king)."""
    return card % 13


def suit_of(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    return RED[card]


def fits_on(card: int, under: int) -> bool:
    """Tableau building: one lower (a king goes on an ace) and the other colour."""
    return card % 13 == (under % 13 - 1) % 13 and is_red(card) != is_red(under)


def next_up(card: int) -> int:
    """The card of the same suit one rank higher (an ace follows a king)."""
    return card - card % 13 + (card % 13 + 1) % 13


FITTING = [tuple(card for card in range(52) if fits_on(card, under)) for under in range(52)]  # what goes on each


class Position(NamedTuple):
    """Everything on the table. `waste` is the talon (bottom first) followed by the pack in the
    order its cards will be turned; the first `turned` of them are on the talon."""

    stock: tuple[int, ...]  # bottom first; the last card is the playable top
    waste: tuple[int, ...]
    turned: int
    homes: tuple[tuple[int, ...], ...]  # the four foundation piles, bottom first, in order of arrival
    tableau: tuple[tuple[int, ...], ...]
    base: int  # the base rank: the rank every foundation starts with

    @property
    def cards_home(self) -> int:
        return sum(map(len, self.homes))


def deal(deck: list[int]) -> Position:
    """The layout: 13 to the stock (the 13th on top), one to the first foundation, one to each
    tableau pile, the remaining 34 face down as the pack (the first of them turned first)."""
    if sorted(deck) != list(range(52)):
        raise ValueError("a deck is the 52 different cards")
    stock = tuple(deck[:STOCK_SIZE])
    first = deck[STOCK_SIZE]
    tableau = tuple((card,) for card in deck[STOCK_SIZE + 1:STOCK_SIZE + 5])
    waste = tuple(deck[STOCK_SIZE + 5:])
    position = Position(stock, waste, 0, ((first,), (), (), ()), tableau, rank_of(first))
    return settle(position)


def home_pile(position: Position, card: int) -> int | None:
    """The foundation pile that takes `card` now, or None."""
    suit = suit_of(card)
    for index, pile in enumerate(position.homes):
        if pile and suit_of(pile[0]) == suit:
            return index if len(pile) < 13 and card == next_up(pile[-1]) else None
    if rank_of(card) == position.base:
        return position.homes.index(())
    return None


def _to_home(homes: tuple, index: int, card: int) -> tuple:
    return homes[:index] + (homes[index] + (card,),) + homes[index + 1:]


def _replace_pile(tableau: tuple, index: int, pile: tuple) -> tuple:
    return tableau[:index] + (pile,) + tableau[index + 1:]


def _base_card_home(position: Position) -> Position | None:
    """The first exposed base-rank card (tableau tops 1–4, the stock's top, the talon's top) sent
    home, or None when none is exposed."""
    stock, waste, turned, homes, tableau, base = position
    if all(homes):  # every base-rank card is home already
        return None
    for index, pile in enumerate(tableau):
        if pile and pile[-1] % 13 == base:
            return position._replace(homes=_to_home(homes, homes.index(()), pile[-1]),
                                     tableau=_replace_pile(tableau, index, pile[:-1]))
    if stock and stock[-1] % 13 == base:
        return position._replace(homes=_to_home(homes, homes.index(()), stock[-1]), stock=stock[:-1])
    if turned and waste[turned - 1] % 13 == base:
        return position._replace(homes=_to_home(homes, homes.index(()), waste[turned - 1]),
                                 waste=waste[:turned - 1] + waste[turned:], turned=turned - 1)
    return None


def settle(position: Position) -> Position:
    """The automatic moves, repeated until nothing moves: an exposed base-rank card goes home;
    then a space is filled from the stock, lowest pile first."""
    while True:
        following = _base_card_home(position)
        if following is None and position.stock and () in position.tableau:
            stock, tableau = position.stock, position.tableau
            following = position._replace(stock=stock[:-1],
                                          tableau=_replace_pile(tableau, tableau.index(()), (stock[-1],)))
        if following is None:
            return position
        position = following


def turn(position: Position) -> Position | str:
    """P: turn up to three cards one by one onto the talon; with the pack empty, turn the talon
    over to be the pack again, in the order the cards were first turned."""
    stock, waste, turned, homes, tableau, base = position
    if not waste:
        return "No cards left in the pack or talon"
    turned = min(turned + TURN_COUNT, len(waste)) if turned < len(waste) else 0
    return settle(Position(stock, waste, turned, homes, tableau, base))


def _colour_word(red: bool) -> str:
    return "red" if red else "black"


def _home_refusal(position: Position, card: int) -> str:
    suit = suit_of(card)
    for pile in position.homes:
        if pile and suit_of(pile[0]) == suit:
            wanted = (rank_of(pile[-1]) + 1) % 13
            return f"The {Suit(suit).word} need the {RANK_WORDS[wanted]} first"
    return f"The {Suit(suit).word} need the {RANK_WORDS[position.base]} first"


def _onto_refusal(under: int) -> str:
    wanted = RANK_WORDS[(rank_of(under) - 1) % 13]
    return f"Only a {_colour_word(not is_red(under))} {wanted} goes on the {DECK[under].words}"


def is_valid(position: Position) -> bool:
    """Whether `position` can arise in play: the 52 cards once each, foundations built up in suit
    from the base rank, piles down in alternating colours, and no automatic move left undone."""
    stock, waste, turned, homes, tableau, base = position
    everything = stock + waste + sum(homes, ()) + sum(tableau, ())
    if sorted(everything) != list(range(52)) or len(homes) != 4 or len(tableau) != 4:
        return False
    for pile in homes:
        if pile and (rank_of(pile[0]) != base or len(pile) > 13 or any(
                above != next_up(below) for below, above in zip(pile, pile[1:]))):
            return False
    if any(not fits_on(above, below) for pile in tableau for below, above in zip(pile, pile[1:])):
        return False
    return 0 <= turned <= len(waste) and settle(position) == position


def source_refusal(position: Position, source: str) -> str | None:
    """Why `source` (s, t or 1–4) has no card to move, or None."""
    if source == "s" and not position.stock:
        return "The stock is empty"
    if source == "t" and not position.turned:
        return "The talon is empty: press P to turn the pack"
    if source in PILES and not position.tableau[PILES.index(source)]:
        return f"Pile {source} is empty"
    return None


def move(position: Position, source: str, target: str) -> Position | str:
    """The move from `source` (s stock, t talon, 1–4 a pile) to `target` (f the foundations, 1–4
    a pile), with the automatic moves that follow; or the reason it is refused."""
    refusal = source_refusal(position, source)
    if refusal:
        return refusal
    stock, waste, turned, homes, tableau, base = position
    if source in PILES:
        moving = tableau[PILES.index(source)]
    elif source == "s":
        moving = (stock[-1],)
    else:
        moving = (waste[turned - 1],)
    if target == "f":
        card = moving[-1]
        index = home_pile(position, card)
        if index is None:
            return _home_refusal(position, card)
        homes = _to_home(homes, index, card)
        moving = moving[:-1]
    elif target in PILES:
        destination = tableau[PILES.index(target)]
        if target == source:
            return f"Pile {source} can't move onto itself"
        if not destination:
            if source in PILES:
                return "A whole pile never moves into a space"
        elif not fits_on(moving[0], destination[-1]):
            return _onto_refusal(destination[-1])
        tableau = _replace_pile(tableau, PILES.index(target), destination + moving)
        moving = ()
    elif target in ("s", "t"):
        return f"Nothing can be put on the {'stock' if target == 's' else 'talon'}"
    elif target == "p":
        return "A card can't go back into the pack"
    else:
        return "Move to a pile 1-4 or F, the foundations"
    if source in PILES:
        tableau = _replace_pile(tableau, PILES.index(source), moving)
    elif source == "s":
        stock = stock[:-1]
    else:
        waste, turned = waste[:turned - 1] + waste[turned:], turned - 1
    return settle(Position(stock, waste, turned, homes, tableau, base))


class Canfield:
    """One deal played by keys: a source (S, T, 1–4) then a target (1–4, F), or P to turn the pack.

    `press` answers None when the key was taken and otherwise says why not; a refused key changes
    nothing and drops any source chosen before it.
    """

    def __init__(self, deck: list[Card | str]):
        self.position = deal([card.index for card in checked_deck(deck)])
        self.selected: str | None = None
        self.history: list[Position] = []

    @classmethod
    def from_state(cls, state: dict) -> Canfield:
        """A game at the position `state()` once described (the selection and undo are not kept)."""
        def cards(names):
            return tuple(Card.parse(name).index for name in names)

        base = state["base"]
        if not isinstance(base, str) or len(base) != 1 or base not in RANK_LETTERS:
            raise ValueError(f"{base!r} is not a rank letter")
        talon, pack = cards(state["talon"]), cards(state["pack"])
        position = Position(cards(state["stock"]), talon + pack[::-1], len(talon),
                            tuple(cards(pile) for pile in state["foundations"]),
                            tuple(cards(pile) for pile in state["tableau"]), RANK_LETTERS.index(base))
        if not is_valid(position):
            raise ValueError("not a Canfield position")
        game = cls.__new__(cls)
        game.position, game.selected, game.history = position, None, []
        return game

    def press(self, key: str) -> str | None:
        key = key.lower()
        if self.won:
            self.selected = None
            return "All 52 cards are home"
        if self.selected is None:
            if key == "p":
                return self._play(turn(self.position))
            if key in "st" + PILES and len(key) == 1:
                refusal = source_refusal(self.position, key)
                if refusal is None:
                    self.selected = key
                return refusal
            if key == "f":
                return "First pick a card: S, T or a pile 1-4"
            return "Keys: S, T or 1-4, then 1-4 or F; P turns"
        source, self.selected = self.selected, None
        return self._play(move(self.position, source, key) if len(key) == 1 else
                          "Move to a pile 1-4 or F, the foundations")

    def _play(self, outcome: Position | str) -> str | None:
        if isinstance(outcome, str):
            return outcome
        self.history.append(self.position)
        self.position = outcome
        return None

    def undo(self) -> str | None:
        """Take back the last move or turn (the practice game allows it)."""
        self.selected = None
        if not self.history:
            return "Nothing to undo"
        self.position = self.history.pop()
        return None

    @property
    def won(self) -> bool:
        return self.position.cards_home == 52

    @property
    def cards_home(self) -> int:
        return self.position.cards_home

    @property
    def stuck(self) -> bool:
        """No move is left: no card can move now, nor after any number of turns of the pack."""
        return not self.won and not moves(self.position)

    def state(self) -> dict:
        """The table as card names, every list bottom first; the pack's next card is last."""
        stock, waste, turned, homes, tableau, base = self.position

        def names(cards):
            return [DECK[card].name for card in cards]

        return {"stock": names(stock), "pack": names(waste[turned:][::-1]), "talon": names(waste[:turned]),
                "foundations": [names(pile) for pile in homes], "tableau": [names(pile) for pile in tableau],
                "base": RANK_LETTERS[base]}


def wanted_home(position: Position) -> set[int]:
    """The cards the started foundations take next (a base-rank card never waits: it goes home)."""
    return {next_up(pile[-1]) for pile in position.homes if 0 < len(pile) < 13}


def moves(position: Position) -> list[tuple[str, Position]]:
    """Every move open now or after turning the pack a few times, as (keys, resulting position).

    Turning alone is not counted as a move (it only brings another talon card to the top), except
    when it exposes a base-rank card, which then goes home: that is the move "p" * n.
    """
    stock, waste, turned, homes, tableau, base = position
    wanted = wanted_home(position)
    takers: dict[int, list[str]] = {}  # card -> the piles it may go on
    for target, pile in zip(PILES, tableau):
        for card in (FITTING[pile[-1]] if pile else ()):
            takers.setdefault(card, []).append(target)
    spaces = [target for target, pile in zip(PILES, tableau) if not pile] if not stock else []
    found = []

    def try_move(presses: str, turned_to: int, source: str, card: int) -> None:
        targets = ["f"] * (card in wanted) + takers.get(card, []) + (spaces if source == "t" else [])
        if targets:
            start = position._replace(turned=turned_to)
            found.extend((presses + source + target, move(start, source, target)) for target in targets)

    if stock:
        try_move("", turned, "s", stock[-1])
    for source, pile in zip(PILES, tableau):
        if pile:
            if pile[-1] in wanted:
                found.append((source + "f", move(position, source, "f")))
            for target in takers.get(pile[0], ()):
                if target != source:
                    found.append((source + target, move(position, source, target)))
    # Turning changes nothing but the talon's top until it exposes a base-rank card, so the walk
    # round the pack only counts how far it has turned.
    on_top, presses, seen = turned, "", set()
    while True:
        if on_top:
            card = waste[on_top - 1]
            if presses and card % 13 == base:
                following = position
                for _ in presses:
                    following = turn(following)
                found.append((presses, following))
                break
            try_move(presses, on_top, "t", card)
        seen.add(on_top)
        if not waste:
            break
        on_top = min(on_top + TURN_COUNT, len(waste)) if on_top < len(waste) else 0
        presses += "p"
        if on_top in seen:
            break
    return found


ACTIONS = ("p",) + tuple(source + target for source in "st" + PILES for target in PILES + "f" if source != target)
KEYS_HELP = "Keys: S, T or 1-4, then 1-4 or F; P turns"


def _pile_text(cards) -> str:
    return " ".join(DECK[card].name for card in cards) or "-"


class CanfieldState:
    """One deal as the game-state protocol (games/protocol.py) sees it: one player; an action is a
    move as typed, "p" (turn the pack) or a source and a target ("s1", "tf", "31"); the deal is
    over when every card is home or no move is left. `returns()` is the money the deal has earned
    so far in the casino game: $5 a card home less the $50 deck."""

    def __init__(self, position: Position, number: int | None = None):
        self.position = position
        self.number = number  # the deal's number, when it has one
        self._over: bool | None = None  # whether `position` is won or stuck, once asked

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def is_terminal(self) -> bool:
        if self._over is None:
            self._over = self.position.cards_home == 52 or not moves(self.position)
        return self._over

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        return [action for action in ACTIONS if not isinstance(self._outcome(action), str)]

    def _outcome(self, action: str) -> Position | str:
        if action == "p":
            return turn(self.position)
        if len(action) != 2 or action[0] not in "st" + PILES:
            return KEYS_HELP
        return move(self.position, action[0], action[1])

    def apply(self, action: str) -> str | None:
        if self.position.cards_home == 52:
            return "All 52 cards are home"
        if self.is_terminal():
            return "No move left"
        outcome = self._outcome(action.lower())
        if isinstance(outcome, str):
            return outcome
        self.position, self._over = outcome, None
        return None

    def returns(self) -> list[float]:
        return [float(CARD_PAYS * self.position.cards_home - DECK_PRICE)]

    def clone(self) -> CanfieldState:
        twin = CanfieldState(self.position, self.number)  # positions are immutable: sharing is safe
        twin._over = self._over
        return twin

    def __str__(self) -> str:
        stock, waste, turned, homes, tableau, base = self.position
        heading = f"Canfield deal {self.number}" if self.number is not None else "Canfield"
        home = self.position.cards_home
        lines = [f"{heading}: foundations from {RANK_WORDS[base]} up, {home} card{'s' * (home != 1)} home",
                 "foundations: " + " | ".join(_pile_text(pile) for pile in homes),
                 f"stock ({len(stock)}, top last): {_pile_text(stock)}",
                 f"talon ({turned}, top last): {_pile_text(waste[:turned])}",
                 f"pack ({len(waste) - turned}, next first): {_pile_text(waste[turned:])}"]
        lines += [f"pile {number} (top last): {_pile_text(pile)}" for number, pile in zip(PILES, tableau)]
        if self.is_terminal():
            lines.append("All 52 cards are home" if self.position.cards_home == 52 else "No move left")
        return "\n".join(lines)
