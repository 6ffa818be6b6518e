"""Where zxcards keeps what players own: accounts, histories, games in progress."""

import argparse
import contextlib
import fcntl
import json
import os
import stat
import tempfile
from pathlib import Path

from .program import CannotStart

WHAT_TO_DO = "move it away, or give --data-dir"  # for the data folder by default
WHAT_ELSE_TO_DO = "move it away, or give --data-dir another folder"  # for a folder given with --data-dir


class DataUnusable(CannotStart):
    """The players' data can't be kept or read where it should be; the message, one line for the
    player, names the place and what to do."""


def data_folder(text: str) -> Path:
    """An argparse type: a folder for the players' data, given by name (an empty name would mean the
    current folder without saying so). Whether it can be used is checked when the program starts."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a folder's name (. for the current folder)")
    return Path(text)


def folder_problem(folder: Path) -> str | None:
    """Why `folder` can't hold the players' data, in words for the player, or None when it can (it
    is a folder, or one can be made there). Nothing is made or changed: this is said before anything
    is played."""
    if folder.is_dir():
        return None
    to_do = what_to_do(folder)
    if folder.exists() or folder.is_symlink():
        kind = "a link to nowhere" if not folder.exists() else "a file"
        return f"{folder} is {kind}, not a folder: {to_do}"
    place = folder.parent
    while not (place.exists() or place.is_symlink()) and place != place.parent:
        place = place.parent
    if not place.is_dir():
        return f"{folder} can't be made: {place} is a file, not a folder: {to_do}"
    if not os.access(place, os.W_OK | os.X_OK):
        return f"{folder} can't be made: {place} can't be written (no permission): {to_do}"
    return None


def what_to_do(folder: Path) -> str:
    """What a player can do about `folder`: give --data-dir when it is (in) the data folder by
    default; give another when it was given."""
    try:
        default = default_folder().absolute()
    except DataUnusable:
        return WHAT_ELSE_TO_DO
    place = folder.absolute()
    return WHAT_TO_DO if place == default or default in place.parents else WHAT_ELSE_TO_DO


def check_folder(folder: Path) -> None:
    """DataUnusable (said before anything is played) when `folder` can't hold the players' data."""
    problem = folder_problem(folder)
    if problem:
        raise DataUnusable(problem)


def default_folder() -> Path:
    """$XDG_DATA_HOME/zxcards, or ~/.local/share/zxcards when that is unset (or not absolute);
    DataUnusable when neither says where (no XDG_DATA_HOME, and no home folder: HOME unset and the
    user unknown to the system, as in some containers)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "zxcards"
    try:
        home = Path.home()
    except RuntimeError:
        raise DataUnusable(
            "there is no home folder to keep the players' data in: set HOME or XDG_DATA_HOME, or give --data-dir"
        ) from None
    return home / ".local" / "share" / "zxcards"


class InUse(CannotStart):
    """What a player owns is being played by another program: one at a time."""


@contextlib.contextmanager
def held(path: Path, what: str):
    """Hold the lock file `path` while the block runs (or until the program ends, however it ends),
    so that `what` is played by one program at a time; InUse when another program holds it, and
    DataUnusable when the lock can't be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise DataUnusable(folder_problem(path.parent) or f"{path} can't be made ({error.strerror})") from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InUse(f"{what} is being played in another zxcards: one at a time") from None
        yield
    finally:
        os.close(lock)  # closing lets the lock go


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at `path` (or, when `path` is a symbolic link, the file it points to) with
    `text` in one step: a crash leaves the old file or the new, never half. On an error (disk full,
    read-only folder, a file where the folder should be) the old file stays as it was, nothing is
    left beside it, and the OSError is raised."""
    target = Path(os.path.realpath(path))  # a loop of links is left as it is, and fails to open
    target.parent.mkdir(parents=True, exist_ok=True)
    # a name of its own: two writers at once (threads, processes) never write into each other's
    descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".new")
    temporary = Path(name)
    try:
        file = open(descriptor, "w", encoding="utf-8")
    except OSError:
        os.close(descriptor)
        temporary.unlink(missing_ok=True)
        raise
    try:
        with file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise


MAX_SAVED_BYTES = 1_000_000  # a saved game is a few kilobytes: anything over this is not one


def read_saved(path: Path):
    """The JSON data kept at `path`; ValueError when it is no plain file the size of a saved game
    or no JSON, OSError when it can't be read."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_SAVED_BYTES:
        raise ValueError("not a file the size of a saved game")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, RecursionError) as error:
        raise ValueError(str(error)) from None


def set_aside_name(path: Path, why: str = "unreadable") -> Path:
    """The first of `path`.unreadable-1, -2, ... (`why`-1 ...) not yet taken: every file set aside
    is kept."""
    number = 1
    while (kept := path.with_name(f"{path.name}.{why}-{number}")).exists() or kept.is_symlink():
        number += 1
    return kept
