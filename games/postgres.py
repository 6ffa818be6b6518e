"""The store several zxcards servers share: one PostgreSQL database (`zxcards serve --database
postgresql://…`), through psycopg 3 and its connection pool.

What is kept here follows a player from server to server: every table by its code, and what a
program keeps for a player (Spades' full game) by the hash of the browser's secret, each a JSON
document written in one transaction after every move; Canfield's accounts (`games.canfield.bank`
keeps them here too, in tables of its own). The tables are made on first use (each part's version
in `zxcards_schema`), by whichever server comes first.

Each document has a version, counted up by every write. A server writes a table only over the
version it last read or wrote itself: once another server has taken the table up (its first server
lost, say, and the table's players sent elsewhere), the first one's writes are refused (`Stale`,
said on the table as "Table NOT kept: …") and nothing the other wrote is lost. A document that can't
be taken up is moved to `zxcards_set_aside`, never deleted.
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

from .datafolder import DataUnusable, InUse

SCHEMA_VERSION = 1
SCHEMA_LOCK = 0x7A78_6361  # the advisory lock every server takes while it makes the tables
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS zxcards_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)",
    """CREATE TABLE IF NOT EXISTS zxcards_kept (
        kind TEXT NOT NULL,             -- tables/ (a program's tables), or a program's own for a player
        code TEXT NOT NULL,             -- a table's code, or owner/code
        version BIGINT NOT NULL,        -- counted up by every write
        data TEXT NOT NULL,             -- the JSON document as written
        written TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, code))""",
    """CREATE TABLE IF NOT EXISTS zxcards_set_aside (
        id BIGSERIAL PRIMARY KEY,
        kind TEXT NOT NULL,
        code TEXT NOT NULL,
        why TEXT NOT NULL,              -- unreadable, or given-up
        data TEXT NOT NULL,
        set_aside TIMESTAMPTZ NOT NULL DEFAULT now())""",
]
CONNECT_SECONDS = 10


class Stale(OSError):
    """A write over a document another server has written since this one read it."""


class StoreUnavailable(OSError):
    """The database can't be reached or refused the write: nothing of it was kept."""


def unusable(url: str, error: Exception) -> DataUnusable:
    """The database can't be used, in one line for whoever started the server."""
    said = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return DataUnusable(
        f"the database {shown_url(url)} can't be used ({said}): check that PostgreSQL runs there "
        "and that the URL, user and password are right"
    )


