"""`zxcards serve` on several worker processes: where each connection goes, what a worker's end
takes with it, and a table taken up again from what was kept after its worker was killed."""

import json
import os
import signal
import threading
import time

import pytest
from websockets.sync.client import connect

from games.host import router
from served import running_router
from spectrum import hardware, wire


@pytest.mark.parametrize(
    "line, code",
    [
        (b"GET /spades?table=K7Q2&name=Ann HTTP/1.1", "K7Q2"),
        (b"GET /spades?name=Ann&table=AB HTTP/1.1", "AB"),
        (b"GET /patience?seed=5 HTTP/1.1", None),
        (b"GET / HTTP/1.1", None),
        (b"GARBAGE", None),
        (b"GET /spades?table= HTTP/1.1", ""),
    ],
)
def test_the_table_a_request_line_names(line, code):
    assert router.table_code(line) == code


def test_a_tables_worker_is_the_same_in_every_router_and_spreads_codes():
    assert router.worker_for_table("K7Q2", 2) == router.worker_for_table("K7Q2", 2)
    codes = [f"T{number}" for number in range(200)]
    shares = [sum(router.worker_for_table(code, 4) == worker for code in codes) for worker in range(4)]
    assert min(shares) > 25  # crc32 spreads them: no worker gets none or nearly all


class Terminal(threading.Thread):
    """A connection read to its end in the background: frames counted, the screen kept."""

    def __init__(self, url: str, secret: str | None = None):
        super().__init__(daemon=True)
        headers = {"Cookie": f"zxcards-secret={secret}"} if secret else {}
        self.socket = connect(url, additional_headers=headers, open_timeout=60)
        self.terminal = wire.Terminal()
        self.frames = 0
        self.said: list[str] = []  # the text messages: status, the end and why
        self.ended = threading.Event()
        self.start()

    def run(self):
        try:
            for message in self.socket:
                if isinstance(message, str):
                    self.said.append(message)
                if self.terminal.receive(message):
                    self.frames += 1
        except Exception:
            pass
        finally:
            self.ended.set()

    def tap(self, keys):
        assert not self.ended.is_set(), self.said
        self.socket.send(json.dumps({"held": sorted(keys)}))
        time.sleep(0.1)
        self.socket.send(json.dumps({"held": []}))
        time.sleep(0.15)

    def screen(self) -> bytes:
        return self.terminal.memory[hardware.DISPLAY_FILE : hardware.ATTRIBUTES_END].tobytes()


def wait_for(condition, seconds=30.0, message=lambda: ""):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited too long {message()}"
        time.sleep(0.05)


@pytest.mark.slow  # worker processes are started
def test_every_seat_of_a_table_goes_to_its_worker_and_other_sessions_to_the_least_busy(tmp_path):
    with running_router(2, data_dir=tmp_path) as (url, routing):
        base = url.replace("http", "ws")
        home = router.worker_for_table("ROUTE", 2)
        seats = [Terminal(f"{base}spades?table=ROUTE&name=P{number}", secret=f"{number:032x}") for number in range(4)]
        wait_for(lambda: routing.shared.sessions[home] == 4)
        assert routing.shared.sessions[1 - home] == 0
        others = []
        for number in range(4):  # one at a time, each counted before the next comes
            others.append(Terminal(f"{base}patience?seed={number + 1}"))
            wait_for(
                lambda: routing.shared.sessions[1 - home] == number + 1, message=lambda: list(routing.shared.sessions)
            )  # the worker with no table takes the rest
        for terminal in (*seats, *others):
            wait_for(lambda: terminal.frames > 0)
            terminal.socket.close()
        wait_for(lambda: routing.shared.total() == 0)


@pytest.mark.slow  # worker processes are started
def test_a_worker_killed_takes_only_its_own_sessions_and_another_takes_its_place(tmp_path):
    with running_router(2, data_dir=tmp_path) as (url, routing):
        base = url.replace("http", "ws")
        first = Terminal(f"{base}patience?seed=1")
        wait_for(lambda: routing.shared.total() == 1)
        second = Terminal(f"{base}patience?seed=2")
        wait_for(lambda: routing.shared.total() == 2)
        assert list(routing.shared.sessions) == [1, 1]  # one a worker
        victim = next(index for index in range(2) if routing.processes[index] is not None)
        pid = routing.processes[victim].pid
        os.kill(pid, signal.SIGKILL)
        # which terminal was on it: the one whose connection ends
        wait_for(lambda: first.ended.is_set() or second.ended.is_set())
        lost, kept = (first, second) if first.ended.is_set() else (second, first)
        frames = kept.frames
        time.sleep(1.0)
        assert not kept.ended.is_set() and kept.frames > frames  # the other session never noticed
        wait_for(lambda: routing.processes[victim].pid != pid and routing.processes[victim].is_alive())
        assert routing.restarts == 1
        again = Terminal(f"{base}patience?seed=3")
        wait_for(lambda: again.frames > 10)
        for terminal in (kept, again):
            terminal.socket.close()
        assert lost.ended.is_set()


