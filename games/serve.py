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
import hashlib
import html
import http
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from spectrum import ReportError, Spectrum, render
from spectrum.command_line import OneLineParser, whole_number
from spectrum.errors import BREAK_INTO_PROGRAM, STOP_STATEMENT
from spectrum.frontends import Leave, Quit, ScriptExhausted
from spectrum.frontends.served import ServedFrontend
from spectrum.wire import MAX_MESSAGE, MessageError, terminal_message

from . import PROGRAMS, load, menu
from .datafolder import data_folder, default_folder

DEFAULT_HOST, DEFAULT_PORT, DEFAULT_MAX_SESSIONS = "127.0.0.1", 8048, 200
SERVER_ONLY = frozenset({"data-dir", "compare"})  # a server keeps its own data, and has no window
LOCKSTEP = "lockstep"  # in a connection's query: a scripted terminal, each frame waits for its keys
MESSAGES_PER_SECOND, MESSAGE_BURST = 100, 400  # a terminal's pace: a person types far slower
ERRORS_ALLOWED = 20  # refused messages before the connection is closed
BACKLOG_FRAMES = 500  # messages waiting for a slow terminal (10 s of frames) before it is dropped
SECRET_COOKIE = "zxcards-secret"  # the page's own secret: the browser's accounts are kept under its hash
SECRET = re.compile(r"[0-9a-f]{32}")
# the programs that keep what a player owns, and when they do (by their options)
KEEPS_PLAYERS_DATA = {
    "canfield": lambda options: not options.get("practice") and options.get("deal") is None,
    "spades": lambda options: bool(options.get("full_rules")),
}
TABLE_KEYS = frozenset({"table", "name", "watch"})  # /spades?table=CODE&name=Anna (or &watch)
TABLE_NAME_CHARACTERS = "A-Za-z0-9 ._'"  # and "-", which a browser's pattern wants escaped
TABLE_NAME = re.compile(rf"[{TABLE_NAME_CHARACTERS}-]{{1,10}}")
TABLE_CODE = re.compile(r"[A-Za-z0-9]{1,12}")
CLOSE = object()  # in an outbox: close the connection once what is before it has gone
PAGE_FILES = {"/zxcards.js": "text/javascript", "/zxcards-sound.js": "text/javascript", "/zxcards.css": "text/css"}
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


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
    table: dict | None = None  # Spades at a table for four: its code, and this seat's name or watching


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
    if name == "spades" and any(key == "table" for key, _ in pairs):
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
        if key in SERVER_ONLY or not re.fullmatch(r"[a-z][a-z-]*", key):
            raise RequestRefused(f"/{name} takes no option {key[:40]!r} on a server")
        argv.append(f"--{key}" if value == "" else f"--{key}={value}")
    try:
        options = vars(parser.parse_args(argv))
    except SystemExit:  # --help and the like: a page is no terminal for them
        raise RequestRefused(f"/{name} takes its options as name=value") from None
    if table is not None and options["blind_nil"] and not options["full_rules"]:
        raise RequestRefused("blind nil is a bid of the full game: add full")
    return Target(name, options, lockstep, table)


def table_of(pairs: list[tuple[str, str]]) -> tuple[dict, list[tuple[str, str]]]:
    """A Spades table's code, the seat's name and whether it only watches, from a query's pairs;
    the rest of the pairs (the table's options, for whoever makes it)."""
    found = {key: value for key, value in pairs if key in TABLE_KEYS}
    if not TABLE_CODE.fullmatch(found["table"]):
        raise RequestRefused("a table's code is 1 to 12 letters and digits (/spades?table=K7Q2)")
    name = found.get("name", "Player")
    if not TABLE_NAME.fullmatch(name) or not any(char.isalnum() for char in name):
        raise RequestRefused("a name at a table is 1 to 10 of A-Z, 0-9, spaces and - ' . _")
    return ({"code": found["table"], "name": name, "watch": "watch" in found},
            [(key, value) for key, value in pairs if key not in TABLE_KEYS])


@cache
def page_file(name: str) -> bytes:
    return resources.files("games").joinpath("page", name).read_bytes()


@cache
def typed_characters() -> dict[str, list[str]]:
    """The keys that type each character the host's keyboard may give that is no key of its own
    ('"' is SYMBOL+p), as the window types them."""
    from spectrum.keyboard import keys_for_char

    return {char: sorted(keys) for char in [*map(chr, range(33, 127)), "£"]
            if not char.isalnum() and (keys := keys_for_char(char))}


def page(target: Target) -> bytes:
    """The page for `target`: the picture, the sound switch and the on-screen keys; the picture's
    size and palette come from `render`, as the window's do."""
    config = {"width": render.FRAME_WIDTH, "height": render.FRAME_HEIGHT, "left": render.BORDER_LEFT,
              "top": render.BORDER_TOP, "palette": render.PALETTE.tolist(), "flashFrames": render.FLASH_FRAMES,
              "title": "ZX Cards" if target.program is None else load(target.program).TITLE,
              "typed": typed_characters()}
    template = page_file("index.html").decode()
    return template.replace("{{config}}", json.dumps(config).replace("<", "\\u003c")).replace(
        "{{title}}", config["title"]).replace("{{friends}}", friends_part(target)).encode()


