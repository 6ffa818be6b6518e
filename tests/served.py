"""A `zxcards serve` for tests: the real server on a free loopback port, on a thread of its own,
stopped (and every session with it) when the test is done."""

from __future__ import annotations

import asyncio
import threading
from contextlib import contextmanager

from games.host.serve import Server, serve_until_stopped


@contextmanager
def running_server(**options):
    """(the page's base URL, the Server) while the block runs; `options` go to Server."""
    server = Server(**options)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    url = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        task = loop.create_task(
            serve_until_stopped("127.0.0.1", 0, server, started=lambda address: (url.append(address), started.set()))
        )
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            pass
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="zxcards serve (test)", daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("the server did not start")
    try:
        yield url[0], server
    finally:
        loop.call_soon_threadsafe(lambda: [task.cancel() for task in asyncio.all_tasks(loop)])
        thread.join(10)


@contextmanager
def running_router(workers: int = 2, **options):
    """(the page's base URL, the Router) while the block runs: `zxcards serve --workers N` on a free
    loopback port, its worker processes each a Server(**options)."""
    from games.host.router import Router

    routing = Router(workers, {"max_sessions": 200, **options}, log=lambda text: None)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    url = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        task = loop.create_task(
            routing.run("127.0.0.1", 0, started=lambda address: (url.append(address), started.set()))
        )
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            pass
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="zxcards serve --workers (test)", daemon=True)
    thread.start()
    if not started.wait(60):
        raise RuntimeError("the router did not start")
    try:
        yield url[0], routing
    finally:
        loop.call_soon_threadsafe(lambda: [task.cancel() for task in asyncio.all_tasks(loop)])
        thread.join(30)
