"""A ZX Spectrum 48K as BASIC programs see it, checked against the genuine ROM.

`Spectrum` is loaded on first use, so that `spectrum.colours` and `spectrum.errors` come without
numpy.
"""

from .errors import ReportError

__all__ = ["ReportError", "Spectrum"]


def __getattr__(name: str):
    if name == "Spectrum":
        from .machine import Spectrum

        return Spectrum
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
