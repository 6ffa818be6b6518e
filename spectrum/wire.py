"""What a served Spectrum and its terminals (the browser page, `zxcards connect`) say to each other.

To a terminal, a binary FRAME message for each frame that changed anything it shows or plays —
every frame, when the terminal keeps the machine in lockstep:

    kind (1) | frame (u32) | flags (u8) | border (u8) | runs (u16) | steps (u16)
    then each run:  offset into SCREEN$ (u16) | length (u16) | the bytes
    then each step: T-state from the start of this frame (i32) | level from then on (i8)
    then, with the BORDER_RUNS flag (the border changed during the frame: a tape's stripes):
        runs (u16) | each: the first cell it covers (u16) | its colour (u8)

The border byte is the border's colour (with runs, its last visible cell's). A cell is 8 pixels of
a line of the visible picture, as often as the ULA takes the border colour: line *
render.BORDER_COLUMNS + column, in the order the beam draws them (`render.border_runs`). Flag 4 is
unused.

SCREEN$ is the display file and attributes, 6,912 bytes: a run is bytes that changed since the
last message. A step is a speaker edge: the terminal turns the level into samples at its own
rate, as `sound.stepped_samples` does. Text messages are JSON: {"status": …} (what the host's
keys do), {"error": …} (a message refused), {"end": …, "exit": N} (the session is over, why,
and its exit status as a command's), {"targets": {…}, "picked": [names]} (what the program's cells
mean now, `pointing.Targets.as_json`, and what to outline as picked: sent when either changes).

From a terminal, JSON: {"held": [key names]} the Spectrum keys held now (a key held and let go
between two frames still counts for the next), {"leave": true} the host's leave key; in lockstep
{"frame": N, "held": […]} gives the keys for frame N. {"tap": [row, column]} or {"tap": "name"}
taps a cell or a target, {"drag": [[row, column], [row, column]]} drags from one cell to another:
the served machine types what they mean (`pointing`), as the program next waits for a key.
"""

from __future__ import annotations

import bisect
import json
import math
import struct
from dataclasses import dataclass

import numpy as np

from .hardware import ATTRIBUTES_END, COLUMNS, DISPLAY_FILE, FRAME_T_STATES, ROWS, T_STATES_PER_SECOND
from .keyboard import KEY_NAMES
from .pointing import Targets
from .sound import SAMPLE_RATE, frame_start_sample, stepped_samples

FRAME = 1
HEADER = struct.Struct("<BIBBHH")
RUN = struct.Struct("<HH")
STEP = struct.Struct("<ib")
AWAITING_KEY, FLASH_PHASE, BORDER_RUNS = 1, 2, 8  # flag bits
BORDER_RUN_COUNT = struct.Struct("<H")
BORDER_RUN = struct.Struct("<HB")
RUN_JOIN = RUN.size  # runs closer than a run's header are sent as one
FEW_CHANGED = 200  # bytes changed in a frame up to which `changed_runs` joins them without numpy
MAX_MESSAGE = 1024  # bytes: the longest message a terminal may send
# In the address a terminal opens: LOCKSTEP in its query makes it a scripted terminal (each frame
# waits for its keys); the page's secret, SECRET, comes in the cookie SECRET_COOKIE (a browser's
# accounts are kept under its hash; `zxcards connect` keeps one of its own as a browser does).
LOCKSTEP = "lockstep"
SECRET_COOKIE = "zxcards-secret"
SECRET_PATTERN = r"[0-9a-f]{32}"
# the ROM's steps come a frame after their frame, and a frame's arrive with the frame after it
SOUND_LATENCY = 2


class MessageError(ValueError):
    """A terminal's message that is not one of the protocol's."""


@dataclass(frozen=True)
class TerminalMessage:
    held: frozenset[str] | None = None
    leave: bool = False
    frame: int | None = None
    tap: tuple[int, int] | str | None = None
    drag: tuple[tuple[int, int], tuple[int, int]] | None = None


