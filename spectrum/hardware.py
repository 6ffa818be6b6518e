"""The 48K Spectrum's hardware facts, defined once: the clock, the frame, the display's geometry
and where the display file and attributes sit. Every other module imports them from here."""

T_STATES_PER_SECOND = 3_500_000  # the Z80's clock
FRAME_T_STATES = 69_888  # one 48K frame, from one interrupt to the next: 312 lines of 224 T-states
FRAME_SECONDS = FRAME_T_STATES / T_STATES_PER_SECOND  # 19.968 ms: 50.08 frames a second
INTERRUPT_T_STATES = 32  # how long the ULA holds the interrupt line at the start of a frame
LINE_T_STATES = 224  # the ULA draws a line (display and border) in this many T-states

ROWS, COLUMNS = 24, 32  # character cells of the display
CELL_PIXELS = 8  # a character cell is 8 by 8 pixels
PIXEL_WIDTH, PIXEL_HEIGHT = COLUMNS * CELL_PIXELS, ROWS * CELL_PIXELS  # 256 x 192

DISPLAY_FILE = 0x4000  # the bitmap: a byte for 8 pixels, in the ULA's order of lines
DISPLAY_FILE_BYTES = PIXEL_HEIGHT * COLUMNS  # 6,144
ATTRIBUTES = DISPLAY_FILE + DISPLAY_FILE_BYTES  # 0x5800: a byte of colours for each cell, row by row
ATTRIBUTES_BYTES = ROWS * COLUMNS  # 768
ATTRIBUTES_END = ATTRIBUTES + ATTRIBUTES_BYTES
SCREEN_BYTES = DISPLAY_FILE_BYTES + ATTRIBUTES_BYTES  # 6,912: SCREEN$ as SAVE "name" SCREEN$ saves it


def pixel_address(line: int, column: int) -> int:
    """The display-file address of pixel line `line` (0–191, from the top) in character column
    `column` (0–31): a third of the screen (line bits 7-6) picks 2K, the line within its cell
    (bits 2-0) 256 bytes, the cell row within the third (bits 5-3) 32 bytes."""
    return DISPLAY_FILE + ((line & 0xC0) << 5) + ((line & 0x07) << 8) + ((line & 0x38) << 2) + column


def cell_address(row: int, column: int) -> int:
    """The display-file address of the top pixel line of character cell (row, column)."""
    return pixel_address(CELL_PIXELS * row, column)


def attribute_address(row: int, column: int) -> int:
    """The attribute address of character cell (row, column)."""
    return ATTRIBUTES + COLUMNS * row + column
