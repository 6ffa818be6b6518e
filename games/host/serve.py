"""`zxcards serve`: every program on a web page. Each connection (a browser tab, `zxcards connect`)
gets a Spectrum of its own, on a thread of its own, running the menu or the program its path
names, with the options its query gives (`/patience?seed=5`, `/patience?rom&seed=1`) as the
command line gives them; the page is its terminal (`spectrum.wire`).

The page, its scripts and the WebSocket share one port: `websockets` answers both, the page's
requests in `respond` and the connections in `play`. What a connection sends is checked message
by message; a connection that floods, sends what is too long or falls behind is closed, and no
other session notices.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import html
import http
import json
import re
import secrets
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from spectrum import Spectrum, render
from spectrum.command_line import OneLineParser, whole_number
from spectrum.frontends.hub import LoopHub, Task
from spectrum.frontends.served import ServedFrontend
from spectrum.wire import LOCKSTEP, MAX_MESSAGE, SECRET_COOKIE, SECRET_PATTERN, MessageError, terminal_message

from ..datafolder import data_folder, default_folder
from ..program import CannotStart
from ..store import FilesStore, Store
from . import PROGRAMS, load, menu, needs
from .counts import SessionCount, default_workers
from .session import ended, start_frames_from_host_clock
from .tables import Tables
from .talk import LINE_LENGTH, QUICK_PHRASES, Talks, talk_of
from .thinking import Workers

DEFAULT_HOST, DEFAULT_PORT, DEFAULT_MAX_SESSIONS = "127.0.0.1", 8048, 400
SERVER_ONLY = frozenset({"data-dir", "compare"})  # a server keeps its own data, and has no window
MESSAGES_PER_SECOND, MESSAGE_BURST = 100, 400  # a terminal's pace: a person types far slower
ERRORS_ALLOWED = 20  # refused messages before the connection is closed
# On a busy worker a paced session makes each frame up to this many frames before it is due, and
# its messages are held until then (`Timed`): a busy moment shorter than that (its other sessions,
# another process on the core) makes no frame late at the terminal; a key is seen that much later
# while the worker is busy (`pacing.Pacer`).
AHEAD_FRAMES = 2
BACKLOG_FRAMES = 500  # messages waiting for a slow terminal (10 s of frames) before it is dropped
SECRET = re.compile(SECRET_PATTERN)
# /PROGRAM?table=CODE&name=Anna (or &watch): a seat at a table; &private: a new table listed nowhere
TABLE_KEYS = frozenset({"table", "name", "watch", "private"})
TABLE_NAME_CHARACTERS = "A-Za-z0-9 ._'"  # and "-", which a browser's pattern wants escaped
TABLE_NAME = re.compile(rf"[{TABLE_NAME_CHARACTERS}-]{{1,10}}")
TABLE_CODE = re.compile(r"[A-Za-z0-9]{1,12}")
NAME_RULE = "1 to 10 of A-Z, 0-9, spaces and - ' . _ (an accent is taken off: Zoë is Zoe)"
UNACCENTED = {
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ð": "d",
    "Ð": "D",
    "þ": "th",
    "Þ": "Th",
    "ı": "i",
}  # letters NFKD leaves whole
# What a name box on a page lets through: the table's characters and the Latin letters with accents
NAME_PATTERN = rf"[{TABLE_NAME_CHARACTERS}\u00C0-\u024F\-]{{1,10}}"
CLOSE = object()  # in an outbox: close the connection once what is before it has gone
PAGE_FILES = {
    "/zxcards.js": "text/javascript",
    "/zxcards-sound.js": "text/javascript",
    "/zxcards.css": "text/css",
    "/zxcards-talk.js": "text/javascript",
}
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Outbox:
    """A connection's messages on their way, in order. One is written to the socket at once, on
    the loop's thread, when nothing is before it and the socket takes it (the common case: a
    frame costs no task's turn); the rest wait their turn in `send`, which waits for a slow
    terminal to read. `waiting` is how many wait."""

    def __init__(self, connection: ServerConnection):
        self.connection = connection
        self.queue: asyncio.Queue = asyncio.Queue()
        self.waiting = 0

    def put(self, message) -> None:
        """On the loop's thread: `message` (bytes, text, or CLOSE) sent after those before it."""
        connection = self.connection
        if (
            not self.waiting
            and message is not CLOSE
            and connection.protocol.state is State.OPEN
            and not connection.transport.get_write_buffer_size()
        ):
            if isinstance(message, str):
                connection.protocol.send_text(message.encode())
            else:
                connection.protocol.send_binary(message)
            for data in connection.protocol.data_to_send():
                connection.transport.write(data)
            return
        self.waiting += 1
        self.queue.put_nowait(message)

    async def send(self) -> None:
        """What waits, as the terminal takes it; then the connection closed."""
        try:
            while (message := await self.queue.get()) is not CLOSE:
                await self.connection.send(message)
                self.waiting -= 1
            await self.connection.close()
        except ConnectionClosed:
            pass


