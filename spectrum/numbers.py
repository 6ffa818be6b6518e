"""Numbers as text, exactly as the ROM prints and reads them.

``format_number`` mirrors PRINT-FP ($2DE3) step by step on the calculator of :mod:`spectrum.fp`:
8 significant digits, trailing zeros dropped, "0." before a fraction only from 0.1 up, E form
once the exponent is -6 or less or 8 or more. ``parse_number`` gives the value the ROM stores for
a literal, which is often not the nearest one (".5" is 0.4999999998835847).
"""

from . import fp

LOG_10_OF_2 = fp.stk_data(bytes((0xEF, 0x1A, 0x20, 0x9A, 0x85)))  # the ROM's 0.30103
SIGNIFICANT_DIGITS = 8


def format_number(x: float) -> str:
    """The text ``PRINT x`` shows, x taken as the nearest 5-byte number."""
    return print_fp(fp.from_float(x))


def parse_number(text: str) -> float:
    """The value the ROM makes of a literal such as "12", ".5" or "1E-6" (a leading "-" negates)."""
    text = text.strip()
    if text.startswith("-"):
        return fp.to_float(fp.negate(fp.dec_to_fp(text[1:].lstrip())))
    return fp.to_float(fp.dec_to_fp(text))


def _signed_byte(value: int) -> int:
    value &= 0xFF
    return value - 256 if value & 0x80 else value


def log_2_a(a: int) -> int:
    """LOG(2^A) $2DC1 (with the FP-TO-A it runs into): |INT (A × log10 2)| for a signed byte A."""
    product = fp.multiply(fp.int_store(abs(a), a < 0), LOG_10_OF_2)
    converted = fp.fp_to_a(fp.integer(product))
    assert converted is not None  # at most 38 for a byte A
    return converted[0]


def print_fp(number: bytes) -> str:
    """PRINT-FP $2DE3: the text of a 5-byte number."""
    sign = ""
    if fp.less_than_zero(number):
        sign, number = "-", fp.absolute(number)  # PF-NEGTVE goes on without a test for zero
    elif not fp.greater_than_zero(number):
        return "0"
    digits, exponent = _digits(number)
    return sign + _layout(digits, exponent)


def _digits(number: bytes) -> tuple[list[int], int]:
    """PF-LOOP $2E01 to PF-COUNT $2F2D: up to 8 rounded digits and the count before the point.

    The count (MEM-5-2nd) is a byte; it is returned as a signed one.
    """
    digits: list[int] = []
    exponent = 0
    while True:
        whole = fp.integer(number)
        fraction = fp.subtract(number, whole)
        if whole[0] == 0:  # a small integer part, 0 to 65535
            if fp.int_fetch(whole)[0] == 0:
                digits, exponent, fraction = _small(fraction)
                break
            whole_value = fp.int_fetch(whole)[0]
        elif whole[0] - 0x80 >= 28:  # PF-LARGE: scale the whole part down and go round again
            scale = log_2_a(whole[0] - 0x80) - 7
            exponent += scale
            number = fp.e_to_fp(whole, _signed_byte(-scale))
            continue
        else:  # PF-MEDIUM: the whole part is the top bits of the mantissa
            bits = whole[0] - 0x80
            whole_value = (int.from_bytes(whole[1:], "big") | 0x80000000) >> (32 - bits)
        # PF-BITS and PF-DIGITS: decimal digits of the whole part, leading zeros skipped
        digits = [int(char) for char in str(whole_value)]
        exponent += len(digits)
        if len(digits) > SIGNIFICANT_DIGITS:
            round_up = digits[SIGNIFICANT_DIGITS] > 4
            return _round(digits[:SIGNIFICANT_DIGITS], exponent, round_up)
        break
    return _fraction_digits(digits, exponent, fraction)


def _small(fraction: bytes) -> tuple[list[int], int, bytes]:
    """PF-SMALL $2E24: no whole part; scale the fraction up by a power of ten from its exponent."""
    scale = log_2_a(_signed_byte(fraction[0] - 0x7E))
    scaled = fp.e_to_fp(fraction, _signed_byte(scale))
    whole = fp.integer(scaled)
    converted = fp.fp_to_a(whole)
    assert converted is not None  # a fraction scaled up to a byte's digits
    first = converted[0]
    # A first digit of zero is not counted, so the next digit takes its place.
    counted = 1 if 1 <= first <= 128 else 0
    return [first][:counted], counted - scale, fp.subtract(scaled, whole)


def _fraction_digits(digits: list[int], exponent: int, fraction: bytes) -> tuple[list[int], int]:
    """PF-FRACTN $2ECF: the fraction as a 32-bit binary fraction, ten times over for each digit."""
    binary = fp.shift_fp(int.from_bytes(fraction[1:], "big") | 0x80000000, (0x80 - fraction[0]) & 0xFF) & 0xFFFFFFFF
    digits = list(digits)
    while len(digits) < SIGNIFICANT_DIGITS:
        digit, binary = divmod(binary * 10, 1 << 32)
        digits.append(digit)
    return _round(digits, exponent, bool(binary >> 31))


def _round(digits: list[int], exponent: int, round_up: bool) -> tuple[list[int], int]:
    """PF-ROUND $2F0C: round the last digit, carrying back, and drop trailing zeros."""
    carry = int(round_up)
    for place in range(len(digits) - 1, -1, -1):
        digit = digits[place] + carry
        if digit == 0:
            carry = 0
        elif digit < 10:
            return digits[:place] + [digit], _signed_byte(exponent)
    return [1], _signed_byte(exponent + 1)  # all nines carried (or all zeros): a single 1


def _layout(digits: list[int], exponent: int) -> str:
    """PF-COUNT $2F2D onwards: plain form for counts -4..8 before the point, else E form."""
    if -4 <= exponent <= 8:
        return ("0" if exponent == 0 else "") + _plain(digits, exponent)
    power = _signed_byte(exponent - 1)
    return f"{_plain(digits, 1)}E{'+' if power >= 0 else '-'}{abs(power)}"


def _plain(digits: list[int], exponent: int) -> str:
    """PF-E-SBRN $2F4A: digits with the point after `exponent` of them, padding with zeros."""
    text = "".join(map(str, digits))
    if exponent > 0:
        before, after = text[:exponent].ljust(exponent, "0"), text[exponent:]
        return before + ("." + after if after else "")
    return "." + "0" * -exponent + text
