"""Where zxcards keeps what players own: accounts, histories, games in progress."""

import os
from pathlib import Path


def default_folder() -> Path:
    """$XDG_DATA_HOME/zxcards, or ~/.local/share/zxcards when that is unset (or not absolute)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "zxcards"


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step: a crash leaves the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
