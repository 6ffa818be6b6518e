"""One ZX Spectrum 48K as a BASIC program sees it.

Memory is a 64 KiB image with the genuine ROM at 0, the display file, attributes, system variables
and UDGs at their real addresses. PRINT follows the ROM's channel S routines (PRINT-OUT $09F4,
PO-ATTR $0BDB, CO-TEMP-5 $2211, TEMPS $0D4D); RND, RANDOMIZE, PAUSE, INKEY$, BEEP and the keyboard
interrupt follow theirs. Only blocking calls (PAUSE, INPUT, BEEP, waiting for a frame) advance the
50 Hz frame clock; at each frame the front end shows the display and collects the keys held.
"""

import numpy as np

from . import fp, keyboard, sysvars
from .beeper import beep_edges, beeper
from .errors import (BREAK_INTO_PROGRAM, INTEGER_OUT_OF_RANGE, INVALID_ARGUMENT, INVALID_COLOUR, OUT_OF_SCREEN,
                     ReportError)
from .rom import FONT_ADDRESS, KEYWORDS, ROM
from .sound import FRAME_T_STATES, SAMPLE_RATE, T_STATES_PER_SECOND, edges_to_samples, frame_start_sample

FLASH_FRAMES = 16  # the ULA swaps FLASH cells every 16 frames
LINES = 24
UPPER_LINES = 22  # PRINT AT reaches rows 0–21 while the lower screen has its 2 lines
COLUMNS = 32
BREAK_KEYS = frozenset({"CAPS", "SPACE"})
KEY_CLICK_EDGES = beeper(0x00C8, 1)  # KEY-INPUT's click: BEEPER with HL = $00C8 and PIP = 0

# Colour items in the order of their control codes (INK is 16 … OVER is 21)
COLOUR_ITEMS = ("ink", "paper", "flash", "bright", "inverse", "over")
CONTROL_AT, CONTROL_TAB, CONTROL_COMMA, CONTROL_BACK, CONTROL_RIGHT = 22, 23, 6, 8, 9
CONTROL_ENTER = 13
FIRST_TOKEN = 165

# P_FLAG bits: the even bit of each pair is temporary, the odd bit permanent
P_OVER, P_INVERSE, P_INK9, P_PAPER9 = 0x01, 0x04, 0x10, 0x40


def cell_address(row: int, col: int) -> int:
    """Display-file address of the top pixel line of a character cell."""
    return sysvars.DISPLAY_FILE + ((row & 0x18) << 8) + ((row & 7) << 5) + col


def attribute_address(row: int, col: int) -> int:
    return sysvars.ATTRIBUTES + 32 * row + col


ALL_PIXELS = (1 << 64) - 1  # the 8 lines of a cell as one number, for INVERSE


def _block_graphic(code: int) -> bytes:
    """The 8 pixel lines of block graphic `code` (128–143), as PO-GR-1 builds them."""
    top = (0xF0 if code & 2 else 0) | (0x0F if code & 1 else 0)
    bottom = (0xF0 if code & 8 else 0) | (0x0F if code & 4 else 0)
    return bytes([top] * 4 + [bottom] * 4)


BLOCK_GRAPHICS = [_block_graphic(code) for code in range(128, 144)]


