"""Keys: INKEY$, the keyboard interrupt with PAUSE, and INPUT line editing, against the ROM."""

from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from spectrum import hardware, keyboard, rom, sysvars
from spectrum.frontends import HeadlessFrontend, Leave, ScriptExhausted, presses_from
from spectrum.frontends.headless import Press as ScriptedPress
from spectrum.machine import Spectrum
from spectrum.oracle import Oracle, OracleError, Press, Unfinished, rows_of

ORACLE = Oracle(max_seconds=60)
PLAIN_KEYS = sorted(keyboard.KEY_NAMES - {"CAPS", "SYMBOL"})
COMBINATIONS = [
    frozenset({key, *shift})
    for shift in ((), ("CAPS",), ("SYMBOL",))
    for key in PLAIN_KEYS
    if {key, *shift} != {"CAPS", "SPACE"}
]  # CAPS+SPACE is BREAK


@pytest.mark.rom
@pytest.mark.parametrize("keys", COMBINATIONS, ids=["+".join(sorted(k)) for k in COMBINATIONS])
def test_inkey_decodes_every_key_as_the_rom(keys):
    result = ORACLE.run('10 LET a$=INKEY$: IF a$="" THEN GO TO 10\n', [Press(keys, hold=10)])
    machine = Spectrum()
    machine.keys_held = set(keys)
    assert machine.inkey().encode("latin-1") == result.variables["a$"]


@pytest.mark.rom
@pytest.mark.parametrize(
    "keys",
    [
        frozenset({"a"}),
        frozenset({"CAPS", "a"}),
        frozenset({"SYMBOL", "p"}),
        frozenset({"CAPS", "5"}),
        frozenset({"ENTER"}),
        frozenset({"SYMBOL", "a"}),
    ],
)
def test_pause_0_ends_on_a_key_and_leaves_its_code_in_last_k(keys):
    result = ORACLE.run("10 PAUSE 0: LET k=PEEK 23560\n", [Press(keys, at_pause=True)])
    machine = Spectrum(HeadlessFrontend([keys]))
    machine.pause(0)
    assert machine.peek(sysvars.LAST_K) == result.variables["k"]
    assert not machine.peek(sysvars.FLAGS) & sysvars.Flags.NEW_KEY


def test_pause_n_counts_n_frames_and_ends_early_on_a_key():
    machine = Spectrum()
    machine.pause(50)
    assert machine.peek(sysvars.FRAMES) == 50 and machine.frame_count == 50
    machine = Spectrum(HeadlessFrontend(["a"]))
    machine.awaiting_key = True
    with pytest.raises(ScriptExhausted):
        machine.pause(0)
        machine.pause(0)


def test_held_key_repeats_after_repdel_then_every_repper_frames():
    machine = Spectrum(HeadlessFrontend(["q"], hold_frames=60))
    new_key_frames = []
    for frame in range(60):
        machine.wait_frame(awaiting_key=True)
        if machine.take_key() is not None:
            new_key_frames.append(frame)
    assert new_key_frames[:4] == [0, 35, 40, 45]


@st.composite
def edits(draw):
    """Codes typed at an INPUT prompt that keep the cursor between the quotes."""
    codes, length, cursor = [], 0, 0
    printable = [code for code in range(32, 128) if keyboard.keys_for_code(code) and code != ord('"')]
    for _ in range(draw(st.integers(0, 25))):
        choice = draw(st.sampled_from(["type", "type", "type", "delete", "left", "right"]))
        if choice == "type" and length < 40:
            codes.append(draw(st.sampled_from(printable)))
            length, cursor = length + 1, cursor + 1
        elif choice == "delete" and cursor:
            codes.append(rom.DELETE)
            length, cursor = length - 1, cursor - 1
        elif choice == "left" and cursor:
            codes.append(rom.CURSOR_LEFT)
            cursor -= 1
        elif choice == "right" and cursor < length:
            codes.append(rom.CURSOR_RIGHT)
            cursor += 1
    return codes


