"""`zxcards serve` and `zxcards connect`: paths name programs and nothing else; a headless terminal
on a served Spectrum records exactly what a local headless run does; a terminal's faults (bad
messages, floods, other sites, too many of them, one that never reads or stops answering) end
only its own session, never the server or another session; and the command lines say what
they do in one line.

The server is the real one on a free loopback port (`served.running_server`); the terminals
are the `websockets` library's clients."""

from __future__ import annotations

import asyncio
import http.client
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path

import numpy as np
import pytest
from served import running_server
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.asyncio.client import connect as asyncio_connect
from websockets.sync.client import connect

from games.host import cli, load, serve
from games.host.serve import RequestRefused, Target, target_of
from spectrum import hardware, render, wire
from spectrum.frontends import served as served_frontend

ROOT = Path(__file__).resolve().parent.parent
SCREEN = slice(hardware.DISPLAY_FILE, hardware.ATTRIBUTES_END)
PATIENCE = 30.0  # seconds to wait for what must come: the machine is shared and noisy


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """zxcards connect keeps its secret, and the server its players' data, in a folder of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def socket_url(base: str, path: str = "") -> str:
    return base.replace("http://", "ws://", 1) + path


def wait_for(condition, seconds: float = PATIENCE, what: str = "the condition") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come within {seconds:g} s")
        time.sleep(0.02)


# --- paths and queries: programs and their options, and nothing else -----------------------------


def command_line_options(argv: list[str]) -> dict:
    """A program's options as `zxcards PROGRAM ...` parses them."""
    args = vars(cli.command_line().parse_args(argv))
    return {name: value for name, value in args.items() if name not in (*cli.COMMON_OPTIONS, "program")}


@pytest.mark.parametrize(
    "path, argv",
    [
        ("/patience?seed=5", ["patience", "--seed", "5"]),
        ("/patience?rom&seed=1", ["patience", "--rom", "--seed", "1"]),
        ("/patience?rom&fast&seed=1", ["patience", "--rom", "--fast", "--seed", "1"]),  # typed in, not from its tape
        ("/spades?level=solver", ["spades", "--level", "solver"]),
        ("/canfield?practice", ["canfield", "--practice"]),
        ("/canfield?practice&deal=7", ["canfield", "--practice", "--deal", "7"]),
        ("/testcard", ["testcard"]),
    ],
)
def test_a_path_names_a_program_and_its_query_the_options_the_command_line_gives(path, argv):
    assert target_of(path) == Target(argv[0], command_line_options(argv), lockstep=False)
    assert target_of(path + ("&" if "?" in path else "?") + serve.LOCKSTEP).lockstep


def test_the_root_is_the_menu():
    assert target_of("/") == Target(None, {}, lockstep=False)
    table = target_of("/spades?table=K1&full&name=Anna")
    assert table.options["full_rules"] and table.table == {
        "code": "K1",
        "name": "Anna",
        "watch": False,
        "private": False,
    }
    assert target_of("/spades?table=K1&full&blind-nil").options["blind_nil"]
    assert target_of("/?lockstep") == Target(None, {}, lockstep=True)


@pytest.mark.parametrize(
    "path, said",
    [
        ("/nosuch", "there is no program 'nosuch'"),
        ("/Patience", "there is no program"),
        ("/patience/../canfield", "there is no program"),
        ("/?seed=5", "the menu takes no options"),
        ("/patience?seed=0", "11-Up Patience can't start with seed=0: a seed is a whole number 1-65535"),
        ("/patience?seed=five", "1-65535"),
        ("/patience?seed", "11-Up Patience can't start with seed: seed needs a value"),
        ("/spades?level=godlike", "Spades can't start with level=godlike: level is one of random, rules"),
        ("/canfield?deal=0", "Canfield can't start with deal=0: deals are numbered 1 to 65535"),
        ("/patience?colour=red", "11-Up Patience has no option 'colour'"),
        ("/patience?help", "has no option 'help'"),
        ("/patience?SEED=5", "takes no option 'SEED'"),
        ("/patience?compare", "takes no option 'compare' on a server"),
        ("/canfield?data-dir=/tmp", "takes no option 'data-dir' on a server"),
        ("/spades?data-dir=/tmp&full", "takes no option 'data-dir' on a server"),
        ("/spades?table=K1&blind-nil", "blind nil is a bid of the full game: add full"),
        ("/spades?table=K-1", "a table's code is 1 to 12 letters and digits"),
    ],
)
def test_what_names_no_program_or_no_option_it_takes_is_refused_in_one_line(path, said):
    with pytest.raises(RequestRefused) as refusal:
        target_of(path)
    assert said in str(refusal.value) and "\n" not in str(refusal.value)
    assert "argument" not in str(refusal.value) and "--" not in str(
        refusal.value
    )  # a page's words, not a command line's


