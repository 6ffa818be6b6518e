"""A front end with no window and no clock: scripted keys in, PNG and WAV out."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import numpy as np

from .. import render
from ..keyboard import KEY_NAMES, MODE_E, decode, keys_for_char, keys_for_code
from ..sound import frame_start_sample, write_wav
from . import Leave, ScriptExhausted

EXTEND_MODE = frozenset({"CAPS", "SYMBOL"})  # code 14: the editor reads the next key in extended mode
LEAVE = frozenset({"ESC"})  # the host's leave key: not a Spectrum key, it stops the program (Leave)
NAMED_PRESSES = {
    "BREAK": frozenset({"CAPS", "SPACE"}), "EDIT": frozenset({"CAPS", "1"}),
    "CAPSLOCK": frozenset({"CAPS", "2"}), "LEFT": frozenset({"CAPS", "5"}), "DOWN": frozenset({"CAPS", "6"}),
    "UP": frozenset({"CAPS", "7"}), "RIGHT": frozenset({"CAPS", "8"}), "GRAPHICS": frozenset({"CAPS", "9"}),
    "DELETE": frozenset({"CAPS", "0"}), "EXTEND": EXTEND_MODE, "ESC": LEAVE,
}
VALID_KEYS = ("the keys are ENTER, SPACE, CAPS, SYMBOL, a-z and 0-9 (held together: CAPS+5), and "
              + ", ".join(NAMED_PRESSES) + " (ESC leaves the program)")


def presses_from(items: Iterable[str | Iterable[str]]) -> list[frozenset[str]]:
    """Key presses for a headless script.

    Each item is a key name ('ENTER', 'CAPS', 'q') or the name of a press (NAMED_PRESSES:
    'DELETE', 'LEFT', 'BREAK', 'ESC' the host's leave key…), a single character to type
    ('"' becomes SYMBOL+p, 'A' CAPS+a, and '{' extended mode then SYMBOL+f, as on
    the Spectrum's keyboard), or a collection of key names held together
    (('CAPS', '5') is cursor left).
    """
    presses = []
    for item in items:
        if isinstance(item, str):
            if item in KEY_NAMES:
                presses.append(frozenset({item}))
            elif item in NAMED_PRESSES:
                presses.append(NAMED_PRESSES[item])
            elif len(item) == 1 and (keys := keys_for_char(item)):
                presses.append(keys)
            elif item in _extended_mode_keys():
                presses += [EXTEND_MODE, _extended_mode_keys()[item]]
            else:
                raise ValueError(f"no Spectrum key or character {item!r}")
        else:
            presses.append(_checked_press(item))
    return presses


@cache
def _extended_mode_keys() -> dict[str, frozenset[str]]:
    """The characters only extended mode types ({ } \\ ~ | [ ]): SYMBOL SHIFT with a letter."""
    found = {}
    for name in sorted(KEY_NAMES - EXTEND_MODE):
        keys = frozenset({"SYMBOL", name})
        code = decode(keys, mode=MODE_E)
        if code is not None and 32 <= code < 127 and keys_for_code(code) is None:
            found[chr(code)] = keys
    return found


def _checked_press(keys: Iterable[str]) -> frozenset[str]:
    names = list(keys)
    if len(names) == 1 and names[0] in NAMED_PRESSES:
        return NAMED_PRESSES[names[0]]
    press = frozenset(names)
    unknown = press - KEY_NAMES
    if unknown or not press:
        raise ValueError(f"no key {', '.join(map(repr, sorted(unknown))) or 'named'}: {VALID_KEYS}")
    return press


class HeadlessFrontend:
    """Plays a fixed script of key presses as fast as the machine runs.

    A press begins only when the program waits for a key (``machine.awaiting_key``: INPUT,
    PAUSE 0, an INKEY$ loop), so a script replays the same whatever the timing of the program.
    Each press is held for `hold_frames` frames, then all keys are up for `gap_frames`. The
    defaults suit the ROM's keyboard scan, which needs a key seen on one interrupt to register it
    and frees a key's slot only after it has been up for 5 interrupts (so the same key twice needs
    a gap of 4). When the program waits for a key and the script is used up, `ScriptExhausted`
    is raised.
    """

    def __init__(self, presses: Iterable[Iterable[str]] = (), *, hold_frames: int = 2, gap_frames: int = 4):
        if hold_frames < 2 or gap_frames < 4:
            raise ValueError("need hold_frames >= 2 and gap_frames >= 4 for the ROM's keyboard scan")
        self.presses = deque(presses_from(presses))
        self.hold_frames = hold_frames
        self.gap_frames = gap_frames
        self.frames_presented = 0
        self.shown = None  # the machine presented last
        self.status = ""  # what the host's keys do now: a window shows it, a script needs it not
        self._press: frozenset[str] = frozenset()
        self._press_frames_left = 0
        self._sounds: list[tuple[int, np.ndarray]] = []

    def present(self, machine) -> None:
        self.frames_presented += 1
        self.shown = machine
        if not self._press_frames_left and machine.awaiting_key:
            if not self.presses:
                raise ScriptExhausted("the program waits for a key and the scripted presses are used up")
            self._press = self.presses.popleft()
            if self._press == LEAVE:
                raise Leave("the key script pressed ESC")
            self._press_frames_left = self.hold_frames + self.gap_frames
        held = self._press_frames_left > self.gap_frames
        machine.keys_held = set(self._press) if held else set()
        self._press_frames_left = max(0, self._press_frames_left - 1)

    def play(self, machine, samples: np.ndarray) -> None:
        """Keep the samples where they sound: from the start of the frame they belong to (a
        machine that hands its sound on late says by how many frames: `sound_latency`)."""
        frame = machine.frame_count - getattr(machine, "sound_latency", 0)
        if len(samples) and frame >= 0:
            self._sounds.append((frame, np.array(samples, dtype=np.int16)))

    def close(self) -> None:
        """Nothing is held open: screenshots and sound are written when asked for."""

    def audio(self) -> np.ndarray:
        """Everything played so far, mixed, as int16 at 44.1 kHz from frame 0 on."""
        if not self._sounds:
            return np.zeros(0, np.int16)
        end = max(frame_start_sample(frame) + len(samples) for frame, samples in self._sounds)
        mix = np.zeros(end, np.int32)
        for frame, samples in self._sounds:
            start = frame_start_sample(frame)
            mix[start:start + len(samples)] += samples
        return np.clip(mix, -32768, 32767).astype(np.int16)

    def save_wav(self, path: str | Path) -> None:
        write_wav(path, self.audio())

    @staticmethod
    def screenshot(path: str | Path, machine, scale: int = 2) -> None:
        """Save what the machine shows now: a .scr file is SCREEN$, the display file and the
        attributes (6,912 bytes, the form every Spectrum tool reads); any other a PNG, border
        included, `scale` times life size."""
        if Path(path).suffix.lower() == ".scr":
            Path(path).write_bytes(machine.memory[render.DISPLAY_FILE:render.ATTRIBUTES_END].tobytes())
            return
        frame = render.frame_rgb(machine.memory, machine.flash_phase, machine.border)
        render.write_png(path, render.scale_nearest(frame, scale))
