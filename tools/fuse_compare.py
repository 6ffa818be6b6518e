"""A tape loaded in Fuse and in zxcards, timed and compared from what each shows and sounds.

    python tools/fuse_compare.py patience.tap
    python tools/fuse_compare.py patience.tap --movie fuse.fmf --pictures compare/

Fuse 1.6 (`fuse-sdl`, Debian's fuse-emulator-sdl) runs the ROM zxcards runs (SkoolKit's 48.rom) as
a 48K with no tape traps, no fast loading and no loader acceleration, on an Xvfb display of its own,
with the tape in its recorder (its loader detection plays it); xdotool types LOAD "" on its keys as
zxcards types it (J, SYMBOL SHIFT+P twice, ENTER, each held 0.1 s), and Fuse records a movie (FMF):
every frame's picture, the border as the beam drew it, and its sound. zxcards loads the same tape
headless, as `zxcards load` does. Both are then measured alike, from their pictures and their sound:

- time 0 is the frame in which ENTER is taken: the first whose bottom line is blank after it read
  LOAD "" (checked: the line Fuse's editor showed is the one zxcards's did);
- the stripes' start (the first red or cyan in the border), the header's end (its blue and yellow
  over), the data's pilot (red and cyan again), the load's end (the data's blue and yellow over),
  and the program's first screen (the first to change after the load and then hold for a frame),
  in frames and seconds from time 0, and that screen compared byte for byte;
- the stripes in each frame of the pilots and of the data: how many steps in the border, how many
  of them mid-line, and the stripes' heights down the left edge;
- the sound: when ENTER's key click begins, when each block's first edge is heard (found by its
  sync pulse), the pilot's pitch and loudness, and the data's half-waves.

The movie (its format: FMF_V1, described in Fuse's movie.c) is read here; `--movie` keeps it, and a
movie already there is compared again without running Fuse.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from skoolkit import ROM48

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spectrum import render  # noqa: E402
from spectrum.command_line import OneLineParser, existing_file, new_file_ending  # noqa: E402
from spectrum.frontends import HeadlessFrontend, ScriptExhausted  # noqa: E402
from spectrum.hardware import (
    ATTRIBUTES_END,
    COLUMNS,
    DISPLAY_FILE,
    FRAME_SECONDS,
    PIXEL_HEIGHT,
    PIXEL_WIDTH,
    SCREEN_BYTES,  # noqa: E402
    T_STATES_PER_SECOND,
    attribute_address,
    cell_address,
)
from spectrum.rom_machine import ENTER_FRAME, RomSpectrum  # noqa: E402
from spectrum.sound import SAMPLE_RATE, frame_start_sample  # noqa: E402
from spectrum.tape import TapeError, recorded_blocks  # noqa: E402
from spectrum.tape_signal import TapeSignal  # noqa: E402

NEEDED = ("fuse-sdl", "Xvfb", "xdotool")
T_PER_SAMPLE = T_STATES_PER_SECOND / SAMPLE_RATE
# LOAD "" on Fuse's keys (Control is its SYMBOL SHIFT), each held long enough for its keyboard scan
# at any load of the host, and let go long enough for the ROM to free the key's slot (5 frames)
FUSE_KEYS = (("j",), ("Control_L", "p"), ("Control_L", "p"), ("Return",))
KEY_HOLD, KEY_GAP = 0.1, 0.3  # seconds
BOOT_SECONDS = 3  # Fuse's ROM reaches its copyright message in 1.7 s of its time
AFTER_LOAD_SECONDS = 3  # recorded after the tape's end: the program's first screens
FUSE_PATIENCE = 3  # times the load's time that Fuse may take in the host's before it is given up
POLL_SECONDS = 1
XDOTOOL_PATIENCE = 30  # seconds
MOVIE_HEADER = 16  # bytes: "FMF_V1", byte order, compression, then the frame rate, screen, sound
PILOT, DATA = {2, 5}, {1, 6}  # red and cyan, blue and yellow
BOTTOM_LINE = 23
# The ROM's SA-BYTES: a pilot of 2,168 T pulses, 8,063 before a header and 3,223 before data, then
# sync pulses of 667 and 735 T
PILOT_PULSE, HEADER_PILOT, DATA_PILOT, SYNC_BELOW = 2168, 8063, 3223, 1200
PILOT_RUN = 200  # pilot half-waves in a row: a block's pilot, not a data byte's


class Unavailable(RuntimeError):
    """What the comparison needs and this host has not: said in one line."""


class Unmeasurable(ValueError):
    """A recording in which the load cannot be found: said in one line."""


@dataclass
class Recording:
    """What a machine showed and sounded, frame by frame: the border's colour in each cell of 8
    pixels (FRAME_HEIGHT x BORDER_COLUMNS; the screen's cells are not border), SCREEN$, and the
    sound at SAMPLE_RATE from frame 0."""

    borders: list[np.ndarray]
    screens: list[bytes]
    sound: np.ndarray


# --- Fuse -------------------------------------------------------------------------------------------

# Where in SCREEN$ each pixel line's bytes are, and its character row's attributes, screen order
BITMAP_OFFSETS, ATTRIBUTE_OFFSETS = (
    np.array(
        [
            [address(line // 8, column) + line % 8 * per_line for column in range(COLUMNS)]
            for line in range(PIXEL_HEIGHT)
        ]
    )
    - DISPLAY_FILE
    for address, per_line in ((cell_address, 256), (attribute_address, 0))
)
SCREEN_ROWS = slice(render.BORDER_TOP, render.BORDER_TOP + PIXEL_HEIGHT)
SCREEN_COLUMNS = slice(render.BORDER_LEFT // 8, (render.BORDER_LEFT + PIXEL_WIDTH) // 8)


class MovieReader:
    """An FMF movie's frames as Fuse drew them: each frame a rectangle or more of cells of 8 pixels
    (a bitmap byte and an attribute byte each, run-length coded: a byte twice is followed by how
    many more), the first the whole picture; and each frame's sound. A movie still being written
    is read as far as it goes."""

    def __init__(self, data: bytes):
        if data[:6] != b"FMF_V1" or data[6:7] != b"e" or data[7:8] not in (b"Z", b"U"):
            raise ValueError("not a little-endian FMF_V1 movie")
        body = data[MOVIE_HEADER:]
        self.body = zlib.decompressobj().decompress(body) if data[7:8] == b"Z" else body
        self.at = 0

    def _runs(self, count: int) -> np.ndarray:
        body, out, previous = self.body, bytearray(), None
        while len(out) < count:
            byte = body[self.at]
            self.at += 1
            out.append(byte)
            if byte == previous:
                out += bytes([byte]) * body[self.at]
                self.at += 1
                previous = None
            else:
                previous = byte
        return np.frombuffer(bytes(out), np.uint8)

    def recording(self) -> Recording:
        cells = np.zeros((2, render.FRAME_HEIGHT, render.BORDER_COLUMNS), np.uint8)  # bitmap, attribute
        borders, screens, sounds = [], [], []
        body, framing = self.body, False

        def frame_done():
            borders.append((cells[1] >> 3) & 7)  # a border cell is paper of its colour
            screens.append(screen_of(cells))

        try:
            while self.at < len(body):
                kind = body[self.at : self.at + 1]
                if kind == b"N":  # a frame's changes follow (the picture before the first: the movie's start)
                    if framing:
                        frame_done()
                    self.at += 4
                    framing = True
                elif kind == b"$":
                    x, y, width, height = (
                        body[self.at + 1],
                        int.from_bytes(body[self.at + 2 : self.at + 4], "little"),
                        body[self.at + 4],
                        int.from_bytes(body[self.at + 5 : self.at + 7], "little"),
                    )
                    self.at += 7
                    for plane in range(2):
                        cells[plane, y : y + height, x : x + width] = self._runs(width * height).reshape(height, width)
                elif kind == b"S":
                    encoding, channels = body[self.at + 1 : self.at + 2], body[self.at + 4 : self.at + 5]
                    length = int.from_bytes(body[self.at + 5 : self.at + 7], "little") + 1
                    if encoding != b"P":
                        raise ValueError("the movie's sound is not 16-bit PCM")
                    size = length * 2 * (2 if channels == b"S" else 1)
                    if self.at + 7 + size > len(body):
                        break
                    samples = np.frombuffer(body[self.at + 7 : self.at + 7 + size], "<i2")
                    sounds.append(samples.reshape(-1, 2).mean(axis=1) if channels == b"S" else samples)
                    self.at += 7 + size
                elif kind == b"X":
                    if framing:
                        frame_done()
                    break
                else:
                    raise ValueError(f"a movie chunk of kind {kind!r}")
        except IndexError:  # a movie still being written ends mid-chunk
            pass
        sound = np.concatenate(sounds).astype(np.int16) if sounds else np.zeros(0, np.int16)
        return Recording(borders, screens, sound)


def screen_of(cells: np.ndarray) -> bytes:
    """SCREEN$ from Fuse's cells of the screen: each line's bitmap bytes and its row's attributes."""
    screen = np.zeros(SCREEN_BYTES, np.uint8)
    screen[BITMAP_OFFSETS] = cells[0, SCREEN_ROWS, SCREEN_COLUMNS]
    screen[ATTRIBUTE_OFFSETS] = cells[1, SCREEN_ROWS, SCREEN_COLUMNS]
    return screen.tobytes()


def check_tools() -> None:
    missing = [tool for tool in NEEDED if not shutil.which(tool)]
    if missing:
        raise Unavailable(f"{' and '.join(missing)} not found: apt-get install fuse-emulator-sdl xvfb xdotool")


def x_display(log) -> tuple[subprocess.Popen, str]:
    """An Xvfb server of its own, up: it says its display's number once it takes connections."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=log,
        stderr=log,
    )
    os.close(write)
    with os.fdopen(read) as said:
        number = said.readline().strip()
    if not number:
        server.kill()
        raise Unavailable("Xvfb did not start")
    return server, f":{number}"


def xdotool(display: str, *arguments: str) -> str:
    try:
        done = subprocess.run(
            ["xdotool", *arguments],
            env={**os.environ, "DISPLAY": display},
            capture_output=True,
            text=True,
            timeout=XDOTOOL_PATIENCE,
        )
    except subprocess.TimeoutExpired:
        raise Unavailable(f"xdotool {arguments[0]} had no answer in {XDOTOOL_PATIENCE} s (did Fuse start?)") from None
    return done.stdout


def fuse_movie(tap: Path, movie: Path, tape_seconds: float) -> None:
    """Fuse loads `tap`, LOAD "" typed on its keys, and records `movie` to AFTER_LOAD_SECONDS after
    the tape's end (in its own time, however the host keeps up); Fuse's settings are its defaults
    (a home of its own)."""
    with tempfile.TemporaryDirectory() as home, open(Path(home) / "said", "w+") as log:
        server, display = x_display(log)  # Xvfb's words, then Fuse's errors (its banner, on stdout, is not kept)
        fuse = subprocess.Popen(
            [
                "fuse-sdl",
                "--machine",
                "48",
                "--rom-48",
                ROM48,
                "--no-traps",
                "--no-fastload",
                "--no-accelerate-loader",
                "--no-confirm-actions",
                "--tape",
                str(tap),
                "--movie-start",
                str(movie),
            ],
            # on the X display whatever SDL was told before (the tests' windows are SDL's dummy)
            env={**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy", "HOME": home},
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            window = fuse_window(display, fuse, log)
            xdotool(display, "windowfocus", "--sync", window)
            time.sleep(BOOT_SECONDS)
            for keys in FUSE_KEYS:
                xdotool(display, "keydown", *keys)
                time.sleep(KEY_HOLD)
                xdotool(display, "keyup", *reversed(keys))
                time.sleep(KEY_GAP)
            wait_for_load(display, window, fuse, tape_seconds + AFTER_LOAD_SECONDS)
            xdotool(display, "key", "F10")  # Fuse's exit: the movie is finished
            fuse.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise Unavailable("Fuse did not close its movie") from None
        finally:
            for process in (fuse, server):
                if process.poll() is None:
                    process.kill()
                    process.wait()
        if fuse.returncode:
            raise Unavailable(stopped(fuse, log))


def stopped(fuse: subprocess.Popen, log) -> str:
    """Fuse has stopped: how, and what it and Xvfb said."""
    log.seek(0)
    said = [line.strip() for line in log.read().splitlines() if line.strip()]
    return f"fuse-sdl stopped ({fuse.returncode}): {' / '.join(said[-8:]) if said else 'nothing said'}"


def fuse_window(display: str, fuse: subprocess.Popen, log) -> str:
    """Fuse's window, once it is open."""
    deadline = time.monotonic() + XDOTOOL_PATIENCE
    while time.monotonic() < deadline:
        if fuse.poll() is not None:
            raise Unavailable(stopped(fuse, log))
        found = xdotool(display, "search", "--name", "^Fuse").split()
        if found:
            return found[0]
        time.sleep(0.2)
    raise Unavailable(f"Fuse opened no window in {XDOTOOL_PATIENCE} s")


def wait_for_load(display: str, window: str, fuse: subprocess.Popen, seconds: float) -> None:
    """Until Fuse has run `seconds` of its own time: its window's title says how fast it runs
    ("Fuse - 98%"), and a movie being written is too far behind on disk (its compression holds
    many quiet frames) to be counted instead."""
    run, deadline = 0.0, time.monotonic() + FUSE_PATIENCE * seconds
    while run < seconds:
        if fuse.poll() is not None:
            raise Unavailable(f"fuse-sdl stopped ({fuse.returncode}) while it loaded")
        if time.monotonic() > deadline:
            raise Unavailable(f"Fuse ran {run:.0f} s of its time in {FUSE_PATIENCE * seconds:.0f} s of the host's")
        time.sleep(POLL_SECONDS)
        title = xdotool(display, "getwindowname", window).strip()
        speed = title.rpartition(" ")[2].rstrip("%")
        run += POLL_SECONDS * (int(speed) / 100 if speed.isdigit() else 1)


# --- zxcards ----------------------------------------------------------------------------------------


class RecordingFrontend(HeadlessFrontend):
    """The headless front end keeping each frame's border cells and SCREEN$."""

    def __init__(self):
        super().__init__()
        self.borders: list[np.ndarray] = []
        self.screens: list[bytes] = []

    def present(self, machine) -> None:
        if machine.frame_count:  # the frame just run is the one before
            self.borders.append(render.border_cells(render.border_of(machine)))
            self.screens.append(machine.memory[DISPLAY_FILE:ATTRIBUTES_END].tobytes())
        super().present(machine)


def zxcards_recording(tap: bytes, frames: int) -> Recording:
    frontend = RecordingFrontend()
    machine = RomSpectrum.loading(frontend, tap)
    try:
        while machine.frame_count <= frames:
            machine.run_frame()
    except ScriptExhausted:
        pass
    machine.flush_sound()
    return Recording(frontend.borders, frontend.screens, frontend.audio())


# --- measuring both alike ---------------------------------------------------------------------------

BORDER_AREA = np.ones((render.FRAME_HEIGHT, render.BORDER_COLUMNS), bool)
BORDER_AREA[SCREEN_ROWS, SCREEN_COLUMNS] = False


def bottom_line(screen: bytes) -> bytes:
    """The bitmap bytes of the screen's bottom line of characters."""
    return bytes(
        screen[offset] for line in range(8 * BOTTOM_LINE, 8 * BOTTOM_LINE + 8) for offset in BITMAP_OFFSETS[line]
    )


def enter_frame(recording: Recording, typed: bytes) -> int | None:
    """The frame in which ENTER is taken: the first whose bottom line is blank after it read
    `typed` (LOAD "" and the cursor, as zxcards's editor showed it)."""
    lines = [bottom_line(screen) for screen in recording.screens]
    return next((frame for frame in range(1, len(lines)) if lines[frame - 1] == typed and not any(lines[frame])), None)


@dataclass
class Timeline:
    """The load's moments, in frames from the one ENTER is taken in (`enter`)."""

    enter: int
    stripes: int | None  # the first red or cyan in the border
    header_end: int | None  # the first frame after the header's blue and yellow
    data_pilot: int | None  # red or cyan again
    load_end: int | None  # the first frame after the data's blue and yellow
    first_screen: int | None  # the first to change after the load and then hold for a frame

    MOMENTS = ("stripes", "header_end", "data_pilot", "load_end", "first_screen")


def first(frames, condition, start: int | None) -> int | None:
    if start is None:
        return None
    return next((frame for frame in range(start, len(frames)) if condition(frames[frame])), None)


def colours_of(border: np.ndarray) -> set[int]:
    return set(np.unique(border[BORDER_AREA]).tolist())


def timeline(recording: Recording, typed: bytes) -> Timeline:
    """The load's moments, from the colours in the border and the screen."""
    enter = enter_frame(recording, typed)
    if enter is None:
        raise Unmeasurable("no frame took ENTER after LOAD \"\" as zxcards typed it")
    colours = [colours_of(border) for border in recording.borders[enter:]]
    stripes = first(colours, lambda seen: seen & PILOT, 0)
    header_data = first(colours, lambda seen: seen & DATA, stripes)
    header_end = first(colours, lambda seen: not seen & DATA, header_data)
    data_pilot = first(colours, lambda seen: seen & PILOT, header_end)
    data = first(colours, lambda seen: seen & DATA, data_pilot)
    load_end = first(colours, lambda seen: not seen & DATA, data)
    screens = recording.screens[enter:]
    first_screen = None
    if load_end is not None:
        loaded = screens[load_end]
        first_screen = next(
            (
                frame
                for frame in range(load_end, len(screens) - 1)
                if screens[frame] != loaded and screens[frame] == screens[frame + 1]
            ),
            None,
        )
    return Timeline(enter, stripes, header_end, data_pilot, load_end, first_screen)


@dataclass
class Stripes:
    """A kind of frame (the pilot's, the data's) of one block: how many, their steps in the border
    (on average), how many of those mid-line, and the stripes' heights down the left edge."""

    frames: int
    steps: float
    mid_line: float
    heights: Counter


def stripes(borders: list[np.ndarray]) -> Stripes:
    cells = np.argwhere(BORDER_AREA)
    counts = []
    for border in borders:
        colours = border[BORDER_AREA]
        steps = np.flatnonzero(colours[1:] != colours[:-1]) + 1
        counts.append((len(steps), int((cells[steps, 0] == cells[steps - 1, 0]).sum())))
    heights = Counter()
    for border in borders:
        cuts = np.flatnonzero(np.diff(border[:, 0])) + 1
        heights.update(np.diff(cuts).tolist())
    steps, mid_line = np.mean(counts, axis=0) if counts else (0.0, 0.0)
    return Stripes(len(borders), float(steps), float(mid_line), heights)


def block_stripes(recording: Recording, moments: Timeline) -> dict[str, Stripes]:
    """The stripes of the frames wholly of the header's pilot, of its data, of the data's pilot and
    of its data."""
    found = {}
    for block, (start, end) in (
        ("header", (moments.stripes, moments.header_end)),
        ("data", (moments.data_pilot, moments.load_end)),
    ):
        if start is None or end is None:
            continue
        borders = recording.borders[moments.enter + start : moments.enter + end]
        for kind, colours in (("pilot", PILOT), ("bits", DATA)):
            found[f"{block} {kind}"] = stripes([border for border in borders if colours_of(border) == colours])
    return found


STRIPE_KINDS = ("header pilot", "header bits", "data pilot", "data bits")


def crossings(sound: np.ndarray, start: int) -> np.ndarray:
    """The T-states (from sample `start`) at which the sound crosses its middle: the tape's edges,
    as either machine's speaker and filters render them."""
    part = sound[start:].astype(np.float64)
    signs = np.signbit(part - np.median(part))
    return (np.flatnonzero(signs[1:] != signs[:-1]) + 1) * T_PER_SAMPLE


def block_starts(sound: np.ndarray, start: int, blocks: list[bytes]) -> list[float | None]:
    """When (T-states from sample `start`) each block's first edge is heard: found by its sync
    pulse, the first half-wave well short of the pilot's after PILOT_RUN of them, less the pilot's
    length (8,063 or 3,223 pulses of 2,168 T)."""
    times = crossings(sound, start)
    waves = np.diff(times)
    pilot_like = (waves > 0.85 * PILOT_PULSE) & (waves < 1.15 * PILOT_PULSE)
    found, at = [], 0
    for recorded in blocks:
        runs = np.flatnonzero(np.convolve(pilot_like[at:], np.ones(PILOT_RUN), "valid") == PILOT_RUN)
        short = np.flatnonzero(waves[at + int(runs[0]) :] < SYNC_BELOW) if len(runs) else []
        if not len(short):
            found.append(None)
            continue
        sync = at + int(runs[0]) + int(short[0])
        found.append(times[sync] - (HEADER_PILOT if recorded[0] < 128 else DATA_PILOT) * PILOT_PULSE)
        at = sync + 16 * len(recorded)  # past the block's bits
    return found


def pitch(sound: np.ndarray, start: int, seconds: float = 2.0) -> float:
    """The strongest frequency (Hz) of `seconds` of sound from `start`."""
    part = sound[start : start + int(seconds * SAMPLE_RATE)].astype(np.float64)
    spectrum = np.abs(np.fft.rfft((part - part.mean()) * np.hanning(len(part))))
    return float(np.argmax(spectrum[1:]) + 1) * SAMPLE_RATE / len(part)


def half_waves(sound: np.ndarray, start: int, end: int) -> tuple[float, float]:
    """The mean short and long half-wave (T-states) between samples `start` and `end`: a data
    bit's pulses of 855 and 1,710 T."""
    lengths = np.diff(crossings(sound[:end], start))
    short, long = lengths[lengths < 1280], lengths[(lengths >= 1280) & (lengths < 2600)]
    return float(short.mean()), float(long.mean())


def click(sound: np.ndarray, zero: int) -> tuple[float, float]:
    """ENTER's key click: when it begins (ms from sample `zero`, the start of ENTER's frame: its
    first sample a tenth as loud as its loudest) and how loud it is (its loudest sample)."""
    around = np.abs(sound[zero - SAMPLE_RATE // 50 : zero + SAMPLE_RATE // 50].astype(np.float64))
    begins = int(np.flatnonzero(around > around.max() / 10)[0]) - SAMPLE_RATE // 50
    return begins * 1000 / SAMPLE_RATE, float(around.max())


@dataclass
class Sound:
    """The sound from ENTER's frame on: ENTER's click (ms, and its loudness), each block's first
    edge (T-states), the header's pilot's pitch (Hz) and loudness beside the click's, the last
    block's half-waves (T-states)."""

    click: float
    block_starts: list[float | None]
    pilot: float | None = None
    loudness: float | None = None
    half_waves: tuple[float, float] | None = None


def sound_of(recording: Recording, moments: Timeline, blocks: list[bytes]) -> Sound:
    zero = frame_start_sample(moments.enter)
    clicked, click_level = click(recording.sound, zero)
    heard = Sound(clicked, block_starts(recording.sound, zero, blocks))
    if heard.block_starts[0] is not None:
        header = zero + int(heard.block_starts[0] / T_PER_SAMPLE)
        heard.pilot = pitch(recording.sound, header + SAMPLE_RATE // 2)
        heard.loudness = (
            np.percentile(np.abs(recording.sound[header : header + SAMPLE_RATE].astype(float)), 99) / click_level
        )
    if len(blocks) > 1 and heard.block_starts[-1] is not None:
        bits = zero + int((heard.block_starts[-1] + DATA_PILOT * PILOT_PULSE) / T_PER_SAMPLE) + SAMPLE_RATE // 10
        heard.half_waves = half_waves(recording.sound, bits, bits + 5 * SAMPLE_RATE)
    return heard


@dataclass
class Measures:
    """What is measured alike of a machine's recording."""

    timeline: Timeline
    stripes: dict[str, Stripes]
    sound: Sound


def measures(recording: Recording, typed: bytes, blocks: list[bytes]) -> Measures:
    moments = timeline(recording, typed)
    return Measures(moments, block_stripes(recording, moments), sound_of(recording, moments, blocks))


@dataclass
class Comparison:
    tape_seconds: float
    ours: Recording
    fuse: Recording
    mine: Measures
    theirs: Measures

    @property
    def first_screens_differ(self) -> int | None:
        """How many SCREEN$ bytes of the program's first screen differ between the two."""
        shown = []
        for recording, measured in ((self.ours, self.mine), (self.fuse, self.theirs)):
            moments = measured.timeline
            if moments.first_screen is None:
                return None
            shown.append(np.frombuffer(recording.screens[moments.enter + moments.first_screen], np.uint8))
        return int(np.count_nonzero(shown[0] != shown[1]))


def compare(tap_path: Path, movie: Path | None = None) -> Comparison:
    """zxcards's and Fuse's loads of the tape at `tap_path`, measured: Fuse's movie kept in `movie`
    (and not made again when it is there)."""
    tap = tap_path.read_bytes()
    blocks = recorded_blocks(tap)
    tape_seconds = TapeSignal(blocks).length / T_STATES_PER_SECOND
    ours = zxcards_recording(tap, ENTER_FRAME + round((tape_seconds + AFTER_LOAD_SECONDS) / FRAME_SECONDS))
    with tempfile.TemporaryDirectory() as folder:
        movie = movie or Path(folder) / "fuse.fmf"
        if not movie.exists():
            check_tools()
            fuse_movie(tap_path.resolve(), movie, tape_seconds)
        fuse = MovieReader(movie.read_bytes()).recording()
    typed = bottom_line(ours.screens[ENTER_FRAME - 1])
    mine = measures(ours, typed, blocks)
    if mine.timeline.enter != ENTER_FRAME:
        raise Unmeasurable(f"zxcards took ENTER in frame {mine.timeline.enter}, not {ENTER_FRAME}, by its pictures")
    return Comparison(tape_seconds, ours, fuse, mine, measures(fuse, typed, blocks))


# --- the report -------------------------------------------------------------------------------------


def moment(frames: int | None) -> str:
    return "never" if frames is None else f"{frames:5d} frames {frames * FRAME_SECONDS:6.2f} s"


def report(compared: Comparison) -> list[str]:
    mine, theirs = compared.mine, compared.theirs
    lines = [
        f"{compared.tape_seconds:.2f} s of tape; zxcards took ENTER in frame {mine.timeline.enter}, "
        f"Fuse in its movie's frame {theirs.timeline.enter}",
        "from ENTER's frame:                      zxcards                  Fuse",
    ]
    for name, label in zip(
        Timeline.MOMENTS,
        (
            "red and cyan stripes from",
            "the header's stripes end",
            "the data's pilot from",
            "the data's stripes end",
            "the program's first screen",
        ),
    ):
        a, b = getattr(mine.timeline, name), getattr(theirs.timeline, name)
        lines.append(f"  {label:<32} {moment(a)}   {moment(b)}" + ("" if a is None or b is None else f"   {a - b:+d}"))
    lines.append(f"  the program's first screen: {compared.first_screens_differ} of 6,912 SCREEN$ bytes differ")
    lines.append(
        "stripes (frames wholly of one kind: steps in the border a frame, mid-line; heights down the left edge):"
    )
    for kind in STRIPE_KINDS:
        for who, measured in (("zxcards", mine), ("Fuse", theirs)):
            found = measured.stripes.get(kind)
            lines.append(
                f"  {kind:<12} {who:<8} "
                + (
                    "none"
                    if found is None
                    else f"{found.frames:4d} frames, {found.steps:5.1f} steps ({found.mid_line:4.1f} mid-line), "
                    f"heights {dict(sorted(found.heights.most_common(4)))}"
                )
            )
    lines.append("sound, from ENTER's frame:")
    for who, measured in (("zxcards", mine), ("Fuse", theirs)):
        heard = measured.sound
        starts = ", ".join("not heard" if at is None else f"{at:,.0f} T" for at in heard.block_starts)
        lines.append(
            f"  {who:<8} ENTER's click at {heard.click:.2f} ms; the blocks' first edges at {starts}"
            + (
                ""
                if heard.pilot is None
                else f"; pilot {heard.pilot:.1f} Hz, {heard.loudness:.2f} as loud as the click"
            )
            + ("" if heard.half_waves is None else "; data half-waves {:.0f} and {:.0f} T".format(*heard.half_waves))
        )
    return lines


def save_pictures(folder: Path, compared: Comparison) -> None:
    """zxcards's picture beside Fuse's at each moment (and 100 frames into each pilot), twice life size."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in Timeline.MOMENTS:
        for offset in (0, 100) if name in ("stripes", "data_pilot") else (0,):
            pair = []
            for recording, moments in (
                (compared.ours, compared.mine.timeline),
                (compared.fuse, compared.theirs.timeline),
            ):
                at = getattr(moments, name)
                frame = None if at is None else moments.enter + at + offset
                if frame is None or frame >= len(recording.screens):
                    pair.append(np.zeros((render.FRAME_HEIGHT, render.FRAME_WIDTH, 3), np.uint8))
                    continue
                memory = np.zeros(0x10000, np.uint8)
                memory[DISPLAY_FILE:ATTRIBUTES_END] = np.frombuffer(recording.screens[frame], np.uint8)
                pair.append(render.frame_rgb(memory, False, runs_of(recording.borders[frame])))
            render.write_png(
                folder / f"{name}{'+' + str(offset) if offset else ''}.png",
                render.scale_nearest(np.concatenate(pair, axis=1), 2),
            )


def runs_of(cells: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The border's runs (render.border_runs) of its cells' colours."""
    flat = cells.reshape(-1)
    starts = np.concatenate([[0], np.flatnonzero(flat[1:] != flat[:-1]) + 1])
    return tuple(zip(starts.tolist(), flat[starts].tolist()))


def folder_for_pictures(text: str) -> Path:
    """An argparse type: a folder to save pictures in (made if it is not there)."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="fuse_compare", description=__doc__.splitlines()[0])
    parser.add_argument("tap", type=existing_file, help="the tape (a .tap with a BASIC program)")
    parser.add_argument(
        "--movie",
        type=new_file_ending(".fmf"),
        metavar="FILE.fmf",
        help="keep Fuse's movie here; one already there is compared again, Fuse not run",
    )
    parser.add_argument(
        "--pictures",
        type=folder_for_pictures,
        metavar="FOLDER",
        help="save zxcards's picture beside Fuse's at each moment, as PNGs in FOLDER",
    )
    options = parser.parse_args(argv)
    try:
        compared = compare(options.tap, options.movie)
        if options.pictures:
            save_pictures(options.pictures, compared)
    except (TapeError, Unavailable, ValueError, OSError) as why:
        print(f"fuse_compare: {why}", file=sys.stderr)
        return 1
    print("\n".join(report(compared)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
