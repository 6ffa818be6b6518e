"""Running a program on a machine, and how it ended: one place for the window, headless and the
server alike.

A program ends by returning (its exit status), by the player's way out (BREAK, Esc, the end of a
headless script, STOP), by refusing to start (`CannotStart`, said in one line), or by a report the
ROM would give (news: said, and a failure).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from spectrum import ReportError, Spectrum, sysvars
from spectrum.errors import BREAK_INTO_PROGRAM, STOP_STATEMENT
from spectrum.frontends import Leave, Quit, ScriptExhausted
from spectrum.hardware import FRAME_T_STATES, T_STATES_PER_SECOND

from ..program import CannotStart

FRAMES_LIMIT = 1 << 24  # FRAMES is three bytes
PLAYERS_WAYS_OUT = (BREAK_INTO_PROGRAM, STOP_STATEMENT)  # reports that are a player's way out, or a program's end


@dataclass(frozen=True)
class Ending:
    """How a session ended: its exit `status` as a command's, and, when that is news, why:
    `refused` (the program could not start, in its own words) or `report` (the ROM's report)."""

    status: int = 0
    refused: str | None = None
    report: str | None = None

    def said(self, title: str) -> str | None:
        """Why it ended, in one line naming the program (None when there is nothing to say)."""
        if self.refused is not None:
            return f"{title} can't play: {self.refused}"
        if self.report is not None:
            return f"{title} stopped with report {self.report}"
        return None


def ended(run: Callable[[], int | None]) -> Ending:
    """`run()`, and how it ended."""
    try:
        return Ending(run() or 0)
    except (Quit, Leave, ScriptExhausted):
        return Ending()
    except CannotStart as refusal:
        return Ending(1, refused=str(refusal))
    except ReportError as report:
        if report.text in PLAYERS_WAYS_OUT:
            return Ending()
        return Ending(1, report=str(report))


def start_frames_from_host_clock(machine: Spectrum) -> None:
    """POKE FRAMES from the host's clock: a real Spectrum's count depends on how long it has been
    on, so RANDOMIZE (and any deal drawn from FRAMES) differs from one launch to the next."""
    frames = time.time_ns() * T_STATES_PER_SECOND // (FRAME_T_STATES * 1_000_000_000) % FRAMES_LIMIT  # 50.08 a second
    for offset in range(3):
        machine.poke(sysvars.FRAMES + offset, (frames >> 8 * offset) & 0xFF)
