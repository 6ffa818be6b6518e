"""Key presses named as a script names them ('ENTER', 'a', 'CAPS+5', 'DELETE'): what a headless
script (`spectrum.frontends.headless`) and a tap (`spectrum.pointing`) type."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .keyboard import KEY_NAMES, MODE_E, decode, keys_for_char, keys_for_code

EXTEND_MODE = frozenset({"CAPS", "SYMBOL"})  # code 14: the editor reads the next key in extended mode
LEAVE = frozenset({"ESC"})  # the host's leave key: not a Spectrum key, it stops the program (Leave)
NAMED_PRESSES = {
    "BREAK": frozenset({"CAPS", "SPACE"}),
    "EDIT": frozenset({"CAPS", "1"}),
    "CAPSLOCK": frozenset({"CAPS", "2"}),
    "LEFT": frozenset({"CAPS", "5"}),
    "DOWN": frozenset({"CAPS", "6"}),
    "UP": frozenset({"CAPS", "7"}),
    "RIGHT": frozenset({"CAPS", "8"}),
    "GRAPHICS": frozenset({"CAPS", "9"}),
    "DELETE": frozenset({"CAPS", "0"}),
    "EXTEND": EXTEND_MODE,
    "ESC": LEAVE,
}
VALID_KEYS = (
    "the keys are ENTER, SPACE, CAPS, SYMBOL, a-z and 0-9 (held together: CAPS+5), and "
    + ", ".join(NAMED_PRESSES)
    + " (ESC leaves the program)"
)


def presses_from(items: Iterable[str | Iterable[str]]) -> list[frozenset[str]]:
    """Key presses for a headless script.

    Each item is a key name ('ENTER', 'CAPS', 'q') or the name of a press (NAMED_PRESSES:
    'DELETE', 'LEFT', 'BREAK', 'ESC' the host's leave key…), a single character to type
    ('"' becomes SYMBOL+p, 'A' CAPS+a, and '{' extended mode then SYMBOL+f, as on
    the Spectrum's keyboard), or a collection of key names held together
    (('CAPS', '5') is cursor left).
    """
    presses = []
    for item in items:
        if isinstance(item, str):
            if item in KEY_NAMES:
                presses.append(frozenset({item}))
            elif item in NAMED_PRESSES:
                presses.append(NAMED_PRESSES[item])
            elif len(item) == 1 and (keys := keys_for_char(item)):
                presses.append(keys)
            elif item in _extended_mode_keys():
                presses += [EXTEND_MODE, _extended_mode_keys()[item]]
            else:
                raise ValueError(f"no Spectrum key or character {item!r}")
        else:
            presses.append(_checked_press(item))
    return presses


@cache
def _extended_mode_keys() -> dict[str, frozenset[str]]:
    """The characters only extended mode types ({ } \\ ~ | [ ]): SYMBOL SHIFT with a letter."""
    found = {}
    for name in sorted(KEY_NAMES - EXTEND_MODE):
        keys = frozenset({"SYMBOL", name})
        code = decode(keys, mode=MODE_E)
        if code is not None and 32 <= code < 127 and keys_for_code(code) is None:
            found[chr(code)] = keys
    return found


def _checked_press(keys: Iterable[str]) -> frozenset[str]:
    names = list(keys)
    if len(names) == 1 and names[0] in NAMED_PRESSES:
        return NAMED_PRESSES[names[0]]
    press = frozenset(names)
    unknown = press - KEY_NAMES
    if unknown or not press:
        raise ValueError(f"no key {', '.join(map(repr, sorted(unknown))) or 'named'}: {VALID_KEYS}")
    return press
