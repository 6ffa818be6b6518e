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
# A pacer that may run ahead does so once it is woken this late for a frame (a busy host: other
# sessions, other processes), and makes each frame when it is due again after CALM_FRAMES on time.
LATE_SECONDS = 0.005
CALM_FRAMES = 500


class Pacer:
    """`wait()` returns when the next frame is due, one FRAME_SECONDS after the last was. A host
    that falls behind (a busy machine, a suspended laptop) by more than CATCH_UP_FRAMES counts from
    now on rather than running frames back to back; `lateness` is how late the last frame was begun.

    With `ahead` (seconds), once its sleep ends LATE_SECONDS late, `wait()` returns that much
    before each frame is due (`due`), until CALM_FRAMES have been begun on time: a front end that
    holds what it sends until the frame's time then shows no frame late for a busy moment shorter
    than that, and only a busy host's sessions see a key that much later."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        *,
        ahead: float = 0.0,
    ):
        self._clock, self._sleep = clock, sleep
        self.most_ahead, self.ahead = ahead, 0.0  # how far ahead it may run, and runs now
        self._due: float | None = None
        self._on_time = 0  # frames begun on time since it ran ahead
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
        overslept = 0.0  # the host busy: woken late (a frame's own work overrunning is no sign)
        if early > 0:
            self._sleep(early)
            if self.most_ahead:
                overslept = self._clock() - now - early
        elif self.lateness > CATCH_UP_FRAMES * FRAME_SECONDS:
            self._due = now
        if not self.most_ahead:
            return
        if overslept > LATE_SECONDS:
            self.ahead, self._on_time = self.most_ahead, 0
        elif self.ahead:
            self._on_time += 1
            if self._on_time >= CALM_FRAMES:
                self.ahead = 0.0

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
        self._on_time += passed  # gone by on time
        return passed
