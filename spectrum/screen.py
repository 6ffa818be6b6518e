"""The screen as PRINT sees it: the ROM's channel S routines (PRINT-OUT $09F4, PO-ATTR $0BDB,
CO-TEMP-5 $2211, TEMPS $0D4D), colours, CLS, scrolling, ATTR and SCREEN$.

The upper screen is rows 0–21; the lower screen (INPUT and reports) is the rows below it.
"""

from typing import TYPE_CHECKING

from . import sysvars
from .colours import BLACK, WHITE, attribute, contrasting_ink
from .errors import BREAK_CONT_REPEATS, INTEGER_OUT_OF_RANGE, INVALID_COLOUR, OUT_OF_SCREEN, ReportError
from .hardware import ATTRIBUTES, ATTRIBUTES_END, COLUMNS, DISPLAY_FILE, ROWS, attribute_address, cell_address
from .memory import find_byte
from .numbers import format_number
from .rom import (
    AT,
    CURSOR_LEFT,
    CURSOR_RIGHT,
    ENTER,
    FIRST_TOKEN,
    INK,
    KEYWORDS,
    OVER,
    PRINT_COMMA,
    TAB,
    TABLE_CODES_BEFORE,
    TOKEN_STOP,
)
from .sysvars import Flags

if TYPE_CHECKING:
    import numpy as np

    from .timing import Timing

UPPER_LINES = 22  # PRINT AT reaches rows 0–21 while the lower screen has its 2 lines

# Colour items in the order of their control codes (INK is 16 … OVER is 21)
COLOUR_ITEMS = ("ink", "paper", "flash", "bright", "inverse", "over")
SCROLL_QUESTION = b"scroll?"
POWER_ON_ATTRIBUTE = attribute(ink=BLACK, paper=WHITE)  # ATTR_P and BORDCR after NEW

# P_FLAG bits: the even bit of each pair is temporary, the odd bit permanent
P_OVER, P_INVERSE, P_INK9, P_PAPER9 = 0x01, 0x04, 0x10, 0x40


ALL_PIXELS = (1 << 64) - 1  # the 8 lines of a cell as one number, for INVERSE


def _block_graphic(code: int) -> bytes:
    """The 8 pixel lines of block graphic `code` (128–143), as PO-GR-1 builds them."""
    top = (0xF0 if code & 2 else 0) | (0x0F if code & 1 else 0)
    bottom = (0xF0 if code & 8 else 0) | (0x0F if code & 4 else 0)
    return bytes([top] * 4 + [bottom] * 4)


BLOCK_GRAPHICS = [_block_graphic(code) for code in range(128, 144)]


