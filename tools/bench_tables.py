"""Spades tables for four under load: many tables of scripted people on loopback, coming and going.

    python tools/bench_tables.py               # 50 tables of four, two hands of the full game each
    python tools/bench_tables.py --quick       # 5 tables, one hand: a quick look
    python tools/bench_tables.py --tables 20 --hands 3

The server is the real one in a process of its own (`bench_serve.serve_child`), watched from inside:
every frame sent to a seat or a spectator is read for card faces (`screen.faces_shown`, in a process
beside the server's, which the reading would otherwise slow), and any
card that is neither that seat's own nor played yet counts as a leak; while a hand is over, the
screen each seat should show is drawn from its own view at every change (a seat dropped or back)
and its hash noted; at the end, each table is compared with the file it is kept in. The people are
asyncio `websockets` clients in this process: each reads its own screen as a person would (its
name lit: its turn; the panel: the hand is over), thinks, and types — a bid of 2 or ENTER on the
card raised, now and then a card it may not have, keys out of turn and late, malformed messages,
its connection dropped and made again with the same secret; and at each table someone who gives a
seated person's name with a secret of their own (an impostor: they may only watch). Every figure is measured in this one run.

`report()` is the section for tools/bench.py.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import json
import os
import random
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_serve  # noqa: E402  (beside this file)
from spectrum.command_line import OneLineParser, whole_number  # noqa: E402

TABLES, HANDS = 50, 2
QUICK_TABLES, QUICK_HANDS = 5, 1
PEOPLE = 4
FRAME_RATE, GOAL_P99_MS = bench_serve.FRAME_RATE, bench_serve.GOAL_P99_MS
THINK_SECONDS = (0.3, 1.2)  # a person's time to move
AWAY_SECONDS = (0.5, 5.0)  # a dropped connection comes back after this long
FAULTS_A_MOVE = {"drop": 0.03, "malformed": 0.05, "wrong card": 0.08, "out of turn": 0.05, "talk": 0.08}
# a word to the table: most plain, some hostile (markup, control characters, another script, too long), and
# now and then a flood of five at once
SAID = ("good game", "sorry, phone", "<b>bold</b>", "bell\x07", "Привет", "x" * 200, "Zoë: ça va?", "")
# each table's house rules, in turn (the people bid 2 each: a partnership's minimum of 4 is met); every
# other table private, listed nowhere
HOUSE_RULES = (
    "",
    "&game-to=300&nil=50&private",
    "&bags=5&bag-penalty=50&ten-for-200",
    "&nil=0&minimum-bid=4&private",
    "&blind-nil&nil=200&game-to=1000&turn=30",
    "&game-to=100&bags=15&bag-penalty=200&private",
)
LIMIT_SECONDS = 1800  # the whole run gives up after this long
STALL_SECONDS = 300  # ... or once no hand has ended for this long, saying where each person was
MALFORMED = [
    '{"held": ["NOKEY"]}',
    "{not json",
    '{"held": "ENTER"}',
    '{"frame": -1}',
    "[]",
    '{"leave": 5}',
    b"\x00\x01binary",
]
RANKS, SUITS = "a23456789tjqk", "shdc"

# the screen as a person reads it (rows and colours of games/spades/screen.py and seat_play.py)
YOUR_LABEL_ROW, LOBBY_ROW, RESULT_COLUMN = 16, 18, 1
YELLOW, WHITE = 6, 7


# --- inside the server's process --------------------------------------------------------------------


def read_faces(frames, answers) -> None:
    """The faces reader, a process of its own beside the server's, so that its reading takes none of
    the server's time: each (where, SCREEN$, cards open to that seat) sent is read for card faces;
    None asks for the counts so far, answered after every frame sent before it."""
    from games.spades.screen import faces_shown

    checked, leaks = Counter(), []
    while True:
        try:
            sent = frames.recv()
        except EOFError:  # the server has gone
            return
        if sent is None:
            answers.send((dict(checked), leaks[:20], len(leaks)))
            continue
        where, screen, open_cards = sent
        shown = faces_shown(screen)
        checked["frames"] += 1
        checked["with faces"] += bool(shown)
        if shown - open_cards:
            leaks.append(f"{where}: {sorted(shown - open_cards)}")


def watch_tables(server) -> callable:
    """Hooks on the server (its process only): each frame a table's session sends goes to the faces
    reader (`read_faces`) with the cards open to its seat; while a hand is over, the screens each
    seat should show are noted. Returns the mark's report."""
    import multiprocessing

    from games.host.serve import Session
    from games.spades import seats
    from games.spades.seat_play import scene_of
    from games.spades.screen import draw, prepare
    from spectrum import Spectrum, render
    from spectrum.frontends.served import ServedFrontend

    lock, sending = threading.Lock(), threading.Lock()
    spawn = multiprocessing.get_context("spawn")  # the server's threads are not copied into it
    (frames_read, frames), (answers, answers_sent) = spawn.Pipe(duplex=False), spawn.Pipe(duplex=False)
    spawn.Process(target=read_faces, args=(frames_read, answers_sent), daemon=True).start()
    frames_read.close()  # the reader's ends are its own: it stops when the server's end closes
    answers_sent.close()
    finals: dict[str, list[str]] = {}  # owner -> hashes of the screens it should show at each hand's end
    hands: Counter = Counter()  # table code -> hands finished

    send_frame = ServedFrontend._send_frame

    def checked_send(self, machine, picture):
        send_frame(self, machine, picture)
        session = threading.current_thread()
        if not isinstance(session, Session) or session.target.table is None:
            return
        table = server.tables_of(session.target.program).tables.get(session.target.table["code"])
        if table is None:
            return
        seat = next(
            (
                number
                for number, occupant in enumerate(table.seats)
                if occupant is not None and occupant.owner == session.owner
            ),
            None,
        )
        if seat is None and not table.started:
            return  # in the lobby, before a seat is taken
        with sending:  # one frame at a time down the pipe
            frames.send((f"table {table.code} seat {seat}", bytes(picture[0]), frozenset(table.cards_open_to(seat))))

    moved, changed = seats.SpadesTable._moved, seats.SpadesTable._changed

    def noted_moved(self):
        moved(self)
        if self.game.finished:
            with lock:
                hands[self.code] += 1

    def noted_changed(self):
        """While a hand is over, each change (a seat dropped or back, a refusal read) changes what
        each seat should show: every screen it may be left on is noted."""
        changed(self)
        if not (self.started and self.game is not None and self.game.finished):
            return
        for number, occupant in enumerate(self.seats):
            if occupant is not None:
                view = self.view(number)
                # the hand's last trick on show, and then the hand's result
                for shown in {view, dataclasses.replace(view, trick_shown_until=None)}:
                    expected = Spectrum()
                    prepare(expected)
                    draw(expected, scene_of(shown, number, None, "", ""))
                    with lock:
                        finals.setdefault(occupant.owner, []).append(screen_hash(render.picture(expected)[0]))

    ServedFrontend._send_frame = checked_send
    seats.SpadesTable._moved, seats.SpadesTable._changed = noted_moved, noted_changed

    def report(final: bool) -> dict:
        # each table's lock alone, then the counters': a move notes its hand's end in the counters
        # while it holds its table, so holding the counters while waiting for a table would deadlock.
        # Each table is read against its file at the last mark only: done at every mark, the reading
        # held every session up for tens of milliseconds, which the lateness then counted
        tables = {}
        for code, table in list(server.tables_of("spades").tables.items()):
            kept = table.store.path(code)
            with table.changed:  # the file and the table at one moment
                same = final and kept.exists() and json.loads(kept.read_text()) == json.loads(json.dumps(table.saved()))
                tables[code] = {
                    "moves": len(table.moves),
                    "hand_number": table.hand_number,
                    "kept": same,
                    "scores": table.view(None).team_scores,
                    "doubled": sum(occupant is not None and occupant.terminals > 1 for occupant in table.seats),
                }
        with sending:
            frames.send(None)
        checked, leaks, leak_count = answers.recv()
        with lock:
            for code, entry in tables.items():
                entry["hands"] = hands[code]
            return {
                "checked": checked,
                "leaks": leaks,
                "leak_count": leak_count,
                "finals": {owner: list(hashes) for owner, hashes in finals.items()},
                "tables": tables,
            }

    return report


