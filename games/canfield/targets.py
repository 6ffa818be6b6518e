"""What Canfield's cells mean to a tap (`spectrum.pointing`), from the game as the table shows it.

A card that can go home goes there at one tap (its source key, then F), as PySolFC plays it; any
other card is picked by a tap (its source key: the game makes it flash), and the tap after it says
where it goes (a pile's number, F for the foundations; the picked card tapped again: F). A drag
types the source and where it is dropped. The pack turns at a tap (P); a new deal is a choice beside
the picture (N), and so are the practice game's undo and hint.
"""

from spectrum.pointing import Target, Targets

from ..protocol import MoveRefused
from . import screen
from .rules import PILES, Canfield, move, source_refusal

CARD_WIDTH = 3
CHOICES = {"Turn the pack": "p", "New deal": "n"}
PRACTICE_CHOICES = {"Undo": "u", "Hint": "h"}
MONEY_CHOICES = {"Record": "r"}


def goes_home(game: Canfield, source: str) -> bool:
    """The card on `source` can go to the foundations now."""
    if source_refusal(game.position, source) is not None:
        return False
    try:
        move(game.position, source, "f")
    except MoveRefused:
        return False
    return True


def source_keys(game: Canfield, source: str) -> tuple[str, ...]:
    """A tap on the card of `source`: with a card picked, where it goes (F on itself); else home
    if it can go there, or picked."""
    if game.selected is not None:
        return ("f",) if game.selected == source else (source,) if source in PILES else ()
    return (source, "f") if goes_home(game, source) else (source,)


def pile_rows(game: Canfield, number: int) -> int:
    """The rows pile `number` covers from its number on: the number, its lines (a card each, or the
    fold) and its top card's second row (an empty pile's place is two rows too)."""
    pile = game.position.tableau[number - 1]
    rows = screen.TABLEAU_BOTTOM - screen.TABLEAU_TOP + 1
    return 1 + (len(screen.folded(pile, rows)) + 1 if pile else 2)


def targets(game: Canfield, practice: bool) -> Targets:
    """The table's targets for `game` as drawn now (`screen.draw_table`)."""
    talon_shown = min(game.position.turned, screen.TALON_FAN)
    on_table = [
        Target(
            "stock",
            source_keys(game, "s"),
            row=3,
            col=1,
            rows=2,
            cols=CARD_WIDTH,
            drag=("s",),
            drop=(),
            picked=game.selected == "s",
        ),
        Target("pack", ("p",), row=7, col=1, rows=2, cols=CARD_WIDTH, drag=(), drop=()),
        Target(
            "talon",
            source_keys(game, "t"),
            row=screen.TALON_ROW,
            col=1,
            rows=2,
            cols=CARD_WIDTH + screen.HAND_CARD_WIDTH * max(0, talon_shown - 1),
            drag=("t",),
            drop=(),
            picked=game.selected == "t",
        ),
        Target(
            "home",
            ("f",),
            row=2,
            col=screen.PILE_COLUMNS[0],
            rows=3,
            cols=screen.PILE_COLUMNS[-1] + CARD_WIDTH - screen.PILE_COLUMNS[0],
            drag=(),
            drop=("f",),
        ),
    ]
    for number, col in enumerate(screen.PILE_COLUMNS, 1):
        on_table.append(
            Target(
                f"pile{number}",
                source_keys(game, str(number)),
                row=screen.TABLEAU_TOP - 1,
                col=col,
                rows=pile_rows(game, number),
                cols=CARD_WIDTH,
                drag=(str(number),),
                drop=(str(number),),
                picked=game.selected == str(number),
            )
        )
    choices = {**CHOICES, **(PRACTICE_CHOICES if practice else MONEY_CHOICES)}
    return Targets((*on_table, *(Target(name, (key,)) for name, key in choices.items())))
