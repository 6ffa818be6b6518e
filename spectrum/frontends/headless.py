"""A front end with no window and no clock: scripted keys in, PNG and WAV out."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import hardware, render
from ..pointing import Pointer, Tap, press_keys, targets_of
from ..sound import frame_start_sample, write_wav
from . import Frontend, Leave, ScriptExhausted

from ..presses import LEAVE, presses_from


@dataclass(frozen=True)
class Press:
    """Keys held together for `hold` frames (None: the front end's own), typed when the program
    waits for a key — or, timed, from frame `at`, or `after` frames after the press before it
    was let go of, whatever the program is doing."""

    keys: frozenset[str]
    hold: int | None = None
    at: int | None = None
    after: int | None = None

    @property
    def timed(self) -> bool:
        return self.at is not None or self.after is not None


def _as_press(press: Press | Iterable[str]) -> Press:
    return press if isinstance(press, Press) else Press(frozenset(press))


class HeadlessFrontend(Frontend):
    """Plays a fixed script of key presses as fast as the machine runs.

    A press begins when the program waits for a key (``machine.awaiting_key``: INPUT, PAUSE 0,
    an INKEY$ loop), so a script replays the same whatever the timing of the program; a timed
    `Press` begins at its frame instead, busy or not. Each press is held for `hold_frames` frames
    (or its own `hold`), then all keys are up for `gap_frames` before an untimed press. The
    defaults suit the ROM's keyboard scan, which needs a key seen on one interrupt to register it
    and frees a key's slot only after it has been up for 5 interrupts (so the same key twice needs
    a gap of 4). When the program waits for a key and the script is used up, `ScriptExhausted`
    is raised.
    """

    def __init__(self, presses: Iterable[Iterable[str] | Press] = (), *, hold_frames: int = 2, gap_frames: int = 4):
        if hold_frames < 2 or gap_frames < 4:
            raise ValueError("need hold_frames >= 2 and gap_frames >= 4 for the ROM's keyboard scan")
        self.presses = deque(
            press
            for item in presses
            for press in ([item] if isinstance(item, (Press, Tap)) else map(Press, presses_from([item])))
        )
        self.pointer = Pointer()  # a script's taps, as a person's: parts picked until a move is whole
        self.hold_frames = hold_frames
        self.gap_frames = gap_frames
        self.frames_presented = 0
        self.shown = None  # the machine presented last
        self.status = ""  # what the host's keys do now: a window shows it, a script needs it not
        self._press: frozenset[str] = frozenset()
        self._hold_left = 0  # frames the press still holds its keys
        self._gap_left = 0  # frames all keys stay up after it, before an untimed press
        self._released = 0  # frames since the last press let its keys go
        self._sounds: list[tuple[int, np.ndarray]] = []

    def present(self, machine) -> None:
        self.frames_presented += 1
        self.shown = machine
        while (
            not self._hold_left
            and not self._gap_left
            and self.presses
            and isinstance(self.presses[0], Tap)
            and machine.awaiting_key
        ):  # a tap: the keys it types now, to be typed next
            tap = self.presses.popleft()
            self.presses.extendleft(
                reversed([Press(press_keys(key)) for key in tap.keys(self.pointer, targets_of(machine))])
            )
        if (
            not self._hold_left
            and self.presses
            and not isinstance(self.presses[0], Tap)
            and self._due(_as_press(self.presses[0]), machine)
        ):
            press = _as_press(self.presses.popleft())
            if press.keys == LEAVE:
                raise Leave("the key script pressed ESC")
            self._press = press.keys
            self._hold_left = press.hold or self.hold_frames
            self._gap_left = self.gap_frames
        elif not self._hold_left and not self._gap_left and machine.awaiting_key and not self.presses:
            raise ScriptExhausted("the program waits for a key and the scripted presses are used up")
        if self._hold_left:
            machine.keys_held = set(self._press)
            self._hold_left -= 1
            self._released = 0
        else:
            machine.keys_held = set()
            self._gap_left = max(0, self._gap_left - 1)
            self._released += 1

    @property
    def pressing(self) -> bool:
        """A press holds its keys, or the keys are up for the gap after it."""
        return bool(self._hold_left or self._gap_left)

    def _due(self, press: Press, machine) -> bool:
        if press.at is not None:
            return machine.frame_count >= press.at
        if press.after is not None:
            return self._released >= press.after
        return not self._gap_left and machine.awaiting_key

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
            mix[start : start + len(samples)] += samples
        return np.clip(mix, -32768, 32767).astype(np.int16)

    def save_wav(self, path: str | Path) -> None:
        write_wav(path, self.audio())

    @staticmethod
    def screenshot(path: str | Path, machine, scale: int = 2) -> None:
        """Save what the machine shows now: a .scr file is SCREEN$, the display file and the
        attributes (6,912 bytes, the form every Spectrum tool reads); any other a PNG, border
        included (changing colour where the beam was, as the frame drew it: the ROM's loader's
        stripes), `scale` times life size."""
        if Path(path).suffix.lower() == ".scr":
            Path(path).write_bytes(machine.memory[hardware.DISPLAY_FILE : hardware.ATTRIBUTES_END].tobytes())
            return
        frame = render.frame_rgb(machine.memory, machine.flash_phase, render.border_of(machine))
        render.write_png(path, render.scale_nearest(frame, scale))
