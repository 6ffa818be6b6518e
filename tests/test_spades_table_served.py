"""Two people at one Spades table across the server: each seat's terminal sees the table from its
own seat, the hand is played to the end with the computers in the empty seats, and a seat's screen
is drawn from what that seat may see only."""

import json
import threading
import time

from websockets.sync.client import connect

from games.host import cli
from games.spades import seats
from games.spades.seat_play import scene_of
from games.spades.screen import draw, faces_shown, prepare
from spectrum import Spectrum, hardware, render, wire
from served import running_server

ENTER = frozenset({"ENTER"})


class Seat(threading.Thread):
    """A terminal at the table: takes frames in, and types what it is told to."""

    def __init__(self, url: str, secret: str):
        super().__init__(daemon=True)
        self.socket = connect(url, additional_headers={"Cookie": f"zxcards-secret={secret}"}, legacy=True)
        self.terminal = wire.Terminal()
        self.frames = 0
        self.error = None

    def run(self):
        try:
            for message in self.socket:
                if self.terminal.receive(message):
                    self.frames += 1
        except Exception as error:
            self.error = error

    def tap(self, keys=ENTER):
        """A person's tap: held for five frames, then up for longer than the ROM's keyboard scan
        needs to take the same key again."""
        self.socket.send(json.dumps({"held": sorted(keys)}))
        time.sleep(0.1)
        self.socket.send(json.dumps({"held": []}))
        time.sleep(0.15)

    def screen(self) -> bytes:
        return self.terminal.memory[hardware.DISPLAY_FILE : hardware.ATTRIBUTES_END].tobytes()


