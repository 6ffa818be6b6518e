"""Call the genuine ROM's own routines under SkoolKit's Z80 core, to compare the layer with them.

The ROM is booted once to its editor; every call then starts from that machine, puts operands on
the calculator stack, runs one routine or a calculator program (RST 28) up to a sentinel address,
and reads back the calculator stack, or the report if the ROM stopped with an error.
Also here: hypothesis strategies for 5-byte numbers, shared by the tests of the calculator.
"""

from functools import cache

from hypothesis import strategies as st

from spectrum import fp, sysvars
from spectrum.errors import ReportError
from spectrum.oracle import booted
from spectrum.rom import report_text
from spectrum.z80 import A, B, C, D, E, F, H, IXh, IXl, L, PC, SP, T, Z80

SENTINEL = 0xF100  # free RAM; calls return (or, after an error, ERR_SP sends them) here
MACHINE_STACK = 0xFE00
ERR_SP = 23613
MEM = 23656
RST_28, END_CALC = 0xEF, 0x38
STR_DOLLAR = 0x2E
BEEP = 0x03F8
BEEPER = 0x03B5
FP_TO_BC = 0x2DA2
FP_TO_A = 0x2DD5
DEC_TO_FP = 0x2C9B
E_TO_FP = 0x2D4F
CH_ADD = 23645
LITERAL = 0xF200  # where a literal's text is put for DEC-TO-FP
CARRY, ZERO_FLAG = 0x01, 0x40
MAX_T_STATES = 30 * 3_500_000


class Speaker:
    """Tracer recording (T-state, level) whenever bit 4 of port $FE changes."""

    border = 7

    def __init__(self):
        self.level = 0
        self.edges: list[int] = []

    def read_port(self, registers, port):
        return 0xFF

    def write_port(self, registers, port, value, *rest):
        if not port & 1 and (value >> 4) & 1 != self.level:
            self.level ^= 1
            self.edges.append(registers[T])


class Rom:
    """A 48K Spectrum sitting in its editor, reset to that state before every call."""

    def __init__(self):
        memory, registers = booted()
        self.sim = Z80(memory, registers)
        self.speaker = Speaker()
        self.sim.set_tracer(self.speaker)
        self.memory = self.sim.memory
        self.booted = memory, self.sim.registers[:]

    def _word(self, address: int) -> int:
        return self.memory[address] | self.memory[address + 1] << 8

    def _set_word(self, address: int, value: int) -> None:
        self.memory[address : address + 2] = value.to_bytes(2, "little")

    def _prepare(self, operands: tuple[bytes, ...], pc: int, a: int = 0, b: int = 0) -> None:
        memory, registers = self.booted
        self.memory[16384:] = memory[16384:]
        self.sim.registers[:] = registers
        self.sim.registers[A], self.sim.registers[B] = a, b
        stack = self._word(sysvars.STKBOT)
        for number in operands:
            assert len(number) == 5
            self.memory[stack : stack + 5] = number
            stack += 5
        self._set_word(sysvars.STKEND, stack)
        self._set_word(MEM, 23698)  # MEMBOT
        self.memory[sysvars.ERR_NR] = 0xFF
        # The error handler address at ERR_SP, and below it the return address: both the sentinel.
        self._set_word(MACHINE_STACK - 2, SENTINEL)
        self._set_word(ERR_SP, MACHINE_STACK - 2)
        self._set_word(MACHINE_STACK - 4, SENTINEL)
        self.sim.registers[SP] = MACHINE_STACK - 4
        self.sim.registers[PC] = pc

    def _run(self) -> None:
        """Run to the sentinel; raise the ROM's report as ReportError if it stopped with one."""
        limit = self.sim.registers[T] + MAX_T_STATES
        self.sim.run(stop=SENTINEL, until=limit, interrupts=False)
        assert self.sim.registers[PC] == SENTINEL, "the routine did not return"
        error = self.memory[sysvars.ERR_NR]
        if error != 0xFF:
            raise ReportError(report_text(error + 1))

    def calculate(self, literals: bytes, *operands: bytes, breg: int = 0) -> bytes:
        """Run RST 28 with `literals` (end-calc is added) on `operands`; the last value left.

        `breg` is the B register at RST 28, which the calculator keeps in BREG (fp-calc-2, $3B,
        runs the literal held there).
        """
        program = bytes((RST_28,)) + literals + bytes((END_CALC,))
        start = SENTINEL - len(program)  # the program ends where the sentinel is
        self._prepare(operands, start, b=breg)
        self.memory[start:SENTINEL] = program
        self._run()
        end = self._word(sysvars.STKEND)
        return bytes(self.memory[end - 5 : end])

    def call(self, address: int, *operands: bytes, a: int = 0) -> bytes:
        """CALL a routine with `operands` on the calculator stack; the calculator stack after it."""
        self._prepare(operands, address, a=a)
        self._run()
        return bytes(self.memory[self._word(sysvars.STKBOT) : self._word(sysvars.STKEND)])

    def fp_to_bc(self, number: bytes, address: int = FP_TO_BC) -> tuple[int, bool] | None:
        """FP-TO-BC (or FP-TO-A at FP_TO_A): BC and the sign from Z, or None if carry is set."""
        self.call(address, number)
        registers = self.sim.registers
        if registers[F] & CARRY:
            return None
        value = registers[A] if address == FP_TO_A else registers[B] << 8 | registers[C]
        return value, not registers[F] & ZERO_FLAG

    def dec_to_fp(self, text: str) -> bytes:
        """DEC-TO-FP on `text` (with BIN as its token) read from memory, as in a BASIC line."""
        line = text.replace("BIN", "\xc4").encode("latin-1") + b"\r"
        self._prepare((), DEC_TO_FP, a=line[0])
        self.memory[LITERAL : LITERAL + len(line)] = line
        self._set_word(CH_ADD, LITERAL)
        self._run()
        if self._word(CH_ADD) != LITERAL + len(line) - 1:
            raise ValueError(f"the ROM stopped reading {text!r} early")
        end = self._word(sysvars.STKEND)
        return bytes(self.memory[end - 5 : end])

    def str_dollar(self, number: bytes) -> str:
        """STR$ of a number: the text PRINT-FP ($2DE3) writes for it."""
        descriptor = self.calculate(bytes((STR_DOLLAR,)), number)
        start, length = descriptor[1] | descriptor[2] << 8, descriptor[3] | descriptor[4] << 8
        return bytes(self.memory[start : start + length]).decode("ascii")

    def beep_counts(self, duration: bytes, pitch: bytes) -> tuple[int, int]:
        """BEEP stopped on its way into BEEPER: (timing HL, cycles), cycles 0 for no sound."""
        self._prepare((duration, pitch), BEEP)
        # Returning without a sound (or with an error) now also reaches BEEPER, but with IX marked.
        marker = bytes((0xDD, 0x21, 0xFF, 0xFF, 0xC3)) + BEEPER.to_bytes(2, "little")
        self.memory[SENTINEL : SENTINEL + len(marker)] = marker  # LD IX,$FFFF; JP BEEPER
        self.sim.registers[IXh] = self.sim.registers[IXl] = 0
        self.sim.run(stop=BEEPER, until=self.sim.registers[T] + MAX_T_STATES, interrupts=False)
        registers = self.sim.registers
        assert registers[PC] == BEEPER, "BEEP did not finish"
        if self.memory[sysvars.ERR_NR] != 0xFF:
            raise ReportError(report_text(self.memory[sysvars.ERR_NR] + 1))
        timing = registers[H] << 8 | registers[L]
        if registers[IXh] == registers[IXl] == 0xFF:
            return timing, 0
        return timing, (registers[D] << 8 | registers[E]) + 1

    def beep(self, duration: bytes, pitch: bytes) -> list[int]:
        """Run the BEEP command routine on (duration, pitch); speaker edge times from the first."""
        self.speaker.level, self.speaker.edges = 0, []
        self.call(BEEP, duration, pitch)
        edges = self.speaker.edges
        return [t - edges[0] for t in edges]


