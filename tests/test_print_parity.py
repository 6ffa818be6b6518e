"""PRINT, colours, RND and error reports: the layer against the real ROM on the same program."""

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from spectrum import sysvars
from spectrum.errors import ReportError
from spectrum.machine import Spectrum
from spectrum.screen import printed_width
from spectrum.oracle import Oracle, rows_of
from spectrum.rom import KEYWORDS

ORACLE = Oracle(max_seconds=120)
TOKEN_CODES = range(165, 256)
UDG_BYTES = 21 * 8
COLOUR_RANGES = {
    "ink": range(10),
    "paper": range(10),
    "flash": (0, 1, 8),
    "bright": (0, 1, 8),
    "inverse": (0, 1),
    "over": (0, 1),
}
EXAMPLES = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def basic_string(codes: bytes) -> str:
    """A BASIC string expression for `codes`: literals with escapes, CHR$ for tokens and quotes."""
    parts, literal = [], ""
    for code in codes:
        if code in TOKEN_CODES or code == ord('"') or code == ord("\\"):
            if literal:
                parts.append(f'"{literal}"')
                literal = ""
            parts.append(f"CHR$ {code}")
        elif code == 127:
            literal += "\\*"
        elif code >= 144:
            literal += "\\" + chr(ord("a") + code - 144)
        elif code >= 128:
            marks = " '.:"
            left = ((code >> 1) & 1) | ((code >> 2) & 2)
            right = (code & 1) | ((code >> 1) & 2)
            literal += "\\" + marks[left] + marks[right]
        else:
            literal += chr(code)
    if literal or not parts:
        parts.append(f'"{literal}"')
    return "+".join(parts)


@st.composite
def print_statements(draw):
    """A sequence of permanent colour statements and PRINT AT statements that stays on screen."""
    statements = []
    for _ in range(draw(st.integers(1, 8))):
        items = {}
        for item, values in COLOUR_RANGES.items():
            if draw(st.integers(0, 3)) == 0:
                items[item] = draw(st.sampled_from(values))
        if draw(st.integers(0, 4)) == 0:
            statements.append(("colour", items))
            continue
        row, col = draw(st.integers(0, 21)), draw(st.integers(0, 31))
        room = (21 - row) * 32 + 32 - col
        codes = bytearray()
        for code in draw(st.lists(st.integers(32, 255), max_size=min(room, 80))):
            if printed_width(bytes(codes) + bytes([code])) + 1 <= room:
                codes.append(code)
        statements.append(("print", row, col, items, bytes(codes)))
    return statements


def listing_for(udgs: bytes, statements) -> str:
    lines = [f"10 FOR i=0 TO {UDG_BYTES - 1}: READ b: POKE USR \"a\"+i,b: NEXT i"]
    for number, statement in enumerate(statements, 2):
        if statement[0] == "colour":
            text = ": ".join(f"{item.upper()} {value}" for item, value in statement[1].items())
            lines.append(f"{10 * number} {text or 'REM'}")
        else:
            _, row, col, items, codes = statement
            colours = "".join(f" {item.upper()} {value};" for item, value in items.items())
            lines.append(f"{10 * number} PRINT AT {row},{col};{colours}{basic_string(codes)};")
    for start in range(0, UDG_BYTES, 24):
        lines.append(f"{9000 + start} DATA {','.join(map(str, udgs[start : start + 24]))}")
    return "\n".join(lines) + "\n"


def run_on_layer(udgs: bytes, statements) -> Spectrum:
    machine = Spectrum()
    for offset, value in enumerate(udgs):
        machine.poke(machine.usr("a") + offset, value)
    for statement in statements:
        if statement[0] == "colour":
            machine.colour(**statement[1])
        else:
            _, row, col, items, codes = statement
            machine.print_at(row, col, codes, **items)
    return machine


