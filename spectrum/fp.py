"""The ROM's floating-point calculator, bit for bit, on the 5-byte numbers it keeps.

A number is ``bytes`` of length 5, exactly as the ROM stores it:

- small-integer form ``00 ss lo hi 00``: sign byte ``ss`` (00 or FF) and the two's complement
  word ``hi lo``, for whole numbers -65535..65535 (some routines also make -65536,
  ``00 FF 00 00 00``);
- floating form ``ee m1 m2 m3 m4``: value = m × 2**(ee-128), where m = 0.m1m2m3m4 in binary with
  its top bit (always 1) replaced by the sign bit; zero is five zero bytes.

The functions named after ROM routines mirror them one for one. The arithmetic keeps the ROM's own
rounding, truncation and overflow rules, so results match the real machine bit for bit; overflow
raises ``ReportError("6 Number too big")`` where the ROM stops with that report.

Inside `counting()`, the routines also tally the passes of their loops whose number depends on the
numbers (the bits a multiplication adds, the quotient bits a division restores, the places a sum
is shifted and normalised), which is what their time depends on.
"""

import math
from contextvars import ContextVar

from .errors import INTEGER_OUT_OF_RANGE, ReportError

NUMBER_TOO_BIG = "6 Number too big"
NONSENSE_IN_BASIC = "C Nonsense in BASIC"

ZERO = bytes(5)
ONE = bytes((0, 0, 1, 0, 0))
HALF = bytes((0x80, 0, 0, 0, 0))
TEN = bytes((0, 0, 10, 0, 0))
MINUS_65536 = bytes((0, 0xFF, 0, 0, 0))

_TOP_BIT = 0x80000000
_MANTISSA = 0xFFFFFFFF
_FORTY_BITS = (1 << 40) - 1


_passes: ContextVar[dict[str, int] | None] = ContextVar("passes", default=None)


class counting:  # noqa: N801 - used as a function is: ``with counting() as passes``
    """The passes the routines run in this block make, by name (see the module's note): a dict
    of the names counted. A class, not a generator: made many times a statement."""

    __slots__ = ("passes", "token")

    def __enter__(self) -> dict[str, int]:
        self.passes: dict[str, int] = {}
        self.token = _passes.set(self.passes)
        return self.passes

    def __exit__(self, *exception) -> None:
        _passes.reset(self.token)


def _count(name: str, times: int = 1) -> None:
    passes = _passes.get()
    if passes is not None and times:
        passes[name] = passes.get(name, 0) + times


def _too_big() -> ReportError:
    return ReportError(NUMBER_TOO_BIG)


def _pack(exponent: int, mantissa: int, negative: bool) -> bytes:
    """Floating form: the mantissa's top bit gives way to the sign."""
    first = (mantissa >> 24) & 0x7F | (0x80 if negative else 0)
    return bytes((exponent, first)) + (mantissa & 0xFFFFFF).to_bytes(3, "big")


def _unpack(number: bytes) -> tuple[int, int, bool]:
    """Exponent byte, 32-bit mantissa with its top bit restored, and sign of a floating form."""
    return number[0], int.from_bytes(number[1:], "big") | _TOP_BIT, bool(number[1] & 0x80)


def _small_value(number: bytes) -> int:
    """The signed value of a small integer: sign byte and word form a 17-bit two's complement."""
    word = number[2] | number[3] << 8
    return word - 0x10000 if number[1] & 0x80 else word


# --- conversions -------------------------------------------------------------------------------


def to_float(number: bytes) -> float:
    """The exact value of a 5-byte number (every one is exactly a Python float)."""
    if number[0] == 0:
        return float(_small_value(number))
    exponent, mantissa, negative = _unpack(number)
    value = math.ldexp(mantissa, exponent - 128 - 32)
    return -value if negative else value


