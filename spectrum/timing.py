"""The time the ROM takes: its routines' costs in T-states, charged to the machine's clock.

A cost is named after what the ROM does — a routine, or one pass of a loop in one (an "item"):
``"look-vars-pass-number"`` is LOOK-VARS stepping over one simple numeric variable,
``"move-byte"`` one byte of an LDIR or LDDR. The T-states of each item are in
`spectrum.rom_costs` (measured on the ROM by ``tools/measure_costs.py``); the layer and the
interpreter (`spectrum.interpreter`) charge the items their routines run, as they run them.
"""

from __future__ import annotations

from collections import Counter

from .hardware import FRAME_T_STATES
from .rom_costs import T_STATES


class Timing:
    """The clock of a `Spectrum` that keeps the ROM's time: `charge(item, count)` moves it on by
    the item's T-states; an item the table lacks takes no time and is noted in `unmeasured`. With
    `counting` (for measuring the table), `counts` tallies the items charged."""

    def __init__(self, machine, table: dict[str, int] | None = None, *, counting: bool = False):
        self.machine = machine
        self.table = T_STATES if table is None else table
        self.counts: Counter[str] = Counter()
        self.unmeasured: set[str] = set()
        self.charge = self._counted if counting else self._charge  # chosen once: a charge is made
        # tens of times a frame, and tallying them takes as long as charging them

    def _charge(self, item: str, count: int = 1) -> None:
        if count:
            cost = self.table.get(item)
            if cost is None:
                self.unmeasured.add(item)
                return
            machine = self.machine
            t_state = machine.t_state + cost * count
            if t_state < FRAME_T_STATES:  # within the frame, as most charges are: the clock moved on
                machine.t_state = t_state
            else:
                machine.spend(cost * count)

    def _counted(self, item: str, count: int = 1) -> None:
        if count:
            counts = self.counts
            counts[item] = counts.get(item, 0) + count  # Counter's own += goes the long way round
            self._charge(item, count)