def screen_hash(screen: bytes) -> str:
    return hashlib.sha256(bytes(screen)).hexdigest()[:16]


# --- the people ----------------------------------------------------------------------------------------


class Person:
    """A scripted person at one table: reads their own screen, thinks, types, now and then errs."""

    def __init__(
        self,
        base: str,
        code: str,
        name: str,
        rng: random.Random,
        *,
        starts: bool = False,
        impostor: bool = False,
        house_rules: str = "",
    ):
        self.url = f"{base}spades?table={code}&full{house_rules}&name={name}"
        self.code, self.name, self.rng, self.starts, self.impostor = code, name, rng, starts, impostor
        self.secret = "%032x" % rng.getrandbits(128)
        self.owner = hashlib.sha256(self.secret.encode()).hexdigest()[:32]
        self.terminal = None
        self.socket = None
        self.counts = Counter()
        self.finals: list[str] = []  # hashes of the screens it was left on at each hand's end
        self.frames = 0
        self.changed_at = time.monotonic()
        self.doing = "not begun"  # what the person is about, for a run that stalls

    async def connect(self) -> None:
        """Open the table's page again (a refusal, a full server, is tried again after a while, as a
        person reloads); a connection still open is closed first, as a browser's tab is."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus
        from websockets.protocol import State

        from spectrum import wire

        if self.socket is not None and self.socket.state is not State.CLOSED:
            self.counts["connected again over an open connection"] += 1
            self.doing = "closing an open connection"
            await self.socket.close()
        while True:
            self.doing = "connecting"
            try:
                self.socket = await connect(
                    self.url,
                    additional_headers={"Cookie": f"zxcards-secret={self.secret}"},
                    max_size=None,
                    open_timeout=120,
                    ping_interval=None,
                )
                break
            except (InvalidStatus, OSError, TimeoutError) as refusal:
                self.counts[f"refused ({type(refusal).__name__}), tried again"] += 1
                await asyncio.sleep(self.rng.uniform(*AWAY_SECONDS))
        self.terminal = wire.Terminal()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.socket:
                if isinstance(message, str) and "error" in message:
                    self.counts["errors said"] += 1
                if isinstance(message, str) and '"said"' in message:
                    said = json.loads(message)["said"]
                    self.counts[
                        "talk refused" if "refused" in said else "talk heard" if "text" in said else "talk other"
                    ] += 1
                if self.terminal.receive(message):
                    self.frames += 1
                    self.changed_at = time.monotonic()
        except ConnectionClosed:
            pass
        except Exception as failure:  # what the terminal could not take: counted and shown, not hidden
            self.counts[f"terminal failed: {type(failure).__name__}: {failure}"[:120]] += 1

    def screen(self) -> bytes:
        from spectrum import hardware

        return self.terminal.memory[hardware.DISPLAY_FILE : hardware.ATTRIBUTES_END].tobytes()

    def attribute(self, row: int, col: int) -> tuple[int, int]:
        """(paper, bright) of a cell."""
        from spectrum import hardware

        byte = int(self.terminal.memory[hardware.ATTRIBUTES + 32 * row + col])
        return (byte >> 3) & 7, (byte >> 6) & 1

    def state(self) -> str:
        """What the screen says: lobby, over (the panel), mine (this person's name lit) or waiting."""
        if self.attribute(LOBBY_ROW, 1) == (YELLOW, 1):
            return "lobby"
        if any(self.attribute(row, RESULT_COLUMN) == (WHITE, 1) for row in range(2, 16)):
            return "over"
        if any(self.attribute(YOUR_LABEL_ROW, col)[0] == YELLOW for col in range(32)):
            return "mine"
        return "waiting"

    async def tap(self, *keys: str) -> None:
        await self.send(json.dumps({"held": list(keys)}))
        await asyncio.sleep(0.08)
        await self.send(json.dumps({"held": []}))
        await asyncio.sleep(0.12)

    async def send(self, message) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self.socket.send(message)
        except ConnectionClosed:
            self.counts["sent to a closed connection"] += 1

    async def quiet(self, seconds: float) -> None:
        self.doing = f"waiting for the screen to be still {seconds} s"
        while time.monotonic() - self.changed_at < seconds:
            await asyncio.sleep(0.05)

    async def drop_and_return(self) -> None:
        self.counts["drops"] += 1
        self.doing = "dropping"
        await self.socket.close()
        self.doing = "dropping: reading the last"
        await self.reader
        self.doing = "away"
        await asyncio.sleep(self.rng.uniform(*AWAY_SECONDS))
        await self.connect()
        self.counts["returns"] += 1

    async def play(self, done: asyncio.Event, ready: asyncio.Event) -> None:
        """Until `done`: the person's side of the table."""
        await self.connect()
        hands_seen = 0
        while not done.is_set():
            self.doing = "looking"
            await asyncio.sleep(0.05)
            if self.reader.done():  # the server closed it (too many refused messages): come back
                self.counts["closed by the server"] += 1
                await self.connect()
                continue
            state = self.state()
            if self.impostor or state == "waiting":
                if self.rng.random() < FAULTS_A_MOVE["out of turn"] / 4:
                    self.counts["keys out of turn"] += 1
                    await self.tap(self.rng.choice(["ENTER", "2", "a", "s"]))
                continue
            if state == "lobby":
                if self.starts and ready.is_set():
                    await self.quiet(0.3)
                    await self.tap("ENTER")
                continue
            if state == "over":
                await self.quiet(0.5)
                if self.state() != "over":
                    continue
                self.finals.append(screen_hash(self.screen()))
                hands_seen += 1
                self.doing = "noting the end"
                await asyncio.sleep(self.rng.uniform(1.0, 2.5))  # the others note the end too
                if self.state() == "over" and not done.is_set():
                    await self.tap("ENTER")
                await self.quiet(0.3)
                continue
            await asyncio.sleep(self.rng.uniform(*THINK_SECONDS))  # "mine": this person's turn
            await self.fault()
            if self.state() == "mine":
                self.counts["moves"] += 1
                await self.tap("2")  # a bid of 2 while bidding, the rank 2 typed while playing ...
                await self.tap("ENTER")  # ... and ENTER makes the bid, or plays the card raised
                if self.rng.random() < FAULTS_A_MOVE["out of turn"]:
                    self.counts["late keys"] += 1
                    await self.tap("ENTER")  # again, as the turn has passed on

    async def fault(self) -> None:
        roll = self.rng.random()
        if roll < FAULTS_A_MOVE["drop"]:
            await self.drop_and_return()
        elif roll < FAULTS_A_MOVE["drop"] + FAULTS_A_MOVE["malformed"]:
            self.counts["malformed"] += 1
            await self.send(self.rng.choice(MALFORMED))
        elif roll < FAULTS_A_MOVE["drop"] + FAULTS_A_MOVE["malformed"] + FAULTS_A_MOVE["wrong card"]:
            self.counts["cards typed"] += 1
            await self.tap(self.rng.choice(RANKS))
            await self.tap(self.rng.choice(SUITS))
        elif roll < sum(FAULTS_A_MOVE[kind] for kind in ("drop", "malformed", "wrong card", "talk")):
            for _ in range(5 if self.rng.random() < 0.2 else 1):
                self.counts["talk said"] += 1
                await self.send(json.dumps({"say": self.rng.choice(SAID)}))

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


async def watch_the_lobby(url: str, tables: int, stop: asyncio.Event, seen: Counter) -> None:
    """Someone at the menu page, looking at the open tables every second: a private table's code in
    it counts as a leak, the tables listed are counted."""
    import re
    import urllib.request

    private = {f"B{number}" for number in range(tables) if "private" in HOUSE_RULES[number % len(HOUSE_RULES)]}
    while not stop.is_set():
        try:
            page = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=10).read().decode())
        except OSError:
            seen["lobby refused"] += 1
        else:
            listed = set(re.findall(r'name="table" value="(B\d+)"', page)) | set(
                re.findall(r"table=(B\d+)&amp;watch", page)
            )
            seen["lobby looks"] += 1
            seen["lobby tables listed"] += len(listed)
            seen["lobby private listed"] += len(listed & private)
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except asyncio.TimeoutError:
            pass


