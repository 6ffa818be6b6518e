"""The zxcards command with the genuine ROM: Patience's listing itself (--rom), beside the port
(--compare), any tape or listing (load), and SCREEN$ files (--screenshot F.scr)."""

import subprocess
import sys
from pathlib import Path

import pytest

from games import cli
from games.patience import original

ROOT = Path(__file__).resolve().parent.parent
SCREEN_BYTES = 6912


def screen_after(tmp_path, *args) -> bytes:
    scr = tmp_path / "screen.scr"
    assert cli.main([*args, "--headless", "--screenshot", str(scr)]) == 0
    return scr.read_bytes()


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
    done = subprocess.run([sys.executable, "-m", "spectrum.make_tap", str(original.LISTING_FILE), "--name", "patience",
                           "--line", "1760", "-o", str(tap)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    loaded = screen_after(tmp_path, "load", str(tap))
    typed_in = screen_after(tmp_path, "load", str(original.LISTING_FILE))  # RUN: line 1010 goes to the loader
    port = screen_after(tmp_path, "patience", "--seed", "3")  # the title waits for a key: no seed used yet
    assert loaded == typed_in == port
    assert loaded[6144 + 32 * 2 + 9] == 0x40 | 1 << 3 | 6  # "11-UP PATIENCE": BRIGHT, INK 6 on PAPER 1


@pytest.mark.rom
@pytest.mark.parametrize("name, content, said", [
    ("picture.tap", b"\x89PNG\r\n", "not a .tap file"),
    ("notes.txt", b"Some notes\n", "neither a tape"),
    ("missing.bas", None, "cannot read")])
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
