"""The time the ROM takes: its routines' costs in T-states, charged to the machine's clock.

A cost is named after what the ROM does — a routine, or one pass of a loop in one (an "item"):
``"look-vars-pass-number"`` is LOOK-VARS stepping over one simple numeric variable,
``"move-byte"`` one byte of an LDIR or LDDR. The T-states of each item are in
`spectrum.rom_costs` (measured on the ROM by ``tools/measure_costs.py``); the layer and the
interpreter (`spectrum.interpreter`) charge the items their routines run, as they run them.
"""

from __future__ import annotations

from collections import Counter

from .rom_costs import T_STATES


class Timing:
    """The clock of a `Spectrum` that keeps the ROM's time: `charge(item, count)` moves it on by
    the item's T-states. `counts` tallies the items charged (for measuring the table); an item
    the table lacks takes no time and is noted in `unmeasured`."""

    def __init__(self, machine, table: dict[str, int] | None = None):
        self.machine = machine
        self.table = T_STATES if table is None else table
        self.counts: Counter[str] = Counter()
        self.unmeasured: set[str] = set()

    def charge(self, item: str, count: int = 1) -> None:
        if count:
            counts = self.counts
            counts[item] = counts.get(item, 0) + count  # Counter's own += goes the long way round
            cost = self.table.get(item)
            if cost is None:
                self.unmeasured.add(item)
            else:
                self.machine.spend(cost * count)
