"""Card names as the seed spells them, and the trick-taking rules on card numbers for fast play.

A card name is rank then suit: rank `a 2 3 4 5 6 7 8 9 t j q k`, suit `s h d c` (`td` = ten of
diamonds). The seed gives each card a `value` 1-13 with the ace 1, and counts the ace as 14 (aces
high). For the computer players' search, a card is also a number 0-51: suit index * 13 + (rank - 2),
so within a suit the higher card has the higher number.
"""

SUITS = "shdc"
SPADES = "s"
RANK_LETTERS = "a23456789tjqk"  # the seed's value 1-13 in order
RANKS_LOW_TO_HIGH = "23456789tjqka"
DECK = tuple(rank + suit for suit in SUITS for rank in RANK_LETTERS)
CARD_NUMBER = {rank + suit: s * 13 + r for s, suit in enumerate(SUITS) for r, rank in enumerate(RANKS_LOW_TO_HIGH)}
CARD_NAME = {number: name for name, number in CARD_NUMBER.items()}
SPADE_SUIT = SUITS.index(SPADES)


def suit_of(card: str) -> str:
    return card[1]


def value_of(card: str) -> int:
    """The seed's `value` prop: ace 1, two 2 ... king 13."""
    return RANK_LETTERS.index(card[0]) + 1


def rank_of(card: str) -> int:
    """Aces high: two 2 ... king 13, ace 14 (the seed's get_value)."""
    return RANKS_LOW_TO_HIGH.index(card[0]) + 2


def trick_value(card: str, suit_led: str) -> int:
    """The seed's spades_value: a spade beats the suit led, which beats any other card (worth 0)."""
    if suit_of(card) == SPADES:
        return rank_of(card) + 100
    if suit_of(card) == suit_led:
        return rank_of(card) + 50
    return 0


def checked_deck(deck) -> list[str]:
    """The 52 card names of `deck` as a list, or ValueError saying what is wrong with it."""
    cards = list(deck)
    unknown = [card for card in cards if card not in CARD_NUMBER]
    if unknown:
        raise ValueError(f"not card names: {', '.join(map(str, unknown[:5]))}")
    if len(cards) != 52 or len(set(cards)) != 52:
        missing = sorted(set(DECK) - set(cards))
        raise ValueError(f"a deck is the 52 different cards (got {len(cards)}, missing {', '.join(missing) or 'none'})")
    return cards
