"""What the card games share on the Spectrum screen: the suit UDGs, a card's face and its ink.

Cards are named by rank letter (a 2-9 t j q k) and suit letter (s h d c): "td" is the ten of
diamonds. On screen a face is the rank in capitals (T for ten) and the suit's UDG.
"""

from spectrum import Spectrum

RANK_LETTERS = "a23456789tjqk"
FACE_LETTERS = "A23456789TJQK"
SUITS = "shdc"  # spades, hearts, diamonds, clubs: UDGs A-D in this order
SUIT_UDGS = {
    "a": (0x00, 0x10, 0x38, 0x7C, 0xFE, 0xFE, 0x10, 0x38),  # spade
    "b": (0x00, 0x6C, 0xFE, 0xFE, 0x7C, 0x38, 0x10, 0x00),  # heart
    "c": (0x00, 0x10, 0x38, 0x7C, 0xFE, 0x7C, 0x38, 0x10),  # diamond
    "d": (0x00, 0x38, 0x38, 0xD6, 0xFE, 0xD6, 0x10, 0x38),  # club
}
SUIT_CHARS = {suit: chr(0x90 + index) for index, suit in enumerate(SUITS)}
CARD_PAPER, RED, BLACK = 7, 2, 0


def poke_udgs(machine: Spectrum, udgs: dict[str, tuple[int, ...]]) -> None:
    """POKE USR "x"+i for each UDG's rows, as a BASIC loader does."""
    for letter, rows in udgs.items():
        for offset, value in enumerate(rows):
            machine.poke(machine.usr(letter) + offset, value)


def face(card: str) -> str:
    """A card's face in Spectrum codes: rank letter and suit symbol ("td" -> "T" + the diamond UDG)."""
    return FACE_LETTERS[RANK_LETTERS.index(card[0])] + SUIT_CHARS[card[1]]


def card_ink(card: str) -> int:
    """Hearts and diamonds in red, spades and clubs in black."""
    return RED if card[1] in "hd" else BLACK
