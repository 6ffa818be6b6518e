"""Playing cards, one way for every game: a card's rank, suit, colour, names and Spectrum face.

A card is named by rank letter (`a 2 3 4 5 6 7 8 9 t j q k`) and suit letter (`s h d c`): "td" is
the ten of diamonds. Its number, `Card.index`, is suit * 13 + rank - 1 (the ace of spades 0, the
king of clubs 51): engines that search keep cards as these numbers for speed and turn them into
`Card`s with `DECK[number]`. On a Spectrum screen a face is the rank in capitals (T for ten) and
the suit's UDG; hearts and diamonds are red, spades and clubs black.

Nothing here needs the machine: rules engines import it freely.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

RANK_LETTERS = "a23456789tjqk"  # rank 1 (ace) ... 13 (king)
FACE_LETTERS = "A23456789TJQK"
RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
SUIT_LETTERS = "shdc"
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

RED_INK, BLACK_INK = 2, 0  # the Spectrum's INK 2 and INK 0
SUIT_SIZE: Final = 13  # cards in a suit
DECK_SIZE: Final = 52


class Suit(IntEnum):
    """The four suits, in the order of their UDGs A-D (USR "a" is the spade)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def udg(self) -> str:
        """The suit's symbol as a Spectrum code: UDG A-D (0x90-0x93)."""
        return chr(0x90 + self)

    @classmethod
    def from_letter(cls, letter: str) -> Suit:
        if len(letter) != 1 or letter not in SUIT_LETTERS:
            raise ValueError(f"{letter!r} is not a suit letter (s h d c)")
        return cls(SUIT_LETTERS.index(letter))


class Card(NamedTuple):
    """One card: `rank` 1 (ace) to 13 (king) and `suit`."""

    rank: int
    suit: Suit

    @classmethod
    def parse(cls, name: str) -> Card:
        """The card named `name` ("td", "TD" too); ValueError for anything else."""
        card = BY_NAME.get(name.lower()) if isinstance(name, str) else None
        if card is None:
            raise ValueError(f"{name!r} is not a card name (rank a23456789tjqk, then suit shdc)")
        return card

    @property
    def index(self) -> int:  # type: ignore[override]  # the card's number, in place of tuple.index
        """The card's number 0-51: suit * 13 + rank - 1."""
        return number_of(self.suit, self.rank)

    @property
    def name(self) -> str:
        return RANK_LETTERS[self.rank - 1] + SUIT_LETTERS[self.suit]

    @property
    def words(self) -> str:
        """ "ten of diamonds"."""
        return f"{RANK_WORDS[self.rank - 1]} of {self.suit.word}"

    @property
    def high_rank(self) -> int:
        """The rank with aces high: two 2 ... king 13, ace 14."""
        return 14 if self.rank == ACE else self.rank

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    @property
    def face(self) -> str:
        """The face in Spectrum codes: the rank in capitals and the suit's UDG ("T" + diamond)."""
        return FACE_LETTERS[self.rank - 1] + self.suit.udg

    @property
    def ink(self) -> int:
        return RED_INK if self.is_red else BLACK_INK

    def __str__(self) -> str:
        return self.name


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))  # DECK[i].index == i
BY_NAME = {card.name: card for card in DECK}
NAMES: tuple[str, ...] = tuple(card.name for card in DECK)


def checked_deck(deck) -> list[Card]:
    """The 52 cards of `deck` (Cards or names, front first), or ValueError saying what is wrong."""
    cards, unknown = [], []
    for item in deck:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str) and item.lower() in BY_NAME:
            cards.append(BY_NAME[item.lower()])
        else:
            unknown.append(repr(item))
    if unknown:
        raise ValueError(f"not card names: {', '.join(unknown[:5])}")
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        missing = [card.name for card in DECK if card not in set(cards)]
        raise ValueError(f"a deck is the 52 different cards (got {len(cards)}, missing {', '.join(missing) or 'none'})")
    return cards


# --- a card as a number: `Card.index`, for engines that search ---------------------------------------


def number_of(suit: int, rank: int) -> int:
    """The number (`Card.index`) of the card of `suit` and `rank` (1 ace ... 13 king)."""
    return suit * SUIT_SIZE + rank - 1


def suit_of(number: int) -> int:
    """The suit (`Suit`'s value) of card number `number`."""
    return number // SUIT_SIZE


def rank_of(number: int) -> int:
    """The rank of card number `number` counted from 0 (ace) to 12 (king)."""
    return number % SUIT_SIZE


# --- trick order: a card as a bit, stronger cards of a suit on higher bits -----------------------------
# A card's bit is suit * 13 + (high rank - 2): within a suit the two is bit 0 of the suit's 13 and the
# ace bit 12, and the spades (suit 0, the trumps in Spades) are bits 0-12 of a hand's mask.

TRICK_BIT: tuple[int, ...] = tuple(card.suit * SUIT_SIZE + card.high_rank - 2 for card in DECK)  # number -> bit
CARD_OF_TRICK_BIT: tuple[int, ...] = tuple(sorted(range(DECK_SIZE), key=TRICK_BIT.__getitem__))  # bit -> number


def trick_suit(bit: int) -> int:
    """The suit of a card in trick order."""
    return bit // SUIT_SIZE


def trick_rank(bit: int) -> int:
    """The strength of a card in its suit, in trick order: 0 (two) ... 12 (ace)."""
    return bit % SUIT_SIZE
