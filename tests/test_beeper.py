"""spectrum.beeper against the ROM's BEEP and BEEPER, edge by edge."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rom_routines import outcome, rom

from spectrum import fp
from spectrum.beeper import SEMITONES, beep_edges, beep_timing, beeper
from spectrum.hardware import T_STATES_PER_SECOND
from spectrum.errors import ReportError
from spectrum.numbers import parse_number
from spectrum.oracle import Oracle
from spectrum.rom import ROM

durations = st.one_of(st.floats(0.001, 0.3), st.floats(0.001, 2))
pitches = st.one_of(st.integers(-60, 69), st.floats(-60, 69.999))  # from 69.5 or so: report B


@pytest.mark.rom
@settings(max_examples=250, deadline=None)
@given(duration=durations, pitch=pitches)
@example(duration=2, pitch=69)
@example(duration=2, pitch=-60)
@example(duration=0.001, pitch=0)  # too short for a single cycle: no edges
@example(duration=0.5, pitch=-0.5)
def test_edges_match_the_rom(duration, pitch):
    rom_edges = outcome(rom().beep, fp.from_float(duration), fp.from_float(pitch))
    assert outcome(beep_edges, duration, pitch) == rom_edges


@pytest.mark.rom
@settings(max_examples=1000, deadline=None)
@given(duration=st.floats(-1, 12), pitch=st.floats(-70, 130))
@example(duration=1, pitch=70)
@example(duration=1, pitch=-60.5)
@example(duration=10.5, pitch=0)
@example(duration=10.49, pitch=-60)
@example(duration=-0.3, pitch=0)
@example(duration=1, pitch=127.9)
@example(duration=1, pitch=128)
def test_loop_counts_and_errors_match_the_rom(duration, pitch):
    """Every range check: the counts BEEP hands to BEEPER, or its report, across all inputs."""
    operands = fp.from_float(duration), fp.from_float(pitch)
    assert outcome(beep_timing, *operands) == outcome(rom().beep_counts, *operands)


def test_semitone_table_is_the_roms():
    assert b"".join(SEMITONES) == ROM[0x046E : 0x046E + 60]


@pytest.mark.parametrize(
    "duration, pitch, frequency, seconds",
    [(".5", 0, 261.74, 0.4986), (".25", 12, 523.64, None), (".1", -12, 130.85, 0.0955), ("1", 7, 392.20, None)],
)
def test_measured_pitches_and_lengths(duration, pitch, frequency, seconds):
    """Figures measured on the emulated machine (speaker edges of BEEP typed in BASIC)."""
    edges = beep_edges(parse_number(duration), pitch)
    assert T_STATES_PER_SECOND / (edges[2] - edges[0]) == pytest.approx(frequency, abs=0.01)
    if seconds is not None:
        assert (edges[-1] - edges[0]) / T_STATES_PER_SECOND == pytest.approx(seconds, abs=0.0001)


def test_out_of_range_reports():
    for duration, pitch in [(1, 70), (1, -61), (11, 0), (-1, 0), (10, 69)]:
        with pytest.raises(ReportError) as raised:
            beep_edges(duration, pitch)
        assert str(raised.value) == "B Integer out of range"
    assert beep_edges(0, 0) == []


def test_half_periods_follow_the_timing():
    edges = beeper(1642, 3)
    assert len(edges) == 6
    assert {later - earlier for earlier, later in zip(edges, edges[1:])} == {4 * 1642 + 118}


@pytest.mark.rom
def test_beep_in_basic_agrees():
    """A program's BEEPs on the real machine: literals as the ROM reads them, edges back to back."""
    result = Oracle().run("10 BEEP .05,9.5: BEEP .02,-3")
    assert result.report.startswith("0 OK")
    first = beep_edges(parse_number(".05"), 9.5)
    second = beep_edges(parse_number(".02"), -3)
    times = [t for t, _ in result.edges]
    assert len(times) == len(first) + len(second)
    start_second = times[len(first)]
    assert [t - times[0] for t in times[: len(first)]] == first
    assert [t - start_second for t in times[len(first) :]] == second