TABLE_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # none that are read as another (O and 0, I and 1)


def friends_part(target: Target) -> str:
    """Under the menu, a form that makes a new Spades table (a fresh code, a name, the game and the
    computers); at a table, the link the others join with."""
    if target.table is not None:
        code = html.escape(target.table["code"])
        return (f'<p id="share">Friends join this table with: <a id="share-link" href="/spades?table={code}">'
                f'/spades?table={code}</a></p>')
    if target.program is not None:
        return ""
    from .spades.players import LEVELS  # here: the menu's page only

    code = "".join(secrets.choice(TABLE_CODE_LETTERS) for _ in range(6))
    levels = "".join(f'<option value="{level}"{" selected" if level == "rules" else ""}>{level} computers</option>'
                     for level in LEVELS)
    return (f'<form id="friends" action="/spades" method="get">Spades with friends: '
            f'<input type="hidden" name="table" value="{code}">'
            f'<input name="name" required maxlength="10" pattern="[{html.escape(TABLE_NAME_CHARACTERS)}\\-]{{1,10}}" placeholder="your name" '
            f'aria-label="Your name at the table"> '
            f'<label><input type="checkbox" name="full" value=""> full game</label> '
            f'<select name="level" aria-label="The computers">{levels}</select> '
            f'<button type="submit">New table</button></form>')


