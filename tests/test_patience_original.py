"""The listing itself on the live ROM machine, beside the port: the same screens after the same
keys, a difference found at its cell, the title from tape, and the shuffle as heard."""

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings, strategies as st
import pytest

import games.patience as patience
from games.patience import original, play, rules
from games.program import CannotStart
from spectrum import Spectrum
from spectrum.compare import screen_of
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.frontends.headless import Press
from spectrum.interpreter import Interpreter
from spectrum.oracle import rows_of
from spectrum.rom_machine import RomSpectrum
from spectrum.hardware import FRAME_T_STATES, T_STATES_PER_SECOND
from spectrum.sound import SAMPLE_RATE

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.rom  # every test here runs the genuine ROM


def typed(*entries: str) -> list[str]:
    return [key for entry in entries for key in [*entry, "ENTER"]]


def sounds(samples: np.ndarray, silence: int) -> list[tuple[int, np.ndarray]]:
    """The pieces of `samples` between silences of more than `silence` samples, with where each
    starts."""
    sounding = np.flatnonzero(samples)
    breaks = np.flatnonzero(np.diff(sounding) > silence)
    starts = np.concatenate([[sounding[0]], sounding[breaks + 1]])
    ends = np.concatenate([sounding[breaks], [sounding[-1]]]) + 1
    return [(start, samples[start:end]) for start, end in zip(starts, ends)]


def port_title() -> Spectrum:
    machine = Spectrum(HeadlessFrontend())
    play.start(machine, 1760)
    play.load_udgs(machine)
    with pytest.raises(ScriptExhausted):
        play.title(machine)
    return machine


def test_a_won_game_and_goodbye_show_the_same_screen_at_every_key():
    seed = 1
    line = rules.winning_line(patience.shuffled_pack(seed).decode("latin-1"))
    keys = ["SPACE", *typed(*line), "n"]
    port = Spectrum(HeadlessFrontend(keys))
    difference, port_waits, rom = original.compare_headless(port, seed)
    assert difference is None
    waits = rom.frontend.waits
    assert len(waits) == len(port_waits) == len(keys) + 1  # one a key, and the end
    assert rom.program_stopped and waits[-1].stopped  # STOP at line 1590, "Thanks for playing."
    assert rows_of(rom.memory) == rows_of(port.memory)


def test_the_last_screen_is_compared_with_the_report_the_rom_gives_line_and_statement(monkeypatch):
    keys = ["SPACE", *typed("0"), "n"]  # resign, then N: "Thanks for playing." and STOP
    port = Spectrum(HeadlessFrontend(keys))
    difference, port_waits, rom = original.compare_headless(port, 1)
    assert difference is None and port_waits[-1].stopped and rom.frontend.waits[-1].stopped
    assert port_waits[-1].screen == rom.frontend.waits[-1].screen
    assert "".join(port.screen_char(23, col) for col in range(24)) == "9 STOP statement, 1590:6"
    monkeypatch.setattr(Interpreter, "placed", lambda basic, report: report)  # a port with no line numbers
    difference, port_waits, _ = original.compare_headless(Spectrum(HeadlessFrontend(keys)), 1)
    assert (difference.key_wait, difference.row) == (len(port_waits), 23)


def test_an_enter_typed_as_soon_as_an_input_waits_again_is_taken_as_on_the_rom():
    # a refused move with keywords in it, then ENTER at once at "Not allowed - again?": the ROM
    # takes it only if its key slot has been freed by then, which the INPUT's first wait for a
    # key, a frame sooner or later, decides (issue 43, item 16)
    keys = [
        ("CAPS", "5"),
        "4",
        "ENTER",
        "1",
        "2",
        "3",
        "4",
        ("SYMBOL", "o"),
        "8",
        ("SYMBOL", "g"),
        ("SYMBOL", "t"),
        "ENTER",
        "ENTER",
        "8",
        "ENTER",
        ("SYMBOL", "y"),
        ("SYMBOL", "o"),
        "ENTER",
    ]
    difference, _, _ = original.compare_headless(Spectrum(HeadlessFrontend(keys)), 45434)
    assert difference is None