def from_float(value: float) -> bytes:
    """The 5-byte number nearest to `value`; whole numbers within ±65535 in small-integer form."""
    if math.isnan(value):
        raise ValueError("NaN has no Spectrum form")
    if math.isfinite(value) and float(value).is_integer() and abs(value) <= 0xFFFF:
        return int_store(abs(int(value)), value < 0)
    if math.isinf(value):
        raise _too_big()
    fraction, power = math.frexp(abs(value))
    mantissa = round(math.ldexp(fraction, 32))  # exact halving ties go to even, like float rounding
    if mantissa > _MANTISSA:
        mantissa, power = _TOP_BIT, power + 1
    exponent = power + 128
    if exponent > 255:
        raise _too_big()
    if exponent < 1:
        # below the smallest floating form, 2**-128: only zero or that is nearest
        return _pack(1, _TOP_BIT, value < 0) if abs(value) > math.ldexp(1, -129) else ZERO
    return _pack(exponent, mantissa, value < 0)


def stk_data(encoded: bytes) -> bytes:
    """stk-data $33C6: expand a constant from the ROM's compressed form (as in its tables)."""
    count = (encoded[0] >> 6) + 1
    exponent, start = encoded[0] & 0x3F, 1
    if exponent == 0:
        exponent, start = encoded[1], 2
    mantissa = encoded[start : start + count]
    return bytes(((exponent + 0x50) & 0xFF,)) + mantissa + bytes(4 - count)


def int_fetch(number: bytes) -> tuple[int, bool]:
    """INT-FETCH $2D7F: magnitude (mod 65536, so -65536 gives 0) and sign of a small integer."""
    word = number[2] | number[3] << 8
    negative = bool(number[1] & 0x80)
    return ((-word) & 0xFFFF if negative else word), negative


def int_store(magnitude: int, negative: bool) -> bytes:
    """INT-STORE $2D8E: small-integer form (a negative zero comes out as -65536)."""
    word = (-magnitude) & 0xFFFF if negative else magnitude
    return bytes((0, 0xFF if negative else 0, word & 0xFF, word >> 8, 0))


def stack_bc(value: int) -> bytes:
    """STACK-BC $2D2B: an unsigned 16-bit register pair as a small integer."""
    return int_store(value & 0xFFFF, False)


def re_stack(number: bytes) -> bytes:
    """re-stack $3297: a small integer in floating form (-65536 becomes zero)."""
    if number[0]:
        return number
    magnitude, negative = int_fetch(number)
    if magnitude == 0:
        return ZERO
    length = magnitude.bit_length()
    _count("re-stack")
    _count("re-stack-shift", 16 - length)
    return _pack(0x80 + length, magnitude << (32 - length), negative)


def fp_to_bc(number: bytes) -> tuple[int, bool] | None:
    """FP-TO-BC $2DA2: rounded magnitude (0..65535) and sign, or None when out of range.

    A floating form is rounded as INT (x + 0.5), so halves go up: 2.5 → 3, -2.5 → -2.
    """
    if number[0]:
        number = integer(add(number, HALF))
        if number[0]:
            return None
    return int_fetch(number)


def fp_to_a(number: bytes) -> tuple[int, bool] | None:
    """FP-TO-A $2DD5: as FP-TO-BC, but None unless the magnitude fits in a byte."""
    result = fp_to_bc(number)
    return result if result is not None and result[0] < 256 else None


def find_int1(number: bytes) -> int:
    """FIND-INT1 $1E94: 0..255, or report B."""
    result = fp_to_a(number)
    if result is None or result[1]:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    return result[0]


def find_int2(number: bytes) -> int:
    """FIND-INT2 $1E99: 0..65535, or report B."""
    result = fp_to_bc(number)
    if result is None or result[1]:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    return result[0]


# --- tests and signs ---------------------------------------------------------------------------


def is_small(number: bytes) -> bool:
    """Whether a number is in the ROM's short form, a whole number -65535 to 65535 (exponent 0)."""
    return number[0] == 0


def is_zero(number: bytes) -> bool:
    """TEST-ZERO $34E9: whether the first four bytes are zero."""
    return not any(number[:4])