class Spectrum:
    """A 48K Spectrum after power-on, driven from Python as a BASIC program drives it."""

    def __init__(self, frontend=None):
        if frontend is None:
            from .frontends import HeadlessFrontend
            frontend = HeadlessFrontend()
        self.frontend = frontend
        self.memory = np.zeros(65536, dtype=np.uint8)
        self.memory[:len(ROM)] = np.frombuffer(ROM, dtype=np.uint8)
        self._ram = memoryview(self.memory)  # the same bytes, for fast access one at a time
        self.border = 7
        self.flash_phase = False
        self.frame_count = 0
        self.keys_held: set[str] = set()
        self.awaiting_key = False
        self._t_into_frame = 0  # T-states of sound already played in this frame
        self._pending_audio = np.zeros(0, np.int16)  # sound from the start of this frame on
        self._row = self._col = 0
        self._power_on()

    # --- memory -------------------------------------------------------------------------------

    def _power_on(self) -> None:
        """The system variables the layer uses, as the ROM's START/NEW leave them."""
        self._poke_word(sysvars.CHARS, FONT_ADDRESS - 256)
        self._poke_word(sysvars.UDG, sysvars.UDG_AREA)
        udgs = self.memory[FONT_ADDRESS + 8 * (ord("A") - 32):][:21 * 8]
        self.memory[sysvars.UDG_AREA:sysvars.UDG_AREA + 21 * 8] = udgs
        for address, value in ((sysvars.ATTR_P, 0x38), (sysvars.MASK_P, 0), (sysvars.BORDCR, 0x38),
                               (sysvars.P_FLAG, 0), (sysvars.DF_SZ, 2), (sysvars.REPDEL, 35),
                               (sysvars.REPPER, 5), (sysvars.FLAGS, 0x0C), (sysvars.FLAGS2, 0x10),
                               (sysvars.MODE, 0)):
            self.memory[address] = value
        self.memory[sysvars.KSTATE:sysvars.KSTATE + 8] = [0xFF, 0, 0, 0, 0xFF, 0, 0, 0]
        self.cls()

    def peek(self, address: int) -> int:
        """PEEK: the byte at `address` (0–65535)."""
        return int(self.memory[_word(address)])

    def poke(self, address: int, value: int) -> None:
        """POKE: write a byte (a negative value is taken modulo 256, as the ROM does); ROM
        addresses are read-only."""
        address = _word(address)
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

    # --- random numbers ---------------------------------------------------------------------

    def randomize(self, n: float = 0) -> None:
        """RANDOMIZE n: SEED := n rounded; 0 takes the low 16 bits of FRAMES."""
        seed = _word(n)
        if seed == 0:
            seed = self._peek_word(sysvars.FRAMES)
        self._poke_word(sysvars.SEED, seed)

    def rnd(self) -> float:
        """RND: SEED := (75 * (SEED + 1)) mod 65537 - 1, and the result is SEED / 65536."""
        seed = (75 * (self._peek_word(sysvars.SEED) + 1)) % 65537 - 1
        self._poke_word(sysvars.SEED, seed)
        return seed / 65536

    # --- colours ----------------------------------------------------------------------------

    def colour(self, *, ink=None, paper=None, flash=None, bright=None, inverse=None, over=None):
        """Permanent colour statements (INK n, PAPER n, …) in one call."""
        items = _colour_items(ink=ink, paper=paper, flash=flash, bright=bright, inverse=inverse,
                              over=over)
        self._temps(lower=False)
        for item, value in items:
            self._colour_temp(item, value)
        self.memory[sysvars.ATTR_P] = self.memory[sysvars.ATTR_T]
        self.memory[sysvars.MASK_P] = self.memory[sysvars.MASK_T]
        flag = int(self.memory[sysvars.P_FLAG])
        self.memory[sysvars.P_FLAG] = (flag & 0x55) | ((flag << 1) & 0xAA)

    def set_border(self, colour: int) -> None:
        """BORDER n: the border, and the lower screen's paper with a contrasting ink."""
        colour = _byte(colour)
        if colour > 7:
            raise ReportError(INVALID_COLOUR)
        self.border = colour
        self.memory[sysvars.BORDCR] = colour * 8 + (0 if colour >= 4 else 7)

    def _temps(self, lower: bool) -> None:
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
        """CLS: clear the bitmap; upper attributes from ATTR_P, the lower two lines BORDCR."""
        self.memory[sysvars.DISPLAY_FILE:sysvars.ATTRIBUTES] = 0
        upper = sysvars.ATTRIBUTES + 32 * UPPER_LINES
        self.memory[sysvars.ATTRIBUTES:upper] = self.memory[sysvars.ATTR_P]
        self.memory[upper:upper + 64] = self.memory[sysvars.BORDCR]
        self._row = self._col = 0

    def print_at(self, row: int, col: int, text, *, ink=None, paper=None, bright=None,
                 flash=None, inverse=None, over=None) -> None:
        """PRINT AT row,col; <colour items>; text; — everything is checked before anything is drawn.

        As on the ROM, a column past 31 is "B Integer out of range", a row past 21 "5 Out of screen".

        `text` is a str or bytes with one Spectrum code per character ('\\x90' is UDG A), or a
        number, printed as PRINT prints numbers.
        """
        row, col = _byte(row), _byte(col)
        if col >= COLUMNS:
            raise ReportError(INTEGER_OUT_OF_RANGE)
        if row >= UPPER_LINES:
            raise ReportError(OUT_OF_SCREEN)
        items = _colour_items(ink=ink, paper=paper, flash=flash, bright=bright, inverse=inverse,
                              over=over)
        codes = _codes(text)
        self._temps(lower=False)
        for item, value in items:
            self._colour_temp(item, value)
        self._row, self._col = row, col
        self._print_codes(codes)

    def _print_codes(self, codes: bytes) -> None:
        index = 0
        while index < len(codes):
            code = codes[index]
            index += 1
            if code >= 32:
                self._print_char(code)
            elif code in (CONTROL_AT, CONTROL_TAB):
                self._control_position(code, codes[index:index + 2])
                index += 2
            elif 16 <= code <= 21:
                item = COLOUR_ITEMS[code - 16]
                self._colour_temp(item, _checked_colour(item, codes[index] if index < len(codes) else 0))
                index += 1
            else:
                self._control(code)

    def _control(self, code: int) -> None:
        """The one-byte control codes of PRINT-OUT; unassigned ones print '?'."""
        if code == CONTROL_ENTER:
            self._newline()
        elif code == CONTROL_COMMA:
            target = 16 if self._col < 16 else 32
            while self._col < target:
                self._print_char(ord(" "))
        elif code == CONTROL_BACK:
            if self._col > 0:
                self._col -= 1
            elif self._row > 0:
                self._row, self._col = self._row - 1, COLUMNS - 1
        elif code == CONTROL_RIGHT:
            # PO-RIGHT prints a space with OVER 1 but never stores the new position: only the
            # cell's attribute changes and the print position stays (a quirk of the 48K ROM)
            saved = self.memory[sysvars.P_FLAG], self._row, self._col
            self.memory[sysvars.P_FLAG] = P_OVER
            self._print_char(ord(" "))
            self.memory[sysvars.P_FLAG], self._row, self._col = saved
        else:
            self._print_char(ord("?"))

    def _control_position(self, code: int, operands: bytes) -> None:
        """AT row,col and TAB n given as control codes with their operand bytes."""
        if code == CONTROL_AT:
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
        self._row, self._col = self._row + 1, 0
        if self._row == UPPER_LINES:  # off the upper screen (the lower screen's lines lie below it)
            self._scroll()

    def _scroll(self) -> None:
        """Move the upper screen up a line (without the ROM's 'scroll?' question)."""
        pixels = self.memory[sysvars.DISPLAY_FILE:sysvars.ATTRIBUTES]
        rows = pixels.reshape(3, 8, 8, 32).transpose(0, 2, 1, 3).reshape(24, 8, 32)
        rows[:UPPER_LINES - 1] = rows[1:UPPER_LINES].copy()
        rows[UPPER_LINES - 1] = 0
        pixels[:] = rows.reshape(3, 8, 8, 32).transpose(0, 2, 1, 3).reshape(-1)
        attrs = self.memory[sysvars.ATTRIBUTES:sysvars.ATTRIBUTES + 32 * UPPER_LINES]
        attrs[:-32] = attrs[32:].copy()
        attrs[-32:] = self.memory[sysvars.ATTR_P]
        self._row = UPPER_LINES - 1

    def _print_char(self, code: int) -> None:
        """PO-ANY: one printable code (32–255) at the print position, wrapping at column 32."""
        if code >= FIRST_TOKEN:
            self._print_token(code)
            return
        if self._col >= COLUMNS:
            self._newline()
        ram = self._ram
        if 128 <= code < 144:
            glyph = BLOCK_GRAPHICS[code - 128]
        else:
            variable = sysvars.UDG if code >= 144 else sysvars.CHARS
            base = ram[variable] + 256 * ram[variable + 1] + 8 * (code - 144 if code >= 144 else code)
            glyph = ram[base:base + 8].tobytes()
            # PO-CHAR-2 notes whether a space was printed (block graphics leave the flag alone)
            ram[sysvars.FLAGS] = (ram[sysvars.FLAGS] | 1) if code == 32 else (ram[sysvars.FLAGS] & 0xFE)
        self._draw_cell(self._row, self._col, glyph)
        self._col += 1

    def _print_token(self, code: int) -> None:
        """PO-TOKENS: a keyword, with a leading space unless one was just printed, and a
        trailing space after a keyword ending in a letter or '$' (except RND, INKEY$, PI)."""
        index = code - FIRST_TOKEN
        word = KEYWORDS[index]
        if index >= 0x20 and word[0] >= "A" and not self.memory[sysvars.FLAGS] & 1:
            self._print_char(ord(" "))
        for ch in word:
            self._print_char(ord(ch))
        if (word[-1] == "$" or word[-1] >= "A") and index >= 3:
            self._print_char(ord(" "))

    def _draw_cell(self, row: int, col: int, glyph: bytes) -> None:
        """PR-ALL and PO-ATTR: 8 pixel lines with OVER and INVERSE, then the attribute."""
        ram = self._ram
        flag = ram[sysvars.P_FLAG]
        lines = slice(cell_address(row, col), cell_address(row, col) + 8 * 256, 256)
        pixels = int.from_bytes(glyph, "big")
        if flag & P_INVERSE:
            pixels ^= ALL_PIXELS
        if flag & P_OVER:
            pixels ^= int.from_bytes(ram[lines].tobytes(), "big")
        ram[lines] = pixels.to_bytes(8, "big")
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
        row, col = _byte(row), _byte(col)
        address = (((row << 5) & 0xFF) ^ col) | (((row >> 3) & 0x03 ^ 0x58) << 8)
        return int(self.memory[address])

    def screen_char(self, row: int, col: int) -> str:
        """SCREEN$ (row,col): the character of the ROM font (or its inverse) in a cell, else ""."""
        row, col = _byte(row), _byte(col)
        address = ((((row << 5) & 0xE0) ^ col) | (((row & 0x18) ^ 0x40) << 8)) & 0xFFFF
        cell = self.memory[[(address + 256 * line) & 0xFFFF for line in range(8)]]
        font = self._peek_word(sysvars.CHARS) + 256
        for index in range(96):
            glyph = self.memory[font + 8 * index:font + 8 * index + 8]
            difference = cell ^ glyph
            if (difference == difference[0]).all() and difference[0] in (0, 0xFF):
                return chr(32 + index)
        return ""

    # --- time, keys and sound -------------------------------------------------------------

    def wait_frame(self, *, interrupts: bool = True, awaiting_key: bool = False, breakable: bool = True) -> None:
        """Let one 50 Hz frame pass: the front end shows it and reads keys, then (unless
        interrupts are off, as during BEEP) the ROM's interrupt counts FRAMES and scans keys.
        BREAK (CAPS SHIFT + SPACE) held then stops the program with "L BREAK into program", as
        the ROM does between statements, unless `breakable` is off (as in INPUT, where it is a space).

        `awaiting_key` tells the front end that the program is waiting for a key (a loop on
        INKEY$, say), which is when a scripted key press is typed.
        """
        self.awaiting_key = awaiting_key
        self._play_frame_audio()
        self.frame_count += 1
        self.flash_phase = bool((self.frame_count // FLASH_FRAMES) & 1)
        self.frontend.present(self)
        if interrupts and breakable and BREAK_KEYS <= self.keys_held:
            raise ReportError(BREAK_INTO_PROGRAM)
        if interrupts:
            frames = self.memory[sysvars.FRAMES:sysvars.FRAMES + 3]
            frames[:] = list(((int.from_bytes(frames.tobytes(), "little") + 1) & 0xFFFFFF)
                             .to_bytes(3, "little"))
            self._keyboard_interrupt()

    def _keyboard_interrupt(self) -> None:
        """KEYBOARD ($02BF): new keys and auto-repeat into LAST_K, with FLAGS bit 5 set."""
        scanned = keyboard.key_scan(frozenset(self.keys_held))
        if scanned is None:
            return
        kstate = self.memory[sysvars.KSTATE:sysvars.KSTATE + 8]
        for base in (0, 4):
            if kstate[base] < 0x80:
                kstate[base + 1] -= 1
                if kstate[base + 1] == 0:
                    kstate[base] = 0xFF
        shift, key = scanned
        main = keyboard.key_test(shift, key)
        if main is None:
            return
        for base in (0, 4):
            if kstate[base] == main:
                kstate[base + 1] = 5
                kstate[base + 2] -= 1
                if kstate[base + 2]:
                    return
                kstate[base + 2] = self.memory[sysvars.REPPER]
                self._new_key(int(kstate[base + 3]))
                return
        free = next((base for base in (4, 0) if kstate[base] >= 0x80), None)
        if free is None:
            return
        flags = int(self.memory[sysvars.FLAGS])
        code = keyboard.key_decode(main, shift, int(self.memory[sysvars.MODE]), bool(flags & 8),
                                   bool(self.memory[sysvars.FLAGS2] & 8))
        kstate[free:free + 4] = [main, 5, self.memory[sysvars.REPDEL], code]
        self._new_key(code)

    def _new_key(self, code: int) -> None:
        self.memory[sysvars.LAST_K] = code
        self.memory[sysvars.FLAGS] |= 0x20

    def pause(self, frames: int) -> None:
        """PAUSE n: wait n frames or until a key is pressed; PAUSE 0 waits for a key."""
        remaining = _word(frames)
        waiting_for_key = remaining == 0
        while True:
            self.wait_frame(awaiting_key=waiting_for_key)
            remaining = (remaining - 1) & 0xFFFF
            if remaining == 0:
                break
            if remaining == 0xFFFF:  # PAUSE 0 never counts out
                remaining = 0
            if self.memory[sysvars.FLAGS] & 0x20:
                break
        self.memory[sysvars.FLAGS] &= 0xDF

    def inkey(self) -> str:
        """INKEY$: the key held now, decoded in L mode (or C with CAPS LOCK), or ""."""
        code = keyboard.decode(self.keys_held, caps_lock=bool(self.memory[sysvars.FLAGS2] & 8))
        return "" if code is None else chr(code)

    def input(self, prompt: str | bytes = "") -> str:
        """INPUT "prompt"; a$ — edit a line in the lower screen and return it on ENTER.

        The entry sits between quotes, so it is read as a string literal: "" stands for one quote
        and ENTER is refused while a lone quote leaves no literal. The entry has a flashing L (or C with CAPS LOCK) cursor; keys are
        decoded by the keyboard interrupt and each one clicks. DELETE, cursor left/right and
        EDIT (clear the line) work as in the editor, CAPS LOCK toggles; the line is kept within
        the two lines of the lower screen. Afterwards the lower screen is cleared.
        """
        prompt_codes = _codes(prompt)
        saved_position = self._row, self._col
        entry, cursor = bytearray(), 0
        flags = int(self.memory[sysvars.FLAGS])
        self.memory[sysvars.FLAGS] = (flags | 0x08) & 0xDF  # L mode, no key pending
        while True:
            self._show_input_line(prompt_codes, entry, cursor)
            code = self._wait_key()
            self._sound(KEY_CLICK_EDGES)
            if code == keyboard.ENTER_CODE:
                value = _string_literal(entry)
                if value is not None:
                    break
                continue
            if code == keyboard.DELETE and cursor:
                del entry[cursor - 1]
                cursor -= 1
            elif code == keyboard.CURSOR_LEFT:
                cursor = max(0, cursor - 1)
            elif code == keyboard.CURSOR_RIGHT:
                cursor = min(len(entry), cursor + 1)
            elif code == keyboard.CAPS_LOCK:
                self.memory[sysvars.FLAGS2] ^= 0x08
            elif code == keyboard.EDIT:
                entry, cursor = bytearray(), 0
            elif code >= 32 and _width(prompt_codes + entry) + 3 < 2 * COLUMNS:
                entry.insert(cursor, code)
                cursor += 1
        self._clear_lower_screen()
        self._row, self._col = saved_position
        return value.decode("latin-1")

    def _wait_key(self) -> int:
        """WAIT-KEY: frames pass until the keyboard interrupt hands over a key."""
        while not self.memory[sysvars.FLAGS] & 0x20:
            self.wait_frame(awaiting_key=True, breakable=False)
        self.memory[sysvars.FLAGS] &= 0xDF
        return int(self.memory[sysvars.LAST_K])

    def show_report(self, error: ReportError) -> None:
        """The report line at the foot of the screen, as the ROM shows it when a program stops;
        it stays while BREAK is held, so that the BREAK that stopped one program stops no other."""
        self._clear_lower_screen()
        self._temps(lower=True)
        self._row, self._col = UPPER_LINES + 1, 0
        self._print_codes(_codes(str(error))[:COLUMNS])
        self.wait_frame(breakable=False)
        while BREAK_KEYS <= self.keys_held:
            self.wait_frame(breakable=False)

    def _clear_lower_screen(self) -> None:
        """CLS-LOWER for the two lines of the lower screen."""
        for row in (UPPER_LINES, UPPER_LINES + 1):
            for line in range(8):
                start = cell_address(row, 0) + 256 * line
                self.memory[start:start + COLUMNS] = 0
        start = attribute_address(UPPER_LINES, 0)
        self.memory[start:start + 2 * COLUMNS] = self.memory[sysvars.BORDCR]

    def _show_input_line(self, prompt: bytes, entry: bytes, cursor: int) -> None:
        """The lower screen while editing: prompt, then "entry" with the cursor inside."""
        self._clear_lower_screen()
        self._temps(lower=True)
        lines = (_width(prompt + entry) + 3 - 1) // COLUMNS + 1  # with the quotes and the cursor
        self._row, self._col = LINES - lines, 0  # the lower screen fills from the bottom
        self._print_codes(prompt + b'"' + bytes(entry[:cursor]))
        mode = ord("C") if self.memory[sysvars.FLAGS2] & 0x08 else ord("L")
        self.memory[sysvars.ATTR_T] |= 0x80
        self._print_char(mode)
        self.memory[sysvars.ATTR_T] &= 0x7F
        self._print_codes(bytes(entry[cursor:]) + b'"')

    def beep(self, duration: float, pitch: float) -> None:
        """BEEP: the ROM's square wave; the display goes on but FRAMES stops, as interrupts are off."""
        edges = beep_edges(duration, pitch)
        self._sound(edges)

    def _sound(self, edges: list[int]) -> None:
        """Sound from now on, into the frame-by-frame stream the front end plays; then the time
        it takes passes (several short sounds within one frame follow each other in the stream)."""
        now = self.frame_count * FRAME_T_STATES + self._t_into_frame
        first_sample = now * SAMPLE_RATE // T_STATES_PER_SECOND
        offset = first_sample - frame_start_sample(self.frame_count)
        # rendered on the stream's own sample grid, so that a sound starting mid-sample joins on
        phase = now - first_sample * T_STATES_PER_SECOND / SAMPLE_RATE
        samples = edges_to_samples([edge + phase for edge in edges])
        if len(self._pending_audio) < offset + len(samples):
            self._pending_audio = np.concatenate(
                [self._pending_audio, np.zeros(offset + len(samples) - len(self._pending_audio), np.int16)])
        self._pending_audio[offset:offset + len(samples)] += samples
        self._t_into_frame += edges[-1] if edges else 0
        while self._t_into_frame >= FRAME_T_STATES:
            self._t_into_frame -= FRAME_T_STATES
            self.wait_frame(interrupts=False)

    def _play_frame_audio(self, whole: bool = False) -> None:
        """Hand the front end this frame's share of the sound stream (or, `whole`, all that is
        left of it), unless it is silence."""
        length = frame_start_sample(self.frame_count + 1) - frame_start_sample(self.frame_count)
        if whole:
            length = len(self._pending_audio)
        chunk, self._pending_audio = self._pending_audio[:length], self._pending_audio[length:]
        if chunk.any():
            self.frontend.play(self, chunk)

    def flush_sound(self) -> None:
        """Play at once the sound still due after this frame (when a program ends mid-frame)."""
        self._play_frame_audio(whole=True)


def _byte(value: float) -> int:
    """FIND-INT1: a number rounded (halves up) to 0–255, or report B."""
    return fp.find_int1(fp.from_float(value))


def _word(value: float) -> int:
    """FIND-INT2: a number rounded (halves up) to 0–65535, or report B."""
    return fp.find_int2(fp.from_float(value))


def _checked_colour(item: str, value: int) -> int:
    """The range check of CO-TEMP: INK/PAPER 0–9, FLASH/BRIGHT 0, 1, 8, INVERSE/OVER 0–1."""
    allowed = {"ink": 9, "paper": 9, "flash": 8, "bright": 8}.get(item, 1)
    if value > allowed or (allowed == 8 and 1 < value < 8):
        raise ReportError(INVALID_COLOUR)
    return value


def _colour_items(**items) -> list[tuple[str, int]]:
    """The given colour items in ROM order, each range-checked."""
    return [(item, _checked_colour(item, _byte(value)))
            for item, value in items.items() if value is not None]


def _string_literal(entry: bytes) -> bytes | None:
    """The string an INPUT entry stands for between its quotes ("" is one quote), or None when a
    lone quote makes it no string literal (the ROM then reports a syntax error and goes on)."""
    parts = bytes(entry).split(b'""')
    if any(b'"' in part for part in parts):
        return None
    return b'"'.join(parts)


def _width(codes: bytes) -> int:
    """Character cells that `codes` take when printed (a keyword with its spaces, at most)."""
    return sum(len(KEYWORDS[code - FIRST_TOKEN]) + 2 if code >= FIRST_TOKEN else 1 for code in codes)


def _codes(text) -> bytes:
    """Spectrum codes for a str (one character per code), bytes, or a number."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    if isinstance(text, (int, float)):
        from .numbers import format_number
        return format_number(text).encode("ascii")
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        raise ValueError(f"{text!r} holds a character with no Spectrum code (0–255)") from None
