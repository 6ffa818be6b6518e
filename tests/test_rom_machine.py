"""The live ROM machine: tapes it loads and refuses, its sound, and where two screens differ."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from spectrum import hardware
from spectrum.beeper import beep_edges
from spectrum.compare import KeyWait, cell_of, differing_cells, first_difference, first_lateness
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.basic import listing_text, lowercase_keyword, tokenize
from spectrum.oracle import Oracle, OracleError, Z80Spectrum, booted, check_room
from spectrum.rom_machine import BeeperStream, LivePorts, ProgramFileError, RomSpectrum
from spectrum.z80 import PC, T
from spectrum.sound import edges_to_samples
from spectrum.tape import TapeError, block, program_tap, read_blocks

PROGRAM = '10 PRINT AT 3,4;"LOADED"\n20 PAUSE 10: BEEP .05,0\n30 INPUT "name? ";n$: PRINT AT 5,4;n$\n'


def run_until_keys_run_out(machine: RomSpectrum, frames: int = 5000) -> RomSpectrum:
    with pytest.raises(ScriptExhausted):
        for _ in range(frames):
            machine.run_frame()
    return machine


def text_at(machine, row: int, col: int, length: int) -> str:
    """The ROM-font characters in a run of cells (what SCREEN$ reads), '?' for anything else."""
    font = 0x3D00
    chars = []
    for c in range(col, col + length):
        address = hardware.DISPLAY_FILE + ((row & 0x18) << 8) + ((row & 7) << 5) + c
        cell = bytes(machine.memory[address + 256 * line] for line in range(8))
        found = [code for code in range(32, 128) if bytes(machine.memory[font + 8 * (code - 32) :][:8]) == cell]
        chars.append(chr(found[0]) if found else "?")
    return "".join(chars)


@pytest.mark.rom
def test_a_tape_loads_with_load_and_autostarts(tmp_path):
    tap = program_tap("demo", Oracle().program_bytes(PROGRAM), autostart=10)
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(list("Ann") + ["ENTER"]), tap))
    assert text_at(machine, 3, 4, 6) == "LOADED" and text_at(machine, 5, 4, 3) == "Ann"
    assert machine.program_stopped  # "0 OK, 30:2" at the command line


@pytest.mark.rom
def test_a_tape_without_autostart_stops_at_the_command_line_and_runs_when_told():
    tap = program_tap("demo", Oracle().program_bytes(PROGRAM))
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), tap))
    assert machine.program_stopped and text_at(machine, 3, 4, 6) != "LOADED"
    machine.frontend.presses.extend(HeadlessFrontend(["r", "ENTER", "x", "ENTER"]).presses)  # R is RUN in K mode
    run_until_keys_run_out(machine)
    assert text_at(machine, 3, 4, 6) == "LOADED" and text_at(machine, 5, 4, 1) == "x"


@pytest.mark.parametrize(
    "tap, why",
    [
        (b"", "empty"),
        (b"\x13", "stray byte"),
        (b"\x13\x00\x00\x00", "cut short"),
        (program_tap("demo", b"\x00\x0a")[:-1] + b"\x00", "checksum"),
        (b"10 PRINT 1\n", "cut short"),
    ],
)
def test_what_is_not_a_tape_is_said_in_one_line(tap, why):
    with pytest.raises(TapeError, match=why) as error:
        read_blocks(tap)
    assert "\n" not in str(error.value)


def test_a_tape_with_no_program_or_only_its_header_is_refused_when_loaded_at_once():
    """Loaded at once (`fast`), a tape the ROM would fail to load is refused before it runs."""
    code_only = bytes([4, 0, 0xFF, 1, 2, 0xFC])  # one data block: flag, two bytes, checksum
    with pytest.raises(TapeError, match="no BASIC program"):
        RomSpectrum.loading(HeadlessFrontend(), code_only)  # at tape speed too
    tap = program_tap("demo", b"\x00\x0a\x02\x00\xf7\x0d")  # 10 RUN
    header_only = tap[: 2 + 19]
    with pytest.raises(TapeError, match="not followed by the program"):
        RomSpectrum.loading(HeadlessFrontend(), header_only, fast=True)
    with pytest.raises(TapeError, match="header says 6 bytes, and its block holds 2$"):
        RomSpectrum.loading(HeadlessFrontend(), header_only + block(0xFF, b"\x00\x0a"), fast=True)  # shorter than said
    with pytest.raises(TapeError, match="header says 6 bytes, and its block holds 7$"):
        RomSpectrum.loading(HeadlessFrontend(), header_only + block(0xFF, b"\x00\x0a\x02\x00\xf7\x0d\x00"), fast=True)


@pytest.mark.rom
def test_a_tape_with_two_programs_runs_the_first_and_waits_with_the_second_left_on_the_tape():
    """The ROM loads the first program and runs it; the second stays on the tape, unread, while the
    editor waits (the run ends when the keys run out), and LOAD "" reads it then."""
    first, second = (
        program_tap(name, Oracle().program_bytes(f'10 PRINT "{name.upper()}"\n'), autostart=10)
        for name in ("first", "second")
    )
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), first + second))
    assert machine.program_stopped and text_at(machine, 2, 0, 5) == "FIRST"
    assert text_at(machine, 23, 0, 10) == "0 OK, 10:1"
    machine.frontend.presses.extend(HeadlessFrontend(["j", '"', '"', "ENTER"]).presses)  # J is LOAD in K mode
    run_until_keys_run_out(machine)
    assert machine.program_stopped and text_at(machine, 5, 0, 6) == "SECOND"


@pytest.mark.rom
def test_a_program_too_big_for_a_48k_stops_at_its_header_with_out_of_memory_and_waits():
    """The header says 60,000 bytes: the ROM reports 4 Out of memory and leaves the program's block
    on the tape; the editor waits for a key as after any report."""
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), program_tap("big", bytes(60_000))))
    assert machine.program_stopped and machine.tape and text_at(machine, 23, 0, 15) == "4 Out of memory"


def code_blocks(name: str, start: int, code: bytes) -> bytes:
    """A CODE header (type 3) and its data block, as SAVE name CODE start,length writes them."""
    header = bytes([3]) + name.ljust(10).encode() + len(code).to_bytes(2, "little") + start.to_bytes(2, "little")
    return block(0x00, header + (32768).to_bytes(2, "little")) + block(0xFF, code)


@pytest.mark.rom
def test_a_basic_loader_loads_the_code_after_it_on_the_tape():
    loader = program_tap(
        "loader", Oracle().program_bytes('10 LOAD "" CODE\n20 PRINT PEEK 40000;" ";PEEK 40001\n'), autostart=10
    )
    tape = loader + code_blocks("data", 40000, b"*c")
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), tape))
    assert machine.program_stopped and not machine.tape and text_at(machine, 4, 0, 5) == "42 99"


@pytest.mark.rom
def test_a_load_with_no_tape_left_waits_as_a_spectrum_does_until_break():
    """LOAD "" CODE with nothing left on the tape: the ROM's loader waits for a signal or BREAK, so a
    headless run ends there when its keys are used up, and BREAK stops the program."""
    loader = program_tap("loader", Oracle().program_bytes('10 LOAD "" CODE\n'), autostart=10)
    machine = run_until_keys_run_out(RomSpectrum.loading(HeadlessFrontend(), loader))
    assert not machine.program_stopped and text_at(machine, 23, 0, 1) == " "
    machine.frontend.presses.extend(HeadlessFrontend([("CAPS", "SPACE")]).presses)
    run_until_keys_run_out(machine)
    assert machine.program_stopped and text_at(machine, 23, 0, 22) == "D BREAK - CONT repeats"


def sounds(samples: np.ndarray, silence: int = 100) -> list[np.ndarray]:
    """The pieces of `samples` between silences of at least `silence` samples."""
    sounding = np.flatnonzero(samples)
    if not len(sounding):
        return []
    breaks = np.flatnonzero(np.diff(sounding) > silence)
    starts = np.concatenate([[sounding[0]], sounding[breaks + 1]])
    ends = np.concatenate([sounding[breaks], [sounding[-1]]]) + 1
    return [samples[start:end] for start, end in zip(starts, ends)]


@pytest.mark.rom
def test_the_rom_beep_sounds_as_the_layer_renders_a_beep():
    """BEEP .05,0 on the ROM (a tape program) and the samples `edges_to_samples` makes of the
    layer's BEEP: the same square wave, sample for sample but where an edge falls; the key
    clicks are short sounds of their own."""
    frontend = HeadlessFrontend(["x", "ENTER"])
    tap = program_tap("demo", Oracle().program_bytes(PROGRAM), autostart=10)
    run_until_keys_run_out(RomSpectrum.loading(frontend, tap, fast=True)).flush_sound()  # no tape heard
    pieces = sounds(frontend.audio())
    beep = edges_to_samples(beep_edges(0.05, 0))
    clicks = [piece for piece in pieces if len(piece) < 20]
    (rom,) = [piece for piece in pieces if len(piece) >= 20]
    assert len(clicks) >= 2  # the INPUT's keys
    assert abs(len(rom) - len(beep)) <= 1
    assert np.count_nonzero(rom[: len(beep)] != beep[: len(rom)]) < len(beep) // 20


@settings(deadline=None)
@given(gaps=st.lists(st.integers(50, 3 * hardware.FRAME_T_STATES), min_size=1, max_size=30), chunk=st.integers(1, 2000))
def test_the_beeper_stream_is_the_same_cut_into_any_chunks(gaps, chunk):
    times = list(np.cumsum(gaps) + 1000)
    whole, pieces = BeeperStream(0, 0), BeeperStream(0, 0)
    whole.edges, pieces.edges = list(times), list(times) + [times[-1] + 10**7]
    whole.edges.append(times[-1] + 10**7)
    end = int(times[-1] / (3_500_000 / 44_100)) + 10
    together = whole.samples(0, end)
    apart = np.concatenate([pieces.samples(first, min(first + chunk, end)) for first in range(0, end, chunk)])
    np.testing.assert_array_equal(together, apart)
    assert np.abs(together).max() <= 8192


@given(offset=st.integers(0, 6911))
def test_every_screen_byte_belongs_to_its_cell(offset):
    row, col = cell_of(offset)
    if offset < 6144:
        assert hardware.DISPLAY_FILE + offset - (
            ((row & 0x18) << 8) + ((row & 7) << 5) + col
        ) - hardware.DISPLAY_FILE in range(0, 8 * 256, 256)
    else:
        assert offset - 6144 == 32 * row + col


def test_the_first_different_key_wait_and_cell_are_found():
    screen = bytes(6912)
    changed = bytearray(screen)
    changed[6144 + 32 * 23 + 5] = 1  # the lower screen's attribute at row 23, column 5
    changed[6144 + 32 * 9 + 30] = 1
    same, other = KeyWait(10, screen), KeyWait(50, bytes(changed))
    assert first_difference([same, same], [same, KeyWait(60, screen)]) is None
    found = first_difference([same, same], [KeyWait(40, screen), other])
    assert (found.frame, found.row, found.column, found.key_wait) == (50, 9, 30, 2)
    report = bytearray(screen)
    report[6144 + 32 * 23 + 5] = 1
    assert first_difference([same], [KeyWait(70, bytes(report))]).row == 23
    # a program stopped: its report below counts too ("9 STOP statement, 1590:6")
    assert first_difference([same], [KeyWait(70, bytes(report), stopped=True)]).row == 23
    assert differing_cells(screen, bytes(changed)) == [(9, 30), (23, 5)]
    assert first_difference([same], [same, other]).key_wait == 2  # one waits again, the other not
    # both programs stopped: what follows is typed at the ROM's command line, which the port has not
    ended = KeyWait(80, screen, stopped=True)
    assert first_difference([same, ended], [same, ended, other]) is None
    assert first_difference([same, ended], [same, KeyWait(80, screen), other]).key_wait == 3
    assert first_lateness([same, ended], [same, ended, KeyWait(900, screen)], [100], [100, 80 * 69888 + 5]) is None
    assert (
        first_lateness(
            [same, KeyWait(80, screen)], [same, KeyWait(80, screen), KeyWait(900, screen)], [100], [100, 80 * 69888 + 5]
        )
        == "the port made 1 sounds, the ROM 2"
    )


@pytest.mark.rom
def test_a_listing_file_is_typed_in_and_run(tmp_path):
    listing = tmp_path / "demo.bas"
    listing.write_text(PROGRAM)
    machine = run_until_keys_run_out(RomSpectrum.from_file(HeadlessFrontend(["y", "ENTER"]), listing))
    assert text_at(machine, 3, 4, 6) == "LOADED" and text_at(machine, 5, 4, 1) == "y"


@pytest.mark.rom
@pytest.mark.parametrize(
    "name, content, why",
    [
        ("notes.tap", b"10 PRINT 1\n", "cut short"),
        ("picture.png", b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
        ("readme.txt", b"# A heading\n", "no line number"),
        ("empty.bas", b"\n\n", "no lines"),
        ("bad.bas", b'10 PRINT "unclosed\n', "rejected line 10"),
        ("lower.bas", b'10 print "x"\n', r"rejected line 10 \(a keyword is typed in capitals: PRINT, not print\)$"),
        (
            "goto.bas",
            b'10 PRINT "GOTO"\n20 GOTO 10\n',
            r"rejected line 20 \(the keyword is GO TO, with its space, not GOTO\)$",
        ),
        ("gosub.bas", b'10 gosub 20\n', r"rejected line 10 \(the keyword is GO SUB, with its space, not gosub\)$"),
        ("deffn.bas", b'10 DEFFN f(x)=x\n', r"rejected line 10 \(the keyword is DEF FN, with its space, not DEFFN\)$"),
        ("tab.bas", b"10 PRINT 1\n20 PRINT\t2\n", r": listing line 2 \(20\): character '\\t' has no Spectrum code"),
        ("game.tzx", b"ZXTape!\x1a\x01\x14\x10\x00\x00\x13\x00", "a .tzx tape, which zxcards does not read"),
    ],
)
def test_a_file_that_is_no_tape_and_no_listing_is_said_in_one_line(tmp_path, name, content, why):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ProgramFileError, match=why) as error:
        RomSpectrum.from_file(HeadlessFrontend(), path)
    assert str(error.value).startswith(f"{path}: ") and "\n" not in str(error.value)


def rem_lines(numbers, length: int) -> str:
    return "".join(f"{number} REM {'x' * length}\n" for number in numbers)


def test_a_listing_that_cannot_fit_is_refused_before_a_key_is_typed():
    """Counted as the program stands after each line: a line typed again replaces the last, a bare
    number deletes it; a REM of n characters is stored in n + 6 bytes (number, length, REM, ENTER)."""
    check_room(rem_lines([10, 10, 10], 994), room=1000)  # one line of 1,000 bytes, typed three times
    check_room(rem_lines([10], 994) + "10\n" + rem_lines([20], 994), room=1000)
    with pytest.raises(OracleError, match=r"^4 Out of memory: by line 20 the program takes at least 1,006 bytes"):
        check_room(rem_lines([10], 994) + rem_lines([20], 0), room=1000)
    with pytest.raises(OracleError, match="by line 202 "):  # never read so far: the last lines are no BASIC
        check_room(rem_lines(range(1, 9000), 200) + "9 PRINT \\z\n" * 20_000, room=41_520)


@pytest.mark.rom
def test_what_the_rom_says_while_a_listing_is_typed_in_is_said():
    """With RAMTOP low, lines fill the memory quickly: the ROM says 4 Out of memory at a line's
    ENTER, and drops (with a rasp) a key it has no room for."""
    machine = Z80Spectrum(*booted())
    machine.type_line(tokenize("CLEAR 24500"))
    for number in range(1, 6):
        machine.type_line(f"{number}".encode() + tokenize(f"REM {'x' * 100}"), reject_check=number)
    with pytest.raises(OracleError, match="^line 6: the ROM says 4 Out of memory$"):
        machine.type_line(b"6" + tokenize(f"REM {'x' * 100}"), reject_check=6)
    with pytest.raises(OracleError, match="^4 Out of memory: no room to type line 1$"):
        machine.type_line(b"1" + tokenize(f"REM {'z' * 200}"), reject_check=1)


@pytest.mark.rom
def test_a_listing_too_big_for_a_48k_is_refused_as_a_file_before_it_runs(tmp_path):
    listing = tmp_path / "big.bas"
    listing.write_text(rem_lines(range(1, 261), 200))  # 1-200 fit; the ROM says 4 Out of memory at line 201
    frontend = HeadlessFrontend()
    with pytest.raises(ProgramFileError, match=f"^{listing}: 4 Out of memory: by line 202 "):
        RomSpectrum.from_file(frontend, listing)
    assert frontend.frames_presented == 0


def test_a_keyword_in_small_letters_is_found_outside_strings_and_rem():
    assert lowercase_keyword(tokenize('PRINT "print": let a=1')) == "let"
    assert lowercase_keyword(tokenize('PRINT "goto": REM print')) is None
    assert lowercase_keyword(tokenize("LET total=1")) is None  # a name, not a keyword
    assert listing_text(b"\xef\xbb\xbf10 PRINT 1\r\n") == "10 PRINT 1\r\n"


@pytest.mark.rom
def test_a_listing_saved_with_a_byte_order_mark_and_windows_line_ends_runs(tmp_path):
    listing = tmp_path / "notepad.bas"
    listing.write_bytes(b'\xef\xbb\xbf10 PRINT AT 3,4;"LOADED"\r\n20 PAUSE 0\r\n')
    machine = run_until_keys_run_out(RomSpectrum.from_file(HeadlessFrontend(), listing))
    assert text_at(machine, 3, 4, 6) == "LOADED"


@pytest.mark.rom
@pytest.mark.parametrize("waiting", ['10 IF INKEY$="" THEN GO TO 10', "10 IF IN 57342=255 THEN GO TO 10", "10 PAUSE 0"])
def test_a_scripted_key_is_typed_when_the_program_waits_for_one(waiting):
    """INKEY$ or IN in a loop, or PAUSE 0: the program reads the keys, so a scripted press goes in."""
    machine = RomSpectrum.running(HeadlessFrontend(["p"]), f'{waiting}\n20 PRINT AT 3,4;"GOT IT"\n30 PAUSE 100\n')
    run_until_keys_run_out(machine, frames=200)
    assert text_at(machine, 3, 4, 6) == "GOT IT" and machine.program_stopped


@pytest.mark.rom
def test_scroll_is_a_key_wait_inside_the_program_and_the_report_one_after_it():
    machine = RomSpectrum.running(HeadlessFrontend(), "10 FOR i=1 TO 30: PRINT i: NEXT i\n")
    run_until_keys_run_out(machine, frames=500)
    assert machine.awaiting_key and not machine.program_stopped  # "scroll?"
    machine.frontend.presses.extend(HeadlessFrontend(["y"]).presses)
    run_until_keys_run_out(machine, frames=500)
    assert machine.program_stopped  # "0 OK, 10:3"


@pytest.mark.parametrize(
    "code, after",
    [
        (b"\xd3\xfe", 8),  # OUT (n),A: opcode 4, operand 3, the I/O cycle's first T-state
        (b"\xed\x79", 9),
        (b"\xed\x71", 9),  # OUT (C),A and OUT (C),0: two opcode fetches, then the same
        (b"\xed\xa3", 13),
        (b"\xed\xab", 13),
        (b"\xed\xb3", 13),
        (b"\xed\xbb", 13),
    ],
)  # OUTI OUTD OTIR OTDR: (HL) read
def test_a_border_change_is_timed_when_the_ula_sees_the_port_written(code, after):
    """Fuse's timings of an OUT to port $FE (uncontended): the T-state the border changes at is the
    instruction's start and the T-states its fetches and reads take before the write."""
    memory = bytearray(65536)
    memory[0x8000 : 0x8000 + len(code)] = code
    ports = LivePorts(memory)
    registers = [0] * 30
    registers[PC], registers[T] = 0x8000, 1_000
    ports.write_port(registers, 0xFE, 2)
    assert ports.border_changes == [(1_000 + after, 2)]
