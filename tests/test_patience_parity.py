"""11-Up Patience: the Python port against the reconstructed listing running on the genuine ROM.

The listing is typed into the real 48K ROM (under SkoolKit) and played with the same INPUT lines
and keys as the port: the pack string, the screen (rows 0-21) and the BASIC variables at every
INPUT, which INPUT asks (the move or the "again" after a refusal), the end screens and every
speaker edge must agree.
"""

from collections import deque
from copy import deepcopy
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import games.patience as patience
from games.patience import play, rules
from spectrum import ReportError, Spectrum, sysvars
from spectrum.beeper import beep_edges
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.oracle import Oracle, Press, Unfinished, Wait, as_read, rows_of

LISTING = (Path(__file__).resolve().parent.parent / "games" / "patience" / "patience.bas").read_text()
RANDOMIZE_LINE = "\n1040 RANDOMIZE\n"
# The harness reads the seed where the listing says RANDOMIZE: the game is that of RANDOMIZE n.
SEEDED = LISTING.replace(RANDOMIZE_LINE, "\n1040 INPUT s: RANDOMIZE s\n")
PACK_ONLY = LISTING + "1 INPUT s: RANDOMIZE s: GO SUB 1400: STOP\n"
ORACLE = Oracle(max_seconds=900)
TITLE_SECONDS = 20  # the typed-out title takes 19 s of Spectrum time before its PAUSE 0
START = [Wait(50 * TITLE_SECONDS), Press(frozenset({"SPACE"}), at_pause=True)]
BREAK = frozenset({"CAPS", "SPACE"})
PROMPTS = {1090: play.MOVE_PROMPT, 1230: play.AGAIN_PROMPT}
ROM_SESSION_LINES = 25  # 5 sessions: 125 lines on the ROM
ROM_FUZZ = settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
PORT_FUZZ = settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))


TYPING_FRAMES = 10  # the least time an entry takes to type
ROW_BYTES = 8 * 32 + 32  # a character row in rows_of: its 8 pixel lines, then its attributes


class ScriptedSpectrum(Spectrum):
    """The port's machine with each INPUT line handed over whole (typing is the layer's own
    business, tested there); it notes the prompt, rows 0-21 and the variables at every INPUT,
    and every BEEP."""

    def __init__(self, lines=(), keys=()):
        super().__init__(HeadlessFrontend(keys))
        self.lines = deque(lines)
        self.screens: list[tuple[str, bytes]] = []
        self.input_variables: list[dict] = []
        self.beeps: list[tuple[float, float]] = []

    def input(self, prompt=""):
        self.screens.append((prompt, rows_of(self.memory)))
        self.input_variables.append(deepcopy(self.variables))
        if not self.lines:
            raise ScriptExhausted("no more INPUT lines")
        for _ in range(TYPING_FRAMES):  # keys let go of in the meantime are free again
            self.wait_frame()
        return self.lines.popleft()

    def beep(self, duration, pitch):
        self.beeps.append((duration, pitch))
        super().beep(duration, pitch)


def typed(text: str) -> str:
    """An INPUT line as the oracle types it: zmakebas escapes, and "" for a quote in the string."""
    return "".join({"\\": "\\\\", '"': '""'}.get(char, char) for char in text)


def rom_game(seed: int, items, *tail):
    """The listing from RUN: title, key, seed, then `items` (INPUT lines, key presses), then
    `tail` (by default: stop at the next INPUT)."""
    script = START + [str(seed)] + [typed(item) if isinstance(item, str) else item for item in items]
    script += list(tail or [Unfinished("")])
    return ORACLE.run(SEEDED, script)


def port_game(seed: int, lines, keys=()) -> tuple[ScriptedSpectrum, str]:
    """The port with the same seed, lines and keys; returns the machine and how it stopped."""
    machine = ScriptedSpectrum(lines, ["SPACE", *keys])
    try:
        patience.run(machine, seed)
        return machine, "returned"
    except ScriptExhausted:
        return machine, "waiting"
    except ReportError as report:
        machine.show_report(report)  # as the host shows it, for `assert_same_report`
        return machine, str(report)


def assert_same_report(result, machine) -> None:
    """The report at the foot of the screen as the ROM shows it, its line and statement too
    (the ROM's SUBPPC has moved on past a STOP or BREAK since, for CONT)."""
    assert rows_of(machine.memory, 22, 23) == result.rows(22, 23)


