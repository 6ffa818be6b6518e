"""Two `zxcards serve --database …` processes behind HAProxy (the repository's deploy/haproxy.cfg)
and one PostgreSQL, all on loopback, started by the tests themselves (tests/cluster_parts.py;
skipped saying why when HAProxy, PostgreSQL or psycopg is missing): four people at one table arrive
at one server through the proxy and play a hand; a Canfield account made through one server pays
through the other; a server killed (SIGKILL) mid-hand, its table goes on through the other with
every card kept, and the money made on it too (and stays there when the dead server is back).

What the servers hold is read where it is kept: the table's row in the database (its deal and every
move, as the server wrote it after each), the accounts' rows, and HAProxy's own count of its
servers' connections."""

import hashlib
import json
import os
import subprocess
import sys
import time

import pytest

from cluster_parts import REPOSITORY, Haproxy, Server, haproxy_missing

pytest.importorskip("websockets")
from test_spades_table_served import Seat  # noqa: E402  a terminal at a table, as the served tests drive one

SECRETS = {name: hashlib.md5(name.encode()).hexdigest() for name in ("Anna", "Bob", "Cleo", "Dan")}


def owner_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:32]  # as the server keeps a browser's secret


def wait_for(condition, seconds=30.0, what="the cluster", said=lambda: ""):
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, f"waited too long for {what} {said()}"
        time.sleep(0.05)
    return found


