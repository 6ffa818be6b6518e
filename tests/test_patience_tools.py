"""The tools around 11-Up Patience: UDG art from any listing's DATA, and the shuffle side by side."""

import struct
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from games.patience import play, replay_shuffle
from spectrum import Spectrum, udg_art
from spectrum.basic import ListingError, data_values
from spectrum.numbers import parse_number
from spectrum.render import FRAME_HEIGHT, FRAME_WIDTH

ROOT = Path(__file__).resolve().parent.parent

LISTING = ROOT / "games" / "patience" / "patience.bas"


def test_patience_data_are_the_ports_udgs():
    values = data_values(LISTING.read_text())
    assert values == [float(byte) for rows in play.UDG_DATA for byte in rows]


def test_any_listing_data_with_bin_negatives_and_other_statements_on_the_line():
    listing = '10 PRINT "1,2": DATA BIN 11110000,-1,.5e1,0: REM DATA 9\n5 DATA 1,2,3,4,5,6,7,8\n'
    five = parse_number(".5e1")  # as the ROM stores it: a hair under 5
    assert data_values(listing, from_line=10) == [240.0, -1.0, five, 0.0]
    values = data_values(listing)
    assert values == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 240.0, -1.0, five, 0.0]  # program order
    machine = Spectrum()
    udg_art.poke_udgs(machine, values[8:] + [1, 2, 3, 4], 1)
    assert udg_art.udg_rows(machine, 0) == [240, 255, 5, 0, 1, 2, 3, 4]  # POKE rounds, and -1 is 255
    with pytest.raises(ListingError, match="line 20"):
        data_values('20 READ a$: DATA "x"\n')


@given(rows=st.lists(st.integers(0, 255), min_size=8, max_size=8))
def test_magnified_udgs_keep_every_pixel(rows):
    cells = udg_art.magnified(rows)
    for line in range(8):
        for bit in range(8):
            code = cells[line // 2][bit // 2] - 128
            quadrant = (2 if bit % 2 == 0 else 1) * (1 if line % 2 == 0 else 4)
            assert bool(code & quadrant) == bool(rows[line] & (0x80 >> bit))


def test_udg_art_writes_text_and_png(tmp_path, capsys):
    png = tmp_path / "udgs.png"
    assert udg_art.main([str(LISTING), "--png", str(png), "--scale", "1"]) == 0
    out = capsys.readouterr().out
    assert "UDG E" in out and "UDG F" not in out
    assert ".##.##..  108" in out  # the top of the heart
    width, height = struct.unpack(">II", png.read_bytes()[16:24])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and (width, height) == (FRAME_WIDTH, FRAME_HEIGHT)


def test_udg_art_explains_a_listing_without_enough_data(tmp_path, capsys):
    listing = tmp_path / "short.bas"
    listing.write_text("10 DATA 1,2,3\n")
    assert udg_art.main([str(listing)]) == 1
    assert "not enough" in capsys.readouterr().err


@pytest.mark.rom
def test_replay_shuffle_shows_both_packs_matching(capsys):
    assert replay_shuffle.main(["--seed", "1984"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rom_at, port_at = lines.index("ROM  (9 STOP statement, 1:4):"), lines.index("port:")
    rom_cards = " ".join(lines[rom_at + 1 : port_at]).split()
    port_cards = " ".join(lines[port_at + 1 : port_at + 5]).split()
    assert rom_cards == port_cards and len(set(port_cards)) == 52 and "10H" in port_cards
    out = "\n".join(lines)
    assert "the packs MATCH" in out
    assert "ms in the emulator" in out and "x a real Spectrum" in out


def test_replay_shuffle_refuses_seeds_randomize_would_not_take(capsys):
    with pytest.raises(SystemExit) as refused:
        replay_shuffle.main(["--seed", "0"])
    assert refused.value.code == 2
    error = capsys.readouterr().err
    assert "1-65535" in error and error.count("\n") == 1
