"""Canfield's money: the casino's prices, accounts by name, transactions that survive SIGKILL."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.canfield.bank import (
    DATABASE,
    GIVEN_UP,
    NAME_TAKEN,
    PLAYING,
    SCHEMA,
    SCHEMA_VERSION,
    STUCK,
    WON,
    Bank,
    DealRecord,
    NameRefused,
    SeatTaken,
    check_name,
    default_folder,
    statistics,
)

REPO = Path(__file__).resolve().parent.parent


def audit(folder: Path) -> None:
    """Every account's balance is the sum of its payments, and every deal was paid for once and
    paid $5 for each card it has home."""
    with sqlite3.connect(folder / DATABASE) as db:
        for account, balance in db.execute("SELECT id, balance FROM accounts"):
            assert balance == db.execute("SELECT SUM(amount) FROM payments WHERE account = ?", (account,)).fetchone()[0]
        for deal, cards_home in db.execute("SELECT id, cards_home FROM deals"):
            paid = dict(db.execute("SELECT reason, SUM(amount) FROM payments WHERE deal = ? GROUP BY reason", (deal,)))
            assert paid == {"deck": -50, "cards home": 5 * cards_home}


def test_a_new_player_has_500_and_a_deck_costs_50(tmp_path):
    bank = Bank(tmp_path / "new")
    account = bank.open_account("Anna")
    assert bank.balance(account) == 500
    bank.buy_deck(account, 12, {}, 0)
    assert bank.balance(account) == 450
    assert DATABASE in {path.name for path in (tmp_path / "new").iterdir()}


def test_every_card_home_pays_5_the_first_included(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.buy_deck(account, 12, {"at": "deal"}, 1)  # the first foundation card
    assert bank.balance(account) == 455
    bank.record(account, deal, {"at": "later"}, 20)
    assert bank.balance(account) == 550
    bank.record(account, deal, {"at": "end"}, 52, WON)
    assert bank.balance(account) == 500 + 210  # a won game pays $260 for a $50 deck
    audit(tmp_path)


def test_recording_the_same_cards_again_pays_nothing_more(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.buy_deck(account, 3, {}, 1)
    for _ in range(3):
        bank.record(account, deal, {}, 4)
    assert bank.balance(account) == 450 + 20
    with pytest.raises(ValueError):
        bank.record(account, deal, {}, 3)  # cards never come back from the foundations
    assert bank.balance(account) == 470
    audit(tmp_path)


def test_money_that_cannot_buy_a_deck_starts_again_at_500(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    for number in range(9):  # nine decks with one card home each: $500 - 9 * $45 = $95
        bank.record(account, bank.buy_deck(account, number + 1, {}, 1), {}, 1, GIVEN_UP)
    assert bank.balance(account) == 95
    bank.buy_deck(account, 10, {}, 1)
    assert bank.balance(account) == 50
    assert bank.fresh_starts(account) == 1
    bank.buy_deck(account, 11, {}, 1)  # $50 buys one more deck
    assert bank.balance(account) == 5
    bank.buy_deck(account, 12, {}, 1)  # $5 does not: a fresh $500 first
    assert bank.balance(account) == 455 and bank.fresh_starts(account) == 2
    audit(tmp_path)


def test_accounts_are_kept_by_name_whatever_the_capitals_and_spaces(tmp_path):
    bank = Bank(tmp_path)
    anna = bank.open_account("Anna  Lee")
    bank.buy_deck(anna, 5, {}, 1)
    bank.close()
    bank = Bank(tmp_path)
    again = bank.open_account(" anna lee ")
    assert again == anna and again.name == "Anna Lee" and bank.balance(again) == 455
    assert bank.open_account("Bob") != anna


def test_on_a_shared_bank_an_account_opens_only_for_the_owner_that_made_it(tmp_path):
    anna = Bank(tmp_path, owner="a" * 32).open_account("Anna")
    Bank(tmp_path).open_account("Local")  # made at the computer itself: no browser owns it
    intruder = Bank(tmp_path, owner="b" * 32)
    for name in ("anna", " ANNA ", "Local"):
        with pytest.raises(NameRefused, match=NAME_TAKEN):
            intruder.open_account(name)
    assert Bank(tmp_path, owner="a" * 32).open_account("anna") == anna
    assert intruder.open_account("Bob").name == "Bob"
    with sqlite3.connect(tmp_path / DATABASE) as db:  # nothing was made by the refusals
        assert db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 3
        assert dict(db.execute("SELECT a.name, o.owner FROM accounts a JOIN owners o ON o.account = a.id")) == {
            "Anna": "a" * 32,
            "Bob": "b" * 32,
        }
    audit(tmp_path)


def test_an_unfinished_deal_is_kept_with_its_position(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.buy_deck(account, 77, {"stock": ["as"]}, 1)
    bank.record(account, deal, {"stock": []}, 2)
    record = Bank(tmp_path).unfinished_deal(account)
    assert (record.id, record.number, record.cards_home, record.result, record.position) == (
        deal,
        77,
        2,
        PLAYING,
        {"stock": []},
    )
    bank.record(account, deal, {"stock": []}, 2, GIVEN_UP)
    assert bank.unfinished_deal(account) is None
    assert [(d.number, d.result, d.balance) for d in bank.deals(account)] == [(77, GIVEN_UP, 460)]


HOSTILE_NAMES = [
    "",
    "   ",
    "../../etc/passwd",
    "a/b",
    "a\\b",
    "C:\\games",
    "bell\x07",
    "tab\there",
    "line\nfeed",
    "nul\x00",
    "\x1b[31mred",
    "x" * 10_000,
    "x" * 17,
    "名前",
    "caf\xe9",
    "\x7f",
    "--",
    "'; DROP TABLE accounts; --",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_are_refused_and_create_nothing(tmp_path, name):
    folder = tmp_path / "data"
    bank = Bank(folder)
    with pytest.raises(ValueError) as refusal:
        bank.open_account(name)
    assert str(refusal.value) == check_name(name) and len(str(refusal.value)) <= 64
    assert list(tmp_path.iterdir()) == []  # not even the folder
    bank.open_account("Anna")
    files = sorted(folder.iterdir())
    with pytest.raises(ValueError):
        bank.open_account(name)
    assert sorted(folder.iterdir()) == files
    assert bank.db.execute("SELECT name FROM accounts").fetchall() == [("Anna",)]


@pytest.mark.parametrize("name", ["Anna", "J. R. O'Neil", "x_y-z", "7 of Clubs", "a" * 16])
def test_ordinary_names_are_welcome(tmp_path, name):
    assert check_name(name) is None
    assert Bank(tmp_path).open_account(name).name == name


def test_the_data_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_folder() == tmp_path / "xdg" / "zxcards"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # the XDG rules ignore a relative path
    assert default_folder() == tmp_path / "home" / ".local" / "share" / "zxcards"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_folder() == tmp_path / "home" / ".local" / "share" / "zxcards"
    assert Bank().folder == default_folder()


# --- killed while paying -----------------------------------------------------------------------

STALL_AT_STATEMENT = """
import sys, time
from games.canfield.bank import Bank
bank = Bank(sys.argv[1])
account = bank.open_account("Anna")
deal = bank.buy_deck(account, 7, {"home": 1}, 1)

