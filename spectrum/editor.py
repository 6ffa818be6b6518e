"""INPUT: the ROM's editor on the lower screen (EDITOR $0F2C, KEY-INPUT $10A8, ED-COPY $111D).

The prompt goes to the lower screen, then the line is edited in the workspace: for a string
INPUT it starts as two quotes with the cursor between them. After every key the whole line is
printed again from the end of the prompt, as ED-COPY does: tokens spelt out, the flashing cursor
(K, L, C, E or G, as the keyboard will read the next key) and, once after a refused ENTER, the
flashing '?' where the syntax check stopped; what is left of a longer earlier line is blanked.
The lower screen grows upwards as the line needs rows (DF_SZ) and pushes the upper screen up
when it meets its print position. On ENTER the line is checked and evaluated as an expression
(`expression`), so a string INPUT whose quotes are deleted takes, say, "6"+"9".
"""

from typing import TYPE_CHECKING

from . import expression, fp, sysvars
from .beeper import beeper
from .errors import ReportError
from .hardware import ROWS
from .rom import (
    AT,
    CAPS_LOCK,
    CURSOR_LEFT,
    CURSOR_RIGHT,
    DELETE,
    EDIT,
    ENTER,
    FIRST_TOKEN,
    FLASH,
    GRAPHICS,
    INK,
    PAPER,
    TAB,
    TOKEN_THEN,
)
from .screen import codes_of, token_text
from .sysvars import Flags, Flags2

KEY_CLICK_EDGES = beeper(0x00C8, 1)  # ED-LOOP's click: BEEPER with HL = $00C8 and PIP = 0
RASP_EDGES = beeper(0x1A90, 65)  # ED-FULL's rasp: BEEPER with HL = $1A90 and DE = RASP = 64
# KEY-INPUT turns these codes into a colour control code and its parameter
TRUE_VIDEO_FIRST, PAPER_KEYS, INK_KEYS = 0, 0x10, 0x18
MODE_KEYS = (14, GRAPHICS)  # SYMBOL SHIFT + CAPS SHIFT (E mode) and GRAPHICS (G mode)