def test_a_refused_option_is_said_as_a_page_says_it_with_the_way_back_to_the_menu(server):
    base, _ = server
    response = get(base, "/patience?seed=99999")
    body = response.body.decode()
    assert response.status == 400 and "<h1>Can't start</h1>" in body
    assert "11-Up Patience can&#x27;t start with seed=99999: a seed is a whole number 1-65535</p>" in body
    assert '<a href="/">The menu</a>' in body and "argument" not in body and "Not here" not in body


@pytest.fixture(scope="module")
def server():
    with running_server() as running:
        yield running


def get(base: str, path: str) -> http.client.HTTPResponse:
    """GET `path` exactly as written (no client tidies it first); the response, read."""
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
    connection.request("GET", path)
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


@pytest.mark.parametrize(
    "path",
    [
        "/../etc/passwd",
        "/%2e%2e/",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/page/../serve.py",
        "//etc/passwd",
        "/page/zxcards.js",
        "/serve.py",
        "/games/serve.py",
        "/zxcards.js/../serve.py",
        "/..%2fserve.py",
        "/index.html",
        "/page/index.html",
        "/%00",
        "/patience/../../serve.py",
    ],
)
def test_a_path_that_names_a_file_gets_a_refusal_page_never_the_file(server, path):
    base, _ = server
    response = get(base, path)
    assert response.status in (404, 400)
    assert response.getheader("Content-Type") == "text/html; charset=utf-8"
    body = response.body.decode()
    assert "<h1>Not here</h1>" in body and '<a href="/">The menu</a>' in body
    for sign_of_a_file in ("root:", "import ", "{{config}}", "websockets", "function"):
        assert sign_of_a_file not in body


def test_a_refusal_page_escapes_what_the_path_said(server):
    base, _ = server
    response = get(base, "/<script>alert(1)</script>")
    assert response.status == 404
    assert b"<script>" not in response.body and b"&lt;script&gt;" in response.body


@pytest.mark.parametrize(
    "path, content_type",
    [("/zxcards.js", "text/javascript"), ("/zxcards-sound.js", "text/javascript"), ("/zxcards.css", "text/css")],
)
def test_the_page_files_are_served_with_their_content_types(server, path, content_type):
    base, _ = server
    response = get(base, path)
    assert response.status == 200 and response.getheader("Content-Type") == content_type
    assert response.body == (ROOT / "games" / "host" / "page" / path.lstrip("/")).read_bytes()
    assert response.getheader("X-Content-Type-Options") == "nosniff"


@pytest.mark.parametrize(
    "path, title",
    [("/", "ZX Cards"), ("/patience?seed=5", load("patience").TITLE), ("/canfield?practice", load("canfield").TITLE)],
)
def test_a_program_has_a_page_with_its_title_and_the_pictures_geometry(server, path, title):
    base, _ = server
    response = get(base, path)
    assert response.status == 200 and response.getheader("Content-Type") == "text/html; charset=utf-8"
    assert "script-src 'self'" in response.getheader("Content-Security-Policy")
    body = response.body.decode()
    assert f"<title>{title}</title>" in body and "{{" not in body
    config = json.loads(re.search(r'<script id="config" type="application/json">(.*?)</script>', body, re.S)[1])
    assert (config["width"], config["height"], config["title"]) == (render.FRAME_WIDTH, render.FRAME_HEIGHT, title)
    assert config["palette"] == render.PALETTE.tolist()


def test_a_bad_option_gets_a_400_page_that_says_why(server):
    base, _ = server
    response = get(base, "/patience?seed=0")
    assert response.status == 400 and b"1-65535" in response.body


# --- a headless terminal records what a local headless run does ---------------------------------


def headless_outputs(argv: list[str], keys: str, folder: Path, screenshot: str) -> tuple[int, bytes, bytes]:
    """(exit status, screenshot, WAV) of `zxcards ARGV --headless --keys KEYS`, in this process."""
    folder.mkdir()
    shot, wav = folder / f"shot{screenshot}", folder / "sound.wav"
    status = cli.main([*argv, "--headless", "--keys", keys, "--screenshot", str(shot), "--wav", str(wav)])
    return status, shot.read_bytes(), wav.read_bytes()


