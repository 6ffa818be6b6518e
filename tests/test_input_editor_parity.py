"""INPUT key by key: the layer's editor against the ROM's, both typed on the key matrix.

Each key goes down on the matrix on both machines and is decoded by each keyboard interrupt in
the mode its editor's cursor asks for. A plain ``INPUT a$`` / ``INPUT n`` program and the prompts
of 11-Up Patience are typed at with long entries, keywords, edits, deleted quotes and expressions;
the screen (all 24 rows while the INPUT is still open), the value taken and the report must agree.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import re

import games.patience as patience
from games.patience import play, rules
from spectrum import ReportError, Spectrum, keyboard, sysvars
from spectrum.basic import tokenize
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.oracle import Oracle, Press, TypedKeys, Unfinished, Wait, as_read, rows_of

pytestmark = pytest.mark.rom
ORACLE = Oracle(max_seconds=900)
EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

ENTER = frozenset({"ENTER"})
E_MODE = frozenset({"CAPS", "SYMBOL"})
DELETE, LEFT, RIGHT, DOWN, UP = (frozenset({"CAPS", key}) for key in "05867")
EDIT, CAPS_LOCK, GRAPHICS = (frozenset({"CAPS", key}) for key in "129")
QUOTE = frozenset({"SYMBOL", "p"})
AT = frozenset({"SYMBOL", "i"})
FUNCTION_KEYS = {
    "VAL": "j",
    "STR$": "y",
    "CHR$": "u",
    "CODE": "i",
    "LEN": "k",
    "BIN": "b",
    "RND": "t",
    "INKEY$": "n",
    "PEEK": "o",
    "PI": "m",
    "INT": "r",
    "SIN": "q",
    "COS": "w",
    "TAN": "e",
    "LN": "z",
    "EXP": "x",
    "SQR": "h",
    "USR": "l",
}  # in E mode
# in E mode with SYMBOL SHIFT
E_SYMBOL_KEYS = {
    "FN": "2",
    "POINT": "8",
    "SCREEN$": "k",
    "ATTR": "l",
    "VAL$": "j",
    "IN": "i",
    "ASN": "q",
    "ACS": "w",
    "ATN": "e",
}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Keys whose codes the layer takes as the ROM does wherever they land (the E-mode keys, among
# them USR, which would run machine code, are typed in E mode only, between the quotes)
SYMBOL_KEYS = [frozenset({"SYMBOL", key}) for key in "asdfgjklzxcvbnmqweryuiot12345678909h"]
PLAIN_KEYS = [frozenset({key}) for key in LETTERS + "123456789"] + [frozenset({"SPACE"})]
SHIFTED_KEYS = [frozenset({"CAPS", key}) for key in LETTERS]
MOVING_KEYS = [DELETE, LEFT, RIGHT, DOWN, UP]
OTHER_KEYS = [CAPS_LOCK, frozenset({"CAPS", "3"}), frozenset({"CAPS", "4"}), EDIT]


def typing(text: str) -> list[frozenset[str]]:
    return [keyboard.keys_for_char(char) for char in text]


def function(name: str) -> list[frozenset[str]]:
    return [E_MODE, frozenset({FUNCTION_KEYS[name]})]


KEYWORD_KEYS = (
    {"TO": [frozenset({"SYMBOL", "f"})], "AND": [frozenset({"SYMBOL", "y"})]}
    | {name: function(name) for name in FUNCTION_KEYS}
    | {name: [E_MODE, frozenset({"SYMBOL", key})] for name, key in E_SYMBOL_KEYS.items()}
)


def keyed(text: str) -> list[frozenset[str]]:
    """The presses that type `text`, its keywords (TO, STR$, CHR$, …) with their own keys."""
    presses = []
    for part in re.split(r"(\bTO\b|[A-Z]+\$?)", text):
        presses += KEYWORD_KEYS[part] if part in KEYWORD_KEYS else typing(part.replace(" ", ""))
    return presses


# --- what a player types -----------------------------------------------------------------------

# Strings from the programs' variables (the plain program's or Patience's; a name the other has
# not is 2 Variable not found on both), their DEF FNs and what the ROM reads from the machine
PROGRAM_STRINGS = [
    "w$",
    "p$(2 TO 6)",
    "r$(3)",
    "r$(9,2)",
    "f$+e$",
    "STR$ c",
    "STR$ (h+g)",
    "STR$ z(2)",
    "STR$ v",
    "STR$ FN c(3)",
    "STR$ FN f(2)",
    "STR$ INT (RND*9)",
    "STR$ PEEK 23560",
    "STR$ ATTR (1,1)",
    "STR$ POINT (3,170)",
    "STR$ BIN 1011",
    "STR$ INT (1E6*SIN v)",
    "STR$ (2^3+SQR 16)",
    'STR$ USR "a"',
]


@st.composite
def expressions(draw, depth=0):
    """Key presses for a string expression: literals, +, STR$ (of VAL), CHR$, the programs'
    variables and functions; never "0"."""
    kinds = ["literal", "literal", "join", "str", "chr", "program"] if depth < 2 else ["literal"]
    kind = draw(st.sampled_from(kinds))
    if kind == "literal":
        return [QUOTE, *typing(draw(st.text(LETTERS + "123456789 .", max_size=6))), QUOTE]
    if kind == "program":  # after a letter, so that it is never "0"
        return [QUOTE, *typing("x"), QUOTE, *typing("+"), *keyed(draw(st.sampled_from(PROGRAM_STRINGS)))]
    if kind == "join":
        return draw(expressions(depth + 1)) + typing("+") + draw(expressions(depth + 1))
    if kind == "str":
        # not between -1 and 1: the ROM's STR$ of such a number spoils what was stacked before it
        number = draw(st.sampled_from(["12", "3.5", "1+2", "7*8", "5/4", "-5"]))
        if draw(st.booleans()):
            return function("STR$") + [*function("VAL"), QUOTE, *typing(number), QUOTE]
        return function("STR$") + typing(number)
    return function("CHR$") + typing(str(draw(st.integers(32, 127).filter(lambda code: code != 48))))


@st.composite
def entries(draw, anywhere: bool):
    """One INPUT's key presses: typing, keywords, long runs and edits between the quotes, and
    sometimes, last, the quotes cleared away (EDIT) for an expression. With `anywhere` the
    edits may also take the cursor past the quotes, so that letters become names."""
    presses: list[frozenset[str]] = []
    length = cursor = 0  # between the quotes
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(
            st.sampled_from(
                ["type", "type", "keywords", "run", "move", "modes", "expression"] + (["anything"] if anywhere else [])
            )
        )
        if kind == "modes":  # CAPS LOCK, G mode and E-mode keywords: one code a key, if any
            for key in draw(st.lists(st.sampled_from([CAPS_LOCK, GRAPHICS, E_MODE] + PLAIN_KEYS), max_size=12)):
                if key == E_MODE:
                    presses += [E_MODE, draw(st.sampled_from(PLAIN_KEYS[:26] + SYMBOL_KEYS[:20]))]
                else:
                    presses.append(key)
                if key not in (CAPS_LOCK, GRAPHICS):
                    length, cursor = length + 1, cursor + 1
        elif kind in ("type", "keywords", "run"):
            keys = {"type": PLAIN_KEYS + SHIFTED_KEYS, "keywords": SYMBOL_KEYS + PLAIN_KEYS}.get(kind)
            typed = (
                draw(st.lists(st.sampled_from(keys), max_size=12))
                if keys
                else [draw(st.sampled_from(PLAIN_KEYS + [AT]))] * draw(st.integers(19, 100))
            )
            presses += typed
            length, cursor = length + len(typed), cursor + len(typed)
        elif kind == "move":
            for key in draw(st.lists(st.sampled_from(MOVING_KEYS), max_size=8)):
                if key in (DELETE, LEFT) and cursor:
                    length, cursor = length - (key == DELETE), cursor - 1
                elif key == RIGHT and cursor < length:
                    cursor += 1
                elif key not in (DOWN, UP):
                    continue
                presses.append(key)
        elif kind == "expression":
            return presses + [EDIT] + draw(expressions())
        else:
            return presses + draw(
                st.lists(st.sampled_from(PLAIN_KEYS + SYMBOL_KEYS + MOVING_KEYS + OTHER_KEYS), max_size=40)
            )
    return presses


# --- a plain INPUT ------------------------------------------------------------------------------

VARIABLES = {"v": 7, "w$": "hi", "i": 22}
SEED_SET = 7
FUNCTIONS = {"f": ("x*v+1", ("x",)), "s$": ("a$(n TO )", ("a$", "n"))}


def plain_listing(variable: str, row: int, col: int) -> str:
    definitions = ": ".join(
        f"DEF FN {name}({','.join(parameters)})={body}" for name, (body, parameters) in FUNCTIONS.items()
    )
    return (
        f'1 {definitions}\n'
        f'5 LET v=7: LET w$="hi": RANDOMIZE {SEED_SET}: '
        f'FOR i=0 TO 21: PRINT AT i,0;"row ";i;: NEXT i: PRINT AT {row},{col};\n'
        f'10 INPUT "Move? ";{variable}\n'
        '20 LET r=PEEK 23689: LET c=PEEK 23688\n'
    )


def plain_port(variable: str, row: int, col: int, presses):
    machine = Spectrum(HeadlessFrontend(presses))
    machine.variables = dict(VARIABLES)
    machine.functions = {name: (parameters, tokenize(body)) for name, (body, parameters) in FUNCTIONS.items()}
    machine.randomize(SEED_SET)
    for line in range(22):
        machine.print_at(line, 0, f"row {line}")
    machine.print_at(row, col, "")
    try:
        if variable == "n":
            return machine, ("value", machine.input_number("Move? "))
        return machine, ("value", machine.input("Move? ").encode("latin-1"))
    except ScriptExhausted:
        return machine, ("waiting", None)
    except ReportError as report:
        machine.show_report(report)
        return machine, ("report", str(report))


def assert_plain_input_matches(variable: str, row: int, col: int, presses) -> None:
    result = ORACLE.run(plain_listing(variable, row, col), [TypedKeys(tuple(presses)), Unfinished("")])
    machine, (outcome, value) = plain_port(variable, row, col, presses)
    assert (
        machine.peek(sysvars.SEED) + 256 * machine.peek(sysvars.SEED + 1)
        == result.memory[sysvars.SEED] + 256 * result.memory[sysvars.SEED + 1]
    )  # as many RNDs taken
    if result.report.startswith("0 OK, 10:"):  # still at the INPUT
        assert outcome == "waiting"
        assert rows_of(machine.memory, 0, 23) == result.rows(0, 23)
        return
    assert rows_of(machine.memory) == result.rows()
    if result.report.startswith("0 OK"):
        assert (outcome, value) == ("value", result.variables[variable])
        line, column = 24 - int(result.variables["r"]), 33 - int(result.variables["c"])
        assert machine.print_position == (line, column)  # the upper print position S_POSN
    else:
        assert (outcome, value) == ("report", result.report.split(",")[0])


@EXAMPLES
@given(
    variable=st.sampled_from(["a$", "n"]),
    row=st.sampled_from([21, 21, 20, 15, 3]),
    col=st.integers(0, 31),
    presses=entries(anywhere=True),
    finish=st.booleans(),
)
def test_typed_input_gives_the_roms_screen_value_and_report(variable, row, col, presses, finish):
    assert_plain_input_matches(variable, row, col, presses + ([ENTER] if finish else []))


@pytest.mark.parametrize(
    "variable, text, expected",
    [
        ("n", "v*6+1", 43.0),
        ("n", "LEN w$", None),
        ("a$", 'w$+"!"', b"hi!"),
        ("n", "1/0", "6 Number too big"),
        ("n", "nosuch", "2 Variable not found"),
        ("a$", "CHR$ 300", "B Integer out of range"),
        ("n", 'VAL "1+"', "C Nonsense in BASIC"),
        ("n", "1+", None),
        ("a$", "STOP", "H STOP in INPUT"),
    ],
)
def test_expressions_at_input_are_evaluated_as_the_rom_does(variable, text, expected):
    presses = [EDIT] if variable == "a$" else []
    for word in text.replace("LEN ", "LEN\0").replace("CHR$ ", "CHR$\0").replace("VAL ", "VAL\0").split("\0"):
        if word in FUNCTION_KEYS:
            presses += function(word)
        elif word == "STOP":
            presses.append(frozenset({"SYMBOL", "a"}))
        else:
            presses += typing(word)
    assert_plain_input_matches(variable, 21, 0, presses + [ENTER])


@pytest.mark.parametrize(
    "variable, text",
    [
        ("n", "RND*65536"),
        ("a$", 'STR$ INT (RND*1E4)+"/"+STR$ (RND*1E4)'),
        ("n", "INT (RND*52)*5+1"),
        ("n", "PEEK 16384+PEEK 22528*256+PEEK 100+PEEK 15616"),
        ("n", "PEEK 70000"),
        ("n", "PEEK -1"),
        ("n", "ATTR (3,2)+ATTR (21,31)*256"),
        ("n", "ATTR (256,0)"),
        ("n", "ATTR (-2,1)"),
        ("a$", "SCREEN$ (3,1)"),
        ("a$", "SCREEN$ (20,2)"),
        ("a$", "SCREEN$ (-4,2)"),
        ("a$", "SCREEN$ (21,31)"),
        ("a$", "SCREEN$ (0,5)"),
        ("n", "ab(1)"),
        ("n", "ab(1,2)"),
        ("n", "ab()"),
        ("n", 'ab("x")'),
        ("a$", "SCREEN$ (24,1)"),
        ("a$", "SCREEN$ (1)"),
        ("n", "POINT (9,170)+2*POINT (10,175)+4*POINT (255,0)"),
        ("n", "POINT (0,176)"),
        ("n", "POINT (256,1)"),
        ("n", "BIN 101+BIN"),
        ("n", "BIN 11111111111111111"),
        ("n", "BIN 0000000000000000001"),
        ("n", "CODE INKEY$+LEN INKEY$"),
        ("n", "PI*2"),
        ("n", "FN f(3)"),
        ("a$", "FN s$(w$,2)"),
        ("a$", "FN s$(w$+w$,v-3)"),
        ("n", "FN g(1)"),
        ("n", "FN f()"),
        ("n", "FN f(1,2)"),
        ("n", 'FN f("a")'),
        ("n", "FN f(1/0)"),
        ("n", "FN f(3"),
        ("a$", "FN s$(w$)"),
        ("n", "IN 32766+IN 65278*256+IN 255/2"),
        ("n", "IN 70000"),
        ("a$", 'VAL$ "w$"+VAL$ "CHR$ 65"'),
        ("a$", 'VAL$ "1"'),
        ("a$", 'VAL$ "w$("'),
        ("n", 'LEN VAL$ "w$"'),
        ("n", "SIN 1+COS 2*TAN .5"),
        ("n", "ATN 3-ASN .5+ACS -.2"),
        ("n", "LN 10*EXP 2-SQR 2"),
        ("n", "2^10+v^.5"),
        ("n", "(-2)^2"),
        ("n", "0^-1"),
        ("n", "LN 0"),
        ("n", "EXP 100"),
        ("n", "ASN 2"),
        ("n", "SQR -1"),
        ("n", "INT (SIN 1*1E8)"),
        ("a$", "STR$ (2^0.5)"),
        ("n", 'USR "a"+USR "U"*256'),
        ("n", "USR CHR$ 144+USR CHR$ 164"),
        ("n", 'USR "v"'),
        ("n", 'USR "ab"'),
        ("n", "USR CHR$ 165"),
        ("n", 'USR ""'),
        ("a$", "w$( TO )"),
        ("a$", "w$(2 TO )+w$( TO 1)"),
        ("n", "LEN w$(3 TO )"),
        ("a$", "w$(2 TO ,1)"),
    ],
)
def test_the_roms_other_functions_at_input(variable, text):
    """RND (SEED moved on as many times), PEEK, ATTR, SCREEN$ and POINT on the machine's
    memory, IN, BIN, INKEY$, VAL$ and the program's DEF FNs, with the ROM's answer or report;
    a long name with a bracket faults where the ROM's check does."""
    assert_plain_input_matches(variable, 21, 0, ([EDIT] if variable == "a$" else []) + keyed(text) + [ENTER])


