"""`zxcards connect URL`: a window, or a headless script, as the terminal of a Spectrum that
`zxcards serve` runs.

Like a browser, it keeps a secret of its own (in the data folder), by whose hash the server keeps
the accounts made from here. Headless, the served machine keeps lockstep with the script: each frame waits for the keys the
script holds for it, so a script types a key when the remote program waits for one, exactly as
it does in a local run, and the screenshot and WAV come out the same. In a window, the served
machine keeps its own time and the window shows each frame as it comes.
"""

from __future__ import annotations

import html
import json
import os
import queue
import re
import secrets
import socket
import sys
import threading
import time
from urllib.parse import urlsplit, urlunsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import connect

from spectrum.frontends import Leave, Quit, ScriptExhausted
from spectrum.wire import LOCKSTEP, SECRET_COOKIE, SECRET_PATTERN, Terminal

from ..datafolder import DataUnusable, default_folder

SECRET = re.compile(SECRET_PATTERN)
HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")  # a name, or IPv6

SECRET_FILE = "connect-secret"  # in the data folder: this computer's secret, as a browser keeps its own


class ConnectError(Exception):
    """The served session could not be reached, or refused us; the message says why in one line."""


def socket_address(url: str, *, lockstep: bool) -> str:
    """The WebSocket address of a page's URL (http → ws), with the lockstep mark if asked for."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    try:
        parts.port  # a port that is no number, or out of range: ValueError
        fine = parts.scheme in ("http", "https", "ws", "wss") and bool(HOST_NAME.fullmatch(parts.hostname or ""))
    except ValueError:
        fine = False
    if not fine:
        raise ConnectError(
            f"{url!r} is no zxcards address: give one like http://127.0.0.1:8048/patience, as "
            "`zxcards serve` prints it, with a program and its options"
        )
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    query = "&".join(part for part in (parts.query, LOCKSTEP if lockstep else "") if part)
    return urlunsplit((scheme, parts.netloc, parts.path or "/", query, ""))


def terminal_secret() -> str | None:
    """This computer's secret as a terminal (made the first time, readable by its user only): a
    server keeps the accounts made from here under its hash. None, and one line said, when the data
    folder can't hold it."""
    try:
        path = default_folder() / SECRET_FILE
        if path.is_file() and SECRET.fullmatch(secret := path.read_text().strip()):
            return secret
        path.parent.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_hex(16)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secret + "\n")
        return secret
    except (OSError, DataUnusable) as error:
        print(f"zxcards connect: no secret kept ({error}): accounts can't be played", file=sys.stderr)
        return None


def run(url: str, frontend, *, headless: bool) -> Terminal:
    """Be the terminal of the session at `url` until it ends or the front end stops (Quit, or the
    script used up); the terminal as it was last, for a screenshot. ConnectError when the session
    can't be had."""
    address = socket_address(url, lockstep=headless)
    terminal = Terminal(frontend)
    secret = terminal_secret()
    cookie = {"Cookie": f"{SECRET_COOKIE}={secret}"} if secret else None
    try:
        with connect(address, max_size=None, open_timeout=10, additional_headers=cookie) as socket:
            if headless:
                _in_lockstep(socket, terminal, frontend)
            else:
                _in_real_time(socket, terminal, frontend, at_a_table="table=" in urlsplit(url).query)
    except InvalidHandshake as refusal:
        response = getattr(refusal, "response", None)
        said = f"{response.status_code} {response.reason_phrase}" if response is not None else str(refusal)
        reason = _refusal_reason(response)
        raise ConnectError(f"{url} refused the connection: {said}{f': {reason}' if reason else ''}") from None
    except (OSError, InvalidURI, TimeoutError) as error:
        raise ConnectError(f"cannot reach {url}: {unreachable(error)}") from None
    return terminal


