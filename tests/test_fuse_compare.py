"""tools/fuse_compare.py: a tape loaded in Fuse and in zxcards, measured alike. Its movie reader is
tested on a movie made here; the comparison itself runs Fuse under Xvfb (skipped, saying why, where
fuse-sdl, Xvfb or xdotool is missing)."""

import shutil
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from spectrum import render
from spectrum.oracle import Oracle
from spectrum.tape import program_tap

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def tools_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))


def coded(cells: bytes) -> bytes:
    """Bytes run-length coded as an FMF movie codes them: a byte twice is followed by how many more
    (255 at most, a longer run going on as a new one)."""
    out, at = bytearray(), 0
    while at < len(cells):
        run = 1
        while at + run < len(cells) and cells[at + run] == cells[at] and run < 257:
            run += 1
        out += bytes([cells[at]]) if run == 1 else bytes([cells[at], cells[at], run - 2])
        at += run
    return bytes(out)


def area(x: int, y: int, bitmap: np.ndarray, attributes: np.ndarray) -> bytes:
    height, width = bitmap.shape
    return (
        b"$"
        + bytes([x])
        + struct.pack("<H", y)
        + bytes([width])
        + struct.pack("<H", height)
        + coded(bitmap.tobytes())
        + coded(attributes.tobytes())
    )


def sound_chunk(samples: np.ndarray) -> bytes:
    return (
        b"SP" + struct.pack("<H", 44100) + b"M" + struct.pack("<H", len(samples) - 1) + samples.astype("<i2").tobytes()
    )


def test_the_movie_reader_draws_each_frame_from_its_rectangles_and_hears_its_sound():
    import fuse_compare

    rng = np.random.default_rng(7)
    start_bitmap = np.zeros((240, 40), np.uint8)
    start_attributes = np.full((240, 40), 7 << 3, np.uint8)  # a white border and paper
    start_bitmap[100, 10:20] = rng.integers(0, 256, 10)  # bytes of the screen's, and runs of every length
    change = np.full((30, 12), 2 << 3, np.uint8)  # a red border at the top left in the second frame
    change[5, 3:9] = 5 << 3
    sounds = [rng.integers(-3000, 3000, 882).astype(np.int16) for _ in range(2)]
    body = (
        area(0, 0, start_bitmap, start_attributes)
        + b"N\x01$A"
        + sound_chunk(sounds[0])
        + b"N\x01$A"
        + area(0, 0, np.zeros((30, 12), np.uint8), change)
        + sound_chunk(sounds[1])
        + b"X"
    )
    movie = b"FMF_V1eZ\x01$AP\x44\xacM\n" + zlib.compress(body)
    recording = fuse_compare.MovieReader(movie).recording()
    assert len(recording.borders) == 2 and (recording.sound == np.concatenate(sounds)).all()
    assert (recording.borders[0] == 7).all()
    expected = np.full((240, 40), 7, np.uint8)
    expected[:30, :12] = change >> 3
    assert (recording.borders[1] == expected).all()
    screen = np.frombuffer(recording.screens[0], np.uint8)
    line = 100 - render.BORDER_TOP  # the screen's pixel line 76: a third's 4th character row, its 5th line
    offset = ((line & 0xC0) << 5) | ((line & 7) << 8) | ((line & 0x38) << 2)
    assert (screen[offset + 6 : offset + 16] == start_bitmap[100, 10:20]).all()
    assert screen[:6144].sum() == start_bitmap[100].sum() and (screen[6144:] == 7 << 3).all()
    cut = fuse_compare.MovieReader(movie[:16] + zlib.compress(body)[:-30]).recording()  # a movie still being written
    assert len(cut.borders) <= 1


MISSING = [tool for tool in ("fuse-sdl", "Xvfb", "xdotool") if not shutil.which(tool)]


def fuse_machine_compared(fuse_compare, tap: Path):
    """The comparison, given a second try where this host's Fuse, Xvfb or xdotool failed (a Fuse that
    cannot run here is skipped, saying what it said: the comparison is of Fuse's tape, not its host)."""
    for attempt in range(2):
        try:
            return fuse_compare.compare(tap)
        except fuse_compare.Unavailable as why:
            failure = why
    pytest.skip(f"Fuse could not be run here, twice: {failure}")


@pytest.mark.rom
@pytest.mark.skipif(
    bool(MISSING), reason=f"{', '.join(MISSING)} not installed (Debian: fuse-emulator-sdl xvfb xdotool)"
)
def test_a_tape_loads_in_zxcards_as_it_loads_in_fuse(tmp_path):
    """A program's tape (8.6 s) in Fuse 1.6 with the same ROM and in zxcards, from the frame ENTER is
    taken in: the stripes start, the header's end, the data's pilot and the load's end in the same
    frame or the next (Fuse's tape stops while the ROM shows the header's name between the blocks),
    the program's first screen the same bytes; the stripes as many a frame, as many of them
    mid-line, of the same heights; the tape's pilot at the same pitch, its first edge as soon, and
    the data's half-waves the pulses' lengths. Fuse's memory is slower than zxcards's while the ULA
    draws the screen (contention): its editor starts the loader 2 ms later, its CLS ends 2 frames
    later, and its loader's loops in those lines put fewer steps mid-line."""
    import fuse_compare

    tap = tmp_path / "stop.tap"
    program = '10 BORDER 0: PAPER 0: INK 7: CLS: PRINT AT 10,4;"Stop the tape, please."\n20 PAUSE 50\n'
    tap.write_bytes(program_tap("stop", Oracle().program_bytes(program), autostart=10))
    compared = fuse_machine_compared(fuse_compare, tap)
    mine, theirs = compared.mine, compared.theirs
    for moment in ("stripes", "header_end", "data_pilot", "load_end"):
        assert 0 <= getattr(theirs.timeline, moment) - getattr(mine.timeline, moment) <= 1, moment
    assert 0 <= theirs.timeline.first_screen - mine.timeline.first_screen <= 3
    assert compared.first_screens_differ == 0
    assert mine.stripes.keys() == theirs.stripes.keys() == set(fuse_compare.STRIPE_KINDS)
    for kind, found in mine.stripes.items():
        seen = theirs.stripes[kind]
        assert abs(found.steps - seen.steps) < 0.05 * seen.steps, kind
        assert abs(found.mid_line - seen.mid_line) < 0.15 * seen.mid_line, kind
        assert {height for height, _ in found.heights.most_common(2)} == {h for h, _ in seen.heights.most_common(2)}
    heard, fuse_heard = mine.sound, theirs.sound
    assert abs(heard.pilot - fuse_heard.pilot) < 1 and abs(heard.pilot - 3_500_000 / (2 * 2168)) < 1
    assert 0 <= fuse_heard.block_starts[0] - heard.block_starts[0] < 3_500_000 * 0.003
    for short, long in (heard.half_waves, fuse_heard.half_waves):
        assert abs(short - 855) < 0.02 * 855 and abs(long - 1710) < 0.02 * 1710