class Screen:
    """PRINT, the colour statements, CLS, ATTR and SCREEN$ on the machine's display memory.

    As in the ROM, printing goes to the upper screen or (`_lower`, TV_FLAG bit 0) to the lower
    one, each with its own print position: the upper one as (`_row`, `_col`), where row 22 is
    "at the start of the line below", to be scrolled to when something is printed there; the lower
    one as the ROM's line number (`_lower_line`, 23 for its first line, counting down as it
    grows) and `_lower_col`, so that it stays on its text when the lower screen scrolls up.
    """

    if TYPE_CHECKING:  # what the other parts of the machine (spectrum.machine.Spectrum) give this one
        memory: np.ndarray
        ram: memoryview
        timing: Timing | None

        def charge(self, item: str, count: int = 1) -> None: ...
        def wait_key(self) -> int: ...
        def _peek_word(self, address: int) -> int: ...

    def _init_screen(self) -> None:
        self._lower = False
        self._row = self._col = 0
        self._lower_line, self._lower_col = ROWS - 1, 0
        self._pending_control: int | None = None  # a colour control code waiting for its parameter

    @property
    def print_position(self) -> tuple[int, int]:
        """The upper screen's print position (row, column); row 22 is "at the start of the line
        below", to be scrolled to when something is printed there."""
        return self._row, self._col

    @print_position.setter
    def print_position(self, position: tuple[int, int]) -> None:
        self._row, self._col = position

    @property
    def lower_position(self) -> tuple[int, int]:
        """The lower screen's print position as the ROM keeps it: (line, column), line 23 for its
        first line, counting down as it grows."""
        return self._lower_line, self._lower_col

    @lower_position.setter
    def lower_position(self, position: tuple[int, int]) -> None:
        self._lower_line, self._lower_col = position

    # --- colours ----------------------------------------------------------------------------

    def colour(self, *, ink=None, paper=None, flash=None, bright=None, inverse=None, over=None):
        """Permanent colour statements (INK n, PAPER n, …) in one call."""
        items = _colour_items(ink=ink, paper=paper, flash=flash, bright=bright, inverse=inverse, over=over)
        self._lower = False
        self.temps(lower=False)
        for item, value in items:
            self._colour_temp(item, value)
        self.memory[sysvars.ATTR_P] = self.memory[sysvars.ATTR_T]
        self.memory[sysvars.MASK_P] = self.memory[sysvars.MASK_T]
        flag = int(self.memory[sysvars.P_FLAG])
        self.memory[sysvars.P_FLAG] = (flag & 0x55) | ((flag << 1) & 0xAA)

    def set_border(self, colour: float) -> None:
        """BORDER n: the border, and the lower screen's paper with a contrasting ink."""
        border = find_byte(colour)
        if border > 7:
            raise ReportError(INVALID_COLOUR)
        self.border = border
        self.memory[sysvars.BORDCR] = attribute(ink=contrasting_ink(border), paper=border)

    def temps(self, lower: bool) -> None:
        """TEMPS: temporary colours start as the permanent ones (the lower screen: BORDCR)."""
        if lower:
            attr, mask = self.memory[sysvars.BORDCR], 0
        else:
            attr, mask = self.memory[sysvars.ATTR_P], self.memory[sysvars.MASK_P]
        self.memory[sysvars.ATTR_T] = attr
        self.memory[sysvars.MASK_T] = mask
        flag = int(self.memory[sysvars.P_FLAG])
        temporary = 0 if lower else (flag >> 1) & 0x55
        self.memory[sysvars.P_FLAG] = (flag & 0xAA) | temporary

    def _colour_temp(self, item: str, value: int) -> None:
        """CO-TEMP-5: one temporary colour item; the value has been range-checked."""
        attr_t, mask_t = int(self.memory[sysvars.ATTR_T]), int(self.memory[sysvars.MASK_T])
        flag = int(self.memory[sysvars.P_FLAG])
        if item in ("ink", "paper"):
            bits, shift, contrast_flag = (0x07, 0, P_INK9) if item == "ink" else (0x38, 3, P_PAPER9)
            if value < 8:
                new = value << shift
            elif value == 8:
                new = attr_t
            else:  # 9: the contrast of the other colour's brightness, as CO-TEMP-9 works it out
                new = 0 if ~(attr_t | bits) & 0x24 == 0 else bits
            attr_t = (attr_t & ~bits) | (new & bits)
            mask_t = (mask_t & ~bits) | (bits if value >= 8 else 0)
            flag = (flag & ~contrast_flag) | (contrast_flag if value == 9 else 0)
        elif item in ("flash", "bright"):
            bit = 0x80 if item == "flash" else 0x40
            attr_t = (attr_t & ~bit) | (bit if value == 1 else 0)
            mask_t = (mask_t & ~bit) | (bit if value == 8 else 0)
        else:
            bit = P_INVERSE if item == "inverse" else P_OVER
            flag = (flag & ~bit) | (bit if value else 0)
        self.memory[sysvars.ATTR_T] = attr_t & 0xFF
        self.memory[sysvars.MASK_T] = mask_t & 0xFF
        self.memory[sysvars.P_FLAG] = flag & 0xFF

    # --- the screen -------------------------------------------------------------------------

    def cls(self) -> None:
        """CLS: clear the display with ATTR_P, then the lower screen (CLS-LOWER); the upper print
        position goes home and the scroll count to 1."""
        self.charge("cls")
        self._lower = False
        self.temps(lower=False)
        self.memory[DISPLAY_FILE:ATTRIBUTES] = 0
        self.memory[ATTRIBUTES:ATTRIBUTES_END] = self.memory[sysvars.ATTR_P]
        self.memory[sysvars.SCR_CT] = 1
        self._row = self._col = 0
        self.cls_lower()

    def print_at(
        self, row: int, col: int, text, *, ink=None, paper=None, bright=None, flash=None, inverse=None, over=None
    ) -> None:
        """PRINT AT row,col; <colour items>; text; — everything is checked before anything is drawn.

        As on the ROM, a column past 31 is "B Integer out of range", a row past 21 "5 Out of screen".

        `text` is a str or bytes with one Spectrum code per character ('\\x90' is UDG A), or a
        number, printed as PRINT prints numbers.
        """
        row, col = find_byte(row), find_byte(col)
        if col >= COLUMNS:
            raise ReportError(INTEGER_OUT_OF_RANGE)
        if row >= UPPER_LINES:
            raise ReportError(OUT_OF_SCREEN)
        items = _colour_items(ink=ink, paper=paper, flash=flash, bright=bright, inverse=inverse, over=over)
        codes = codes_of(text)
        self._lower = False
        self.temps(lower=False)
        self.charge("print-out-at")
        for item, value in items:
            self.charge("print-out-colour")
            self._colour_temp(item, value)
        self._row, self._col = row, col
        self.print_out(codes)

    def print_codes(self, codes: bytes) -> None:
        """PRINT's output on the upper screen: the codes as its items send them to PRINT-OUT
        (AT and TAB with their operands, colour codes with theirs, ENTER, characters)."""
        self._lower = False
        self.temps(lower=False)
        self.print_out(codes)

    def print_out(self, codes: bytes) -> None:
        """PRINT-OUT: the codes to the screen in use (upper or lower), as they come."""
        index = 0
        while index < len(codes):
            code = codes[index]
            index += 1
            if code >= 32:
                self._print_char(code)
            elif code in (AT, TAB):
                self.charge("print-out-at" if code == AT else "print-out-tab")
                self._control_position(code, codes[index : index + 2])
                index += 2
            elif INK <= code <= OVER:
                self.charge("print-out-colour")
                item = COLOUR_ITEMS[code - INK]
                self._colour_temp(item, _checked_colour(item, codes[index] if index < len(codes) else 0))
                index += 1
            else:
                self._control(code)

    def _control(self, code: int) -> None:
        """The one-byte control codes of PRINT-OUT; unassigned ones print '?'."""
        if code == ENTER:
            self.charge("print-out-enter" + ("-lower" if self._lower else ""))
            self._newline()
        elif code == PRINT_COMMA:
            self.charge("print-out-comma")
            target = 16 if self._column() < 16 else 32
            while self._column() < target:
                self._print_char(ord(" "))
        elif code == CURSOR_LEFT:
            self._back()
        elif code == CURSOR_RIGHT:
            # PO-RIGHT prints a space with OVER 1 but never stores the new position: only the
            # cell's attribute changes and the print position stays (a quirk of the 48K ROM)
            saved = self.memory[sysvars.P_FLAG], self._row, self._col, self._lower_line, self._lower_col
            self.memory[sysvars.P_FLAG] = P_OVER
            self._print_char(ord(" "))
            self.memory[sysvars.P_FLAG], self._row, self._col, self._lower_line, self._lower_col = saved
        else:
            self._print_char(ord("?"))

    def _column(self) -> int:
        return self._lower_col if self._lower else self._col

    def _back(self) -> None:
        """PO-BACK-1: a column left, or to the end of the line above (not from the lower screen's
        first line, nor from row 1 to row 0: the ROM compares with 24 where 25 was meant)."""
        if self._lower:
            if self._lower_col > 0:
                self._lower_col -= 1
            elif self._lower_line + 1 < ROWS:
                self._lower_line, self._lower_col = self._lower_line + 1, COLUMNS - 1
        elif self._col > 0:
            self._col -= 1
        elif self._row > 1:
            self._row, self._col = self._row - 1, COLUMNS - 1

    def _control_position(self, code: int, operands: bytes) -> None:
        """AT row,col and TAB n given as control codes with their operand bytes."""
        if self._lower:
            raise ValueError("AT and TAB are not part of the layer's lower screen")
        if code == AT:
            row, col = (list(operands) + [0, 0])[:2]
            if col >= COLUMNS:
                raise ReportError(INTEGER_OUT_OF_RANGE)
            if row >= UPPER_LINES:
                raise ReportError(OUT_OF_SCREEN)
            self._row, self._col = row, col
        else:
            target = operands[0] % COLUMNS if operands else 0
            while self._col != target:
                self._print_char(ord(" "))

    def _newline(self) -> None:
        """PO-ENTER: the scroll test on this line, then the start of the next one."""
        if self._lower:
            self._lower_col = 0
            self._make_lower_room()
            self._lower_line -= 1
        else:
            self._col = 0
            if self._row >= ROWS - self.ram[sysvars.DF_SZ]:
                self._scroll_upper()
            self._row += 1

    def _scroll_upper(self) -> None:
        """PO-SCR for the upper screen at the line above the lower screen: "5 Out of screen" below
        it; else, every SCR_CT lines, ask "scroll?" (space, STOP or n stop the program), then
        scroll the whole display up a line and go on at the start of the line freed."""
        ram = self.ram
        bottom = ROWS - ram[sysvars.DF_SZ]
        if self._row > bottom:
            raise ReportError(OUT_OF_SCREEN)
        ram[sysvars.SCR_CT] = (ram[sysvars.SCR_CT] - 1) & 0xFF
        if not ram[sysvars.SCR_CT]:
            ram[sysvars.SCR_CT] = self._row
            self._ask_scroll()
        self._scroll_rows(ROWS - 1, ram[sysvars.ATTR_P])
        # PO-SCR-3 swaps the first attributes of the new bottom line of the upper screen and of
        # the bottom line of the display, each row taking the other's first byte throughout
        freed = bottom - 1
        first_freed = attribute_address(freed, 0)
        first_last = attribute_address(ROWS - 1, 0)
        freed_attr, last_attr = ram[first_last], ram[first_freed]
        self.memory[first_freed : first_freed + COLUMNS] = freed_attr
        self.memory[first_last : first_last + COLUMNS] = last_attr
        self._row, self._col = freed, 0

    def _ask_scroll(self) -> None:
        """ "scroll?" in the lower screen, in its colours, and a key: space, STOP or n (either
        case) is "D BREAK - CONT repeats"; the lower screen is cleared when the key comes."""
        ram = self.ram
        saved = ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG]
        self._lower = True
        self.temps(lower=True)
        for code in SCROLL_QUESTION:
            self._print_char(code)
        ram[sysvars.FLAGS] = (int(ram[sysvars.FLAGS]) | Flags.L_MODE) & ~Flags.NEW_KEY & 0xFF  # L mode, no key yet
        code = self.wait_key()
        self.cls_lower()
        self._lower = False
        if code in (ord(" "), TOKEN_STOP) or code | 0x20 == ord("n"):
            raise ReportError(BREAK_CONT_REPEATS)
        self.temps(lower=False)
        ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG] = saved

    def _scroll_rows(self, count: int, bottom_attr: int) -> None:
        """CL-SCROLL: the bottom `count` rows move up a row (over the row above them; with 24 the
        top row is lost) and the bottom row is cleared with `bottom_attr`."""
        pixels = self.memory[DISPLAY_FILE:ATTRIBUTES]
        rows = pixels.reshape(3, 8, 8, 32).transpose(0, 2, 1, 3).reshape(ROWS, 8, 32)
        top = ROWS - count
        rows[max(top - 1, 0) : ROWS - 1] = rows[max(top, 1) : ROWS].copy()
        rows[ROWS - 1] = 0
        pixels[:] = rows.reshape(3, 8, 8, 32).transpose(0, 2, 1, 3).reshape(-1)
        attrs = self.memory[ATTRIBUTES:ATTRIBUTES_END].reshape(ROWS, 32)
        attrs[max(top - 1, 0) : ROWS - 1] = attrs[max(top, 1) : ROWS].copy()
        attrs[ROWS - 1] = bottom_attr

    def _make_lower_room(self) -> None:
        """PO-SCR-4, at the start of a line of the lower screen: "5 Out of screen" past its 22nd
        line; else while the line would lie below the display, the lower screen grows a row
        (DF_SZ) and scrolls up; where it meets the upper screen's print position, that moves up
        a row and the whole display scrolls."""
        ram = self.ram
        line = self._lower_line
        if line < 2:
            raise ReportError(OUT_OF_SCREEN)
        shortfall = 25 - line - ram[sysvars.DF_SZ]
        if shortfall <= 0:
            return
        saved = ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG]
        self.temps(lower=True)
        for _ in range(shortfall):
            size = ram[sysvars.DF_SZ]
            ram[sysvars.DF_SZ] = size + 1
            if size + 1 >= ROWS - self._row:
                self._row -= 1
                self._scroll_rows(ROWS, ram[sysvars.BORDCR])
            else:
                self._scroll_rows(size, ram[sysvars.BORDCR])
        ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG] = saved

    def _print_char(self, code: int) -> None:
        """PO-ANY: one printable code (32–255) at the print position, wrapping at column 32 and
        testing for scrolling at the start of each line (PR-ALL)."""
        if code >= FIRST_TOKEN:
            self._print_token(code)
            return
        ram = self.ram
        if self.timing is not None:  # the item's name is made only when the time is kept: a hot path
            self.timing.charge(
                ("print-out-graphic" if 128 <= code < 144 else "print-out-udg" if code >= 144 else "print-out-char")
                + ("-lower" if self._lower else "")
            )
        if 128 <= code < 144:
            glyph = BLOCK_GRAPHICS[code - 128]
        else:
            variable = sysvars.UDG if code >= 144 else sysvars.CHARS
            base = ram[variable] + 256 * ram[variable + 1] + 8 * (code - 144 if code >= 144 else code)
            glyph = ram[base : base + 8].tobytes()
            # PO-CHAR-2 notes whether a space was printed (block graphics leave the flag alone)
            flags = int(ram[sysvars.FLAGS])
            ram[sysvars.FLAGS] = (
                flags | Flags.NO_LEADING_SPACE if code == 32 else flags & ~Flags.NO_LEADING_SPACE & 0xFF
            )
        if self._lower:
            if self._lower_col >= COLUMNS:
                self._lower_line, self._lower_col = self._lower_line - 1, 0
            if self._lower_col == 0:
                self.charge("print-out-line-start-lower")
                self._make_lower_room()
            row, col = 48 - self._lower_line - ram[sysvars.DF_SZ], self._lower_col
            self._lower_col += 1
        else:
            if self._col >= COLUMNS:
                self._row, self._col = self._row + 1, 0
            if self._col == 0:
                self.charge("print-out-line-start")
                if self._row >= ROWS - ram[sysvars.DF_SZ]:
                    self._scroll_upper()
            row, col = self._row, self._col
            self._col += 1
        self._draw_cell(row, col, glyph)

    def _print_token(self, code: int) -> None:
        """PO-TOKENS: a keyword found in the token table, then spelt out, spaced as
        `token_text` says."""
        text = token_text(code, after_space=bool(self.memory[sysvars.FLAGS] & Flags.NO_LEADING_SPACE))
        self.charge_token(code)
        for ch in text:
            self._print_char(ord(ch))

    def charge_token(self, code: int) -> None:
        """PO-TOKENS' own time for keyword `code` (its codes' PRINT-OUT apart): PO-SEARCH steps
        over the token table up to it."""
        self.charge("print-out-token")
        self.charge("print-out-token-code", TABLE_CODES_BEFORE[code - FIRST_TOKEN])

    def _draw_cell(self, row: int, col: int, glyph: bytes) -> None:
        """PR-ALL and PO-ATTR: 8 pixel lines with OVER and INVERSE, then the attribute."""
        ram = self.ram
        flag = ram[sysvars.P_FLAG]
        top = cell_address(row, col)
        lines = slice(top, top + 8 * 256, 256)
        if flag & (P_INVERSE | P_OVER):
            pixels = int.from_bytes(glyph, "big")
            if flag & P_INVERSE:
                pixels ^= ALL_PIXELS
            if flag & P_OVER:
                pixels ^= int.from_bytes(ram[lines].tobytes(), "big")
            glyph = pixels.to_bytes(8, "big")
        ram[lines] = glyph
        address = attribute_address(row, col)
        attr_t = ram[sysvars.ATTR_T]
        attr = ((ram[address] ^ attr_t) & ram[sysvars.MASK_T]) ^ attr_t
        if flag & P_PAPER9:
            attr &= 0xC7
            if not attr & 0x04:
                attr ^= 0x38
        if flag & P_INK9:
            attr &= 0xF8
            if not attr & 0x20:
                attr ^= 0x07
        ram[address] = attr

    def attr(self, row: int, col: int) -> int:
        """ATTR (row,col): the attribute byte, addressed as the ROM does (no range check past 0–255)."""
        row, col = find_byte(row), find_byte(col)
        address = (((row << 5) & 0xFF) ^ col) | (((row >> 3) & 0x03 ^ 0x58) << 8)
        return int(self.memory[address])

    def screen_char(self, row: int, col: int) -> str:
        """SCREEN$ (row,col): the character of the ROM font (or its inverse) in a cell, else ""."""
        row, col = find_byte(row), find_byte(col)
        address = ((((row << 5) & 0xE0) ^ col) | (((row & 0x18) ^ 0x40) << 8)) & 0xFFFF
        cell = self.memory[[(address + 256 * line) & 0xFFFF for line in range(8)]]
        font = self._peek_word(sysvars.CHARS) + 256
        for index in range(96):
            glyph = self.memory[font + 8 * index : font + 8 * index + 8]
            difference = cell ^ glyph
            if (difference == difference[0]).all() and difference[0] in (0, 0xFF):
                return chr(32 + index)
        return ""

    def print_lower(self, code: int) -> None:
        """PRINT-OUT on the lower screen, one code at a time: a colour control code takes the
        next code printed as its parameter."""
        control = self._pending_control
        if control is not None:
            self._pending_control = None
            self.print_out(bytes((control, code)))
        elif INK <= code <= OVER:
            self._pending_control = code
        else:
            self.print_out(bytes((code,)))

    def cls_lower(self) -> None:
        """CLS-LOWER: the DF_SZ rows of the lower screen cleared in BORDCR, any above the bottom
        two given ATTR_P; DF_SZ back to 2, the lower print position at the start of its bottom line."""
        ram = self.ram
        self._lower = True
        self.temps(lower=True)
        size = ram[sysvars.DF_SZ]
        self.charge("cls-lower")
        self.charge("cls-lower-row", size)
        for row in range(ROWS - size, ROWS):
            for line in range(8):
                start = cell_address(row, 0) + 256 * line
                self.memory[start : start + COLUMNS] = 0
        self.memory[attribute_address(ROWS - size, 0) : attribute_address(UPPER_LINES, 0)] = ram[sysvars.ATTR_P]
        self.memory[attribute_address(UPPER_LINES, 0) : attribute_address(ROWS, 0)] = ram[sysvars.BORDCR]
        ram[sysvars.DF_SZ] = 2
        self._pending_control = None
        self._lower_line, self._lower_col = ROWS - 1, 0


