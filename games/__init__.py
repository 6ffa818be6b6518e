"""The card games, written on the `spectrum` layer, and what they share (cards, the card table's
drawing, where players' data is kept, the state API); `games.host` runs them.

Each program is a module free of side effects with a `TITLE`, `add_options(parser)` (its own
command-line options, named as the keywords of its run), `run(machine, **options)`, which loads the
program's play only when it starts, and `NEEDS` (`games.program.Needs`: what it asks of its host).
The games also have `new_game(seed, **options)`, a state of the state API (`games.protocol`).
"""

PROGRAMS = {
    "patience": "games.patience",
    "canfield": "games.canfield",
    "spades": "games.spades",
}
