"""spectrum.fp against the genuine ROM's calculator, routine by routine."""

import math
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rom_routines import E_TO_FP, FP_TO_A, moderate, numbers, outcome, pairs, rom

from spectrum import fp
from spectrum.memory import find_byte, find_word
from spectrum.errors import ReportError
from spectrum.rom import ROM

MANY = settings(max_examples=600, deadline=None)

# Calculator literals (the ROM's own operation codes).
SUBTRACT, MULTIPLY, DIVISION, ADDITION = 0x03, 0x04, 0x05, 0x0F
NEGATE, INT, ABS, TRUNCATE, RE_STACK, FP_CALC_2 = 0x1B, 0x27, 0x2A, 0x3A, 0x3D, 0x3B
RELATIONS = {"<=": 0x09, ">=": 0x0A, "<>": 0x0B, ">": 0x0C, "<": 0x0D, "=": 0x0E}

BINARY = [(fp.add, ADDITION), (fp.subtract, SUBTRACT), (fp.multiply, MULTIPLY), (fp.divide, DIVISION)]
UNARY = [(fp.negate, NEGATE), (fp.absolute, ABS), (fp.truncate, TRUNCATE), (fp.integer, INT), (fp.re_stack, RE_STACK)]


def function_name(item):
    return getattr(item, "__name__", "")


def rom_binary(literal):
    return lambda first, second: rom().calculate(bytes((literal,)), first, second)


def rom_unary(literal):
    return lambda number: rom().calculate(bytes((literal,)), number)


@pytest.mark.rom
@pytest.mark.parametrize("function, literal", BINARY, ids=function_name)
@MANY
@given(operands=pairs())
@example(operands=(fp.stack_bc(65535), fp.ONE))  # small-integer sum overflows to floating form
@example(operands=(fp.int_store(32768, True), fp.int_store(32768, True)))  # makes -65536
@example(operands=(bytes((255, 0x7F, 0xFF, 0xFF, 0xFF)), bytes((255, 0x7F, 0xFF, 0xFF, 0xFF))))
@example(operands=(bytes((1, 0, 0, 0, 0)), bytes((1, 0x80, 0, 0, 1))))  # underflow
@example(operands=(fp.ONE, fp.ZERO))
def test_binary_operations_match_the_rom(function, literal, operands):
    assert outcome(function, *operands) == outcome(rom_binary(literal), *operands)


@pytest.mark.rom
@pytest.mark.parametrize("function, literal", UNARY, ids=function_name)
@MANY
@given(number=numbers)
@example(number=fp.MINUS_65536)
@example(number=bytes((0x91, 0x80, 0x00, 0x7F, 0xFF)))  # -65536.99…: truncates to -65536
@example(number=bytes((0x90, 0xFF, 0xFF, 0xFF, 0xFF)))
def test_unary_operations_match_the_rom(function, literal, number):
    assert outcome(function, number) == outcome(rom_unary(literal), number)


@pytest.mark.rom
@pytest.mark.parametrize("relation", RELATIONS)
@settings(max_examples=500, deadline=None)
@given(operands=pairs())
def test_comparisons_match_the_rom(relation, operands):
    def rom_compare(first, second):
        result = rom().calculate(bytes((FP_CALC_2,)), first, second, breg=RELATIONS[relation])
        assert result in (fp.ZERO, fp.ONE)
        return result == fp.ONE

    def layer_compare(first, second):
        return fp.compare(first, relation, second)

    assert outcome(layer_compare, *operands) == outcome(rom_compare, *operands)


rounding_cases = st.one_of(
    numbers,
    st.builds(
        lambda whole, half, negative: fp.from_float((whole + half / 2) * (-1 if negative else 1)),
        st.integers(0, 70000),
        st.integers(0, 1),
        st.booleans(),
    ),
)


@pytest.mark.rom
@MANY
@given(number=rounding_cases)
@example(number=fp.from_float(-0.5))
@example(number=fp.from_float(65535.5))
def test_fp_to_bc_matches_the_rom(number):
    assert fp.fp_to_bc(number) == rom().fp_to_bc(number)


@pytest.mark.rom
@MANY
@given(number=rounding_cases)
@example(number=fp.from_float(255.5))
def test_fp_to_a_matches_the_rom(number):
    assert fp.fp_to_a(number) == rom().fp_to_bc(number, FP_TO_A)


@pytest.mark.rom
@MANY
@given(number=moderate, exponent=st.integers(-128, 127))
@example(number=fp.ONE, exponent=38)
@example(number=fp.ONE, exponent=39)
@example(number=fp.ONE, exponent=-39)
def test_e_to_fp_matches_the_rom(number, exponent):
    def rom_e_to_fp(number, exponent):
        return rom().call(E_TO_FP, number, a=exponent & 0xFF)[-5:]

    assert outcome(fp.e_to_fp, number, exponent) == outcome(rom_e_to_fp, number, exponent)