def wait_for(condition, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def picture_of(view, seat):
    """The screen a seat's Spectrum shows for `view`, drawn afresh."""
    expected = Spectrum()
    prepare(expected)  # the suits' UDGs and the baize, as the seat's machine has them
    draw(expected, scene_of(view, seat, None, "", ""))
    return render.picture(expected)[0]


def test_two_people_play_a_hand_at_one_table_each_from_their_own_seat():
    with running_server() as (url, server):
        base = url.replace("http", "ws") + "spades?table=PAIR&seed=4&name="
        anna, bob = Seat(base + "Anna", "a" * 32), Seat(base + "Bob", "b" * 32)
        for seat in (anna, bob):
            seat.start()
        wait_for(
            lambda: (
                "PAIR" in server.tables_of("spades").tables
                and sum(server.tables_of("spades").tables["PAIR"].view(None).humans) == 2
            )
        )
        table = server.tables_of("spades").tables["PAIR"]
        bob.tap()  # ENTER on the first screen starts play
        wait_for(lambda: table.view(None).started)
        names = table.view(None).names
        seats = {names.index("Anna"): anna, names.index("Bob"): bob}  # the seats are taken as the sessions join
        while not table.view(None).finished:
            view = table.view(None)
            if view.to_play in seats:
                before = table.version
                seats[view.to_play].tap()  # ENTER plays the card raised: one it may play
                wait_for(lambda: table.version != before)
            time.sleep(0.02)
        view = table.view(None)
        assert sum(view.taken) == 13 and view.hand_number == 1
        for number, seat in seats.items():
            wait_for(lambda: seat.screen() == picture_of(table.view(number), number), seconds=5)
        assert anna.screen() != bob.screen()  # each from its own seat
        anna.socket.close()
        bob.socket.close()
        wait_for(lambda: not server.sessions)


class CheckedSeat(Seat):
    """A seat whose every frame is read for card faces: any card neither its own nor played yet is
    a hand it must never see. `seat` is its place at the table once known (None: watching)."""

    def __init__(self, url, secret, tables, code):
        super().__init__(url, secret)
        self.tables, self.code = tables, code
        self.seat = self.watching = None
        self.checked = self.faces_seen = 0
        self.leaks: list[tuple[int, set[str]]] = []

    def run(self):
        try:
            for message in self.socket:
                if self.terminal.receive(message):
                    self.frames += 1
                    self.check()
        except Exception as error:
            self.error = error

    def check(self):
        table = self.tables.tables.get(self.code)
        if table is None or (self.seat is None and not self.watching):
            return
        shown = faces_shown(self.screen())
        hidden = shown - table.cards_open_to(self.seat)
        if hidden:
            self.leaks.append((self.frames, hidden))
        self.checked += 1
        self.faces_seen += bool(shown)


def seat_people(server, code, people):
    """Each person's seat at table `code`, by the name they joined with."""
    table = server.tables_of("spades").tables[code]
    wait_for(lambda: sum(table.view(None).humans) == len(people) or table.view(None).started)
    names = table.view(None).names
    for name, person in people.items():
        person.seat = names.index(name)
    return table


def play_until(table, people, done):
    """Each person moves at their turn (a bid of 2 typed, or ENTER on the card raised) until `done`."""
    by_seat = {person.seat: person for person in people.values()}
    while not done():
        view = table.view(None)
        if view.to_play in by_seat and not view.finished:
            before = table.version
            person = by_seat[view.to_play]
            if view.bidding:
                person.tap({"2"})
            person.tap()
            wait_for(lambda: table.version != before)
        time.sleep(0.01)


def test_three_people_play_the_full_game_through_a_server_restart_and_see_no_other_hand(tmp_path, monkeypatch):
    monkeypatch.setattr(seats, "COMPUTER_SECONDS", 0.05)
    monkeypatch.setattr(seats, "TRICK_SECONDS", 0.1)
    secrets = {"Anna": "a" * 32, "Bob": "b" * 32, "Cy": "c" * 32}
    tricks_before = 4
    with running_server(data_dir=tmp_path) as (url, server):
        base = url.replace("http", "ws") + "spades?table=FULL&full&seed=8&name="
        people = {
            name: CheckedSeat(base + name, secret, server.tables_of("spades"), "FULL")
            for name, secret in secrets.items()
        }
        watcher = CheckedSeat(base.replace("name=", "watch"), "d" * 32, server.tables_of("spades"), "FULL")
        watcher.watching = True
        for person in (*people.values(), watcher):
            person.start()
        table = seat_people(server, "FULL", people)
        people["Cy"].tap()  # ENTER starts play
        wait_for(lambda: table.view(None).started)
        play_until(table, people, lambda: len(table.game.tricks) >= tricks_before)
        bids, hands = table.view(None).bids, {name: table.view(person.seat).hand for name, person in people.items()}
        kept_moves = len(table.moves)
    for person in (*people.values(), watcher):  # the server has stopped: every seat's screen was checked
        assert not person.leaks, person.leaks
        assert person.faces_seen > 10
    with running_server(data_dir=tmp_path) as (url, server):  # started again, on the same data folder
        base = url.replace("http", "ws") + "spades?table=FULL&name="
        people = {
            name: CheckedSeat(base + name, secret, server.tables_of("spades"), "FULL")
            for name, secret in secrets.items()
        }
        for person in people.values():
            person.start()
        table = seat_people(server, "FULL", people)
        assert table.view(None).bids == bids and len(table.moves) == kept_moves
        assert {name: table.view(person.seat).hand for name, person in people.items()} == hands
        play_until(table, people, lambda: table.view(None).finished)
        view = table.view(None)
        assert sum(view.taken) == 13 and view.hand_points is not None
        assert list(view.team_scores) == [
            sum(points) for points in zip(*(hand["points"] for hand in table.variant.match.history))
        ]
        for person in people.values():
            wait_for(lambda: person.screen() == picture_of(table.view(person.seat), person.seat), seconds=5)
            assert not person.leaks and person.faces_seen > 10
            person.socket.close()


def test_zxcards_connect_takes_a_seat_at_a_table_and_shows_its_own_hand_only(tmp_path):
    """The window's terminal (headless here, a script) is a seat as a browser is: ENTER starts
    play, and the screen it is left on shows its own hand and nothing of another."""
    shot = tmp_path / "seat.scr"
    with running_server() as (url, server):
        status = cli.main(
            [
                "connect",
                url + "spades?table=CONN&name=Ann",
                "--headless",
                "--keys",
                "{ENTER}x",
                "--screenshot",
                str(shot),
            ]
        )
        table = server.tables_of("spades").tables["CONN"]
        view = table.view(0)
        assert status == 0 and view.started and view.names[0] == "Ann"
        shown = faces_shown(shot.read_bytes())
        assert set(view.hand) <= shown, "the seat's own hand is at the foot of its screen"
        assert shown <= table.cards_open_to(0), "no card of another hand is shown"
