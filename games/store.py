"""Where tables are kept (a server's, and a game at home): a file per table code, written anew
after every move, so that a server restarted (or stopped by a crash) takes every table up where it
was. A file that can't be read is set aside under a numbered name, never deleted or written over.

A server keeps what players own in a `Store`: by default the embedded one (`FilesStore`: SQLite and
files in the data folder, as one server alone needs), or a database several servers share
(`games.postgres.PostgresStore`, chosen by `zxcards serve --database postgresql://…`), so that a
player's accounts, kept games and tables follow them from server to server. The host makes the
store and hands it down; the games ask it for what they keep and never name the host."""

import json
import os
from pathlib import Path
from typing import Protocol

from .datafolder import read_saved, set_aside_name, write_atomically


class TableStore:
    """The tables kept in `folder`, as `<code>.json` (a table's code is letters and digits)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.left_alone: set[str] = set()  # codes whose unreadable file could not be set aside

    def path(self, code: str) -> Path:
        return self.folder / f"{code}.json"

    def place(self, code: str) -> str:
        """Where table `code` is kept, in words for a message."""
        return str(self.path(code))

    def load(self, code: str, restore):
        """`restore(data)` of table `code`'s file: None when there is none. A file `restore` refuses
        (ValueError) or that can't be read is set aside; the answer is then (None, a notice saying
        where it is kept) instead of (the table, None)."""
        path = self.path(code)
        if not (path.exists() or path.is_symlink()):
            return None, None
        try:
            return restore(read_saved(path)), None
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            pass
        kept = set_aside_name(path)
        try:
            os.replace(path, kept)
        except OSError as error:
            self.left_alone.add(code)
            return None, f"The table kept here can't be read ({error.strerror}): this one is not kept"
        return None, f"The table kept here could not be read: it is kept as {kept.name}"

    def save(self, code: str, data: dict) -> None:
        """Keep table `code` as `data`; OSError when it can't be written (the old file stays)."""
        if code in self.left_alone:
            raise PermissionError(f"{self.path(code)} can't be read and is not written over")
        write_atomically(self.path(code), json.dumps(data, separators=(",", ":")))

    def set_aside(self, code: str) -> Path | None:
        """Table `code`'s file moved to a numbered name beside it (a game given up is kept, not
        deleted): where it is now, or None when there was none. OSError when it can't be moved."""
        path = self.path(code)
        if not (path.exists() or path.is_symlink()):
            return None
        kept = set_aside_name(path, "given-up")
        os.replace(path, kept)
        return kept

    def forget(self, code: str) -> None:
        """Table `code` is not kept (it ended before play began)."""
        if code not in self.left_alone:
            try:
                self.path(code).unlink(missing_ok=True)
            except OSError:
                pass  # taken up again, it is a table nobody sits at yet: nothing is lost


class Documents(Protocol):
    """What a table (or a game kept for a player) is kept in: a JSON document for each code,
    written after every move. `TableStore` keeps them as files; a shared store as rows."""

    def load(self, code: str, restore): ...
    def save(self, code: str, data: dict) -> None: ...
    def set_aside(self, code: str): ...
    def forget(self, code: str) -> None: ...
    def place(self, code: str) -> str: ...


class Store(Protocol):
    """Where a server keeps what players own. `url` is None for the embedded store: then `folder`
    is the data folder, where each program keeps its own as it does at home (given its `data_dir`).
    Otherwise it is the database several servers share, which programs are handed themselves (as
    `store`, with the player's `owner`), and which also keeps, for any program, `documents(kind,
    owner)` (what it keeps for a player, by code) and `held(kind, owner, what)` (one program at a
    time playing them, on every server)."""

    @property
    def url(self) -> str | None: ...

    @property
    def folder(self) -> Path | None: ...

    def tables(self, kind: str) -> Documents:
        """The tables of the program whose tables are kept under `kind`, by code."""

    def close(self) -> None: ...


class FilesStore:
    """The embedded store: the data folder `folder`, everything where a lone server has always kept
    it (tables as files under `<folder>/<kind>/`; each program's own, as the host's `data_dir`)."""

    url = None

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def tables(self, kind: str) -> TableStore:
        return TableStore(self.folder / kind)

    def close(self) -> None:
        pass
