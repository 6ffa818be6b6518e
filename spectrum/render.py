"""The ULA's picture: display file, attributes and border turned into RGB pixels.

Everything here is numpy on precomputed lookup tables, so a whole screen costs
a few array operations whatever is on it.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .hardware import ATTRIBUTES, ATTRIBUTES_END, COLUMNS, DISPLAY_FILE, LINE_T_STATES, PIXEL_HEIGHT, PIXEL_WIDTH, ROWS

FLASH_FRAMES = 16  # the ULA swaps FLASH cells every 16 frames

# The ULA drives each gun at one of three levels: off, normal, or BRIGHT.
# 0xD7 against 0xFF (normal at 84% of bright) is the commonly cited reading
# of the 48K's levels; the darker 0xC0 or 0xCD some emulators use make the
# normal colours duller than the machine looked on a TV.
NORMAL_LEVEL = 0xD7
BRIGHT_LEVEL = 0xFF


def _palette() -> np.ndarray:
    """16 RGB colours, index = 8 * bright + colour.

    A colour number's bits are G R B (4, 2, 1).  BRIGHT black is still black:
    the ULA only raises guns that are on.
    """
    index = np.arange(16)
    level = np.where(index >= 8, BRIGHT_LEVEL, NORMAL_LEVEL)
    gun_bits = np.array([2, 4, 1])  # R, G, B
    guns_on = (index[:, None] & gun_bits) != 0
    return np.where(guns_on, level[:, None], 0).astype(np.uint8)


PALETTE = _palette()
PALETTE.flags.writeable = False

# The visible border, in Spectrum pixels.  The ULA generates 48 pixels of
# border left and right, 48 lines above and 56 below, but a TV's overscan hid
# the outer part of it: roughly 32 pixels showed at each side and 24 lines top
# and bottom.  That makes the whole picture 320 x 240, exactly 4:3 with square
# pixels, the shape of the TV screen it was made for.
BORDER_LEFT = BORDER_RIGHT = 32
BORDER_TOP = BORDER_BOTTOM = 24
FRAME_WIDTH = BORDER_LEFT + PIXEL_WIDTH + BORDER_RIGHT
FRAME_HEIGHT = BORDER_TOP + PIXEL_HEIGHT + BORDER_BOTTOM

# The ULA draws a line in 224 T-states, and the display's first line 14,336 T-states after the
# frame's interrupt (64 lines of 224, the top border's lines first), two pixels a T-state. It takes
# the border's colour every 4 T-states, for the next 8 pixels: a change shows from the start of the
# 4 T-states in which the port is written (as Fuse draws it).
SCREEN_TOP_T = 14336
BORDER_LATCH_T = 4
BORDER_CELL_PIXELS = 2 * BORDER_LATCH_T
BORDER_COLUMNS = FRAME_WIDTH // BORDER_CELL_PIXELS  # 40 cells of 8 pixels across the visible picture
BORDER_CELLS = FRAME_HEIGHT * BORDER_COLUMNS
VISIBLE_TOP_LEFT_T = SCREEN_TOP_T - BORDER_TOP * LINE_T_STATES - BORDER_LEFT // 2  # the top-left cell's moment


def _attribute_maps() -> np.ndarray:
    """(2, 256) table: attribute byte -> 7-bit colour cell, per FLASH phase.

    The low 7 bits (BRIGHT, PAPER, INK) fully decide a cell's two colours; in
    the inverted FLASH phase a flashing attribute is replaced by the same
    attribute with INK and PAPER exchanged.
    """
    attribute = np.arange(256)
    steady = attribute & 0x7F
    exchanged = (attribute & 0x40) | ((attribute & 0x07) << 3) | ((attribute >> 3) & 0x07)
    inverted = np.where(attribute & 0x80, exchanged, steady)
    return np.stack([steady, inverted]).astype(np.uint16)


def _cell_byte_pixels() -> np.ndarray:
    """(128 * 256, 24) table: (colour cell << 8 | bitmap byte) -> 8 RGB pixels."""
    cell = np.arange(128)
    bright = (cell >> 6) << 3
    ink = PALETTE[(cell & 0x07) | bright]
    paper = PALETTE[((cell >> 3) & 0x07) | bright]
    paper_ink = np.stack([paper, ink], axis=1)  # (128, 2, 3)
    byte_bits = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1)  # (256, 8), MSB = left
    return paper_ink[:, byte_bits].reshape(128 * 256, 8 * 3)  # (cell, byte, pixel, rgb)


_CELL_OF_ATTRIBUTE = _attribute_maps()
_PIXELS_OF_CELL_BYTE = _cell_byte_pixels()
# One full-width line of each border colour: copying whole lines is several times
# faster than broadcasting a single colour over the frame.
_BORDER_LINES = np.ascontiguousarray(np.broadcast_to(PALETTE[:8, None], (8, FRAME_WIDTH, 3)))


def flash_phase(frame: int) -> bool:
    """Whether frame `frame` is in the half of the ULA's FLASH cycle that shows INK and PAPER exchanged."""
    return bool((frame // FLASH_FRAMES) & 1)


def picture(machine) -> tuple:
    """What decides the picture of `machine`: SCREEN$ (display file and attributes), the border
    (`border_of`: a colour, or its runs), and the FLASH phase when a cell flashes; a front end
    draws again only when it changes."""
    screen = machine.memory[DISPLAY_FILE:ATTRIBUTES_END].tobytes()
    return screen, border_of(machine), flashes(screen) and machine.flash_phase


def flashes(screen: bytes) -> bool:
    """Whether a cell of SCREEN$ flashes: FLASH is an attribute's top bit."""
    return not screen[ATTRIBUTES - DISPLAY_FILE :].isascii()


def border_runs(colour: int, changes: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The border of a frame that began with the border `colour` and set it to c at T-state t (from
    the frame's interrupt, when the ULA sees the port written) for each (t, c) of `changes`, in time
    order: (the first cell it covers, its colour) for each run of one colour, in the order the beam
    draws the visible picture's cells of 8 pixels (line * BORDER_COLUMNS + column). A change before
    the first visible line shows from its first cell; one in a line's hidden part (the beam's
    return), from the next line; one after the last visible line, in the next frame."""
    times = np.fromiter((t_state for t_state, _ in changes), np.int64, len(changes)) - VISIBLE_TOP_LEFT_T
    line, within = np.divmod(np.maximum(times, 0), LINE_T_STATES)
    cells = np.concatenate([[0], line * BORDER_COLUMNS + np.minimum(within // BORDER_LATCH_T, BORDER_COLUMNS)])
    colours = np.array([colour, *(changed for _, changed in changes)]) & 7
    shown = cells < BORDER_CELLS
    cells, colours = cells[shown], colours[shown]
    last_in_cell = np.append(cells[1:] != cells[:-1], True)  # a cell shows the colour set last in it
    cells, colours = cells[last_in_cell], colours[last_in_cell]
    new_colour = np.append(True, colours[1:] != colours[:-1])
    return tuple(zip(cells[new_colour].tolist(), colours[new_colour].tolist()))


def border_of(machine) -> int | tuple[tuple[int, int], ...]:
    """The border as `machine`'s last frame drew it: its colour, or its runs (`border_runs`) when
    it changed during the frame (`machine.border_runs`, which the ROM's machine keeps)."""
    return getattr(machine, "border_runs", None) or machine.border & 7


def border_cells(border: int | Sequence[tuple[int, int]]) -> np.ndarray:
    """The colour of each 8-pixel cell of the visible picture, (FRAME_HEIGHT, BORDER_COLUMNS), from
    a border colour or its runs."""
    if isinstance(border, (int, np.integer)):
        return np.full((FRAME_HEIGHT, BORDER_COLUMNS), border & 7, np.uint8)
    starts, colours = zip(*border)
    lengths = np.diff([*starts, BORDER_CELLS])
    return np.repeat(np.array(colours, np.uint8) & 7, lengths).reshape(FRAME_HEIGHT, BORDER_COLUMNS)


def screen_rgb(memory: np.ndarray, flash_phase: bool) -> np.ndarray:
    """The 256 x 192 paper area as a (192, 256, 3) uint8 RGB array.

    `memory` is the 64K as uint8; `flash_phase` True is the half-second in
    which FLASH cells show INK and PAPER exchanged.
    """
    # A line's address is 0x4000 + (y7y6 << 11) + (y2y1y0 << 8) + (y5y4y3 << 5) + column,
    # so the display file is [third][pixel line][character row][column]; swapping the
    # middle two axes puts the lines in screen order.
    bitmap = memory[DISPLAY_FILE:ATTRIBUTES].reshape(3, 8, 8, COLUMNS).transpose(0, 2, 1, 3).reshape(ROWS, 8, COLUMNS)
    cells = _CELL_OF_ATTRIBUTE[int(bool(flash_phase))][memory[ATTRIBUTES:ATTRIBUTES_END]]
    lookup = (cells.reshape(ROWS, 1, COLUMNS) << 8) | bitmap
    return np.take(_PIXELS_OF_CELL_BYTE, lookup, axis=0).reshape(PIXEL_HEIGHT, PIXEL_WIDTH, 3)


def frame_rgb(memory: np.ndarray, flash_phase: bool, border: int | Sequence[tuple[int, int]]) -> np.ndarray:
    """The whole visible picture, (240, 320, 3) uint8: the screen inside its border, which is one
    colour or changes colour where the beam was (`border_runs`)."""
    frame = np.empty((FRAME_HEIGHT, FRAME_WIDTH, 3), dtype=np.uint8)
    # The ULA takes the border from the low three bits of port 254 and never makes it BRIGHT.
    if isinstance(border, (int, np.integer)):
        frame[:] = _BORDER_LINES[border & 7]
    else:
        frame[:] = np.repeat(PALETTE[border_cells(border)], BORDER_CELL_PIXELS, axis=1)
    frame[BORDER_TOP : BORDER_TOP + PIXEL_HEIGHT, BORDER_LEFT : BORDER_LEFT + PIXEL_WIDTH] = screen_rgb(
        memory, flash_phase
    )
    return frame


def scale_nearest(rgb: np.ndarray, scale: int) -> np.ndarray:
    """`rgb` enlarged `scale` times in each direction, each pixel a solid square."""
    return np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)


def write_png(path: str | Path, rgb: np.ndarray) -> None:
    """Save an (height, width, 3) uint8 array as an 8-bit RGB PNG."""
    height, width, _ = rgb.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, no interlace
    # Every scanline starts with filter type 0 (none).
    scanlines = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, width * 3)], axis=1)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 6))
        + chunk(b"IEND", b"")
    )
    Path(path).write_bytes(png)