CASES = [  # the path, the same program's command line, a key script, the screenshot's kind
    ("patience?seed=5", ["patience", "--seed", "5"], "14{ENTER}", ".png"),
    ("patience?seed=5", ["patience", "--seed", "5"], "9{ENTER}14{ENTER}{ESC}", ".scr"),
    ("patience?seed=5", ["patience", "--seed", "5"], "23{ENTER}0{ENTER}", ".png"),
    ("", [], "4x{ESC}", ".png"),
    ("", [], "4{ESC}4", ".scr"),
    # the search's verdict in the title bar comes when the search ends, a race in either run: the
    # last frames wait for it (deal 7's positions are each solved in milliseconds)
    ("canfield?practice&deal=7", ["canfield", "--practice", "--deal", "7"], "p{@1500}{ESC}", ".png"),
    ("canfield?deal=7", ["canfield", "--deal", "7"], "pu{@1500}{ESC}", ".scr"),
    ("spades?seed=3", ["spades", "--seed", "3"], "{RIGHT}{RIGHT}{RIGHT}{ENTER}kh", ".png"),
    ("testcard", ["testcard"], "x", ".scr"),
    # taps, read by the terminal against the targets the server sends, and typed as keys
    ("patience?seed=5", ["patience", "--seed", "5"], "{tap deal}{tap 4}{tap 1}{tap 3}{tap 21,24}", ".scr"),
    (
        "canfield?practice&deal=7",
        ["canfield", "--practice", "--deal", "7"],
        "{tap pack}{drag pile1 pile2}{@1500}{ESC}",
        ".png",
    ),
]


@pytest.mark.parametrize(
    "path, argv, keys, screenshot", CASES, ids=[f"/{path} {keys} {kind}" for path, _, keys, kind in CASES]
)
def test_connect_headless_records_byte_for_byte_what_a_local_run_does(server, tmp_path, path, argv, keys, screenshot):
    base, _ = server
    local = headless_outputs(argv, keys, tmp_path / "local", screenshot)
    remote = headless_outputs(["connect", base + path], keys, tmp_path / "remote", screenshot)
    assert len(local[2]) > 44  # some sound was made: the comparison compares something
    assert remote[0] == local[0]
    assert remote[1] == local[1], "the screenshots differ"
    assert remote[2] == local[2], "the WAVs differ"


def test_a_served_game_at_home_has_its_computers_searches_worked_out_by_the_workers(server, tmp_path, monkeypatch):
    """Spades at home against mcts computers, served: every search is worked out in the server's
    worker processes (a search on the sessions' thread would hold up every other session's frames
    for as long as it took), and the game is the one a local run plays, byte for byte."""
    from games.spades.players import mcts

    base, running = server
    argv, keys = ["spades", "--seed", "3", "--level", "mcts"], "{RIGHT}{RIGHT}{RIGHT}{ENTER}kh"
    local = headless_outputs(argv, keys, tmp_path / "local", ".scr")
    searched_here, submitted = [], []
    choose, submit = mcts.SearchPlayer.choose, running.thinker.submit
    monkeypatch.setattr(mcts.SearchPlayer, "choose", lambda *arguments: searched_here.append(1) or choose(*arguments))
    monkeypatch.setattr(running.thinker, "submit", lambda *arguments: submitted.append(1) or submit(*arguments))
    remote = headless_outputs(["connect", base + "spades?seed=3&level=mcts"], keys, tmp_path / "remote", ".scr")
    assert submitted and not searched_here
    assert remote == local


def wav_samples(data: bytes) -> np.ndarray:
    with wave.open(io.BytesIO(data)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 44100)
        return np.frombuffer(wav.readframes(wav.getnframes()), "<i2")


def sounds(samples: np.ndarray, gap: int = 3) -> np.ndarray:
    """(first, last) sample of each sound: nonzero samples, parted by more than `gap` silent ones."""
    sounding = np.flatnonzero(samples)
    breaks = np.flatnonzero(np.diff(sounding) > gap)
    return np.stack([np.r_[sounding[:1], sounding[breaks + 1]], np.r_[sounding[breaks], sounding[-1:]]], 1)


@pytest.mark.rom
@pytest.mark.parametrize("keys", ["14{ENTER}", "9{ENTER}{ESC}"])
def test_the_listing_on_the_rom_served_shows_the_same_screen_and_sounds_at_the_same_samples(server, tmp_path, keys):
    """The ROM's speaker edges are sent as T-states and the terminal samples them on the frames'
    grid, the grid of the ROM's own recording: the same samples (the one that ends sooner ends in
    the other's silence), the same screens."""
    base, _ = server
    argv = ["patience", "--rom", "--seed", "1"]
    local = headless_outputs(argv, keys, tmp_path / "local", ".scr")
    remote = headless_outputs(["connect", base + "patience?rom&seed=1"], keys, tmp_path / "remote", ".scr")
    assert remote[0] == local[0] and remote[1] == local[1]
    here, there = wav_samples(local[2]), wav_samples(remote[2])
    assert len(sounds(here)) > 100
    shorter = min(len(here), len(there))
    assert (here[:shorter] == there[:shorter]).all() and not here[shorter:].any() and not there[shorter:].any()


# --- faults: each ends only its own session -----------------------------------------------------


