"""Where zxcards keeps what players own: accounts, histories, games in progress."""

import os
from pathlib import Path


def default_folder() -> Path:
    """$XDG_DATA_HOME/zxcards, or ~/.local/share/zxcards when that is unset (or not absolute)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "zxcards"


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at `path` (or, when `path` is a symbolic link, the file it points to) with
    `text` in one step: a crash leaves the old file or the new, never half. On an error (disk full,
    read-only folder, a file where the folder should be) the old file stays as it was, nothing is
    left beside it, and the OSError is raised."""
    target = Path(os.path.realpath(path))  # a loop of links is left as it is, and fails to open
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".new")
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