class Timed:
    """A session's messages on their way to its outbox at times of their own, in order, on the
    loop's thread: a frame made ahead of its time (`ServedFrontend.shown_at`) is held until then,
    and what comes after it waits behind it."""

    def __init__(self, hub: LoopHub, go: Callable[[object], None]):
        self.hub, self.go = hub, go
        self.held: collections.deque = collections.deque()  # (when it goes, or None: next, message)

    def post(self, message, when: float | None) -> None:
        """`message` to go at `when` on the loop's clock (None: at once), after what is held."""
        if self.held or (when is not None and when > self.hub.clock()):
            if not self.held:
                self.hub.call_at_tick(when, self.release)
            self.held.append((when, message))
        else:
            self.go(message)

    def release(self) -> None:
        """At a tick: what is held and due goes, in turn."""
        now = self.hub.clock()
        while self.held and (self.held[0][0] is None or self.held[0][0] <= now):
            self.go(self.held.popleft()[1])
        if self.held:
            self.hub.call_at_tick(self.held[0][0], self.release)


class RequestRefused(ValueError):
    """A path or query that names no program or options it takes."""


class NoSuchProgram(RequestRefused):
    """A path that names no program: not here at all (404), rather than asked for wrongly."""


@dataclass(frozen=True)
class Target:
    """What a path and query ask for: a program (None: the menu) and its options."""

    program: str | None
    options: dict = field(default_factory=dict)
    lockstep: bool = False
    table: dict | None = None  # a seat at a table for several: its code, and this seat's name or watching


class _QueryParser(OneLineParser):
    def error(self, message: str):
        raise RequestRefused(message)


def target_of(path: str) -> Target:
    """The program and options of a request's path and query, checked by the program's own option
    parser; RequestRefused says what is wrong in one line."""
    parts = urlsplit(path)
    name = parts.path.strip("/")
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    lockstep = any(key == LOCKSTEP for key, _ in pairs)
    pairs = [(key, value) for key, value in pairs if key != LOCKSTEP]
    table = None
    if name in PROGRAMS and needs(load(name)).seating is not None and any(key == "table" for key, _ in pairs):
        table, pairs = table_of(pairs)
    if not name:
        if pairs:
            raise RequestRefused("the menu takes no options: a program's follow its name (/patience?seed=5)")
        return Target(None, {}, lockstep)
    if name not in PROGRAMS:
        raise NoSuchProgram(f"there is no program {name[:40]!r}: the programs are {', '.join(PROGRAMS)}")
    parser = _QueryParser(prog=f"/{name}", add_help=False, allow_abbrev=False)
    load(name).add_options(parser)
    argv = []
    for key, value in pairs:
        if key in SERVER_ONLY or not re.fullmatch(r"[a-z][a-z0-9-]*", key):
            raise RequestRefused(f"{load(name).TITLE} takes no option {key[:40]!r} on a server")
        argv.append(f"--{key}" if value == "" else f"--{key}={value}")
    try:
        options = vars(parser.parse_args(argv))
    except SystemExit:  # --help and the like: a page is no terminal for them
        raise RequestRefused(f"/{name} takes its options as name=value") from None
    except RequestRefused as refusal:
        raise RequestRefused(as_a_page_says(load(name).TITLE, str(refusal), pairs)) from None
    refusal = needs(load(name)).seating.refusal(options) if table is not None else None
    if refusal:
        raise RequestRefused(refusal)
    return Target(name, options, lockstep, table)