@pytest.mark.slow  # worker processes are started
def test_a_table_whose_worker_is_killed_is_taken_up_again_from_what_was_kept(tmp_path):
    code = "KEPT"
    kept = tmp_path / "tables" / f"{code}.json"
    secrets = {"Ann": "a" * 32, "Bob": "b" * 32}
    with running_router(2, data_dir=tmp_path) as (url, routing):
        base = url.replace("http", "ws") + f"spades?table={code}&seed=4&name="
        people = {name: Terminal(base + name, secret) for name, secret in secrets.items()}
        home = router.worker_for_table(code, 2)
        wait_for(lambda: routing.shared.sessions[home] == 2)
        time.sleep(1.0)
        people["Ann"].tap({"ENTER"})  # ENTER on the first screen starts play

        def moves() -> int:
            try:
                hand = json.loads(kept.read_text())["hand"]
            except (OSError, ValueError, KeyError, TypeError):
                return 0
            return len(hand["moves"]) if hand else 0

        deadline = time.monotonic() + 60
        while moves() < 6 and time.monotonic() < deadline:  # each bids 2 and plays the card raised, at its turn
            for person in people.values():
                person.tap({"2"})
                person.tap({"ENTER"})
        before = json.loads(kept.read_text())
        assert moves() >= 6
        pid = routing.processes[home].pid
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: all(person.ended.is_set() for person in people.values()))
        assert json.loads(kept.read_text()) == before  # nothing was lost, nothing written after
        wait_for(lambda: routing.processes[home].pid != pid and routing.processes[home].is_alive())
        people = {name: Terminal(base + name, secret) for name, secret in secrets.items()}
        wait_for(lambda: routing.shared.sessions[home] == 2)
        wait_for(lambda: all(person.frames > 0 for person in people.values()))
        deadline = time.monotonic() + 60
        taken = len(before["hand"]["moves"])
        while moves() <= taken and time.monotonic() < deadline:  # the game goes on from where it was
            for person in people.values():
                person.tap({"2"})
                person.tap({"ENTER"})
        after = json.loads(kept.read_text())
        assert after["hand"]["deck"] == before["hand"]["deck"]
        assert after["hand"]["moves"][:taken] == before["hand"]["moves"]
        assert len(after["hand"]["moves"]) > taken
        assert [seat and seat["name"] for seat in after["seats"]] == [seat and seat["name"] for seat in before["seats"]]
        for person in people.values():
            person.socket.close()


@pytest.mark.parametrize(
    "path, argv, keys",
    [
        # the computers' searches, in processes of the worker's own
        ("spades?seed=3&level=mcts", ["spades", "--seed", "3", "--level", "mcts"], "{RIGHT}{RIGHT}{RIGHT}{ENTER}kh"),
        # the practice deal's verdict, searched beside it (it comes when it comes: the last frames wait)
        ("canfield?practice&deal=7", ["canfield", "--practice", "--deal", "7"], "p{@1500}{ESC}"),
    ],
)
def test_a_worker_s_sessions_search_as_a_one_process_server_s_do(tmp_path, path, argv, keys):
    """A worker's sessions have their searches worked out in processes the worker starts (a worker
    that could not start them — a daemon process may not — ended the session with an error): the
    game a terminal records through the router is the local run's, byte for byte."""
    from games.host import cli

    def recorded(command: list[str], folder) -> tuple[int, bytes]:
        folder.mkdir()
        status = cli.main([*command, "--headless", "--keys", keys, "--screenshot", str(folder / "shot.scr")])
        return status, (folder / "shot.scr").read_bytes()

    local = recorded(argv, tmp_path / "local")
    with running_router(2, data_dir=tmp_path / "served") as (url, routing):
        remote = recorded(["connect", url + path], tmp_path / "remote")
    assert remote == local


def _running(pid: int) -> bool:
    """Whether process `pid` runs (Linux's /proc; a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _descendants(pid: int) -> list[int]:
    """The processes under `pid`, from Linux's /proc."""
    found, waiting = [], [pid]
    while waiting:
        current = waiting.pop()
        for task in os.listdir(f"/proc/{current}/task"):
            with open(f"/proc/{current}/task/{task}/children") as children:
                waiting += [int(child) for child in children.read().split()]
        found.append(current)
    return found[1:]


@pytest.mark.slow  # worker processes are started
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads processes from Linux's /proc")
def test_a_worker_that_has_searched_ends_when_its_router_goes_without_a_word(tmp_path):
    """A router that dies (killed: no chance to stop its workers) closes their channels; each worker
    then ends, and the search processes it started (a worker's main function returned, then
    waited for ever for its searchers, which waited for work or for it to go)."""
    from games.host import cli

    with running_router(2, data_dir=tmp_path / "served") as (url, routing):
        folder = tmp_path / "remote"
        folder.mkdir()
        keys = "p{@1500}{ESC}"  # Canfield's practice deal: its verdict searched beside it
        argv = ["connect", url + "canfield?practice&deal=7", "--headless", "--keys", keys]
        assert cli.main([*argv, "--screenshot", str(folder / "shot.scr")]) == 0
        workers = [process.pid for process in routing.processes if process is not None]
        searchers = [pid for worker in workers for pid in _descendants(worker)]
        assert searchers, "a worker started its search processes"
        for channel in routing.channels:
            channel.close()  # as when the router's process is killed
        wait_for(
            lambda: not any(_running(pid) for pid in workers + searchers),
            seconds=20,
            message=lambda: f"still running: {[pid for pid in workers + searchers if _running(pid)]}",
        )
