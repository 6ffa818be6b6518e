"""INPUT: the ROM's editor on the lower screen."""

from . import keyboard, sysvars
from .beeper import beeper
from .screen import COLUMNS, LINES, codes_of, printed_width

KEY_CLICK_EDGES = beeper(0x00C8, 1)  # KEY-INPUT's click: BEEPER with HL = $00C8 and PIP = 0


class Editor:
    """INPUT on the machine: the line is edited in the lower screen."""

    def input(self, prompt: str | bytes = "") -> str:
        """INPUT "prompt"; a$ — edit a line in the lower screen and return it on ENTER.

        The entry sits between quotes, so it is read as a string literal: "" stands for one quote
        and ENTER is refused while a lone quote leaves no literal. The entry has a flashing L (or C with CAPS LOCK) cursor; keys are
        decoded by the keyboard interrupt and each one clicks. DELETE, cursor left/right and
        EDIT (clear the line) work as in the editor, CAPS LOCK toggles; the line is kept within
        the two lines of the lower screen. Afterwards the lower screen is cleared.
        """
        prompt_codes = codes_of(prompt)
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
            elif code >= 32 and printed_width(prompt_codes + entry) + 3 < 2 * COLUMNS:
                entry.insert(cursor, code)
                cursor += 1
        self._clear_lower_screen()
        self._row, self._col = saved_position
        return value.decode("latin-1")

    def _show_input_line(self, prompt: bytes, entry: bytes, cursor: int) -> None:
        """The lower screen while editing: prompt, then "entry" with the cursor inside."""
        self._clear_lower_screen()
        self._temps(lower=True)
        lines = (printed_width(prompt + entry) + 3 - 1) // COLUMNS + 1  # with the quotes and the cursor
        self._row, self._col = LINES - lines, 0  # the lower screen fills from the bottom
        self._print_codes(prompt + b'"' + bytes(entry[:cursor]))
        mode = ord("C") if self.memory[sysvars.FLAGS2] & 0x08 else ord("L")
        self.memory[sysvars.ATTR_T] |= 0x80
        self._print_char(mode)
        self.memory[sysvars.ATTR_T] &= 0x7F
        self._print_codes(bytes(entry[cursor:]) + b'"')


def _string_literal(entry: bytes) -> bytes | None:
    """The string an INPUT entry stands for between its quotes ("" is one quote), or None when a
    lone quote makes it no string literal (the ROM then reports a syntax error and goes on)."""
    parts = bytes(entry).split(b'""')
    if any(b'"' in part for part in parts):
        return None
    return b'"'.join(parts)
