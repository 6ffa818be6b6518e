"""spectrum.numbers against the ROM's PRINT-FP (via STR$) and its literal reader."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rom_routines import numbers, rom

from spectrum import fp
from spectrum.numbers import format_number, parse_number, print_fp
from spectrum.oracle import Oracle


def rnd_value(seed: int) -> bytes:
    """RND as the ROM makes it: SEED := (75 × (SEED + 1)) mod 65537 - 1, RND = SEED / 65536."""
    return fp.from_float(((75 * (seed + 1)) % 65537 - 1) / 65536)


def ratio(numerator: int, denominator: int) -> bytes:
    return fp.divide(fp.from_float(numerator), fp.from_float(denominator))


spread = st.one_of(
    numbers,
    st.floats(min_value=-1e38, max_value=1e38, allow_nan=False).map(fp.from_float),
    st.builds(
        lambda mantissa, power: fp.from_float(mantissa * 10.0**power),
        st.floats(-10, 10, allow_nan=False),
        st.integers(-38, 37),
    ),
    st.integers(-(10**9), 10**9).map(fp.from_float),
    st.integers(10**8, 2**27).map(fp.from_float),  # nine whole digits: rounded on the ninth
    st.builds(ratio, st.integers(-(10**6), 10**6), st.integers(1, 10**4)),
    st.integers(0, 65535).map(rnd_value),
)


@pytest.mark.rom
@settings(max_examples=1500, deadline=None)
@given(number=spread)
@example(number=fp.MINUS_65536)  # the ROM prints this small integer as -1E-38
@example(number=fp.dec_to_fp("99999999.5"))
@example(number=fp.dec_to_fp("999999995"))
@example(number=fp.from_float(100000005))
@example(number=bytes((1, 0, 0, 0, 0)))
@example(number=bytes((255, 0x7F, 0xFF, 0xFF, 0xFF)))
def test_print_fp_matches_the_rom(number):
    assert print_fp(number) == rom().str_dollar(number)


@pytest.mark.parametrize(
    "value, text",
    [
        (0.05, ".05"),
        (0.5, "0.5"),
        (1e-6, "1E-6"),
        (123456789, "1.2345679E+8"),
        (99999999, "99999999"),
        (0.0022735595703125, ".0022735596"),
        (0, "0"),
        (-3, "-3"),
        (1 / 3, "0.33333333"),
        (0.00001, ".00001"),
        (0.0001, ".0001"),
        (100000001, "1E+8"),
        (100000009, "1.0000001E+8"),
        (999999999, "1E+9"),
        (65536, "65536"),
        (-0.125, "-0.125"),
    ],
)
def test_format_number_examples(value, text):
    assert format_number(value) == text


@pytest.mark.rom
@settings(max_examples=300, deadline=None)
@given(
    text=st.builds(
        lambda whole, fraction, exponent: f"{whole}.{fraction}{exponent}",
        st.text("0123456789", max_size=9),
        st.text("0123456789", min_size=1, max_size=9),
        st.sampled_from(["", "E5", "e-7", "E+12", "E-30"]),
    )
)
def test_parse_number_is_what_the_rom_stores(text):
    assert parse_number(text) == fp.to_float(rom().dec_to_fp(text))
    assert parse_number("-" + text) == -parse_number(text)


def test_parse_number_keeps_the_roms_rounding():
    assert parse_number(".5") == 0.4999999998835847
    assert parse_number("0.1") == 0.09999999997671694
    assert parse_number("1E-6") != 1e-6


@pytest.mark.rom
def test_str_in_basic_agrees():
    """The same texts from a program run on the real machine (STR$ is PRINT-FP to a string)."""
    expressions = ["1/3", ".5", "-65535-1.5", "2^40", "PI", "1E-6", "EXP 1", "1/7E9"]
    names = [chr(ord("a") + i) for i in range(len(expressions))]
    listing = "\n".join(
        f"{10 * line} LET {name}={expression}: LET {name}$=STR$ {name}"
        for line, (name, expression) in enumerate(zip(names, expressions), 1)
    )
    result = Oracle().run(listing)
    assert result.report.startswith("0 OK")
    for name in names:
        assert format_number(result.variables[name]) == result.variables[name + "$"].decode()
