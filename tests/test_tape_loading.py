"""LOAD "" typed and played at the tape's speed: the ROM's own loader reads the tape's signal, its
border stripes follow the pulses where the beam was, the tape is heard, the load takes the tape's
time and leaves the memory the instant load leaves; a tape that fails fails as the ROM fails it."""

import numpy as np
import pytest

from games.host import cli
from games.patience import original
from spectrum import hardware, render, sysvars
from spectrum.frontends import HeadlessFrontend, Press, ScriptExhausted, presses_from
from spectrum.oracle import Oracle
from spectrum.rom_machine import ENTER_FRAME, RomSpectrum
from spectrum.hardware import FRAME_T_STATES
from spectrum.tape import block, program_tap, recorded_blocks
from spectrum.tape_signal import TapeRecorder, TapeSignal, block_pulses
from tests.test_cli_rom import screen_after, screen_row
from tests.test_rom_machine import run_until_keys_run_out, text_at


pytestmark = pytest.mark.rom  # every test here but the first two runs the genuine ROM

PROGRAM = "10 REM " + "x" * 200 + "\n20 LET a=5\n"  # a data block long enough for frames of data stripes
PILOT_COLOURS, DATA_COLOURS = {2, 5}, {1, 6}  # red and cyan, blue and yellow
WHITE = 7  # the border the loader puts back (BORDCR) when it is done
# The ROM's SA-BYTES timings (T-states), written out here so that the tests check the module's
PILOT_PULSE, HEADER_PILOT_PULSES, DATA_PILOT_PULSES = 2168, 8063, 3223
SYNC_PULSES, ZERO_PULSE, ONE_PULSE = (667, 735), 855, 1710
SECOND = 3_500_000
# LD-SAMPLE reads the EAR every 59 T-states and LD-EDGE's OUT follows, the ULA seeing the port written
# 8 T-states into it: a stripe begins 73-131 T after its edge
EDGE_TO_STRIPE = range(69, 139)
# The ULA's: the visible picture's top-left cell of 8 pixels drawn 24 lines and 16 T-states before the
# display's first pixel (14,336 T after the interrupt), a line every 224 T, a cell every 4 T
TOP_LEFT_T, LINE_T_STATES, CELL_T_STATES = 14336 - 24 * 224 - 16, 224, 4


def test_a_block_is_its_pilot_sync_and_two_pulses_a_bit_msb_first():
    header, data = block_pulses(bytes([0x00, 0x80])), block_pulses(bytes([0xFF]))
    assert len(header) == HEADER_PILOT_PULSES + 2 + 32 and len(data) == DATA_PILOT_PULSES + 2 + 16
    assert set(header[:HEADER_PILOT_PULSES]) == {PILOT_PULSE}
    assert tuple(header[HEADER_PILOT_PULSES : HEADER_PILOT_PULSES + 2]) == SYNC_PULSES
    bits = header[HEADER_PILOT_PULSES + 2 :].tolist()
    assert bits == [ZERO_PULSE] * 16 + [ONE_PULSE] * 2 + [ZERO_PULSE] * 14  # 0x00, then 0x80
    signal = TapeSignal([bytes([0x00, 0x80]), bytes([0xFF])])
    assert [signal.level(t) for t in (0, 1, PILOT_PULSE, PILOT_PULSE + 1)] == [0, 1, 1, 0]  # from just after an edge
    assert signal.length == sum(header) + SECOND + sum(data)  # a second's pause between


