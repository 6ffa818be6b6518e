"""The solver on a thread of its own, so that the screen stays live while it searches (on a
server, the thread hands each search to the host's worker processes and waits for it, holding
nothing: `thinker`).

Positions are asked for under a key of the caller's choosing; the one asked for last is searched
first, and its verdict waits under that key until the caller takes it. A search can't be stopped
half way, so each one is bounded by the node budget the caller's `search` gives it; `close`
ends the thread once the search under way is done.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from .rules import Position
from .solver import Verdict


class BackgroundSearch:
    """`search(position)` run on a thread of its own; with a `thinker` (`submit(work, *arguments)`
    giving a Future), in a worker process: `search` is then a module's function (or a partial of
    one), which is pickled on the way."""

    def __init__(self, search: Callable[[Position], Verdict], thinker=None):
        self._search, self._thinker = search, thinker
        self._waiting: dict[Hashable, Position] = {}  # in the order asked
        self._verdicts: dict[Hashable, Verdict] = {}
        self._searching: Hashable | None = None
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def ask(self, key: Hashable, position: Position, *, alone: bool = False) -> None:
        """Search `position` (unless it is known or on its way); `alone` drops the other positions
        still waiting, which nobody needs any more."""
        with self._changed:
            if alone:
                self._waiting.clear()
            if key in self._verdicts or key == self._searching:
                return
            self._waiting.pop(key, None)
            self._waiting[key] = position
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="canfield solver", daemon=True)
                self._thread.start()
            self._changed.notify()

    def verdict(self, key: Hashable) -> Verdict | None:
        """The verdict on the position asked for under `key`, or None while it is not known."""
        with self._changed:
            return self._verdicts.get(key)

    def take(self, key: Hashable) -> Verdict | None:
        """The verdict under `key`, forgotten once taken; None while it is not known."""
        with self._changed:
            return self._verdicts.pop(key, None)

    def close(self) -> None:
        """Nothing more is asked: the thread ends (after the search under way, if one is)."""
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._changed.notify_all()

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                key = next(reversed(self._waiting))
                position = self._waiting.pop(key)
                self._searching = key
            if self._thinker is None:
                verdict = self._search(position)
            else:
                verdict = self._thinker.submit(self._search, position).result()
            with self._changed:
                self._verdicts[key] = verdict
                self._searching = None
                self._changed.notify_all()