def test_keys_typed_after_both_programs_have_stopped_are_not_compared():
    # 0 resigns, N ends with "Thanks for playing." and STOP; then ENTER at the ROM's command line
    # lists the program, which the port has no notion of
    keys = ["SPACE", *typed("9", "0"), "n", "ENTER", "ENTER", "x"]
    difference, port_waits, rom = original.compare_headless(Spectrum(HeadlessFrontend(keys)), 5)
    assert difference is None
    stopped = [number for number, wait in enumerate(rom.frontend.waits) if wait.stopped]
    assert stopped and stopped[0] < len(rom.frontend.waits) - 1  # the ROM took keys after its STOP


@pytest.mark.parametrize("seed, entries", [(77, ["12", "", "0"]), (62, ["9", "9", "47", "0"])])
def test_refusals_resigning_and_the_end_screen_are_the_same_at_every_key(seed, entries):
    port = Spectrum(HeadlessFrontend(["SPACE", *typed(*entries)]))
    difference, _, rom = original.compare_headless(port, seed)
    assert difference is None
    assert screen_of(rom) == screen_of(port)  # "Another game? (Y/N)" waiting in PAUSE 0
    assert len(rom.frontend.waits) > len(entries) + 2


def test_a_byte_changed_in_the_ports_screen_is_found_at_its_cell(monkeypatch):
    row, column, pixel_line = 14, 27, 5
    dealt = play.deal

    def deal_with_a_flaw(machine, table):
        table = dealt(machine, table)
        address = 0x4000 + ((row & 0x18) << 8) + ((row & 7) << 5) + column + 256 * pixel_line
        machine.memory[address] ^= 0x10
        return table

    monkeypatch.setattr(play, "deal", deal_with_a_flaw)
    difference, _, rom = original.compare_headless(Spectrum(HeadlessFrontend(["SPACE", "9", "ENTER"])), 500)
    assert (difference.row, difference.column, difference.key_wait) == (row, column, 2)  # the first key of a move
    assert difference.frame == rom.frontend.waits[1].frame
    assert str(difference).startswith(f"first difference at frame {difference.frame}, row {row}, column {column}")


def test_rom_mode_plays_the_seed_given_to_line_1040():
    seeded = original.listing(4321)
    assert seeded.count("RANDOMIZE") == 1 and "\n1040 RANDOMIZE 4321\n" in seeded
    assert original.listing() == original.LISTING_FILE.read_text()


def test_the_tape_made_by_make_tap_loads_and_shows_the_title(tmp_path):
    tap = tmp_path / "patience.tap"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "make_tap.py"),
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
    )
    assert done.returncode == 0, done.stderr
    machine = RomSpectrum.loading(HeadlessFrontend(), tap.read_bytes())
    with pytest.raises(ScriptExhausted):
        machine.run()  # to the title's PAUSE 0
    assert screen_of(machine) == screen_of(port_title())
    assert machine.frame_count / 50 > 18  # the rules typed out take 18 s, as on a Spectrum


def test_the_title_and_the_shuffle_sound_on_the_port_as_on_the_rom_tick_by_tick_and_beep_by_beep():
    heard, onsets = {}, {}
    for mode in ("rom", "port"):
        frontend = HeadlessFrontend(["SPACE"])
        machine = original.rom_machine(frontend, 1984) if mode == "rom" else Spectrum(frontend)
        with pytest.raises(ScriptExhausted):
            machine.run() if mode == "rom" else play.run(machine, 1984)
        machine.flush_sound()
        heard[mode], onsets[mode] = sounds(frontend.audio(), silence=20), machine.sound_onsets
    sounded = sum(len(text) for text in play.INSTRUCTIONS) + rules.SHUFFLE_PASSES
    assert len(heard["rom"]) == len(heard["port"]) == len(onsets["rom"]) == len(onsets["port"]) == sounded
    # each tick and beep begins where the ROM's does (within a frame, or 0.5% of the time so far),
    # in the machines' clocks and in the sound recorded
    frame = SAMPLE_RATE * FRAME_T_STATES / T_STATES_PER_SECOND
    for rom, port in zip(onsets["rom"], onsets["port"]):
        assert abs(port - rom) <= max(FRAME_T_STATES, 0.005 * rom)
    for (rom, _), (port, _) in zip(heard["rom"], heard["port"]):
        assert abs(port - rom) <= max(frame, 0.005 * rom)
    shuffle = heard["rom"][-rules.SHUFFLE_PASSES :]
    seconds = (shuffle[-1][0] - shuffle[0][0]) / SAMPLE_RATE
    assert 9 < seconds < 10  # of GO SUB 1400's 12 s, building the pack takes the first 2.5
    for beeps in (shuffle, heard["port"][-rules.SHUFFLE_PASSES :]):
        lengths = [len(beep) for _, beep in beeps]
        odd, even = lengths[0::2], lengths[1::2]  # pitch 12 on odd passes, 24 on even ones
        # the same length each (but for the samples either end it covers in part), the pitches apart
        assert max(odd) - min(odd) <= 3 and max(even) - min(even) <= 3 and abs(odd[0] - even[0]) > 10