async def run_tables(tables: int, hands: int, seed: int) -> list[str]:
    server = bench_serve.ServerProcess(max_sessions=tables * (PEOPLE + 1) + 10, script=__file__)
    rng = random.Random(seed)
    try:
        base = server.socket_url
        people, ready = [], {}
        for number in range(tables):
            code = f"B{number}"
            ready[code] = asyncio.Event()
            for seat in range(PEOPLE):
                people.append(
                    Person(
                        base,
                        code,
                        f"P{number}s{seat}",
                        random.Random(rng.random()),
                        starts=seat == 0,
                        house_rules=HOUSE_RULES[number % len(HOUSE_RULES)],
                    )
                )
        impostors = [
            Person(base, f"B{number}", f"P{number}s0", random.Random(rng.random()), impostor=True)
            for number in range(tables)
        ]
        done = asyncio.Event()
        await asyncio.to_thread(server.mark)
        started = time.monotonic()
        lags, stop_lag = [], asyncio.Event()
        lagging = asyncio.create_task(bench_serve.loop_lag(lags, stop_lag))
        lobby_seen = Counter()
        lobby = asyncio.create_task(watch_the_lobby(server.url, tables, stop_lag, lobby_seen))
        tasks = [asyncio.create_task(person.play(done, ready[person.code])) for person in people]
        while sum(person.socket is not None for person in people) < len(people):
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        for event in ready.values():
            event.set()
        await asyncio.sleep(3.0)  # play has begun everywhere: the impostors come
        tasks += [asyncio.create_task(person.play(done, asyncio.Event())) for person in impostors]
        marks, hands_ended, hand_ended_at, stalled = [], 0, started, []
        while time.monotonic() - started < LIMIT_SECONDS:
            await asyncio.sleep(5.0)
            mark = await asyncio.to_thread(server.mark)
            mark["load"] = os.getloadavg()[0]  # the machine's, whatever else it runs
            marks.append(mark)
            finished = [table["hands"] for table in mark["tables"].values()]
            if len(finished) == tables and min(finished) >= hands:
                break
            if sum(finished) != hands_ended:
                hands_ended, hand_ended_at = sum(finished), time.monotonic()
            if time.monotonic() - hand_ended_at > STALL_SECONDS:
                stalled = [code for code, table in mark["tables"].items() if table["hands"] < hands]
                break
        done.set()
        await asyncio.sleep(0.5)
        final = await asyncio.to_thread(server.mark, True)
        marks.append(final)
        wall = time.monotonic() - started
        stop_lag.set()
        await lagging
        await lobby
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for person in (*people, *impostors):
            await person.close()
        return (
            summary(tables, hands, wall, marks, people, impostors, lags)
            + [
                f"the menu page looked at {lobby_seen['lobby looks']} times: open tables listed "
                f"{lobby_seen['lobby tables listed']} (the private ones {lobby_seen['lobby private listed']} times), "
                f"refused {lobby_seen['lobby refused']}"
            ]
            + [
                f"stalled at {code}: "
                + "; ".join(
                    f"{person.name} {person.doing}, screen {person.state()}, changed "
                    f"{time.monotonic() - person.changed_at:.0f} s ago, socket "
                    f"{person.socket.state.name if person.socket else None}"
                    for person in (*people, *impostors)
                    if person.code == code
                )
                for code in stalled[:3]
            ]
        )
    finally:
        server.stop()


