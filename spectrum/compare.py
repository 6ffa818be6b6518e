"""Two machines given the same keys, and where they part: the port beside the real ROM.

Their screens are compared where both wait for a key: each time a machine takes the next key
press, and when it waits with none left. The k-th such screen of one is compared with the k-th of
the other, all of SCREEN$: once a program has stopped, its report too ("9 STOP statement, 1590:6").

Their time is compared there too, and where each sound begins: the k-th key wait, and the k-th
sound, of one within 3 frames of the other's, or 0.5% of the time since frame 0 if that is more.

The comparison ends at the first key wait at which both programs have stopped: keys typed after
that go to the ROM's command line (ENTER lists the program), which the port does not have.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .frontends import Frontend, HeadlessFrontend, ScriptExhausted
from .hardware import COLUMNS, DISPLAY_FILE, DISPLAY_FILE_BYTES, FRAME_T_STATES, SCREEN_BYTES

TOLERANCE_FRAMES = 3
TOLERANCE_SHARE = 0.005


def screen_of(machine) -> bytes:
    """SCREEN$ of any machine: the display file and attributes, 6,912 bytes."""
    return bytes(machine.memory[DISPLAY_FILE : DISPLAY_FILE + SCREEN_BYTES])


def cell_of(offset: int) -> tuple[int, int]:
    """The character cell (row, column) that byte `offset` of SCREEN$ belongs to."""
    if offset >= DISPLAY_FILE_BYTES:
        return divmod(offset - DISPLAY_FILE_BYTES, COLUMNS)
    third, line_row, column = offset >> 11, (offset >> 5) & 7, offset & 31
    return 8 * third + line_row, column


def differing_cells(first: bytes, second: bytes) -> list[tuple[int, int]]:
    """The cells (row, column), top to bottom and left to right, in which two screens differ."""
    changed = np.flatnonzero(np.frombuffer(first, np.uint8) != np.frombuffer(second, np.uint8))
    return sorted(set(map(cell_of, changed.tolist())))


@dataclass(frozen=True)
class KeyWait:
    """A machine waiting for a key: its frame, SCREEN$ then, and whether its program had stopped."""

    frame: int
    screen: bytes
    stopped: bool = False


@dataclass(frozen=True)
class Difference:
    frame: int  # the ROM's frame (the second machine's)
    row: int
    column: int
    key_wait: int  # which wait for a key, counting from 1

    def __str__(self) -> str:
        return (
            f"first difference at frame {self.frame}, row {self.row}, column {self.column} (key wait {self.key_wait})"
        )


@dataclass(frozen=True)
class Lateness:
    """The k-th key wait, or sound, of the two machines further apart in time than allowed."""

    what: str  # "key wait 4", "sound 17"
    port_frame: float
    rom_frame: float

    def __str__(self) -> str:
        return (
            f"{self.what} at frame {self.rom_frame:.1f} on the ROM but {self.port_frame:.1f} in the port "
            f"({self.port_frame - self.rom_frame:+.1f} frames; {allowed_frames(self.rom_frame):.1f} allowed)"
        )


def allowed_frames(frame: float) -> float:
    """How far apart in time two machines may be at `frame`: 3 frames, or 0.5% of the time so far."""
    return max(TOLERANCE_FRAMES, TOLERANCE_SHARE * frame)


def while_a_program_runs(port: list[KeyWait], rom: list[KeyWait]) -> tuple[list[KeyWait], list[KeyWait]]:
    """The key waits of both up to the first at which both programs have stopped."""
    for number, (ours, theirs) in enumerate(zip(port, rom), 1):
        if ours.stopped and theirs.stopped:
            return port[:number], rom[:number]
    return port, rom


def first_lateness(
    port: list[KeyWait], rom: list[KeyWait], port_sounds: list[int], rom_sounds: list[int]
) -> Lateness | str | None:
    """The first key wait or sound (T-states from frame 0) the port has too early or too late,
    a line saying that the two sound a different number of times, or None."""
    compared_port, compared_rom = while_a_program_runs(port, rom)
    if len(compared_rom) < len(rom):  # both stopped: the sounds after that are the command line's
        port_sounds = [t for t in port_sounds if t <= compared_port[-1].frame * FRAME_T_STATES]
        rom_sounds = [t for t in rom_sounds if t <= compared_rom[-1].frame * FRAME_T_STATES]
    port, rom = compared_port, compared_rom
    frames: list[tuple[str, float, float]] = [
        (f"key wait {number}", ours.frame, theirs.frame) for number, (ours, theirs) in enumerate(zip(port, rom), 1)
    ]
    frames += [
        (f"sound {number}", ours / FRAME_T_STATES, theirs / FRAME_T_STATES)
        for number, (ours, theirs) in enumerate(zip(port_sounds, rom_sounds), 1)
    ]
    late = [Lateness(*item) for item in frames if abs(item[1] - item[2]) > allowed_frames(item[2])]
    if late:
        return min(late, key=lambda lateness: lateness.rom_frame)
    if len(port_sounds) != len(rom_sounds):
        return f"the port made {len(port_sounds)} sounds, the ROM {len(rom_sounds)}"
    return None


def first_difference(port: list[KeyWait], rom: list[KeyWait]) -> Difference | None:
    """Where the k-th key waits of the two first show different screens (or one waits where the
    other has none left), or None."""
    port, rom = while_a_program_runs(port, rom)
    for number, (ours, theirs) in enumerate(zip(port, rom), 1):
        cells = differing_cells(ours.screen, theirs.screen)
        if cells:
            return Difference(theirs.frame, *cells[0], number)
    if len(port) != len(rom):
        shorter = min(len(port), len(rom))
        frame = rom[shorter].frame if len(rom) > shorter else rom[-1].frame if rom else 0
        return Difference(frame, 0, 0, shorter + 1)
    return None


class KeyWaitRecorder(Frontend):
    """A front end around a headless one (its scripted presses, sound and screenshots) that also
    notes each key wait (`waits`): when the machine takes the next press (one typed when it
    waits: not a timed one), and when it waits with none left. `endless` keeps the machine running with no keys instead of raising
    ScriptExhausted (for a window, where presses keep coming)."""

    def __init__(self, frontend: HeadlessFrontend | None = None, *, endless: bool = False):
        self.frontend = frontend or HeadlessFrontend()
        self.endless = endless
        self.waits: list[KeyWait] = []
        self.waiting_for_keys = False  # waiting with no presses left (noted once)

    @property
    def presses(self):
        return self.frontend.presses

    def present(self, machine) -> None:
        presses_left = len(self.presses)
        timed = bool(self.presses) and getattr(self.presses[0], "timed", False)
        try:
            self.frontend.present(machine)
        except ScriptExhausted:
            if not self.waiting_for_keys:
                self.note(machine)
                self.waiting_for_keys = True
            if not self.endless:
                raise
            machine.keys_held = set()
            return
        if len(self.presses) < presses_left and not timed:  # (a timed press comes whatever the program does)
            if not self.waiting_for_keys:  # a press typed after an idle wait continues that wait
                self.note(machine)
            self.waiting_for_keys = False

    def play(self, machine, samples) -> None:
        self.frontend.play(machine, samples)

    def close(self) -> None:
        self.frontend.close()

    def note(self, machine, stopped: bool = False) -> None:
        self.waits.append(
            KeyWait(machine.frame_count, screen_of(machine), stopped or getattr(machine, "program_stopped", False))
        )