def _checked_colour(item: str, value: int) -> int:
    """The range check of CO-TEMP: INK/PAPER 0–9, FLASH/BRIGHT 0, 1, 8, INVERSE/OVER 0–1."""
    allowed = {"ink": 9, "paper": 9, "flash": 8, "bright": 8}.get(item, 1)
    if value > allowed or (allowed == 8 and 1 < value < 8):
        raise ReportError(INVALID_COLOUR)
    return value


def _colour_items(**items) -> list[tuple[str, int]]:
    """The given colour items in ROM order, each range-checked."""
    return [(item, _checked_colour(item, find_byte(value))) for item, value in items.items() if value is not None]


def token_text(code: int, after_space: bool) -> str:
    """What PO-TOKENS prints for keyword `code`: a leading space unless a space was just printed
    (`after_space`, FLAGS bit 0) or the keyword is a function or not a word, and a trailing space
    after a keyword ending in a letter or '$' (except RND, INKEY$, PI)."""
    index = code - FIRST_TOKEN
    word = KEYWORDS[index]
    leading = " " if index >= 0x20 and word[0] >= "A" and not after_space else ""
    return leading + word + (" " if (word[-1] == "$" or word[-1] >= "A") and index >= 3 else "")


def printed_width(codes: bytes) -> int:
    """Character cells that `codes` take when printed (a keyword with its spaces, at most)."""
    return sum(len(KEYWORDS[code - FIRST_TOKEN]) + 2 if code >= FIRST_TOKEN else 1 for code in codes)


def codes_of(text) -> bytes:
    """Spectrum codes for a str (one character per code), bytes, or a number."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    if isinstance(text, (int, float)):
        return format_number(text).encode("ascii")
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        raise ValueError(f"{text!r} holds a character with no Spectrum code (0–255)") from None
