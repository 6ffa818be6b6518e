"""Real time: frames kept to the Spectrum's own rate on the host's clock, for every front end
that shows a machine to a person (the window, a served session)."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..hardware import FRAME_SECONDS

# A host this far behind (a suspended laptop) starts counting afresh rather than rush frames; one
# less far behind (a busy moment) runs its frames back to back until it is on time again, so that
# the frames keep their times (a terminal sees one late moment, not every frame late from then on).
CATCH_UP_FRAMES = 50


class Pacer:
    """`wait()` returns when the next frame is due, one FRAME_SECONDS after the last was, or `ahead`
    seconds sooner: a front end that holds what it sends until the frame's time (`due`) makes its
    frames that much ahead of it, so that a busy moment of the host's shorter than that makes no
    frame late. A host that falls behind (a busy machine, a suspended laptop) by more than
    CATCH_UP_FRAMES counts from now on rather than running frames back to back; `lateness` is how
    late the last frame was begun."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        *,
        ahead: float = 0.0,
    ):
        self._clock, self._sleep, self.ahead = clock, sleep, ahead
        self._due: float | None = None
        self.lateness = 0.0

    @property
    def due(self) -> float | None:
        """When the frame of the last `wait` is due to be shown, on the pacer's clock."""
        return self._due

    def wait(self) -> None:
        now = self._clock()
        self._due = now if self._due is None else self._due + FRAME_SECONDS
        early = self._due - self.ahead - now
        self.lateness = max(0.0, -early)
        if early > 0:
            self._sleep(early)
        elif self.lateness > CATCH_UP_FRAMES * FRAME_SECONDS:
            self._due = now

    def seconds_until(self, frames: int) -> float:
        """How long from now until the frame `frames` after the next one is due (0 if it is past)."""
        if self._due is None:
            return 0.0
        return max(0.0, self._due + (frames + 1) * FRAME_SECONDS - self._clock())

    def pass_frames(self, most: int) -> int:
        """Count as gone by the frames whose time came since the last (at most `most`), as a front
        end that slept through them; how many."""
        if self._due is None:
            return 0
        passed = min(most, max(0, int((self._clock() - self._due) / FRAME_SECONDS)))
        self._due += passed * FRAME_SECONDS
        return passed
