"""Where a server keeps what players own (games/store.py), and how `zxcards serve --database`
hands it down: the embedded store by default, exactly where a lone server always kept things; the
shared store to the programs that keep a player's data, in place of a data folder. No PostgreSQL
is needed here (tests/test_postgres_store.py and tests/test_cluster.py use a real one)."""

import threading
import time

import pytest

from games.host import load
from games.host import cli, serve
from games.spades import seat_play
from games.spades.seats import SpadesTable
from games.store import FilesStore, TableStore
from spectrum import Spectrum


class SharedStand_in:
    """What the host sees of a shared store: its URL, and its tables (kept as files here)."""

    def __init__(self, folder):
        self.url, self.folder, self.kept = "postgresql://zxcards@db.example/zxcards", None, folder

    def tables(self, kind):
        return TableStore(self.kept / kind)


def test_by_default_a_server_keeps_tables_and_players_data_in_its_data_folder_as_always(tmp_path):
    server = serve.Server(data_dir=tmp_path)
    assert isinstance(server.store, FilesStore) and server.store.url is None
    tables = server.tables_of("spades").store
    assert isinstance(tables, TableStore) and tables.folder == tmp_path / "tables"
    session = serve.Session(server, serve.Target("spades"), None, "f" * 32, lambda: None)
    assert session.program_options(load("spades"), {"full_rules": True}) == {
        "full_rules": True,
        "thinker": server.thinker,
        "data_dir": tmp_path / "browsers" / ("f" * 32),
    }
    assert session.program_options(load("canfield"), {}) == {
        "thinker": server.thinker,
        "data_dir": tmp_path,
        "owner": "f" * 32,
    }


def test_with_a_shared_store_the_programs_that_keep_are_handed_it_and_no_data_folder(tmp_path):
    shared = SharedStand_in(tmp_path)
    server = serve.Server(data_dir=tmp_path / "unused", store=shared)
    assert server.tables_of("spades").store.folder == tmp_path / "tables"
    session = serve.Session(server, serve.Target("spades"), None, "f" * 32, lambda: None)
    assert session.program_options(load("spades"), {"full_rules": True}) == {
        "full_rules": True,
        "thinker": server.thinker,
        "store": shared,
        "owner": "f" * 32,
    }
    assert session.program_options(load("canfield"), {}) == {
        "thinker": server.thinker,
        "store": shared,
        "owner": "f" * 32,
    }
    # what keeps nothing is handed no store (its computers' searches, the workers)
    assert session.program_options(load("spades"), {}) == {"thinker": server.thinker}
    assert not (tmp_path / "unused").exists()


def test_the_first_seats_at_once_find_one_server_tables_for_their_program(monkeypatch, tmp_path):
    """Four people opening a table on a server just started: their sessions, all at once, must find
    the same tables (two would seat them at two tables of one code, each writing over the other)."""
    made = []

    class SlowTables(serve.Tables):
        def __init__(self, *arguments, **keywords):
            time.sleep(0.05)  # long enough for every thread to be in the middle of making one
            super().__init__(*arguments, **keywords)
            made.append(self)

    monkeypatch.setattr(serve, "Tables", SlowTables)
    server = serve.Server(data_dir=tmp_path)
    found, start = [], threading.Barrier(4)

    def seat():
        start.wait()
        found.append(server.tables_of("spades"))

    threads = [threading.Thread(target=seat) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and all(tables is made[0] for tables in found)


class Drawn(Exception):
    """The lobby drew its screen and waited for a key."""


def test_a_long_notice_on_the_tables_first_screen_is_cut_to_fit_not_an_out_of_screen(monkeypatch):
    table = SpadesTable("LONG", turn_seconds=None)
    table.join("a" * 32, "Anna")
    table.notice = "Table NOT kept: " + "x" * 80  # a store's refusal says more than a line
    monkeypatch.setattr(seat_play, "key_or_news", lambda *arguments: (_ for _ in ()).throw(Drawn()))
    machine = Spectrum()
    seat_play.prepare(machine)
    with pytest.raises(Drawn):
        seat_play.lobby(machine, table, 0)


def test_serve_refuses_a_database_that_is_no_postgresql_url_in_one_line(capsys):
    assert cli.main(["serve", "--database", "mysql://db/zxcards"]) == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--database" in said and "postgresql://user:password@host:port/database" in said


def test_serve_says_in_one_line_when_its_database_cannot_be_reached_and_serves_nothing(capsys):
    pytest.importorskip("psycopg")
    from cluster_parts import free_port

    assert cli.main(["serve", "--port", "0", "--database", f"postgresql://anna:s3cret@127.0.0.1:{free_port()}/z"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no address: nobody is told to connect
    said = captured.err.strip()
    assert "\n" not in said and said.startswith("zxcards serve: the database postgresql://anna@127.0.0.1:")
    assert "s3cret" not in said


def test_serve_without_psycopg_says_what_to_install_in_one_line(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    assert cli.main(["serve", "--port", "0", "--database", "postgresql://zxcards@127.0.0.1/zxcards"]) == 1
    assert (
        capsys.readouterr().err.strip() == "zxcards serve: --database needs psycopg: pip install 'zxcards[postgresql]'"
    )
