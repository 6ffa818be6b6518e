"""The calculator's series functions as the ROM computes them: SIN, COS, TAN, ASN, ACS, ATN, LN,
EXP, SQR and ``^`` (to-power), step by step with the calculator's own operations (`fp`), so that
every result is the ROM's to the last bit.

SIN, ATN, LN and EXP end in the series generator ($3449), which sums a Chebyshev series whose
constants follow its literal in the ROM; they are read from there. The ROM's few machine-code
steps (EXP's and LN's work on the exponent byte, ATN's test of it) are followed byte for byte.
"""

from . import fp
from .errors import INVALID_ARGUMENT, ReportError
from .rom import ROM

# Where each routine's series literal ($86 series-06, $88 series-08, $8C series-0C) stands
EXP_SERIES, LN_SERIES, SIN_SERIES, ATN_SERIES = 0x36D5, 0x3751, 0x37BE, 0x3802
# The constants the routines stack with stk-data, in the ROM's compressed form
ONE_OVER_LN2 = fp.stk_data(bytes((0xF1, 0x38, 0xAA, 0x3B, 0x29)))  # EXP
LN2 = fp.stk_data(bytes((0xF0, 0x31, 0x72, 0x17, 0xF8)))  # LN
FOUR_FIFTHS = fp.stk_data(bytes((0xF0, 0x4C, 0xCC, 0xCC, 0xCD)))  # LN's 0.8
TWO_AND_A_HALF = fp.stk_data(bytes((0x32, 0x20)))  # LN
ONE_TWO_EIGHT = fp.stk_data(bytes((0x38, 0x00)))  # LN: the exponent's bias
ONE_OVER_TWO_PI = fp.stk_data(bytes((0xEE, 0x22, 0xF9, 0x83, 0x6E)))  # get-argt
HALF_PI = fp.stk_data(bytes((0xF1, 0x49, 0x0F, 0xDA, 0xA2)))  # stk-pi/2
FLOATING_ONE_EXPONENT = 0x81  # ATN: from here on |x| >= 1


def _series_constants(address: int) -> tuple[bytes, ...]:
    """The constants after the series literal at `address` (its low 5 bits count them)."""
    constants, at = [], address + 1
    for _ in range(ROM[address] & 0x1F):
        length = 1 + (ROM[at] >> 6) + 1 + (ROM[at] & 0x3F == 0)
        constants.append(fp.stk_data(ROM[at : at + length]))
        at += length
    return tuple(constants)


_CONSTANTS = {address: _series_constants(address) for address in (EXP_SERIES, LN_SERIES, SIN_SERIES, ATN_SERIES)}


def series(z: bytes, address: int) -> bytes:
    """series-xx $3449: the Chebyshev sum at `z` of the constants after the literal at `address`."""
    twice_z = fp.add(z, z)  # mem-0
    value, previous, before_previous = fp.ZERO, fp.ZERO, fp.ZERO  # mem-2, mem-1
    for constant in _CONSTANTS[address]:
        before_previous = previous
        value, previous = fp.add(fp.subtract(fp.multiply(value, twice_z), previous), constant), value
    return fp.subtract(value, before_previous)


def _with_exponent(number: bytes, exponent: int) -> bytes:
    return bytes((exponent,)) + number[1:]


def exp(x: bytes) -> bytes:
    """EXP $36C4: 2 to the power x/LN 2, its whole part added to the series' exponent byte
    (6 Number too big past 255, zero below 1)."""
    scaled = fp.multiply(fp.re_stack(x), ONE_OVER_LN2)
    whole = fp.integer(scaled)  # mem-3
    fraction = fp.subtract(scaled, whole)
    value = series(fp.subtract(fp.add(fraction, fraction), fp.ONE), EXP_SERIES)
    converted = fp.fp_to_bc(whole)  # FP-TO-A: carry past 255, Z for a positive number
    too_far = converted is None or converted[0] > 0xFF
    shift = 0 if converted is None else converted[0]  # read only when not too_far
    if not fp.less_than_zero(whole):
        if too_far or value[0] + shift > 0xFF:
            raise ReportError(fp.NUMBER_TOO_BIG)
        return _with_exponent(value, value[0] + shift)
    if too_far or shift >= value[0]:
        return fp.ZERO
    return _with_exponent(value, value[0] - shift)


