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
