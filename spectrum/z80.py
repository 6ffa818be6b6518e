"""The Z80 that runs the genuine ROM: SkoolKit's simulator, behind the few calls this project makes.

SkoolKit's C simulator (`skoolkit.CSimulator`) is used when its extension is installed; without it
the pure-Python `skoolkit.simulator.Simulator` runs the same instructions, slower. Both take the
memory as a bytearray of 65536 bytes and keep the registers in a list numbered as below; everything
else SkoolKit offers is left alone, so that a SkoolKit release that reorganises its helpers
changes nothing here.
"""

from __future__ import annotations

from skoolkit import CSimulator
from skoolkit.simulator import Simulator

from .hardware import FRAME_T_STATES, INTERRUPT_T_STATES

# Indexes into the simulator's register list
A, F, B, C, D, E, H, L, IXh, IXl, IYh, IYl, SP = range(13)
I, R = 14, 15
PC, T, IFF, IM, HALT = 24, 25, 26, 27, 28
REGISTER_COUNT = 30

SIMULATOR_CONFIG = {"frame_duration": FRAME_T_STATES, "int_active": INTERRUPT_T_STATES}


class Z80:
    """A 48K Spectrum's Z80 and memory: `memory` (65536 bytes, ROM included), `registers`
    (numbered as the constants above), `set_tracer` and `run`.

    The tracer answers IN with `read_port(registers, port)`, takes OUT with
    `write_port(registers, port, value, *rest)` (the C loop passes more) and has a `border` (0-7), which the C loop reads.
    """

    def __init__(self, memory, registers: list[int] | None = None, *, simulator: type | None = None):
        self.simulator = simulator or CSimulator or Simulator
        # Power-on state: interrupts off, IM 0, PC 0; `registers` (a saved list) replaces it whole.
        self.sim = self.simulator(bytearray(memory), {"PC": 0}, {"iff": 0, "im": 0}, SIMULATOR_CONFIG)
        for index, value in enumerate(registers or ()):
            self.registers[index] = value
        self._fast = self.simulator is CSimulator and _c_trace_takes_our_call()

    @property
    def memory(self):
        return self.sim.memory

    @property
    def registers(self):
        return self.sim.registers

    def set_tracer(self, tracer) -> None:
        self.sim.set_tracer(tracer)

    def run(self, *, stop: int | None = None, until: int, interrupts: bool = True) -> None:
        """Run at least one instruction, then on until PC is `stop` or the clock (T) reaches
        `until`, taking the ULA's frame interrupt when `interrupts` and the Z80 allows it."""
        if self._fast:
            self.sim.trace(None, stop, 0, until, interrupts, None, None, None, None, None)
        else:
            self._step(stop, until, interrupts)

    def _step(self, stop: int | None, until: int, interrupts: bool) -> None:
        """One instruction at a time (the simulator's `run()` with no stop runs one), with the
        interrupt accepted while the ULA holds the line in the first T-states of a frame."""
        sim, registers, memory = self.sim, self.sim.registers, self.sim.memory
        step = sim.run
        next_interrupt = (registers[T] + FRAME_T_STATES - INTERRUPT_T_STATES) // FRAME_T_STATES * FRAME_T_STATES
        while True:
            pc = registers[PC]
            step()
            now = registers[T]
            if now >= next_interrupt:
                if now < next_interrupt + INTERRUPT_T_STATES:
                    if interrupts and registers[IFF]:
                        sim.accept_interrupt(registers, memory, pc)
                        now = registers[T]
                else:
                    next_interrupt += FRAME_T_STATES
            if now >= until or registers[PC] == stop:
                return


_c_trace_checked: bool | None = None


class _NoPorts:
    border = 7  # the C loop reads the tracer's border

    def read_port(self, registers, port):
        return 0xFF

    def write_port(self, registers, port, value, *rest):
        pass


def _c_trace_takes_our_call() -> bool:
    """Whether the C simulator's `trace` (its fast loop) takes the call `Z80.run` makes; if a
    SkoolKit release changes it, the instructions are stepped one by one instead."""
    global _c_trace_checked
    if _c_trace_checked is None:
        probe = CSimulator([0] * 65536, {"PC": 0}, {"iff": 0, "im": 0}, SIMULATOR_CONFIG)  # NOPs
        probe.set_tracer(_NoPorts())
        try:
            probe.trace(None, None, 0, 40, False, None, None, None, None, None)
            _c_trace_checked = probe.registers[PC] == 10 and probe.registers[T] == 40
        except TypeError:
            _c_trace_checked = False
    return _c_trace_checked