@pytest.mark.rom
@EXAMPLES
@given(udgs=st.binary(min_size=UDG_BYTES, max_size=UDG_BYTES), statements=print_statements())
def test_print_at_screens_match_the_rom(udgs, statements):
    result = ORACLE.run(listing_for(udgs, statements))
    assert result.report.startswith("0 OK"), result.report
    machine = run_on_layer(udgs, statements)
    assert rows_of(machine.memory) == result.rows(0, 21)
    for variable in (sysvars.ATTR_P, sysvars.MASK_P, sysvars.P_FLAG):
        assert machine.memory[variable] & (0xAA if variable == sysvars.P_FLAG else 0xFF) == result.memory[variable] & (
            0xAA if variable == sysvars.P_FLAG else 0xFF
        )


@pytest.mark.rom
def test_every_token_prints_with_the_roms_spacing():
    codes = bytes(TOKEN_CODES)
    statements = [("print", 0, 0, {}, codes[:45]), ("print", 11, 0, {}, b"x" + codes[45:])]
    result = ORACLE.run(listing_for(bytes(UDG_BYTES), statements))
    machine = run_on_layer(bytes(UDG_BYTES), statements)
    assert rows_of(machine.memory) == result.rows(0, 21)


@pytest.mark.rom
@EXAMPLES
@given(seed=st.integers(1, 65535))
def test_rnd_after_randomize_matches_the_rom(seed):
    result = ORACLE.run(f"10 RANDOMIZE {seed}: DIM r(6): FOR i=1 TO 6: LET r(i)=RND: NEXT i\n")
    machine = Spectrum()
    machine.randomize(seed)
    assert [machine.rnd() for _ in range(6)] == result.variables["r"]


# The low byte stays below 255 so that an interrupt between the two POKEs cannot carry into the
# high byte (which the second POKE would then overwrite).
@pytest.mark.rom
@settings(max_examples=30, deadline=None)
@given(high=st.integers(0, 255), low=st.integers(0, 250))
@example(high=15, low=250)
def test_randomize_0_takes_the_seed_from_frames(high, low):
    frames = 256 * high + low
    result = ORACLE.run(
        f"10 POKE 23672,{low}: POKE 23673,{high}: RANDOMIZE 0: LET s=PEEK 23670+256*PEEK 23671: LET r=RND\n"
    )
    seed = int(result.variables["s"])
    assert seed - frames in (0, 1)  # an interrupt may count a frame between POKE and RANDOMIZE
    machine = Spectrum()
    machine.poke(sysvars.FRAMES, seed & 0xFF)
    machine.poke(sysvars.FRAMES + 1, seed >> 8)
    machine.randomize(0)
    assert machine.peek(sysvars.SEED) + 256 * machine.peek(sysvars.SEED + 1) == seed
    assert machine.rnd() == result.variables["r"]


BAD_STATEMENTS = [
    ("PRINT AT 22,0;\"x\"", lambda m: m.print_at(22, 0, "x")),
    ("PRINT AT 0,32;\"x\"", lambda m: m.print_at(0, 32, "x")),
    ("PRINT AT 256,0;\"x\"", lambda m: m.print_at(256, 0, "x")),
    ("PRINT AT 0,0; PAPER 10;\"x\"", lambda m: m.print_at(0, 0, "x", paper=10)),
    ("PRINT AT 0,0; INK 9; PAPER 9; FLASH 8;\"x\"", lambda m: m.print_at(0, 0, "x", ink=9, paper=9, flash=8)),
    ("PRINT AT 0,0; FLASH 2;\"x\"", lambda m: m.print_at(0, 0, "x", flash=2)),
    ("PRINT AT 0,0; BRIGHT 7;\"x\"", lambda m: m.print_at(0, 0, "x", bright=7)),
    ("PRINT AT 0,0; INVERSE 2;\"x\"", lambda m: m.print_at(0, 0, "x", inverse=2)),
    ("PRINT AT 0,0; OVER -1;\"x\"", lambda m: m.print_at(0, 0, "x", over=-1)),
    ("INK 10", lambda m: m.colour(ink=10)),
    ("BORDER 8", lambda m: m.set_border(8)),
    ("BORDER 7", lambda m: m.set_border(7)),
    ("RANDOMIZE 65536", lambda m: m.randomize(65536)),
    ("RANDOMIZE -1", lambda m: m.randomize(-1)),
    ("POKE 30000,256", lambda m: m.poke(30000, 256)),
    ("POKE 30000,-255", lambda m: m.poke(30000, -255)),
    ("POKE 65536,0", lambda m: m.poke(65536, 0)),
    ("PAUSE 65536", lambda m: m.pause(65536)),
    ("LET a=USR \"v\"", lambda m: m.usr("v")),
]