def rom_screens(result) -> list[tuple[str, bytes]]:
    """(prompt, rows 0-21) at each move INPUT of a ROM run, the unfinished last one included."""
    screens = [(PROMPTS[line], rows) for line, rows in result.input_screens[1:]]  # [0]: the seed
    if result.report.startswith("0 OK"):  # stopped at an Unfinished INPUT line
        line = result.memory[sysvars.PPC] + 256 * result.memory[sysvars.PPC + 1]
        screens.append((PROMPTS[line], result.rows()))
    return screens


def assert_same_screens(result, machine: ScriptedSpectrum) -> None:
    expected = rom_screens(result)
    assert [prompt for prompt, _ in machine.screens] == [prompt for prompt, _ in expected]
    for index, ((_, rom_rows), (_, port_rows)) in enumerate(zip(expected, machine.screens)):
        assert port_rows == rom_rows, f"screen differs at INPUT number {index + 1}"


def assert_same_variables(result, machine: ScriptedSpectrum) -> None:
    """Every variable, by name and value, at each INPUT of the game (the harness's seed `s` aside)."""
    expected = result.input_variables[1:]  # [0]: the seed
    if result.report.startswith("0 OK"):  # stopped at an Unfinished INPUT line
        expected.append(result.variables)
    assert len(machine.input_variables) == len(expected)
    for index, (rom, port) in enumerate(zip(expected, machine.input_variables)):
        rom = {name: value for name, value in rom.items() if name != "s"}
        assert as_read(port) == rom, f"variables differ at INPUT number {index + 1}"


def assert_same_sound(rom_edges, beeps) -> None:
    """The ROM's speaker edges, BEEP by BEEP, are those of the port's BEEP calls."""
    times = [t for t, _ in rom_edges]
    start = 0
    for index, (duration, pitch) in enumerate(beeps):
        expected = beep_edges(duration, pitch)
        got = times[start : start + len(expected)]
        assert [t - got[0] for t in got] == expected, f"BEEP number {index + 1}: {duration}, {pitch}"
        start += len(expected)
    assert start == len(times), "the ROM made more sound than the port"


def dealt_table(seed: int) -> rules.Game:
    """The table of RANDOMIZE seed at its first INPUT."""
    return rules.deal(rules.Game(patience.shuffled_pack(seed).decode("latin-1")))[0]


def greedy_tour(seed: int, opening=()) -> list[str]:
    """`opening`, then the longest legal entry each time until the pack is out or nothing goes."""
    table = dealt_table(seed)
    lines = []
    for entry in opening:
        lines.append(entry)
        if rules.legal(entry, table) and entry != rules.RESIGN_ENTRY:
            table, _ = rules.cover(table, rules.judge(entry, table))
    while not table.pack_out and (entries := rules.legal_entries(table)):
        entry = max(entries, key=len)
        lines.append(entry)
        table, _ = rules.cover(table, rules.judge(entry, table))
    return lines


# --- the pack ----------------------------------------------------------------------------------


@pytest.mark.rom
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(1, 65535))
@example(seed=1)
@example(seed=65535)
def test_pack_after_randomize_and_gosub_1400_is_the_roms(seed):
    result = ORACLE.run(PACK_ONLY, [str(seed)])
    assert result.report.startswith("9 STOP")
    pack = patience.shuffled_pack(seed)
    assert pack == result.variables["p$"]
    records = {pack[i : i + rules.CARD] for i in range(0, len(pack), rules.CARD)}
    assert len(pack) == rules.PACK_END and len(records) == rules.CARDS


@pytest.mark.rom
def test_gosub_1400_straight_after_run_needs_nothing_set_up():
    result = ORACLE.run(LISTING + "1 GO SUB 1400: STOP\n")  # SEED is 0 after power-on
    assert result.report.startswith("9 STOP")
    assert set(result.variables) <= {"p$", "a$", "b$", "c$", "d$", "p", "f", "col", "n", "a"}
    machine = ScriptedSpectrum()
    play.start(machine)
    assert play.made_and_shuffled(machine).encode("latin-1") == result.variables["p$"]


@pytest.mark.rom
def test_shuffle_beeps_are_the_roms():
    result = ORACLE.run(PACK_ONLY, ["4321"])
    machine = ScriptedSpectrum()
    play.start(machine)
    machine.randomize(4321)
    play.made_and_shuffled(machine)
    assert len(machine.beeps) == rules.SHUFFLE_PASSES
    assert_same_sound(result.edges, machine.beeps)