class Bystander:
    """A browser tab at the menu, paced, open through another terminal's fault."""

    def __init__(self, base: str):
        self.socket = connect(socket_url(base), max_size=None, open_timeout=PATIENCE, legacy=True)
        self.terminal = wire.Terminal()
        self.frames = 0
        self.take_until(lambda: self.frames, "the menu's first frame")
        self.menu = self.screen()

    def screen(self) -> bytes:
        return self.terminal.memory[SCREEN].tobytes()

    def take_until(self, condition, what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not condition():
            message = self.socket.recv(timeout=max(0.01, deadline - time.monotonic()))
            self.frames += self.terminal.receive(message)

    def still_plays(self) -> None:
        """It gets frames and answers keys: 4 at the menu starts the test card, which plays."""
        assert self.terminal.ended is None
        self.socket.send(json.dumps({"held": ["4"]}))
        self.socket.send(json.dumps({"held": []}))
        self.take_until(lambda: self.screen() != self.menu, "the test card")
        frames = self.frames
        self.take_until(lambda: self.frames >= frames + 3, "the test card's frames")

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def fresh_server():
    """A server of its own, with a bystander at its menu; afterwards the bystander must still
    play, the server still serve its page, and every session must end once its terminal has
    gone."""
    with running_server() as (base, server):
        bystander = Bystander(base)
        yield base, server
        bystander.still_plays()
        assert get(base, "/").status == 200
        bystander.close()
        wait_for(lambda: not server.sessions, what="every session's end")


def messages_until_closed(terminal) -> tuple[list, ConnectionClosed]:
    """Everything received until the server closes the connection, and how it closed it."""
    received = []
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            received.append(terminal.recv(timeout=max(0.01, deadline - time.monotonic())))
        except ConnectionClosed as closed:
            return received, closed


def errors_answering(terminal, text: str | bytes) -> str:
    """The error the server answers `text` with."""
    terminal.send(text)
    deadline = time.monotonic() + PATIENCE
    while True:
        message = terminal.recv(timeout=max(0.01, deadline - time.monotonic()))
        if isinstance(message, str) and "error" in json.loads(message):
            return json.loads(message)["error"]


@pytest.mark.parametrize(
    "text, said",
    [
        ("{not json", "not JSON"),
        ("", "not JSON"),
        ("[" * 600 + "]" * 400, "not JSON"),
        ("[1, 2]", 'a message is {"held": [keys]}'),
        ("{}", 'a message is {"held": [keys]}'),
        ('{"held": [], "press": "a"}', 'a message is {"held": [keys]}'),
        ('{"held": "a"}', '"held" is a list of key names'),
        ('{"held": [1]}', '"held" is a list of key names'),
        ('{"leave": 1}', '"leave" is true or false'),
        ('{"frame": -1, "held": []}', '"frame" is a frame number'),
        ('{"frame": 1.5, "held": []}', '"frame" is a frame number'),
        ('{"held": ["F1"]}', "no Spectrum key 'F1'"),
        ('{"held": ["a", "ESC"]}', "no Spectrum key 'ESC'"),
        (b'{"held": []}', "a terminal sends text (JSON), not binary"),
    ],
)
def test_a_message_that_is_no_terminals_is_answered_with_an_error_and_play_goes_on(fresh_server, text, said):
    base, server = fresh_server
    before = server.refused
    with connect(socket_url(base), max_size=None) as terminal:
        assert said in errors_answering(terminal, text)
        assert server.refused == before + 1
        terminal.send(json.dumps({"leave": True}))  # the session still takes what it is sent: Esc at the menu
        received, closed = messages_until_closed(terminal)
        assert json.loads(received[-1])["end"].startswith("zxcards has ended") and closed.rcvd.code == 1000


def test_a_terminal_that_keeps_sending_what_is_refused_is_closed(fresh_server):
    base, _ = fresh_server
    with connect(socket_url(base), max_size=None) as terminal:
        for _ in range(serve.ERRORS_ALLOWED + 5):
            try:
                terminal.send('{"held": ["nosuch"]}')
            except ConnectionClosed:
                break
        received, closed = messages_until_closed(terminal)
    assert closed.rcvd.code == 1008 and closed.rcvd.reason == "too many messages refused"
    assert sum(isinstance(message, str) and "error" in message for message in received) == serve.ERRORS_ALLOWED


def test_a_message_over_1024_bytes_closes_the_connection_with_1009(fresh_server):
    base, _ = fresh_server
    with connect(socket_url(base, "patience?seed=5"), max_size=None) as terminal:
        terminal.send(json.dumps({"held": ["a"] * 300}))  # 1,500 characters of good JSON
        _, closed = messages_until_closed(terminal)
    assert closed.rcvd.code == 1009


def test_a_flood_of_messages_closes_the_connection_with_1008(fresh_server):
    """And the session ends as the close is answered: the flood still unread on the server's side
    is read and dropped, or the terminal's answer would wait behind it for websockets' 10 s close
    timeout, the session's place among max_sessions taken all that while."""
    base, server = fresh_server
    before = set(server.sessions)
    with connect(socket_url(base), max_size=None) as terminal:
        wait_for(lambda: len(server.sessions - before) == 1, what="the session")
        (session,) = server.sessions - before
        flooded = time.monotonic()
        try:
            for number in range(5000):
                terminal.send(json.dumps({"held": ["a"] if number % 2 else []}))
        except ConnectionClosed:
            pass
        _, closed = messages_until_closed(terminal)
    assert closed.rcvd.code == 1008 and closed.rcvd.reason == "too many messages"
    wait_for(
        lambda: session not in server.sessions,
        seconds=5 - (time.monotonic() - flooded),
        what="the flooding session's end, 5 s from the flood's start,",
    )


def test_a_person_s_pace_of_messages_is_never_a_flood(fresh_server):
    base, _ = fresh_server
    with connect(socket_url(base), max_size=None) as terminal:
        for _ in range(serve.MESSAGE_BURST // 2):  # a burst, as keys mashed
            terminal.send('{"held": []}')
        terminal.send('{"leave": true}')
        received, closed = messages_until_closed(terminal)
    assert closed.rcvd.code == 1000 and json.loads(received[-1])["end"].startswith("zxcards has ended")


def test_a_page_from_another_site_may_not_open_a_session(fresh_server):
    base, server = fresh_server
    before = server.refused
    for origin in ("http://evil.example", "null", base.replace("127.0.0.1", "localhost").rstrip("/")):
        with pytest.raises(InvalidStatus) as refusal:
            connect(socket_url(base, "patience?seed=5"), origin=origin, open_timeout=PATIENCE)
        assert refusal.value.response.status_code == 403
        assert b"a page from another site may not play here" in refusal.value.response.body
    assert server.refused == before + 3 and len(server.sessions) == 1
    with connect(socket_url(base, "testcard"), origin=base.rstrip("/"), open_timeout=PATIENCE) as own_page:
        assert own_page.recv(timeout=PATIENCE)


def test_a_full_server_refuses_more_sessions_and_says_so():
    with running_server(max_sessions=2) as (base, server):
        first, second = Bystander(base), Bystander(base)
        page = get(base, "/patience?seed=5")
        assert page.status == 503
        assert b"All 2 Spectrums of this server are in use. Try again in a while." in page.body
        with pytest.raises(InvalidStatus) as refusal:
            connect(socket_url(base, "testcard"), open_timeout=PATIENCE)
        assert refusal.value.response.status_code == 503 and server.refused == 2
        assert get(base, "/zxcards.js").status == 200  # the page's files are no sessions
        first.still_plays()
        second.close()
        wait_for(lambda: len(server.sessions) == 1, what="the closed session's end")
        third = Bystander(base)  # a place freed is taken
        third.still_plays()
        first.close(), third.close()
        wait_for(lambda: not server.sessions, what="every session's end")


@pytest.fixture
def full_pipe_to_patience(monkeypatch):
    """Sending to a Patience session's terminal never drains until its connection is lost: as a
    terminal's that never reads, once the buffers between are full (megabytes on loopback, which
    Patience's frames take minutes to fill; the socket's buffer is said to hold a message already,
    so that none is written at once); and the backlog that drops it is 50 messages, not 500."""
    monkeypatch.setattr(serve, "BACKLOG_FRAMES", 50)
    play = serve.Server.play

    async def play_with_full_pipe(self, connection):
        if connection.request.path.startswith("/patience"):
            send = connection.send

            async def send_once_closed(message):
                await connection.wait_closed()
                await send(message)  # ConnectionClosed, as a send waiting on the lost connection

            connection.send = send_once_closed
            connection.transport.get_write_buffer_size = lambda: 1
        await play(self, connection)

    monkeypatch.setattr(serve.Server, "play", play_with_full_pipe)


def test_a_terminal_that_never_reads_is_let_go_and_its_session_ends(full_pipe_to_patience, fresh_server):
    """Patience's shuffle shown (a frame most frames) to a terminal that reads nothing: it falls
    behind, its session ends, and its connection goes with it at once, not left to websockets'
    keepalive (20-50 s on), holding a place among max_sessions all that while."""
    base, server = fresh_server
    before = set(server.sessions)

    async def deaf_terminal() -> None:
        async with asyncio_connect(socket_url(base, "patience?seed=5"), max_size=None) as deaf:
            deaf.transport.pause_reading()  # and never reads again
            await asyncio.to_thread(wait_for, lambda: len(server.sessions) == 2, what="the session")
            (session,) = set(server.sessions) - before
            await asyncio.to_thread(wait_for, lambda: session.task is not None, what="the session's task")
            await asyncio.to_thread(session.join, PATIENCE)
            assert not session.is_alive(), "the deaf terminal's session goes on"
            await asyncio.to_thread(wait_for, lambda: session not in server.sessions, 5, "the deaf terminal let go")
            deaf.transport.resume_reading()
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(deaf.recv(), PATIENCE)

    asyncio.run(deaf_terminal())


def test_closing_the_connection_ends_the_session_and_its_thread(fresh_server):
    base, server = fresh_server
    before = set(server.sessions)
    for path in ("patience?seed=5", "patience?rom&seed=1", "spades?seed=3", "canfield?practice&deal=28"):
        terminal = connect(socket_url(base, path), max_size=None, legacy=True)
        terminal.recv(timeout=PATIENCE)
        (session,) = set(server.sessions) - before
        assert session.is_alive()
        terminal.close()
        wait_for(lambda: session not in server.sessions, what=f"the end of /{path}'s session")
        assert not session.is_alive()
    assert server.sessions == before


def test_a_lockstep_terminal_that_stops_answering_is_given_up_on(fresh_server, monkeypatch):
    monkeypatch.setattr(served_frontend, "LOCKSTEP_PATIENCE", 0.5)
    base, server = fresh_server
    with connect(socket_url(base, "patience?seed=5&lockstep"), max_size=None) as terminal:
        first = terminal.recv(timeout=PATIENCE)
        while isinstance(first, str):
            first = terminal.recv(timeout=PATIENCE)
        (session,) = (session for session in server.sessions if session.frontend.lockstep)
        for number in range(3):  # answered for a few frames, then no more
            terminal.send(json.dumps({"frame": number, "held": []}))
        received, closed = messages_until_closed(terminal)
    assert "end" in json.loads(received[-1]) and closed.rcvd.code == 1000
    wait_for(lambda: session not in server.sessions, what="the session's end")
    assert not session.is_alive()


def test_messages_made_ahead_go_at_their_times_and_in_the_order_they_were_made():
    from spectrum.frontends.hub import LoopHub

    hub, went = LoopHub(), []

    async def posting() -> None:
        hub.loop = asyncio.get_running_loop()
        timed = serve.Timed(hub, lambda message: went.append((message, hub.clock())))
        now = hub.clock()
        timed.post("at once", None)
        timed.post("past", now - 1)
        assert [message for message, _ in went] == ["at once", "past"]  # nothing held: gone already
        timed.post("frame 1", now + 0.04)
        timed.post("its news", None)  # after the frame it came with
        timed.post("frame 2", now + 0.02)  # made after frame 1: never before it
        timed.post("frame 3", now + 0.06)
        assert len(went) == 2
        await asyncio.sleep(0.15)
        times = dict(went)
        assert times["frame 1"] >= now + 0.04 and times["frame 3"] >= now + 0.06
        assert not timed.held

    asyncio.run(posting())
    assert [message for message, _ in went] == ["at once", "past", "frame 1", "its news", "frame 2", "frame 3"]


def test_a_lockstep_terminal_gets_every_frame_and_waits_for_nothing_else(fresh_server):
    base, _ = fresh_server
    terminal = wire.Terminal()
    with connect(socket_url(base, "testcard?lockstep"), max_size=None) as socket_:
        frames = []
        while len(frames) < 100:
            message = socket_.recv(timeout=PATIENCE)
            if terminal.receive(message):
                frames.append(terminal.frame_count)
                socket_.send(json.dumps({"frame": terminal.frame_count, "held": []}))
    assert np.all(np.diff(frames) == 1)


def test_a_server_stopped_under_a_live_session_raises_nothing_in_the_session(monkeypatch):
    raised = []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    end, ending = served_frontend.ServedFrontend.end, threading.Event()

    def late_end(self, machine, reason, status=0):
        ending.set()
        time.sleep(1)  # the server stops meanwhile, its loop closed when the session says its end
        end(self, machine, reason, status)

    monkeypatch.setattr(served_frontend.ServedFrontend, "end", late_end)
    with running_server() as (base, server):
        with connect(socket_url(base, "patience?seed=5"), max_size=None) as terminal:
            terminal.recv(timeout=PATIENCE)
            (session,) = server.sessions
        assert ending.wait(PATIENCE)  # the terminal gone, the server waits for the session to end: it stops
    session.join(PATIENCE)  # its last frame, and its end, sent to a loop that has closed
    assert not session.is_alive() and not raised


# --- Canfield's search ends with its session ----------------------------------------------------


def solver_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "canfield solver"]


def test_canfield_practice_s_search_ends_when_its_session_does(fresh_server):
    """Deal 28's first position takes the search its whole budget (about a second): the search is
    under way when the terminal goes, and the thread ends once that bounded search is done."""
    base, server = fresh_server
    wait_for(lambda: not solver_threads(), what="the end of searches before this test")
    with connect(socket_url(base, "canfield?practice&deal=28"), max_size=None) as terminal:
        terminal.recv(timeout=PATIENCE)
        wait_for(solver_threads, what="the search")
    wait_for(lambda: len(server.sessions) == 1, what="the session's end")
    wait_for(lambda: not solver_threads(), seconds=60, what="the search thread's end")


# --- the command lines --------------------------------------------------------------------------


def environment() -> dict:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}