def summary(tables, hands, wall, marks, people, impostors, lags) -> list[str]:
    final = marks[-1]
    played = [table["hands"] for table in final["tables"].values()]
    counts = sum((person.counts for person in (*people, *impostors)), Counter())
    expected = final["finals"]
    agreed = sum(person_final in expected.get(person.owner, []) for person in people for person_final in person.finals)
    seen = sum(len(person.finals) for person in people)
    frames = sum(mark["frames"] for mark in marks)
    slept = sum(mark["slept"] for mark in marks)
    cpu = sum(mark["cpu"] for mark in marks)
    measured = sum(mark["wall"] for mark in marks)
    paced_frames = sum(mark["paced_frames"] for mark in marks)
    paced_seconds = sum(mark["paced_seconds"] for mark in marks)
    marks_p99 = sorted(mark["lateness"]["p99"] for mark in marks)
    sessions = max(mark["sessions"] for mark in marks)
    kept = sum(table["kept"] for table in final["tables"].values())
    loads = [mark["load"] for mark in marks if "load" in mark] or [os.getloadavg()[0]]
    lines = [
        f"{tables} tables of {PEOPLE} people (and an impostor each), the full game (house rules in turn), {hands} "
        "hand(s) a table asked: "
        f"{sum(count >= hands for count in played)}/{tables} tables finished them "
        f"({sum(played)} hands in all, {wall:.0f} s)",
        f"a word to the table: lines said {counts['talk said']}, refused {counts['talk refused']} (hostile or "
        f"flooding), lines heard {counts['talk heard']}",
        f"moves typed {counts['moves']}; faults: drops {counts['drops']} (came back {counts['returns']}), malformed "
        f"{counts['malformed']} (refusals said {counts['errors said']}, connections closed by the server "
        f"{counts['closed by the server']}), cards typed at random {counts['cards typed']}, keys out of turn "
        f"{counts['keys out of turn']}, late {counts['late keys']}",
        "troubles: "
        + (
            ", ".join(
                f"{what} {count}"
                for what, count in sorted(counts.items())
                if what.startswith(("refused", "connected again", "terminal failed"))
            )
            or "none"
        ),
        f"frames sent to seats and impostors read for faces: {final['checked'].get('frames', 0):,} "
        f"({final['checked'].get('with faces', 0):,} showing cards): leaks {final['leak_count']}"
        + (f" e.g. {final['leaks'][:3]}" if final["leaks"] else ""),
        f"screens at each hand's end equal to the seat's own view drawn afresh: {agreed}/{seen}",
        f"tables equal to the file each is kept in: {kept}/{len(final['tables'])}; seats with two terminals at "
        f"the end: {sum(table['doubled'] for table in final['tables'].values())}",
        f"server: {paced_frames / max(1e-9, paced_seconds):.2f} frames/s a session ({sessions} sessions at most; "
        f"{slept / max(1, frames):.0%} of the frames slept through, waiting for a key or the table), "
        f"p99 lateness over each 5 s mark: median {marks_p99[len(marks_p99) // 2]:.1f} ms, worst {marks_p99[-1]:.1f} "
        f"ms (goal < {GOAL_P99_MS:g} ms at {FRAME_RATE} frames/s), "
        f"{cpu / measured:.0%} of a core; this process's loop lag p99 {bench_serve.percentiles(lags)['p99']:.1f} ms",
        f"the machine meanwhile ({os.cpu_count()} cores, the server and these people among what it ran): load "
        f"average over a minute {statistics.median(loads):.1f} at the median mark, {max(loads):.1f} at most",
    ]
    return lines


def report(tables: int = TABLES, hands: int = HANDS, seed: int = 1) -> list[str]:
    return asyncio.run(run_tables(tables, hands, seed))


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_tables", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TABLES} tables, {QUICK_HANDS} hand: a quick look")
    parser.add_argument(
        "--tables",
        type=whole_number(1, 200, "a number of tables"),
        metavar="N",
        help=f"tables of four (default {TABLES})",
    )
    parser.add_argument(
        "--hands",
        type=whole_number(1, 50, "a number of hands"),
        metavar="N",
        help=f"hands of the full game each table plays (default {HANDS})",
    )
    parser.add_argument("--seed", type=int, default=1, help="the people's choices and faults (default 1)")
    parser.add_argument("--serve-child", type=int, metavar="MAX", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve_child is not None:
        bench_serve.serve_child(options.serve_child, watch_tables)
        return 0
    tables = options.tables or (QUICK_TABLES if options.quick else TABLES)
    hands = options.hands or (QUICK_HANDS if options.quick else HANDS)
    for line in report(tables, hands, options.seed):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