def test_listing_randomizes_in_one_place_outside_the_pack_routine():
    lines = [line for line in LISTING.splitlines() if "RANDOMIZE" in line]
    assert lines == [RANDOMIZE_LINE.strip()]


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.rom
@pytest.mark.parametrize("seed", [3, 500, 65535])
def test_deal_screens_are_the_roms(seed):
    result = rom_game(seed, [])
    machine, _ = port_game(seed, [])
    assert_same_screens(result, machine)
    assert_same_sound(result.edges, machine.beeps)  # the typed title's ticks and the shuffle


ILLEGAL_LINES = ["", "1234", "a", "4a", " 4", "4 ", "10", "01", "00", "44", "474", "5", "-1", "4.", "1e1", '"', "\\"]


@pytest.mark.rom
def test_every_kind_of_illegal_line_changes_nothing_and_9_plays_once():
    seed = 2
    table = dealt_table(seed)
    wrong_pair = next(
        a + b for a in "12345678" for b in "12345678" if a != b and table.value(int(a)) + table.value(int(b)) != 11
    )
    wrong_three = next(e for e in ("123", "456", "678", "135") if sum(table.value(int(c)) for c in e) != 36)
    lines = ILLEGAL_LINES + [wrong_pair, wrong_three, "9", "9", "09"]
    result = rom_game(seed, lines)
    machine, stopped = port_game(seed, lines)
    assert stopped == "waiting"
    assert_same_screens(result, machine)
    assert_same_sound(result.edges, machine.beeps)
    prompts = [prompt for prompt, _ in machine.screens]
    centre = len(ILLEGAL_LINES) + 2
    assert prompts[1 : centre + 1] == [play.AGAIN_PROMPT] * centre  # the empty first line, too
    assert prompts[centre + 1 :] == [play.MOVE_PROMPT, play.AGAIN_PROMPT, play.AGAIN_PROMPT]
    screens = [rows for _, rows in machine.screens]
    assert len(set(screens[: centre + 1])) == 1  # nothing changed until the 9 was played
    assert screens[centre + 1] != screens[centre] and len(set(screens[centre + 1 :])) == 1


@pytest.mark.rom
def test_triples_and_pairs_to_the_end_of_a_game():
    """J+Q+K, and Q+Q+Q and K+K+10, which the listing's sum check lets through, as well."""
    seed = 62
    lines = greedy_tour(seed)
    table_values = []
    table = dealt_table(seed)
    for line in lines:
        table_values.append(sorted(table.value(int(c)) for c in line))
        table, _ = rules.cover(table, rules.judge(line, table))
    assert {(11, 12, 13), (12, 12, 12), (10, 13, 13)} <= {tuple(v) for v in table_values}
    result = rom_game(seed, lines, Press(BREAK, at_pause=True))
    machine, stopped = port_game(seed, lines, [BREAK])
    assert result.report.startswith("L BREAK") and stopped.startswith("L BREAK")
    assert_same_report(result, machine)
    assert_same_screens(result, machine)
    assert [prompt for prompt, _ in machine.screens] == [play.MOVE_PROMPT] * len(lines)
    assert rows_of(machine.memory) == result.rows()
    assert_same_sound(result.edges, machine.beeps)


@pytest.mark.rom
def test_a_won_game_ends_with_the_win_screen_and_the_arpeggio():
    seed = 1
    lines = rules.winning_line(patience.shuffled_pack(seed).decode("latin-1"))
    assert lines is not None
    result = rom_game(seed, lines, Press(BREAK, at_pause=True))
    machine, stopped = port_game(seed, lines, [BREAK])
    assert result.report.startswith("L BREAK into program, 1560")
    assert stopped == "L BREAK into program, 1560:2"  # PAUSE 0 of "Another game?"
    assert_same_report(result, machine)
    assert_same_screens(result, machine)
    assert rows_of(machine.memory) == result.rows()
    assert_same_sound(result.edges, machine.beeps)
    assert machine.beeps[-7:] == [(play.ARPEGGIO_NOTE, p) for p in (0, 4, 7, 12, 16, 19)] + [play.ARPEGGIO_LAST]