# --- 11-Up Patience -----------------------------------------------------------------------------

LISTING = (Path(__file__).resolve().parent.parent / "games" / "patience" / "patience.bas").read_text()
SEEDED = LISTING.replace("\n1040 RANDOMIZE\n", "\n1040 INPUT s: RANDOMIZE s\n")
START = [Wait(50 * 20), Press(frozenset({"SPACE"}), at_pause=True)]
SEED = 41234  # its first deal offers 69
PORT_KEY_GAP = 16  # frames: longer than the error BEEP (10) and 5 more for KEY-SCAN to free a slot
KEY_SLOT_FRAMES = 5  # interrupts that free the slot of a key let go of during the deal's BEEPs


class KeyedSpectrum(Spectrum):
    """The port's machine typed at through the key matrix, noting every BEEP. The keys come
    slower than on the plain program: the port's BASIC takes no time between its BEEPs, which
    stop the keyboard interrupt, so a key let go of needs more frames to free its slot."""

    def __init__(self, presses):
        super().__init__(HeadlessFrontend([frozenset({"SPACE"}), *presses], gap_frames=PORT_KEY_GAP))
        self.beeps: list[tuple[float, float]] = []

    def beep(self, duration, pitch):
        self.beeps.append((duration, pitch))
        super().beep(duration, pitch)

    def input(self, prompt=""):
        for _ in range(KEY_SLOT_FRAMES):  # the time the listing's BASIC takes to get here
            self.wait_frame()
        return super().input(prompt)


