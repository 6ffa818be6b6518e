"""zxcards serve under load: how many sessions it keeps at 50 frames a second, what each costs.

    python tools/bench_serve.py            # ramps of 50, 100 and 200 sessions, 5 s measured at each
    python tools/bench_serve.py --quick    # 10 and 25 sessions, 2 s each: a quick look

The server is the real one (`games.host.serve`) in a process of its own, so that its processor time
is its own; the one thing added is a note of each frame's lateness, taken from the served front
end's Pacer (how late the frame was when it was due), and of the frames a session waiting for a
key slept through (counted as frames, each of them on time: nothing was sent for them). The terminals are asyncio `websockets`
clients in this process, on loopback, reading everything they are sent. Every figure is
measured in this one run, beside the goals it is meant for: 200 port sessions at once with p99
lateness under 20 ms, an idle session under 1 KB/s, an idle server at about 0% of a core. Then the
same 200 Patience sessions from outside (`from_outside`): `zxcards serve` started from its command
line with its defaults, the terminals in a process of their own.

`report()` is the section for tools/bench.py.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from games.host.counts import default_workers
from spectrum.command_line import OneLineParser, positive_number, whole_number
from spectrum.hardware import FRAME_SECONDS

LEVELS = (50, 100, 200)
QUICK_LEVELS = (10, 25)
SECONDS = 5.0  # measured at each level, after the sessions have settled
QUICK_SECONDS = 2.0
SETTLE_SECONDS = 1.0
HANDSHAKES_AT_ONCE = 16
GOAL_SESSIONS, GOAL_P99_MS, GOAL_IDLE_BYTES, FRAME_RATE = 200, 20.0, 1024, 50.08
SEARCHERS, SEARCHED_BESIDE = 4, 20  # Spades sessions whose computers search, and Patience sessions beside them
KEY_PRESSES = 20  # key-to-screen measurements
RAMPS = {  # what each session of a ramp runs: the menu idle, seats at tables for four before play, Patience's port
    "menu": lambda number: "",
    "table": lambda number: f"spades?table=B{number // 4}&name=P{number % 4}",
    "patience": lambda number: f"patience?seed={number + 1}",
}
IDLE_RAMPS, IDLE_FACTOR = ("menu", "table"), 2  # idle sessions ramp to twice as many (400 by default)
PROBES = 10  # Patience sessions timed beside idle ones (which send no frames to time)


# --- the server's process -------------------------------------------------------------------------


def serve_child(max_sessions: int, watch=None, *, think_here: bool = False) -> None:
    """The real server with each frame's lateness noted; its address is the first line out, then
    each line "mark" in is answered with a line of JSON: what happened since the last mark.
    `watch(server)`, if given, is called before the server starts and returns a function whose
    dict is added to each mark's answer (told whether the mark is the last: "final" in). `think_here`: the computer players' searches are worked out
    on the sessions' own threads, not in worker processes (to measure what the workers spare)."""
    from games.host import serve
    from spectrum.frontends import pacing

    lateness: list[float] = []
    wait = pacing.Pacer.wait

    # each session's frames since the mark began: [its first frame's start, its latest's, frames
    # after the first] by its pacer, so that a rate counts only the time a session was there
    paced: dict[pacing.Pacer, list] = {}

    def noted_wait(self) -> None:
        wait(self)
        # how late the frame starts: its work overrunning (the Pacer's own `lateness`), and the
        # sleep's waking and the GIL's turns too; list.append is safe from every session's thread
        now = time.monotonic()
        lateness.append(max(0.0, now - (self._due - self.ahead)))
        span = paced.get(self)
        if span is None:
            paced[self] = [now, now, 0]
        else:
            span[1:] = now, span[2] + 1

    slept: list[int] = []  # frames each doze slept through (`ServedFrontend.doze`): frames too, shown by none
    pass_frames = pacing.Pacer.pass_frames

    def noted_pass_frames(self, most: int) -> int:
        passed = pass_frames(self, most)
        slept.append(passed)
        span = paced.get(self)
        if span is not None:
            span[2] += passed
        return passed

    pacing.Pacer.wait = noted_wait
    pacing.Pacer.pass_frames = noted_pass_frames
    server = serve.Server(max_sessions=max_sessions)
    if think_here:
        server.thinker = None
    watched = watch(server) if watch else lambda final: {}
    started = threading.Event()

    def marks() -> None:
        started.wait()
        last_cpu, last_wall = cpu_seconds(), time.monotonic()
        for line in sys.stdin:
            taken, lateness[:] = lateness[:], []
            dozed, slept[:] = sum(slept), []
            spans = list(paced.values())
            paced.clear()
            cpu, wall = cpu_seconds(), time.monotonic()
            print(
                json.dumps(
                    {
                        "cpu": cpu - last_cpu,
                        "wall": wall - last_wall,
                        "frames": len(taken) + dozed,
                        "slept": dozed,
                        "lateness": percentiles(taken),
                        # frames after each session's first in the mark, and the time they took
                        "paced_frames": sum(span[2] for span in spans),
                        "paced_seconds": sum(span[1] - span[0] for span in spans),
                        "sessions": len(server.sessions),
                    }
                    | watched(line.strip() == "final")
                ),
                flush=True,
            )
            last_cpu, last_wall = cpu, wall
        os._exit(0)  # stdin closed: the bench is over

    threading.Thread(target=marks, daemon=True).start()

    def announce(url: str) -> None:
        print(url, flush=True)
        started.set()

    asyncio.run(serve.serve_until_stopped("127.0.0.1", 0, server, started=announce))