@pytest.mark.rom
def test_resigning_shows_the_cards_left_with_the_falling_tones():
    seed = 77
    lines = ["29", "0"]
    result = rom_game(seed, lines, Press(BREAK, at_pause=True))
    machine, stopped = port_game(seed, lines, [BREAK])
    assert result.report.startswith("L BREAK") and stopped.startswith("L BREAK")
    assert_same_report(result, machine)
    assert_same_screens(result, machine)
    assert rows_of(machine.memory) == result.rows()
    assert_same_sound(result.edges, machine.beeps)
    assert machine.beeps[-7:] == [(play.LAMENT_NOTE, p) for p in range(12, -13, -4)]


@pytest.mark.rom
def test_replay_reshuffles_the_same_pack_and_n_says_goodbye():
    seed = 9
    first, second = ["0"], ["9", "9", "0"]
    result = rom_game(
        seed, first + [Press(frozenset({"y"}), at_pause=True)] + second, Press(frozenset({"n"}), at_pause=True)
    )
    machine, stopped = port_game(seed, first + second, ["y", "n"])
    assert result.report.startswith("9 STOP") and stopped == "9 STOP statement, 1590:6"
    assert_same_report(result, machine)
    assert_same_screens(result, machine)
    assert rows_of(machine.memory) == result.rows()
    assert_same_sound(result.edges, machine.beeps)
    assert machine.screens[0][1] != machine.screens[1][1]  # a new deal from the reshuffled p$


@pytest.mark.rom
@pytest.mark.parametrize(
    "seed, first, second",
    [
        (1, None, ["12", "9", "x", "9", "", "09"]),  # the pack runs out in the middle of a pair
        (77, ["29", "xyz", "", "1234", "99", "0"], ["5", "", "9", "0a", "123"]),
        (62, ["12", "a", "\\", "9", "9"], None),
        (40321, None, ["x", "9"]),
    ],
)
def test_the_variables_at_every_input_are_the_roms(seed, first, second):
    """Whole games, a replay after `y` among them: at each INPUT an expression typed in place of
    the quotes sees the listing's variables, every name and value as on the ROM."""
    if first is None:  # the longest moves to the end, resigning if they get stuck
        first, table = greedy_tour(seed), dealt_table(seed)
        for line in first:
            table, _ = rules.cover(table, rules.judge(line, table))
        first += [] if table.pack_out else ["0"]
    items = first + ([Press(frozenset({"y"}), at_pause=True)] + second if second else [])
    result = rom_game(seed, items)
    machine, stopped = port_game(seed, first + (second or []), ["y"] if second else [])
    assert stopped == "waiting"
    assert_same_variables(result, machine)
    assert {"p$", "r$", "z", "z$", "c", "fa", "res", "h", "g", "q", "n", "t$", "col"} <= set(machine.variables)


# --- any INPUT line ---------------------------------------------------------------------------


def listing_verdict(entry: str, table: rules.Game) -> str:
    """Lines 1100-1190 read statement by statement: "illegal", "resign" or "move"."""
    if entry == "" or len(entry) > 3:
        return "illegal"
    z = {}
    for n, char in enumerate(entry, 1):
        if ord(char) < 48 + (len(entry) > 1) or ord(char) > 57:
            return "illegal"
        z[n] = int(char)
    for n in range(len(entry) + 1, 4):
        z[n] = -n
    if (z[1] == z[2]) + (z[1] == z[3]) + (z[2] == z[3]):
        return "illegal"
    if entry == "0":
        return "resign"
    if len(entry) == 1 and (z[1] != 9 or table.centre_used):
        return "illegal"
    if len(entry) == 2 and table.value(z[1]) + table.value(z[2]) != 11:
        return "illegal"
    if len(entry) == 3 and table.value(z[1]) + table.value(z[2]) + table.value(z[3]) != 36:
        return "illegal"
    return "move"


TYPEABLE = st.characters(min_codepoint=32, max_codepoint=126)  # what the keys give in L mode
SHORT_TEXT = st.text(TYPEABLE, max_size=6)
DIGITS = st.text("0123456789", max_size=4)


def dealt(seed: int, centre_used: bool) -> tuple[ScriptedSpectrum, rules.Game]:
    machine = ScriptedSpectrum()
    table = play.dealt_game(machine, seed)
    machine.variables["fa"] = int(centre_used)  # as if 9 had been played
    return machine, replace(table, centre_used=centre_used)


DEALS = [dealt(seed, centre_used) for seed in (1, 62, 1000) for centre_used in (False, True)]


