"""Two people at one Spades table across the server: each seat's terminal sees the table from its
own seat, the hand is played to the end with the computers in the empty seats, and a seat's screen
is drawn from what that seat may see only."""

import json
import threading
import time

from websockets.sync.client import connect

from games.spades.seat_play import scene_of
from games.spades.screen import draw, prepare
from spectrum import Spectrum, render, wire
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
        return self.terminal.memory[render.DISPLAY_FILE:render.ATTRIBUTES_END].tobytes()


def wait_for(condition, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def test_two_people_play_a_hand_at_one_table_each_from_their_own_seat():
    with running_server() as (url, server):
        base = url.replace("http", "ws") + "spades?table=PAIR&seed=4&name="
        anna, bob = Seat(base + "Anna", "a" * 32), Seat(base + "Bob", "b" * 32)
        for seat in (anna, bob):
            seat.start()
        wait_for(lambda: "PAIR" in server.tables.tables and sum(server.tables.tables["PAIR"].view(None).humans) == 2)
        table = server.tables.tables["PAIR"]
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
            own = table.view(number)
            expected = Spectrum()
            prepare(expected)  # the suits' UDGs and the baize, as the seat's machine has them
            draw(expected, scene_of(own, number, None, "", ""))
            wait_for(lambda: seat.screen() == render.picture(expected)[0], seconds=5)
        assert anna.screen() != bob.screen()  # each from its own seat
        anna.socket.close()
        bob.socket.close()
        wait_for(lambda: not server.sessions)
