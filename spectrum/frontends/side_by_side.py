"""Two Spectrums in one window: the layer's machine on the left, the real ROM on the right.

The same keys go to both: each key pressed in the window (or typed by a click on the port's
picture, read against the port's targets) is typed into each machine when that machine next waits
for a key (as a headless script is typed), so the two stay in step however
differently they keep time. Where both wait for the same key, every character cell in which
their screens differ is outlined, and the status line says "identical so far" or where the
screens first parted (`spectrum.compare`). The sound is the ROM's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pygame

from .. import render
from ..compare import KeyWaitRecorder, differing_cells, first_difference, screen_of
from ..pointing import cell_at
from .headless import Press
from .window import (
    STATUS_HEIGHT,
    STATUS_PAPER,
    WindowFrontend,
    display_size,
    draw_status_text,
    largest_scale,
    status_font,
)

if TYPE_CHECKING:
    from ..rom_machine import RomSpectrum

STATUS_LINES = 2  # the host's strip: two lines as high as the single window's one
# The pictures meet border to border (a gap would make the pair too wide for twice life size on a
# 1280-pixel display); a line, drawn over the two borders where they meet, parts them.
PARTING = (96, 96, 96)  # no Spectrum colour: the host's
OUTLINE = (255, 128, 0)  # orange: no Spectrum colour
SHIFTS = frozenset({"CAPS", "SYMBOL"})


def pair_scale(display: tuple[int, int] | None, wanted: int) -> int:
    """The largest scale, `wanted` at most, at which the two pictures side by side and the status
    strip under them fit a display of `display` pixels (None: the host does not say)."""
    return largest_scale(display, 2 * render.FRAME_WIDTH, render.FRAME_HEIGHT + STATUS_LINES * STATUS_HEIGHT, wanted)


class RomKeys(KeyWaitRecorder):
    """The ROM's side of the window: the keys typed at its key waits, its sound to the window."""

    def __init__(self, window: SideBySideWindow):
        super().__init__(endless=True)
        self.window = window

    def play(self, machine, samples: np.ndarray) -> None:
        self.window.play(machine, samples)


class SideBySideWindow(WindowFrontend):
    """The front end of the layer's machine; each of its frames also runs a frame of `rom`
    (a `RomSpectrum` made with `rom_keys` as its front end, then given to `attach`)."""

    def __init__(self, scale: int = 3, title: str = "ZX Spectrum: the port and the ROM"):
        super().__init__(scale=scale, title=title)
        self.scale = pair_scale(display_size(), scale)
        self._font = status_font(self.scale)
        width, height = render.FRAME_WIDTH * self.scale, render.FRAME_HEIGHT * self.scale
        self._line_height = STATUS_HEIGHT * self.scale
        self._status_height = STATUS_LINES * self._line_height
        self._window = pygame.display.set_mode((2 * width, height + self._status_height))
        self._window.fill(STATUS_PAPER)
        self.port_keys = KeyWaitRecorder(endless=True)
        self.rom_keys = RomKeys(self)
        self.rom: RomSpectrum | None = None  # given by attach()
        self._held_before: set[str] = set()
        self._drawn: list = [None, None, None]  # what each picture and the status line show

    def attach(self, rom: RomSpectrum) -> None:
        self.rom = rom

    def _cell(self, position: tuple[int, int]) -> tuple[int, int] | None:
        """The cell of the port's picture (the left one) under the mouse: a click there types for both."""
        return cell_at(
            *position,
            render.FRAME_WIDTH * self.scale,
            render.FRAME_HEIGHT * self.scale,
            render.FRAME_WIDTH,
            render.FRAME_HEIGHT,
            render.BORDER_LEFT,
            render.BORDER_TOP,
        )

    def present(self, machine) -> None:
        held = self._take_keys(machine)
        if self._shown is None:  # at first, and when the host lost the window's picture
            self._drawn = [None, None, None]
            self._shown = "both pictures"
        if (held - self._held_before) - SHIFTS:  # a key went down: one press for each machine
            for keys in (self.port_keys, self.rom_keys):
                keys.presses.append(Press(frozenset(held)))
        self._held_before = held
        self.port_keys.present(machine)
        assert self.rom is not None, "attach() the ROM's machine first"
        self.rom.run_frame()
        self._draw(machine, self.rom)
        self._clock.wait()

    def play(self, machine, samples: np.ndarray) -> None:
        if machine is self.rom:
            super().play(machine, samples)

    def comparison(self, port) -> tuple[str, list[tuple[int, int]]]:
        """The status line, and the cells to outline: those in which the screens of `port` and
        the ROM differ while both wait at the same key."""
        ports, roms = self.port_keys.waits, self.rom_keys.waits
        compared = min(len(ports), len(roms))
        difference = first_difference(ports[:compared], roms[:compared])
        cells = []
        if len(ports) == len(roms) and self.port_keys.waiting_for_keys and self.rom_keys.waiting_for_keys:
            cells = differing_cells(screen_of(port), screen_of(self.rom))
        if difference:
            text = str(difference)
        else:
            text = f"identical so far ({compared} wait{'s' if compared != 1 else ''} for a key compared)"
        if cells:
            text += f"; {len(cells)} cell{'s' if len(cells) != 1 else ''} differ now (outlined)"
        behind = len(ports) - len(roms)
        state = (
            "the ROM is catching up"
            if behind > 0
            else "both wait for a key"
            if not behind
            else "the port is catching up"
        )
        return f"port (left) and ROM (right): {text}\n{state}", cells

    def _draw(self, port, rom) -> None:
        """Draw what changed: either picture (with its outlines), the status line."""
        text, cells = self.comparison(port)
        width, height = render.FRAME_WIDTH * self.scale, render.FRAME_HEIGHT * self.scale
        changed = []
        for side, (left, machine) in enumerate(((0, port), (width, rom))):
            picture = (render.picture(machine), tuple(cells))
            if picture == self._drawn[side]:
                continue
            frame = render.frame_rgb(machine.memory, machine.flash_phase, picture[0][1])
            pygame.surfarray.blit_array(self._frame, frame.transpose(1, 0, 2))
            area = pygame.Rect(left, 0, width, height)
            pygame.transform.scale(self._frame, area.size, self._window.subsurface(area))
            for row, column in cells:
                x = left + (render.BORDER_LEFT + 8 * column) * self.scale
                y = (render.BORDER_TOP + 8 * row) * self.scale
                pygame.draw.rect(self._window, OUTLINE, (x, y, 8 * self.scale, 8 * self.scale), max(2, self.scale))
            self._drawn[side] = picture
            changed.append(area)
        if changed:  # a picture drawn again covers its half of the parting line
            changed.append(pygame.draw.rect(self._window, PARTING, (width - 1, 0, 2, height)))
        if text != self._drawn[2]:
            area = pygame.Rect(0, height, self._window.get_width(), self._status_height)
            self._window.fill(STATUS_PAPER, area)
            for number, line in enumerate(text.splitlines()):
                draw_status_text(
                    self._window,
                    self._font,
                    line,
                    4 * self.scale,
                    height + number * self._line_height,
                    self._line_height,
                )
            self._drawn[2] = text
            changed.append(area)
        if changed:
            pygame.display.update(changed)