def stall(statement):
    if statement.startswith(sys.argv[2]):
        print("paying", flush=True)
        time.sleep(60)

bank.db.set_trace_callback(stall)
bank.record(account, deal, {"home": 9}, 9)
print("paid", flush=True)
"""


def child(script: str, *args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )


@pytest.mark.parametrize("statement", ["INSERT INTO payments", "UPDATE accounts", "UPDATE deals", "COMMIT"])
def test_sigkill_in_the_middle_of_a_payment_loses_and_doubles_nothing(tmp_path, statement):
    process = child(STALL_AT_STATEMENT, tmp_path, statement)
    try:
        assert process.stdout.readline() == "paying\n"  # inside the transaction, before it ends
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert process.returncode == -signal.SIGKILL
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    assert bank.balance(account) == 455  # as after the last whole payment
    deal = bank.unfinished_deal(account)
    assert (deal.cards_home, deal.position) == (1, {"home": 1})
    audit(tmp_path)
    bank.record(account, deal.id, {"home": 9}, 9)  # the program, started again, pays once
    bank.record(account, deal.id, {"home": 9}, 9)
    assert bank.balance(account) == 455 + 40
    audit(tmp_path)


PAY_FOREVER = """
import random, sys
from games.canfield.bank import Bank, WON
bank = Bank(sys.argv[1])
account = bank.open_account("Anna")
rng = random.Random(int(sys.argv[2]))
print("started", flush=True)
while True:
    deal = bank.buy_deck(account, rng.randrange(1, 65536), {}, 1)
    home = 1
    while home < 52 and rng.random() < 0.9:
        home += rng.randrange(1, 4)
        home = min(home, 52)
        bank.record(account, deal, {"home": home}, home, WON if home == 52 else "playing")
