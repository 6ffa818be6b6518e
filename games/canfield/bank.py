"""The players' money and deals, kept in one SQLite database in the user's data folder.

A player's name is only ever a value in the database, never part of a file name. Every payment is
one transaction together with the position it pays for, so a program killed at any moment leaves
each account exactly as it was after the last whole payment: no dollar lost, none paid twice. One
account is played by one program at a time: it holds a lock on the account while it plays.

A database that can't be used (damaged, locked by another program, in a folder that can't be
written, from a newer zxcards) raises `DataUnusable` with one line for the player, and is left
exactly as it was.

A bank may belong to many players who are not at one computer (`zxcards serve`): then each account
has an owner, the hash of a secret its player's browser keeps, and no other owner may open it.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import string
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..datafolder import DataUnusable, check_folder, default_folder, folder_problem
from .difficulty import LEVELS
from .rules import CARD_PAYS, DECK_PRICE

START_MONEY = 500
NAME_LENGTH = 16
NAME_CHARACTERS = frozenset(string.ascii_letters + string.digits + " -'._")
NAME_RULE = "A-Z, 0-9, spaces and - ' . _"  # NAME_CHARACTERS in words: the Spectrum's keys type no others
DATABASE = "canfield.sqlite3"
SEATS = "canfield-seats"  # the folder of the accounts' locks, one file per account id
SCHEMA_VERSION = 2  # PRAGMA user_version: 0 before deals kept the solver's verdict, 1 before their level and
# whether they were dealt as winnable
BUSY_SECONDS = 5  # how long to wait for another program's write to end

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
CREATE TABLE IF NOT EXISTS owners (
    account INTEGER PRIMARY KEY REFERENCES accounts(id),
    owner TEXT NOT NULL                 -- the hash of the secret of the browser that made the account
);
CREATE TABLE IF NOT EXISTS set_aside (
    id INTEGER PRIMARY KEY,
    deal INTEGER NOT NULL REFERENCES deals(id),
    position TEXT NOT NULL              -- a saved table that could not be read, kept as it was
);
"""
# Columns added since the first version, each to a database that lacks it (nothing else changes)
ADDED_COLUMNS = {
    "verdict": "TEXT",  # the solver on the deal as dealt: won, lost or unknown
    "winnable": "INTEGER NOT NULL DEFAULT 0",  # 1: dealt as one the solver had proved winnable
    "difficulty": "TEXT",  # easy, medium or hard (`difficulty.LEVELS`), for a deal the solver won
}


class NameRefused(ValueError):
    """A name that can't be a player's; the message is for the player."""


NAME_TAKEN = "That name is taken: choose another"


class SeatTaken(Exception):
    """The account is being played by another program."""


PLAYING, WON, STUCK, GIVEN_UP = "playing", "won", "stuck", "given up"


def check_name(name: str) -> str | None:
    """Why `name` can't be a player's name, or None when it can."""
    name = name.strip()
    if not name:
        return "Please type your name"
    if len(name) > NAME_LENGTH:
        return f"A name has at most {NAME_LENGTH} characters"
    if not set(name) <= NAME_CHARACTERS:
        return f"A name holds only {NAME_RULE}"
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
    position: dict | None  # None when the saved table can't be read
    verdict: str | None = None  # the solver on the deal as dealt, once it has judged it
    winnable: bool = False  # dealt as a deal the solver had proved winnable
    difficulty: str | None = None  # its level, once the solver has won it


@dataclass(frozen=True)
class Statistics:
    """A player's record as patience players expect it (after PySolFC's statistics)."""

    played: int  # finished deals: won, stuck or given up
    won: int
    average_home: float | None  # cards home a finished deal
    best_home: int
    streak: int  # deals won in a row up to the last finished one
    best_streak: int
    judged: int  # finished deals the solver has decided, as they were dealt
    winnable: int  # of them, those it could win
    to_judge: int  # finished deals the solver has not judged yet
    dealt_winnable: int = 0  # finished deals dealt as winnable
    won_winnable: int = 0  # of them, those won
    by_level: tuple[tuple[str, int, int], ...] = ()  # (level, finished deals of it, those won), easy first

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