def test_the_recorder_plays_to_the_end_of_a_blocks_pause_after_the_loader_and_goes_on_from_there():
    signal = TapeSignal([bytes([0x00, 0x80]), bytes([0xFF])])
    recorder = TapeRecorder(signal)
    assert recorder.tape_time(123_456) == 0 and recorder.ear(123_456) == 0  # not started: at its start
    recorder.loader_started(1_000)
    assert recorder.tape_time(1_000 + 5) == 5 and recorder.ear(1_000 + 5) == 1
    first_block_end = signal.block_ends[0]
    recorder.loader_returned(1_000 + first_block_end + 10)  # just after the header's last edge
    stopped = first_block_end + SECOND
    assert recorder.tape_time(1_000 + stopped + 50_000) == stopped and len(recorder.blocks_left(10**9)) == 1
    assert len(recorder.edges_until(10**9)) == len(block_pulses(signal.blocks[0])) + 1  # the header's, no more
    recorder.loader_started(10**9)  # a LOAD later: the data block from its first edge on
    assert recorder.tape_time(10**9 + 7) == stopped + 7
    assert recorder.edges_until(10**9 + PILOT_PULSE + 1) == [10**9, 10**9 + PILOT_PULSE]
    recorder.loader_returned(10**9 + 100)  # in the pilot: it plays on to the pause's end
    assert recorder.tape_time(2 * 10**9) == signal.pause_ends[1] and not recorder.blocks_left(2 * 10**9)


class Recording(HeadlessFrontend):
    """A headless front end that keeps each frame's border changes (T-states from frame 0) and runs."""

    def __init__(self):
        super().__init__()
        self.changes: list[tuple[int, int]] = []
        self.runs: list[tuple | None] = []

    def present(self, machine) -> None:
        if machine.frame_count:  # the frame just run is the one before
            start = (machine.frame_count - 1) * FRAME_T_STATES
            self.changes += [(start + t_state, colour) for t_state, colour in machine.border_changes]
            self.runs.append(machine.border_runs)
        super().present(machine)


@pytest.fixture(scope="module")
def tap() -> bytes:
    return program_tap("demo", Oracle().program_bytes(PROGRAM))


@pytest.fixture(scope="module")
def loaded(tap):
    """The tape loaded at its speed (to the command line's 0 OK): its front end, the speaker's
    steps (T-state from frame 0, level) and the machine."""
    frontend = Recording()
    machine = RomSpectrum.loading(frontend, tap)
    machine.speaker_steps = []
    run_until_keys_run_out(machine).flush_sound()
    return frontend, machine.speaker_steps, machine


def blocks_heard(steps: list[tuple[int, int]]) -> list[list[int]]:
    """The edges of each sound heard but the key clicks (two edges each: ENTER's, after LOAD "")."""
    sounds, edges = [], []
    for t_state, level in steps:
        edges.append(t_state)
        if not level:  # a sound's last edge
            sounds.append(edges)
            edges = []
    return [edges for edges in sounds if len(edges) > 2]


def test_the_tape_is_heard_pulse_for_pulse_as_it_loads(loaded, tap):
    """The speaker sounds the EAR signal: every edge of every block, at the pulses' lengths."""
    frontend, steps, _ = loaded
    heard, recorded = blocks_heard(steps), recorded_blocks(tap)
    assert [np.diff(edges).tolist() for edges in heard] == [block_pulses(block).tolist() for block in recorded]
    samples = frontend.audio()
    start = heard[0][0] * 44_100 // SECOND
    pilot = samples[start : start + 44_100 * 4]  # four seconds inside the header's pilot: a tone of 807 Hz
    assert abs(np.argmax(np.abs(np.fft.rfft(pilot))) / 4 - SECOND / (2 * PILOT_PULSE)) < 1
    # not broken from frame to frame: a sample is silent only where it straddles an edge, half on
    # either side, and none is doubled
    silent = np.flatnonzero(pilot[1:-1] == 0) + 1
    assert (pilot[silent - 1].astype(int) * pilot[silent + 1] < 0).all() and np.abs(pilot).max() == 8192


def stripes_and_edges(loaded, tap, block_number: int, colours: set[int]) -> tuple[list, list[int]]:
    """The border changes in `colours` during a block, and the edges heard in it."""
    frontend, steps, _ = loaded
    heard = blocks_heard(steps)[block_number]
    changes = [
        (t_state, colour)
        for t_state, colour in frontend.changes
        if heard[0] <= t_state <= heard[-1] + EDGE_TO_STRIPE.stop and colour in colours
    ]
    return changes, heard


