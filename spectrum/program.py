"""A BASIC program as the ROM keeps it in memory from PROG: each line its number (2 bytes, high
first), its length (2 bytes) and its codes, with a hidden number (14 and five bytes) after every
number in it, ending with ENTER.

The hidden numbers are what the ROM's syntax check puts in a line typed in: one after each
number SCANNING reads (a line number after GO TO is an expression too; DATA items are), after the
binary digits of BIN, and an empty one after each parameter of a DEF FN. Nothing is put inside
strings or after REM. The program itself is never run from here: the interpreter (`interpreter`)
walks it for the time each statement takes.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property

from . import fp
from .basic import parse_listing
from .rom import ENTER, NUMBER_MARKER, TOKEN_BIN, TOKEN_DEF_FN, TOKEN_REM, TOKEN_THEN

HIDDEN_NUMBER = 6  # the marker and five bytes
QUOTE = ord('"')
COLON = ord(":")
PROG = 23755  # where the program starts on a 48K with no microdrive
LINE_HEADER = 4  # the line number and the length


@dataclass(frozen=True)
class Statement:
    """One statement: its codes as typed (no hidden numbers, no ':' or ENTER after it), and where
    its stored form starts in its line's stored bytes."""

    codes: bytes
    offset: int  # of its first code in `Line.stored`, after the ':' or THEN before it

    @property
    def command(self) -> int:
        return self.codes[0] if self.codes else 0


@dataclass(frozen=True)
class Line:
    number: int
    codes: bytes  # as typed, without ENTER
    stored: bytes  # as the ROM keeps it after the length: hidden numbers in, ENTER at the end
    address: int  # of its line number, from PROG on

    @cached_property
    def statements(self) -> list[Statement]:
        """The statements, split where EACH-STMT splits them: at ':' and after THEN, outside
        strings (a REM takes the rest of its line)."""
        statements, start, quoted = [], 0, False
        for index in sorted(_typed_positions(self.stored)):
            code = self.stored[index]
            if code == QUOTE:
                quoted = not quoted
            if quoted:
                continue
            first = self.stored[start] if start < len(self.stored) else ENTER
            if code == ENTER or (first != TOKEN_REM and code in (COLON, TOKEN_THEN)):
                end = index + (code == TOKEN_THEN)
                statements.append(Statement(_without_hidden(self.stored[start:end]), start))
                start = index + 1
                if code == ENTER or first == TOKEN_REM:
                    break
        return statements

    @property
    def length(self) -> int:
        """The line's whole size in memory, its number and length included."""
        return LINE_HEADER + len(self.stored)


class Program:
    """The lines of a listing in the order of their numbers, as stored from PROG."""

    def __init__(self, listing: str):
        self.lines: list[Line] = []
        address = PROG
        typed = dict(parse_listing(listing))  # as the editor takes them: a line typed again replaces it
        for number, codes in sorted(typed.items()):
            stored = stored_line(codes)
            self.lines.append(Line(number, codes, stored, address))
            address += LINE_HEADER + len(stored)
        self.end = address  # VARS
        self._index = {line.number: position for position, line in enumerate(self.lines)}
        self._numbers = [line.number for line in self.lines]  # in order, for `position`
        self._passed: dict[int, tuple[int, int]] = {}

    def line(self, number: int) -> Line:
        return self.lines[self._index[number]]

    def position(self, number: int) -> int:
        """How many lines come before the first line numbered `number` or more (LINE-ADDR's
        count of lines passed)."""
        return bisect_left(self._numbers, number)

    def lines_passed(self, number: int) -> tuple[int, int]:
        """LINE-ADDR's walk to line `number`: how many lines it passes, and how many of them have
        the high byte of `number` (the lines do not change: worked out once a number)."""
        known = self._passed.get(number)
        if known is None:
            passed = self.lines[: self.position(number)]
            known = self._passed[number] = len(passed), sum(line.number >> 8 == number >> 8 for line in passed)
        return known

    def following(self, number: int) -> Line | None:
        """The line after line `number`, or None at the end of the program."""
        position = self._index[number] + 1
        return self.lines[position] if position < len(self.lines) else None

    @property
    def size(self) -> int:
        return self.end - PROG