class Cluster:
    def __init__(self, database: str, folder):
        self.database, self.folder = database, folder
        self.servers = [Server(folder / f"data-{number}", database) for number in (1, 2)]
        self.proxy = Haproxy(folder, [server.port for server in self.servers])
        wait_for(
            lambda: all(row["status"] == "UP" for row in self.proxy.servers("sessions").values()),
            what="HAProxy to see both servers up",
        )

    def stop(self) -> None:
        self.proxy.stop()
        for server in self.servers:
            server.stop()

    def kept_table(self, code: str) -> dict | None:
        """Table `code` as the database keeps it (None before it is first kept)."""
        import psycopg

        with psycopg.connect(self.database) as connection:
            row = connection.execute(
                "SELECT data FROM zxcards_kept WHERE kind = 'tables' AND code = %s", (code,)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def view(self, code: str):
        """The table as kept, seen from nowhere (whose turn, the tricks taken, is the hand over)."""
        from games.spades.seats import SpadesTable

        data = self.kept_table(code)
        return None if data is None else SpadesTable.restored(data, code=code, turn_seconds=None).view(None)

    def seats(self, code: str, names) -> dict[str, Seat]:
        """Each of `names` opening the table's link through the proxy, as a browser would."""
        seats = {}
        for name in names:
            seat = Seat(f"ws://127.0.0.1:{self.proxy.port}/spades?table={code}&seed=3&name={name}", SECRETS[name])
            seat.start()
            seats[name] = seat
        return seats

    def server_holding(self, code: str) -> int:
        """Which server (0 or 1) HAProxy sends table `code`'s seats to: the one with connections."""
        rows = self.proxy.servers("tables")
        busy = [number for number, name in enumerate(("zxcards1", "zxcards2")) if int(rows[name]["scur"]) > 0]
        assert len(busy) == 1, f"the seats of one table are at {len(busy)} servers: " + ", ".join(
            f"{name} {row['scur']} connections" for name, row in rows.items()
        )
        return busy[0]


@pytest.fixture
def cluster(database, tmp_path):
    missing = haproxy_missing()
    if missing:
        pytest.skip(missing)
    running = Cluster(database, tmp_path)
    yield running
    running.stop()


def first_frames(seats: dict[str, Seat]) -> None:
    wait_for(
        lambda: all(seat.frames for seat in seats.values()),
        seconds=60,
        what="every seat's first frame",
        said=lambda: str({name: (seat.frames, seat.error) for name, seat in seats.items()}),
    )


def seated(cluster: Cluster, code: str, seats: dict[str, Seat]) -> dict[int, Seat]:
    """The seats as the kept table numbers them (by each browser's secret)."""
    kept = wait_for(lambda: (data := cluster.kept_table(code)) and data["started"] and data, what="the table kept")
    owners = {owner_of(SECRETS[name]): seat for name, seat in seats.items()}
    return {number: owners[occupant["owner"]] for number, occupant in enumerate(kept["seats"])}


def play(cluster: Cluster, code: str, by_seat: dict[int, Seat], until) -> None:
    """Each person plays when it is their turn (ENTER plays the card raised: one the rules allow)
    until `until(view)`."""
    while not until(view := cluster.view(code)):
        if view.to_play is None:
            time.sleep(0.05)
            continue
        moves = view.moves
        by_seat[view.to_play].tap()
        try:
            wait_for(lambda: cluster.view(code).moves > moves, seconds=4)
        except AssertionError:
            pass  # taken during a trick's showing: tapped again


def test_four_people_at_one_table_arrive_at_one_server_through_the_proxy_and_play_a_hand(cluster):
    seats = cluster.seats("CLUB4", SECRETS)
    first_frames(seats)
    time.sleep(1)  # the four sessions joining the table on its server
    seats["Anna"].tap()  # ENTER from any seated player starts play
    by_seat = seated(cluster, "CLUB4", seats)
    assert sorted(occupant["name"] for occupant in cluster.kept_table("CLUB4")["seats"]) == sorted(SECRETS)
    cluster.server_holding("CLUB4")  # every seat at one server
    play(cluster, "CLUB4", by_seat, lambda view: view.finished)
    view = cluster.view("CLUB4")
    assert sum(view.taken) == 13 and view.moves == 52 and view.hand_number == 1
    for seat in seats.values():
        assert seat.error is None
        seat.socket.close()


def connect(url: str, keys: str, data_home) -> subprocess.CompletedProcess:
    """`zxcards connect URL --headless --keys KEYS`, its secret kept in `data_home` (one browser)."""
    environment = {
        **os.environ,
        "XDG_DATA_HOME": str(data_home),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    return subprocess.run(
        [sys.executable, "-m", "games", "connect", url, "--headless", "--keys", keys],
        env=environment,
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=120,
    )


def account(database: str, name: str):
    """(balance, deals, payments, owner) of `name`'s Canfield account, as the database keeps it."""
    import psycopg

    with psycopg.connect(database) as connection:
        connection.execute("SET search_path TO canfield")
        row = connection.execute("SELECT id, balance FROM accounts WHERE name = %s", (name,)).fetchone()
        if row is None:
            return None
        deals = connection.execute(
            "SELECT number, result FROM deals WHERE account = %s ORDER BY id", (row[0],)
        ).fetchall()
        payments = connection.execute(
            "SELECT amount, reason FROM payments WHERE account = %s ORDER BY id", (row[0],)
        ).fetchall()
        owner = connection.execute("SELECT owner FROM owners WHERE account = %s", (row[0],)).fetchone()[0]
    return row[1], deals, payments, owner


def test_a_canfield_account_made_through_one_server_pays_through_the_other(cluster, tmp_path):
    """One browser (one secret) opens an account on the first server and buys a deck; on the second,
    the same account opens, its deal goes on, and a new deck is bought and paid from it."""
    browser = tmp_path / "browser"
    first, second = (f"http://127.0.0.1:{server.port}/canfield" for server in cluster.servers)
    made = connect(first, "Zoe{ENTER}", browser)
    assert made.returncode == 0, made.stderr
    balance, deals, payments, owner = account(cluster.database, "Zoe")
    assert deals == [(deals[0][0], "playing")] and payments[0] == (500, "fresh start") and payments[1] == (-50, "deck")
    assert balance == sum(amount for amount, _ in payments) and balance < 500
    paid = connect(second, "Zoe{ENTER}nn", browser)  # N twice: this deal given up, a new one bought
    assert paid.returncode == 0, paid.stderr
    after, deals_after, payments_after, owner_after = account(cluster.database, "Zoe")
    assert owner_after == owner and payments_after[: len(payments)] == payments  # nothing of the first lost
    assert [result for _, result in deals_after] == ["given up", "playing"]
    new = payments_after[len(payments) :]  # paid through the second server: a deck, and its cards home
    assert [payment for payment in new if payment[1] == "deck"] == [(-50, "deck")]
    assert after == sum(amount for amount, _ in payments_after)
    assert after == balance - 50 + sum(amount for amount, reason in new if reason == "cards home")
    other = connect(second, "ZOE{ENTER}", tmp_path / "another browser")  # the name is another browser's
    assert other.returncode == 0
    assert account(cluster.database, "Zoe")[2] == payments_after


def test_a_server_killed_mid_hand_its_table_goes_on_through_the_other_with_every_card_and_dollar(cluster, tmp_path):
    seats = cluster.seats("KILL1", SECRETS)
    first_frames(seats)
    time.sleep(1)
    seats["Bob"].tap()
    by_seat = seated(cluster, "KILL1", seats)
    holder = cluster.server_holding("KILL1")
    # money made on the server that is going to die
    browser = tmp_path / "browser"
    assert connect(f"http://127.0.0.1:{cluster.servers[holder].port}/canfield", "Max{ENTER}", browser).returncode == 0
    money = account(cluster.database, "Max")
    play(cluster, "KILL1", by_seat, lambda view: view.moves >= 21)
    before = cluster.kept_table("KILL1")

    cluster.servers[holder].kill()
    wait_for(
        lambda: cluster.proxy.servers("sessions")[f"zxcards{holder + 1}"]["status"].startswith("DOWN"),
        what="HAProxy to take the dead server out",
    )
    wait_for(
        lambda: all(seat.error is not None or not seat.is_alive() for seat in seats.values()),
        seconds=10,
        what="every seat to see its connection go",
    )
    assert cluster.kept_table("KILL1") == before  # a server killed loses nothing: every move was kept

    again = cluster.seats("KILL1", SECRETS)  # each person opens the table's link again
    first_frames(again)
    assert cluster.server_holding("KILL1") == 1 - holder
    by_seat = {number: again[name] for number, seat in by_seat.items() for name in SECRETS if seats[name] is seat}
    play(cluster, "KILL1", by_seat, lambda view: view.moves >= 34)

    # the dead server started again: the table stays where it is now, a seat coming back included
    cluster.servers[holder] = Server(
        tmp_path / f"data-{holder + 1}", cluster.database, port=cluster.servers[holder].port
    )
    wait_for(
        lambda: cluster.proxy.servers("sessions")[f"zxcards{holder + 1}"]["status"] == "UP",
        what="HAProxy to see the server back",
    )
    number, dropped = next((number, seat) for number, seat in by_seat.items())
    name = next(name for name, seat in again.items() if seat is dropped)
    dropped.socket.close()
    by_seat[number] = again[name] = cluster.seats("KILL1", [name])[name]
    first_frames(again)
    assert cluster.server_holding("KILL1") == 1 - holder
    play(cluster, "KILL1", by_seat, lambda view: view.finished)
    after = cluster.kept_table("KILL1")
    assert after["hand"]["deck"] == before["hand"]["deck"]  # the same deal
    assert after["hand"]["moves"][: len(before["hand"]["moves"])] == before["hand"]["moves"]  # every card kept
    assert len(after["hand"]["moves"]) == 52 and after["seats"] == before["seats"]
    view = cluster.view("KILL1")
    assert view.finished and sum(view.taken) == 13
    # the money made on the dead server is all there through the other, and goes on
    assert account(cluster.database, "Max") == money
    survivor = f"http://127.0.0.1:{cluster.servers[1 - holder].port}/canfield"
    assert connect(survivor, "Max{ENTER}nn", browser).returncode == 0
    assert account(cluster.database, "Max")[2][: len(money[2])] == money[2]
    for seat in again.values():
        seat.socket.close()


def test_a_server_taken_out_alive_loses_its_table_to_the_other_and_never_writes_over_it(cluster):
    """A server that stops answering (stopped: SIGSTOP, as one too busy or cut off would) is taken
    out by HAProxy, which closes its connections; its players come back to the other server, which
    takes the table up. Started again, the first server gets no seat of that table back and writes
    nothing over it: the hand ends at the other with every move."""
    import signal

    seats = cluster.seats("GONE1", SECRETS)
    first_frames(seats)
    time.sleep(1)
    seats["Cleo"].tap()
    by_seat = seated(cluster, "GONE1", seats)
    holder = cluster.server_holding("GONE1")
    play(cluster, "GONE1", by_seat, lambda view: view.moves >= 9)
    before = cluster.kept_table("GONE1")

    stopped = cluster.servers[holder].process
    stopped.send_signal(signal.SIGSTOP)
    try:
        wait_for(
            lambda: cluster.proxy.servers("sessions")[f"zxcards{holder + 1}"]["status"].startswith("DOWN"),
            what="HAProxy to take the silent server out",
        )
        wait_for(
            lambda: not any(seat.is_alive() for seat in seats.values()),
            seconds=10,
            what="HAProxy to close the silent server's connections",
        )
        again = cluster.seats("GONE1", SECRETS)
        first_frames(again)
        assert cluster.server_holding("GONE1") == 1 - holder
        by_seat = {number: again[name] for number, seat in by_seat.items() for name in SECRETS if seats[name] is seat}
        play(cluster, "GONE1", by_seat, lambda view: view.moves >= 20)
    finally:
        stopped.send_signal(signal.SIGCONT)
    wait_for(
        lambda: cluster.proxy.servers("sessions")[f"zxcards{holder + 1}"]["status"] == "UP",
        what="HAProxy to see the server answer again",
    )
    play(cluster, "GONE1", by_seat, lambda view: view.finished)
    after = cluster.kept_table("GONE1")
    assert after["hand"]["deck"] == before["hand"]["deck"] and len(after["hand"]["moves"]) == 52
    assert after["hand"]["moves"][: len(before["hand"]["moves"])] == before["hand"]["moves"]
    assert cluster.server_holding("GONE1") == 1 - holder
    for seat in again.values():
        seat.socket.close()
