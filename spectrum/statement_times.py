"""Statement by statement, when the genuine ROM runs each statement of a BASIC program.

The ROM enters STMT-L-1 ($1B29) once for every statement it interprets; there SUBPPC still
holds the number of the statement before, and PPC the line (65534 for a command typed in).
`StatementTracer` wraps the Z80 of a ROM machine (the oracle's or the live one's) and notes,
without changing what the machine does, the T-state of each such entry and of each frame
interrupt with what it cost, so that a statement's own cost is the time to the next entry
less the interrupts taken in between.

The simulator stops at one address at a time, so each run is made twice from the same state:
first stopping at every statement and interrupt to note them, then, from the state restored, as
the machine asked (to its own stop address); only what the second run reached is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import sysvars
from .hardware import FRAME_T_STATES
from .z80 import PC, T

STMT_L_1 = 0x1B29
INTERRUPT = 0x0038  # IM 1
INTERRUPT_RET = 0x0052  # the RET that ends the interrupt routine (after its EI)
RET_T_STATES = 10
INTERRUPT_ACCEPTED = 13  # T-states of taking an IM 1 interrupt before its first instruction
LONGEST_INTERRUPT = 20_000
INTERRUPT_WINDOW = 32  # T-states at the start of a frame in which the ULA holds the interrupt line


@dataclass(frozen=True)
class StatementStart:
    """The ROM about to interpret statement `statement` of line `line` at T-state `t`."""

    t: int
    line: int
    statement: int


@dataclass(frozen=True)
class Interrupt:
    """A frame interrupt accepted at T-state `t` that ran for `cost` T-states, with the keys
    then held and the keyboard scan's KSTATE as it found it."""

    t: int
    cost: int
    keys: frozenset[str] = frozenset()
    kstate: bytes = b""


class StatementTracer:
    """A stand-in for a `spectrum.z80.Z80` (`run`, `memory`, `registers`, `sim`...) that notes
    every statement start and interrupt in `statements` and `interrupts`.

    `ports` is the machine's port tracer: what the first run of a pair sends to it (speaker
    edges, the border) is taken back before the second.
    """

    def __init__(self, z80, ports):
        self.z80 = z80
        self.ports = ports
        self.statements: list[StatementStart] = []
        self.interrupts: list[Interrupt] = []
        self._offered = -FRAME_T_STATES  # the start of the last frame whose interrupt was taken or lost

    def __getattr__(self, name):
        return getattr(self.z80, name)

    def run(self, *, stop: int | None = None, until: int, interrupts: bool = True) -> None:
        registers, memory = self.z80.registers, self.z80.memory
        saved_memory, saved_registers = bytes(memory), list(registers)
        edges, border, speaker = len(self.ports.edges), self.ports.border, self.ports.speaker
        offered = self._offered
        statements, taken = self._note_run(until, interrupts)
        memory[:] = saved_memory
        for index, value in enumerate(saved_registers):
            registers[index] = value
        del self.ports.edges[edges:]
        self.ports.border, self.ports.speaker = border, speaker
        self.z80.run(stop=stop, until=until, interrupts=interrupts)
        end, at_statement = registers[T], registers[PC] == STMT_L_1
        self.statements += [s for s in statements if s.t < end or (s.t == end and at_statement)]
        kept = [i for i in taken if i.t < end]
        self.interrupts += kept
        # the frames whose interrupt the second run has taken or gone past
        self._offered = max(
            [offered, (end - INTERRUPT_WINDOW) // FRAME_T_STATES * FRAME_T_STATES]
            + [i.t // FRAME_T_STATES * FRAME_T_STATES for i in kept]
        )

    def _note_run(self, until: int, interrupts: bool) -> tuple[list[StatementStart], list[Interrupt]]:
        """Run to `until`, stopping at each statement start and stepping through the first
        T-states of each frame, where the ULA offers the interrupt, to note it if it is taken."""
        registers, memory = self.z80.registers, self.z80.memory
        statements: list = []
        taken: list = []
        first = True
        while registers[T] < until or first:
            first = False
            frame = registers[T] // FRAME_T_STATES * FRAME_T_STATES
            if registers[T] < frame + INTERRUPT_WINDOW and self._offered < frame:
                self.z80.run(until=registers[T] + 1, interrupts=interrupts)  # one instruction
                if registers[PC] != INTERRUPT and registers[T] >= frame + INTERRUPT_WINDOW:
                    self._offered = frame  # interrupts off: this frame's is lost
            else:
                self.z80.run(stop=STMT_L_1, until=min(until, frame + FRAME_T_STATES), interrupts=interrupts)
            frame = registers[T] // FRAME_T_STATES * FRAME_T_STATES
            if registers[PC] == INTERRUPT and self._offered < frame:
                self._offered = frame
                accepted = registers[T] - INTERRUPT_ACCEPTED
                kstate = bytes(memory[sysvars.KSTATE : sysvars.KSTATE + 8])
                self.z80.run(stop=INTERRUPT_RET, until=accepted + LONGEST_INTERRUPT, interrupts=False)
                taken.append(Interrupt(accepted, registers[T] + RET_T_STATES - accepted, self.ports.held, kstate))
                continue
            if registers[PC] == STMT_L_1 and (not statements or statements[-1].t != registers[T]):
                statements.append(StatementStart(registers[T], _word(memory, sysvars.PPC), memory[sysvars.SUBPPC] + 1))
                if registers[T] < until:
                    self.z80.run(until=registers[T] + 1, interrupts=interrupts)  # step off the stop
        return statements, taken


def statement_costs(statements: list[StatementStart], interrupts: list[Interrupt]) -> list[tuple[int, int, int]]:
    """(line, statement, T-states) for every statement but the last: the time from its start to
    the next statement's, less the interrupts taken in between."""
    costs, index = [], 0
    for start, following in zip(statements, statements[1:]):
        interrupted = 0
        while index < len(interrupts) and interrupts[index].t < following.t:
            if interrupts[index].t >= start.t:
                interrupted += interrupts[index].cost
            index += 1
        costs.append((start.line, start.statement, following.t - start.t - interrupted))
    return costs


def _word(memory, address: int) -> int:
    return memory[address] + 256 * memory[address + 1]
