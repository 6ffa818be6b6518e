"""The store several servers share (games/postgres.py) and Canfield's bank on it
(games/canfield/bank_postgres.py), against a real PostgreSQL started for the run on loopback
(tests/cluster_parts.py; skipped saying why without it): its schema made once and versioned, each
document written over the version its server knows (a stale server refused, nothing lost), the
locks of one program at a time, and payments from several processes to one account at once."""

import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest

from games.canfield.bank import DECK_PRICE, START_MONEY, WON, NameRefused, SeatTaken, NAME_TAKEN
from games.datafolder import DataUnusable, InUse
from games.postgres import PostgresStore, Stale

REPOSITORY = Path(__file__).resolve().parent.parent


def restore(data):
    if data.get("broken"):
        raise ValueError("not a table")
    return data


def test_the_schema_is_made_once_and_its_version_kept(database):
    import psycopg

    PostgresStore(database).close()
    PostgresStore(database).close()  # a second server (or a restart): nothing made twice, nothing lost
    with psycopg.connect(database) as connection:
        assert connection.execute("SELECT part, version FROM zxcards_schema").fetchall() == [("store", 1)]


def test_a_database_of_a_newer_zxcards_is_refused_in_one_line_and_left_as_it_was(database):
    import psycopg

    PostgresStore(database).close()
    with psycopg.connect(database) as connection:
        connection.execute("UPDATE zxcards_schema SET version = 99")
    with pytest.raises(DataUnusable, match="written by a newer zxcards.*left as it is") as refused:
        PostgresStore(database)
    assert "\n" not in str(refused.value)
    with psycopg.connect(database) as connection:
        assert connection.execute("SELECT version FROM zxcards_schema").fetchone() == (99,)


def test_a_database_that_cannot_be_reached_is_said_in_one_line_without_its_password():
    from cluster_parts import free_port, postgres_missing

    if postgres_missing():
        pytest.skip(postgres_missing())
    with pytest.raises(DataUnusable) as refused:
        PostgresStore(f"postgresql://anna:s3cret@127.0.0.1:{free_port()}/zxcards")
    said = str(refused.value)
    assert "s3cret" not in said and "\n" not in said
    assert said.startswith("the database postgresql://anna@127.0.0.1:") and "can't be used" in said


def test_a_table_written_is_read_back_by_another_server(database):
    one, two = PostgresStore(database), PostgresStore(database)
    try:
        tables = one.tables("tables")
        assert tables.load("K7Q2", restore) == (None, None)
        tables.save("K7Q2", {"moves": [1, 2, 3]})
        tables.save("K7Q2", {"moves": [1, 2, 3, 4]})
        assert two.tables("tables").load("K7Q2", restore) == ({"moves": [1, 2, 3, 4]}, None)
        assert two.tables("other kind").load("K7Q2", restore) == (None, None)  # each program's tables apart
    finally:
        one.close()
        two.close()


def test_once_another_server_takes_a_table_up_the_first_may_not_write_it(database):
    """Server one loses its players to server two, which takes the table up from the store: one's
    next write is refused with a clear message, and what two wrote is kept."""
    one, two = PostgresStore(database), PostgresStore(database)
    try:
        first, second = one.tables("tables"), two.tables("tables")
        first.load("K7Q2", restore)
        first.save("K7Q2", {"moves": [1]})
        assert second.load("K7Q2", restore) == ({"moves": [1]}, None)
        second.save("K7Q2", {"moves": [1, 2]})
        with pytest.raises(Stale, match="taken up by another server") as refused:
            first.save("K7Q2", {"moves": [1, 5]})
        assert isinstance(refused.value, OSError)  # what a table says as "Table NOT kept: …"
        assert one.tables("tables").load("K7Q2", restore) == ({"moves": [1, 2]}, None)
        second.save("K7Q2", {"moves": [1, 2, 3]})  # the one that took it up goes on
    finally:
        one.close()
        two.close()


def test_two_servers_making_one_new_table_at_once_keep_the_first(database):
    one, two = PostgresStore(database), PostgresStore(database)
    try:
        first, second = one.tables("tables"), two.tables("tables")
        first.load("NEW", restore), second.load("NEW", restore)
        first.save("NEW", {"by": "one"})
        with pytest.raises(Stale):
            second.save("NEW", {"by": "two"})
        assert two.tables("tables").load("NEW", restore) == ({"by": "one"}, None)
    finally:
        one.close()
        two.close()


