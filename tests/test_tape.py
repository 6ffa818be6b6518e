"""A listing written as a .tap loads and autostarts under SkoolKit's tap2sna (a simulated LOAD)."""

import subprocess
import sys
from pathlib import Path

import pytest
from skoolkit import tap2sna
from skoolkit.snapshot import Snapshot

from spectrum.oracle import Oracle, read_variables, rows_of
from spectrum.tape import block, program_tap

LISTING = '10 LET a=42: PRINT AT 2,2;"TAP \\a\\::"\n20 STOP\n30 LET a=0\n'
TOOL = Path(__file__).resolve().parent.parent / "tools" / "make_tap.py"


def test_block_checksum_is_the_xor_of_flag_and_data():
    assert block(0xFF, b"\x01\x02") == b"\x04\x00\xff\x01\x02\xfc"


@pytest.mark.rom
def test_tap_autostarts_and_runs_the_program(tmp_path):
    tap, z80 = tmp_path / "t.tap", tmp_path / "t.z80"
    listing = tmp_path / "t.bas"
    listing.write_text(LISTING)
    done = subprocess.run(
        [sys.executable, str(TOOL), str(listing), "-o", str(tap), "--line", "10"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    tap2sna.main([str(tap), str(z80)])
    memory = [0] * 16384 + list(Snapshot.get(str(z80)).ram(-1))
    assert read_variables(memory) == {"a": 42.0}
    expected = Oracle().run(LISTING)  # rows 0-1 also show LOAD's "Program: t"
    assert rows_of(memory, 2, 21) == expected.rows(2, 21)


def test_tape_names_are_checked():
    with pytest.raises(ValueError):
        program_tap("much too long", b"")
    with pytest.raises(ValueError):
        program_tap("", b"")


@pytest.mark.parametrize("line", ["99999", "-1", "x"])
def test_an_autostart_line_outside_0_9999_is_refused_in_one_line(tmp_path, line):
    listing, tap = tmp_path / "t.bas", tmp_path / "t.tap"
    listing.write_text(LISTING)
    done = subprocess.run(
        [sys.executable, str(TOOL), str(listing), "-o", str(tap), "--line", line], capture_output=True, text=True
    )
    assert done.returncode == 2 and not tap.exists()
    assert done.stderr.count("\n") == 1 and "0-9999" in done.stderr


def test_a_tape_cannot_autostart_past_line_9999():
    with pytest.raises(ValueError):
        program_tap("t", b"", 10000)
