"""The genuine 48K ROM, loaded from the installed skoolkit package (never stored in this project)."""

from itertools import accumulate
from pathlib import Path

from skoolkit import ROM48


def _read_rom() -> bytes:
    rom = Path(ROM48).read_bytes()
    if len(rom) != 16384:
        raise RuntimeError(f"{ROM48} holds {len(rom)} bytes, not the 16384 of a 48K ROM: reinstall skoolkit")
    return rom


ROM: bytes = _read_rom()

FONT_ADDRESS = 0x3D00
"""The character set: 96 characters (32–127) of 8 bytes; CHARS holds this address minus 256."""

TOKEN_TABLE = 0x0095
"""Keyword spellings, codes 165 (RND) to 255 (COPY), each with bit 7 set on its last letter."""

REPORT_TABLE = 0x1392
"""Report messages in order 0–R, each with bit 7 set on its last letter."""


def _bit7_terminated(address: int, count: int) -> list[str]:
    words, word = [], ""
    while len(words) < count:
        byte = ROM[address]
        address += 1
        word += chr(byte & 0x7F)
        if byte & 0x80:
            words.append(word)
            word = ""
    return words


KEYWORDS: list[str] = _bit7_terminated(TOKEN_TABLE, 92)[1:]
"""Keyword text for codes 165–255 in order (``KEYWORDS[0]`` is "RND")."""
TABLE_CODES_BEFORE: list[int] = list(accumulate(len(word) for word in ["?", *KEYWORDS[:-1]]))
"""For each keyword, the codes of the token table before it (the table begins with "?"): what
PO-SEARCH steps over to find it."""
TOKEN_STOP = 0xE2
TOKEN_THEN = 0xCB

REPORT_CODES = "0123456789ABCDEFGHIJKLMNOPQR"
REPORTS: list[str] = _bit7_terminated(REPORT_TABLE, 28)
"""Report messages, index = ERR_NR + 1 (0 "OK" … 27 "Tape loading error")."""


def report_text(number: int) -> str:
    """The full report line for ERR_NR + 1, e.g. 11 → "B Integer out of range"."""
    return f"{REPORT_CODES[number]} {REPORTS[number]}"