def first_line_of_serve(*options: str) -> tuple[str, str]:
    """The first line `python -m games.host.cli serve OPTIONS` prints, and all it says on stderr until
    it is stopped then; the page at that address is fetched first."""
    process = subprocess.Popen(
        [sys.executable, "-m", "games.host.cli", "serve", *options],
        cwd=ROOT,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        timer = threading.Timer(PATIENCE, process.kill)
        timer.start()
        line = process.stdout.readline()
        timer.cancel()
        address = re.fullmatch(r"http://[\d.]+:(\d+)/\n", line)
        if address:
            assert get(f"http://127.0.0.1:{address[1]}/", "/").status == 200
    finally:
        process.terminate()
        _, err = process.communicate(timeout=PATIENCE)
    return line, err


def test_serve_prints_its_address_first():
    line, err = first_line_of_serve("--port", "0")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\n", line) and not err


def test_serve_on_every_network_warns_on_stderr():
    line, err = first_line_of_serve("--host", "0.0.0.0", "--port", "0")
    assert re.fullmatch(r"http://0\.0\.0\.0:\d+/\n", line)
    assert err.startswith("zxcards serve: listening on every network this computer is on: anyone who can reach it")
    assert err.count("\n") == 1


@pytest.mark.parametrize("port", ["70000", "-1", "eighty", ""])
def test_serve_refuses_a_bad_port_in_one_line(capsys, port):
    assert cli.main(["serve", "--port", port]) == 2
    out, err = capsys.readouterr()
    assert not out and err.startswith("zxcards serve: argument --port: a port is a whole number 0-65535")
    assert err.count("\n") == 1


def test_serve_says_in_one_line_when_its_port_is_taken(capsys, server):
    base, _ = server
    port = base.rstrip("/").rpartition(":")[2]
    assert cli.main(["serve", "--port", port]) == 1
    out, err = capsys.readouterr()
    assert not out and err.startswith(f"zxcards serve: cannot listen on 127.0.0.1:{port}: ") and err.count("\n") == 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_connect_to_a_closed_port_says_so_in_one_line(capsys):
    url = f"http://127.0.0.1:{free_port()}/patience?seed=5"
    assert cli.main(["connect", url, "--headless"]) == 1
    out, err = capsys.readouterr()
    assert not out and err.startswith(f"zxcards connect: cannot reach {url}: ") and err.count("\n") == 1


@pytest.mark.parametrize("path, said", [("nosuch", "there is no program 'nosuch'"), ("patience?seed=0", "1-65535")])
def test_connect_to_a_path_that_names_no_program_is_refused_in_one_line(capsys, server, path, said):
    base, _ = server
    assert cli.main(["connect", base + path, "--headless"]) == 1
    out, err = capsys.readouterr()
    assert not out and err.startswith(f"zxcards connect: {base + path} refused the connection: ")
    assert said in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/patience", "not a url", "http://127.0.0.1:port/", "http://:8048/", "http://exa mple.com/"]
)
def test_connect_to_what_is_no_address_says_so_in_one_line(capsys, url):
    assert cli.main(["connect", url, "--headless"]) == 1
    out, err = capsys.readouterr()
    assert not out and "is no zxcards address: give one like http://127.0.0.1:8048/patience" in err
    assert err.count("\n") == 1