@pytest.mark.rom
@pytest.mark.parametrize("statement, call", BAD_STATEMENTS, ids=[s for s, _ in BAD_STATEMENTS])
def test_reports_match_the_rom_and_change_nothing(statement, call):
    result = ORACLE.run(f"10 PRINT AT 5,5;\"before\"\n20 {statement}\n")
    machine = Spectrum()
    machine.print_at(5, 5, "before")
    screen = machine.memory.copy()
    expected = result.report.split(",")[0]
    if expected.startswith("0 OK"):
        call(machine)
        assert rows_of(machine.memory) == result.rows(0, 21)
        return
    with pytest.raises(ReportError) as error:
        call(machine)
    assert str(error.value) == expected
    assert (machine.memory == screen).all()


def test_keywords_come_from_the_rom():
    assert KEYWORDS[0] == "RND" and KEYWORDS[-1] == "COPY" and len(KEYWORDS) == 91


CONTROL_TEXTS = [
    bytes([ord("a"), 6, ord("b"), 6, ord("c")]),  # comma: to column 16, then the next line
    bytes([ord("a"), ord("b"), 8, 8, ord("c"), 13, ord("d")]),  # backspace, ENTER
    bytes([16, 2, ord("e"), 17, 5, 19, 1, ord("f"), 20, 1, ord("g"), 21, 1, ord("g")]),  # colour controls
    bytes([22, 10, 5, ord("h"), 23, 20, 0, ord("i"), 23, 40, 0, ord("j")]),  # AT and TAB (40 is 8 mod 32)
    bytes([ord("k"), 9, 9, ord("l"), 0, 5, 7, 24, 31]),  # cursor right keeps pixels; unassigned print '?'
]


@pytest.mark.rom
@pytest.mark.parametrize("codes", CONTROL_TEXTS, ids=[str(i) for i in range(len(CONTROL_TEXTS))])
def test_control_codes_in_printed_text_act_as_on_the_rom(codes):
    expression = "+".join(f"CHR$ {code}" for code in codes)
    result = ORACLE.run(f'10 PRINT AT 3,3;"xxxx": PRINT AT 3,3; PAPER 5;{expression};\n')
    machine = Spectrum()
    machine.print_at(3, 3, "xxxx")
    machine.print_at(3, 3, codes, paper=5)
    assert rows_of(machine.memory) == result.rows(0, 21)


@pytest.mark.rom
def test_power_on_system_variables_and_udgs_are_the_roms():
    result = ORACLE.run("10 REM\n")
    machine = Spectrum()
    for variable in (
        sysvars.CHARS,
        sysvars.CHARS + 1,
        sysvars.UDG,
        sysvars.UDG + 1,
        sysvars.ATTR_P,
        sysvars.MASK_P,
        sysvars.BORDCR,
        sysvars.DF_SZ,
        sysvars.REPDEL,
        sysvars.REPPER,
    ):
        assert machine.peek(variable) == result.memory[variable]
    udgs = slice(sysvars.UDG_AREA, sysvars.UDG_AREA + 21 * 8)
    assert machine.memory[udgs].tobytes() == result.memory[udgs]
    assert rows_of(machine.memory) == result.rows(0, 21)  # the ROM's report shows in rows 22-23