digits = st.text("0123456789", min_size=1, max_size=12)
literals = st.one_of(
    digits,
    st.builds(lambda whole, fraction: f"{whole}.{fraction}", digits | st.just(""), digits),
    st.builds(
        lambda mantissa, e, sign, exponent: f"{mantissa}{e}{sign}{exponent}",
        digits | st.builds(lambda a, b: f"{a}.{b}", digits | st.just(""), digits),
        st.sampled_from("Ee"),
        st.sampled_from(["", "+", "-"]),
        st.integers(0, 300).map(str),
    ),
    st.builds(lambda bits: "BIN " + bits, st.text("01", max_size=20)),
)


@pytest.mark.rom
@MANY
@given(text=literals)
@example(text=".5")
@example(text="0.1")
@example(text="1.")
@example(text="1.E3")
@example(text="1.2 5")
@example(text=".")
@example(text="1E")
@example(text="1E+")
@example(text="3.4E38")
@example(text="BIN")
def test_dec_to_fp_matches_the_rom(text):
    assert outcome(fp.dec_to_fp, text) == outcome(rom().dec_to_fp, text)


@pytest.mark.rom
@pytest.mark.parametrize("index, address", list(enumerate([0x32C5, 0x32C8, 0x32CC, 0x32CE, 0x32D3])))
def test_stk_data_expands_the_roms_table_of_constants(index, address):
    """stk-zero, stk-one, stk-half, stk-pi/2 and stk-ten (literals $A0-$A4) as the ROM stacks them."""
    assert fp.stk_data(ROM[address : address + 6]) == rom().calculate(bytes((0xA0 + index,)))


def test_literals_are_not_correctly_rounded():
    assert fp.dec_to_fp(".5").hex(" ") == "7f 7f ff ff ff"
    assert fp.dec_to_fp("0.1").hex(" ") == "7d 4c cc cc cc"
    assert fp.divide(fp.ONE, fp.stack_bc(2)) == fp.HALF


def test_literal_errors_are_the_roms_reports():
    with pytest.raises(ReportError, match="^C Nonsense in BASIC$"):
        fp.dec_to_fp("1E-")
    with pytest.raises(ReportError, match="^6 Number too big$"):
        fp.dec_to_fp("1E200")
    with pytest.raises(ValueError):
        fp.dec_to_fp("12abc")


def test_division_by_zero_is_number_too_big():
    with pytest.raises(ReportError) as raised:
        fp.divide(fp.ONE, fp.ZERO)
    assert str(raised.value) == "6 Number too big" and raised.value.code == "6"


@settings(max_examples=2000, deadline=None)
@given(number=numbers)
def test_to_float_is_exact_and_from_float_gives_it_back(number):
    value = fp.to_float(number)
    if number[0] == 0:
        assert value == int.from_bytes(number[2:4], "little") - (65536 if number[1] else 0)
    else:
        magnitude = Fraction(int.from_bytes(number[1:], "big") | 0x80000000, 2**32)
        assert Fraction(abs(value)) == magnitude * Fraction(2) ** (number[0] - 128)
        assert math.copysign(1, value) == (-1 if number[1] & 0x80 else 1)
    if number != fp.MINUS_65536:
        assert fp.to_float(fp.from_float(value)) == value


@settings(max_examples=2000, deadline=None)
@given(value=st.floats(min_value=-1e38, max_value=1e38, allow_nan=False))
@example(value=2.5087077976579367e-39)  # below the smallest floating form, yet nearer to it than to 0
def test_from_float_picks_the_nearest_number(value):
    number = fp.from_float(value)
    nearest = fp.to_float(number)
    smallest = 2.0**-128  # the smallest floating form; below it only zero is left
    if number[0] and abs(value) < smallest:
        assert nearest == math.copysign(smallest, value) and abs(value) > smallest / 2
    elif number[0]:  # a neighbour one unit away in the last place is never nearer
        step = math.ldexp(1, number[0] - 128 - 32)
        assert abs(nearest - value) <= step / 2
    elif number == fp.ZERO:  # nearer to zero than to the smallest floating form, 2**-128
        assert abs(value) <= 2.0**-129
    else:
        assert nearest == value


def test_from_float_rejects_what_does_not_fit():
    with pytest.raises(ReportError, match="^6"):
        fp.from_float(1.7015e38)
    assert fp.from_float(1e-45) == fp.ZERO
    assert fp.to_float(fp.from_float(2.0**-129 * 1.01)) == 2.0**-128


@given(value=st.integers(-70000, 70000) | st.sampled_from([-1, 0, 255, 256, 65535, 65536]))
def test_a_whole_number_argument_is_taken_as_the_roms_route_takes_it(value):
    """FIND-INT1 and FIND-INT2 of a Python int skip the 5-byte round trip; the answer, or the
    report, is the same as the full route's."""
    assert outcome(find_byte, value) == outcome(lambda v: fp.find_int1(fp.from_float(v)), value)
    assert outcome(find_word, value) == outcome(lambda v: fp.find_int2(fp.from_float(v)), value)