def serve_child_routed(max_sessions: int, workers: int) -> None:
    """The real server on `workers` worker processes behind its router (`games.host.router`), as
    `zxcards serve --workers N` runs it; each "mark" line in is answered with the processor time
    of the router and all its workers since the last, and their sessions. What a session's frames
    cost and how late they come is measured at the terminals."""
    from games.host import router

    routing = router.Router(workers, {"max_sessions": max_sessions})
    started = threading.Event()

    def marks() -> None:
        started.wait()
        last_cpu, last_wall = tree_cpu_seconds(os.getpid()), time.monotonic()
        for _line in sys.stdin:
            cpu, wall = tree_cpu_seconds(os.getpid()), time.monotonic()
            print(
                json.dumps(
                    {
                        "cpu": cpu - last_cpu,
                        "wall": wall - last_wall,
                        "frames": None,
                        "slept": 0,
                        "lateness": None,
                        "sessions": routing.shared.total(),
                        "workers": workers,
                        "restarts": routing.restarts,
                    }
                ),
                flush=True,
            )
            last_cpu, last_wall = cpu, wall
        os._exit(0)  # stdin closed: the bench is over (the workers end with their router)

    threading.Thread(target=marks, daemon=True).start()

    def announce(url: str) -> None:
        print(url, flush=True)
        started.set()

    asyncio.run(routing.run("127.0.0.1", 0, started=announce))