def less_than_zero(number: bytes) -> bool:
    """less-0 $3506: the sign bit (of either form)."""
    return bool(number[1] & 0x80)


def greater_than_zero(number: bytes) -> bool:
    """greater-0 $34F9: non-zero with the sign bit clear."""
    return not is_zero(number) and not less_than_zero(number)


def negate(number: bytes) -> bytes:
    """negate $346E: flip the sign (for small integers via INT-FETCH, so -(-65536) is zero)."""
    if is_zero(number):
        return number
    if number[0]:
        return number[:1] + bytes((number[1] ^ 0x80,)) + number[2:]
    magnitude, negative = int_fetch(number)
    return int_store(magnitude, not negative)


def absolute(number: bytes) -> bytes:
    """abs $346A: clear the sign."""
    if number[0]:
        return number[:1] + bytes((number[1] & 0x7F,)) + number[2:]
    return int_store(int_fetch(number)[0], False)


def compare(first: bytes, relation: str, second: bytes) -> bool:
    """no-l-eql etc. $353B: a numeric comparison, which the ROM makes by subtraction.

    `relation` is one of ``< <= = <> >= >``. The subtraction can itself report 6 Number too big.
    """
    if relation in ("<", ">="):
        first, second = second, first
    difference = subtract(first, second)
    if relation == "=":
        return is_zero(difference)
    if relation == "<>":
        return not is_zero(difference)
    if relation in ("<", ">"):
        return greater_than_zero(difference)
    if relation in ("<=", ">="):
        return not greater_than_zero(difference)
    raise ValueError(f"unknown relation {relation!r}")


# --- addition ----------------------------------------------------------------------------------


def _prep_add(number: bytes) -> tuple[int, int]:
    """PREP-ADD $2F9B: exponent and the mantissa as a 40-bit two's complement number."""
    if number[0] == 0:
        return 0, 0
    exponent, mantissa, negative = _unpack(number)
    return exponent, (-mantissa) & _FORTY_BITS if negative else mantissa


def shift_fp(value: int, places: int) -> int:
    """SHIFT-FP $2FDD: arithmetic shift right of a 40-bit number, rounding on the last bit out.

    The rounding carry stays within the low 32 bits; if it wraps them to zero (or 33 or more
    places are asked for) the whole number becomes zero, as in the ROM.
    """
    if places == 0:
        return value
    if places > 32:
        return 0
    signed = value - (1 << 40) if value >> 39 else value
    shifted = (signed >> places) & _FORTY_BITS
    if (value >> (places - 1)) & 1:
        low = (shifted + 1) & _MANTISSA
        if low == 0:
            return 0
        shifted = (shifted & ~_MANTISSA) | low
    return shifted


def add(first: bytes, second: bytes) -> bytes:
    """addition $3014: small integers added directly while the sum fits, else in floating form."""
    if first[0] == 0 and second[0] == 0:
        total = _small_value(first) + _small_value(second)
        if -0x10000 <= total <= 0xFFFF:
            word = total & 0xFFFF  # the ROM rewrites bytes 1-3 of the first number only
            return bytes((0, 0xFF if total < 0 else 0, word & 0xFF, word >> 8, first[4]))
    exponent1, value1 = _prep_add(re_stack(first))
    exponent2, value2 = _prep_add(re_stack(second))
    _count("add-floating")
    _count("add-shift", min(abs(exponent2 - exponent1), 33))
    # The number with the smaller exponent is aligned to the other (on a tie, the first, by 0).
    if exponent2 >= exponent1:
        exponent, total = exponent2, value2 + shift_fp(value1, exponent2 - exponent1)
    else:
        exponent, total = exponent1, value1 + shift_fp(value2, exponent1 - exponent2)
    total &= _FORTY_BITS
    top = total >> 32
    if (top ^ (top >> 1)) & 1:  # the sum spilled into the sign byte: one place back
        _count("add-spill")
        total = shift_fp(total, 1)
        exponent += 1
        if exponent > 255:
            raise _too_big()
    negative = bool(total >> 39)
    mantissa = total & _MANTISSA
    if negative:  # TEST-NEG: the ROM complements only the 32-bit mantissa
        _count("add-negative")
        mantissa = (-mantissa) & _MANTISSA
        if mantissa == 0:
            mantissa = _TOP_BIT
            exponent += 1
            if exponent > 255:
                raise _too_big()
    return _normalise(exponent, mantissa, 0, negative)


