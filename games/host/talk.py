"""A word to the table: short lines of text from the people at a table (of any program) to everyone
there, seated or watching, held in memory only (nothing of it is ever written to disk).

A line is text only: up to LINE_LENGTH characters of printable ASCII and Latin letters (accents and
all), no control characters and no other scripts; it is shown as text, never as markup, wherever it
is shown (a line `<b>hi</b>` is shown as those nine characters). A speaker may say BURST lines at
once and then one every SECONDS_A_LINE; a line refused (`TalkRefused`) is said to the speaker alone.
Each listener may mute a speaker (by the name they speak under) and unmute them again.

A terminal says a line with `{"say": "text"}` and mutes with `{"mute": "name"}` (`{"unmute": ...}`);
it hears `{"said": {"who": name, "text": line}}`, and its own refusals as `{"said": {"refused": why}}`.
"""

from __future__ import annotations

import json
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

LINE_LENGTH = 80
BURST, SECONDS_A_LINE = 3, 2.0
KEPT_LINES = 20  # the lines a newcomer is shown (in memory only)
MUTED_MOST = 16  # names one listener may mute
QUICK_PHRASES = (
    "Hello!",
    "Good game",
    "Well played",
    "Nice one",
    "Sorry, phone",
    "Back in a minute",
    "Again?",
    "Thanks",
    "Oops",
    "Bye",
)
KEYS = frozenset({"say", "mute", "unmute"})


class TalkRefused(ValueError):
    """A line (or a mute) not taken: the message says why, for the speaker alone."""


def allowed(char: str) -> bool:
    """A character a line may hold: printable ASCII, or a Latin letter or mark of Latin-1 and Latin
    Extended (accents: é, ł, ß), a no-break space; no control or format characters, no other script."""
    if " " <= char <= "~":
        return True
    return "\u00a0" <= char <= "\u024f" and unicodedata.category(char)[0] in "LPSZ" and char != "\u00ad"


def clean_line(text) -> str:
    """`text` as a line to say: TalkRefused when it is not a short line of plain text."""
    if not isinstance(text, str):
        raise TalkRefused("a line is text")
    line = unicodedata.normalize("NFC", text).strip()
    if not line:
        raise TalkRefused("nothing to say")
    if len(line) > LINE_LENGTH:
        raise TalkRefused(f"a line is {LINE_LENGTH} characters at most")
    wrong = next((char for char in line if not allowed(char)), None)
    if wrong is not None:
        raise TalkRefused(f"a line is plain text in Latin letters: U+{ord(wrong):04X} can't be said here")
    return " ".join(line.split())


def talk_of(text: str | bytes) -> dict | None:
    """A terminal's message if it is talk (`{"say": ...}`, `{"mute": ...}`, `{"unmute": ...}`, one
    key), else None: then it is for the terminal's machine (`spectrum.wire.terminal_message`)."""
    if not isinstance(text, str) or not any(f'"{key}"' in text for key in KEYS):
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(message, dict) and len(message) == 1 and set(message) <= KEYS:
        return message
    return None


@dataclass
class Listener:
    """Someone at the table who hears its talk: their `name`, and `hear(message)` to send a message
    (a dict, sent as JSON) to their terminal."""

    name: str
    hear: Callable[[dict], None]
    owner: str | None = None
    muted: set[str] = field(default_factory=set)
    allowance: float = BURST
    last: float = 0.0


class Talk:
    """The talk at one table: its listeners, and the last KEPT_LINES lines (in memory only)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.listeners: list[Listener] = []
        self.lines: deque[tuple[str, str]] = deque(maxlen=KEPT_LINES)
        self.lock = threading.Lock()

    def join(self, name: str, hear: Callable[[dict], None], owner: str | None = None) -> Listener:
        """`name` (of the browser `owner`) hears the table's talk from now on (and the lines said
        lately); a name another browser speaks under already is told apart by a number ("Anna 2")."""
        with self.lock:
            taken = {listener.name for listener in self.listeners if owner is None or listener.owner != owner}
            number, said = 1, name
            while said in taken:
                number += 1
                said = f"{name} {number}"
            listener = Listener(said, hear, owner, last=self.clock())
            self.listeners.append(listener)
            lines = list(self.lines)
        for who, text in lines:
            hear({"said": {"who": who, "text": text}})
        return listener

    def leave(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def deserted(self) -> bool:
        with self.lock:
            return not self.listeners

    def take(self, listener: Listener, message: dict) -> None:
        """A message of `listener`'s terminal (`talk_of`): a line said to everyone who has not muted
        its speaker, or a mute; a refusal is told to `listener` alone."""
        try:
            if "say" in message:
                self.say(listener, message["say"])
            else:
                self.mute(listener, message.get("mute", message.get("unmute")), "mute" in message)
        except TalkRefused as refused:
            listener.hear({"said": {"refused": str(refused)}})

    def say(self, speaker: Listener, text) -> None:
        line = clean_line(text)
        now = self.clock()
        allowance = min(BURST, speaker.allowance + (now - speaker.last) / SECONDS_A_LINE)
        if allowance < 1:
            raise TalkRefused(f"one line every {SECONDS_A_LINE:g} s: wait a moment")
        speaker.allowance, speaker.last = allowance - 1, now
        with self.lock:
            self.lines.append((speaker.name, line))
            hearing = [listener for listener in self.listeners if speaker.name not in listener.muted]
        for listener in hearing:
            listener.hear({"said": {"who": speaker.name, "text": line}})

    def mute(self, listener: Listener, name, muting: bool) -> None:
        if not isinstance(name, str) or not 0 < len(name) <= LINE_LENGTH:
            raise TalkRefused("mute whom? a name at the table")
        if muting:
            if len(listener.muted) >= MUTED_MOST:
                raise TalkRefused(f"{MUTED_MOST} names muted at most")
            listener.muted.add(name)
        else:
            listener.muted.discard(name)
        listener.hear({"said": {"muted": sorted(listener.muted)}})


class Talks:
    """The talk of every table of a server, by (program, code), each let go once nobody listens."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.talks: dict[tuple[str, str], Talk] = {}
        self.lock = threading.Lock()

    def join(
        self, where: tuple[str, str], name: str, hear: Callable[[dict], None], owner: str | None = None
    ) -> tuple[Talk, Listener]:
        with self.lock:
            talk = self.talks.setdefault(where, Talk(self.clock))
            return talk, talk.join(name, hear, owner)

    def leave(self, where: tuple[str, str], talk: Talk, listener: Listener) -> None:
        with self.lock:
            talk.leave(listener)
            if talk.deserted() and self.talks.get(where) is talk:
                del self.talks[where]
