"""A tape's signal as the ROM's SA-BYTES records it, and a tape recorder playing it to the EAR.

Each block is a pilot tone (pulses of 2,168 T-states: 8,063 of them before a header, flag below
128, 3,223 before data), two sync pulses (667 and 735 T), then every byte of the block (flag, data,
checksum) MSB first, a bit as two pulses of 855 T (0) or 1,710 T (1); a second's silence follows.
The signal is an edge at the start of every pulse and one at the end of the last: the EAR level is
the count of edges passed, odd or even, which LD-BYTES's LD-SAMPLE reads from bit 6 of port 0xFE
about every 60 T-states — so the edges are kept in one sorted list and found by bisection.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np

from .hardware import T_STATES_PER_SECOND

PILOT_PULSE = 2168
HEADER_PILOT_PULSES = 8063  # about 5 s of pilot before a header, so that a LOAD finds it in time
DATA_PILOT_PULSES = 3223  # 2 s before the data that follows
HEADER_FLAGS = range(128)  # SA-BYTES gives the long pilot to a block whose flag has bit 7 clear
SYNC_PULSES = (667, 735)
BIT_PULSES = (855, 1710)  # a pulse of a 0 bit, of a 1 bit
PAUSE = T_STATES_PER_SECOND  # the second of silence after each block


def block_pulses(recorded: bytes) -> np.ndarray:
    """The pulses (T-states) of one block as it is recorded: flag, data and checksum (or as much
    of it as there is), after its pilot and sync pulses."""
    pilot = HEADER_PILOT_PULSES if recorded[0] in HEADER_FLAGS else DATA_PILOT_PULSES
    bits = np.unpackbits(np.frombuffer(recorded, np.uint8))  # MSB first
    return np.concatenate([np.full(pilot, PILOT_PULSE), SYNC_PULSES, np.repeat(np.take(BIT_PULSES, bits), 2)]).astype(
        np.int64
    )


class TapeSignal:
    """The signal of a tape's blocks (one or more), in T-states from the start of the tape: its
    `edges`, where each block's last edge is (`block_ends`) and each block's pause ends (`pause_ends`)."""

    def __init__(self, blocks: list[bytes]):
        self.blocks = list(blocks)
        edges, self.block_ends, self.pause_ends = [], [], []
        start = 0
        for recorded in self.blocks:
            times = start + np.concatenate([[0], np.cumsum(block_pulses(recorded))])
            edges.append(times)
            self.block_ends.append(int(times[-1]))
            start = int(times[-1]) + PAUSE
            self.pause_ends.append(start)
        self.edges: list[int] = np.concatenate(edges).tolist()

    @property
    def length(self) -> int:
        """The T-states from the first edge to the last block's last."""
        return self.block_ends[-1]

    def level(self, time: int) -> int:
        """The EAR level (0 or 1) at `time`: low to the first edge, an edge's level from just after it."""
        return bisect_left(self.edges, time) & 1


class TapeRecorder:
    """A TapeSignal played against the machine's clock (T-states), started by the ROM's loader
    and stopped when the loader is done.

    The tape starts when LD-BYTES first runs (LOAD "" typed); when the loader returns, the tape
    plays on to the end of the block under the head and its pause — long enough for the ROM to come
    back for the block after a header — and stops there unless the loader runs again by then, as an
    emulator's tape does that starts and stops with the loader; the tape then goes on from where it
    stopped. So a block the ROM does not ask for (a second program) stays on the tape for the next
    LOAD."""

    def __init__(self, signal: TapeSignal):
        self.signal = signal
        self._origin = 0  # the machine's T-state of the tape's time 0, while the tape plays
        self._stops_at: int | None = 0  # the tape time it stops (or stopped) at; None: playing on
        self._heard = 0  # the edges handed on as sound so far
        self._started = False  # by the loader, once at least

    def tape_time(self, now: int) -> int:
        """Where the tape is at the machine's T-state `now`."""
        played = now - self._origin
        return played if self._stops_at is None else min(played, self._stops_at)

    def ear(self, now: int) -> int:
        return self.signal.level(self.tape_time(now))

    def loader_started(self, now: int) -> None:
        """LD-BYTES runs: the tape plays on, or starts again from where it stopped."""
        position = self.tape_time(now)
        self._started = True
        if self._stops_at is not None and position >= self._stops_at:
            # it stopped in a pause, a second after the last edge (heard long since): moving the
            # tape's time moves no edge not yet heard
            self._origin = now - position
        self._stops_at = None

    def loader_returned(self, now: int) -> None:
        """LD-BYTES has returned: the tape stops at the end of the pause after the block under the
        head (at once, past the last one's)."""
        position = self.tape_time(now)
        ends = self.signal.pause_ends
        following = bisect_right(ends, position)
        self._stops_at = ends[following] if following < len(ends) else position

    def blocks_left(self, now: int) -> list[bytes]:
        """The blocks whose signal has not yet been played to their end (past their last edge)."""
        return self.signal.blocks[bisect_left(self.signal.block_ends, self.tape_time(now)) :]

    def quiet_for(self, now: int) -> int:
        """The T-states since the tape's last edge."""
        time = self.tape_time(now)
        return time - self.signal.edges[bisect_right(self.signal.edges, time) - 1]  # the first edge is at 0

    def edges_until(self, now: int) -> list[int]:
        """The machine's T-state of each edge played since the last call, before `now`."""
        edges = self.signal.edges
        end = bisect_left(edges, self.tape_time(now), self._heard)
        heard, self._heard = edges[self._heard : end], end
        return [edge + self._origin for edge in heard]

    def sounding(self, now: int) -> range:
        """The machine's T-states from the first edge of the block playing at `now` (or played last)
        up to its last: the tape's signal is one sound over them (none before the tape first plays:
        a key clicked then is a sound of its own)."""
        if not self._started:
            return range(0)
        ends = self.signal.block_ends
        index = min(bisect_right(self.signal.pause_ends, self.tape_time(now)), len(ends) - 1)
        start = self.signal.pause_ends[index - 1] if index else 0
        return range(start + self._origin, ends[index] + self._origin)