def statistics(deals: list[DealRecord]) -> Statistics:
    """The record of `deals`, oldest first."""
    finished = [deal for deal in deals if deal.result != PLAYING]
    streak = best_streak = 0
    for deal in finished:
        streak = streak + 1 if deal.result == WON else 0
        best_streak = max(best_streak, streak)
    home = [deal.cards_home for deal in finished]
    return Statistics(
        played=len(finished),
        won=sum(deal.result == WON for deal in finished),
        average_home=sum(home) / len(home) if home else None,
        best_home=max(home, default=0),
        streak=streak,
        best_streak=best_streak,
        judged=sum(deal.verdict in ("won", "lost") for deal in finished),
        winnable=sum(deal.verdict == "won" for deal in finished),
        to_judge=sum(deal.verdict is None for deal in finished),
        dealt_winnable=sum(deal.winnable for deal in finished),
        won_winnable=sum(deal.winnable and deal.result == WON for deal in finished),
        by_level=tuple(
            (
                level,
                sum(deal.difficulty == level for deal in finished),
                sum(deal.difficulty == level and deal.result == WON for deal in finished),
            )
            for level in LEVELS
        ),
    )


DAMAGED = "is damaged: move it elsewhere to start afresh (keep it: the accounts are in it)"


def _what_to_do(error: sqlite3.Error) -> str:
    """What went wrong with the database, and what the player can do about it."""
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return DAMAGED
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return "is locked by another program: close that program and start again"
    if name.startswith("SQLITE_FULL") or name in (
        "SQLITE_IOERR_WRITE",
        "SQLITE_IOERR_FSYNC",
        "SQLITE_IOERR_TRUNCATE",
        "SQLITE_IOERR_SHMSIZE",
    ):
        return "can't grow: the disk is full (or failing); free some space and start again"
    if name.startswith("SQLITE_IOERR"):
        return f"can't be read ({error}): check the disk, then start again"
    if name.startswith("SQLITE_READONLY"):
        return "can't be written: make it and its folder writable, or give --data-dir"
    if name.startswith("SQLITE_CANTOPEN"):
        return "can't be opened: it must be a file you may write, in a folder you may write, or give --data-dir"
    return f"can't be used ({error}): check the file and its folder, or give --data-dir"


