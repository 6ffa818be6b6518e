"""A pygame window: the picture at 50 frames a second, the beeper, and the host keyboard; under
the picture, outside the Spectrum's own screen, a strip where the host says what its keys do."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

import numpy as np
import pygame  # its greeting is hidden by the package, spectrum.frontends
import pygame.freetype

from .. import render
from ..pointing import PointerSession, cell_at
from ..keyboard import KEY_NAMES, keys_for_char
from ..sound import SAMPLE_RATE
from . import Frontend, Leave, NoDisplay, Quit
from .held import HeldKeys
from .pacing import Pacer

STATUS_HEIGHT = 12  # the host's strip under the picture, in Spectrum pixels (scaled with it)
STATUS_TEXT_SIZE = 11  # the height of its letters, likewise
STATUS_PAPER, STATUS_INK = (24, 24, 24), (200, 200, 200)  # not Spectrum colours: the host speaks
NOTE_FRAMES = 150  # 3 s: how long the strip says that a character typed has no Spectrum key
LINE_MOST = 80  # characters of a line typed into the strip
HOVER, PICKED = (255, 255, 255), (255, 160, 0)  # outlines: the host's colours, drawn over the window only
CHOICE_PAPER, CHOICE_INK = (60, 60, 90), (230, 230, 230)

_SPECIAL_KEYS: dict[int, frozenset[str]] = {
    pygame.K_RETURN: frozenset({"ENTER"}),
    pygame.K_KP_ENTER: frozenset({"ENTER"}),
    pygame.K_SPACE: frozenset({"SPACE"}),
    pygame.K_BACKSPACE: frozenset({"CAPS", "0"}),  # DELETE
    pygame.K_LEFT: frozenset({"CAPS", "5"}),
    pygame.K_DOWN: frozenset({"CAPS", "6"}),
    pygame.K_UP: frozenset({"CAPS", "7"}),
    pygame.K_RIGHT: frozenset({"CAPS", "8"}),
    pygame.K_LSHIFT: frozenset({"CAPS"}),
    pygame.K_RSHIFT: frozenset({"CAPS"}),
    pygame.K_LCTRL: frozenset({"SYMBOL"}),
    pygame.K_RCTRL: frozenset({"SYMBOL"}),
    pygame.K_LALT: frozenset({"SYMBOL"}),
    pygame.K_RALT: frozenset({"SYMBOL"}),
}
_SHIFT_KEYS = frozenset({pygame.K_LSHIFT, pygame.K_RSHIFT})


def spectrum_keys(key: int, text: str) -> tuple[frozenset[str], bool]:
    """The Spectrum keys for a host key going down, and whether they stand in for Shift.

    `text` is the character the host typed with it.  Letters and digits are
    their own keys (Shift and Ctrl add CAPS and SYMBOL as on the real
    keyboard); any other character is typed the Spectrum way, e.g. '"' as
    SYMBOL+p, and then the host's Shift that made it must not also press CAPS.
    """
    if key in _SPECIAL_KEYS:
        return _SPECIAL_KEYS[key], False
    if len(text) == 1 and text.isprintable() and not text.isalnum():
        typed = keys_for_char(text)
        return (typed, True) if typed else (frozenset(), False)
    # The key code names the key even when Ctrl turns the text into a control
    # character; the text names keypad digits, whose codes are not ASCII.
    for name in (chr(key) if 0 < key < 128 else "", text.lower()):
        if name in KEY_NAMES:
            return frozenset({name}), False
    return frozenset(), False


def largest_scale(display: tuple[int, int] | None, width: int, height: int, wanted: int) -> int:
    """The largest scale, `wanted` at most and 1 at least, at which a picture of `width` x `height`
    pixels at life size fits a display of `display` pixels (width, height); `wanted` when the host
    does not say how large its display is (None)."""
    if display is None:
        return wanted
    return max(1, min(wanted, display[0] // width, display[1] // height))


def display_size() -> tuple[int, int] | None:
    """The desktop's size in pixels (once pygame's display is started), None when the host does not
    say; the desktop, not the window: a window already open does not change it."""
    sizes = pygame.display.get_desktop_sizes()
    if not sizes or min(sizes[0]) <= 0:
        return None
    return sizes[0]


def status_font(scale: int) -> pygame.freetype.Font:
    """The host's letters for the strip under the picture, STATUS_TEXT_SIZE Spectrum pixels high
    (scaled), each set by its own advance: the font's kerning table pushes some pairs apart (it
    made "zxcards" read "z xcards"). Text is placed by its baseline, so that every line sits alike."""
    pygame.freetype.init()
    font = pygame.freetype.Font(None, STATUS_TEXT_SIZE * scale)
    font.kerning = False
    font.origin = True
    return font


def draw_status_text(
    surface: pygame.Surface, font: pygame.freetype.Font, text: str, left: int, top: int, height: int
) -> None:
    """`text` in STATUS_INK on `surface` from `left`, centred in the band `height` pixels high at `top`."""
    ascender, descender = font.get_sized_ascender(0), font.get_sized_descender(0)  # 0: the font's own size
    baseline = top + (height - (ascender - descender)) // 2 + ascender
    font.render_to(surface, (left, baseline), text, STATUS_INK)


def _display_missing() -> bool:
    """True on Linux when nothing says where a window could go."""
    return (
        sys.platform.startswith("linux")
        and not os.environ.get("SDL_VIDEODRIVER")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    )


def _no_display(reason: str) -> NoDisplay:
    return NoDisplay(f"cannot open a window ({reason})")  # the command says what to do instead


class WindowFrontend(Frontend):
    """The Spectrum's picture in a window `scale` times life size, kept to the ULA's 50.08 Hz, and under it the
    host's status strip showing `status` (what Escape does, say)."""

    def __init__(self, scale: int = 3, title: str = "ZX Spectrum", pacer: Pacer | None = None):
        if scale < 1:
            raise ValueError(f"scale must be a whole number from 1 up, not {scale!r}")
        if _display_missing():
            raise _no_display("no DISPLAY or WAYLAND_DISPLAY is set")
        try:
            pygame.display.init()
            self.asked_scale = scale
            self.scale = largest_scale(display_size(), render.FRAME_WIDTH, render.FRAME_HEIGHT + STATUS_HEIGHT, scale)
            width, height = render.FRAME_WIDTH * self.scale, render.FRAME_HEIGHT * self.scale
            self._window = pygame.display.set_mode((width, height + STATUS_HEIGHT * self.scale))
        except pygame.error as error:
            pygame.display.quit()
            raise _no_display(str(error) or "pygame could not open one") from error
        pygame.display.set_caption(title)
        self._picture_area = self._window.subsurface((0, 0, width, height))
        self._status_area = self._window.subsurface((0, height, width, STATUS_HEIGHT * self.scale))
        self._font = status_font(self.scale)
        self.status = ""
        self._status_shown: tuple[str, tuple[str, ...]] | None = None
        self._note, self._note_frames_left = "", 0  # said in place of `status` for a while
        self._frame = pygame.Surface((render.FRAME_WIDTH, render.FRAME_HEIGHT), depth=32)
        self._clock = pacer or Pacer()  # the frame rate, on the host's clock
        self._shown: tuple | str | None = None  # what the window shows now (`render.picture`; a word, side by side)
        self._held = HeldKeys()  # host key codes, from KEYDOWN to KEYUP
        # A line of text typed into the strip, for the host (a word to a served table): offered when
        # `line_wanted`, opened with F2, sent with Enter (into `lines`), given up with Escape
        self.line_wanted = False
        self.lines: list[str] = []
        self._line: str | None = None
        self.pointing = PointerSession()  # the mouse: the program's targets, the parts picked, keys typed
        self._hover: tuple[int, int] | None = None  # the cell under the mouse
        self._pressed_at: tuple[int, int] | None = None  # where the button went down on the picture
        self._choices: list[tuple[pygame.Rect, str]] = []  # the choices drawn in the strip, by name
        self._sound = _open_mixer()
        self._channel = pygame.mixer.Channel(0) if self._sound else None

    @property
    def scale_note(self) -> str | None:
        """What to tell the player when the window is smaller than asked for, else None."""
        if self.scale >= self.asked_scale:
            return None
        shown = "life size" if self.scale == 1 else f"{self.scale} times life size"
        return f"{self.asked_scale} times life size is larger than the display: the window is {shown}"

    def present(self, machine) -> None:
        machine.keys_held = self._take_keys(machine)
        picture, strip = (render.picture(machine), self._outlines()), (self._strip_text(), self._choice_names())
        changed = picture != self._shown or strip != self._status_shown
        if picture != self._shown:  # an idle screen costs no drawing, scaling or flipping
            frame = render.frame_rgb(machine.memory, machine.flash_phase, picture[0][1])
            pygame.surfarray.blit_array(self._frame, frame.transpose(1, 0, 2))
            pygame.transform.scale(self._frame, self._picture_area.get_size(), self._picture_area)
            self._draw_outlines(picture[1])
            self._shown = picture
        if strip != self._status_shown:
            self._draw_status(strip)
        if changed:
            pygame.display.flip()
        self._clock.wait()

    def _strip_text(self) -> str:
        """What the strip says this frame: for NOTE_FRAMES after a character no Spectrum key types
        (an é, which would be lost from a name without a word), that; else `status`."""
        if self._line is not None:
            return f"Say: {self._line}_  (Enter says it, Esc not)"
        if self._note_frames_left:
            self._note_frames_left -= 1
            return self._note
        return self.status + ("  F2: say a word" if self.line_wanted else "")

    def _draw_status(self, strip: tuple[str, tuple[str, ...]]) -> None:
        """The status text, and the program's choices (its targets beside the picture) at the right."""
        text, choices = strip
        self._status_area.fill(STATUS_PAPER)
        draw_status_text(self._status_area, self._font, text, self.scale * 4, 0, self._status_area.get_height())
        self._choices = []
        right, height = self._status_area.get_width() - self.scale, self._status_area.get_height()
        for name in reversed(choices):
            width = int(self._font.get_rect(name).width) + 6 * self.scale
            box = pygame.Rect(right - width, self.scale, width, height - 2 * self.scale)
            self._status_area.fill(CHOICE_PAPER, box)
            draw_status_text(self._status_area, self._font, name, box.x + 3 * self.scale, 0, height)
            self._choices.append((box.move(0, self._picture_area.get_height()), name))
            right = box.x - 2 * self.scale
        self._status_shown = strip

    def _typed_into_the_line(self, event) -> bool:
        """A key for the line of text (F2 opens it when wanted): typed there, never the Spectrum's."""
        if self._line is None:
            if not (self.line_wanted and event.key == pygame.K_F2):
                return False
            self._line = ""
            self._held.release_all()
        elif event.key == pygame.K_ESCAPE:
            self._line = None
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self._line.strip():
                self.lines.append(self._line)
            self._line = None
        elif event.key == pygame.K_BACKSPACE:
            self._line = self._line[:-1]
        elif (text := getattr(event, "unicode", "")).isprintable() and len(self._line) < LINE_MOST:
            self._line += text
        return True

    def _choice_names(self) -> tuple[str, ...]:
        return tuple(target.name for target in self.pointing.targets.targets if not target.on_screen)

    def _outlines(self) -> tuple:
        """The cells to outline: the target under the mouse, and those picked."""
        targets = self.pointing.targets
        hovered = targets.at(*self._hover) if self._hover else None
        picked = [targets.named(name) for name in self.pointing.picked]
        return (
            (hovered.row, hovered.col, hovered.rows, hovered.cols) if hovered and hovered.rows < 24 else None,
            tuple(
                (target.row, target.col, target.rows, target.cols)
                for target in picked
                if target is not None and target.on_screen
            ),
        )

    def _draw_outlines(self, outlines: tuple) -> None:
        """Outlines over the scaled picture, never in the Spectrum's screen."""
        hovered, picked = outlines
        cell = 8 * self.scale
        for rect, colour in [*((rect, PICKED) for rect in picked), *([(hovered, HOVER)] if hovered else [])]:
            row, col, rows, cols = rect
            box = (
                (render.BORDER_LEFT // 8 + col) * cell,
                (render.BORDER_TOP // 8 + row) * cell,
                cols * cell,
                rows * cell,
            )
            pygame.draw.rect(self._picture_area, colour, box, max(2, self.scale))

    def _take_keys(self, machine=None) -> set[str]:
        """The host's events of this frame, and the Spectrum keys held for it: a person's, and the
        typist's for the mouse's taps (typed as the program waits for a key)."""
        if machine is not None:
            self.pointing.look(machine)
        self._handle_events()
        awaiting = getattr(machine, "awaiting_key", True)
        return self._held.for_frame() | self.pointing.for_frame(awaiting)

    def _cell(self, position: tuple[int, int]) -> tuple[int, int] | None:
        width, height = self._picture_area.get_size()
        return cell_at(
            *position, width, height, render.FRAME_WIDTH, render.FRAME_HEIGHT, render.BORDER_LEFT, render.BORDER_TOP
        )

    def _mouse(self, event) -> None:
        """The mouse over the picture: the target under it outlined; a click taps, a drag drags; a
        click on a choice in the strip taps it."""
        if event.type == pygame.MOUSEMOTION:
            self._hover = self._cell(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed_at = self._cell(event.pos)
            for box, name in self._choices:
                if box.collidepoint(event.pos):
                    self.pointing.tap_name(name)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            start, self._pressed_at = self._pressed_at, None
            end = self._cell(event.pos)
            if start is not None and end is not None:
                self.pointing.drag(start, end)

    def play(self, machine, samples: np.ndarray) -> None:
        if self._sound and self._channel is not None and len(samples):
            # The machine streams sound a frame at a time: queue each piece behind the last
            sound = pygame.mixer.Sound(buffer=np.asarray(samples, dtype=np.int16).tobytes())
            if self._channel.get_busy():
                self._channel.queue(sound)
            else:
                self._channel.play(sound)

    def close(self) -> None:
        if self._sound:
            pygame.mixer.quit()
            self._sound = False
        pygame.display.quit()

    def _handle_events(self) -> None:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                raise Quit()
            if event.type == pygame.KEYDOWN and self._typed_into_the_line(event):
                continue
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                raise Leave()  # the host's key: leaves the program, at INPUT too (Shift+Space is BREAK)
            if event.type == pygame.KEYDOWN:
                text = getattr(event, "unicode", "")
                keys, replaces_shift = spectrum_keys(event.key, text)
                if keys:
                    self._held.press(event.key, keys, types_symbol=replaces_shift, is_shift=event.key in _SHIFT_KEYS)
                elif text.isprintable() and text.strip():
                    self._note, self._note_frames_left = f"No Spectrum key types {text}: it was not typed", NOTE_FRAMES
            elif event.type == pygame.KEYUP:
                self._held.release(event.key)
            elif event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                self._mouse(event)
            elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
                self._shown = self._status_shown = None  # the host lost the window's picture: draw it again
            elif event.type == pygame.WINDOWFOCUSLOST:
                self._held.release_all()  # keys released in another window never send us their KEYUP


def _open_mixer() -> bool:
    """Start 44.1 kHz mono 16-bit sound; False (and silence) when the host has no audio."""
    try:
        with _native_stderr_discarded():
            # allowedchanges=0: SDL converts to whatever the device wants, so samples go in as they are.
            pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=1, allowedchanges=0)
    except pygame.error:
        return False
    return True


@contextmanager
def _native_stderr_discarded():
    """Hide what C libraries write to stderr: ALSA prints a screenful when there is no sound card."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