def unreachable(error: Exception) -> str:
    """Why an address could not be reached, in a player's words rather than an errno's."""
    if isinstance(error, ConnectionRefusedError):
        return "nothing answers there: is `zxcards serve` running, on that port?"
    if isinstance(error, socket.gaierror):
        return f"no computer of that name is known ({error.strerror or error})"
    if isinstance(error, TimeoutError):
        return "no answer in 10 s"
    return getattr(error, "strerror", None) or str(error)


def _refusal_reason(response) -> str:
    """What a refusal page says (`serve.message_page`: why, in its first paragraph), on one line."""
    found = re.search(rb"<p>(.*?)</p>", bytes(response.body or b"")) if response is not None else None
    return " ".join(html.unescape(found[1].decode("utf-8", "replace")).split()) if found else ""


def _in_lockstep(socket, terminal: Terminal, frontend) -> None:
    try:
        for message in socket:
            if not terminal.receive(message):
                continue
            _play(terminal, frontend, terminal.samples())
            try:
                frontend.present(terminal)
            except Leave:
                socket.send(json.dumps({"leave": True}))
                continue
            _send_taps(socket, terminal)
            socket.send(json.dumps({"frame": terminal.frame_count, "held": sorted(terminal.keys_held)}))
    except ScriptExhausted:
        pass
    except ConnectionClosed:
        pass
    _play(terminal, frontend, terminal.rest_of_the_sound())


def _in_real_time(socket, terminal: Terminal, frontend, at_a_table: bool = False) -> None:
    """The window presents at its own 50 Hz what has come by then; a thread takes the messages in.
    At a table, a line typed into the window's strip (F2) is said to the table."""
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    closed = object()

    def take_in() -> None:
        try:
            for message in socket:
                inbox.put(message)
        except ConnectionClosed:
            pass
        inbox.put(closed)

    threading.Thread(target=take_in, name="zxcards connect", daemon=True).start()
    held, said, said_until = None, "", 0.0
    frontend.line_wanted = at_a_table
    while True:
        while not inbox.empty():
            message = inbox.get()
            if message is closed:
                return
            if heard := heard_line(message):
                said, said_until = heard, time.monotonic() + SAID_SECONDS
            terminal.receive(message)
        _play(terminal, frontend, terminal.samples())
        frontend.status = said if time.monotonic() < said_until else terminal.status
        try:
            frontend.present(terminal)
        except Leave:
            socket.send(json.dumps({"leave": True}))
            continue
        except Quit:
            return
        _send_taps(socket, terminal)
        if terminal.keys_held != held:
            held = set(terminal.keys_held)
            socket.send(json.dumps({"held": sorted(held)}))
        for line in _lines_typed(frontend):
            socket.send(json.dumps({"say": line}))


def _lines_typed(frontend) -> list[str]:
    """The lines typed into the window's strip since the last frame (a front end without: none)."""
    lines = getattr(frontend, "lines", None)
    if not lines:
        return []
    taken = list(lines)
    lines.clear()
    return taken


SAID_SECONDS = 8.0  # a word to the table stays in the window's status line this long


def heard_line(message) -> str:
    """A word to the table (`games.host.talk`) as the window's status line shows it, "Anna: good
    game", printable characters only; "" for any other message."""
    if not isinstance(message, str) or '"said"' not in message:
        return ""
    try:
        said = json.loads(message).get("said")
    except (ValueError, AttributeError, RecursionError):
        return ""
    if not isinstance(said, dict) or not all(isinstance(said.get(key), str) for key in ("who", "text")):
        return ""
    return "".join(char for char in f"{said['who']}: {said['text']}" if char.isprintable())[:120]


def _send_taps(socket, terminal: Terminal) -> None:
    """The window's taps and drags on the served screen, for the server to type."""
    for message in terminal.outbox:
        socket.send(json.dumps(message))
    terminal.outbox.clear()


def _play(terminal: Terminal, frontend, samples) -> None:
    if samples.any():
        frontend.play(terminal, samples)