def test_bench_serve_answers_help(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    import bench_serve

    with pytest.raises(SystemExit) as done:
        bench_serve.main(["--help"])
    out, err = capsys.readouterr()
    assert done.value.code == 0 and out.startswith("usage: bench_serve ") and not err


@pytest.mark.parametrize(
    "given, seated",
    [
        ("Zo%C3%AB", "Zoe"),
        ("%C5%81ukasz", "Lukasz"),
        ("Ren%C3%A9e%20O", "Renee O"),
        ("Zoe%CC%88", "Zoe"),
        ("Anna", "Anna"),
    ],
)
def test_a_name_at_a_table_has_its_accents_taken_off_before_the_table_sees_it(given, seated):
    assert target_of(f"/spades?table=K7Q2&name={given}").table["name"] == seated


def test_a_name_with_no_plain_letters_is_refused_saying_what_a_name_is():
    with pytest.raises(RequestRefused, match=r"1 to 10 of A-Z.*Zoë is Zoe"):
        target_of("/spades?table=K7Q2&name=%E6%9D%8E")


def test_a_refusal_page_is_as_wide_as_a_phone(server):
    base, _ = server
    body = get(base, "/patience?seed=0").body.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in body


def test_connect_to_an_address_where_nothing_answers_says_so_in_words(capsys):
    import socket

    with socket.socket() as probe:  # a port nothing listens on, once this is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert cli.main(["connect", f"http://127.0.0.1:{port}/patience", "--headless"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"zxcards connect: cannot reach http://127.0.0.1:{port}/patience: nothing answers there: is "
        "`zxcards serve` running, on that port?\n"
    )


