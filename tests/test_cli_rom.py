"""The zxcards command with the genuine ROM: Patience's listing itself (--rom), beside the port
(--compare), any tape or listing (load), and SCREEN$ files (--screenshot F.scr)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from games.host import cli
from games.patience import original
from spectrum import Spectrum
from spectrum.frontends import HeadlessFrontend
from spectrum.hardware import DISPLAY_FILE, SCREEN_BYTES
from spectrum.oracle import Oracle
from spectrum.tape import program_tap

ROOT = Path(__file__).resolve().parent.parent


def screen_after(tmp_path, *args) -> bytes:
    scr = tmp_path / "screen.scr"
    assert cli.main([*args, "--headless", "--screenshot", str(scr)]) == 0
    return scr.read_bytes()


def screen_row(scr: bytes, row: int) -> str:
    """The text of one row of a SCREEN$ file, '?' for a cell that holds no character."""
    machine = Spectrum()
    machine.memory[DISPLAY_FILE : DISPLAY_FILE + SCREEN_BYTES] = np.frombuffer(scr, np.uint8)
    return "".join(machine.screen_char(row, col) or "?" for col in range(32)).rstrip()


@pytest.fixture
def runs_must_end(monkeypatch):
    """A headless run that never ends fails the test instead of hanging it."""
    present = HeadlessFrontend.present

    def counted(frontend, machine):
        assert frontend.frames_presented < 20_000, "the run does not end"
        present(frontend, machine)

    monkeypatch.setattr(HeadlessFrontend, "present", counted)


@pytest.mark.rom
@pytest.mark.parametrize(
    "programs, report",
    [
        (("one", "two"), "0 OK, 10:1"),  # the second program is left on the tape
        ((None,), "4 Out of memory, 0:1"),
    ],
)  # the header asks for 60,000 bytes: the program is left on it
def test_load_headless_ends_at_the_report_when_part_of_the_tape_is_left_unread(
    tmp_path, runs_must_end, programs, report
):
    tap = tmp_path / "tape.tap"
    tap.write_bytes(
        b"".join(
            program_tap(name, Oracle().program_bytes(f'10 PRINT "{name}"\n'), autostart=10)
            if name
            else program_tap("big", bytes(60_000))
            for name in programs
        )
    )
    assert screen_row(screen_after(tmp_path, "load", str(tap)), 23) == report


@pytest.mark.rom
def test_rom_mode_shows_the_screen_the_port_shows_after_the_same_keys(tmp_path):
    keys = ["--keys", " 27{ENTER}"]
    rom = screen_after(tmp_path, "patience", "--rom", "--seed", "3", *keys)
    port = screen_after(tmp_path, "patience", "--seed", "3", *keys)
    assert len(rom) == SCREEN_BYTES and rom == port


@pytest.mark.rom
def test_compare_headless_says_identical_and_exits_0(capsys):
    assert cli.main(["patience", "--compare", "--seed", "500", "--headless", "--keys", " 9{ENTER}"]) == 0
    assert capsys.readouterr().out == "seed 500: identical\n"


@pytest.mark.rom
def test_a_tape_made_by_make_tap_loads_and_shows_the_title(tmp_path):
    tap = tmp_path / "patience.tap"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "spectrum.make_tap",
            str(original.LISTING_FILE),
            "--name",
            "patience",
            "--line",
            "1760",
            "-o",
            str(tap),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    loaded = screen_after(tmp_path, "load", str(tap))
    typed_in = screen_after(tmp_path, "load", str(original.LISTING_FILE))  # RUN: line 1010 goes to the loader
    port = screen_after(tmp_path, "patience", "--seed", "3")  # the title waits for a key: no seed used yet
    assert loaded == typed_in == port
    assert loaded[6144 + 32 * 2 + 9] == 0x40 | 1 << 3 | 6  # "11-UP PATIENCE": BRIGHT, INK 6 on PAPER 1


@pytest.mark.rom
@pytest.mark.parametrize(
    "name, content, said",
    [
        ("picture.tap", b"\x89PNG\r\n", "not a .tap file"),
        ("notes.txt", b"Some notes\n", "neither a tape"),
        ("missing.bas", None, "cannot read"),
    ],
)
def test_a_file_that_cannot_be_loaded_gets_one_line_and_exit_1(tmp_path, capsys, name, content, said):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    assert cli.main(["load", str(path), "--headless"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("zxcards load: ") and said in err and err.count("\n") == 1


def test_load_names_its_file(capsys):
    assert cli.main(["load"]) == 2
    assert "file" in capsys.readouterr().err
