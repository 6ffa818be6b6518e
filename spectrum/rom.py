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
    words: list[str] = []
    word = ""
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
FIRST_TOKEN = 165  # RND: the keywords' codes run from here to 255 (COPY)


def token(keyword: str) -> int:
    """The code of a keyword, as the ROM's token table spells it ("GO TO", "SCREEN$")."""
    return FIRST_TOKEN + KEYWORDS.index(keyword)


TOKEN_RND, TOKEN_INKEY, TOKEN_PI, TOKEN_FN = token("RND"), token("INKEY$"), token("PI"), token("FN")
TOKEN_POINT, TOKEN_SCREEN, TOKEN_ATTR = token("POINT"), token("SCREEN$"), token("ATTR")
TOKEN_VAL_STRING, TOKEN_CODE, TOKEN_NOT, TOKEN_BIN = token("VAL$"), token("CODE"), token("NOT"), token("BIN")
TOKEN_THEN, TOKEN_TO, TOKEN_DEF_FN = token("THEN"), token("TO"), token("DEF FN")
TOKEN_DATA, TOKEN_STOP, TOKEN_REM, TOKEN_GO_TO = token("DATA"), token("STOP"), token("REM"), token("GO TO")
TOKEN_RUN, TOKEN_CLS = token("RUN"), token("CLS")

# Control codes: the codes below 32 that PRINT acts on, and the editing keys' codes, which are the
# same numbers (a code typed is a key; printed, a control)
PRINT_COMMA = CAPS_LOCK = 0x06  # printed: to the next half of the line; typed: CAPS SHIFT + 2
EDIT = 0x07
CURSOR_LEFT, CURSOR_RIGHT, CURSOR_DOWN, CURSOR_UP = 0x08, 0x09, 0x0A, 0x0B  # printed: back, right
DELETE = 0x0C
ENTER = 0x0D  # the end of a line, typed, printed or stored
NUMBER_MARKER = 0x0E  # a stored line's hidden number (five bytes) follows
GRAPHICS = 0x0F
INK, PAPER, FLASH, BRIGHT, INVERSE, OVER, AT, TAB = range(0x10, 0x18)  # each takes one operand; AT and TAB two
TABLE_CODES_BEFORE: list[int] = list(accumulate(len(word) for word in ["?", *KEYWORDS[:-1]]))
"""For each keyword, the codes of the token table before it (the table begins with "?"): what
PO-SEARCH steps over to find it."""

REPORT_CODES = "0123456789ABCDEFGHIJKLMNOPQR"
REPORTS: list[str] = _bit7_terminated(REPORT_TABLE, 28)
"""Report messages, index = ERR_NR + 1 (0 "OK" … 27 "Tape loading error")."""


def report_text(number: int) -> str:
    """The full report line for ERR_NR + 1, e.g. 11 → "B Integer out of range"."""
    return f"{REPORT_CODES[number]} {REPORTS[number]}"
