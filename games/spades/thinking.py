"""Where the computer players think: in the process that plays, or in worker processes.

A search (the mcts and solver levels) holds the interpreter for up to a second and a half. On a
server every session shares it, so their frames would wait for every search at every table:
`think_in_workers()` (the server calls it) sends such moves to a pool of worker processes, made when
the first is needed, and the table waits for the answer holding nothing. The move is the same
wherever it is worked out: a worker is handed copies of the computer player, the hand and the rules
variant as they stand, and hands back the move with the player, and the table's dealing numbers
(the strongest level's bids draw on them), as the move left them.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor

SEARCHING_LEVELS = frozenset({"mcts", "solver"})
PARENT_CHECK_SECONDS = 1.0  # how soon a worker left behind by a server that was killed ends

_workers: ProcessPoolExecutor | None = None
_wanted = False


def think_in_workers(wanted: bool = True) -> None:
    """From now on, searching levels think in worker processes (one a core but one, at least one),
    or (not `wanted`) in the process that plays."""
    global _wanted
    _wanted = wanted


def in_workers(level: str) -> bool:
    """Whether a computer of `level` thinks in a worker process."""
    return _wanted and level in SEARCHING_LEVELS


def asked(variant, computer, game, player: str) -> Future:
    """A computer player's move worked out in a worker: copies of everything it reads are made now
    (the caller holds the table), and the future's result is `(message, computer, rng state)`."""
    global _workers
    if _workers is None:
        # spawned, not forked: the server's threads hold locks a forked child would inherit held
        _workers = ProcessPoolExecutor(max(1, (os.cpu_count() or 2) - 1), multiprocessing.get_context("spawn"),
                                       initializer=_ends_with, initargs=(os.getpid(),))
    return _workers.submit(_computer_move, pickle.dumps((variant, computer, game, player)))


def _ends_with(server: int) -> None:
    """In a worker: end when the server's process does, however it ends (killed, a worker would
    wait for work forever)."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)
    threading.Thread(target=watch, name="ends with the server", daemon=True).start()


def _computer_move(copies: bytes) -> tuple[str, object, tuple | None]:
    variant, computer, game, player = pickle.loads(copies)
    message = variant.computer_move(computer, game, player)
    rng = getattr(variant, "rng", None)
    return message, computer, None if rng is None else rng.getstate()
