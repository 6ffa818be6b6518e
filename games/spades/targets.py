"""What a Spades seat's cells mean to a tap (`spectrum.pointing`): the keys its `SeatScreen` takes.

At this seat's turn to play, each card of the hand types the card (`td`: its rank and suit), after
DELETE when a rank is typed already; at its turn to bid, the bids are choices beside the picture
(N then ENTER for nil, a number's digits then ENTER); the blind nil question is answered Y or N, and
a finished hand goes on at ENTER (a tap anywhere on the table). L, the last trick, is a choice
whenever the seat may ask for it.
"""

from spectrum.pointing import Target, Targets

from .rules import TRICKS_IN_A_HAND
from .screen import HAND_ROW, WIDTH, hand_columns

CARD_COLUMNS = 2  # a card of the hand shows two cells of its face
LAST_TRICK = Target("Last trick", ("l",))
ANY_KEY = Target("go on", ("ENTER",), row=0, rows=24, cols=WIDTH)


def playing(hand: list[str], typed: str, chosen: int | None = None) -> Targets:
    """The hand as drawn (`screen.draw_hand`), each card typed on a tap; the card raised (`chosen`,
    which ENTER would play) is outlined as picked."""
    again = ("DELETE",) if typed else ()
    cards = tuple(
        Target(
            card,
            (*again, card[0], card[1]),
            row=HAND_ROW - 1,
            col=col,
            rows=3,
            cols=CARD_COLUMNS,
            picked=index == chosen,
        )
        for index, (card, col) in enumerate(zip(hand, hand_columns(hand)))
    )
    return Targets((*cards, LAST_TRICK) if not typed else cards)


def bidding(typed: str, highest: int = TRICKS_IN_A_HAND) -> Targets:
    """The bids as choices: nil, and 1 to the most this seat may bid (what its partner's bid leaves)."""
    again = ("DELETE",) if typed else ()
    bids = [Target("Nil", (*again, "n", "ENTER"))]
    bids += [Target(str(bid), (*again, *str(bid), "ENTER")) for bid in range(1, highest + 1)]
    return Targets((*bids, LAST_TRICK) if not typed else tuple(bids))


def blind_question() -> Targets:
    return Targets((Target("Blind nil", ("y",)), Target("No", ("n",))))


def hand_over() -> Targets:
    return Targets((Target("Next hand", ("ENTER",)), ANY_KEY, LAST_TRICK))


def waiting() -> Targets:
    return Targets((LAST_TRICK,))


def any_key() -> Targets:
    return Targets((ANY_KEY,))


def lobby() -> Targets:
    """The seats filling: "ENTER starts play" (row 18) and a choice."""
    return Targets((Target("Start play", ("ENTER",)), Target("start", ("ENTER",), row=18, col=1, cols=17)))