def edges_before(heard: list[int], changes: list[tuple[int, int]]) -> list[int]:
    """The index of the last edge heard before each change."""
    return (np.searchsorted(heard, [t_state for t_state, _ in changes]) - 1).tolist()


@pytest.mark.parametrize("block_number", [0, 1])
def test_the_pilot_stripes_are_red_and_cyan_one_for_each_pulse(loaded, tap, block_number):
    """Once the loader has found the pilot (it waits a second after the first edge it sees), LD-EDGE
    turns the border from red to cyan and back at each of its edges, a moment after it: every
    2,168 T-states, as LD-SAMPLE sees each edge; the sync pulses' two edges too."""
    changes, heard = stripes_and_edges(loaded, tap, block_number, PILOT_COLOURS)
    pilot = HEADER_PILOT_PULSES if block_number == 0 else DATA_PILOT_PULSES
    followed = edges_before(heard, changes[2:])  # the first two: the loader finding it
    assert followed == list(range(followed[0], followed[0] + len(followed)))  # every edge, one stripe each
    assert followed[-1] == pilot + 2  # to the pilot's end and through the sync pulses
    assert followed[0] * PILOT_PULSE < SECOND + 10 * PILOT_PULSE
    assert all(t_state - heard[index] in EDGE_TO_STRIPE for (t_state, _), index in zip(changes[2:], followed))
    assert all(a != b for (_, a), (_, b) in zip(changes, changes[1:]))  # red, cyan, red...
    intervals = np.diff([t_state for t_state, _ in changes[2:-2]])  # the pilot's, not the sync pulses'
    assert abs(intervals.mean() - PILOT_PULSE) < 1 and np.abs(intervals - PILOT_PULSE).max() < 60


@pytest.mark.parametrize("block_number", [0, 1])
def test_the_data_stripes_are_blue_and_yellow_one_for_each_pulse_of_each_bit(loaded, tap, block_number):
    changes, heard = stripes_and_edges(loaded, tap, block_number, DATA_COLOURS)
    recorded = recorded_blocks(tap)[block_number]
    first_bit = len(block_pulses(recorded)) - 16 * len(recorded)  # the first bit's first pulse, and edge
    followed = edges_before(heard, changes)
    assert followed == list(range(first_bit + 1, len(heard)))  # the end of every pulse of every bit
    assert all(t_state - heard[index] in EDGE_TO_STRIPE for (t_state, _), index in zip(changes, followed))
    assert all(a != b for (_, a), (_, b) in zip(changes, changes[1:]))  # blue, yellow, blue...


def bands(colours) -> list[tuple[int, int]]:
    """(colour, number of lines) of each band of one colour, top to bottom."""
    cuts = np.flatnonzero(np.diff(colours)) + 1
    return [(int(part[0]), len(part)) for part in np.split(np.array(colours), cuts)]