def as_a_page_says(title: str, message: str, pairs: list[tuple[str, str]]) -> str:
    """What the option parser said of a query (`argument --seed: a seed is a whole number 1-65535,
    not '0'`), said as a page says it, of the query's own name=value: `… can't start with seed=0: a
    seed is a whole number 1-65535`."""
    found = re.fullmatch(r"argument --([a-z-]+): (.*)", message)
    if not found:
        unknown = re.fullmatch(r"unrecognized arguments: --([a-z-]+).*", message)
        if unknown:
            return f"{title} has no option {unknown[1]!r}"
        return f"{title} can't start: {message}"
    key, said = found[1], found[2]
    value = next((value for name, value in reversed(pairs) if name == key), "")
    asked = shortened(f"{key}={value}" if value else key)
    if said == "expected one argument":
        return f"{title} can't start with {asked}: {key} needs a value ({key}=…)"
    if said.startswith("ignored explicit argument"):
        return f"{title} can't start with {asked}: {key} takes no value (give it alone: ?{key})"
    choices = re.fullmatch(r"invalid choice: .*\(choose from (.*)\)", said)
    if choices:
        return f"{title} can't start with {asked}: {key} is one of {choices[1].replace(chr(39), '')}"
    said = re.sub(r",? not '[^']*'$", "", said)  # the value, said already
    return f"{title} can't start with {asked}: {said}"


def shortened(text: str) -> str:
    """`text`, cut to 40 characters: a query's own words, as long as they may be."""
    return text if len(text) <= 40 else text[:39] + "…"


def table_of(pairs: list[tuple[str, str]]) -> tuple[dict, list[tuple[str, str]]]:
    """A table's code, the seat's name and whether it only watches, from a query's pairs;
    the rest of the pairs (the table's options, for whoever makes it)."""
    found = {key: value for key, value in pairs if key in TABLE_KEYS}
    if not TABLE_CODE.fullmatch(found["table"]):
        raise RequestRefused("a table's code is 1 to 12 letters and digits (?table=K7Q2)")
    name = plain_letters(found.get("name", "Player"))
    if not TABLE_NAME.fullmatch(name) or not any(char.isalnum() for char in name):
        raise RequestRefused(f"a name at a table is {NAME_RULE}")
    return (
        {"code": found["table"], "name": name, "watch": "watch" in found, "private": "private" in found},
        [(key, value) for key, value in pairs if key not in TABLE_KEYS],
    )


def plain_letters(name: str) -> str:
    """`name` with its accents taken off (Zoë: Zoe, Łukasz: Lukasz, Straße: Strasse), as the table,
    whose names are the Spectrum's printable ASCII, can show it; what has no plain letter is left
    as it is (and refused)."""
    decomposed = unicodedata.normalize("NFKD", "".join(UNACCENTED.get(char, char) for char in name))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@cache
def page_file(name: str) -> bytes:
    return resources.files("games.host").joinpath("page", name).read_bytes()


@cache
def typed_characters() -> dict[str, list[str]]:
    """The keys that type each character the host's keyboard may give that is no key of its own
    ('"' is SYMBOL+p), as the window types them."""
    from spectrum.keyboard import keys_for_char

    return {
        char: sorted(keys)
        for char in [*map(chr, range(33, 127)), "£"]
        if not char.isalnum() and (keys := keys_for_char(char))
    }


def page(target: Target, lobby: str = "") -> bytes:
    """The page for `target`: the picture, the sound switch and the on-screen keys; the picture's
    size and palette come from `render`, as the window's do; under the menu, the `lobby` (the open
    tables, `open_tables_part`)."""
    config = {
        "width": render.FRAME_WIDTH,
        "height": render.FRAME_HEIGHT,
        "left": render.BORDER_LEFT,
        "top": render.BORDER_TOP,
        "palette": render.PALETTE.tolist(),
        "flashFrames": render.FLASH_FRAMES,
        "title": "ZX Cards" if target.program is None else load(target.program).TITLE,
        "typed": typed_characters(),
    }
    template = page_file("index.html").decode()
    return (
        template.replace("{{config}}", json.dumps(config).replace("<", "\\u003c"))
        .replace("{{title}}", config["title"])
        .replace("{{friends}}", lobby + friends_part(target))
        .encode()
    )