def _cell(value) -> tuple[int, int]:
    """A [row, column] of a terminal's message, checked."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(number) is int for number in value)
        or not (0 <= value[0] < ROWS and 0 <= value[1] < COLUMNS)
    ):
        raise MessageError(f"a cell is [row, column], rows 0-{ROWS - 1} and columns 0-{COLUMNS - 1}")
    return value[0], value[1]


def terminal_message(text: str | bytes) -> TerminalMessage:
    """A terminal's message read and checked; MessageError says in one line what is wrong."""
    if isinstance(text, bytes):
        raise MessageError("a terminal sends text (JSON), not binary")
    if len(text) > MAX_MESSAGE:
        raise MessageError(f"a message is {MAX_MESSAGE} characters at most")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError("not JSON") from None
    if not isinstance(message, dict) or not message or set(message) - {"held", "leave", "frame", "tap", "drag"}:
        raise MessageError(
            'a message is {"held": [keys]}, {"leave": true}, {"frame": N, "held": [keys]}, '
            '{"tap": [row, column]}, {"tap": "name"} or {"drag": [[row, column], [row, column]]}'
        )
    tap, drag = message.get("tap"), message.get("drag")
    if tap is not None:
        if isinstance(tap, str):
            if not 0 < len(tap) <= 40:
                raise MessageError('"tap" names a target in 1-40 characters')
        else:
            tap = _cell(tap)
    if drag is not None:
        if not isinstance(drag, list) or len(drag) != 2:
            raise MessageError('"drag" is [[row, column], [row, column]]')
        drag = (_cell(drag[0]), _cell(drag[1]))
    leave = message.get("leave", False)
    if leave is not False and leave is not True:
        raise MessageError('"leave" is true or false')
    frame = message.get("frame")
    if frame is not None and (type(frame) is not int or not 0 <= frame < 1 << 32):
        raise MessageError('"frame" is a frame number')
    held = message.get("held")
    if held is not None:
        if not isinstance(held, list) or not all(isinstance(name, str) for name in held):
            raise MessageError('"held" is a list of key names')
        unknown = set(held) - KEY_NAMES
        if unknown:
            raise MessageError(
                f"no Spectrum key {sorted(unknown)[0][:20]!r}: the keys are ENTER, SPACE, CAPS, SYMBOL, a-z and 0-9"
            )
        held = frozenset(held)
    return TerminalMessage(held, leave, frame, tap, drag)


def changed_runs(old: bytes | None, new: bytes) -> list[tuple[int, bytes]]:
    """(offset, bytes) of the parts of `new` that differ from `old` (all of it, if None)."""
    if old is None:
        return [(0, new)]
    if old == new:  # a frame of sound alone
        return []
    changed = np.flatnonzero(np.frombuffer(old, np.uint8) != np.frombuffer(new, np.uint8))
    if changed.size <= FEW_CHANGED:  # a few cells: joined here sooner than numpy's calls are made
        return _joined(changed.tolist(), new)
    breaks = np.flatnonzero(np.diff(changed) > RUN_JOIN)
    starts = np.concatenate([[changed[0]], changed[breaks + 1]])
    ends = np.concatenate([changed[breaks], [changed[-1]]]) + 1
    return [(int(start), new[start:end]) for start, end in zip(starts, ends)]


def _joined(indices: list[int], new: bytes) -> list[tuple[int, bytes]]:
    """The runs of `new` at the changed `indices` (in order, at least one), those closer than
    RUN_JOIN joined."""
    runs = []
    start = last = indices[0]
    for index in indices:
        if index - last > RUN_JOIN:
            runs.append((start, new[start : last + 1]))
            start = index
        last = index
    runs.append((start, new[start : last + 1]))
    return runs


def frame_message(
    frame: int,
    *,
    awaiting_key: bool,
    flash_phase: bool,
    border: int | tuple[tuple[int, int], ...],
    runs: list[tuple[int, bytes]],
    steps: list[tuple[int, int]],
) -> bytes:
    """A FRAME message; `border` a colour or its runs (`render.border_of`); `steps` are (T-state
    from frame 0, level)."""
    in_runs = isinstance(border, tuple)
    flags = AWAITING_KEY * awaiting_key | FLASH_PHASE * flash_phase | BORDER_RUNS * in_runs
    last = border[-1][1] if isinstance(border, tuple) else border
    parts = [HEADER.pack(FRAME, frame & 0xFFFFFFFF, flags, last & 7, len(runs), len(steps))]
    for offset, data in runs:
        parts += [RUN.pack(offset, len(data)), data]
    origin = frame * FRAME_T_STATES
    parts += [STEP.pack(t_state - origin, level) for t_state, level in steps]
    if isinstance(border, tuple):
        parts += [BORDER_RUN_COUNT.pack(len(border)), *(BORDER_RUN.pack(cell, colour & 7) for cell, colour in border)]
    return b"".join(parts)