def test_each_frame_draws_the_stripes_where_the_beam_was_when_the_loader_changed_the_border(loaded):
    """In a frame of the pilot and one of the data, each stripe begins in the picture at the cell of
    8 pixels the beam was drawing when the ULA saw the OUT (in a line's border, mid-line: a step),
    the pixel before it in the colour before. Down the left edge a pulse of 2,168 T-states is 9.7 lines of
    224 T; a bit's of 855 or 1,710, 3.8 or 7.6."""
    frontend, _, machine = loaded
    striped = [(number, runs) for number, runs in enumerate(frontend.runs) if runs]
    pilot = next(
        frame for frame in striped if {colour for _, colour in frame[1]} == PILOT_COLOURS and len(frame[1]) > 20
    )
    data = next(frame for frame in striped if {colour for _, colour in frame[1]} == DATA_COLOURS and len(frame[1]) > 40)
    for number, runs in (pilot, data):
        picture = render.frame_rgb(machine.memory, False, runs)
        start = number * FRAME_T_STATES
        changes = [
            (t_state - start, colour)
            for t_state, colour in frontend.changes
            if start <= t_state < start + FRAME_T_STATES
        ]
        mid_line = 0
        for (_, before), (t_state, colour) in zip(changes, changes[1:]):
            line, within = divmod(t_state - TOP_LEFT_T, LINE_T_STATES)
            column = within // CELL_T_STATES
            if 0 <= line < 240 and 0 < column < 40 and not (24 <= line < 216 and 4 <= column <= 36):
                assert (picture[line, 8 * column - 1 : 8 * column + 1] == render.PALETTE[[before, colour]]).all()
                mid_line += 1
        assert mid_line  # stripes that step in the middle of a line
    left_edge = [bands(render.border_cells(runs)[:, 0])[1:-1] for _, runs in (pilot, data)]
    assert {length for _, length in left_edge[0]} == {9, 10}
    assert {length for _, length in left_edge[1]} <= {3, 4, 7, 8}


def test_load_is_typed_on_the_keys_each_taken_by_the_interrupt_of_the_first_frame_holding_it(tap):
    """J, SYMBOL SHIFT+P twice and ENTER, held 2 frames each with 6 between: the ROM's KEYBOARD takes
    each at the first interrupt that sees it (its click in that frame) and the editor shows the line
    as it grows; ENTER clears it and starts the tape. The front end's keys wait until then."""
    frontend = HeadlessFrontend(list("ab"))
    machine = RomSpectrum.loading(frontend, tap)
    machine.speaker_steps = []
    lines = []
    for _ in range(ENTER_FRAME + 1):
        machine.run_frame()
        lines.append(text_at(machine, 23, 0, 8))
    machine.run_frame()  # the sound comes a frame late
    clicks = [t_state // FRAME_T_STATES for t_state, level in machine.speaker_steps if level == 1][:4]
    assert clicks == [0, 8, 16, 24] == [ENTER_FRAME * n // 3 for n in range(4)]
    assert [lines[frame] for frame in clicks] == ["LOAD L  ", 'LOAD "L ', 'LOAD ""L', " " * 8]
    assert lines[clicks[3] - 1] == 'LOAD ""L' and len(frontend.presses) == 2
    assert machine.recorder.tape_time(machine.now) > 0  # the tape plays


def test_the_load_takes_the_tapes_time_to_within_a_frame(loaded, tap):
    """From LOAD's ENTER (taken in ENTER_FRAME) the tape starts within the frame; the loader is
    done, and puts the white border back, within a frame of the last block's last edge."""
    frontend, steps, _ = loaded
    heard = blocks_heard(steps)
    start, length = heard[0][0], TapeSignal(recorded_blocks(tap)).length
    done = frontend.changes[-1]
    assert done[1] == WHITE and 0 <= start - ENTER_FRAME * FRAME_T_STATES < FRAME_T_STATES
    assert 0 < done[0] - start - length < FRAME_T_STATES
    assert heard[-1][-1] - start == length


def test_the_memory_is_what_the_instant_load_leaves(loaded, tap):
    """The screen, the system variables and the program, to E_LINE, but FRAMES, which counts no
    frame while the loader runs, and the key slots' repeat counts (KSTATE+2 and +6): ENTER, still
    held a frame after it is taken, is counted down by an interrupt the instant load takes and the
    loader at the tape's speed (interrupts off) does not."""
    _, _, played = loaded
    instant = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), tap, fast=True))
    assert instant.frame_count - ENTER_FRAME < 10 < 400 < played.frame_count - ENTER_FRAME
    prog, e_line = (
        int(played.memory[address]) + 256 * int(played.memory[address + 1])
        for address in (sysvars.PROG, sysvars.E_LINE)
    )
    assert e_line - prog > 200
    repeat_counts = (sysvars.KSTATE + 2, sysvars.KSTATE + 6)
    parts = (
        slice(hardware.DISPLAY_FILE, repeat_counts[0]),
        slice(repeat_counts[0] + 1, repeat_counts[1]),
        slice(repeat_counts[1] + 1, sysvars.FRAMES),
        slice(sysvars.FRAMES + 3, e_line + 1),
    )
    for part in parts:
        assert (played.memory[part] == instant.memory[part]).all(), part
    assert text_at(played, 23, 0, 9) == "0 OK, 0:1"


