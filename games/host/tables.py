"""The tables of a server, for any program that seats several people (`games.program.Seating`):
each table by its code, its dealer thread, and where it is kept.

The program's table is the referee; the host only finds it (as kept, or new), starts a dealer that
calls its `dealer_step` whenever its next move may be due, and lets it go once everyone has left.
A table needs: `code`, `closed`, `changed` (a Condition), `started`, `close()`, `dealer_step()`,
`seconds_to_next_event()`, `deserted()` and `left_by_everyone()`, and a class method
`restored(data, code=, clock=, store=, thinker=)` for a kept one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..store import Documents
from .thinking import Workers


@dataclass
class Tables:
    """The tables of `kind` (the program's table class), by code; each has its dealer thread, which
    ends when the table is left by everyone. With a `store`, each table is kept after every move,
    and a table not in memory (the server was restarted, or everyone left) is taken up from where
    it was kept. With a `thinker`, a table's searches are worked out there."""

    kind: type
    store: Documents | None = None
    clock: Callable[[], float] = time.monotonic
    thinker: Workers | None = None
    tables: dict[str, object] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def table(self, code: str, **options):
        """Table `code`: as kept, or made (with `options`) on the first join; later joins take it
        as it is."""
        with self.lock:
            table = self.tables.get(code)
            if table is None or table.closed:
                table = self.tables[code] = self._taken_up(code, options)
                threading.Thread(target=dealer, args=(table, self), name=f"table {code}", daemon=True).start()
            return table

    def _taken_up(self, code: str, options: dict):
        kept, notice = None, None
        place = dict(clock=self.clock, store=self.store, thinker=self.thinker)
        if self.store is not None:
            kept, notice = self.store.load(code, lambda data: self.kind.restored(data, code=code, **place))
        if kept is not None:
            return kept
        table = self.kind(code, **place, **options)
        table.notice = notice
        return table

    def leave(self, table) -> None:
        """Close `table` if nobody is at it (`left_by_everyone`). A table that never started is not
        kept."""
        with self.lock, table.changed:
            if table.left_by_everyone():
                table.closed = True
                table.changed.notify_all()
                if self.tables.get(table.code) is table:
                    del self.tables[table.code]
                if not table.started and self.store is not None:
                    self.store.forget(table.code)


def dealer(table, tables: Tables | None = None) -> None:
    """The table's own moves, until it is closed: by `tables` once it is deserted."""
    while True:
        with table.changed:
            if table.closed:
                return
            table.changed.wait(timeout=min(1.0, table.seconds_to_next_event()))
            if table.closed:
                return
            deserted = table.deserted()
        if deserted and tables is not None:
            tables.leave(table)
        else:
            table.dealer_step()