class Bank:
    """Accounts in `folder` (created, with the database, when the first account is opened); with an
    `owner`, only that owner's accounts open, and the accounts it makes are its own."""

    def __init__(self, folder: Path | str | None = None, owner: str | None = None):
        self.folder = Path(folder) if folder is not None else default_folder()
        self.owner = owner
        self.path = self.folder / DATABASE
        self._db: sqlite3.Connection | None = None
        self._seat: int | None = None  # the file descriptor of the account lock held

    def check(self) -> None:
        """Open the database now if there is one (or something in its place), so that a database
        or a folder that can't be used is said before anything is asked; a new one (and its
        folder) waits for the first name."""
        check_folder(self.folder)
        if self.folder.exists():
            self.open()
            check_folder(self.folder / SEATS)

    @property
    def db(self) -> sqlite3.Connection:
        return self.open()

    def open(self) -> sqlite3.Connection:
        """The database, opened (and the data folder made) on first use; DataUnusable if it can't be."""
        if self._db is None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise DataUnusable(
                    folder_problem(self.folder)
                    or f"{self.folder} can't be the data folder "
                    f"({error.strerror}): make it a folder you may write, or give --data-dir"
                ) from None
            check_folder(self.folder)
            try:
                self._db = self._open()
            except sqlite3.Error as error:
                self.close()
                raise DataUnusable(f"{self.path} {_what_to_do(error)}") from None
            except DataUnusable:
                self.close()
                raise
        return self._db

    def _open(self) -> sqlite3.Connection:
        """The database, checked before anything is written to it, and brought up to this version."""
        if self.path.exists() and not self.path.is_file():
            raise DataUnusable(f"{self.path} is not a file: move it away, or give --data-dir")
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]  # reads the header
        if version > SCHEMA_VERSION:
            raise DataUnusable(
                f"{self.path} was written by a newer zxcards: update zxcards to use it (it is left as it is)"
            )
        if self._db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise DataUnusable(f"{self.path} {DAMAGED}")
        self._write_ahead_log()
        self._db.execute("PRAGMA synchronous=FULL")
        with self._transaction():
            for statement in SCHEMA.split(";"):
                self._db.execute(statement)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(deals)")}
            for column, kind in ADDED_COLUMNS.items():
                if column not in columns:
                    self._db.execute(f"ALTER TABLE deals ADD COLUMN {column} {kind}")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return self._db

    def _write_ahead_log(self) -> None:
        """Turn on the write-ahead log (readers never wait for a writer). Another program opening a
        new database at the same moment makes SQLite answer busy at once instead of waiting, so
        this waits itself."""
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if not getattr(error, "sqlite_errorname", "").startswith("SQLITE_BUSY") or time.monotonic() > deadline:
                    raise
            time.sleep(0.02)

    def close(self) -> None:
        self.leave_seat()
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextmanager
    def _transaction(self):
        """One transaction; a database failure inside it becomes DataUnusable (and nothing of it is
        kept)."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise DataUnusable(f"{self.path} {_what_to_do(error)}") from None

    def open_account(self, name: str) -> Account:
        """The account of `name`, opened with START_MONEY the first time; NameRefused (with the
        message for the player) for a name that can't be one, or that another owner's account has,
        and then nothing is created."""
        refusal = check_name(name)
        if refusal:
            raise NameRefused(refusal)
        name = " ".join(name.split())
        with self._transaction():
            self._lock_name(name_key(name))
            row = self._execute("SELECT id, name FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
            if row is None:
                row = (
                    self._insert(
                        "INSERT INTO accounts (name, name_key, balance) VALUES (?, ?, 0)", (name, name_key(name))
                    ),
                    name,
                )
                self._pay(row[0], None, START_MONEY, "fresh start")
                if self.owner is not None:
                    self._execute("INSERT INTO owners (account, owner) VALUES (?, ?)", (row[0], self.owner))
            elif self.owner is not None:
                owner = self._execute("SELECT owner FROM owners WHERE account = ?", (row[0],)).fetchone()
                if owner is None or owner[0] != self.owner:
                    raise NameRefused(NAME_TAKEN)
        return Account(*row)

    def take_seat(self, account: Account) -> None:
        """Hold the account for this program until `close` (or until it ends, however it ends);
        SeatTaken when another program holds it."""
        self.leave_seat()
        seats = self.folder / SEATS
        try:
            seats.mkdir(exist_ok=True)
            seat = os.open(seats / str(account.id), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise DataUnusable(
                folder_problem(seats)
                or f"{seats} can't hold the accounts' locks ({error.strerror}): "
                "make it a folder you may write, or give --data-dir"
            ) from None
        try:
            fcntl.flock(seat, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(seat)
            raise SeatTaken(f"{account.name} is playing in another zxcards: one game at a time") from None
        self._seat = seat

    def leave_seat(self) -> None:
        if self._seat is not None:
            os.close(self._seat)  # closing lets the lock go
            self._seat = None

    def _pay(self, account: int, deal: int | None, amount: int, reason: str) -> int:
        """One payment, inside the caller's transaction; the new balance."""
        self._execute(
            "INSERT INTO payments (account, deal, amount, reason) VALUES (?, ?, ?, ?)", (account, deal, amount, reason)
        )
        self._execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, account))
        return self._execute("SELECT balance FROM accounts WHERE id = ?", (account,)).fetchone()[0]

    # --- what differs from one database to another (`bank_postgres.PostgresBank`) ------------------

    def _execute(self, query: str, arguments: tuple = ()):
        """`query` (its arguments as ?), inside the caller's transaction: the cursor."""
        return self._db.execute(query, arguments)

    def _insert(self, query: str, arguments: tuple) -> int:
        """An INSERT inside the caller's transaction: the id of the row it made."""
        return self._db.execute(query, arguments).lastrowid

    def _for_update(self, query: str) -> str:
        """A SELECT of a row the transaction goes on to change: SQLite's one writer at a time (BEGIN
        IMMEDIATE) already holds it."""
        return query

    def _lock_name(self, key: str) -> None:
        """Within a transaction, hold name `key` until it ends: SQLite's one writer already does."""

    def _read(self, query: str, arguments: tuple) -> list:
        try:
            return self.db.execute(query, arguments).fetchall()
        except sqlite3.Error as error:
            raise DataUnusable(f"{self.path} {_what_to_do(error)}") from None

    def balance(self, account: Account) -> int:
        return self._read("SELECT balance FROM accounts WHERE id = ?", (account.id,))[0][0]

    def buy_deck(
        self,
        account: Account,
        number: int,
        position: dict,
        cards_home: int,
        result: str = PLAYING,
        *,
        winnable: bool = False,
        verdict: str | None = None,
        difficulty: str | None = None,
    ) -> int:
        """Pay for deal `number` (starting again with START_MONEY when the money can't buy a
        deck) and for the cards its layout sent home; the new deal's id. A deal dealt as
        `winnable` costs the same, and comes with the solver's `verdict` and `difficulty`."""
        with self._transaction():
            balance = self._execute(
                self._for_update("SELECT balance FROM accounts WHERE id = ?"), (account.id,)
            ).fetchone()[0]
            if balance < DECK_PRICE:
                self._pay(account.id, None, START_MONEY - balance, "fresh start")
            deal = self._insert(
                "INSERT INTO deals (account, number, cards_home, result, balance, position, verdict, "
                "winnable, difficulty) VALUES (?, ?, 0, ?, 0, ?, ?, ?, ?)",
                (account.id, number, PLAYING, json.dumps(position), verdict, int(winnable), difficulty),
            )
            self._pay(account.id, deal, -DECK_PRICE, "deck")
            self._record(account.id, deal, position, cards_home, result)
        return deal

    def record(self, account: Account, deal: int, position: dict, cards_home: int, result: str = PLAYING) -> None:
        """Save a deal's position and pay for the cards that went home since the last record."""
        with self._transaction():
            self._record(account.id, deal, position, cards_home, result)

    def _record(self, account: int, deal: int, position: dict, cards_home: int, result: str = PLAYING) -> None:
        paid_for = self._execute(
            self._for_update("SELECT cards_home FROM deals WHERE id = ? AND account = ?"), (deal, account)
        ).fetchone()[0]
        if cards_home < paid_for:
            raise ValueError("cards never leave the foundations")
        balance = self._pay(account, deal, CARD_PAYS * (cards_home - paid_for), "cards home")
        self._execute(
            "UPDATE deals SET cards_home = ?, result = ?, balance = ?, position = ? WHERE id = ?",
            (cards_home, result, balance, json.dumps(position), deal),
        )

    def set_aside(self, account: Account, record: DealRecord) -> None:
        """Close a deal whose saved table can't be read, keeping that text as it was in `set_aside`."""
        with self._transaction():
            text = self._execute(
                self._for_update("SELECT position FROM deals WHERE id = ? AND account = ?"), (record.id, account.id)
            ).fetchone()[0]
            self._execute("INSERT INTO set_aside (deal, position) VALUES (?, ?)", (record.id, text))
            self._execute("UPDATE deals SET result = ?, position = '{}' WHERE id = ?", (GIVEN_UP, record.id))

    def judge(self, deal: int, verdict: str, difficulty: str | None = None) -> None:
        """Keep the solver's verdict on a deal as it was dealt, and its level when it was won."""
        with self._transaction():
            self._execute("UPDATE deals SET verdict = ?, difficulty = ? WHERE id = ?", (verdict, difficulty, deal))

    def unfinished_deal(self, account: Account) -> DealRecord | None:
        """The deal the player left without finishing, to carry on with."""
        rows = self._read(
            f"SELECT {DEAL_COLUMNS} FROM deals WHERE account = ? AND result = ? ORDER BY id DESC LIMIT 1",
            (account.id, PLAYING),
        )
        return _deal_record(rows[0]) if rows else None

    def deals(self, account: Account) -> list[DealRecord]:
        """Every deal of the account, oldest first (their tables are not read: `position` is None)."""
        rows = self._read(f"SELECT {DEAL_COLUMNS} FROM deals WHERE account = ? ORDER BY id", (account.id,))
        return [DealRecord(*row[:5], None, row[6], bool(row[7]), row[8]) for row in rows]

    def unjudged_deals(self, account: Account) -> list[tuple[int, int]]:
        """(id, number) of the account's finished deals the solver has not judged, newest first."""
        return [
            tuple(row)
            for row in self._read(
                "SELECT id, number FROM deals WHERE account = ? AND result != ? AND verdict IS NULL ORDER BY id DESC",
                (account.id, PLAYING),
            )
        ]

    def fresh_starts(self, account: Account) -> int:
        """How many times the account started with START_MONEY (the first time included)."""
        return self._read("SELECT COUNT(*) FROM payments WHERE account = ? AND reason = 'fresh start'", (account.id,))[
            0
        ][0]


DEAL_COLUMNS = "id, number, cards_home, result, balance, position, verdict, winnable, difficulty"


def _deal_record(row) -> DealRecord:
    try:
        position = json.loads(row[5])
    except (ValueError, RecursionError):
        position = None
    return DealRecord(*row[:5], position if isinstance(position, dict) else None, row[6], bool(row[7]), row[8])
