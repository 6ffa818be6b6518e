"""A ZX Spectrum 48K as BASIC programs see it, checked against the genuine ROM."""

from .errors import ReportError
from .machine import Spectrum

__all__ = ["ReportError", "Spectrum"]
