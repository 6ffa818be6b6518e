"""How many sessions a server has, counted where its limit sees them: in its one process, or over
all the worker processes of its router (`games.host.router`), in memory they share."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import MutableSequence
from dataclasses import dataclass, field


def default_workers() -> int:
    """One worker a core."""
    return max(1, os.cpu_count() or 1)


@dataclass
class Shared:
    """What the router and its workers share: each worker's live sessions (the router's choice,
    and the server's limit, counted over all of them)."""

    workers: int
    sessions: MutableSequence[int] = field(init=False)  # a multiprocessing Array of int, one a worker

    def __post_init__(self):
        self.sessions = multiprocessing.get_context("spawn").Array("i", self.workers, lock=False)

    def total(self) -> int:
        return sum(self.sessions)


class SessionCount:
    """A server's sessions, counted where its limit can see them: in its own process, or, for a
    worker, in the count shared with the other workers of its router."""

    def __init__(self, shared: Shared | None = None, index: int = 0):
        self._shared, self._index, self._here = shared, index, 0

    def add(self, change: int) -> None:
        self._here += change
        if self._shared is not None:
            self._shared.sessions[self._index] = self._here

    def here(self) -> int:
        return self._here

    def everywhere(self) -> int:
        return self._here if self._shared is None else self._shared.total()