def shown_url(url: str) -> str:
    """`url` without its password, to be said or logged."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except Exception:  # noqa: BLE001 - a URL psycopg can't read is said as given, with no password in it
        return url.split("@")[-1]
    host, port, user = str(parts.get("host") or "localhost"), parts.get("port"), parts.get("user")
    where = host + (f":{port}" if port else "")
    return f"postgresql://{f'{user}@' if user else ''}{where}/{parts.get('dbname') or ''}"


def ensure_schema(connection, part: str, statements: list[str], version: int, url: str) -> None:
    """Make `part`'s tables (if they are not there yet) in one transaction, every server waiting
    for the one making them; DataUnusable when the database holds a newer version of them."""
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        for statement in SCHEMA[:1] + statements:
            connection.execute(statement)
        row = connection.execute("SELECT version FROM zxcards_schema WHERE part = %s", (part,)).fetchone()
        if row is not None and row[0] > version:
            raise DataUnusable(
                f"the database {shown_url(url)} was written by a newer zxcards ({part} version "
                f"{row[0]}): update zxcards to use it (it is left as it is)"
            )
        connection.execute(
            "INSERT INTO zxcards_schema (part, version) VALUES (%s, %s) ON CONFLICT (part) "
            "DO UPDATE SET version = EXCLUDED.version",
            (part, version),
        )


class PostgresStore:
    """The shared store at `url` (postgresql://user:password@host:port/database); DataUnusable,
    in one line, when it can't be reached or used. Connections come from a small pool, which
    replaces a connection the database dropped."""

    folder = None

    def __init__(self, url: str, *, pool_size: int = 4):
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise DataUnusable("--database needs psycopg: pip install 'zxcards[postgresql]'") from None
        self.url = url
        self._errors = psycopg.Error
        try:
            with psycopg.connect(url, connect_timeout=CONNECT_SECONDS) as connection:
                ensure_schema(connection, "store", SCHEMA[1:], SCHEMA_VERSION, url)
        except psycopg.Error as error:
            raise unusable(url, error) from None
        self.pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=True, name="zxcards", kwargs={"connect_timeout": CONNECT_SECONDS}
        )

    def __repr__(self) -> str:
        return f"PostgresStore({shown_url(self.url)!r})"

    @contextmanager
    def transaction(self):
        """A connection from the pool, in one transaction; StoreUnavailable when the database fails
        (nothing of the transaction is kept)."""
        try:
            with self.pool.connection() as connection, connection.transaction():
                yield connection
        except self._errors as error:
            raise StoreUnavailable(f"the database failed ({str(error).strip() or type(error).__name__})") from None

    def tables(self, kind: str) -> Kept:
        return Kept(self, kind)

    def documents(self, kind: str, owner: str) -> Kept:
        return Kept(self, kind, owner)

    @contextmanager
    def held(self, kind: str, owner: str, what: str):
        """Hold `owner`'s `kind` (a lock of the database's, on a connection of its own: a server that
        dies lets it go with its connection) while the block runs; InUse when another holds it."""
        import psycopg

        try:
            connection = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_SECONDS)
        except psycopg.Error as error:
            raise unusable(self.url, error) from None
        try:
            row = connection.execute(
                "SELECT pg_try_advisory_lock(hashtext(%s), hashtext(%s))", (kind, owner)
            ).fetchone()
            taken = row is not None and row[0]
            if not taken:
                raise InUse(f"{what} is being played in another zxcards: one at a time")
            yield
        finally:
            connection.close()  # closing lets the lock go

    def close(self) -> None:
        self.pool.close()


class Kept:
    """The documents of `kind` in a `PostgresStore` (for one `owner`, when given), by code: what a
    `TableStore` keeps as files. It remembers the version of each document it read or wrote, and
    writes only over that one."""

    def __init__(self, store: PostgresStore, kind: str, owner: str | None = None):
        self.store, self.kind, self.owner = store, kind, owner
        self.versions: dict[str, int] = {}  # code: the version this server read or wrote last (0: none yet)
        self.lock = threading.Lock()

    def key(self, code: str) -> str:
        return code if self.owner is None else f"{self.owner}/{code}"

    def place(self, code: str) -> str:
        return f"{self.kind} {self.key(code)} in the database {shown_url(self.store.url)}"

    def load(self, code: str, restore):
        """`restore(data)` of document `code`: (the table, None), (None, None) when there is none,
        or (None, a notice) when `restore` refuses it (ValueError and its kin): then it is set aside.
        StoreUnavailable when the database can't be read."""
        try:
            with self.store.transaction() as connection:
                row = connection.execute(
                    "SELECT version, data FROM zxcards_kept WHERE kind = %s AND code = %s", (self.kind, self.key(code))
                ).fetchone()
        except StoreUnavailable as error:
            raise DataUnusable(f"{self.place(code)} can't be read now ({error}): try again in a while") from None
        if row is None:
            with self.lock:
                self.versions[code] = 0
            return None, None
        version, text = row
        with self.lock:
            self.versions[code] = version  # before restoring: a restored table writes at once
        try:
            return restore(json.loads(text)), None
        except (ValueError, KeyError, TypeError, IndexError, RecursionError):
            pass
        self._move_aside(code, version, "unreadable")
        return None, f"The table kept here could not be read: it is kept aside in the database ({self.kind})"

    def save(self, code: str, data: dict) -> None:
        """Keep `data` as document `code`, over the version this server has, in one transaction;
        Stale when another server has written it since (nothing is written), StoreUnavailable when
        the database fails (nothing is written)."""
        text = json.dumps(data, separators=(",", ":"))
        with self.lock:
            known = self.versions.get(code, 0)
            with self.store.transaction() as connection:
                if known == 0:
                    row = connection.execute(
                        "INSERT INTO zxcards_kept (kind, code, version, data) VALUES (%s, %s, 1, %s) "
                        "ON CONFLICT (kind, code) DO NOTHING RETURNING version",
                        (self.kind, self.key(code), text),
                    ).fetchone()
                else:
                    row = connection.execute(
                        "UPDATE zxcards_kept SET data = %s, version = version + 1, written = now() "
                        "WHERE kind = %s AND code = %s AND version = %s RETURNING version",
                        (text, self.kind, self.key(code), known),
                    ).fetchone()
            if row is None:
                raise Stale(f"{self.key(code)} was taken up by another server, which keeps it now")
            self.versions[code] = row[0]

    def set_aside(self, code: str) -> str | None:
        """Document `code` moved aside (a game given up is kept, not deleted): where it is now, or
        None when there was none."""
        with self.store.transaction() as connection:
            row = connection.execute(
                "SELECT version FROM zxcards_kept WHERE kind = %s AND code = %s", (self.kind, self.key(code))
            ).fetchone()
        if row is None:
            return None
        self._move_aside(code, row[0], "given-up")
        return f"zxcards_set_aside ({self.kind} {self.key(code)}) in the database"

    def _move_aside(self, code: str, version: int, why: str) -> None:
        with self.lock, self.store.transaction() as connection:
            connection.execute(
                "INSERT INTO zxcards_set_aside (kind, code, why, data) SELECT kind, code, %s, data "
                "FROM zxcards_kept WHERE kind = %s AND code = %s AND version = %s",
                (why, self.kind, self.key(code), version),
            )
            connection.execute(
                "DELETE FROM zxcards_kept WHERE kind = %s AND code = %s AND version = %s",
                (self.kind, self.key(code), version),
            )
            self.versions[code] = 0

    def forget(self, code: str) -> None:
        """Document `code` is not kept (a table that ended before play began), unless another
        server has written it since."""
        with self.lock:
            known = self.versions.pop(code, 0)
            if known:
                try:
                    with self.store.transaction() as connection:
                        connection.execute(
                            "DELETE FROM zxcards_kept WHERE kind = %s AND code = %s AND version = %s",
                            (self.kind, self.key(code), known),
                        )
                except StoreUnavailable:
                    pass  # taken up again, it is a table nobody sits at yet: nothing is lost