TABLE_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # none that are read as another (O and 0, I and 1)


def friends_part(target: Target) -> str:
    """Under the menu, a form for each program that seats several people, to make a new table (a
    fresh code, a name, the table's options); at a table, the link the others join with."""
    if target.table is not None:
        link = html.escape(f"/{target.program}?table={target.table['code']}")
        return (
            f'<p id="share">Friends join this table with: <a id="share-link" href="{link}">{link}</a></p>' + talk_part()
        )
    if target.program is not None:
        return ""
    return "".join(new_table_form(name, load(name)) for name in PROGRAMS if needs(load(name)).seating is not None)


def new_table_form(name: str, program) -> str:
    """The form that makes a new table of `program`, its choices and flags as the program gives them
    (those it folds under a heading of its own), and whether the table is private."""
    seating = needs(program).seating
    code = "".join(secrets.choice(TABLE_CODE_LETTERS) for _ in range(6))
    parts = {
        flag: f'<label><input type="checkbox" name="{flag}" value=""> {html.escape(words)}</label> '
        for flag, words in seating.flags.items()
    }
    for choice in seating.choices:
        options = "".join(
            f'<option value="{html.escape(value)}"{" selected" if value == choice.default else ""}>'
            f'{html.escape(choice.words(value))}</option>'
            for value in choice.values()
        )
        parts[choice.name] = (
            f'<select name="{choice.name}" aria-label="{html.escape(choice.called)}">{options}</select> '
        )
    shown = "".join(part for key, part in parts.items() if key not in seating.folded)
    folded = "".join(part for key, part in parts.items() if key in seating.folded)
    if folded:
        folded = f'<details><summary>{html.escape(seating.folded_called)}</summary>{folded}</details>'
    return (
        f'<form id="friends" action="/{name}" method="get">{html.escape(program.TITLE)} with friends: '
        f'<input type="hidden" name="table" value="{code}">'
        f'{name_box()} {shown}'
        '<label><input type="checkbox" name="private" value=""> private (only by its link)</label> '
        f'<button type="submit">New table</button>{folded}</form>'
    )


def talk_part() -> str:
    """At a table, a word to the table: the lines heard (shown as text by zxcards-talk.js, never as
    markup), a line to say, quick phrases for touch, and whom this page has muted."""
    phrases = "".join(
        f'<button type="button" class="phrase">{html.escape(phrase)}</button>' for phrase in QUICK_PHRASES
    )
    return (
        '<section id="talk" aria-label="A word to the table"><ol id="talk-heard" aria-live="polite"></ol>'
        f'<form id="talk-say"><input name="line" maxlength="{LINE_LENGTH}" autocomplete="off" '
        'placeholder="a word to the table" aria-label="A word to the table"> <button type="submit">Say</button> '
        '<span id="talk-muted"></span></form>'
        f'<p id="talk-phrases">{phrases}</p></section><script src="/zxcards-talk.js" defer></script>'
    )


def name_box() -> str:
    return (
        f'<input name="name" required maxlength="10" pattern="{html.escape(NAME_PATTERN)}" placeholder="your name" '
        f'title="Your name at the table: {html.escape(NAME_RULE)}" aria-label="Your name at the table">'
    )


def open_tables_part(listed: dict[str, list]) -> str:
    """Under the menu, the tables each program lists (`Tables.listed`: those not private, with a
    seat free or watchers welcome): its code, rules, seats taken and score, with a form to sit at
    it under a name and a link to watch it."""
    rows = []
    for name, listings in listed.items():
        for listing in listings:
            link = f"/{name}?table={listing.code}"
            seats = ", ".join(listing.seats) or "nobody yet"
            said = (
                f'<b>{html.escape(load(name).TITLE)} {html.escape(listing.code)}</b> {html.escape(listing.rules)}'
                f' · {html.escape(seats)} ({len(listing.seats)} of {listing.places})'
                + (f' · {html.escape(listing.score)}' if listing.score else "")
            )
            join = (
                (
                    f'<form action="/{name}" method="get"><input type="hidden" name="table" value="{html.escape(listing.code)}">'
                    f'{name_box()} <button type="submit">Sit</button></form> '
                )
                if listing.seat_free
                else ""
            )
            watch = f'<a href="{html.escape(link)}&amp;watch">Watch</a>' if listing.watchable else ""
            rows.append(f"<li>{said} {join}{watch}</li>")
    if not rows:  # nothing to list: the page stays as it was, the picture as large
        return ""
    return (
        f'<section id="open-tables"><p>Open tables (<a href="/">look again</a>):</p><ul>{"".join(rows)}</ul></section>'
    )


