"""Canfield's accounts in the database several servers share (`zxcards serve --database …`): the
same bank as `bank.Bank`, its accounts, owners, payments and deals in the schema `canfield` of
PostgreSQL, so that a player's money follows them from server to server.

Every payment is one transaction with the position it pays for, as in SQLite; what SQLite gets from
allowing one writer at a time is had here from row locks: the balance a deck is bought from, and
the deal whose cards home are paid for, are read FOR UPDATE, so two servers paying into one account
at once each see the other's payment, and a name is held while its account is made. An account is
played by one program at a time on every server (a lock of the database's, held on the bank's own
connection: a server that dies lets it go with that connection).
"""

from __future__ import annotations

from contextlib import contextmanager

from ..datafolder import DataUnusable
from ..postgres import ensure_schema, shown_url, unusable
from .bank import Account, Bank, SeatTaken

SCHEMA_VERSION = 1
SCHEMA = [
    "CREATE SCHEMA IF NOT EXISTS canfield",
    """CREATE TABLE IF NOT EXISTS canfield.accounts (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL,                 -- as the player typed it
        name_key TEXT NOT NULL UNIQUE,      -- the same name whatever the capitals and spacing
        balance BIGINT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS canfield.deals (
        id BIGSERIAL PRIMARY KEY,
        account BIGINT NOT NULL REFERENCES canfield.accounts(id),
        number INTEGER NOT NULL,            -- the deal number: the seed of its shuffle
        cards_home INTEGER NOT NULL,
        result TEXT NOT NULL,               -- playing, won, stuck (no move left) or given up
        balance BIGINT NOT NULL,            -- the account's balance after this deal's latest payment
        position TEXT NOT NULL,             -- the table as JSON, to carry on after leaving
        verdict TEXT)                       -- the solver on the deal as dealt: won, lost or unknown""",
    """CREATE TABLE IF NOT EXISTS canfield.payments (
        id BIGSERIAL PRIMARY KEY,
        account BIGINT NOT NULL REFERENCES canfield.accounts(id),
        deal BIGINT REFERENCES canfield.deals(id),
        amount BIGINT NOT NULL,
        reason TEXT NOT NULL)               -- fresh start, deck, or cards home""",
    """CREATE TABLE IF NOT EXISTS canfield.owners (
        account BIGINT PRIMARY KEY REFERENCES canfield.accounts(id),
        owner TEXT NOT NULL)                -- the hash of the secret of the browser that made the account""",
    """CREATE TABLE IF NOT EXISTS canfield.set_aside (
        id BIGSERIAL PRIMARY KEY,
        deal BIGINT NOT NULL REFERENCES canfield.deals(id),
        position TEXT NOT NULL)             -- a saved table that could not be read, kept as it was""",
]
NAME_LOCK, SEAT_LOCK = "canfield name", "canfield seat"  # the first key of each kind of advisory lock


class PostgresBank(Bank):
    """The accounts in the database at `url`; with an `owner`, only that owner's accounts open,
    and the accounts it makes are its own (as `Bank`)."""

    def __init__(self, url: str, owner: str | None = None):
        self.url, self.owner = url, owner
        self.folder = None
        self.path = f"The accounts in {shown_url(url)}"  # how messages name where the accounts are
        self._db = None
        self._seat: int | None = None  # the account whose lock is held

    def check(self) -> None:
        self.open()

    def open(self):
        if self._db is None:
            import psycopg

            self._errors = psycopg.Error
            try:
                self._db = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
                ensure_schema(self._db, "canfield", SCHEMA, SCHEMA_VERSION, self.url)
                self._db.execute("SET search_path TO canfield")
            except psycopg.Error as error:
                self.close()
                raise unusable(self.url, error) from None
            except DataUnusable:
                self.close()
                raise
        return self._db

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
            with db.transaction():
                yield db
        except self._errors as error:
            raise DataUnusable(f"{self.path} can't be used now ({str(error).strip()}): try again in a while") from None

    def _execute(self, query: str, arguments: tuple = ()):
        return self._db.execute(query.replace("?", "%s"), arguments)

    def _insert(self, query: str, arguments: tuple) -> int:
        return self._execute(query + " RETURNING id", arguments).fetchone()[0]

    def _for_update(self, query: str) -> str:
        return query + " FOR UPDATE"

    def _lock_name(self, key: str) -> None:
        self._execute("SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))", (NAME_LOCK, key))

    def _read(self, query: str, arguments: tuple) -> list:
        try:
            return self.db.execute(query.replace("?", "%s"), arguments).fetchall()
        except self._errors as error:
            raise DataUnusable(f"{self.path} can't be read now ({str(error).strip()}): try again in a while") from None

    def take_seat(self, account: Account) -> None:
        """Hold the account for this program until `close`; SeatTaken when a program on any server
        holds it."""
        self.leave_seat()
        taken = self._read("SELECT pg_try_advisory_lock(hashtext(?), ?)", (SEAT_LOCK, account.id))[0][0]
        if not taken:
            raise SeatTaken(f"{account.name} is playing in another zxcards: one game at a time")
        self._seat = account.id

    def leave_seat(self) -> None:
        if self._seat is not None and self._db is not None:
            try:
                self._db.execute("SELECT pg_advisory_unlock(hashtext(%s), %s)", (SEAT_LOCK, self._seat))
            except self._errors:
                pass  # the connection is gone, and the lock with it
        self._seat = None