def tree_cpu_seconds(pid: int) -> float:
    """Processor time of process `pid` and every process under it (Linux's /proc), in seconds."""
    ticks, seen, waiting = 0, set(), [pid]
    while waiting:
        current = waiting.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            fields = open(f"/proc/{current}/stat").read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
            for task in os.listdir(f"/proc/{current}/task"):
                waiting += [int(child) for child in open(f"/proc/{current}/task/{task}/children").read().split()]
        except (OSError, ValueError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # every thread of the process
    return usage.ru_utime + usage.ru_stime


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": 0.0, "p99": 0.0, "max": 0.0}
    ordered = sorted(values)
    at = lambda share: ordered[min(len(ordered) - 1, int(share * len(ordered)))]  # noqa: E731
    return {"p50": at(0.50) * 1e3, "p99": at(0.99) * 1e3, "max": ordered[-1] * 1e3}


class ServerProcess:
    """The server child of `script` (this file, or another bench built on it), in a data folder
    of its own."""

    def __init__(self, max_sessions: int, script: str = __file__, *, think_here: bool = False, workers: int = 1):
        self.data = tempfile.TemporaryDirectory(prefix="bench_serve-")  # the server keeps nothing of ours
        environment = {
            **os.environ,
            "XDG_DATA_HOME": self.data.name,
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                script,
                "--serve-child",
                str(max_sessions),
                *(["--think-here"] if think_here else []),
                *([f"--workers={workers}"] if workers > 1 else []),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            raise RuntimeError(f"the server did not start: {self.url!r}")
        self.socket_url = "ws://" + self.url.removeprefix("http://")

    def mark(self, final: bool = False) -> dict:
        """What happened in the server since the last mark (the `final` one says the most)."""
        self.process.stdin.write("final\n" if final else "mark\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def stop(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.data.cleanup()


# --- the terminals --------------------------------------------------------------------------------


class Terminal:
    """A paced terminal reading all it is sent: bytes counted, and when the screen last changed."""

    def __init__(self, url: str, secret: str | None = None):
        self.url, self.secret = url, secret
        self.bytes = 0
        self.frames = 0
        self.changes = 0  # frames that changed the screen
        self.awaiting_key = False  # as the last frame said
        self.arrivals: list[tuple[float, int]] | None = None  # (when, frame number), while noted
        self.changed = asyncio.Event()
        self.connected = asyncio.Event()
        self.socket = None
        self.task: asyncio.Task | None = None

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        from spectrum import wire

        try:
            headers = {"Cookie": f"{wire.SECRET_COOKIE}={self.secret}"} if self.secret else None
            async with connect(
                self.url, max_size=None, open_timeout=120, ping_interval=None, additional_headers=headers
            ) as socket:
                self.socket = socket
                async for message in socket:
                    self.bytes += len(message)
                    if isinstance(message, bytes):
                        self.frames += 1
                        _, frame, flags, _, runs, _ = wire.HEADER.unpack_from(message)
                        self.awaiting_key = bool(flags & wire.AWAITING_KEY)
                        if self.arrivals is not None:
                            self.arrivals.append((time.monotonic(), frame))
                        if runs:  # the screen changed
                            self.changes += 1
                            self.changed.set()
                    if not self.connected.is_set() and self.frames:
                        self.connected.set()
        except ConnectionClosed:
            pass
        finally:
            self.connected.set()

    async def send(self, message: dict) -> None:
        await self.socket.send(json.dumps(message))

    async def quiet(self, seconds: float, limit: float = 60.0, *, awaiting_key: bool = False) -> None:
        """Until the screen has not changed for `seconds` (a program has drawn and waits), and
        with `awaiting_key` the program says it waits for a key."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), seconds)
            except TimeoutError:
                if self.awaiting_key or not awaiting_key:
                    return

    def frame_rate(self) -> float | None:
        """The machine's frames a second, by the numbers of the frames noted (None: too few)."""
        if not self.arrivals or len(self.arrivals) < 2 or self.arrivals[-1][0] <= self.arrivals[0][0]:
            return None
        (first_when, first), (last_when, last) = self.arrivals[0], self.arrivals[-1]
        return (last - first) / (last_when - first_when)

    def lateness(self) -> list[float]:
        """How late each frame noted came, against the frame that came soonest for its number
        (a frame is due FRAME_SECONDS after the one before, whether it was sent or not)."""
        offsets = [when - frame * FRAME_SECONDS for when, frame in self.arrivals or []]
        return [offset - min(offsets) for offset in offsets]


async def start(url: str) -> Terminal:
    terminal = Terminal(url, secret=secrets.token_hex(16))  # a browser of its own: each is a person
    terminal.task = asyncio.create_task(terminal.run())
    await terminal.connected.wait()
    return terminal


async def start_many(urls: list[str]) -> list[Terminal]:
    at_once = asyncio.Semaphore(HANDSHAKES_AT_ONCE)

    async def one(url: str) -> Terminal:
        async with at_once:
            return await start(url)

    return list(await asyncio.gather(*map(one, urls)))


async def stop(terminals: list[Terminal], server: ServerProcess) -> None:
    for terminal in terminals:
        if terminal.socket is not None:
            await terminal.socket.close()
        terminal.task.cancel()
    await asyncio.gather(*(terminal.task for terminal in terminals), return_exceptions=True)
    deadline = time.monotonic() + 60
    while (await asyncio.to_thread(server.mark))["sessions"] and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


# --- the measurements -----------------------------------------------------------------------------


async def idle_server(server: ServerProcess, seconds: float) -> dict:
    await asyncio.to_thread(server.mark)
    await asyncio.sleep(seconds)
    return await asyncio.to_thread(server.mark)


async def loop_lag(lags: list[float], stop: asyncio.Event) -> None:
    """How late this process's own event loop wakes (its clients may be what is slow, not the server)."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(max(0.0, time.monotonic() - before - 0.01))


async def ramp(server: ServerProcess, kind: str, levels: tuple[int, ...], seconds: float) -> list[dict]:
    """At each level, that many new sessions of `kind` (the last level's ended first: a program's
    start is no steady load), then `seconds` of their frames measured. Idle sessions send no frames
    to time: beside them, PROBES Patience sessions (its shuffle shown) are timed instead."""
    rows = []
    for level in levels:
        started = time.monotonic()
        terminals = await start_many([server.socket_url + RAMPS[kind](number) for number in range(level)])
        opened = time.monotonic() - started
        probes = (
            await start_many([server.socket_url + RAMPS["patience"](number) for number in range(PROBES)])
            if kind in IDLE_RAMPS
            else terminals
        )
        await asyncio.sleep(SETTLE_SECONDS)
        await asyncio.to_thread(server.mark)
        before = sum(terminal.bytes for terminal in terminals)
        for terminal in probes:
            terminal.arrivals = []
        lags, stop_lag = [], asyncio.Event()
        lagging = asyncio.create_task(loop_lag(lags, stop_lag))
        gc.disable()  # the terminals' own collections (tens of ms) would show as frames late
        try:
            await asyncio.sleep(seconds)
            mark = await asyncio.to_thread(server.mark)
        finally:
            gc.enable()
        stop_lag.set()
        await lagging
        received = sum(terminal.bytes for terminal in terminals) - before
        arrived = [late for terminal in probes for late in terminal.lateness()]
        if mark["frames"] is not None:
            frame_rate = mark["frames"] / mark["wall"] / (level + (PROBES if probes is not terminals else 0))
        else:  # the machines' own frame numbers, as the terminals saw them go by
            rates = [terminal.frame_rate() for terminal in probes]
            frame_rate = statistics.mean(rate for rate in rates if rate is not None) if any(rates) else 0.0
        rows.append(
            {
                "kind": kind,
                "sessions": level,
                "live": mark["sessions"],
                "opened": opened,
                "probes": len(probes) if probes is not terminals else 0,
                "frame_rate": frame_rate,
                "lateness": mark["lateness"],
                "arrived": percentiles(arrived) if len(arrived) >= 100 else None,
                "client_lag": percentiles(lags)["p99"],
                "core": mark["cpu"] / mark["wall"],
                "bytes": received / mark["wall"] / level,
            }
        )
        await stop(terminals + (probes if probes is not terminals else []), server)
    return rows


async def in_the_shuffle(server: ServerProcess, sessions: int, seconds: float) -> dict:
    """`sessions` Patience sessions in the shuffle, its heaviest part (each statement's strings of
    the pack's length): the title typed out, then a key pressed on each at once; their frames'
    arrival here timed for `seconds`, with the server's processor time."""
    terminals = await start_many([server.socket_url + RAMPS["patience"](number) for number in range(sessions)])
    await asyncio.gather(*(terminal.quiet(1.0, limit=90, awaiting_key=True) for terminal in terminals))
    for held in (["ENTER"], []):
        for terminal in terminals:
            await terminal.send({"held": held})
        await asyncio.sleep(0.2)
    await asyncio.sleep(SETTLE_SECONDS)
    await asyncio.to_thread(server.mark)
    for terminal in terminals:
        terminal.arrivals = []
    gc.disable()  # as the ramps' terminals
    try:
        await asyncio.sleep(seconds)
        mark = await asyncio.to_thread(server.mark)
    finally:
        gc.enable()
    arrived = [late for terminal in terminals for late in terminal.lateness()]
    await stop(terminals, server)
    return {
        "arrived": percentiles(arrived) if arrived else None,
        "frames": len(arrived),
        "core": mark["cpu"] / mark["wall"],
    }


async def bytes_a_second(
    server: ServerProcess, path: str, seconds: float, *, settle: bool, keys: list[list[str]] | None = None
) -> tuple[float, int]:
    """(bytes a second from the server, bytes of its first frame) for one session of `path`:
    from its start, or once it has drawn and settled; `keys` typed meanwhile, one every 0.4 s."""
    terminal = await start(server.socket_url + path)
    first = terminal.bytes
    if settle:
        await terminal.quiet(SETTLE_SECONDS)
    before, started = terminal.bytes if settle else 0, time.monotonic()
    if keys:
        for number in range(int(seconds / 0.4)):
            await terminal.send({"held": keys[number % len(keys)]})
            await asyncio.sleep(0.1)
            await terminal.send({"held": []})
            await asyncio.sleep(0.3)
    await asyncio.sleep(max(0.0, seconds - (time.monotonic() - started)))
    rate = (terminal.bytes - before) / (time.monotonic() - started)
    await stop([terminal], server)
    return rate, first


async def key_to_screen(server: ServerProcess, presses: int) -> list[float]:
    """Seconds from a key sent to the first frame whose screen changed, typing 9 and DELETE in
    turn at Patience's "Your move?"."""
    terminal = await start(server.socket_url + "patience?seed=5&fast")
    await terminal.quiet(0.5, awaiting_key=True)  # the shuffle shown, the deal, then "Your move?"
    times = []
    for number in range(-2, presses):  # the first two, typed as the prompt comes, are not counted
        terminal.changed.clear()
        sent = time.monotonic()
        await terminal.send({"held": ["9"] if number % 2 == 0 else ["CAPS", "0"]})
        try:
            await asyncio.wait_for(terminal.changed.wait(), 5)
            if number >= 0:
                times.append(time.monotonic() - sent)
        except TimeoutError:
            pass
        await terminal.send({"held": []})
        await terminal.quiet(0.15, limit=2)
    await stop([terminal], server)
    return times


async def beside_searches(think_here: bool, searchers: int, others: int, seconds: float) -> dict:
    """The frames of `others` sessions of Patience's port (its shuffle shown: a frame each frame)
    while `searchers` sessions play Spades against mcts computers (ENTER every 0.4 s: a card when it
    is their turn, the next hand after one), in a server of their own whose searches are worked out
    in worker processes or (`think_here`) in the server's own process (on each table's dealer thread,
    beside the hub's: they share its interpreter lock)."""
    server = ServerProcess(searchers + others + 10, think_here=think_here)
    try:
        menus = await start_many([f"{server.socket_url}patience?seed={number + 1}" for number in range(others)])
        players = await start_many(
            [f"{server.socket_url}spades?level=mcts&seed={number + 1}" for number in range(searchers)]
        )
        for terminal in menus:
            terminal.arrivals = []
        await asyncio.to_thread(server.mark)
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            for terminal in players:
                await terminal.send({"held": ["ENTER"]})
            await asyncio.sleep(0.1)
            for terminal in players:
                await terminal.send({"held": []})
            await asyncio.sleep(0.3)
        mark = await asyncio.to_thread(server.mark)
        arrived = percentiles([late for terminal in menus for late in terminal.lateness()])
        await stop(menus + players, server)
        return {"arrived": arrived, "server": mark["lateness"], "core": mark["cpu"] / mark["wall"]}
    finally:
        server.stop()


OUTSIDE_SETTLE, OUTSIDE_SECONDS = 3.0, 8.0  # the outside test: frames timed for this long, after this long


def from_outside(sessions: int, settle: float = OUTSIDE_SETTLE, seconds: float = OUTSIDE_SECONDS) -> dict:
    """`sessions` Patience sessions against `zxcards serve` as a person starts it (its command line,
    its defaults: a worker a core), from a terminal process of its own (not this one, nor the
    server's): each frame's arrival against its number, `settle` seconds after all have opened, for
    `seconds`."""
    import multiprocessing

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tempfile.TemporaryDirectory(prefix="bench_serve-outside-")
    command = [sys.executable, "-m", "games", "serve", "--port", str(port)]
    server = subprocess.Popen(
        command, env={**os.environ, "XDG_DATA_HOME": data.name}, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        server.stdout.readline()  # where it listens: said once it does
        context = multiprocessing.get_context("spawn")
        answers = context.Queue()
        terminal = context.Process(target=_outside_terminals, args=(port, sessions, settle, seconds, answers))
        terminal.start()
        timed, late = answers.get(timeout=settle + seconds + 120)
        terminal.join()
    finally:
        server.terminate()
        server.wait(10)
        data.cleanup()
    return {"sessions": timed, "arrived": percentiles(late)}


def _outside_terminals(port: int, sessions: int, settle: float, seconds: float, answers) -> None:
    """The outside test's terminals (the ramps' `Terminal`s), in a process of their own: how many
    sessions were timed and each frame's lateness, put on `answers`."""

    async def all_of_them() -> tuple[int, list[float]]:
        terminals = await start_many(
            [f"ws://127.0.0.1:{port}/patience?seed={number + 1}" for number in range(sessions)]
        )
        await asyncio.sleep(settle)
        for terminal in terminals:
            terminal.arrivals = []
        gc.disable()  # as the ramps' terminals: their own collections are no lateness of the server's
        await asyncio.sleep(seconds)
        timed = sum(1 for terminal in terminals if terminal.arrivals)
        late = [late for terminal in terminals for late in terminal.lateness()]
        for terminal in terminals:
            terminal.task.cancel()
        await asyncio.gather(*(terminal.task for terminal in terminals), return_exceptions=True)
        return timed, late

    answers.put(asyncio.run(all_of_them()))


def where_the_time_goes(sessions: int = 20, frames: int = 600) -> list[str]:
    """A frame's processor time in a worker, part by part: `sessions` Patience sessions from their
    start (the title typed out) on one hub, as a worker runs them, `frames` each. The machine's own
    work (the port's statements and their time), the frame's picture, diff and message (`present`),
    the hub's turns and the pacer, each timed on this process's clock; then a frame message's send
    and receipt over a WebSocket on loopback."""
    from games.host import load, menu
    from games.host.session import ended
    from spectrum import Spectrum
    from spectrum.frontends import Quit
    from spectrum.frontends.hub import Hub
    from spectrum.frontends.served import ServedFrontend

    hub, spent, sizes = Hub("bench"), {"present": 0.0, "frames": 0}, []
    program = load("patience")
    import games.patience.play  # noqa: F401 - imported before the clock starts, as a server has it

    def session(seed: int) -> None:
        frontend = ServedFrontend(lambda message: sizes.append(len(message)), hub=hub)
        present, send_frame = frontend.present, frontend._send_frame

        def counted_present(machine) -> None:
            if spent["frames"] >= sessions * frames:
                raise Quit("enough")
            spent["frames"] += 1
            present(machine)

        def timed_send_frame(machine, picture) -> None:
            started = time.perf_counter()  # one thread: its wall time is its processor's, and cheap to read
            send_frame(machine, picture)
            spent["present"] += time.perf_counter() - started

        frontend.present, frontend._send_frame = counted_present, timed_send_frame
        machine = Spectrum(frontend)
        machine.speaker_steps = []
        ended(lambda: menu.run_program(machine, program, seed=seed))

    started_cpu, started_wall = time.process_time(), time.monotonic()
    tasks = [hub.start(lambda seed=seed: session(seed)) for seed in range(1, sessions + 1)]
    for task in tasks:
        task.join()
    cpu, wall = time.process_time() - started_cpu, time.monotonic() - started_wall
    count = max(1, spent["frames"])
    per_frame = cpu / count * 1e6
    presenting = spent["present"] / count * 1e6
    sent = len(sizes) / count
    send_us = asyncio.run(_send_cost(statistics.median(sizes) if sizes else 100))
    return [
        f"where a frame's time goes ({sessions} Patience sessions on one hub from their start, {count:,} frames, "
        f"this process's clock): {per_frame:.0f} us a frame in all, of which the machine's own work "
        f"{per_frame - presenting:.0f} us (the port's statements, their time, the hub's turns and the pacer) "
        f"and the frame's diff and message {presenting:.0f} us; {sent:.2f} messages a frame "
        f"(median {statistics.median(sizes) if sizes else 0:.0f} bytes), each {send_us:.0f} us to send and "
        f"receive over a WebSocket on loopback (both ends), {sent * send_us:.0f} us a frame; "
        f"{count / wall:,.0f} frames a second on one core"
    ]


async def _send_cost(size: float, messages: int = 5000) -> float:
    """Processor time (both ends, this process) to send one binary message of `size` bytes over a
    WebSocket on loopback and receive it, in microseconds."""
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    payload, done = b"x" * int(size), asyncio.Event()

    async def handler(connection) -> None:
        for _ in range(messages):
            await connection.send(payload)
        await done.wait()

    async with serve(handler, "127.0.0.1", 0, compression=None) as listening:
        port = listening.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}", compression=None, max_size=None) as client:
            started = cpu_seconds()
            for _ in range(messages):
                await client.recv()
            spent = cpu_seconds() - started
            done.set()
    return spent / messages * 1e6


def lateness_words(late: dict | None) -> str:
    return "n/a" if late is None else f"p50 {late['p50']:.2f} p99 {late['p99']:.2f} max {late['max']:.1f} ms"


async def measure(levels: tuple[int, ...], seconds: float, workers: int = 1) -> list[str]:
    load_before = os.getloadavg()
    server = ServerProcess(max_sessions=max(levels) * IDLE_FACTOR + 10, workers=workers)
    sessions_run = 0
    try:
        lines = []
        idle = await idle_server(server, seconds)
        lines.append(
            f"idle server, no sessions: {idle['cpu'] / idle['wall']:.2%} of a core over {idle['wall']:.1f} s (goal ~0%)"
        )
        lines.append(
            "ramps (each session paced at 50.08 frames/s; lateness: server = each frame's start after "
            "it was due, in the server (with one worker only); arrived = each frame's arrival here "
            f"against its number, for sessions whose screen changes: beside idle sessions, {PROBES} "
            "Patience sessions')"
        )
        held_at, share = {}, {}
        for kind in RAMPS:
            ramped = tuple(level * IDLE_FACTOR for level in levels) if kind in IDLE_RAMPS else levels
            for row in await ramp(server, kind, ramped, seconds):
                share.setdefault(kind, row["core"] / row["sessions"])  # at the lowest level, least crowded
                late = row["lateness"]
                lines.append(
                    f"  {kind:<8} x{row['sessions']:<4} {row['frame_rate']:5.2f} frames/s each; lateness server "
                    f"{lateness_words(late)}, arrived {lateness_words(row['arrived'])}; server "
                    f"{row['core']:.1%} of a core{' (the probes too)' if row['probes'] else ''} = "
                    f"{row['core'] / row['sessions']:.3%} a session "
                    f"({row['core'] / row['sessions'] / FRAME_RATE * 1e6:.0f} us a frame); "
                    f"{row['bytes']:,.0f} B/s a session  [{row['live']} live, opened in {row['opened']:.1f} s; "
                    f"this process's loop lag p99 {row['client_lag']:.1f} ms]"
                )
                worst = max(late["p99"] if late else 0.0, row["arrived"]["p99"] if row["arrived"] else 0.0)
                everyone = row["live"] == row["sessions"] + row["probes"]
                if row["frame_rate"] >= FRAME_RATE * 0.99 and worst < GOAL_P99_MS and everyone:
                    held_at[kind] = max(held_at.get(kind, 0), row["sessions"])
            sessions_run += sum(ramped)
        for kind in RAMPS:
            held = held_at.get(kind, 0)
            goal, most = (
                (GOAL_SESSIONS * IDLE_FACTOR, max(levels) * IDLE_FACTOR)
                if kind in IDLE_RAMPS
                else (GOAL_SESSIONS, max(levels))
            )
            tried = "" if most >= goal else f"; no more than {most} tried"
            lines.append(
                f"{kind} sessions held at 50 frames/s with p99 lateness < {GOAL_P99_MS:g} ms: "
                f"{held or 'none'} (goal >= {goal}: {held / goal:.2f}x{tried}); at "
                f"{share[kind]:.3%} of a core each (all the server's processes), a core runs "
                f"{1 / share[kind]:.0f} and the {workers} worker{'s' * (workers > 1)} at most "
                f"{workers / share[kind]:.0f}"
            )
        shuffle = await in_the_shuffle(server, max(levels), seconds)
        sessions_run += max(levels)
        lines.append(
            f"{max(levels)} Patience sessions in the shuffle (the title typed out, then a key on each at once): "
            f"{shuffle['frames']:,} frames arrived {lateness_words(shuffle['arrived'])} (goal p99 < "
            f"{GOAL_P99_MS:g} ms); server {shuffle['core']:.0%} of a core"
        )
        idle_menu, first = await bytes_a_second(server, "", seconds, settle=True)
        lines.append(
            f"menu idle: {idle_menu:.1f} B/s after its first screen of {first:,} bytes "
            f"(goal < {GOAL_IDLE_BYTES} B/s: {idle_menu / GOAL_IDLE_BYTES:.3f}x)"
        )
        playing, _ = await bytes_a_second(server, "patience?seed=5&fast", seconds, settle=True, keys=[["9"], ["ENTER"]])
        lines.append(
            f"Patience played (9 ENTER, a key every 0.4 s): {playing:,.0f} B/s "
            f"({playing / GOAL_IDLE_BYTES:.1f}x the idle goal)"
        )
        shuffling, first = await bytes_a_second(server, "patience?seed=5", seconds, settle=False)
        lines.append(
            f"Patience's port from its start (the shuffle shown): {shuffling:,.0f} B/s, first screen {first:,} bytes"
        )
        rom, first = await bytes_a_second(server, "patience?rom&seed=1", seconds, settle=False)
        lines.append(
            f"patience?rom from its start (the listing on the ROM): {rom:,.0f} B/s, first screen "
            f"{first:,} bytes ({rom / shuffling:.2f}x the port's)"
        )
        sessions_run += 4
        times = await key_to_screen(server, KEY_PRESSES)
        sessions_run += 1
        if times:
            ordered = sorted(times)
            median = statistics.median(times)
            lines.append(
                f"key to screen (Patience's INPUT, {len(times)} of {KEY_PRESSES} keys seen): median "
                f"{median * 1e3:.1f} ms = {median / FRAME_SECONDS:.1f} frames, "
                f"p90 {ordered[int(0.9 * (len(ordered) - 1))] * 1e3:.1f} ms, max {ordered[-1] * 1e3:.1f} ms"
            )
        else:
            lines.append("key to screen: no key press was seen on the screen")
        idle = await idle_server(server, seconds)
        lines.append(
            f"idle server after {sessions_run} sessions came and went: {idle['cpu'] / idle['wall']:.2%} of "
            f"a core ({idle['sessions']} sessions left)"
        )
    finally:
        server.stop()
    searching = {here: await beside_searches(here, SEARCHERS, SEARCHED_BESIDE, seconds * 2) for here in (False, True)}
    for here, row in searching.items():
        where = "in the server's own process (the tables' dealer threads)" if here else "in worker processes"
        lines.append(
            f"{SEARCHED_BESIDE} Patience sessions beside {SEARCHERS} Spades sessions against mcts computers, "
            f"the searches {where}: Patience's frames arrived {lateness_words(row['arrived'])}, "
            f"server lateness "
            f"{lateness_words(row['server'])}, {row['core']:.0%} of a core in the server's process"
        )
    ratio = searching[True]["arrived"]["p99"] / max(searching[False]["arrived"]["p99"], 1e-3)
    lines.append(f"  Patience's p99 arrival lateness, searches in the server's process over in workers: {ratio:.1f}x")
    outside = await asyncio.to_thread(from_outside, max(levels))
    lines.append(
        f"{max(levels)} Patience sessions from outside (zxcards serve from its command line, its defaults; the "
        f"terminals in a process of their own, {OUTSIDE_SECONDS:.0f} s after {OUTSIDE_SETTLE:.0f} s): "
        f"{outside['sessions']} timed, arrived {lateness_words(outside['arrived'])}"
    )
    lines += await asyncio.to_thread(where_the_time_goes)  # it runs a loop of its own
    lines.insert(
        0,
        f"the server: zxcards serve --workers {workers} on {os.cpu_count()} cores, the terminals in this "
        f"one process; load average before: {' '.join(f'{load:.2f}' for load in load_before)}",
    )
    return lines


def report(levels: tuple[int, ...] = LEVELS, seconds: float = SECONDS, workers: int | None = None) -> list[str]:
    workers = default_workers() if workers is None else workers
    return asyncio.run(measure(tuple(levels), seconds, workers))


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_serve", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"sessions {', '.join(map(str, QUICK_LEVELS))} and {QUICK_SECONDS:g} s at each: a quick look",
    )
    parser.add_argument(
        "--levels",
        type=whole_number(1, 1000, "a number of sessions"),
        nargs="+",
        metavar="N",
        help=f"the numbers of sessions to ramp through (default {' '.join(map(str, LEVELS))})",
    )
    parser.add_argument(
        "--seconds",
        type=positive_number("--seconds"),
        metavar="S",
        help=f"seconds measured at each level (default {SECONDS:g})",
    )
    # the server, in a process of its own (the bench starts it)
    parser.add_argument(
        "--workers",
        type=whole_number(1, 64, "the worker processes"),
        default=default_workers(),
        metavar="N",
        help=f"the server's worker processes (default {default_workers()}, as zxcards "
        "serve: one a core; 1: the sessions in the process that listens, each "
        "frame's lateness measured there too)",
    )
    parser.add_argument("--serve-child", type=int, metavar="MAX", help=argparse.SUPPRESS)
    parser.add_argument("--think-here", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve_child is not None:
        if options.workers > 1:
            serve_child_routed(options.serve_child, options.workers)
        else:
            serve_child(options.serve_child, think_here=options.think_here)
        return 0
    levels = tuple(sorted(set(options.levels))) if options.levels else (QUICK_LEVELS if options.quick else LEVELS)
    seconds = options.seconds or (QUICK_SECONDS if options.quick else SECONDS)
    for line in report(levels, seconds, options.workers):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