def outcome(function, *args):
    """A function's result, or the text of the report it raised, for comparing two of them."""
    try:
        return function(*args)
    except ReportError as error:
        return str(error)


@cache
def rom() -> Rom:
    """The one booted machine the tests share."""
    return Rom()


# --- hypothesis strategies for 5-byte numbers --------------------------------------------------


def _floating(exponent: int, mantissa: int, negative: bool) -> bytes:
    first = (mantissa >> 24) & 0x7F | negative << 7
    return bytes((exponent, first)) + (mantissa & 0xFFFFFF).to_bytes(3, "big")


small_integers = st.one_of(
    st.integers(-65535, 65535).map(lambda value: fp.int_store(abs(value), value < 0)), st.just(fp.MINUS_65536)
)
exponents = st.one_of(st.integers(1, 255), st.sampled_from([1, 2, 0x7F, 0x80, 0x81, 0x91, 0xA0, 254, 255]))
mantissas = st.one_of(st.integers(0, 0xFFFFFFFF), st.sampled_from([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]))
floating = st.builds(_floating, exponents, mantissas, st.booleans())
numbers = st.one_of(small_integers, floating, st.just(fp.ZERO))
moderate = st.builds(_floating, st.integers(0x60, 0xA0), mantissas, st.booleans())


@st.composite
def pairs(draw) -> tuple[bytes, bytes]:
    """Two numbers, often close in exponent or value so that alignment and cancellation happen."""
    first = draw(numbers)
    kind = draw(st.sampled_from(["any", "near exponent", "near value"]))
    if kind == "any" or first[0] == 0:
        return first, draw(numbers)
    exponent = min(255, max(1, first[0] + draw(st.integers(-34, 34))))
    if kind == "near exponent":
        return first, _floating(exponent, draw(mantissas), draw(st.booleans()))
    mantissa = int.from_bytes(first[1:], "big") ^ draw(st.integers(0, 0xFFFF))
    return first, bytes((first[0],)) + mantissa.to_bytes(4, "big")
