"""spectrum.series against the genuine ROM's calculator: SIN, COS, TAN, ASN, ACS, ATN, LN, EXP,
SQR and ^ bit for bit, with the same reports."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rom_routines import moderate, numbers, outcome, pairs, rom

from spectrum import fp, series

MANY = settings(max_examples=300, deadline=None)
FUNCTIONS = [
    (series.sin, 0x1F),
    (series.cos, 0x20),
    (series.tan, 0x21),
    (series.asn, 0x22),
    (series.acs, 0x23),
    (series.atn, 0x24),
    (series.ln, 0x25),
    (series.exp, 0x26),
    (series.sqr, 0x28),
]
TO_POWER = 0x06
# Near the arguments where the functions change course: ±1, ±PI/2, 0.8 (LN), 88 (EXP's limit)
edges = st.sampled_from(
    [1, -1, 0.5, -0.5, 0.8, 0.79999, 1.5707963, 3.1415927, -3.1415927, 88, 88.7, -88.8, -89, 1e-30, 100, 1e6, 1e30]
).map(fp.from_float)


@pytest.mark.rom
@pytest.mark.parametrize("function, literal", FUNCTIONS, ids=lambda item: getattr(item, "__name__", ""))
@MANY
@given(number=st.one_of(numbers, moderate, edges))
@example(number=fp.ZERO)
@example(number=fp.ONE)
@example(number=fp.MINUS_65536)
def test_series_functions_match_the_rom(function, literal, number):
    assert outcome(function, number) == outcome(lambda x: rom().calculate(bytes((literal,)), x), number)


@pytest.mark.rom
@MANY
@given(operands=st.one_of(pairs(), st.tuples(st.one_of(moderate, edges), st.one_of(moderate, edges, numbers))))
@example(operands=(fp.ZERO, fp.ZERO))
@example(operands=(fp.ZERO, fp.ONE))
@example(operands=(fp.ZERO, fp.negate(fp.ONE)))
@example(operands=(fp.stack_bc(2), fp.stack_bc(10)))
def test_to_power_matches_the_rom(operands):
    assert outcome(series.to_power, *operands) == outcome(
        lambda x, y: rom().calculate(bytes((TO_POWER,)), x, y), *operands
    )
