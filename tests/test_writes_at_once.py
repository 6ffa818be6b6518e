"""Two writers at once: a table's file written from two threads once failed, and the table's notice
("Table NOT kept") ended every seat's session with "5 Out of screen" (tests/test_store.py has the
first seats of a program arriving together)."""

import threading

from games.datafolder import write_atomically
from games.host.tables import Tables
from games.spades import seat_play, seats
from games.store import TableStore
from spectrum import Spectrum
from spectrum.frontends import HeadlessFrontend, ScriptExhausted


def test_two_threads_writing_one_file_each_write_it_whole_and_leave_nothing_beside_it(tmp_path):
    path = tmp_path / "T.json"
    errors = []

    def writer(letter: str) -> None:
        for number in range(300):
            try:
                write_atomically(path, letter * (1000 + number))
            except OSError as error:
                errors.append(error)

    threads = [threading.Thread(target=writer, args=(letter,)) for letter in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    text = path.read_text()
    assert len(set(text)) == 1 and len(text) >= 1000  # one writer's whole text, never a mixture
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_tables_notice_is_shown_on_the_seats_first_screen_and_play_goes_on(tmp_path, monkeypatch):
    tables = Tables(seats.SpadesTable, store=TableStore(tmp_path / "tables"))
    table = tables.table("NOTE", seed=4)
    seat = table.join("a" * 32, "Ann")

    def refused(code, data):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(table.store, "save", refused)
    table.join("b" * 32, "Bob")  # kept after the join: refused
    assert table.view(seat).notice == "Table NOT kept: Permission denied"
    machine = Spectrum(HeadlessFrontend())
    try:
        seat_play.lobby(machine, table, seat)
    except ScriptExhausted:
        pass  # the screen is drawn, and waits for a key: no report
    row = "".join(machine.screen_char(21, col) or "?" for col in range(32))
    assert row.startswith("Table NOT kept: Permission deni")