def test_a_program_that_thinks_is_given_the_servers_worker_processes(tmp_path):
    """Canfield's searches (it says it thinks) go to the server's workers; Patience's run gets none."""
    server = serve.Server(data_dir=tmp_path)
    session = serve.Session(server, target_of("/canfield?practice"), None, None, lambda: None)
    assert session.program_options(load("canfield"), {"practice": True})["thinker"] is server.thinker
    assert "thinker" not in session.program_options(load("patience"), {})


def finder_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "canfield deal finder"]


def test_canfield_s_winnable_deals_finder_ends_when_its_session_does(fresh_server):
    base, server = fresh_server
    wait_for(lambda: not finder_threads(), seconds=60, what="the end of finders before this test")
    with connect(socket_url(base, "canfield?practice&winnable"), max_size=None) as terminal:
        terminal.recv(timeout=PATIENCE)
        wait_for(finder_threads, what="the finder")
    wait_for(lambda: len(server.sessions) == 1, what="the session's end")
    wait_for(lambda: not finder_threads(), seconds=60, what="the finder thread's end")


STOPPED_WITH_A_SESSION = """
import sys, time
sys.path.insert(0, "tests")
import games.host.serve
from served import running_server
from websockets.sync.client import connect

def slow_to_end(session):  # a session still busy when its terminal goes (a search, say)
    session.server.hub.sleep(3)

games.host.serve.Session.run = slow_to_end
with running_server() as (base, server):
    terminal = connect(base.replace("http", "ws", 1) + "patience?seed=5", max_size=None)
    while not server.sessions:
        time.sleep(0.01)
    terminal.close()
    time.sleep(0.5)  # the connection's end is seen; the session has not ended yet
print("stopped", flush=True)
"""


