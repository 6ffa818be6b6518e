"""The host: runs any program (`games.program`) in a window, headless or served, and never names a
game. A program tells the host what it needs (`NEEDS`); the host has the command line (`cli`), the
menu (`menu`), the test card (`testcard`), running a program and how it ended (`session`), the
server (`serve`) and its page (`page/`), the terminal of a served session (`connect`), tables for
several people (`tables`) and searches in worker processes (`thinking`).

Threads and processes, all of them here: in a window or headless, the program runs on the main
thread. A server (`serve.Server`) runs one asyncio loop for the connections (the page, its files,
every WebSocket), a thread for each session's Spectrum (`serve.Session`), and for each table a
dealer thread (`tables.dealer`) that makes the table's own moves; a table's state is guarded by its
own lock (its `changed` Condition), which the seats' screens wait on. Searches that would hold the
interpreter for long go to the server's pool of worker processes (`thinking.Workers`), started at
the first search. Besides: `zxcards connect` reads the server's messages on a thread of its own,
and a program may search on a thread beside its screen (Canfield's hints and verdicts).
"""

import importlib

from games import PROGRAMS as GAMES
from games.program import NOTHING, Needs

PROGRAMS = {**GAMES, "testcard": "games.host.testcard"}  # the menu's programs, in its order


def load(name: str):
    """The module of program `name` (one of PROGRAMS)."""
    return importlib.import_module(PROGRAMS[name])


def name_of(program) -> str:
    """The name a program is known by (its key in PROGRAMS)."""
    return program.__name__.rpartition(".")[2]


def needs(program) -> Needs:
    """What `program` asks of its host."""
    return getattr(program, "NEEDS", NOTHING)