def failing_tapes(tap: bytes) -> dict[str, bytes]:
    bad_checksum = tap[:-1] + bytes([tap[-1] ^ 1])
    header, data = tap[:21], recorded_blocks(tap)[1]
    return {"checksum": bad_checksum, "cut short": header + block(0xFF, data[1:101])}  # 100 bytes of 200-odd


@pytest.mark.parametrize("fault", ["checksum", "cut short"])
def test_a_tape_that_fails_stops_with_r_tape_loading_error_and_exit_0(tmp_path, tap, fault, capsys):
    """As `load` documents: headless, the run ends with the ROM's report on the screen (exit 0);
    `--fast` refuses the tape in one line before it runs (exit 1)."""
    path = tmp_path / "bad.tap"
    path.write_bytes(failing_tapes(tap)[fault])
    assert screen_row(screen_after(tmp_path, "load", str(path)), 23) == "R Tape loading error, 0:1"
    assert cli.main(["load", str(path), "--fast", "--headless"]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_load_plays_the_tape_unless_fast(tmp_path, tap, monkeypatch):
    path = tmp_path / "demo.tap"
    path.write_bytes(tap)
    presented = []
    monkeypatch.setattr(HeadlessFrontend, "close", lambda frontend: presented.append(frontend.frames_presented))
    for fast in ([], ["--fast"]):
        assert cli.main(["load", str(path), *fast, "--headless"]) == 0
    at_tape_speed, at_once = (frames - ENTER_FRAME for frames in presented)
    assert at_once < 10 < 400 < at_tape_speed


def test_the_tape_stops_after_the_program_loaded_and_the_next_waits_on_it():
    """The recorder stops at the end of the pause after the first program: LOAD "" typed a minute
    later reads the second from its pilot on."""
    first, second = (
        program_tap(name, Oracle().program_bytes(f'10 PRINT "{name.upper()}"\n'), autostart=10)
        for name in ("first", "second")
    )
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), first + second))
    assert text_at(machine, 2, 0, 5) == "FIRST" and len(machine.tape) == 2
    a_minute_on = machine.frame_count + 3000
    typed = presses_from(["j", '"', '"', "ENTER"])  # J is LOAD in K mode
    machine.frontend.presses.extend([Press(typed[0], at=a_minute_on), *map(Press, typed[1:])])
    run_until_keys_run_out(machine)
    assert machine.frame_count > a_minute_on + 400 and text_at(machine, 5, 0, 6) == "SECOND" and not machine.tape


def test_patience_on_the_rom_loads_from_its_tape_and_asks_to_stop_it():
    """Saved with LINE 1760 as in 1984: LOADed, it autostarts at its loader, which says to stop the
    tape, and then types out its title."""
    machine = original.rom_machine(HeadlessFrontend(), 3, from_tape=True)
    asked = None
    with pytest.raises(ScriptExhausted):
        while True:
            machine.run_frame()
            if asked is None and text_at(machine, 10, 4, 4) == "Stop":  # (a whole line each frame is slow)
                asked = machine.frame_count
    signal_frames = machine.recorder.signal.length / FRAME_T_STATES
    assert (
        signal_frames < asked - ENTER_FRAME < signal_frames + 10
        and text_at(machine, 10, 4, 22) != "Stop the tape, please."
    )
    assert text_at(machine, 2, 9, 14) == "11-UP PATIENCE"