def test_a_server_stopped_while_a_session_ends_lets_its_process_end():
    """The server's loop stops while a session whose terminal has gone is still ending: nothing is
    left waiting for that end (no thread blocked on it, which would hold the process up at exit for
    ever, as it held up a whole test run once)."""
    process = subprocess.run(
        [sys.executable, "-c", STOPPED_WITH_A_SESSION],
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert process.returncode == 0 and process.stdout == "stopped\n", process.stderr


def test_a_session_that_fails_tells_its_terminal_and_closes(fresh_server, monkeypatch):
    """A fault of the server's own in a session: the terminal is told and its connection closed (it
    was left open, waiting for frames that would never come); the other sessions go on."""
    import games.host.serve

    def failing(session, machine):
        raise AssertionError("a fault planted by the test")

    monkeypatch.setattr(games.host.serve.Session, "session", failing)
    monkeypatch.setattr(threading, "excepthook", lambda arguments: None)  # said in the log: not here
    base, _ = fresh_server
    terminal = connect(socket_url(base, "patience?seed=5"), max_size=None, legacy=True)
    messages, closed = messages_until_closed(terminal)
    ends = [json.loads(message) for message in messages if isinstance(message, str) and '"end"' in message]
    assert ends == [{"end": "zxcards stopped on a fault of the server's (its log says which).", "exit": 1}]
    monkeypatch.undo()  # the bystander's session, checked by the fixture, plays as before


class _Wire:
    """A connection's parts the outbox uses: what reaches the socket, at once or sent in turn."""

    def __init__(self):
        from websockets.protocol import State

        self.state, self.buffered, self.written, self._out = State.OPEN, 0, [], []
        self.protocol, self.transport = self, self

    def send_binary(self, data: bytes) -> None:
        self._out.append(data)

    def send_text(self, data: bytes) -> None:
        self._out.append(data)

    def data_to_send(self) -> list[bytes]:
        out, self._out = self._out, []
        return out

    def write(self, data: bytes) -> None:
        self.written.append(("at once", data))

    def get_write_buffer_size(self) -> int:
        return self.buffered

    async def send(self, message) -> None:
        await asyncio.sleep(0)
        self.written.append(("in turn", message.encode() if isinstance(message, str) else message))

    async def close(self) -> None:
        self.written.append(("closed", b""))


def test_an_outbox_writes_at_once_only_with_nothing_before_it_and_keeps_the_order():
    async def scene() -> list:
        wire_ = _Wire()
        outbox = serve.Outbox(wire_)
        sending = asyncio.create_task(outbox.send())
        outbox.put(b"1")
        wire_.buffered = 10  # the socket is behind: what comes now waits its turn
        outbox.put(b"2")
        wire_.buffered = 0
        outbox.put("3")  # something waits before it: it waits too
        assert outbox.waiting == 2
        while outbox.waiting:
            await asyncio.sleep(0)
        outbox.put(b"4")
        outbox.put(serve.CLOSE)
        await sending
        return wire_.written

    assert asyncio.run(scene()) == [
        ("at once", b"1"),
        ("in turn", b"2"),
        ("in turn", b"3"),
        ("at once", b"4"),
        ("closed", b""),
    ]
