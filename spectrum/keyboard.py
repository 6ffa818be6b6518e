"""The 40-key matrix and the ROM's key decoding (KEY-SCAN $028E, K-TEST $031E, K-DECODE $0333).

The decoding tables are read from the ROM itself; the control flow mirrors K-DECODE, so INKEY$
and the editor see exactly the codes a real 48K produces for any combination of keys.
"""

from functools import cache

from .rom import ROM

MATRIX_ROWS: tuple[tuple[str, ...], ...] = (
    ("CAPS", "z", "x", "c", "v"),  # port $FEFE, bits 0–4
    ("a", "s", "d", "f", "g"),  # $FDFE
    ("q", "w", "e", "r", "t"),  # $FBFE
    ("1", "2", "3", "4", "5"),  # $F7FE
    ("0", "9", "8", "7", "6"),  # $EFFE
    ("p", "o", "i", "u", "y"),  # $DFFE
    ("ENTER", "l", "k", "j", "h"),  # $BFFE
    ("SPACE", "SYMBOL", "m", "n", "b"),  # $7FFE
)
KEY_NAMES = frozenset(name for row in MATRIX_ROWS for name in row)
ULA_HIGH_BITS = 0xA0  # bits 5 and 7 of the ULA's port read high; bit 6 (EAR) low, no tape playing


def read_port(port: int, held: frozenset[str]) -> int:
    """IN port: an even port is the ULA's, whose bits 0-4 go low for the keys `held` in each
    half-row its address's high byte selects (a bit reset); an odd one reads $FF."""
    if port & 1:
        return 0xFF
    value = 0x1F
    for row, names in enumerate(MATRIX_ROWS):
        if not port & (0x100 << row):
            for bit, name in enumerate(names):
                if name in held:
                    value &= ~(1 << bit)
    return value | ULA_HIGH_BITS


MAIN_KEYS = 0x0205  # main code of each key value 0–38 (39 is CAPS SHIFT)
E_UNSHIFT = 0x022C  # extended mode letters
EXT_SHIFT = 0x0246  # extended mode letters with a shift
CTL_CODES = 0x0260  # CAPS SHIFT with a digit: editing codes
SYM_CODES = 0x026A  # SYMBOL SHIFT with a letter
E_DIGITS = 0x0284  # extended mode digits with SYMBOL SHIFT

CAPS_SHIFT, SYMBOL_SHIFT, NO_SHIFT = 0x27, 0x18, 0xFF
MODE_KLC, MODE_E, MODE_G = 0, 1, 2


def key_value(row: int, bit: int) -> int:
    """KEY-SCAN's number for a key: 39 for CAPS SHIFT down to 0 for B."""
    return 8 * (4 - bit) + 7 - row


KEY_VALUES = {name: key_value(row, bit) for row, names in enumerate(MATRIX_ROWS) for bit, name in enumerate(names)}
SCAN_ORDER = {name: order for order, name in enumerate(KEY_VALUES)}  # KEY-SCAN's: row by row, bit by bit


def key_scan(held: frozenset[str] | set[str]) -> tuple[int, int] | None:
    """KEY-SCAN: (shift value or $FF, key value or $FF), or None for an invalid combination."""
    if not held:
        return NO_SHIFT, NO_SHIFT
    found = [KEY_VALUES[name] for name in sorted(held & KEY_VALUES.keys(), key=SCAN_ORDER.__getitem__)]
    if len(found) > 2:
        return None
    if len(found) < 2:
        return NO_SHIFT, (found[0] if found else NO_SHIFT)
    shift = [value for value in found if value in (CAPS_SHIFT, SYMBOL_SHIFT)]
    if not shift:
        return None
    if len(shift) == 2:  # both shifts: SYMBOL SHIFT is the key
        return CAPS_SHIFT, SYMBOL_SHIFT
    other = found[1] if found[0] == shift[0] else found[0]
    return shift[0], other


def key_test(shift: int, key: int) -> int | None:
    """K-TEST: the main code of a scanned key, or None when only shifts (or nothing) are held."""
    if key >= CAPS_SHIFT or (key == SYMBOL_SHIFT and shift == NO_SHIFT):
        return None
    return ROM[MAIN_KEYS + key]


def key_decode(main: int, shift: int, mode: int, l_mode: bool, caps_lock: bool) -> int:
    """K-DECODE: the final code of a key in the given mode (K/L/C, E or G).

    `shift` is CAPS_SHIFT, SYMBOL_SHIFT or NO_SHIFT; `l_mode` is FLAGS bit 3 (L rather than K
    mode); `caps_lock` is FLAGS2 bit 3.
    """
    if main >= ord(":"):
        if mode == MODE_KLC:
            if shift == SYMBOL_SHIFT:
                return ROM[SYM_CODES + main - ord("A")]
            if not l_mode:
                return (main + 0xA5) & 0xFF  # K mode: the letter's keyword
            if caps_lock or shift == CAPS_SHIFT:
                return main
            return main + 0x20
        if mode == MODE_E:
            table = E_UNSHIFT if shift == NO_SHIFT else EXT_SHIFT
            return ROM[table + main - ord("A")]
        return main + 0x4F  # G mode: the UDGs
    if main < ord("0"):
        return main
    if mode == MODE_KLC:
        if shift == NO_SHIFT:
            return main
        if shift == CAPS_SHIFT:
            return ROM[CTL_CODES + main - ord("0")]
        symbol = main - 0x10
        return {0x22: ord("@"), 0x20: ord("_")}.get(symbol, symbol)
    if mode == MODE_E:
        if shift != CAPS_SHIFT and shift != NO_SHIFT:
            return ROM[E_DIGITS + main - ord("0")]
        if main >= ord("8"):
            return main - 0x36 if shift == NO_SHIFT else main - 0x38
        return main - 0x20 if shift == NO_SHIFT else main - 0x18
    if main in (ord("9"), ord("0")):
        return ROM[CTL_CODES + main - ord("0")]
    block = 0x80 + (main & 7)
    return block if shift == NO_SHIFT else block ^ 0x0F


def decode(held, *, mode: int = MODE_KLC, l_mode: bool = True, caps_lock: bool = False) -> int | None:
    """The code the keys held produce (None for no key or an invalid combination)."""
    scanned = key_scan(frozenset(held))
    if scanned is None:
        return None
    shift, key = scanned
    main = key_test(shift, key)
    if main is None:
        return None
    return key_decode(main, shift, mode, l_mode, caps_lock)


@cache
def _keys_by_code() -> dict[int, frozenset[str]]:
    """The simplest key combination giving each code in L mode (plain first, then shifted)."""
    table: dict[int, frozenset[str]] = {}
    for shift in ((), ("CAPS",), ("SYMBOL",)):
        for name in sorted(KEY_NAMES - {"CAPS", "SYMBOL"}):
            keys = frozenset((name, *shift))
            code = decode(keys)
            if code is not None:
                table.setdefault(code, keys)
    return table


def keys_for_code(code: int) -> frozenset[str] | None:
    """The keys to hold for `code` in L mode, or None if no key gives it there."""
    return _keys_by_code().get(code)


def keys_for_char(ch: str) -> frozenset[str] | None:
    """The keys to hold to type the character `ch` ('\\n' is ENTER, '£' its Spectrum code)."""
    if ch == "\n":
        return frozenset({"ENTER"})
    code = 0x60 if ch == "£" else ord(ch)
    return keys_for_code(code) if code < 256 else None
