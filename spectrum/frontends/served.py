"""The front end of a Spectrum served to a terminal (a browser page, `zxcards connect`): each frame
it sends what changed (`spectrum.wire`) and takes the keys the terminal holds.

It runs on the machine's own thread; the connection's side calls `receive` and `disconnect` from
another. Paced, it keeps the ULA's time on the host's clock; in lockstep (a scripted terminal)
each frame waits for the terminal's keys for it instead, so that a script replays a remote
session exactly as a local one.
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable

import numpy as np

from .. import render, wire
from ..hardware import FRAME_SECONDS
from ..pointing import PointerSession
from . import Frontend, Leave, Quit
from .held import HeldKeys
from .hub import Hub, LoopHub, Task
from .pacing import Pacer

LOCKSTEP_PATIENCE = 60.0  # seconds a lockstep terminal may take over one frame's keys
DISCONNECTED = None  # in the inbox: the terminal has gone
WAKE = "wake"  # in the inbox: the program has news besides the keys (`wake`)


class ServedFrontend(Frontend):
    """`send(message)` hands a message (bytes or text) to the connection, from this thread. Paced
    with `ahead` (frames), a busy host's frames are made up to that many before they are due
    (`Pacer`), and what is sent for a frame is to be shown at `shown_at` (the connection holds
    it until then)."""

    def __init__(
        self,
        send: Callable[[bytes | str], None],
        *,
        lockstep: bool = False,
        pacer: Pacer | None = None,
        hub: Hub | LoopHub | None = None,
        ahead: int = 0,
    ):
        self._send = send
        self.lockstep = lockstep
        self.hub = hub  # the machine runs as a task of this hub (`hub`), or on a thread of its own
        self.pacer = pacer or Pacer(sleep=hub.sleep if hub is not None else time.sleep, ahead=ahead * FRAME_SECONDS)
        self.status = ""
        self.frames_presented = 0
        self._status_sent: str | None = None
        self._picture_sent: tuple | None = None
        self._awaiting_sent = False
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._taken: list = []  # a message taken from the inbox while dozing, not yet read
        self._held = HeldKeys()  # paced: the terminal's keys, by name
        self._terminal_held: frozenset[str] = frozenset()  # as its last message said
        self._lockstep_keys: frozenset[str] = frozenset()
        self.pointing = PointerSession()  # the terminal's taps, typed here as the program waits for a key
        self._task: Task | None = None  # on a hub: the machine's task, once it first waits for a message

    # --- the connection's side ------------------------------------------------------------------

    def receive(self, message: wire.TerminalMessage) -> None:
        self._post(message)

    def disconnect(self) -> None:
        """The terminal has gone: the machine stops at its next frame (Quit)."""
        self._post(DISCONNECTED)

    def wake(self) -> None:
        """From any thread: a doze ends (the program has news to show)."""
        self._post(WAKE)

    def _post(self, message) -> None:
        self._inbox.put(message)
        if self._task is not None and self.hub is not None:
            self.hub.wake(self._task)

    def end(self, machine, reason: str, status: int = 0) -> None:
        """Tell the terminal the session is over, why, and its exit status as a command's (0: it
        ended as it should), with the speaker's last edges."""
        if machine.speaker_steps:
            self._send_frame(machine, render.picture(machine))
        self._send(json.dumps({"end": reason, "exit": status}))

    @property
    def shown_at(self) -> float | None:
        """When what is sent now is to be shown, on the pacer's clock: the due time of the frame
        presented last, when the frames are made ahead of it (None: at once)."""
        return None if self.lockstep or not self.pacer.most_ahead else self.pacer.due

    # --- the machine's side ---------------------------------------------------------------------

    def present(self, machine) -> None:
        self.frames_presented += 1
        if machine.speaker_steps is None:
            machine.speaker_steps = []  # from now on the machine notes its speaker's edges for us
        if not self.lockstep:
            self.pacer.wait()
        if self.status != self._status_sent:
            self._send(json.dumps({"status": self.status}))
            self._status_sent = self.status
        picture, steps = render.picture(machine), machine.speaker_steps
        self.pointing.look(machine, picture[0])
        if (news := self.pointing.news()) is not None:
            self._send(news)
        if self.lockstep or steps or picture != self._picture_sent or machine.awaiting_key != self._awaiting_sent:
            self._send_frame(machine, picture)
        machine.keys_held = set(self._keys_for(machine.frame_count)) | self.pointing.for_frame(machine.awaiting_key)
        for refusal in self.pointing.refusals:
            self._send(json.dumps({"error": refusal}))
        self.pointing.refusals.clear()

    def doze(self, machine, most: int) -> int:
        """Paced, while the program waits for a key and nothing is held, sounding or left to send:
        sleep until a message comes (keys, `wake`) or `most` frames have gone by, and count the
        frames slept through (a FLASH on screen, which changes the picture, ends them); how many.
        Nothing would be sent for those frames, so the terminal sees them as any others; the
        session's thread wakes a few times a second instead of fifty."""
        if (
            self.lockstep
            or self._taken
            or machine.keys_held
            or self._terminal_held
            or machine.speaker_steps
            or self.pointing.busy
        ):
            return 0
        picture = render.picture(machine)
        if picture != self._picture_sent:
            return 0
        if render.flashes(picture[0]):
            most = min(most, render.FLASH_FRAMES - 1 - machine.frame_count % render.FLASH_FRAMES)
        if most < 1:
            return 0
        try:
            self._taken.append(self._message_within(self.pacer.seconds_until(most)))
        except queue.Empty:
            pass
        return self.pacer.pass_frames(most)

    def _message_within(self, seconds: float):
        """The next message from the terminal, waiting at most `seconds` (queue.Empty if none
        comes): on a hub, giving way meanwhile."""
        if self.hub is None:
            return self._inbox.get(timeout=seconds)
        if self._task is None:
            self._task = self.hub.current()
        deadline = self.hub.clock() + seconds
        while True:
            try:
                return self._inbox.get_nowait()
            except queue.Empty:
                left = deadline - self.hub.clock()
                if left <= 0:
                    raise
                self.hub.park(left)

    def _send_frame(self, machine, picture: tuple) -> None:
        steps, machine.speaker_steps = machine.speaker_steps, []
        screen, border, flash_phase = picture
        old = self._picture_sent[0] if self._picture_sent else None
        self._send(
            wire.frame_message(
                machine.frame_count,
                awaiting_key=machine.awaiting_key,
                flash_phase=flash_phase,
                border=border,
                runs=wire.changed_runs(old, screen),
                steps=steps,
            )
        )
        self._picture_sent, self._awaiting_sent = picture, machine.awaiting_key

    def play(self, machine, samples: np.ndarray) -> None:
        """The terminal renders the sound from the speaker's edges, sent with the frames."""

    def close(self) -> None:
        """The connection is the server's to close."""

    def _keys_for(self, frame: int) -> frozenset[str] | set[str]:
        """The keys held for this frame: paced, those held now and any tapped since the last frame
        (`HeldKeys`); in lockstep, the terminal's for this frame."""
        if not self.lockstep and not self._taken and self._inbox.empty():  # most frames: nothing new
            return self._held.for_frame()
        while True:
            try:
                message = self._next_message()
            except queue.Empty:
                if self.lockstep:
                    raise Quit("the terminal gave no keys for a frame") from None
                return self._held.for_frame()
            if message is WAKE:
                continue
            if message is DISCONNECTED:
                raise Quit("the terminal has gone")
            if message.leave:
                raise Leave("the terminal's leave key")
            if message.tap is not None or message.drag is not None:
                self._point(message)
            if self.lockstep:
                if message.held is not None:
                    self._lockstep_keys = message.held
                if message.frame is not None:
                    return self._lockstep_keys
            elif message.held is not None:
                for key in self._terminal_held - message.held:
                    self._held.release(key)
                for key in message.held - self._terminal_held:
                    self._held.press(key, {key})
                self._terminal_held = message.held

    def _point(self, message: wire.TerminalMessage) -> None:
        """A tap or a drag from the terminal, typed as the program next waits for a key; one by the
        name of no target is said back as an error (`present`) and types nothing."""
        if message.drag is not None:
            self.pointing.drag(*message.drag)
        elif isinstance(message.tap, str):
            self.pointing.tap_name(message.tap)
        elif message.tap is not None:
            self.pointing.tap(*message.tap)

    def _next_message(self):
        """The next message from the terminal (queue.Empty if none): in lockstep waiting for it."""
        if self._taken:
            return self._taken.pop()
        return self._message_within(LOCKSTEP_PATIENCE) if self.lockstep else self._inbox.get_nowait()