def stored_line(codes: bytes) -> bytes:
    """A line's codes as the ROM stores them: hidden numbers put in, ENTER added."""
    out = bytearray()
    index, quoted, after_def_fn = 0, False, False
    parameters = False  # inside the brackets of a DEF FN's parameters
    while index < len(codes):
        code = codes[index]
        if code == QUOTE:
            quoted = not quoted
        if quoted or code == QUOTE:
            out.append(code)
            index += 1
            continue
        if code == TOKEN_REM:
            out += codes[index:]
            break
        if code == TOKEN_DEF_FN:
            after_def_fn = True
        elif after_def_fn and code == ord("("):
            parameters, after_def_fn = True, False
        elif parameters and code == ord(")"):
            parameters = False
        if parameters and chr(code).isascii() and chr(code).isalpha():
            out.append(code)
            index += 1
            if index < len(codes) and codes[index] == ord("$"):
                out.append(codes[index])
                index += 1
            out += bytes((NUMBER_MARKER,)) + bytes(5)
            continue
        end = _number_end(codes, index, out)
        if end is None:
            out.append(code)
            index += 1
            continue
        literal = codes[index:end]
        binary = next((c for c in reversed(out) if c != ord(" ")), None) == TOKEN_BIN
        out += literal
        out += bytes((NUMBER_MARKER,)) + _literal_value(literal, binary)
        index = end
    return bytes(out) + bytes((ENTER,))


def _number_end(codes: bytes, index: int, before: bytearray) -> int | None:
    """Where the number literal starting at `index` ends (a binary one after BIN), or None if
    no number starts there (a digit in a name is part of the name)."""
    code = codes[index]
    previous = next((c for c in reversed(before) if c != ord(" ")), None)
    if previous == TOKEN_BIN:
        end = index
        while end < len(codes) and codes[end] in b"01 ":
            end += 1
        return end
    if not (chr(code).isdigit() or (code == ord(".") and index + 1 < len(codes) and chr(codes[index + 1]).isdigit())):
        return None
    if (
        previous is not None
        and previous < 128
        and (chr(previous).isalnum() or previous == ord("$"))
        and before
        and before[-1] != ord(" ")
    ):
        return None  # a digit in a name
    end = index
    while end < len(codes) and (chr(codes[end]).isdigit() or codes[end] == ord(".")):
        end += 1
    if end < len(codes) and codes[end] in b"Ee":
        exponent = end + 1
        if exponent < len(codes) and codes[exponent] in b"+-":
            exponent += 1
        if exponent < len(codes) and chr(codes[exponent]).isdigit():
            end = exponent
            while end < len(codes) and chr(codes[end]).isdigit():
                end += 1
    return end


def _literal_value(literal: bytes, binary: bool) -> bytes:
    """The five bytes the syntax check stores for a literal (BIN's digits as a whole number)."""
    text = literal.decode("latin-1").replace(" ", "")
    return fp.stack_bc(int(text or "0", 2)) if binary else fp.dec_to_fp(text)


def _typed_positions(stored: bytes) -> set[int]:
    """The indexes of `stored` that hold typed codes (not a hidden number's six bytes)."""
    typed, index, quoted = set(), 0, False
    while index < len(stored):
        if stored[index] == QUOTE:
            quoted = not quoted
        if not quoted and stored[index] == NUMBER_MARKER:
            index += HIDDEN_NUMBER
            continue
        typed.add(index)
        index += 1
    return typed


def _without_hidden(stored: bytes) -> bytes:
    typed = _typed_positions(stored)
    return bytes(code for index, code in enumerate(stored) if index in typed)