def subtract(first: bytes, second: bytes) -> bytes:
    """subtract $300F: negate the second number and add."""
    return add(first, negate(second))


# --- normalising the result of an operation ---------------------------------------------------


def _near_zero(mantissa: int, negative: bool) -> bytes:
    """NEAR-ZERO $3159: an exponent run down to zero leaves 2**-128 if the top bit is set."""
    return _pack(1, _TOP_BIT, negative) if mantissa & _TOP_BIT else ZERO


def _normalise(exponent: int, mantissa: int, extra: int, negative: bool) -> bytes:
    """NORMALISE $316C: shift left until the top bit is set, rounding on the byte below.

    `extra` is the byte below the mantissa; the ROM rotates it (RLCA), so after eight shifts its
    bits come round again. After 32 shifts without a top bit the result is zero.
    """
    exponent &= 0xFF
    for _ in range(32):
        if mantissa & _TOP_BIT:
            break
        _count("normalise-shift")
        carry = extra >> 7
        extra = (extra << 1 | carry) & 0xFF
        mantissa = (mantissa << 1 | carry) & _MANTISSA
        exponent = (exponent - 1) & 0xFF
        if exponent == 0:
            return _near_zero(mantissa, negative)
    else:
        return ZERO
    if extra & 0x80:  # NORML-NOW: round up
        mantissa = (mantissa + 1) & _MANTISSA
        if mantissa == 0:
            mantissa = _TOP_BIT
            exponent += 1
            if exponent > 255:
                raise _too_big()
    return _pack(exponent, mantissa, negative)


def _divn_expt(exponent: int, mantissa: int, extra: int, negative: bool) -> bytes:
    """DIVN-EXPT $313D: overflow and underflow checks on a product's or quotient's exponent."""
    if exponent > 256 or (exponent == 256 and mantissa & _TOP_BIT):
        raise _too_big()
    if exponent < 0:
        return ZERO
    if exponent == 0:
        return _near_zero(mantissa, negative)
    return _normalise(exponent, mantissa, extra, negative)


# --- multiplication and division ---------------------------------------------------------------


def multiply(first: bytes, second: bytes) -> bytes:
    """multiply $30CA: 16-bit small-integer product while it fits, else 32×32-bit mantissas."""
    if first[0] == 0 and second[0] == 0:
        magnitude1, negative1 = int_fetch(first)
        magnitude2, negative2 = int_fetch(second)
        product = magnitude1 * magnitude2
        _count("multiply-small-bit", bin(magnitude1).count("1"))
        if product <= 0xFFFF:
            return int_store(product, product != 0 and negative1 != negative2)
    first, second = re_stack(first), re_stack(second)
    if is_zero(first):
        return first
    if is_zero(second):
        return ZERO
    exponent1, mantissa1, negative1 = _unpack(first)
    exponent2, mantissa2, negative2 = _unpack(second)
    _count("multiply-floating")
    _count("multiply-bit", bin(mantissa1).count("1"))
    product = mantissa1 * mantissa2
    # The top 32 bits are the mantissa; the next byte is kept for normalising and rounding.
    return _divn_expt(exponent1 + exponent2 - 128, product >> 32, (product >> 24) & 0xFF, negative1 != negative2)


