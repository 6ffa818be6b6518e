"""The 64 KiB memory image as BASIC reaches it: PEEK, POKE, USR "a" and the ROM's number checks.

The genuine ROM sits at 0 (read-only), then the display file, attributes, system variables
(addresses in `sysvars`) and UDGs at their real places.
"""

import numpy as np

from . import fp, sysvars
from .errors import INTEGER_OUT_OF_RANGE, INVALID_ARGUMENT, ReportError
from .rom import ROM


def find_byte(value: float) -> int:
    """FIND-INT1: a number rounded (halves up) to 0–255, or report B."""
    if type(value) is int and 0 <= value <= 0xFF:  # as the ROM takes it, without the round trip
        return value
    return fp.find_int1(fp.from_float(value))


def find_word(value: float) -> int:
    """FIND-INT2: a number rounded (halves up) to 0–65535, or report B."""
    if type(value) is int and 0 <= value <= 0xFFFF:
        return value
    return fp.find_int2(fp.from_float(value))


class Memory:
    """The machine's memory (`memory`, a numpy array of 65536 bytes) and BASIC's access to it."""

    def __init__(self):
        self.memory = np.zeros(65536, dtype=np.uint8)
        self.memory[: len(ROM)] = np.frombuffer(ROM, dtype=np.uint8)
        self.ram = memoryview(self.memory)  # the same bytes, for fast access one at a time

    def peek(self, address: int) -> int:
        """PEEK: the byte at `address` (0–65535)."""
        return int(self.memory[find_word(address)])

    def poke(self, address: float, value: float) -> None:
        """POKE: write a byte (a negative value is taken modulo 256, as the ROM does); ROM
        addresses are read-only."""
        address = find_word(address)
        rounded = fp.fp_to_a(fp.from_float(value))
        if rounded is None:
            raise ReportError(INTEGER_OUT_OF_RANGE)
        magnitude, negative = rounded
        value = -magnitude & 0xFF if negative else magnitude
        if address >= sysvars.RAM_START:
            self.memory[address] = value

    def usr(self, letter: str) -> int:
        """USR "a" … USR "u": the address of a UDG's 8 bytes."""
        if len(letter) != 1 or not "a" <= letter.lower() <= "u":
            raise ReportError(INVALID_ARGUMENT)
        return self._peek_word(sysvars.UDG) + 8 * (ord(letter.lower()) - ord("a"))

    def _peek_word(self, address: int) -> int:
        return int(self.memory[address]) + 256 * int(self.memory[address + 1])

    def _poke_word(self, address: int, value: int) -> None:
        self.memory[address] = value & 0xFF
        self.memory[address + 1] = value >> 8
