"""Programs written on the `spectrum` layer: the card games, and a test card for the machine.

Each program is a module free of side effects with a `TITLE`, `add_options(parser)` (its own
command-line options, named as the keywords of its run) and `run(machine, **options)`, which
loads the program's play only when it starts. The games also have `new_game(seed, **options)`,
a state of the game-state protocol (`games.protocol`).
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