"""


def test_sigkill_at_random_moments_keeps_every_account_exact(tmp_path):
    rng = random.Random(4)
    for run in range(6):
        process = child(PAY_FOREVER, tmp_path, run)
        try:
            assert process.stdout.readline() == "started\n"
            time.sleep(rng.uniform(0.05, 0.4))
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        audit(tmp_path)
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT COUNT(*) FROM deals").fetchone()[0] > 6  # it was paying when killed


# --- one program at a time on an account ---------------------------------------------------------

TAKE_A_SEAT = """
import sys, time
from games.canfield.bank import Bank, SeatTaken
bank = Bank(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # everyone starts at once
account = bank.open_account("New Name")
try:
    bank.take_seat(account)
except SeatTaken as taken:
    print("taken:", taken, flush=True)
else:
    bank.buy_deck(account, 7, {}, 1)
    print("bought", flush=True)
    time.sleep(3)
"""


def test_four_programs_opening_one_new_name_at_once_make_one_account_and_one_game(tmp_path):
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", TAKE_A_SEAT, str(tmp_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(REPO)),
        )
        for _ in range(4)
    ]
    for process in processes:
        assert process.stdout.readline() == "ready\n"
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    answers = sorted(process.stdout.readline().strip() for process in processes)
    for process in processes:
        process.wait()
    assert answers == ["bought"] + ["taken: New Name is playing in another zxcards: one game at a time"] * 3
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM payments WHERE reason = 'fresh start'").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 1
    audit(tmp_path)


def test_a_seat_is_free_again_when_its_program_ends_even_killed(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", TAKE_A_SEAT, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert process.stdout.readline() == "ready\n"
    process.stdin.write("go\n")
    process.stdin.flush()
    assert process.stdout.readline() == "bought\n"
    bank = Bank(tmp_path)
    account = bank.open_account("new name")
    with pytest.raises(SeatTaken):
        bank.take_seat(account)
    process.send_signal(signal.SIGKILL)
    process.wait()
    bank.take_seat(account)  # nothing left behind holds it
    other = Bank(tmp_path)
    with pytest.raises(SeatTaken):
        other.take_seat(account)
    bank.close()
    other.take_seat(account)
    other.close()


# --- a database that can't be used: one line, exit code 1, the file as it was -----------------------


def made_database(folder: Path) -> Path:
    bank = Bank(folder)
    account = bank.open_account("Anna")
    bank.buy_deck(account, 7, {"home": 1}, 1)
    bank.close()
    for leftover in folder.glob(DATABASE + "-*"):  # the write-ahead log, checkpointed on close
        assert leftover.stat().st_size == 0 or leftover.name.endswith("-shm")
    return folder / DATABASE


def truncated(path):
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2 + 100])


def random_bytes(path):
    path.write_bytes(random.Random(1).randbytes(8192))


def smashed_header(path):
    data = bytearray(path.read_bytes())
    data[:16] = b"This is no db!!\0"
    path.write_bytes(bytes(data))


def smashed_page_size(path):
    data = bytearray(path.read_bytes())
    data[16:18] = b"\x00\x07"
    path.write_bytes(bytes(data))


def newer_version(path):
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()  # the last connection's close writes the log back into the file


def directory_in_its_place(path):
    path.unlink()
    path.mkdir()
    (path / "something").write_text("kept")


def run_canfield(folder: Path, keys: str = "Anna{ENTER}", *, limit_file_size: int | None = None):
    preamble = ""
    if limit_file_size:  # a disk that is full beyond `limit_file_size` bytes a file
        preamble = (
            f"import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit_file_size}, {limit_file_size})); "
        )
    code = preamble + "import sys; from games.host.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "canfield", "--headless", "--keys", keys, "--data-dir", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )


def snapshot(path: Path):
    if path.is_dir():
        return {item.name: item.read_bytes() for item in path.iterdir()}
    return path.read_bytes()


@pytest.mark.parametrize(
    "damage, said",
    [
        (truncated, "is damaged"),
        (random_bytes, "is damaged"),
        (smashed_header, "is damaged"),
        (smashed_page_size, "is damaged"),
        (newer_version, "was written by a newer zxcards"),
        (directory_in_its_place, "is not a file: move it away"),
    ],
)
def test_a_database_that_cannot_be_used_is_said_in_one_line_and_left_as_it_was(tmp_path, damage, said):
    path = made_database(tmp_path)
    damage(path)
    before = snapshot(path)
    finished = run_canfield(tmp_path)
    assert finished.returncode == 1
    assert finished.stderr.count("\n") == 1 and f"{path} {said}" in finished.stderr, finished.stderr
    assert snapshot(path) == before


def test_a_file_where_the_accounts_locks_go_is_said_before_the_name_is_asked(tmp_path):
    made_database(tmp_path)
    seats = tmp_path / "canfield-seats"
    seats.write_text("mine")
    finished = run_canfield(tmp_path, keys="")  # no name typed: it is said before the name is asked
    assert finished.returncode == 1 and finished.stderr.count("\n") == 1
    assert f"{seats} is a file, not a folder" in finished.stderr and seats.read_text() == "mine"


def test_a_data_folder_that_is_a_file_is_said_in_one_line(tmp_path):
    folder = tmp_path / "data"
    folder.write_text("not a folder")
    finished = run_canfield(folder)
    assert finished.returncode == 1 and finished.stderr.count("\n") == 1
    assert f"{folder} is a file, not a folder" in finished.stderr
    assert folder.read_text() == "not a folder"


@pytest.mark.parametrize(
    "keys, limit",
    [
        ("Anna{ENTER}", 1024),  # no room even to open the database's shared memory
        ("Anna{ENTER}" + "nn" * 40, 32768),  # room to start, none as the log of payments grows
    ],
)
def test_a_full_disk_is_said_in_one_line_and_loses_nothing(tmp_path, keys, limit):
    path = made_database(tmp_path)
    finished = run_canfield(tmp_path, keys, limit_file_size=limit)
    assert finished.returncode == 1 and finished.stderr.count("\n") == 1, finished.stderr
    assert f"{path} can't grow: the disk is full" in finished.stderr
    audit(tmp_path)  # every payment whole: what was paid before the disk filled is kept


LOCK_IT = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
"""


def test_a_database_locked_by_another_program_is_said_in_one_line(tmp_path):
    path = made_database(tmp_path)
    with sqlite3.connect(path) as db:  # the other program keeps no write-ahead log
        db.execute("PRAGMA journal_mode=DELETE")
    before = snapshot(path)
    locker = child(LOCK_IT, path)
    try:
        assert locker.stdout.readline() == "locked\n"
        finished = run_canfield(tmp_path)
    finally:
        locker.kill()
        locker.wait()
    assert finished.returncode == 1 and finished.stderr.count("\n") == 1, finished.stderr
    assert f"{path} is locked by another program" in finished.stderr
    assert snapshot(path) == before


def test_a_database_of_the_first_version_is_brought_up_to_date(tmp_path):
    path = tmp_path / DATABASE
    with sqlite3.connect(path) as db:  # the tables as the first version made them
        db.executescript(SCHEMA.replace("CREATE TABLE IF NOT EXISTS set_aside", "CREATE TABLE IF NOT EXISTS unused"))
        db.execute("INSERT INTO accounts (name, name_key, balance) VALUES ('Anna', 'anna', 450)")
        db.execute(
            "INSERT INTO deals (account, number, cards_home, result, balance, position) "
            "VALUES (1, 7, 1, 'stuck', 455, '{}')"
        )
    bank = Bank(tmp_path)
    account = bank.open_account("anna")
    assert bank.balance(account) == 450 and bank.unjudged_deals(account) == [(1, 7)]
    bank.judge(1, "lost")
    assert bank.deals(account)[0].verdict == "lost" and bank.unjudged_deals(account) == []
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_statistics_count_finished_deals_streaks_and_what_the_solver_could_win():
    deals = [
        DealRecord(number, number, home, result, 0, None, verdict)
        for number, (home, result, verdict) in enumerate(
            [
                (52, WON, "won"),
                (10, STUCK, "won"),
                (52, WON, "won"),
                (52, WON, None),
                (4, GIVEN_UP, "lost"),
                (52, WON, "unknown"),
                (20, PLAYING, "lost"),
            ],
            1,
        )
    ]
    record = statistics(deals)
    assert (record.played, record.won, record.win_rate) == (6, 4, 4 / 6)
    assert (record.average_home, record.best_home) == ((52 * 4 + 10 + 4) / 6, 52)
    assert (record.streak, record.best_streak) == (1, 2)
    assert (record.judged, record.winnable, record.to_judge) == (4, 3, 1)  # the deal playing doesn't count
    empty = statistics([])
    assert (empty.played, empty.win_rate, empty.average_home, empty.best_streak) == (0, None, None, 0)


@pytest.fixture
def read_only():
    """Makes folders read-only, for root too (an immutable folder), and writable again after."""
    made = []

    def make(folder: Path) -> None:
        if os.geteuid() == 0:
            if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
                pytest.skip("root ignores permissions and this file system has no immutable folders")
        else:
            folder.chmod(0o555)
        made.append(folder)

    yield make
    for folder in made:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        else:
            folder.chmod(0o755)


@pytest.mark.parametrize("with_database", [False, True])
def test_a_read_only_data_folder_is_said_in_one_line(tmp_path, read_only, with_database):
    path = made_database(tmp_path) if with_database else tmp_path / DATABASE
    before = snapshot(path) if with_database else None
    read_only(tmp_path)
    finished = run_canfield(tmp_path)
    assert finished.returncode == 1 and finished.stderr.count("\n") == 1, finished.stderr
    assert str(tmp_path) in finished.stderr and "writ" in finished.stderr  # "…you may write" / "can't be written"
    assert (snapshot(path) if with_database else path.exists()) == (before if with_database else False)