def ln(x: bytes) -> bytes:
    """LN $3713: A Invalid argument unless x > 0; x is split into its exponent and a mantissa
    above 0.8 (doubled when not), and the series sums the logarithm of the mantissa."""
    x = fp.re_stack(x)
    if not fp.greater_than_zero(x):
        raise ReportError(INVALID_ARGUMENT)
    exponent, mantissa = fp.subtract(fp.stack_bc(x[0]), ONE_TWO_EIGHT), _with_exponent(x, 0x80)
    if not fp.greater_than_zero(fp.subtract(mantissa, FOUR_FIFTHS)):
        exponent = fp.subtract(exponent, fp.ONE)
        mantissa = _with_exponent(mantissa, (mantissa[0] + 1) & 0xFF)
    logarithm_of_two_power = fp.multiply(exponent, LN2)
    offset = fp.subtract(fp.subtract(mantissa, fp.HALF), fp.HALF)
    z = fp.subtract(fp.multiply(offset, TWO_AND_A_HALF), fp.HALF)
    return fp.add(logarithm_of_two_power, fp.multiply(offset, series(z, LN_SERIES)))


def _reduced_angle(x: bytes) -> tuple[bytes, bool]:
    """get-argt $3783: the angle as a fraction of a right angle, -1 to 1, with the sine's sign;
    and the test cos uses (mem-0): whether the angle was in the second or third quadrant."""
    turns = fp.multiply(fp.re_stack(x), ONE_OVER_TWO_PI)
    y = fp.subtract(turns, fp.integer(fp.add(turns, fp.HALF)))
    y = fp.add(y, y)
    y = fp.add(y, y)
    z = fp.subtract(fp.absolute(y), fp.ONE)
    if not fp.greater_than_zero(z):
        return y, False
    z = fp.subtract(z, fp.ONE)
    return (z if fp.less_than_zero(y) else fp.negate(z)), True


def _sine_series(w: bytes) -> bytes:
    """C-ENT $37B7: w times the series at 2w²-1."""
    square = fp.multiply(w, w)
    return fp.multiply(w, series(fp.subtract(fp.add(square, square), fp.ONE), SIN_SERIES))


def sin(x: bytes) -> bytes:
    """SIN $37B5."""
    return _sine_series(_reduced_angle(x)[0])


def cos(x: bytes) -> bytes:
    """COS $37AA: the sine of the opposite angle, its sign set by the quadrant."""
    angle, second_or_third = _reduced_angle(x)
    opposite = fp.subtract(fp.absolute(angle), fp.ONE)
    return _sine_series(opposite if second_or_third else fp.negate(opposite))


def tan(x: bytes) -> bytes:
    """TAN $37DA: SIN x / COS x (6 Number too big where COS x is 0)."""
    return fp.divide(sin(x), cos(x))


def atn(x: bytes) -> bytes:
    """ATN $37E2: for |x| >= 1, ±PI/2 plus the arctangent of -1/x; the series does the rest."""
    x = fp.re_stack(x)
    if x[0] < FLOATING_ONE_EXPONENT:
        base, argument = fp.ZERO, x
    else:
        argument = fp.divide(fp.negate(fp.ONE), x)
        base = HALF_PI if fp.less_than_zero(argument) else fp.negate(HALF_PI)
    square = fp.multiply(argument, argument)
    z = fp.subtract(fp.add(square, square), fp.ONE)
    return fp.add(base, fp.multiply(argument, series(z, ATN_SERIES)))


def asn(x: bytes) -> bytes:
    """ASN $3833: twice ATN (x / (SQR (1-x*x) + 1)); A Invalid argument past ±1 (from SQR)."""
    root = sqr(fp.negate(fp.subtract(fp.multiply(x, x), fp.ONE)))
    half = atn(fp.divide(x, fp.add(root, fp.ONE)))
    return fp.add(half, half)


def acs(x: bytes) -> bytes:
    """ACS $3843: PI/2 - ASN x."""
    return fp.negate(fp.subtract(asn(x), HALF_PI))


def sqr(x: bytes) -> bytes:
    """SQR $384A: x itself when 0, else x ^ 0.5."""
    return x if fp.is_zero(x) else to_power(x, fp.HALF)


def to_power(x: bytes, y: bytes) -> bytes:
    """to-power $3851: EXP (y * LN x); for x = 0, 1 when y is 0, 0 when y > 0 and 6 Number too
    big (a division by zero) when y < 0."""
    if not fp.is_zero(x):
        return exp(fp.multiply(y, ln(x)))
    if fp.is_zero(y):
        return fp.ONE
    if fp.greater_than_zero(y):
        return fp.ZERO
    return fp.divide(fp.ONE, fp.ZERO)
