"""`zxcards serve` on every core: a router and worker processes.

One process (the router) listens; each connection it accepts is handed whole, as its socket, to
one of the worker processes (by default one a core), which answers it as a server of one process
does (`serve.Server`: the page, the WebSocket, the session's Spectrum on a thread). Python runs
one thread of a process at a time, so sessions in one process share one core however many there
are; in several processes they share them all.

Where a connection goes: every seat of a table (`?table=CODE`) to the one worker its code names,
so that a table for four and all its seats are in one process; anything else to the worker with
the fewest sessions. The router reads nothing of a connection but its request line, peeked at
(left for the worker to read), and holds no connection once it is handed on.

A worker that ends (killed, crashed) takes only its own sessions with it: the router starts
another in its place, and the tables that were in it are taken up again from what was kept
(`games.store`) when their seats come back.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import sys
import tempfile
import traceback
import zlib
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from .counts import SessionCount, Shared

HEAD_SECONDS = 10.0  # a connection that has not said what it wants in this long is closed
HEAD_BYTES = 4096  # the request line is looked for in this much of what the connection sent
RESTART_SECONDS = 1.0  # a worker that ends is replaced after this long (one that dies at once, not in a loop)
HANDED = b"c"  # the message that carries a connection's socket to a worker
READY = b"ready"  # a worker's first word: it is listening for connections


def table_code(request_line: bytes) -> str | None:
    """The table a request line's path names (`GET /spades?table=K7Q2&name=Ann HTTP/1.1`), if any."""
    parts = request_line.split(b" ")
    if len(parts) < 2:
        return None
    query = urlsplit(parts[1].decode("latin-1")).query
    codes = [value for key, value in parse_qsl(query, keep_blank_values=True) if key == "table"]
    return codes[0] if codes else None


def worker_for_table(code: str, workers: int) -> int:
    """The worker every seat of table `code` goes to: the same in every router with as many
    workers (crc32, not Python's hash, which differs from one process to the next)."""
    return zlib.crc32(code.encode()) % workers


# --- the worker's side -------------------------------------------------------------------------


def worker_main(index: int, channel_path: str, shared: Shared, server_options: dict) -> None:
    """A worker process: a `serve.Server` answering the connections the router hands it; with a
    `database` among the options, its own connections to it."""
    from . import serve

    options = dict(server_options)
    database = options.pop("database", None)
    store = None
    if database:
        from ..postgres import PostgresStore

        store = PostgresStore(database)
    server = serve.Server(**options, store=store, count=SessionCount(shared, index))
    status = 0
    try:
        asyncio.run(_worker(server, channel_path, index))
    except KeyboardInterrupt:
        pass
    except BaseException:  # noqa: BLE001 - said, and the worker ends with an error status
        traceback.print_exc()
        status = 1
    finally:
        server.thinker.close()
        if store is not None:
            store.close()
    # Ended here, not by multiprocessing's own exit, which would wait for this process's children:
    # the search processes, which wait for work until their parent has gone (`thinking._ends_with`).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


async def _worker(server, channel_path: str, index: int) -> None:
    from . import serve

    loop = asyncio.get_running_loop()
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    channel.connect(channel_path)
    channel.setblocking(False)
    async with serve.listening(server) as take:
        channel.send(b"%s %d" % (READY, index))
        gone = loop.create_future()

        def handed() -> None:
            while True:
                try:
                    message, fds, _flags, _address = socket.recv_fds(channel, 64, 1)
                except BlockingIOError:
                    return
                except OSError:
                    message, fds = b"", []
                if not message:  # the router has gone: so does its worker
                    for fd in fds:
                        os.close(fd)
                    if not gone.done():
                        gone.set_result(None)
                    return
                for fd in fds:
                    take(socket.socket(fileno=fd))

        loop.add_reader(channel, handed)
        try:
            await gone
        finally:
            loop.remove_reader(channel)
            channel.close()


# --- the router's side -------------------------------------------------------------------------


