"""Searches in worker processes, for any program: a computer player's move worked out away from
the process that serves the frames.

A search (Spades' mcts and solver levels, say) holds the interpreter for up to a second and a half.
On a server every session shares it, so their frames would wait for every search at every table:
a table given a `Workers` (the server gives each table one) sends such a move to a pool of worker
processes, made when the first is needed, and waits for the answer holding nothing. The move is
the same wherever it is worked out: the program hands over a function of its own and the copies it
needs (pickled as they stand), and takes back what the function returns.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor

from spectrum.frontends.hub import Hub, LoopHub

PARENT_CHECK_SECONDS = 1.0  # how soon a worker left behind by a server that was killed ends


class Workers:
    """A pool of worker processes (one a core but one, at least one), made at the first search.
    With a `hub` (the server's sessions'), a session that waits for an answer gives way meanwhile."""

    def __init__(self, processes: int | None = None, hub: Hub | LoopHub | None = None):
        self.processes = processes or max(1, (os.cpu_count() or 2) - 1)
        self.hub = hub
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, work: Callable, *arguments) -> Future:
        """`work(*arguments)` in a worker process; `work` is a module's function and the arguments
        plain data (bytes, say), pickled on the way."""
        with self._lock:
            if self._pool is None:
                # spawned, not forked: the server's threads hold locks a forked child would inherit held
                self._pool = ProcessPoolExecutor(
                    self.processes,
                    multiprocessing.get_context("spawn"),
                    initializer=_ends_with,
                    initargs=(os.getpid(),),
                )
        future = self._pool.submit(work, *arguments)
        return future if self.hub is None else Answer(future, self.hub)

    def close(self) -> None:
        """End the pool's processes (searches not begun are dropped), without waiting for them: a
        process whose main function has returned waits for its children, and they for work."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Answer(Future):
    """A search's answer for a session on a hub: `result()` gives way to the hub's other sessions
    until the answer comes (from a thread, it waits as any future does)."""

    def __init__(self, future: Future, hub: Hub | LoopHub):
        super().__init__()
        self._future, self._hub = future, hub
        future.add_done_callback(self._came)

    def _came(self, future: Future) -> None:
        if future.cancelled():
            self.cancel()
        elif future.exception() is not None:
            self.set_exception(future.exception())
        else:
            self.set_result(future.result())

    def result(self, timeout: float | None = None):
        task = self._hub.current()
        if task is not None and not self.done():
            self.add_done_callback(lambda _: self._hub.wake(task))
            deadline = None if timeout is None else time.monotonic() + timeout
            while not self.done():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._hub.park(left)
        return super().result(timeout=0 if task is not None else timeout)


def _ends_with(server: int) -> None:
    """In a worker: end when the server's process does, however it ends (killed, a worker would
    wait for work forever)."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="ends with the server", daemon=True).start()
