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

from games.canfield.bank import DATABASE, GIVEN_UP, PLAYING, WON, Bank, check_name, default_folder

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


def test_an_unfinished_deal_is_kept_with_its_position(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.buy_deck(account, 77, {"stock": ["as"]}, 1)
    bank.record(account, deal, {"stock": []}, 2)
    record = Bank(tmp_path).unfinished_deal(account)
    assert (record.id, record.number, record.cards_home, record.result, record.position) == (
        deal, 77, 2, PLAYING, {"stock": []})
    bank.record(account, deal, {"stock": []}, 2, GIVEN_UP)
    assert bank.unfinished_deal(account) is None
    assert [(d.number, d.result, d.balance) for d in bank.deals(account)] == [(77, GIVEN_UP, 460)]


HOSTILE_NAMES = ["", "   ", "../../etc/passwd", "a/b", "a\\b", "C:\\games", "bell\x07", "tab\there",
                 "line\nfeed", "nul\x00", "\x1b[31mred", "x" * 10_000, "x" * 17, "名前", "caf\xe9",
                 "\x7f", "--", "'; DROP TABLE accounts; --"]


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
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(REPO)))


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
