"""BEEP as the ROM plays it: its own integer loop counts, and the speaker edges BEEPER makes.

BEEP ($03F8) turns (duration, pitch) into two integers with the ROM calculator: the timing HL of
BEEPER's delay loop and the number of cycles. BEEPER ($03B5) then toggles the speaker every
4 × HL + 118 T-states (its instruction timings, worked out below), with interrupts disabled.
"""

import functools

from . import fp
from .errors import INTEGER_OUT_OF_RANGE, ReportError

# The semitone table at $046E: C to B of the octave from middle C, in Hz, as the ROM stores them.
SEMITONES = tuple(
    bytes.fromhex(entry)
    for entry in (
        "8902D01286",
        "890A976075",
        "8912D5171F",
        "891B904102",
        "8924D053CA",
        "892E9D36B1",
        "8938FF493E",
        "8943FF6A73",
        "894FA70054",
        "895C000000",
        "896914F624",
        "8976F11005",
    )
)
# Constants BEEP puts on the calculator stack (stk-data), decoded from the ROM's short forms.
SEMITONE_STEP = fp.stk_data(bytes.fromhex("EC6C981FF5"))  # ≈ ln 2 / 12: linear between semitones
CLOCK_OVER_8 = fp.stk_data(bytes.fromhex("8043559F80"))  # 437500 = 3.5 MHz / 8
LOOP_OVERHEAD = fp.stk_data(bytes.fromhex("3571"))  # 30.125
LONGEST_DURATION = 10  # FIND-INT1 of the duration must give 0..10

# T-states of BEEPER's instructions between one OUT to the speaker and the next (uncontended).
OUT_AND_TEST = 11 + 4 + 4 + 8  # OUT ($FE),A; LD B,H; LD C,A; BIT 4,A
AFTER_RISING = 12 + 4 + 4 + 8  # JR NZ (taken); LD C,L; INC C; JP (IX)
# JR NZ; LD A,D; OR E; JR Z; LD A,C; LD C,L; DEC DE; JP (IX)
AFTER_FALLING = 7 + 4 + 4 + 7 + 4 + 4 + 6 + 8
NOP = 4  # 0 to 3 NOPs, entered part-way through, give the fine timing from L's low two bits
COUNTERS = 4 + 4  # INC B; INC C
INNER_REPEAT, INNER_LAST = 4 + 12, 4 + 7  # DEC C; JR NZ (taken / not taken)
OUTER = 7 + 4 + 10  # LD C,$3F; DEC B; JP NZ
TOGGLE = 7  # XOR $10


def beep_timing(duration: bytes, pitch: bytes) -> tuple[int, int]:
    """BEEP $03F8: BEEPER's timing HL and the cycle count for ``BEEP duration,pitch``.

    Raises ReportError "B Integer out of range" where the ROM does: INT pitch outside -60..127,
    a duration not rounding to 0..10, or a timing or cycle count outside 0..65535 (pitch 70 and
    up gives a negative timing). A count of 0 cycles means silence.
    """
    whole = fp.integer(pitch)
    # A fraction of a semitone multiplies the frequency by 1 + fraction × ln 2 / 12.
    factor = fp.add(fp.multiply(fp.subtract(pitch, whole), SEMITONE_STEP), fp.ONE)
    extension = 0xFF if whole[2] & 0x80 else 0
    if whole[0] or whole[1] != extension or whole[3] != extension:  # INT pitch not -128..127
        raise ReportError(INTEGER_OUT_OF_RANGE)
    from_lowest_c = whole[2] - (256 if extension else 0) + 60
    if from_lowest_c < 0:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    octave, semitone = divmod(from_lowest_c, 12)
    frequency = fp.multiply(factor, SEMITONES[semitone])
    # Octaves up or down from middle C go straight onto the exponent byte.
    frequency = bytes(((frequency[0] + octave - 5) & 0xFF,)) + frequency[1:]
    if fp.find_int1(duration) > LONGEST_DURATION:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    cycles = fp.multiply(duration, frequency)
    timing = fp.subtract(fp.divide(CLOCK_OVER_8, frequency), LOOP_OVERHEAD)
    return fp.find_int2(timing), fp.find_int2(cycles)


def _delay(count: int) -> int:
    """A DEC C / JR NZ loop starting with C = count."""
    return (count - 1) * INNER_REPEAT + INNER_LAST


def half_period(timing: int, rising: bool) -> int:
    """T-states from the OUT that raised (or lowered) the speaker to the next OUT."""
    high, low = timing >> 8, timing & 0xFF
    count = (low >> 2) + (1 if rising else 0) + 1  # LD C,L (+ INC C when rising); INC C
    rounds = (high + 1) & 0xFF or 256  # INC B; the first round uses C, the rest C = $3F
    return (
        OUT_AND_TEST
        + (AFTER_RISING if rising else AFTER_FALLING)
        + (low & 3) * NOP
        + COUNTERS
        + _delay(count)
        + rounds * OUTER
        + (rounds - 1) * _delay(0x3F)
        + TOGGLE
    )


def beeper(timing: int, cycles: int) -> list[int]:
    """BEEPER $03B5: T-states of the speaker edges, first at 0, two per cycle (up, then down)."""
    edges, now = [], 0
    for edge in range(2 * cycles):
        edges.append(now)
        now += half_period(timing, rising=edge % 2 == 0)
    return edges


def beep_edges(duration: float, pitch: float) -> list[int]:
    """Speaker edges of ``BEEP duration,pitch``, each number taken as the nearest 5-byte value.

    A literal typed in BASIC is stored by the ROM not always as the nearest value (".5" is a little
    less than 0.5): pass ``spectrum.numbers.parse_number(text)`` to be exact for such a literal.
    """
    return list(_beep_edges(duration, pitch))


@functools.lru_cache(maxsize=256)  # a program's BEEPs are few, and played again and again
def _beep_edges(duration: float, pitch: float) -> tuple[int, ...]:
    return tuple(beeper(*beep_timing(fp.from_float(duration), fp.from_float(pitch))))