class Router:
    """Listens on `host`:`port` and hands each connection to one of `workers` worker processes,
    each a `serve.Server(**server_options)`; replaces a worker that ends."""

    def __init__(self, workers: int, server_options: dict, *, log=None):
        self.workers = workers
        self.server_options = server_options
        self.shared = Shared(workers)
        self.processes: list[multiprocessing.process.BaseProcess | None] = [None] * workers
        self.channels: list[socket.socket | None] = [None] * workers
        self.handed = [0] * workers  # connections handed to each worker since its session count was read
        self.restarts = 0
        self._log = log or (lambda text: print(f"zxcards serve: {text}", file=sys.stderr, flush=True))
        self._folder = tempfile.mkdtemp(prefix="zxcards-router-")
        self._channel_path = str(Path(self._folder) / "workers")

    async def run(self, host: str, port: int, started=None) -> None:
        """Serve until cancelled; `started(url)` is told the address once every worker listens."""
        loop = asyncio.get_running_loop()
        listener = socket.create_server(
            (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET, backlog=1024, reuse_port=False
        )
        listener.setblocking(False)
        hub = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        hub.bind(self._channel_path)
        hub.listen(self.workers)
        hub.setblocking(False)
        keepers = []
        try:
            await self._start(range(self.workers), hub)
            keepers = [asyncio.create_task(self._keep(index, hub)) for index in range(self.workers)]
            bound = listener.getsockname()
            if started:
                started(f"http://{bound[0] if ':' not in bound[0] else f'[{bound[0]}]'}:{bound[1]}/")
            while True:
                connection, _address = await loop.sock_accept(listener)
                asyncio.create_task(self._route(connection))
        finally:
            for keeper in keepers:
                keeper.cancel()
            listener.close()
            self._stop_workers()
            hub.close()
            Path(self._channel_path).unlink(missing_ok=True)
            os.rmdir(self._folder)

    async def _start(self, indexes, hub: socket.socket) -> None:
        """Start the workers `indexes` and wait until each says it listens."""
        loop = asyncio.get_running_loop()
        context = multiprocessing.get_context("spawn")  # the router's threads hold nothing a worker could inherit
        started = {}
        for index in indexes:
            started[index] = context.Process(
                target=worker_main,
                name=f"zxcards worker {index}",
                # not a daemon: a worker's sessions may search in processes of its own (`thinking`),
                # which a daemon may not have; a worker ends when its channel closes (`_stop_workers`)
                daemon=False,
                args=(index, self._channel_path, self.shared, self.server_options),
            )
            started[index].start()
        while started:
            channel, _ = await loop.sock_accept(hub)  # one at a time: asyncio waits for a socket once
            channel.setblocking(False)
            word, _, number = (await loop.sock_recv(channel, 64)).partition(b" ")
            index = int(number) if word == READY and number.isdigit() else -1
            if index not in started:
                channel.close()
                continue
            old = self.channels[index]
            if old is not None:
                old.close()
            self.processes[index], self.channels[index] = started.pop(index), channel
            self.shared.sessions[index] = 0
            self.handed[index] = 0

    async def _keep(self, index: int, hub: socket.socket) -> None:
        """Replace worker `index` whenever it ends."""
        loop = asyncio.get_running_loop()
        while True:
            process = self.processes[index]
            assert process is not None  # started before it is kept
            ended = loop.create_future()
            loop.add_reader(process.sentinel, _done, ended)
            try:
                await ended
            finally:
                loop.remove_reader(process.sentinel)
            process.join()
            self.restarts += 1
            self._log(
                f"worker {index} (process {process.pid}) ended with {process.exitcode}: "
                "its sessions are over; another takes its place"
            )
            await asyncio.sleep(RESTART_SECONDS)
            await self._start([index], hub)

    def choose(self, request_line: bytes) -> int:
        """The worker for a connection whose request line is `request_line`."""
        code = table_code(request_line)
        if code is not None:
            return worker_for_table(code, self.workers)
        return min(range(self.workers), key=lambda index: self.shared.sessions[index] + self.handed[index])

    async def _route(self, connection: socket.socket) -> None:
        try:
            line = await request_line(connection)
            if line is None:
                return
            index = self.choose(line)
            channel = self.channels[index]
            process = self.processes[index]
            if channel is None or process is None or not process.is_alive():
                return  # the worker is being replaced: the connection is closed, and tried again
            socket.send_fds(channel, [HANDED], [connection.fileno()])
            self.handed[index] += 1
            asyncio.get_running_loop().call_later(HEAD_SECONDS, self._counted, index)
        except OSError:
            pass
        finally:
            connection.close()

    def _counted(self, index: int) -> None:
        """A connection handed over has had time to be counted among its worker's sessions."""
        self.handed[index] = max(0, self.handed[index] - 1)

    def _stop_workers(self) -> None:
        for channel in self.channels:
            if channel is not None:
                channel.close()  # a worker whose channel closes stops
        for process in self.processes:
            if process is not None:
                process.join(timeout=5)
                if process.is_alive():
                    process.terminate()
                    process.join(timeout=5)


def _done(future: asyncio.Future) -> None:
    """What was waited for has come (once)."""
    if not future.done():
        future.set_result(None)


async def request_line(connection: socket.socket) -> bytes | None:
    """The connection's request line, peeked at (what it sent stays to be read); None if it closes
    or says nothing of use within HEAD_SECONDS."""
    loop = asyncio.get_running_loop()
    connection.setblocking(False)
    deadline = loop.time() + HEAD_SECONDS
    pause = 0.001
    while loop.time() < deadline:
        try:
            head = connection.recv(HEAD_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            readable = loop.create_future()
            loop.add_reader(connection, _done, readable)
            try:
                await asyncio.wait_for(readable, max(0.0, deadline - loop.time()))
            except TimeoutError:
                return None
            finally:
                loop.remove_reader(connection)
            continue
        if not head:
            return None
        line, newline, _ = head.partition(b"\r\n")
        if newline or len(head) >= HEAD_BYTES:
            return line
        await asyncio.sleep(pause)  # a line in pieces: what came is still there, so wait a little for the rest
        pause = min(0.05, pause * 2)
    return None