class Terminal:
    """A served Spectrum as its terminal knows it, from the messages it gets: enough of a machine
    for any front end to present (its picture) and play (its sound, rendered from the steps).

    Sound is handed on SOUND_LATENCY frames late, when every step of a frame has come:
    `sound_latency` says how late the samples last rendered are."""

    def __init__(self, frontend=None):
        self.frontend = frontend
        self.memory = np.zeros(0x10000, np.uint8)
        self.border = 7
        self.border_runs: tuple[tuple[int, int], ...] | None = None  # the last frame's, when it changed during it
        self.flash_phase = False
        self.frame_count = 0
        self.awaiting_key = False
        self.keys_held: set[str] = set()
        self.status = ""
        self.targets = None  # what the served program's cells mean (`pointing.Targets`), as last told
        self.picked: list[str] = []  # what the server outlines as picked
        self.outbox: list[dict] = []  # taps and drags for the server (a window pointing at this terminal)
        self.ended: str | None = None  # why the session ended, once it has
        self.exit_status = 0  # as the served command's would be
        self._steps: list[tuple[int, int]] = []  # (T-state, level), in time order, not yet played
        self._level = 0
        self._played_to: int | None = None  # the frame whose sound comes next
        self.sound_latency = SOUND_LATENCY

    def receive(self, message: str | bytes) -> bool:
        """Take a message from the server; True if it was a frame."""
        if isinstance(message, str):
            said = json.loads(message)
            if "status" in said:
                self.status = said["status"]
            if "end" in said:
                self.ended, self.exit_status = said["end"], said.get("exit", 0)
            if "targets" in said:
                self.targets, self.picked = Targets.from_json(said["targets"]), list(said.get("picked", []))
            return False
        kind, frame, flags, border, runs, steps = HEADER.unpack_from(message)
        if kind != FRAME:
            raise MessageError(f"no message of kind {kind}")
        at = HEADER.size
        screen = self.memory[DISPLAY_FILE:ATTRIBUTES_END]
        for _ in range(runs):
            offset, length = RUN.unpack_from(message, at)
            at += RUN.size
            screen[offset : offset + length] = np.frombuffer(message, np.uint8, length, at)
            at += length
        origin = frame * FRAME_T_STATES
        for _ in range(steps):
            t_state, level = STEP.unpack_from(message, at)
            at += STEP.size
            bisect.insort(self._steps, (origin + t_state, level))
        self.border_runs = self._border_runs(message, at) if flags & BORDER_RUNS else None
        self.frame_count, self.border = frame, border
        self.awaiting_key, self.flash_phase = bool(flags & AWAITING_KEY), bool(flags & FLASH_PHASE)
        return True

    @staticmethod
    def _border_runs(message: bytes, at: int) -> tuple[tuple[int, int], ...]:
        """The border's runs (`render.border_runs`) from a FRAME message's, at `at`."""
        (count,) = BORDER_RUN_COUNT.unpack_from(message, at)
        return tuple(
            BORDER_RUN.unpack_from(message, at + BORDER_RUN_COUNT.size + number * BORDER_RUN.size)
            for number in range(count)
        )

    def samples(self, rate: int = SAMPLE_RATE) -> np.ndarray:
        """The sound from where the last call ended to SOUND_LATENCY frames before the last frame
        received, as int16 samples at `rate`."""
        return self._render(self.frame_count - SOUND_LATENCY + 1, rate)

    def rest_of_the_sound(self, rate: int = SAMPLE_RATE) -> np.ndarray:
        """All the sound still to come, to the last step received (the session is over)."""
        last_frame = self._steps[-1][0] // FRAME_T_STATES + 1 if self._steps else 0
        return self._render(max(last_frame, self.frame_count - SOUND_LATENCY + 1), rate)

    def _render(self, end_frame: int, rate: int) -> np.ndarray:
        first_frame = max(0, self.frame_count - SOUND_LATENCY) if self._played_to is None else self._played_to
        if end_frame <= first_frame:
            return np.zeros(0, np.int16)
        self._played_to = end_frame
        self.sound_latency = self.frame_count - first_frame
        first, end = frame_start_sample(first_frame, rate), frame_start_sample(end_frame, rate)
        start_t, end_t = first * T_STATES_PER_SECOND / rate, end * T_STATES_PER_SECOND / rate
        taken = bisect.bisect_left(self._steps, (end_t, -2))
        steps, self._steps = self._steps[:taken], self._steps[taken:]
        if not self._level and not steps:
            return np.zeros(end - first, np.int16)
        times, levels = [start_t], [self._level]
        for t_state, level in steps:
            times.append(max(t_state, start_t))
            levels.append(level)
            self._level = level
        times.append(end_t)
        samples = stepped_samples(times, levels, start_t, end - first, rate=rate)
        if steps and not self._level:  # a sound that ends here ends where its last edge is, as recorded on the spot
            samples = samples[: max(0, math.ceil(steps[-1][0] * rate / T_STATES_PER_SECOND) - first)]
        return samples
