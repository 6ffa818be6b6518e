"""The players' money and deals, kept in one SQLite database in the user's data folder.

A player's name is only ever a value in the database, never part of a file name. Every payment is
one transaction together with the position it pays for, so a program killed at any moment leaves
each account exactly as it was after the last whole payment: no dollar lost, none paid twice.
"""

from __future__ import annotations

import json
import sqlite3
import string
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..datafolder import default_folder
from .rules import CARD_PAYS, DECK_PRICE

START_MONEY = 500
NAME_LENGTH = 16
NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + " -'._")
DATABASE = "canfield.sqlite3"

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,                 -- as the player typed it
    name_key TEXT NOT NULL UNIQUE,      -- the same name whatever the capitals and spacing
    balance INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    id INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    number INTEGER NOT NULL,            -- the deal number: the seed of its shuffle
    cards_home INTEGER NOT NULL,
    result TEXT NOT NULL,               -- playing, won, stuck (no move left) or given up
    balance INTEGER NOT NULL,           -- the account's balance after this deal's latest payment
    position TEXT NOT NULL              -- the table as JSON, to carry on after leaving
);
CREATE TABLE IF NOT EXISTS payments (
    id INTEGER PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    deal INTEGER REFERENCES deals(id),
    amount INTEGER NOT NULL,
    reason TEXT NOT NULL                -- fresh start, deck, or cards home
);
"""

PLAYING, WON, STUCK, GIVEN_UP = "playing", "won", "stuck", "given up"


def check_name(name: str) -> str | None:
    """Why `name` can't be a player's name, or None when it can."""
    name = name.strip()
    if not name:
        return "Please type your name"
    if len(name) > NAME_LENGTH:
        return f"A name has at most {NAME_LENGTH} characters"
    if not set(name) <= NAME_CHARACTERS:
        return "Use letters, digits, spaces and - ' . _ only"
    if not any(char.isalnum() for char in name):
        return "A name needs a letter or a digit"
    return None


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True)
class DealRecord:
    id: int
    number: int
    cards_home: int
    result: str
    balance: int
    position: dict


class Bank:
    """Accounts in `folder` (created, with the database, when the first account is opened)."""

    def __init__(self, folder: Path | str | None = None):
        self.folder = Path(folder) if folder is not None else default_folder()
        self._db: sqlite3.Connection | None = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.folder / DATABASE, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            with self._transaction():
                for statement in SCHEMA.split(";"):
                    self._db.execute(statement)
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextmanager
    def _transaction(self):
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def open_account(self, name: str) -> Account:
        """The account of `name`, opened with START_MONEY the first time; ValueError (with the
        message for the player) for a name that can't be one, and then nothing is created."""
        refusal = check_name(name)
        if refusal:
            raise ValueError(refusal)
        name = " ".join(name.split())
        db = self.db
        with self._transaction():
            row = db.execute("SELECT id, name FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
            if row is None:
                cursor = db.execute("INSERT INTO accounts (name, name_key, balance) VALUES (?, ?, 0)",
                                    (name, name_key(name)))
                row = (cursor.lastrowid, name)
                self._pay(row[0], None, START_MONEY, "fresh start")
        return Account(*row)

    def _pay(self, account: int, deal: int | None, amount: int, reason: str) -> int:
        """One payment, inside the caller's transaction; the new balance."""
        self._db.execute("INSERT INTO payments (account, deal, amount, reason) VALUES (?, ?, ?, ?)",
                         (account, deal, amount, reason))
        self._db.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, account))
        return self._db.execute("SELECT balance FROM accounts WHERE id = ?", (account,)).fetchone()[0]

    def balance(self, account: Account) -> int:
        return self.db.execute("SELECT balance FROM accounts WHERE id = ?", (account.id,)).fetchone()[0]

    def buy_deck(self, account: Account, number: int, position: dict, cards_home: int) -> int:
        """Pay for deal `number` (starting again with START_MONEY when the money can't buy a
        deck) and for the cards its layout sent home; the new deal's id."""
        db = self.db
        with self._transaction():
            balance = db.execute("SELECT balance FROM accounts WHERE id = ?", (account.id,)).fetchone()[0]
            if balance < DECK_PRICE:
                self._pay(account.id, None, START_MONEY - balance, "fresh start")
            deal = db.execute("INSERT INTO deals (account, number, cards_home, result, balance, position) "
                              "VALUES (?, ?, 0, ?, 0, ?)",
                              (account.id, number, PLAYING, json.dumps(position))).lastrowid
            self._pay(account.id, deal, -DECK_PRICE, "deck")
            self._record(account.id, deal, position, cards_home)
        return deal

    def record(self, account: Account, deal: int, position: dict, cards_home: int, result: str = PLAYING) -> None:
        """Save a deal's position and pay for the cards that went home since the last record."""
        with self._transaction():
            self._record(account.id, deal, position, cards_home, result)

    def _record(self, account: int, deal: int, position: dict, cards_home: int, result: str = PLAYING) -> None:
        paid_for = self._db.execute("SELECT cards_home FROM deals WHERE id = ? AND account = ?",
                                    (deal, account)).fetchone()[0]
        if cards_home < paid_for:
            raise ValueError("cards never leave the foundations")
        balance = self._pay(account, deal, CARD_PAYS * (cards_home - paid_for), "cards home")
        self._db.execute("UPDATE deals SET cards_home = ?, result = ?, balance = ?, position = ? WHERE id = ?",
                         (cards_home, result, balance, json.dumps(position), deal))

    def unfinished_deal(self, account: Account) -> DealRecord | None:
        """The deal the player left without finishing, to carry on with."""
        row = self.db.execute("SELECT id, number, cards_home, result, balance, position FROM deals "
                              "WHERE account = ? AND result = ? ORDER BY id DESC", (account.id, PLAYING)).fetchone()
        return _deal_record(row) if row else None

    def deals(self, account: Account) -> list[DealRecord]:
        """Every deal of the account, oldest first."""
        rows = self.db.execute("SELECT id, number, cards_home, result, balance, position FROM deals "
                               "WHERE account = ? ORDER BY id", (account.id,)).fetchall()
        return [_deal_record(row) for row in rows]

    def fresh_starts(self, account: Account) -> int:
        """How many times the account started with START_MONEY (the first time included)."""
        return self.db.execute("SELECT COUNT(*) FROM payments WHERE account = ? AND reason = 'fresh start'",
                               (account.id,)).fetchone()[0]


def _deal_record(row) -> DealRecord:
    return DealRecord(*row[:5], json.loads(row[5]))