@pytest.mark.rom
@settings(max_examples=100, deadline=None)
@given(codes=edits())
def test_input_line_editing_gives_the_roms_string(codes):
    typed = "".join(f"\\{{{code}}}" if code < 32 or code in (92, 127) else chr(code) for code in codes)
    result = ORACLE.run('10 INPUT "Move? ";a$\n', [typed])
    presses = [keyboard.keys_for_code(code) for code in codes] + [frozenset({"ENTER"})]
    machine = Spectrum(HeadlessFrontend(presses))
    assert machine.input("Move? ").encode("latin-1") == result.variables["a$"]
    assert (machine.memory[hardware.ATTRIBUTES + 22 * 32 : hardware.ATTRIBUTES + 768] == 0x38).all()


@pytest.mark.rom
@pytest.mark.parametrize("typed, expected", [('""', b'"'), ('a""b""', b'a"b"'), ('"', None), ('a"b', None)])
def test_input_reads_the_entry_as_a_string_literal(typed, expected):
    presses = [keyboard.keys_for_char(ch) for ch in typed] + [frozenset({"ENTER"})]
    machine = Spectrum(HeadlessFrontend(presses))
    script = [typed]
    if expected is None:  # a syntax error: the ROM and the layer both go on waiting at the prompt
        with pytest.raises(OracleError, match="INPUT wanted"):
            ORACLE.run('10 INPUT a$\n', script)
        with pytest.raises(ScriptExhausted):
            machine.input()
        return
    assert ORACLE.run('10 INPUT a$\n', script).variables["a$"] == expected
    assert machine.input().encode("latin-1") == expected


@pytest.mark.rom
@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("abcXYZ019 .,;:!?"), max_size=55),
    prompt=st.sampled_from(["", "Move? ", "Which cards (0 to resign)? "]),
)
def test_the_input_line_shows_in_the_lower_screen_as_on_the_rom(text, prompt):
    text = text[: 63 - 3 - len(prompt)]  # the line stays within the lower screen's two lines
    result = ORACLE.run(f'10 INPUT "{prompt}";a$\n', [Unfinished(text)])
    machine = Spectrum(HeadlessFrontend(list(text)))
    with pytest.raises(ScriptExhausted):
        machine.input(prompt)
    assert rows_of(machine.memory, 0, 23) == result.rows(0, 23)


# --- the host's leave key and the named presses of a key script ----------------------------------


def test_named_presses_are_the_editing_keys_and_an_unknown_name_lists_them():
    assert presses_from([["DELETE"], ["LEFT"], ["BREAK"], "RIGHT", ["CAPS", "5"]]) == [
        frozenset({"CAPS", "0"}),
        frozenset({"CAPS", "5"}),
        frozenset({"CAPS", "SPACE"}),
        frozenset({"CAPS", "8"}),
        frozenset({"CAPS", "5"}),
    ]
    with pytest.raises(ValueError, match="no key 'BACKSPACE': the keys are ENTER.*DELETE.*ESC"):
        presses_from([["BACKSPACE"]])


@pytest.mark.parametrize("waiting", ["input", "scroll"])
def test_the_leave_key_stops_the_program_even_at_input_and_scroll(waiting):
    machine = Spectrum(HeadlessFrontend(["a", "b", ["ESC"], "c"]))
    with pytest.raises(Leave):
        if waiting == "input":
            machine.input("Move? ")
        else:
            for line in range(60):  # "scroll?" after the first scroll and every 22 more
                machine.print_at(21, 0, f"line {line}\r\r")
    assert machine.frontend.presses == deque([ScriptedPress(frozenset({"c"}))])


def test_break_in_input_types_a_space_as_on_the_rom():
    machine = Spectrum(HeadlessFrontend(["a", ["BREAK"], "b", "ENTER"]))
    assert machine.input() == "a b"