def test_a_document_that_cannot_be_taken_up_is_set_aside_not_deleted(database):
    import psycopg

    store = PostgresStore(database)
    try:
        tables = store.tables("tables")
        tables.save("BAD", {"broken": True})
        table, notice = store.tables("tables").load("BAD", restore)
        assert table is None and "could not be read" in notice and "kept aside" in notice
        assert store.tables("tables").load("BAD", restore) == (None, None)  # a new one may be made
        with psycopg.connect(database) as connection:
            kept = connection.execute("SELECT kind, code, why, data FROM zxcards_set_aside").fetchall()
        assert [(kind, code, why, json.loads(data)) for kind, code, why, data in kept] == [
            ("tables", "BAD", "unreadable", {"broken": True})
        ]
    finally:
        store.close()


def test_a_game_given_up_is_set_aside_and_forget_drops_only_what_this_server_wrote(database):
    one, two = PostgresStore(database), PostgresStore(database)
    try:
        games = one.documents("spades-game", "owner1")
        games.save("home", {"score": 120})
        assert "given-up" not in (games.set_aside("home") or "") and games.load("home", restore) == (None, None)
        assert games.set_aside("home") is None
        first, second = one.tables("tables"), two.tables("tables")
        first.save("T", {"n": 1})
        second.load("T", restore)
        second.save("T", {"n": 2})
        first.forget("T")  # one's version is gone: two's table stays
        assert one.tables("tables").load("T", restore) == ({"n": 2}, None)
        second.forget("T")
        assert one.tables("tables").load("T", restore) == (None, None)
    finally:
        one.close()
        two.close()


def test_a_players_documents_are_theirs_alone(database):
    store = PostgresStore(database)
    try:
        store.documents("spades-game", "anna").save("home", {"who": "anna"})
        assert store.documents("spades-game", "bob").load("home", restore) == (None, None)
        assert store.documents("spades-game", "anna").load("home", restore) == ({"who": "anna"}, None)
    finally:
        store.close()


def test_a_kept_game_is_held_by_one_program_at_a_time_on_every_server(database):
    one, two = PostgresStore(database), PostgresStore(database)
    try:
        with one.held("spades-game", "anna", "Your game to 500"):
            with pytest.raises(InUse, match="Your game to 500 is being played in another zxcards"):
                with two.held("spades-game", "anna", "Your game to 500"):
                    pass
            with two.held("spades-game", "bob", "Bob's game"):  # another player's is free
                pass
        with two.held("spades-game", "anna", "Your game to 500"):  # let go when the first ended
            pass
    finally:
        one.close()
        two.close()


# --- Canfield's bank on PostgreSQL -------------------------------------------------------------


def bank(database, owner=None):
    from games.canfield.bank_postgres import PostgresBank

    return PostgresBank(database, owner)


def audit(database) -> None:
    """Every balance is the sum of its payments; every deal paid for once and $5 a card home."""
    import psycopg

    with psycopg.connect(database) as connection:
        connection.execute("SET search_path TO canfield")
        for account, balance in connection.execute("SELECT id, balance FROM accounts").fetchall():
            paid = connection.execute("SELECT SUM(amount) FROM payments WHERE account = %s", (account,)).fetchone()
            assert balance == paid[0]
        for deal, cards_home in connection.execute("SELECT id, cards_home FROM deals").fetchall():
            paid = dict(
                connection.execute(
                    "SELECT reason, SUM(amount) FROM payments WHERE deal = %s GROUP BY reason", (deal,)
                ).fetchall()
            )
            assert paid == {"deck": -DECK_PRICE, "cards home": 5 * cards_home}


def test_the_bank_on_postgresql_pays_as_the_bank_in_sqlite(database):
    accounts = bank(database)
    try:
        account = accounts.open_account("Anna")
        assert accounts.balance(account) == START_MONEY
        deal = accounts.buy_deck(account, 12, {"at": "deal"}, 1)
        assert accounts.balance(account) == 455
        accounts.record(account, deal, {"at": "later"}, 20)
        accounts.record(account, deal, {"at": "later"}, 20)  # the same cards again pay nothing
        accounts.record(account, deal, {"at": "end"}, 52, WON)
        assert accounts.balance(account) == 500 + 210
        with pytest.raises(ValueError):
            accounts.record(account, deal, {}, 3)  # cards never come back from the foundations
        assert accounts.open_account("  anna ") == account  # by name, whatever the capitals and spaces
        assert [record.result for record in accounts.deals(account)] == [WON]
        assert accounts.fresh_starts(account) == 1
    finally:
        accounts.close()
    audit(database)