def patience_screens(seed: int, entries_typed: list[list[frozenset[str]]]):
    """The listing on the ROM and the port, each entry typed at the next prompt; returns the
    ROM's result and the port's machine and report (None while still at an INPUT)."""
    script = START + [str(seed)] + [TypedKeys(tuple(presses)) for presses in entries_typed] + [Unfinished("")]
    result = ORACLE.run(SEEDED, script)
    machine = KeyedSpectrum([press for presses in entries_typed for press in presses])
    try:
        patience.run(machine, seed)
        report = "returned"
    except ScriptExhausted:
        report = None
    except ReportError as error:
        machine.show_report(error)
        report = str(error)
    return result, machine, report


def assert_patience_matches(seed: int, entries_typed):
    """The same screen and report on both, and at an INPUT the same variables and SEED; the ROM's
    result and the port's machine and report."""
    result, machine, report = patience_screens(seed, entries_typed)
    if result.report.startswith("0 OK"):  # at an INPUT of the listing
        assert report is None
        assert rows_of(machine.memory, 0, 23) == result.rows(0, 23)
        assert as_read(machine.variables) == {name: value for name, value in result.variables.items() if name != "s"}
        assert (
            machine.memory[sysvars.SEED : sysvars.SEED + 2].tobytes() == result.memory[sysvars.SEED : sysvars.SEED + 2]
        )
    else:  # the report with the line and statement it came in, as the ROM gives it
        assert report == result.report
        assert rows_of(machine.memory, 0, 23) == result.rows(0, 23)
    return result, machine, report