def test_headless_compare_prints_identical_or_the_difference_and_says_so_in_its_status(capsys, monkeypatch):
    keys = ["SPACE", *typed("9")]
    assert patience.run(Spectrum(HeadlessFrontend(keys)), 500, compare=True) == 0
    assert capsys.readouterr().out == "seed 500: identical\n"
    monkeypatch.setattr(play, "MOVE_PROMPT", "Your move! ")  # a port that prompts otherwise
    assert patience.run(Spectrum(HeadlessFrontend(["SPACE", *typed("1"), "n"])), 500, compare=True) == 1
    assert capsys.readouterr().out.startswith("seed 500: first difference at frame ")


def test_rom_and_compare_are_options_of_their_own():
    parser = argparse.ArgumentParser()
    patience.add_options(parser)
    assert vars(parser.parse_args(["--rom", "--seed", "7"])) == {
        "seed": 7,
        "rom": True,
        "compare": False,
        "fast": False,
    }
    assert vars(parser.parse_args(["--rom", "--fast"]))["fast"]  # the listing typed in, not loaded from its tape
    with pytest.raises(SystemExit):
        parser.parse_args(["--rom", "--compare"])
    with pytest.raises(CannotStart, match="--compare"):  # both at the Spectrum's speed
        patience.run(Spectrum(HeadlessFrontend()), 500, compare=True, fast=True)


@st.composite
def key_scripts(draw):
    """A seed and keys for its game: entries legal and not (typed with DELETE now and then),
    never a resignation, and the table kept far from the end of the pack; now and then keys
    pressed while the pack is shuffled, which the listing never reads."""
    seed = draw(st.integers(1, 65535))
    table = rules.deal(rules.Game(patience.shuffled_pack(seed).decode("latin-1")))[0]
    keys = ["SPACE"]
    for _ in range(draw(st.integers(0, 2))):  # the shuffle and deal take 850 frames after SPACE
        keys.append(
            Press(
                frozenset({draw(st.sampled_from(["x", "7", "ENTER", "SPACE"]))}),
                hold=draw(st.integers(2, 60)),
                after=draw(st.integers(5, 300)),
            )
        )
    for _ in range(draw(st.integers(1, 6))):
        legal = rules.legal_entries(table) if table.cards_left > 9 else []
        entry = draw(
            st.one_of(
                st.text("0123456789", min_size=1, max_size=3).filter(lambda text: text != "0"),
                *([st.sampled_from(legal)] if legal else []),
            )
        )
        if draw(st.booleans()):
            keys += ["x", frozenset({"CAPS", "0"})]  # a key typed and deleted
        keys += [*entry, "ENTER"]
        if rules.legal(entry, table) and entry != rules.RESIGN_ENTRY:
            table, _ = rules.cover(table, rules.judge(entry, table))
    return seed, keys


@settings(max_examples=8, deadline=None)
@given(script=key_scripts())
def test_on_any_seed_and_keys_every_key_wait_shows_the_same_screen_at_the_same_time(script):
    seed, keys = script
    difference, _, _ = original.compare_headless(Spectrum(HeadlessFrontend(keys)), seed)
    assert difference is None
