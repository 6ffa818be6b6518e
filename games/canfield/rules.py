"""The rules of Canfield, pure: positions, the moves by key pairs, the automatic moves, and the
game-state protocol's view of a deal (`CanfieldState`).

A position is immutable, so the game keeps earlier ones for undo and the solver can explore freely.
Cards are numbers 0-51 inside, `games.cards.Card.index` (`suit_of` and `rank_of` of `games.cards`
read them, the ace rank 0); outside they are `Card`s and their names ("th" is the ten of hearts).

A move the rules do not take raises `MoveRefused` with the rules' own words, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ..cards import DECK, DECK_SIZE, RANK_LETTERS, RANK_WORDS, SUIT_SIZE, Card, Suit, checked_deck, rank_of, suit_of
from ..protocol import TERMINAL, MoveRefused, Outcome, Termination

PILES: Final = "1234"
TURN_COUNT: Final = 3  # P turns three cards
STOCK_SIZE = 13
DECK_PRICE = 50  # dollars, paid when a deal is dealt
CARD_PAYS = 5  # dollars for every card brought home
ALL_HOME = "All 52 cards are home"
NO_MOVE_LEFT = "No move left"
KEYS_HELP = "Keys: S, T or 1-4, then 1-4 or F; P turns"
RED = tuple(card.is_red for card in DECK)  # by card number: looked up in the search's inner loops


def is_red(card: int) -> bool:
    return RED[card]


def fits_on(card: int, under: int) -> bool:
    """Tableau building: one lower (a king goes on an ace) and the other colour."""
    return rank_of(card) == (rank_of(under) - 1) % SUIT_SIZE and is_red(card) != is_red(under)


def next_up(card: int) -> int:
    """The card of the same suit one rank higher (an ace follows a king)."""
    return card - rank_of(card) + (rank_of(card) + 1) % SUIT_SIZE


FITTING = [
    tuple(card for card in range(DECK_SIZE) if fits_on(card, under)) for under in range(DECK_SIZE)
]  # what goes on each


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
    if sorted(deck) != list(range(DECK_SIZE)):
        raise ValueError("a deck is the 52 different cards")
    stock = tuple(deck[:STOCK_SIZE])
    first = deck[STOCK_SIZE]
    tableau = tuple((card,) for card in deck[STOCK_SIZE + 1 : STOCK_SIZE + 5])
    waste = tuple(deck[STOCK_SIZE + 5 :])
    position = Position(stock, waste, 0, ((first,), (), (), ()), tableau, rank_of(first))
    return settle(position)


def home_pile(position: Position, card: int) -> int | None:
    """The foundation pile that takes `card` now, or None."""
    suit = suit_of(card)
    for index, pile in enumerate(position.homes):
        if pile and suit_of(pile[0]) == suit:
            return index if len(pile) < SUIT_SIZE and card == next_up(pile[-1]) else None
    if rank_of(card) == position.base:
        return position.homes.index(())
    return None


def _to_home(homes: tuple, index: int, card: int) -> tuple:
    return homes[:index] + (homes[index] + (card,),) + homes[index + 1 :]


def _replace_pile(tableau: tuple, index: int, pile: tuple) -> tuple:
    return tableau[:index] + (pile,) + tableau[index + 1 :]


def _base_card_home(position: Position) -> Position | None:
    """The first exposed base-rank card (tableau tops 1–4, the stock's top, the talon's top) sent
    home, or None when none is exposed."""
    stock, waste, turned, homes, tableau, base = position
    if all(homes):  # every base-rank card is home already
        return None
    for index, pile in enumerate(tableau):
        if pile and rank_of(pile[-1]) == base:
            return position._replace(
                homes=_to_home(homes, homes.index(()), pile[-1]), tableau=_replace_pile(tableau, index, pile[:-1])
            )
    if stock and rank_of(stock[-1]) == base:
        return position._replace(homes=_to_home(homes, homes.index(()), stock[-1]), stock=stock[:-1])
    if turned and rank_of(waste[turned - 1]) == base:
        return position._replace(
            homes=_to_home(homes, homes.index(()), waste[turned - 1]),
            waste=waste[: turned - 1] + waste[turned:],
            turned=turned - 1,
        )
    return None


def settle(position: Position) -> Position:
    """The automatic moves, repeated until nothing moves: an exposed base-rank card goes home;
    then a space is filled from the stock, lowest pile first."""
    while True:
        following = _base_card_home(position)
        if following is None and position.stock and () in position.tableau:
            stock, tableau = position.stock, position.tableau
            following = position._replace(
                stock=stock[:-1], tableau=_replace_pile(tableau, tableau.index(()), (stock[-1],))
            )
        if following is None:
            return position
        position = following


def turn(position: Position) -> Position:
    """P: turn up to three cards one by one onto the talon; with the pack empty, turn the talon
    over to be the pack again, in the order the cards were first turned. MoveRefused when there
    is nothing to turn."""
    turned = _turned(position)
    if isinstance(turned, str):
        raise MoveRefused(turned)
    return turned


def _turned(position: Position) -> Position | str:
    """`turn`, the refusal answered rather than raised (for trying every move quickly)."""
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
            wanted = (rank_of(pile[-1]) + 1) % SUIT_SIZE
            return f"The {Suit(suit).word} need the {RANK_WORDS[wanted]} first"
    return f"The {Suit(suit).word} need the {RANK_WORDS[position.base]} first"


def _onto_refusal(under: int) -> str:
    wanted = RANK_WORDS[(rank_of(under) - 1) % SUIT_SIZE]
    return f"Only a {_colour_word(not is_red(under))} {wanted} goes on the {DECK[under].words}"


def is_valid(position: Position) -> bool:
    """Whether `position` can arise in play: the 52 cards once each, foundations built up in suit
    from the base rank, piles down in alternating colours, and no automatic move left undone."""
    stock, waste, turned, homes, tableau, base = position
    everything = stock + waste + sum(homes, ()) + sum(tableau, ())
    if sorted(everything) != list(range(DECK_SIZE)) or len(homes) != 4 or len(tableau) != 4:
        return False
    for pile in homes:
        if pile and (
            rank_of(pile[0]) != base
            or len(pile) > SUIT_SIZE
            or any(above != next_up(below) for below, above in zip(pile, pile[1:]))
        ):
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


def move(position: Position, source: str, target: str) -> Position:
    """The move from `source` (s stock, t talon, 1–4 a pile) to `target` (f the foundations, 1–4
    a pile), with the automatic moves that follow; MoveRefused, with the reason, when the rules do
    not take it."""
    moved = _moved(position, source, target)
    if isinstance(moved, str):
        raise MoveRefused(moved)
    return moved


def _moved(position: Position, source: str, target: str) -> Position | str:
    """`move`, the refusal answered rather than raised (for trying every move quickly)."""
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
        waste, turned = waste[: turned - 1] + waste[turned:], turned - 1
    return settle(Position(stock, waste, turned, homes, tableau, base))


class Canfield:
    """One deal played by keys: a source (S, T, 1–4) then a target (1–4, F), or P to turn the pack.

    `press` raises MoveRefused, saying why, for a key the rules do not take; a refused key changes
    nothing and drops any source chosen before it.
    """

    def __init__(self, deck: Sequence[Card | str]):
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
        position = Position(
            cards(state["stock"]),
            talon + pack[::-1],
            len(talon),
            tuple(cards(pile) for pile in state["foundations"]),
            tuple(cards(pile) for pile in state["tableau"]),
            RANK_LETTERS.index(base),
        )
        if not is_valid(position):
            raise ValueError("not a Canfield position")
        game = cls.__new__(cls)
        game.position, game.selected, game.history = position, None, []
        return game

    def press(self, key: str) -> None:
        """One key: a source is picked, or a move made (the pack turned by P); MoveRefused else."""
        key = key.lower()
        if self.won:
            self.selected = None
            raise MoveRefused(ALL_HOME)
        if self.selected is None:
            if key == "p":
                self._play(turn(self.position))
                return
            if key in "st" + PILES and len(key) == 1:
                refusal = source_refusal(self.position, key)
                if refusal is not None:
                    raise MoveRefused(refusal)
                self.selected = key
                return
            if key == "f":
                raise MoveRefused("First pick a card: S, T or a pile 1-4")
            raise MoveRefused(KEYS_HELP)
        source, self.selected = self.selected, None
        if len(key) != 1:
            raise MoveRefused("Move to a pile 1-4 or F, the foundations")
        self._play(move(self.position, source, key))

    def _play(self, following: Position) -> None:
        self.history.append(self.position)
        self.position = following

    def undo(self) -> None:
        """Take back the last move or turn (the practice game allows it); MoveRefused when there
        is none."""
        self.selected = None
        if not self.history:
            raise MoveRefused("Nothing to undo")
        self.position = self.history.pop()

    @property
    def won(self) -> bool:
        return self.position.cards_home == DECK_SIZE

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

        return {
            "stock": names(stock),
            "pack": names(waste[turned:][::-1]),
            "talon": names(waste[:turned]),
            "foundations": [names(pile) for pile in homes],
            "tableau": [names(pile) for pile in tableau],
            "base": RANK_LETTERS[base],
        }


def wanted_home(position: Position) -> set[int]:
    """The cards the started foundations take next (a base-rank card never waits: it goes home)."""
    return {next_up(pile[-1]) for pile in position.homes if 0 < len(pile) < SUIT_SIZE}


def moves(position: Position) -> list[tuple[str, Position]]:
    """Every move open now or after turning the pack a few times, as (keys, resulting position).

    Turning alone is not counted as a move (it only brings another talon card to the top), except
    when it exposes a base-rank card, which then goes home: that is the move "p" * n.
    """
    stock, waste, turned, homes, tableau, base = position
    wanted = wanted_home(position)
    takers: dict[int, list[str]] = {}  # card -> the piles it may go on
    for target, pile in zip(PILES, tableau):
        for card in FITTING[pile[-1]] if pile else ():
            takers.setdefault(card, []).append(target)
    spaces = [target for target, pile in zip(PILES, tableau) if not pile] if not stock else []
    found: list[tuple[str, Position]] = []

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
            if presses and rank_of(card) == base:
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


def _pile_text(cards) -> str:
    return " ".join(DECK[card].name for card in cards) or "-"


class CanfieldState:
    """One deal as the one state API (games/protocol.py) sees it: one player; a move is typed as
    its keys, "p" (turn the pack) or a source and a target ("s1", "tf", "31"); the deal is over
    when every card is home (won) or no move is left (stuck). Its returns are the money the deal
    has earned so far in the casino game: $5 a card home less the $50 deck."""

    def __init__(self, position: Position, number: int | None = None):
        self.position = position
        self.number = number  # the deal's number, when it has one
        self._over: bool | None = None  # whether `position` is won or stuck, once asked

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return TERMINAL if self._is_over() else 0

    def _is_over(self) -> bool:
        if self._over is None:
            self._over = self.position.cards_home == DECK_SIZE or not moves(self.position)
        return self._over

    def legal_moves(self) -> list[str]:
        if self._is_over():
            return []
        return [action for action in ACTIONS if not isinstance(self._following(action), str)]

    def _following(self, action: str) -> Position | str:
        """The position after `action`, or the rules' words refusing it."""
        if action == "p":
            return _turned(self.position)
        if len(action) != 2 or action[0] not in "st" + PILES:
            return KEYS_HELP
        return _moved(self.position, action[0], action[1])

    def apply(self, move: str) -> None:
        """Make `move`; MoveRefused, with the rules' words, when they do not take it (the state is
        then as it was)."""
        if self.position.cards_home == DECK_SIZE:
            raise MoveRefused(ALL_HOME)
        if self._is_over():
            raise MoveRefused(NO_MOVE_LEFT)
        following = self._following(move.lower())
        if isinstance(following, str):
            raise MoveRefused(following)
        self.position, self._over = following, None

    def _returns(self) -> tuple[float, ...]:
        return (float(CARD_PAYS * self.position.cards_home - DECK_PRICE),)

    def outcome(self) -> Outcome | None:
        """None while a move is left; then WON (every card home) or STUCK, with the deal's money."""
        if not self._is_over():
            return None
        if self.position.cards_home == DECK_SIZE:
            return Outcome(Termination.WON, (0,), self._returns())
        return Outcome(Termination.STUCK, (), self._returns())

    def observation(self, player: int) -> str:
        """The table as the player sees it: every card face up is named (the foundations, the
        stock's top card, the whole talon, the piles); of the stock below its top and of the pack
        only how many cards are there."""
        if player != 0:
            raise ValueError(f"Canfield has one player, 0, not {player!r}")
        return self._text(face_down_hidden=True)

    def clone(self) -> CanfieldState:
        twin = CanfieldState(self.position, self.number)  # positions are immutable: sharing is safe
        twin._over = self._over
        return twin

    def _heading(self) -> list[str]:
        heading = f"Canfield deal {self.number}" if self.number is not None else "Canfield"
        home = self.position.cards_home
        return [
            f"{heading}: foundations from {RANK_WORDS[self.position.base]} up, {home} card{'s' * (home != 1)} home",
            "foundations: " + " | ".join(_pile_text(pile) for pile in self.position.homes),
        ]

    def _piles_and_end(self) -> list[str]:
        lines = [f"pile {number} (top last): {_pile_text(pile)}" for number, pile in zip(PILES, self.position.tableau)]
        if self._is_over():
            lines.append(ALL_HOME if self.position.cards_home == DECK_SIZE else NO_MOVE_LEFT)
        return lines

    def __str__(self) -> str:
        """Every card of the table, the stock's and the pack's in their order too."""
        return self._text(face_down_hidden=False)

    def _text(self, face_down_hidden: bool) -> str:
        """The table as text; `face_down_hidden`: as a player sees it (the stock's top card, and
        how many cards are under it and in the pack)."""
        stock, waste, turned = self.position.stock, self.position.waste, self.position.turned
        if face_down_hidden:
            stock_line = f"stock ({len(stock)}, top): {_pile_text(stock[-1:])}"
            pack_line = f"pack ({len(waste) - turned}, face down)"
        else:
            stock_line = f"stock ({len(stock)}, top last): {_pile_text(stock)}"
            pack_line = f"pack ({len(waste) - turned}, next first): {_pile_text(waste[turned:])}"
        lines = [*self._heading(), stock_line, f"talon ({turned}, top last): {_pile_text(waste[:turned])}", pack_line]
        return "\n".join(lines + self._piles_and_end())
