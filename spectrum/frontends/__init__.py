"""Front ends: where the machine's picture, sound and keys meet the host.

A front end has `present(machine)` (once per 50 Hz frame: show the screen, set
`machine.keys_held`), `play(machine, samples)` and `close()`, and `status`: a line in which the
host says what its own keys do now ("Esc: back to the menu"), which a window shows under the
picture, outside the Spectrum's screen.  The headless one
is imported here; the window is only imported when asked for, so that headless
use never opens or even loads a display.
"""

from __future__ import annotations

import os

# pygame greets on stdout when it is first imported, by whichever front end: not in our output
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class Quit(SystemExit):
    """The user closed the window."""


class Leave(Exception):
    """The host's leave key (Escape in the window, {ESC} in a key script): the running program
    stops at once, even at an INPUT or at "scroll?", and the menu comes back. It is no Spectrum
    key: CAPS SHIFT + SPACE stays the Spectrum's BREAK."""


class ScriptExhausted(Exception):
    """A headless run used up its scripted key presses and the program still wants keys."""


class NoDisplay(RuntimeError):
    """No window can be opened on this host."""


# Imported after the exceptions above, which the front-end modules import from here.
from .headless import HeadlessFrontend, Press, presses_from  # noqa: E402

__all__ = ["Quit", "Leave", "ScriptExhausted", "NoDisplay", "HeadlessFrontend", "Press", "presses_from", "WindowFrontend"]


def __getattr__(name: str):
    if name == "WindowFrontend":
        from .window import WindowFrontend

        return WindowFrontend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