def test_a_version_1_canfield_schema_gains_the_winnable_deals_columns_losing_nothing(database):
    import psycopg

    with psycopg.connect(database, autocommit=True) as connection:  # as version 1 left it
        connection.execute("CREATE SCHEMA IF NOT EXISTS canfield")
        connection.execute(
            "CREATE TABLE canfield.accounts (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, "
            "name_key TEXT NOT NULL UNIQUE, balance BIGINT NOT NULL)"
        )
        connection.execute(
            "CREATE TABLE canfield.deals (id BIGSERIAL PRIMARY KEY, account BIGINT NOT NULL "
            "REFERENCES canfield.accounts(id), number INTEGER NOT NULL, cards_home INTEGER NOT NULL, "
            "result TEXT NOT NULL, balance BIGINT NOT NULL, position TEXT NOT NULL, verdict TEXT)"
        )
        connection.execute("INSERT INTO canfield.accounts (name, name_key, balance) VALUES ('Cleo', 'cleo', 455)")
        connection.execute(
            "INSERT INTO canfield.deals (account, number, cards_home, result, balance, position, "
            "verdict) VALUES (1, 9, 1, 'stuck', 455, '{}', 'lost')"
        )
    accounts = bank(database)
    try:
        account = accounts.open_account("Cleo")
        assert accounts.balance(account) == 455
        (old,) = accounts.deals(account)
        assert (old.number, old.result, old.verdict, old.winnable, old.difficulty) == (9, "stuck", "lost", False, None)
        deal = accounts.buy_deck(account, 4, {}, 1, winnable=True, verdict="won", difficulty="hard")
        accounts.judge(deal, "won", "hard")
        assert [(record.winnable, record.difficulty) for record in accounts.deals(account)] == [
            (False, None),
            (True, "hard"),
        ]
        assert accounts.balance(account) == 455 - DECK_PRICE + 5
    finally:
        accounts.close()


def test_money_that_cannot_buy_a_deck_starts_again_at_500_on_postgresql(database):
    accounts = bank(database)
    try:
        account = accounts.open_account("Bob")
        for number in range(10):
            accounts.buy_deck(account, number + 1, {}, 0)
        assert accounts.balance(account) == 0
        deal = accounts.buy_deck(account, 11, {"at": "deal"}, 0)
        assert accounts.balance(account) == START_MONEY - DECK_PRICE and accounts.fresh_starts(account) == 2
        assert accounts.unfinished_deal(account).id == deal
    finally:
        accounts.close()
    audit(database)


def test_an_account_opens_only_for_its_owner_on_every_server(database):
    one, two = bank(database, "owner-one"), bank(database, "owner-two")
    try:
        account = one.open_account("Anna")
        with pytest.raises(NameRefused, match=NAME_TAKEN):
            two.open_account("ANNA")
        again = bank(database, "owner-one")
        assert again.open_account("anna") == account
        again.close()
    finally:
        one.close()
        two.close()


def test_an_account_is_played_by_one_program_at_a_time_on_every_server(database):
    one, two = bank(database, "owner"), bank(database, "owner")
    try:
        account = one.open_account("Anna")
        one.take_seat(account)
        with pytest.raises(SeatTaken):
            two.take_seat(two.open_account("Anna"))
        one.close()  # the program ends: the seat is free
        two.take_seat(account)
    finally:
        one.close()
        two.close()


def buy_decks(database: str, name: str, rounds: int, start, results) -> None:
    """In a process of its own (a server of its own): `rounds` decks bought for account `name`."""
    accounts = bank(database)
    account = accounts.open_account(name)
    start.wait()
    for number in range(rounds):
        accounts.buy_deck(account, number + 1, {"n": number}, 0)
    accounts.close()
    results.put(rounds)


def pay_cards_home(database: str, name: str, deal: int, start, results) -> None:
    """In a process of its own: deal `deal`'s cards home paid for one by one up to 52 (a count the
    other process has passed already is refused, as cards never leave the foundations)."""
    accounts = bank(database)
    account = accounts.open_account(name)
    start.wait()
    refused = 0
    for cards_home in range(1, 53):
        try:
            accounts.record(account, deal, {"home": cards_home}, cards_home)
        except ValueError:
            refused += 1
    accounts.close()
    results.put(refused)


def race(database: str, work, arguments: tuple, processes: int) -> list:
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=work, args=(database, *arguments, start, results)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    start.set()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    return [results.get(timeout=5) for _ in workers]


