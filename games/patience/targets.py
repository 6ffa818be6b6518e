"""What Patience's cells mean to a tap, read from its screen (`spectrum.pointing`).

The listing's screen says everything: the table's prompt line (row 21), the faces in the cards'
corners, "Another game? (Y/N)", the title's "Press any key to deal". So one function serves the port
and the listing on the genuine ROM (`--rom`, `--compare`), whose screens are the same byte for byte:
the same taps type the same keys on both.

At "Your move?" each card (with its number under it) is a part of a move: two cards that are not
J, Q or K, or the three of J, Q and K, typed as their numbers and ENTER (`27` ENTER); any other pick
is typed as soon as it can make no move, for the listing to refuse in its own words. "9: new centre
card" and "0: resign" on the prompt line are choices of their own.
"""

from itertools import combinations, product

from spectrum.pointing import Target, Targets, char_at, text_at

from . import rules

POSITIONS = range(1, rules.CENTRE + 1)
CARD_ROWS = CARD_COLUMNS = 5  # a card, as line 1260 prints it
COURTS = ("J", "Q", "K")
PROMPT_ROW = 21
NEW_CENTRE, RESIGN = " 9: new centre card", "0: resign"  # from column 0 and 21 of the prompt line
ANOTHER_GAME = "Another game? (Y/N)"  # from column 7 of row 21
DEAL = "Press any key to deal"  # from column 6 of row 20


def card_target(position: int) -> Target:
    """The card on `position` and its number under it: a part, typed as the number."""
    return Target(
        str(position),
        (str(position),),
        row=rules.row(position),
        col=rules.column(position),
        rows=CARD_ROWS + 1,
        cols=CARD_COLUMNS,
        part=True,
    )


def moves(faces: dict[int, str]) -> tuple[frozenset[str], ...]:
    """The picks that make a move on a table of these faces (position: face): two cards that are no
    court, or a J, a Q and a K (any of each, when two are showing)."""
    plain = [str(position) for position, face in faces.items() if face not in COURTS]
    courts = [[str(position) for position, face in faces.items() if face == court] for court in COURTS]
    return (*(frozenset(pair) for pair in combinations(plain, 2)), *(frozenset(three) for three in product(*courts)))


def targets(machine) -> Targets:
    """The targets of the screen `machine` shows now."""
    if text_at(machine, PROMPT_ROW, 0, len(NEW_CENTRE)) == NEW_CENTRE:
        faces = {position: char_at(machine, rules.row(position), rules.column(position)) for position in POSITIONS}
        cards = tuple(card_target(position) for position in POSITIONS)
        choices = (
            Target("new", ("9", "ENTER"), row=PROMPT_ROW, col=1, cols=18),
            Target("resign", ("0", "ENTER"), row=PROMPT_ROW, col=21, cols=9),
        )
        return Targets(cards + choices, moves(faces), ("ENTER",))
    if text_at(machine, PROMPT_ROW, 7, len(ANOTHER_GAME)) == ANOTHER_GAME:
        return Targets(
            (
                Target("Y", ("y",), row=PROMPT_ROW, col=22),
                Target("N", ("n",), row=PROMPT_ROW, col=24),
                Target("Another game", ("y",)),
                Target("No more", ("n",)),
            )
        )
    if text_at(machine, 20, 6, len(DEAL)) == DEAL:
        return Targets((Target("deal", ("ENTER",), row=0, rows=24, cols=32),))
    return Targets()
