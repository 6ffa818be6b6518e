"""The beeper as audio: speaker edge times turned into PCM samples, and WAV files."""

from __future__ import annotations

import math
import wave
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .beeper import beep_edges
from .hardware import FRAME_T_STATES, T_STATES_PER_SECOND

if TYPE_CHECKING:
    from .frontends import Frontend

SAMPLE_RATE = 44_100
# A full-scale square wave is painfully loud next to other sounds; a quarter
# of full scale is a comfortable listening level that leaves room for mixing.
DEFAULT_LEVEL = 8192


def edges_to_samples(edges: Sequence[float], *, rate: int = SAMPLE_RATE, level: int = DEFAULT_LEVEL) -> np.ndarray:
    """Mono int16 samples of the square wave whose edges are at `edges` (T-states from now).

    The speaker is at +level after the 1st, 3rd, 5th... edge and at -level after
    the 2nd, 4th..., and silent (0) before the first edge and from the last one
    on.  Each sample is the mean level over its own 1/rate s, so edges that fall
    between samples are not lost or moved, only softened, as a real speaker
    cone would.
    """
    times = np.asarray(edges, dtype=np.float64)
    if times.size < 2:
        return np.zeros(0, np.int16)
    if (np.diff(times) < 0).any():
        raise ValueError("speaker edges must be in time order")
    levels = np.where(np.arange(times.size - 1) % 2 == 0, 1.0, -1.0)
    count = math.ceil(times[-1] / (T_STATES_PER_SECOND / rate))
    return stepped_samples(times, levels, 0.0, count, rate=rate, level=level)


def speaker_steps(edges: Sequence[int], start: int = 0) -> list[tuple[int, int]]:
    """The level steps (T-state, level from then on) of the square wave `edges_to_samples` renders
    from `edges`, moved to start at T-state `start`: +1, -1, +1 … and silence from the last edge."""
    return [
        (start + edge, 0 if number == len(edges) - 1 else 1 - 2 * (number % 2)) for number, edge in enumerate(edges)
    ]


def stepped_samples(
    times: Sequence[float] | np.ndarray,
    levels: Sequence[float] | np.ndarray,
    start: float,
    count: int,
    *,
    rate: int = SAMPLE_RATE,
    level: int = DEFAULT_LEVEL,
) -> np.ndarray:
    """`count` int16 samples from T-state `start` on of a level (-1 to 1) that is `levels[i]`
    from `times[i]` to `times[i + 1]` (and keeps its first and last area outside them): each
    sample is the mean level over its own 1/rate s."""
    # The running integral of the level is piecewise linear between steps, so
    # interpolating it at the sample boundaries gives each sample's exact area.
    area_at_steps = np.concatenate([[0.0], np.cumsum(np.asarray(levels) * np.diff(times))])
    t_states_per_sample = T_STATES_PER_SECOND / rate
    boundaries = start + np.arange(count + 1) * t_states_per_sample
    area = np.interp(boundaries, times, area_at_steps)
    return np.round(np.diff(area) / t_states_per_sample * level).astype(np.int16)


def frame_start_sample(frame: int, rate: int = SAMPLE_RATE) -> int:
    """The index of the first sample of frame `frame`, counting frames and samples from 0."""
    return frame * FRAME_T_STATES * rate // T_STATES_PER_SECOND


def write_wav(path: str | Path, samples: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    """Save mono int16 `samples` as a 16-bit PCM WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(np.asarray(samples, dtype="<i2").tobytes())


class Speaker:
    """The machine's beeper: BEEP and the key clicks as a frame-by-frame stream of samples that
    the front end plays (`frontend.play`)."""

    if TYPE_CHECKING:  # what the other parts of the machine (spectrum.machine.Spectrum) give this one
        frame_count: int
        frontend: Frontend

        @property
        def t_states(self) -> int: ...
        def charge(self, item: str, count: int = 1) -> None: ...
        def spend(self, t_states: int, *, interrupts: bool = True) -> None: ...

    def __init__(self):
        self._pending_audio = np.zeros(0, np.int16)  # sound from the start of this frame on
        self.sound_onsets: list[int] = []  # the T-state (from frame 0) each sound began at
        # A list when the front end renders the sound itself (a remote terminal): (T-state from
        # frame 0, level -1, 0 or 1 from then on) of each speaker edge, taken away by the front end.
        self.speaker_steps: list[tuple[int, int]] | None = None

    def beep(self, duration: float, pitch: float) -> None:
        """BEEP: the ROM's square wave; the display goes on but FRAMES stops, as interrupts are off.

        Keeping the ROM's time, BEEP's calculation of its loop counts comes first (longer for a
        pitch below middle C or between semitones)."""
        edges = beep_edges(duration, pitch)
        self.charge("beep")
        if pitch < 0:
            self.charge("beep-low-pitch")
        if pitch != int(pitch):
            self.charge("beep-fractional-pitch")
        if duration == int(duration):
            self.charge("beep-whole-duration")
        self.sound(edges)

    def sound(self, edges: list[int]) -> None:
        """Sound from now on, into the frame-by-frame stream the front end plays (or, for a front
        end that renders it itself, as the speaker's steps alone); then the time it takes passes
        (several short sounds within one frame follow each other in the stream)."""
        now = self.t_states
        if len(edges) > 1:
            self.sound_onsets.append(now)
        if self.speaker_steps is not None:
            if len(edges) > 1:
                self.speaker_steps += speaker_steps(edges, now)
            self.spend(edges[-1] if edges else 0, interrupts=False)
            return
        first_sample = now * SAMPLE_RATE // T_STATES_PER_SECOND
        offset = first_sample - frame_start_sample(self.frame_count)
        # rendered on the stream's own sample grid, so that a sound starting mid-sample joins on
        phase = now - first_sample * T_STATES_PER_SECOND / SAMPLE_RATE
        samples = edges_to_samples([edge + phase for edge in edges])
        if len(self._pending_audio) < offset + len(samples):
            self._pending_audio = np.concatenate(
                [self._pending_audio, np.zeros(offset + len(samples) - len(self._pending_audio), np.int16)]
            )
        self._pending_audio[offset : offset + len(samples)] += samples
        self.spend(edges[-1] if edges else 0, interrupts=False)

    def _play_frame_audio(self, whole: bool = False) -> None:
        """Hand the front end this frame's share of the sound stream (or, `whole`, all that is
        left of it), unless it is silence."""
        if not len(self._pending_audio):
            return
        length = frame_start_sample(self.frame_count + 1) - frame_start_sample(self.frame_count)
        if whole:
            length = len(self._pending_audio)
        chunk, self._pending_audio = self._pending_audio[:length], self._pending_audio[length:]
        if chunk.any():
            self.frontend.play(self, chunk)

    def flush_sound(self) -> None:
        """Play at once the sound still due after this frame (when a program ends mid-frame)."""
        self._play_frame_audio(whole=True)