def divide(first: bytes, second: bytes) -> bytes:
    """division $31AF: restoring division of the mantissas (x / 0 reports 6 Number too big)."""
    first, second = re_stack(first), re_stack(second)
    if is_zero(second):
        raise _too_big()
    if is_zero(first):
        return first
    exponent1, dividend, negative1 = _unpack(first)
    exponent2, divisor, negative2 = _unpack(second)
    # 33 quotient bits: 32 for the mantissa and one more for rounding.
    quotient, remainder = divmod(dividend << 32, divisor)
    _count("divide")
    _count("divide-restore", 33 - bin(quotient).count("1"))
    # The ROM's 34th step forgets to double the remainder, so that bit is always 0 in practice.
    last = int(remainder - divisor - (quotient & 1) >= 0)
    extra = (quotient & 1) << 7 | last << 6 | (quotient >> 27) & 0x3F
    return _divn_expt(exponent1 - exponent2 + 129, quotient >> 1, extra, negative1 != negative2)


# --- integer parts -----------------------------------------------------------------------------


def truncate(number: bytes) -> bytes:
    """truncate $3214: towards zero; small-integer form below 32768 (and for -65536.x)."""
    exponent = number[0]
    if exponent == 0:
        return number
    _count("truncate")
    if exponent < 0x81:
        return ZERO
    if exponent == 0x91 and number[1] == 0x80 and number[2] == 0 and not number[3] & 0x80:
        return MINUS_65536
    if exponent < 0x91:
        top16 = (number[1] | 0x80) << 8 | number[2]
        _count("truncate-shift", 0x90 - exponent)
        return int_store(top16 >> (0x90 - exponent), bool(number[1] & 0x80))
    fraction_bits = 0xA0 - exponent
    if fraction_bits <= 0:
        return number
    mantissa = int.from_bytes(number[1:], "big") & ~((1 << fraction_bits) - 1)
    return number[:1] + mantissa.to_bytes(4, "big")


def integer(number: bytes) -> bytes:
    """int $36AF: INT, rounding down (truncate, less one for a negative non-whole number)."""
    if not less_than_zero(number):
        return truncate(number)
    whole = truncate(number)
    if is_zero(subtract(number, whole)):
        return whole
    return subtract(whole, ONE)


def n_mod_m(n: bytes, m: bytes) -> tuple[bytes, bytes]:
    """n-mod-m $36A0: the remainder N - M*INT (N/M) and INT (N/M)."""
    quotient = integer(divide(n, m))
    return subtract(n, multiply(m, quotient)), quotient


RND_MULTIPLIER = bytes((0x87, 0x16, 0x00, 0x00, 0x00))  # 75, as S-RND stacks it (floating form)
RND_MODULUS = bytes((0x91, 0x00, 0x00, 0x80, 0x00))  # 65537, as S-RND stacks it


def random_number(seed: int) -> tuple[int, bytes]:
    """S-RND $25F8: SEED+1 times 75, modulo 65537, less 1 — the new SEED — and that divided
    by 65536 (on its exponent), the number RND gives."""
    remainder, _ = n_mod_m(multiply(add(stack_bc(seed), ONE), RND_MULTIPLIER), RND_MODULUS)
    value = subtract(remainder, ONE)
    converted = fp_to_bc(value)
    assert converted is not None  # 0-65535: a remainder modulo 65537, less one
    new_seed = converted[0]
    if value[0]:
        value = bytes((value[0] - 0x10,)) + value[1:]
    return new_seed, value


# --- decimal literals --------------------------------------------------------------------------


def e_to_fp(number: bytes, exponent: int) -> bytes:
    """E-TO-FP $2D4F: number × 10**exponent, by the powers 10, 100, 10**4, … the ROM squares up.

    `exponent` is the ROM's signed byte (-128..127).
    """
    if not -128 <= exponent <= 127:
        raise ValueError("E-TO-FP takes a signed byte")
    scale = divide if exponent < 0 else multiply
    bits, power = abs(exponent), TEN
    while True:
        if bits & 1:
            number = scale(number, power)
        bits >>= 1
        if not bits:
            return number
        power = multiply(power, power)