def message_page(title: str, text: str) -> bytes:
    """A page that says one thing: why a request is refused."""
    return (f'<!doctype html><html lang="en"><meta charset="utf-8"><title>{title}</title>'
            f'<link rel="stylesheet" href="/zxcards.css"><body class="message"><h1>{title}</h1>'
            f"<p>{html.escape(text)}</p><p><a href=\"/\">The menu</a></p></body></html>").encode()


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
    never the secret itself."""

    def __init__(self, *, max_sessions: int = DEFAULT_MAX_SESSIONS, data_dir: Path | None = None):
        self.max_sessions = max_sessions
        self.data_dir = data_dir
        self.sessions: set[Session] = set()
        from .spades import thinking  # here, not at the top: every zxcards command imports this module
        from .spades.seats import Tables
        from .spades.table_store import TableStore

        thinking.think_in_workers()  # a computer's search holds up no other session's frames

        # Spades tables for four, by code, kept after every move
        self.tables = Tables(store=TableStore(self.data_root / "tables"))
        self.refused = 0  # connections and messages refused, for whoever watches

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
            status = http.HTTPStatus.NOT_FOUND if isinstance(refusal, NoSuchProgram) else http.HTTPStatus.BAD_REQUEST
            return self._refuse(status, "Not here", str(refusal))
        if websocket:
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
                return self._refuse(http.HTTPStatus.FORBIDDEN, "Refused", "a page from another site may not play here")
        if len(self.sessions) >= self.max_sessions:
            return self._refuse(http.HTTPStatus.SERVICE_UNAVAILABLE, "zxcards is full",
                                f"All {self.max_sessions} Spectrums of this server are in use. Try again in a while.")
        if not websocket:
            return response(http.HTTPStatus.OK, page(target))
        connection.target = target
        connection.secret = secret_of(request)
        return None

    def _refuse(self, status: http.HTTPStatus, title: str, text: str) -> Response:
        self.refused += 1
        return response(status, message_page(title, text))

    # --- WebSocket: a session per connection -----------------------------------------------------

    async def play(self, connection: ServerConnection) -> None:
        """A Spectrum for this connection until either side ends: its frames out, its keys in."""
        loop = asyncio.get_running_loop()
        outbox: asyncio.Queue = asyncio.Queue()

        def deliver(message) -> None:  # on the loop: the session's messages, or its end
            if message is not CLOSE and outbox.qsize() > BACKLOG_FRAMES:
                frontend.disconnect()  # the terminal can't keep up: it is let go, nobody else waits
                outbox.put_nowait(CLOSE)
                # at once: a close frame would wait behind all it has not read, and the connection
                # (and its place among max_sessions) would linger until the keepalive gave up on it
                connection.transport.abort()
            else:
                outbox.put_nowait(message)

        def send(message) -> None:  # on the session's thread
            try:
                loop.call_soon_threadsafe(deliver, message)
            except RuntimeError:  # the loop has closed: the server has stopped, nobody is listening
                frontend.disconnect()

        frontend = ServedFrontend(send, lockstep=connection.target.lockstep)
        secret = connection.secret
        owner = hashlib.sha256(secret.encode()).hexdigest()[:32] if secret else None
        session = Session(self, connection.target, frontend, owner, lambda: send(CLOSE))
        self.sessions.add(session)
        session.start()
        sender = asyncio.create_task(self._send(connection, outbox))
        try:
            await self._receive(connection, frontend)
        finally:
            frontend.disconnect()
            await asyncio.to_thread(session.join)
            self.sessions.discard(session)
            await sender

    async def _send(self, connection: ServerConnection, outbox: asyncio.Queue) -> None:
        try:
            while (message := await outbox.get()) is not CLOSE:
                await connection.send(message)
            await connection.close()
        except ConnectionClosed:
            pass

    async def _receive(self, connection: ServerConnection, frontend: ServedFrontend) -> None:
        """The terminal's messages to the machine, each checked; a terminal is allowed a person's
        pace, and in lockstep one message more for each frame it was sent."""
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


class Session(threading.Thread):
    """One connection's Spectrum, running the menu or a program until it ends or the terminal goes;
    `owner` is the hash of its browser's secret (None without one); `ended` is called once it has
    said why it ended."""

    def __init__(self, server: Server, target: Target, frontend: ServedFrontend, owner: str | None, ended):
        super().__init__(name=f"zxcards session {target.program or 'menu'}", daemon=True)
        self.server, self.target, self.frontend, self.owner, self._ended = server, target, frontend, owner, ended

    def run(self) -> None:
        from .cli import start_frames_from_host_clock  # as a launch from the command line does

        machine = Spectrum(self.frontend)
        machine.speaker_steps = []  # from the start: a sound made before the first frame (a BEEP) is sent too
        start_frames_from_host_clock(machine)
        reason, status = "zxcards has ended: reload the page to play again", 0
        self.frontend.status = menu.LEAVE_ZXCARDS
        try:
            if self.target.table is not None:
                from .spades import seat_play

                options = self.target.options
                table = self.target.table
                seat_play.run(machine, self.server.tables, table["code"], self.owner, table["name"],
                              level=options["level"], seed=options["seed"], full=options["full_rules"],
                              blind_nil=options["blind_nil"], watch=table["watch"])
            elif self.target.program is None:
                menu.run(machine, [load(name) for name in PROGRAMS], options_for=self.program_options)
            else:
                program = load(self.target.program)
                menu.run_program(machine, program, **self.program_options(program, self.target.options))
        except (Quit, Leave, ScriptExhausted):
            pass
        except ValueError as refusal:
            reason, status = f"{self.target.program} can't play: {refusal}", 1
        except ReportError as report:
            if str(report) not in (BREAK_INTO_PROGRAM, STOP_STATEMENT):
                reason, status = f"{self.target.program} stopped with report {report}", 1
        finally:
            machine.flush_sound()
            self.frontend.end(machine, reason, status)
            self._ended()

    def program_options(self, program, options: dict | None = None) -> dict:
        """`options` for `program`, with where it keeps what a player owns, if it keeps anything:
        Canfield's accounts in the server's one bank, opened only by the browser that made them;
        the full game of Spades in the browser's own folder. ValueError when the connection gave
        no browser secret to own them by."""
        options = dict(options or {})
        name = program.__name__.rpartition(".")[2]
        if not KEEPS_PLAYERS_DATA.get(name, lambda options: False)(options):
            return options
        if self.owner is None:
            raise ValueError("this connection gave no browser secret, which is what a player's accounts and games "
                             "are kept by on a server: play in a browser that keeps site data (practice and the "
                             "seed's game keep nothing, and play anywhere)")
        if name == "canfield":
            return {**options, "data_dir": self.server.data_root, "owner": self.owner}
        return {**options, "data_dir": self.server.data_root / "browsers" / self.owner}


async def serve_until_stopped(host: str, port: int, server: Server, started=None) -> None:
    """Serve on `host`:`port` until cancelled; `started(url)` is told the address first."""
    async with serve(server.play, host, port, process_request=server.respond, max_size=MAX_MESSAGE,
                     max_queue=MESSAGE_BURST // 4, server_header=None) as listening:
        bound = listening.sockets[0].getsockname()
        url = f"http://{bound[0] if ':' not in bound[0] else f'[{bound[0]}]'}:{bound[1]}/"
        if started:
            started(url)
        await asyncio.get_running_loop().create_future()


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this computer only; 0.0.0.0 opens "
                             "zxcards to every computer that can reach this one)")
    parser.add_argument("--port", type=whole_number(0, 65535, "a port"), default=DEFAULT_PORT, metavar="P",
                        help=f"the port (default {DEFAULT_PORT}; 0: any free one)")
    parser.add_argument("--max-sessions", type=whole_number(1, what="the most sessions"), default=DEFAULT_MAX_SESSIONS,
                        metavar="N", help=f"Spectrums at once, one a tab (default {DEFAULT_MAX_SESSIONS}); more are refused")
    parser.add_argument("--data-dir", type=data_folder, metavar="DIR",
                        help="where the players' data is kept, a folder for each browser (default: the zxcards "
                             "data folder)")
