"""Many machines on one thread: a served session's Spectrum as a greenlet of a `Hub`, not a thread
of its own.

A machine paced to 50 frames a second works for a fraction of each frame and waits for the rest.
As threads, a hundred of them wake 5,000 times a second, each waking a switch in the kernel and a
turn for Python's one lock, which costs as much again as the frames' own work. On a hub they take
turns on one thread: a machine that waits (for its next frame, or for its terminal's keys) hands
the thread back to the hub, which runs whichever is due next. A wait is the only place a machine
gives way, so one that works long holds up the others of its hub (a server has a hub a process).

A task waits with `sleep(seconds)` (the pacer's wait: nothing ends it early) or `park(timeout)`
(a doze: ended early by `wake(task)`, which any thread may call).
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
import math
import threading
import time
from collections.abc import Callable

from greenlet import getcurrent, greenlet  # type: ignore[import-untyped]  # greenlet ships no hints

# A wait ends on the next tick of TICK seconds, not at its own instant: machines whose frames fall
# due within one tick of each other run one after the other on one waking of the hub's thread. A
# process that sleeps and wakes for every frame of every machine pays for each waking (the core's
# caches gone cold, the host's scheduler) more than a frame's own work costs; a frame is shown at
# most one tick late, and a machine's frames keep their own due times (the pacer counts from them).
# 2 ms, not 4: with 200 sessions on two cores, a 4 ms tick's longer runs of frames came out later
# the later they stood in the run (p99 at the terminal 33-49 ms against 15-17 ms, three runs each
# of an outside load test), for about the same processor time.
TICK = 0.002


def tick_of(when: float) -> int:
    """The first tick at or after `when` (seconds on the hub's clock), counted in TICKs."""
    return math.ceil(when / TICK)


class Task:
    """A function run on a hub; `done` is set once it has returned or raised (`error`)."""

    def __init__(self, hub: Hub | LoopHub, run: Callable[[], None], name: str):
        self.hub, self.run, self.name = hub, run, name
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.greenlet: greenlet | None = None
        self.parked = False  # waiting, on the hub
        self.wakeable = False  # a park, not a sleep: `wake` ends it
        self.woken = False  # woken while not parked: the next park returns at once
        self.park_number = 0  # which park a timer or a wake is for
        self._ending = threading.Lock()
        self._when_done: list[Callable[[], None]] = []

    def join(self, timeout: float | None = None) -> None:
        self.done.wait(timeout)

    def when_done(self, call: Callable[[], None]) -> None:
        """`call()` once the task has ended (at once, here, if it has), on the thread that ends it:
        what waits for a task without a thread blocked on it (an asyncio loop's thread may be the
        one the task needs to end, and a thread blocked on it would hold its process up at exit)."""
        with self._ending:
            if not self.done.is_set():
                self._when_done.append(call)
                return
        call()

    def is_alive(self) -> bool:
        return not self.done.is_set()

    def _body(self) -> None:
        try:
            self.run()
        except BaseException as error:  # noqa: BLE001 - the hub goes on; the task's end is said
            self.error = error
            # said as a thread's would be (threading.excepthook prints it, or a test catches it)
            threading.excepthook(threading.ExceptHookArgs((type(error), error, error.__traceback__, None)))
        finally:
            with self._ending:
                self.done.set()
                calls, self._when_done = self._when_done, []
            for call in calls:
                call()


class Turns:
    """What a task calls to give way, on either kind of hub (its `_wait` says how)."""

    def current(self) -> Task | None:
        """The task running now, if the caller is one of this hub's."""
        current = getcurrent()
        return getattr(current, "task", None) if getattr(current, "hub", None) is self else None

    def sleep(self, seconds: float) -> None:
        """Give way for `seconds`; in a thread that is no task of this hub, time.sleep."""
        task = self.current()
        if task is None:
            time.sleep(seconds)
            return
        self._wait(task, seconds, wakeable=False)

    def park(self, timeout: float | None) -> None:
        """Give way until woken (`wake`) or `timeout` seconds have gone by (None: until woken)."""
        task = self.current()
        if task is None:
            raise RuntimeError("park is for a task of its hub")
        self._wait(task, timeout, wakeable=True)

    def _wait(self, task: Task, seconds: float | None, *, wakeable: bool) -> None:
        raise NotImplementedError


class Hub(Turns):
    """Runs tasks on a thread of its own, started with the first task."""

    def __init__(self, name: str = "zxcards hub", clock: Callable[[], float] = time.monotonic):
        self.name, self.clock = name, clock
        self._lock = threading.Lock()
        self._signal = threading.Event()  # something is ready: a new task, a wake
        self._ready: collections.deque = collections.deque()  # (task, park number or None: a new task)
        self._timers: list = []  # heap of (when, order, task, park number)
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._hub_greenlet: greenlet | None = None
        self.tasks = 0  # live tasks

    # --- from any thread ------------------------------------------------------------------------

    def start(self, run: Callable[[], None], name: str = "task") -> Task:
        """`run()` as a task of this hub, from now."""
        task = Task(self, run, name)
        with self._lock:
            self.tasks += 1
            self._ready.append((task, None))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._signal.set()
        return task

    def wake(self, task: Task) -> None:
        """End `task`'s park (or its next one, if it is not parked now)."""
        with self._lock:
            task.woken = True
            if task.parked and task.wakeable:
                self._ready.append((task, task.park_number))
        self._signal.set()

    # --- from a task: current, sleep and park (`Turns`) ---------------------------------------------

    def _wait(self, task: Task, seconds: float | None, *, wakeable: bool) -> None:
        with self._lock:
            if wakeable and task.woken:
                task.woken = False
                return
            task.parked, task.wakeable = True, wakeable
            task.park_number += 1
            if seconds is not None:
                heapq.heappush(
                    self._timers,
                    (tick_of(self.clock() + max(0.0, seconds)) * TICK, next(self._order), task, task.park_number),
                )
        assert self._hub_greenlet is not None  # a task runs on the hub's thread, which set it
        self._hub_greenlet.switch()
        if wakeable:
            with self._lock:
                task.woken = False

    # --- the hub's thread -----------------------------------------------------------------------

    def _run(self) -> None:
        self._hub_greenlet = getcurrent()
        while True:
            self._signal.clear()
            now = self.clock()
            runnable = []
            with self._lock:
                while self._ready:
                    runnable.append(self._ready.popleft())
                while self._timers and self._timers[0][0] <= now:
                    _, _, task, number = heapq.heappop(self._timers)
                    runnable.append((task, number))
            for task, number in runnable:
                if number is None:
                    task.greenlet = greenlet(task._body)
                    task.greenlet.hub, task.greenlet.task = self, task
                elif not self._resumes(task, number):
                    continue
                task.greenlet.switch()
                if task.done.is_set() and task.greenlet is not None:
                    task.greenlet = None
                    with self._lock:
                        self.tasks -= 1
            if runnable:
                continue
            with self._lock:
                timeout = self._timers[0][0] - self.clock() if self._timers else None
            if timeout is None or timeout > 0:
                self._signal.wait(timeout)

    def _resumes(self, task: Task, number: int) -> bool:
        """Whether a timer or wake for park `number` of `task` ends the park it is in (not one it
        has left already)."""
        with self._lock:
            if task.done.is_set() or not task.parked or task.park_number != number:
                return False
            task.parked = False
            return True


class LoopHub(Turns):
    """A hub whose thread is an asyncio loop's: the tasks take turns with the loop's own callbacks
    (a server's connections), so that a frame's message is handed to its connection on the thread
    that sends it, and no two threads of the process are ever busy at once. Started from the loop's
    thread (the first task binds it); `wake` may be called from any thread."""

    def __init__(self, name: str = "zxcards hub", clock: Callable[[], float] = time.monotonic):
        self.name, self.clock = name, clock
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks = 0  # live tasks
        # on each tick (a number of TICKs): the waits ending on it, and the calls made on it
        self._ticks: dict[int, tuple[list[tuple[Task, int]], list[Callable[[], None]]]] = {}

    def start(self, run: Callable[[], None], name: str = "task") -> Task:
        task = Task(self, run, name)
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        self.tasks += 1
        self.loop.call_soon_threadsafe(self._begin, task)
        return task

    def on_loop(self) -> bool:
        """Whether the caller runs on the loop's thread (a task, or the loop's own callbacks)."""
        try:
            return asyncio.get_running_loop() is self.loop
        except RuntimeError:
            return self.current() is not None

    def wake(self, task: Task) -> None:
        """End `task`'s park soon, never at once: a wake comes from code that may hold a lock (a
        table's, telling its listeners), which the task woken must not find held by its own thread."""
        if self.loop is None:
            return
        try:
            self.loop.call_soon_threadsafe(self._wake, task)
        except RuntimeError:  # the loop has closed: its tasks are over
            pass

    # --- on the loop's thread -------------------------------------------------------------------

    def _begin(self, task: Task) -> None:
        task.greenlet = greenlet(task._body, parent=getcurrent())
        task.greenlet.hub, task.greenlet.task = self, task
        self._switch(task)

    def _switch(self, task: Task) -> None:
        assert task.greenlet is not None  # begun, not yet ended
        task.greenlet.switch()
        if task.done.is_set() and task.greenlet is not None:
            task.greenlet = None
            self.tasks -= 1

    def _wait(self, task: Task, seconds: float | None, *, wakeable: bool) -> None:
        if wakeable and task.woken:
            task.woken = False
            return
        task.parked, task.wakeable = True, wakeable
        task.park_number += 1
        if seconds is not None:
            assert self.loop is not None
            self._on_tick(tick_of(self.loop.time() + max(0.0, seconds)))[0].append((task, task.park_number))
        assert task.greenlet is not None  # a task that waits is running
        task.greenlet.parent.switch()  # back to the loop, until a timer or a wake resumes this task
        if wakeable:
            task.woken = False

    def call_at_tick(self, when: float, call: Callable[[], None]) -> None:
        """On the loop's thread: `call()` on the first tick at or after `when` (on the loop's clock),
        with the waits and calls that end on it."""
        self._on_tick(tick_of(when))[1].append(call)

    def _on_tick(self, tick: int) -> tuple[list[tuple[Task, int]], list[Callable[[], None]]]:
        """What ends on `tick`: the first wait or call to end there sets the one timer for all."""
        ending = self._ticks.get(tick)
        if ending is None:
            assert self.loop is not None  # a task or the loop's own callback asks, on the loop
            ending = self._ticks[tick] = ([], [])
            self.loop.call_at(tick * TICK, self._tick, tick)
        return ending

    def _tick(self, tick: int) -> None:
        waits, calls = self._ticks.pop(tick)
        for call in calls:
            call()
        for task, number in waits:
            self._resume(task, number)

    def _wake(self, task: Task) -> None:
        task.woken = True
        if task.parked and task.wakeable:
            self._resume(task, task.park_number)

    def _resume(self, task: Task, number: int) -> None:
        if task.done.is_set() or not task.parked or task.park_number != number or task.greenlet is None:
            return
        task.parked = False
        self._switch(task)