def message_page(title: str, text: str) -> bytes:
    """A page that says one thing: why a request is refused."""
    return (
        f'<!doctype html><html lang="en"><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>'
        f'<link rel="stylesheet" href="/zxcards.css"><body class="message"><h1>{title}</h1>'
        f"<p>{html.escape(text)}</p><p><a href=\"/\">The menu</a></p></body></html>"
    ).encode()


def response(status: http.HTTPStatus, body: bytes, content_type: str = "text/html; charset=utf-8") -> Response:
    headers = Headers({"Content-Type": content_type, "Content-Length": str(len(body)), **PAGE_HEADERS})
    return Response(status.value, status.phrase, headers, body)


def secret_of(request: Request) -> str | None:
    """The page's secret, from its cookie, when it is one (32 hex digits)."""
    for part in request.headers.get("Cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == SECRET_COOKIE and SECRET.fullmatch(value):
            return value
    return None


class Server:
    """The sessions of one `zxcards serve`, at most `max_sessions` at once; the players' data is
    kept in `data_dir` (default: the zxcards data folder), by the hash of each browser's secret,
    never the secret itself; or in `store`, a database several servers share (`--database`)."""

    def __init__(
        self,
        *,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        data_dir: Path | None = None,
        store: Store | None = None,
        count: SessionCount | None = None,
    ):
        self.max_sessions = max_sessions
        self.data_dir = data_dir
        self._store = store
        self.sessions: set[Session] = set()
        self.count = count or SessionCount()  # this server's sessions, and those of the router's other workers
        self.hub = LoopHub("zxcards sessions")  # every session's Spectrum, taking turns on the loop's thread
        self.thinker = Workers(hub=self.hub)  # a computer's search holds up no other session's frames
        self.tables: dict[str, Tables] = {}  # for each program that seats people: its tables, by code
        self._tables_made = threading.Lock()  # the first seats of a program, at once, find one Tables
        self.refused = 0  # connections and messages refused, for whoever watches
        self.talks = Talks()  # what is said at each table, in memory only

    def tables_of(self, name: str) -> Tables:
        """The tables of program `name`, kept after every move in the server's store (by default
        the data folder's folder the program names)."""
        with self._tables_made:
            if name not in self.tables:
                seating = needs(load(name)).seating
                self.tables[name] = Tables(
                    seating.table(), store=self.store.tables(seating.kept_in), thinker=self.thinker
                )
            return self.tables[name]

    @property
    def store(self) -> Store:
        """Where the players' data and the tables are kept: the store several servers share, when
        given, else the data folder (`FilesStore`)."""
        if self._store is None:
            self._store = FilesStore(self.data_root)
        return self._store

    @property
    def data_root(self) -> Path:
        """The server's data folder, where the players' data is kept."""
        return self.data_dir if self.data_dir is not None else default_folder()

    # --- HTTP: the page, and the handshake's checks --------------------------------------------

    def respond(self, connection: ServerConnection, request: Request) -> Response | None:
        """The page and its files for a plain request; for a WebSocket handshake, None to go on,
        or the refusal: another site's page, a path that names nothing, a full server."""
        path = urlsplit(request.path).path
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        if not websocket and path in PAGE_FILES:
            return response(http.HTTPStatus.OK, page_file(path.lstrip("/")), PAGE_FILES[path])
        try:
            target = target_of(request.path)
        except RequestRefused as refusal:
            if isinstance(refusal, NoSuchProgram):
                return self._refuse(http.HTTPStatus.NOT_FOUND, "Not here", str(refusal))
            return self._refuse(http.HTTPStatus.BAD_REQUEST, "Can't start", str(refusal))
        if websocket:
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
                return self._refuse(http.HTTPStatus.FORBIDDEN, "Refused", "a page from another site may not play here")
        if self.count.everywhere() >= self.max_sessions:
            return self._refuse(
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                "zxcards is full",
                f"All {self.max_sessions} Spectrums of this server are in use. Try again in a while.",
            )
        if not websocket:
            return response(http.HTTPStatus.OK, page(target, self.lobby() if target.program is None else ""))
        connection.target = target
        connection.secret = secret_of(request)
        return None

    def lobby(self) -> str:
        """The open tables of every program that seats people, for the menu's page."""
        return open_tables_part({name: tables.listed() for name, tables in list(self.tables.items())})

    def _refuse(self, status: http.HTTPStatus, title: str, text: str) -> Response:
        self.refused += 1
        return response(status, message_page(title, text))

    # --- WebSocket: a session per connection -----------------------------------------------------

    async def play(self, connection: ServerConnection) -> None:
        """A Spectrum for this connection until either side ends: its frames out, its keys in."""
        loop = asyncio.get_running_loop()
        outbox = Outbox(connection)

        def deliver(message) -> None:  # on the loop: the session's messages, or its end
            if message is not CLOSE and outbox.waiting > BACKLOG_FRAMES:
                frontend.disconnect()  # the terminal can't keep up: it is let go, nobody else waits
                outbox.put(CLOSE)
                # at once: a close frame would wait behind all it has not read, and the connection
                # (and its place among max_sessions) would linger until the keepalive gave up on it
                connection.transport.abort()
            else:
                outbox.put(message)

        timed = Timed(self.hub, deliver)

        def send(message) -> None:  # on the session's task: the loop's thread, or (its end) another
            if self.hub.on_loop():
                timed.post(message, frontend.shown_at)
                return
            try:
                loop.call_soon_threadsafe(timed.post, message, None)
            except RuntimeError:  # the loop has closed: the server has stopped, nobody is listening
                frontend.disconnect()

        frontend = ServedFrontend(send, lockstep=connection.target.lockstep, hub=self.hub, ahead=AHEAD_FRAMES)
        secret = connection.secret
        owner = hashlib.sha256(secret.encode()).hexdigest()[:32] if secret else None
        session = Session(self, connection.target, frontend, owner, lambda: send(CLOSE))
        self.sessions.add(session)
        self.count.add(1)
        session.start()
        sender = asyncio.create_task(outbox.send())
        table, talk = connection.target.table, None
        if table is not None:  # a word to the table: heard by this terminal as JSON text
            where = (connection.target.program, table["code"])
            talk, listener = self.talks.join(where, table["name"], lambda heard: send(json.dumps(heard)), owner)
        try:
            await self._receive(connection, frontend, None if talk is None else (talk, listener))
        finally:
            if talk is not None:
                self.talks.leave(where, talk, listener)
            frontend.disconnect()
            await session.ended(loop)
            self.sessions.discard(session)
            self.count.add(-1)
            await sender

    async def _receive(self, connection: ServerConnection, frontend: ServedFrontend, talking=None) -> None:
        """The terminal's messages to the machine, each checked; a terminal is allowed a person's
        pace, and in lockstep one message more for each frame it was sent. At a table (`talking`:
        the table's talk and this terminal's listener) a word to the table goes there instead."""
        allowance, last, frames, errors = float(MESSAGE_BURST), time.monotonic(), 0, 0
        try:
            async for text in connection:
                now = time.monotonic()
                granted = frontend.frames_presented - frames if frontend.lockstep else 0
                allowance = min(MESSAGE_BURST + granted, allowance + (now - last) * MESSAGES_PER_SECOND + granted) - 1
                last, frames = now, frontend.frames_presented
                if allowance < 0:
                    self.refused += 1
                    await self._close(connection, 1008, "too many messages")
                    return
                said = talk_of(text) if talking is not None else None
                if said is not None:
                    talking[0].take(talking[1], said)
                    continue
                try:
                    frontend.receive(terminal_message(text))
                except MessageError as refusal:
                    self.refused += 1
                    errors += 1
                    if errors > ERRORS_ALLOWED:
                        await self._close(connection, 1008, "too many messages refused")
                        return
                    await connection.send(json.dumps({"error": str(refusal)}))
        except ConnectionClosed:
            pass

    @staticmethod
    async def _close(connection: ServerConnection, code: int, reason: str) -> None:
        """Close the connection, reading on meanwhile: what the terminal sent before it heard is
        dropped, so that its answering close is read (unread messages stop the reading, and the
        close would wait its whole timeout)."""
        closing = asyncio.create_task(connection.close(code, reason))
        try:
            async for _ in connection:
                pass
        except ConnectionClosed:
            pass
        await closing


class Session:
    """One connection's Spectrum, running the menu or a program until it ends or the terminal goes;
    `owner` is the hash of its browser's secret (None without one); `ended` is called once it has
    said why it ended. It runs as a task of the server's hub (`spectrum.frontends.hub`)."""

    def __init__(self, server: Server, target: Target, frontend: ServedFrontend, owner: str | None, ended):
        self.name = f"zxcards session {target.program or 'menu'}"
        self.server, self.target, self.frontend, self.owner, self._ended = server, target, frontend, owner, ended
        self.task: Task | None = None

    def start(self) -> None:
        self.task = self.server.hub.start(self.run, self.name)

    def join(self, timeout: float | None = None) -> None:
        self.task.join(timeout)

    async def ended(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wait on `loop` (the running one) until the session has ended, with no thread blocked on
        it: a loop stopped meanwhile leaves nothing waiting that would hold its process up at exit."""
        ended = loop.create_future()

        def settle() -> None:
            if not ended.done():
                ended.set_result(None)

        def said() -> None:  # on whichever thread ended the task
            try:
                loop.call_soon_threadsafe(settle)
            except RuntimeError:  # the loop has closed: nobody waits
                pass

        self.task.when_done(said)
        await ended

    def is_alive(self) -> bool:
        return self.task is not None and self.task.is_alive()

    def run(self) -> None:
        machine = Spectrum(self.frontend)
        machine.speaker_steps = []  # from the start: a sound made before the first frame (a BEEP) is sent too
        start_frames_from_host_clock(machine)  # as a launch from the command line does
        self.frontend.status = menu.LEAVE_ZXCARDS
        try:
            try:
                ending = ended(lambda: self.session(machine))
            finally:
                machine.flush_sound()
            reason = ending.said(self.target.program) or "zxcards has ended."
            self.frontend.end(machine, reason, ending.status)
        except Exception:
            # a fault of the server's own: the terminal is told, and let go (not left waiting for
            # frames that will never come); the fault is said in the server's log as a thread's is
            self.frontend.end(machine, "zxcards stopped on a fault of the server's (its log says which).", 1)
            raise
        finally:
            self._ended()

    def session(self, machine: Spectrum) -> int | None:
        """What the connection asked for, on `machine`: a seat at a table, the menu, or a program."""
        name, options = self.target.program, self.target.options
        if self.target.table is not None:
            table = self.target.table
            return needs(load(name)).seating.seat(
                machine,
                self.server.tables_of(name),
                table["code"],
                self.owner,
                table["name"],
                watch=table["watch"],
                private=table["private"],
                **options,
            )
        if name is None:
            return menu.run(
                machine,
                [load(program) for program in PROGRAMS],
                options_for=self.program_options,
                listed=self.open_tables,
                sit=self.sit,
            )
        program = load(name)
        return menu.run_program(machine, program, **self.program_options(program, options))

    def open_tables(self) -> list:
        """(program name, its title, a Listing) of each table listed, for the Spectrum's list."""
        return [
            (name, load(name).TITLE, listing)
            for name, tables in list(self.server.tables.items())
            for listing in tables.listed()
        ]

    def sit(self, machine: Spectrum, name: str, code: str, seat_name: str, watch: bool) -> None:
        """A seat (or a watcher's place) at table `code` of program `name`, chosen from the
        Spectrum's list, played until it is left; CannotStart for a name the table can't show."""
        shown = plain_letters(seat_name.strip())
        if not TABLE_NAME.fullmatch(shown) or not any(char.isalnum() for char in shown):
            raise CannotStart(f"a name is {NAME_RULE}")
        needs(load(name)).seating.seat(machine, self.server.tables_of(name), code, self.owner, shown, watch=watch)

    def program_options(self, program, options: dict | None = None) -> dict:
        """`options` for `program`, with the server's worker processes if it thinks, and where it
        keeps what a player owns, if it keeps anything (`Keeping`): in a folder of the browser's
        own, or in the server's one place, opened only by the browser that made it. CannotStart
        when the connection gave no browser secret to own them by."""
        options = dict(options or {})
        if needs(program).thinks:
            options["thinker"] = self.server.thinker
        keeping = needs(program).keeping
        if keeping is None or not keeping.kept(options):
            return options
        if self.owner is None:
            raise CannotStart(
                "this connection gave no browser secret, which is what a player's accounts and games "
                "are kept by on a server: play in a browser that keeps site data (what keeps nothing, "
                "practice say, plays anywhere)"
            )
        if self.server.store.url is not None:  # kept in the database several servers share
            return {**options, "store": self.server.store, "owner": self.owner}
        if keeping.by_folder:
            return {**options, "data_dir": self.server.data_root / "browsers" / self.owner}
        return {**options, "data_dir": self.server.data_root, "owner": self.owner}


def _websockets(server: Server, *arguments, **options):
    """The `websockets` server that answers `server`'s connections."""
    return serve(
        server.play,
        *arguments,
        process_request=server.respond,
        max_size=MAX_MESSAGE,
        max_queue=MESSAGE_BURST // 4,
        server_header=None,
        compression=None,
        **options,
    )


@contextlib.asynccontextmanager
async def listening(server: Server):
    """For a worker process: `take(sock)` answers a connection accepted elsewhere (the router's),
    as `server`'s own listening socket would. That socket listens on a path nobody connects to;
    a connection handed over goes through the same `websockets` server (its handshake checks, its
    limits, its keepalive, its close)."""
    with tempfile.TemporaryDirectory(prefix="zxcards-worker-") as folder:
        async with _websockets(server, sock=_unix_listener(Path(folder) / "unused")) as answering:
            factory = answering.server._protocol_factory  # what asyncio calls for each connection it accepts
            loop = asyncio.get_running_loop()

            def take(sock) -> None:
                sock.setblocking(False)
                loop.create_task(loop.connect_accepted_socket(factory, sock))

            yield take


def _unix_listener(path: Path):
    import socket

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)
    return listener


async def serve_until_stopped(host: str, port: int, server: Server, started=None) -> None:
    """Serve on `host`:`port` until cancelled; `started(url)` is told the address first."""
    async with _websockets(server, host, port) as listening:
        bound = listening.sockets[0].getsockname()
        url = f"http://{bound[0] if ':' not in bound[0] else f'[{bound[0]}]'}:{bound[1]}/"
        if started:
            started(url)
        await asyncio.get_running_loop().create_future()


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}: this computer only; 0.0.0.0 opens "
        "zxcards to every computer that can reach this one)",
    )
    parser.add_argument(
        "--port",
        type=whole_number(0, 65535, "a port"),
        default=DEFAULT_PORT,
        metavar="P",
        help=f"the port (default {DEFAULT_PORT}; 0: any free one)",
    )
    parser.add_argument(
        "--max-sessions",
        type=whole_number(1, what="the most sessions"),
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"Spectrums at once, one a tab (default {DEFAULT_MAX_SESSIONS}); more are refused",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, 256, "the worker processes"),
        default=default_workers(),
        metavar="N",
        help=f"processes the Spectrums run in (default {default_workers()}: one a "
        "core); 1 runs them in the process that listens",
    )
    parser.add_argument(
        "--data-dir",
        type=data_folder,
        metavar="DIR",
        help="where the players' data is kept, a folder for each browser (default: the zxcards data folder)",
    )
    parser.add_argument(
        "--database",
        type=database_url,
        metavar="URL",
        help="keep the accounts, the kept games and the tables in PostgreSQL at URL "
        "(postgresql://user:password@host:port/database), shared by several servers "
        "(default: SQLite and files in the data folder)",
    )


def database_url(text: str) -> str:
    """An argparse type: a PostgreSQL URL; whether it can be used is checked before serving."""
    if not re.match(r"postgres(ql)?://", text):
        raise argparse.ArgumentTypeError("needs a PostgreSQL URL: postgresql://user:password@host:port/database")
    return text
