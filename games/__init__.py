"""Programs written on the `spectrum` layer: the card games, and a test card for the machine.

Each program is a module with a `TITLE` and a `run(machine)` that plays it until it ends.
"""

import importlib

PROGRAMS = {
    "patience": "games.patience",
    "canfield": "games.canfield",
    "spades": "games.spades",
    "testcard": "games.testcard",
}


def load(name: str):
    """The module of program `name` (one of PROGRAMS)."""
    return importlib.import_module(PROGRAMS[name])
