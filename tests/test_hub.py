"""The hub: tasks taking turns on one thread, each giving way when it waits."""

import asyncio
import threading
import time

import pytest

from spectrum.frontends.hub import Hub, LoopHub


def test_tasks_sleeping_take_turns_on_one_thread_each_woken_when_due():
    hub, seen = Hub(), []

    def task(name: str, pause: float) -> None:
        for step in range(3):
            seen.append((name, step, threading.current_thread().name))
            hub.sleep(pause)

    tasks = [hub.start(lambda: task("a", 0.03)), hub.start(lambda: task("b", 0.02))]
    started = time.monotonic()
    for each in tasks:
        each.join(5)
    took = time.monotonic() - started
    assert {thread for _, _, thread in seen} == {hub.name}  # one thread, the hub's
    assert sorted((name, step) for name, step, _ in seen) == [(name, step) for name in "ab" for step in range(3)]
    assert 0.09 <= took < 2  # a's three sleeps, not the sum of both tasks' (they overlap)
    assert hub.tasks == 0


def test_a_park_ends_at_a_wake_from_another_thread_or_at_its_timeout():
    hub, ends = Hub(), []

    def parker(timeout: float) -> None:
        started = time.monotonic()
        hub.park(timeout)
        ends.append(time.monotonic() - started)

    woken = hub.start(lambda: parker(10))
    time.sleep(0.1)
    hub.wake(woken)  # from this thread
    woken.join(5)
    timed = hub.start(lambda: parker(0.05))
    timed.join(5)
    assert not woken.is_alive() and not timed.is_alive()
    assert ends[0] < 1 and 0.05 <= ends[1] < 1


def test_a_wake_before_the_park_is_not_lost():
    hub, parks = Hub(), []
    ready = threading.Event()

    def task() -> None:
        ready.wait(5)  # woken while it works (this blocks the hub: a test's liberty)
        started = time.monotonic()
        hub.park(10)
        parks.append(time.monotonic() - started)

    running = hub.start(task)
    time.sleep(0.05)
    hub.wake(running)
    ready.set()
    running.join(5)
    assert parks and parks[0] < 1


def test_a_sleep_is_not_cut_short_by_a_wake():
    hub, slept = Hub(), []

    def task() -> None:
        started = time.monotonic()
        hub.sleep(0.2)
        slept.append(time.monotonic() - started)

    sleeping = hub.start(task)
    time.sleep(0.05)
    hub.wake(sleeping)
    sleeping.join(5)
    assert slept[0] >= 0.2


def test_a_task_that_raises_is_said_as_a_thread_would_say_it_and_the_others_go_on(monkeypatch):
    hub, said, later = Hub(), [], []
    monkeypatch.setattr(threading, "excepthook", said.append)

    def broken() -> None:
        raise ValueError("broken")

    failing = hub.start(broken)
    failing.join(5)
    hub.start(lambda: later.append(True)).join(5)
    assert isinstance(failing.error, ValueError) and said[0].exc_value is failing.error
    assert later == [True]


def test_a_call_at_a_tick_comes_on_the_first_tick_at_or_after_its_time_in_the_order_asked():
    hub, calls = LoopHub(), []

    async def asking() -> None:
        hub.loop = asyncio.get_running_loop()
        now = hub.loop.time()
        for name, after in (("late", 0.05), ("soon", 0.01), ("soon too", 0.01), ("past", -1.0)):
            hub.call_at_tick(
                now + after, lambda name=name, when=now + after: calls.append((name, when, hub.loop.time()))
            )
        await asyncio.sleep(0.1)

    asyncio.run(asking())
    assert [name for name, _, _ in calls] == ["past", "soon", "soon too", "late"]
    for _, when, came in calls:
        assert came >= min(when, calls[0][2]) - 1e-6  # never before its time


def test_park_outside_a_task_is_refused():
    with pytest.raises(RuntimeError):
        Hub().park(0.01)


@pytest.mark.slow  # a worker process is started
def test_a_session_waiting_for_a_search_gives_way_to_the_others():
    from games.host.thinking import Workers

    hub = Hub()
    thinker = Workers(processes=1, hub=hub)
    ticks, answers = [], []

    def searching() -> None:
        answers.append(thinker.submit(time.sleep, 1.0).result())  # a search of a second, in a worker

    def ticking() -> None:
        end = time.monotonic() + 3
        while time.monotonic() < end and not answers:
            ticks.append(time.monotonic())
            hub.sleep(0.02)

    tasks = [hub.start(searching), hub.start(ticking)]
    for task in tasks:
        task.join(30)
    assert answers == [None]
    waits = [later - earlier for earlier, later in zip(ticks, ticks[1:])]
    assert len(ticks) > 30 and max(waits) < 0.5  # the other session never waited for the search
