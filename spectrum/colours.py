"""The Spectrum's eight colours by name, as INK, PAPER and BORDER take them (0-7), and the two
special values that INK and PAPER take (8 transparent, 9 contrast)."""

from enum import IntEnum


class Colour(IntEnum):
    BLACK = 0
    BLUE = 1
    RED = 2
    MAGENTA = 3
    GREEN = 4
    CYAN = 5
    YELLOW = 6
    WHITE = 7


BLACK, BLUE, RED, MAGENTA, GREEN, CYAN, YELLOW, WHITE = Colour
TRANSPARENT = 8  # INK 8 / PAPER 8: keep what the cell has
CONTRAST = 9  # INK 9 / PAPER 9: black or white, whichever contrasts with the other


def attribute(*, ink: int, paper: int, bright: bool = False, flash: bool = False) -> int:
    """An attribute byte: FLASH bit 7, BRIGHT bit 6, PAPER bits 5-3, INK bits 2-0."""
    return (0x80 if flash else 0) | (0x40 if bright else 0) | (paper << 3) | ink


def contrasting_ink(paper: int) -> int:
    """The ink the ROM puts on a border-coloured lower screen: white on dark, black on light."""
    return WHITE if paper < GREEN else BLACK