@st.composite
def patience_sessions(draw):
    """Up to three entries at Patience's prompts, each a legal move or anything typed within the
    quotes (or an expression in their place); never a 0, so nobody resigns."""
    seed = draw(st.integers(1, 65535))
    table = rules.deal(rules.Game(patience.shuffled_pack(seed).decode("latin-1")))[0]
    typed = []
    for _ in range(draw(st.integers(1, 3))):
        legal = rules.legal_entries(table)
        if legal and draw(st.booleans()):
            move = draw(st.sampled_from(legal))
            typed.append(typing(move) + [ENTER])
            table, _ = rules.cover(table, rules.judge(move, table))
        else:
            typed.append(draw(entries(anywhere=False)) + [ENTER])
    if draw(st.booleans()):
        typed[-1].pop()  # the last entry left open, to compare the lower screen too
    return seed, typed


@EXAMPLES
@given(session=patience_sessions())
def test_typed_patience_entries_give_the_roms_screens(session):
    assert_patience_matches(*session)


def test_long_entry_at_the_first_prompt_scrolls_the_whole_screen_up():
    assert_patience_matches(SEED, [typing("x" * 19)])
    assert_patience_matches(SEED, [typing("x" * 19) + [ENTER], typing("x" * 5)])


@pytest.mark.parametrize("length", [19, 51, 90])
def test_long_entry_after_a_move_wipes_the_rows_the_lower_screen_took(length):
    assert_patience_matches(
        SEED, [typing("69") + [ENTER], typing("x" * length) + [ENTER], typing("x" * 9) + [ENTER], []]
    )


