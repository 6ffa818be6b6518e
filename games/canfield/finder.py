"""Winnable deals found ahead of need: a thread of its own draws deal numbers and has the solver
judge each one, keeping those it wins (of the wanted difficulty, when one is asked for) until a few
wait ready. The game takes one when it deals: the proof is already there, so the player never
waits for it (and on a server the searches go to the host's worker processes, as the hints'
do: `thinker`).

The numbers drawn are pure of the seed: a finder seeded alike offers the same deals in the same
order, with or without a thinker.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from .deals import FIRST_DEAL, LAST_DEAL, deck_for
from .difficulty import budget_for, level_of
from .rules import Canfield
from .solver import Verdict, solve

AHEAD = 3  # deals kept ready
FIND_BUDGET = 100_000  # positions the solver may search on a candidate: the record's judging budget


def judge_deal(number: int, budget: int = FIND_BUDGET) -> Verdict:
    """The solver's verdict on deal `number` as dealt (a module's function: a thinker pickles it)."""
    return solve(Canfield(deck_for(number)).position, budget=budget)


@dataclass(frozen=True)
class Found:
    """A deal the solver has won: its number, the verdict (with the winning line) and its level."""

    number: int
    verdict: Verdict
    level: str


class DealFinder:
    """Deals proved winnable, `AHEAD` kept ready; with `level`, only deals of that difficulty
    (as judged with `budget` positions)."""

    def __init__(
        self, seed: int, *, level: str | None = None, ahead: int = AHEAD, budget: int = FIND_BUDGET, thinker=None
    ):
        self.level, self.ahead, self._thinker = level, ahead, thinker
        self.budget = budget_for(level, budget)  # an easy or a medium deal is told with less
        self._draw = random.Random(seed)
        self._ready: list[Found] = []
        self._tried: set[int] = set()
        self.tried = 0  # candidates judged so far
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="canfield deal finder", daemon=True)
        self._thread.start()

    def ready(self) -> int:
        """How many deals wait ready."""
        with self._changed:
            return len(self._ready)

    def take(self, wait: float | None = 0) -> Found | None:
        """The next deal found, or None when none is ready within `wait` seconds (None: until one is)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._ready or self._closed, timeout=wait):
                return None
            if not self._ready:
                return None
            found = self._ready.pop(0)
            self._changed.notify_all()
            return found

    def close(self) -> None:
        """Nothing more is wanted: the thread ends once the search under way is done."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _candidate(self) -> int:
        while True:
            number = self._draw.randint(FIRST_DEAL, LAST_DEAL)
            if number not in self._tried:
                self._tried.add(number)
                return number

    def _work(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: len(self._ready) < self.ahead or self._closed)
                if self._closed:
                    return
                number = self._candidate()
            if self._thinker is None:
                verdict = judge_deal(number, self.budget)
            else:
                verdict = self._thinker.submit(judge_deal, number, self.budget).result()
            level = level_of(verdict)
            with self._changed:
                self.tried += 1
                if level is not None and (self.level is None or level == self.level):  # won, of the level
                    self._ready.append(Found(number, verdict, level))
                    self._changed.notify_all()
