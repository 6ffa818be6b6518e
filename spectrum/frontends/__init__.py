"""Front ends: where the machine's picture, sound and keys meet the host.

Every front end keeps the contract `Frontend`: the window, the headless one, the side-by-side
window and a served session (`served`) alike. The headless one is imported here; the window is
only imported when asked for, so that headless use never opens or even loads a display.
"""

from __future__ import annotations

import os
import numpy as np

# pygame greets on stdout when it is first imported, by whichever front end: not in our output
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class Frontend:
    """What a machine (the port's `Spectrum`, the ROM's `RomSpectrum`) needs of its host: every
    front end is one. `doze` and `wake` have defaults for a host that never sleeps through frames."""

    status: str  # what the host's own keys do now ("Esc: back to the menu"), said outside the screen

    def present(self, machine) -> None:
        """Once a frame, as the ULA draws it: show `machine`'s picture (`render.picture`), set
        `machine.keys_held` to the Spectrum keys held now, and keep real time if the host does.
        May raise Leave (the host's leave key), Quit (the window or connection closed) or
        ScriptExhausted."""

    def play(self, machine, samples: np.ndarray) -> None:
        """The beeper's next int16 samples at 44.1 kHz, from the start of the frame just begun
        (`machine.sound_latency` frames earlier, if the machine says so)."""

    def close(self) -> None:
        """Give back what the host lent: the window, the sound device, the connection."""

    def doze(self, machine, most: int) -> int:
        """While the program waits for a key: let as many as `most` frames go by unseen if the host
        can (nothing comes, nothing changes on screen), and say how many did; by default none."""
        return 0

    def wake(self) -> None:
        """From any thread: a doze ends, as the program has news to show; by default, no doze."""


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

__all__ = [
    "Frontend",
    "Quit",
    "Leave",
    "ScriptExhausted",
    "NoDisplay",
    "HeadlessFrontend",
    "Press",
    "presses_from",
    "WindowFrontend",
]


def __getattr__(name: str):
    if name == "WindowFrontend":
        from .window import WindowFrontend

        return WindowFrontend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