class Editor:
    """INPUT on the machine. `variables` holds what the program lets an INPUT expression use:
    its BASIC variables by name ("a", "score", "p$"), numbers, strings or arrays (see
    `expression.evaluate`); `functions` its DEF FNs."""

    if TYPE_CHECKING:  # what the other parts of the machine (spectrum.machine.Spectrum) give this one
        ram: memoryview
        print_position: tuple[int, int]
        lower_position: tuple[int, int]

        def charge(self, item: str, count: int = 1) -> None: ...
        def charge_token(self, code: int) -> None: ...
        def cls_lower(self) -> None: ...
        def print_lower(self, code: int) -> None: ...
        def temps(self, lower: bool) -> None: ...
        def sound(self, edges: list[int]) -> None: ...
        def wait_key(self) -> int: ...

    variables: dict
    functions: dict

    def input(self, prompt: str | bytes = "") -> str:
        """INPUT "prompt"; a$ — edit a line in the lower screen and return the string it gives.

        The editor is the ROM's: DELETE, cursor left and right (and EDIT, which clears the whole
        line, quotes and all), CAPS LOCK, E and G modes, keywords typed with SYMBOL SHIFT or in K
        mode; cursor up does nothing and cursor down starts the editing again. ENTER is taken when
        the line is an expression of the right kind, STOP gives "H STOP in INPUT", and an
        error in the expression gives the report a program stops with.
        """
        return self._input(prompt, numeric=False).decode("latin-1")

    def input_number(self, prompt: str | bytes = "") -> float:
        """INPUT "prompt"; n — as `input`, for a numeric expression."""
        return fp.to_float(self._input(prompt, numeric=True))

    def _input(self, prompt: str | bytes, numeric: bool) -> bytes:
        prompt_codes = codes_of(prompt)
        ram = self.ram
        ram[sysvars.FLAGS] &= ~Flags.NEW_KEY & 0xFF  # CHAN-K: "ready for a key", a key taken before is dropped
        self.charge("input-start")
        self.cls_lower()
        for code in prompt_codes:
            self.print_lower(code)
        self._echo_end = self.lower_position
        line = bytearray() if numeric else bytearray(b'""')
        cursor = 0 if numeric else 1
        fault_at = None
        while True:
            cursor = self._edit(line, cursor, fault_at)
            try:
                self.charge("input-check")
                expression.check(bytes(line), numeric, self)
                self.charge("input-copy")  # ED-COPY once more, without the cursor
                self._charge_copy(line)
                value = expression.evaluate(bytes(line), numeric, self)
                break
            except expression.SyntaxFault as fault:
                fault_at = fault.position
        self._input_done()
        return value

    def _charge_copy(self, line: bytes | bytearray) -> None:
        """The time of ED-COPY's printing of `line`: PRINT-OUT of each code, a keyword spelt
        out by PO-TOKENS after its search of the token table."""
        after_space = True  # ED-COPY sets FLAGS bit 0: no leading space
        for code in line:
            if code >= FIRST_TOKEN:
                text = token_text(code, after_space)
                self.charge_token(code)
                self.charge("print-out-char-lower", len(text))
                after_space = text.endswith(" ")
            else:
                self.charge("print-out-char-lower")
                after_space = code == ord(" ")

    def _input_done(self) -> None:
        """INPUT-2: an upper print position the lower screen has covered goes to the line just
        above it; the scroll count starts again; the lower screen is cleared."""
        ram = self.ram
        self.charge("input-end")
        size = ram[sysvars.DF_SZ]
        row = self.print_position[0]
        if size >= ROWS - row:
            row = ROWS - size
            self.print_position = row, 0
        ram[sysvars.SCR_CT] = row + 1
        self.cls_lower()  # and printing goes to the lower screen

    def _edit(self, line: bytearray, cursor: int, fault_at: int | None) -> int:
        """ED-LOOP until ENTER; returns the cursor's place."""
        while True:
            self.copy_line(line, cursor, fault_at)
            fault_at = None
            code = self.wait_key()
            self.charge("editor-key")
            if code == CAPS_LOCK:
                self.ram[sysvars.FLAGS2] ^= Flags2.CAPS_LOCK
                continue
            if code in MODE_KEYS:
                mode = code - 13
                self.ram[sysvars.MODE] = 0 if self.ram[sysvars.MODE] == mode else mode
                continue
            self.sound(KEY_CLICK_EDGES)
            if code < 6:  # TRUE VIDEO, INV VIDEO and E-mode 8 and 9: FLASH, BRIGHT, INVERSE
                cursor = self._add_codes(line, cursor, FLASH + code // 2, code & 1)
            elif PAPER_KEYS <= code < 32:
                cursor = self._add_codes(line, cursor, INK if code >= INK_KEYS else PAPER, code & 7)
            elif code >= 32:
                cursor = self._add_codes(line, cursor, code)
            elif code == ENTER:
                return cursor
            elif code == EDIT:  # CLEAR-SP: the whole line goes, quotes and all
                del line[:]
                cursor = 0
                self.ram[sysvars.MODE] = 0
            elif code == CURSOR_LEFT:
                cursor = _left_edge(line, cursor)
            elif code == CURSOR_RIGHT:
                cursor = min(cursor + 1, len(line))
            elif code == DELETE and cursor:
                # the code where ED-EDGE lands goes; the cursor only moves back by one, so after
                # a control code's parameter it stays behind the naked parameter
                del line[_left_edge(line, cursor)]
                cursor -= 1

    def _add_codes(self, line: bytearray, cursor: int, *codes: int) -> int:
        """ADD-CHAR (and ED-CONTR for a control code with its parameter): E mode ends, G stays."""
        self.ram[sysvars.MODE] &= 0xFE
        line[cursor:cursor] = bytes(codes)
        return cursor + len(codes)

    def copy_line(self, line: bytes | bytearray, cursor: int | None, fault_at: int | None) -> None:
        """ED-COPY: the line printed from the end of the prompt, then blanks up to where the
        last copy ended; a report while printing (the lower screen full, a control code given
        a cursor for its colour) rasps and leaves the copy where it stopped."""
        ram = self.ram
        self.charge("editor-copy")
        self.temps(lower=True)
        start = self.lower_position
        try:
            ram[sysvars.FLAGS] |= (
                Flags.NO_LEADING_SPACE | Flags.PRINT_L_MODE
            )  # no leading space; the cursor is L unless a THEN comes
            ram[sysvars.FLAGS2] &= ~Flags2.IN_QUOTES & 0xFF  # not within quotes
            for index in range(len(line) + 1):
                if index == fault_at:
                    self._print_flashing(ord("?"))
                if index == cursor:
                    self._print_cursor()
                if index < len(line):
                    self._print_line_code(line[index])
            end = self.lower_position
            self.temps(lower=True)
            while _before(*self.lower_position, *self._echo_end):
                self.print_lower(ord(" "))
        except ReportError:
            self.sound(RASP_EDGES)
            end = self.lower_position
        self.lower_position = start
        self._echo_end = end

    def _print_line_code(self, code: int) -> None:
        """OUT-CHAR: a code of the line; which codes come before it decides the cursor's K or L."""
        ram = self.ram
        if not (ord("0") <= code <= ord("9") or code < 0x21):
            ram[sysvars.FLAGS] &= ~Flags.PRINT_L_MODE & 0xFF
            if code == ord('"'):
                ram[sysvars.FLAGS2] ^= Flags2.IN_QUOTES
            if code != TOKEN_THEN:
                ram[sysvars.FLAGS] |= Flags.PRINT_L_MODE
        self.print_lower(code)

    def _print_cursor(self) -> None:
        """OUT-CURS: E or G in those modes, else K, or L (C with CAPS LOCK) when the codes
        before it call for it; the keyboard then reads keys in K or L mode to match."""
        ram = self.ram
        mode = ram[sysvars.MODE]
        if mode:
            letter = ord("E") if mode == 1 else ord("G")
        elif ram[sysvars.FLAGS] & Flags.PRINT_L_MODE:
            ram[sysvars.FLAGS] |= Flags.L_MODE
            letter = ord("C") if ram[sysvars.FLAGS2] & Flags2.CAPS_LOCK else ord("L")
        else:
            ram[sysvars.FLAGS] &= ~Flags.L_MODE & 0xFF
            letter = ord("K")
        self._print_flashing(letter)

    def _print_flashing(self, code: int) -> None:
        """OUT-FLASH: FLASH 1 with no INVERSE, OVER or INK/PAPER 9, all restored afterwards (not
        if the printing fails: P_FLAG then stays clear, as in the ROM)."""
        ram = self.ram
        saved = ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG]
        ram[sysvars.ATTR_T] |= 0x80
        ram[sysvars.MASK_T] &= 0x7F
        ram[sysvars.P_FLAG] = 0
        self.print_lower(code)
        ram[sysvars.ATTR_T], ram[sysvars.MASK_T], ram[sysvars.P_FLAG] = saved


def _left_edge(line: bytes | bytearray, cursor: int) -> int:
    """ED-EDGE: where the code before the cursor starts (a control code with its parameter is
    one step)."""
    if not cursor:
        return 0
    start = 0
    while True:
        following = start + 1
        if line[start] & 0xF0 == 0x10:
            following += 2 if line[start] in (AT, TAB) else 1
        if following >= cursor:
            return start
        start = following


def _before(line: int, col: int, end_line: int, end_col: int) -> bool:
    """ED-BLANK's test: whether (line, col) comes before (end_line, end_col) on the lower
    screen, whose lines count down."""
    return line > end_line or (line == end_line and col < end_col)