def test_deleting_a_long_tail_keeps_the_move_typed_before_it():
    assert_patience_matches(SEED, [typing("69" + "x" * 60) + [DELETE] * 60 + [ENTER], []])
    result, machine, _ = patience_screens(SEED, [typing("69" + "x" * 60) + [DELETE] * 60 + [ENTER], []])
    assert result.variables["z$"] == b"69"
    assert play.ERROR_BEEP not in machine.beeps


def test_an_expression_in_place_of_the_quotes_is_evaluated():
    presses = [DELETE, RIGHT, DELETE] + [QUOTE, *typing("6"), QUOTE, *typing("+"), QUOTE, *typing("9"), QUOTE]
    assert_patience_matches(SEED, [presses + [ENTER], []])
    result, machine, _ = patience_screens(SEED, [presses + [ENTER], []])
    assert result.variables["z$"] == b"69"
    assert play.ERROR_BEEP not in machine.beeps


@pytest.mark.parametrize(
    "before, expression",
    [
        ([], "STR$ (g/1100*69)"),  # plays 69
        ([], 'CHR$ (48+h/205)+r$(6,2)'),  # 69, from H and the 9 on position 6
        (["xx"], 'z$(2)+p$(3 TO 5)+r$(2)+STR$ c+STR$ z(1)'),
        ([], "r$(9)(2)+z$"),  # no z$ before the first entry: 2 Variable not found
        (["29"], "r$"),  # a string array with no subscripts: 3 Subscript wrong
        (["29"], "r$(2,6)"),
        (["29"], "STR$ z(4)"),
        (["1x"], "f$+e$+STR$ i+STR$ (q+x+y+j+n+fa+res)"),
        (["12"], "STR$ FN c(z(1))+STR$ FN d(9)"),  # lines 1020-1030's DEF FNs
        (["12"], "STR$ INT (RND*1E4)"),  # SEED moves on, so the next shuffle is the ROM's
    ],
)
def test_the_listings_variables_in_place_of_the_quotes(before, expression):
    """Both quotes deleted and an expression naming the listing's variables typed: the same
    screens, the same answer (or report), and the same variables at the next prompt."""
    typed = [typing(entry) + [ENTER] for entry in before]
    typed.append([DELETE, RIGHT, DELETE] + keyed(expression) + [ENTER])
    assert_patience_matches(SEED, typed + [[]])


def test_keyword_tokens_fill_the_lower_screen_as_on_the_rom():
    assert_patience_matches(SEED, [[AT] * 20])
    assert_patience_matches(SEED, [[AT] * 20 + [ENTER], []])


@example(fill=23, key="y")
@settings(max_examples=12, deadline=None)
@given(fill=st.integers(22, 30), key=st.sampled_from(["y", "n", " ", "x"]))
def test_print_past_the_bottom_asks_scroll_as_the_rom_does(fill, key):
    listing = f'10 FOR i=1 TO {fill}: PRINT AT 21,0;i: PRINT AT 21,31;"ab": NEXT i\n'
    answer = frozenset({"SPACE"}) if key == " " else frozenset({key})
    result = ORACLE.run(listing, [Press(answer, at_scroll=True)] * 3)
    machine = Spectrum(HeadlessFrontend([answer] * 3))
    try:
        for i in range(1, fill + 1):
            machine.print_at(21, 0, i)
            machine.print_at(21, 31, "ab")
        report = "0 OK"
    except ReportError as error:
        report = str(error)
    except ScriptExhausted:
        report = "waiting"
    assert report == result.report.split(",")[0]
    assert rows_of(machine.memory) == result.rows()