def test_decks_bought_by_several_servers_at_once_from_one_account_lose_nothing(database):
    """Four servers buying decks from one account at the same moment: the account goes down $50 a
    deck from $500 and starts afresh at $500 exactly when it can't buy one, as if they had bought one
    after another (the balance read FOR UPDATE: without it two would both top the account up)."""
    accounts = bank(database)
    try:
        account = accounts.open_account("Shared")
        processes, rounds = 4, 30
        race(database, buy_decks, ("Shared", rounds), processes)
        decks = processes * rounds
        assert len(accounts.deals(account)) == decks
        assert accounts.balance(account) == START_MONEY - DECK_PRICE * ((decks - 1) % 10 + 1)
        assert accounts.fresh_starts(account) == 1 + (decks - 1) // 10
    finally:
        accounts.close()
    audit(database)


def test_cards_home_paid_by_several_servers_at_once_are_paid_once(database):
    """Three servers paying for one deal's cards home at the same moment: $5 a card, each card
    once (the deal read FOR UPDATE: without it two would pay for the same card)."""
    accounts = bank(database)
    try:
        account = accounts.open_account("Shared")
        deal = accounts.buy_deck(account, 7, {}, 0)
        refused = race(database, pay_cards_home, ("Shared", deal), 3)
        assert accounts.balance(account) == START_MONEY - DECK_PRICE + 5 * 52
        assert all(count < 52 for count in refused)
    finally:
        accounts.close()
    audit(database)


def test_a_server_killed_while_it_holds_an_account_lets_it_go(database):
    """The seat's lock is the database's, on the bank's connection: a process killed with it lets
    it go, so the player can sit again at another server."""
    accounts = bank(database, "owner")
    account = accounts.open_account("Anna")
    accounts.close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time\n"
                "from games.canfield.bank_postgres import PostgresBank\n"
                f"bank = PostgresBank({database!r}, 'owner')\n"
                "bank.take_seat(bank.open_account('Anna'))\n"
                "print('held', flush=True)\n"
                "time.sleep(60)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        cwd=REPOSITORY,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        other = bank(database, "owner")
        with pytest.raises(SeatTaken):
            other.take_seat(account)
        holder.kill()
        holder.wait()
        import time

        deadline = time.monotonic() + 10
        while True:
            try:
                other.take_seat(account)
                break
            except SeatTaken:
                assert time.monotonic() < deadline, "the killed server's seat was never let go"
                time.sleep(0.1)
        other.close()
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


# --- a game a program keeps for a player: Spades' full game, from server to server ------------------


def test_the_full_game_kept_in_the_shared_store_goes_on_at_another_server(database):
    """Spades to 500 played from a browser on one server (a bid made), then taken up on another:
    the same game, kept as the player's, not the folder's; given up with --new, it is kept aside."""
    from games.spades import run
    from games.spades.home import HOME, home_table
    from spectrum import Spectrum
    from spectrum.frontends import HeadlessFrontend, ScriptExhausted
    from spectrum.frontends.headless import presses_from

    one, two = PostgresStore(database), PostgresStore(database)
    try:
        with pytest.raises(ScriptExhausted):
            run(Spectrum(HeadlessFrontend(presses_from(["3", "ENTER"]))), full_rules=True, store=one, owner="anna")
        kept, _ = two.documents("spades-game", "anna").load(HOME, lambda data: data)
        assert kept["hand"]["moves"] and kept["full"] is True
        again, notice = home_table(
            Spectrum(),
            level="rules",
            seed=None,
            full=True,
            blind_nil=False,
            folder=None,
            kept_in=two.documents("spades-game", "anna"),
        )
        assert notice is None and again.saved() == kept
        assert two.documents("spades-game", "bob").load(HOME, lambda data: data) == (None, None)
        fresh, _ = home_table(
            Spectrum(),
            level="rules",
            seed=5,
            full=True,
            blind_nil=False,
            folder=None,
            new=True,
            kept_in=two.documents("spades-game", "anna"),
        )
        assert fresh.hand_number == 0
        import psycopg

        with psycopg.connect(database) as connection:
            aside = connection.execute("SELECT why, data FROM zxcards_set_aside WHERE code = 'anna/home'").fetchall()
        assert [(why, json.loads(data)) for why, data in aside] == [("given-up", kept)]  # nothing owned is lost
    finally:
        one.close()
        two.close()


def test_the_full_game_kept_in_the_shared_store_is_played_by_one_program_at_a_time(database):
    from games.spades import run
    from spectrum import Spectrum

    one, two = PostgresStore(database), PostgresStore(database)
    try:
        with one.held("spades-game", "anna", "Your game to 500"):
            with pytest.raises(InUse, match="another zxcards"):
                run(Spectrum(), full_rules=True, store=two, owner="anna")
    finally:
        one.close()
        two.close()