class LiteralCursor:
    """Where the ROM's character pointer CH_ADD is within the text of a literal."""

    def __init__(self, text: str):
        self.text, self.position = text, 0

    @property
    def char(self) -> str:
        return self.text[self.position] if self.position < len(self.text) else "\r"

    def get_char(self) -> str:
        """GET-CHAR (RST 18): the current character, stepping over spaces first."""
        while self.char == " ":
            self.position += 1
        return self.char

    def next_char(self) -> str:
        """NEXT-CHAR (RST 20): step on, then over any spaces."""
        self.position += 1
        return self.get_char()

    def ch_add_plus_1(self) -> str:
        """CH-ADD+1 $0074: step on by exactly one character (INT-TO-FP does not skip spaces)."""
        self.position += 1
        return self.char


def _digit(char: str) -> int | None:
    return ord(char) - 48 if "0" <= char <= "9" else None


def _int_to_fp(cursor: LiteralCursor) -> bytes:
    """INT-TO-FP $2D3B: digits from the cursor on, each as value × 10 + digit."""
    value = ZERO
    while (digit := _digit(cursor.char)) is not None:
        value = add(stack_bc(digit), multiply(value, TEN))
        cursor.ch_add_plus_1()
    return value


def dec_to_fp(text: str) -> bytes:
    """DEC-TO-FP $2C9B: the number the ROM stores for a literal: "12", ".5", "1.5E-3", "BIN 101".

    Each fraction digit is added in as digit × (1/10, then that /10 …), so the result is often
    not the nearest number: ".5" gives 7F 7F FF FF FF. Text the ROM would reject raises its report
    (C Nonsense in BASIC, 6 Number too big); text with anything after the literal is a ValueError.
    """
    cursor = LiteralCursor(text)
    if text.startswith("BIN"):
        value = _bin_digits(cursor)
    else:
        value = decimal_literal(cursor)
    if cursor.get_char() != "\r":
        raise ValueError(f"not a number literal: {text!r}")
    return value


def _bin_digits(cursor: LiteralCursor) -> bytes:
    """BIN-DIGIT $2CA2: up to 16 significant binary digits."""
    cursor.position = 2
    value = 0
    while cursor.next_char() in "01":
        value = value << 1 | int(cursor.char)
        if value > 0xFFFF:
            raise _too_big()
    return stack_bc(value)


def decimal_literal(cursor: LiteralCursor) -> bytes:
    """NOT-BIN $2CB8 onwards: whole digits, fraction digits, then any E-part."""
    if cursor.get_char() == ".":
        if _digit(cursor.next_char()) is None:
            raise ReportError(NONSENSE_IN_BASIC)
        value = _fraction_digits(cursor, ZERO)
    else:
        if _digit(cursor.char) is None:
            raise ValueError(f"not a number literal: {cursor.text!r}")
        value = _int_to_fp(cursor)
        if cursor.char == "." and _digit(cursor.next_char()) is not None:
            value = _fraction_digits(cursor, value)
    return _e_part(cursor, value)


def _fraction_digits(cursor: LiteralCursor, value: bytes) -> bytes:
    """DEC-STO-1 $2CD5: each digit × a place value that is divided by ten each time."""
    place = ONE
    while (digit := _digit(cursor.get_char())) is not None:
        place = divide(place, TEN)
        value = add(value, multiply(stack_bc(digit), place))
        cursor.next_char()
    return value


def _e_part(cursor: LiteralCursor, value: bytes) -> bytes:
    """E-FORMAT $2CEB: an optional E (or e), sign and exponent digits."""
    if cursor.char not in "Ee":
        return value
    sign = cursor.next_char()
    if sign in "+-":
        cursor.next_char()
    if _digit(cursor.char) is None:
        raise ReportError(NONSENSE_IN_BASIC)
    exponent = fp_to_a(_int_to_fp(cursor))
    if exponent is None or exponent[0] > 127:
        raise _too_big()
    return e_to_fp(value, -exponent[0] if sign == "-" else exponent[0])