@PORT_FUZZ
@given(data=st.data(), deal=st.sampled_from(range(len(DEALS))))
def test_any_line_on_the_port_is_judged_as_the_listing_does(data, deal):
    before, table = DEALS[deal]
    legal = rules.legal_entries(table)
    entry = data.draw(st.one_of(SHORT_TEXT, DIGITS, *([st.sampled_from(legal)] if legal else [])))
    machine = ScriptedSpectrum([entry])
    machine.memory[:] = before.memory
    before.interpreter.copied(machine)
    verdict = listing_verdict(entry, table)
    after = None
    try:
        after = play.play(machine, table)
        stopped = "returned"
    except ScriptExhausted:
        stopped = "waiting"
    prompt = machine.screens[-1][0]
    if verdict == "illegal":
        assert (stopped, prompt) == ("waiting", play.AGAIN_PROMPT)
        assert machine.screens[-1][1] == rows_of(before.memory)
        assert machine.beeps == [play.ERROR_BEEP]
    elif verdict == "resign":
        assert stopped == "returned" and after.resigned
    else:
        assert (stopped, prompt) == ("waiting", play.MOVE_PROMPT)
        covered, _ = rules.cover(table, tuple(map(int, entry)))
        assert covered.next_card == table.next_card + rules.CARD * len(entry)
        assert covered.centre_used == (table.centre_used or len(entry) == 1)
        moved = [
            row
            for row in range(22)
            if machine.screens[-1][1][ROW_BYTES * row : ROW_BYTES * (row + 1)]
            != rows_of(before.memory)[ROW_BYTES * row : ROW_BYTES * (row + 1)]
        ]
        assert moved and set(moved) <= {rules.row(int(p)) + n for p in entry for n in range(5)}


@st.composite
def rom_sessions(draw):
    """25 lines for one game: arbitrary text and legal moves, never a resign, and no move once
    the pack runs low (so the game is still on at the end)."""
    seed = draw(st.integers(1, 65535))
    table = dealt_table(seed)
    lines = []
    while len(lines) < ROM_SESSION_LINES:
        plenty = table.cards_left > 9  # no move can use up the pack: the game goes on
        legal = rules.legal_entries(table) if plenty else []
        choices = [SHORT_TEXT, DIGITS] + ([st.sampled_from(legal)] if legal else [])
        entry = draw(st.one_of(*choices).filter(lambda text: text != "0" and (plenty or not rules.legal(text, table))))
        lines.append(entry)
        if rules.legal(entry, table) and entry != rules.RESIGN_ENTRY:
            table, _ = rules.cover(table, rules.judge(entry, table))
    return seed, lines


@pytest.mark.rom
@ROM_FUZZ
@given(session=rom_sessions())
def test_any_lines_on_the_rom_are_judged_alike(session):
    seed, lines = session
    result = rom_game(seed, lines)
    machine, stopped = port_game(seed, lines)
    assert stopped == "waiting"
    assert_same_screens(result, machine)
    assert_same_variables(result, machine)
    for (_, before), (prompt, after) in zip(machine.screens, machine.screens[1:]):
        if prompt == play.AGAIN_PROMPT:
            assert after == before


# --- the port on its own: keys typed, BREAK ------------------------------------------------------


def test_typed_entries_play_as_lines_handed_over():
    """The same game through the keyboard (the layer's INPUT) as with whole lines handed over."""
    seed = 1
    lines = rules.winning_line(patience.shuffled_pack(seed).decode("latin-1"))
    presses = ["SPACE"] + [key for line in lines for key in [*line, "ENTER"]] + ["n"]
    typed_machine = Spectrum(HeadlessFrontend(presses))
    with pytest.raises(ReportError, match="^9 STOP statement, 1590:6$"):
        patience.run(typed_machine, seed)
    handed, stopped = port_game(seed, lines, ["n"])
    assert stopped == "9 STOP statement, 1590:6"
    assert rows_of(typed_machine.memory) == rows_of(handed.memory)
    assert typed_machine.screen_char(10, 6) == "T"  # "Thanks for playing."


def test_break_leaves_the_game_with_the_roms_report():
    machine = Spectrum(HeadlessFrontend([BREAK]))
    with pytest.raises(ReportError) as report:
        patience.run(machine, 5)
    assert str(report.value) == "L BREAK into program, 1670:2"  # the title's PAUSE 0, as the ROM shows it
