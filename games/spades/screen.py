"""The Spades table on the Spectrum's 32x24 screen: PRINT AT and the table kit's suit UDGs and cards.

You sit south; west, north and east play in that order after you (the seed's player_0 to player_3).
"""

import dataclasses
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from spectrum import Spectrum
from spectrum.hardware import DISPLAY_FILE, cell_address
from spectrum.colours import BLACK, BLUE, RED, WHITE, YELLOW

from ..cards import BY_NAME, DECK, Suit
from ..drawing import BAIZE, CARD_PAPER, draw_card, draw_hand_card, lay_baize

HAND_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)  # black and red alternate in your hand

TITLE_PAPER = BLUE
WIDTH = 32
NAMES = {"player_0": "YOU", "player_1": "WEST", "player_2": "NORTH", "player_3": "EAST"}
# Where each seat's card of the trick lies (top-left of a 3x2 card); "led" goes under the first card
CARD_AT = {"player_2": (4, 14), "player_1": (9, 9), "player_3": (9, 20), "player_0": (13, 14)}
# Name over tricks, centred in a column: (row, col, width); you have one line under your trick card
LABEL_AT = {"player_2": (2, 10, 12), "player_1": (7, 0, 8), "player_3": (7, 24, 8)}
YOUR_LABEL_ROW = 16
# The panel over the table: a blank line, its lines, a blank line; from row 9, higher when it is long
RESULT_TOP, RESULT_LAST_ROW, RESULT_LEFT, RESULT_WIDTH = 9, 15, 1, 30
STATUS_ROW = 12
HAND_ROW = 18  # the face row of your cards; the chosen card is raised one row
HELP_ROW, MESSAGE_ROW = 20, 21


def prepare(machine: Spectrum) -> None:
    """Poke the suit UDGs and lay the baize."""
    lay_baize(machine, ink=WHITE)


def hand_order(cards: list[str]) -> list[str]:
    """Your hand as shown: by suit, alternating colours, then rank from low to high (aces high)."""
    return sorted(cards, key=lambda name: (HAND_SUIT_ORDER.index(BY_NAME[name].suit), BY_NAME[name].high_rank))


def centred(text: str, width: int = WIDTH) -> str:
    return text[:width].center(width)


@dataclass
class Scene:
    """Everything the table shows at one moment."""

    title: str
    hand: list[str]  # your cards in the order shown
    trick: list[tuple[str, str]]  # (player, card) in the order played
    labels: dict[str, str]  # per player: tricks (and bid) to show by the name
    to_play: str | None = None  # whose name is lit
    chosen: int | None = None  # index in `hand` of the raised card
    status: str = ""  # a line between the trick cards
    message: str = ""  # the bottom line: refusals, prompts
    message_ink: int = WHITE
    help_line: str = ""
    score_line: str = ""
    results: list[str] = field(default_factory=list)  # a panel over the table: the end of a hand, notices
    hand_hidden: bool = False  # your cards face down (before a blind nil is decided)
    names: dict[str, str] = field(default_factory=lambda: dict(NAMES))  # who sits where, as shown


def draw(machine: Spectrum, scene: Scene) -> None:
    machine.cls()
    machine.print_at(0, 0, centred(scene.title), ink=WHITE, paper=TITLE_PAPER, bright=1)
    if scene.score_line:
        machine.print_at(1, 0, centred(scene.score_line), ink=YELLOW, paper=BAIZE)
    for player, (row, col, width) in LABEL_AT.items():
        machine.print_at(row, col, scene.names[player][:width].center(width), **name_colours(player == scene.to_play))
        machine.print_at(row + 1, col, scene.labels.get(player, "").center(width), ink=WHITE, paper=BAIZE)
    yours = f"{scene.names['player_0']} {scene.labels.get('player_0', '')}"
    machine.print_at(YOUR_LABEL_ROW, (WIDTH - len(yours)) // 2, yours, **name_colours(scene.to_play == "player_0"))
    for place, (player, card) in enumerate(scene.trick):
        row, col = CARD_AT[player]
        draw_card(machine, row, col, BY_NAME[card])
        if place == 0:
            machine.print_at(row + 2, col, "led", ink=YELLOW, paper=BAIZE)
    if scene.status:
        draw_status(machine, scene)
    if scene.results:
        top = results_top(scene.results)
        for row, line in enumerate(["", *scene.results, ""], top):
            machine.print_at(
                row,
                RESULT_LEFT,
                centred(line, RESULT_WIDTH),
                paper=CARD_PAPER,
                bright=1,
                ink=BLUE if row == top + 1 else BLACK,
            )
    if scene.hand_hidden:
        draw_backs(machine, len(scene.hand))
    else:
        draw_hand(machine, scene.hand, scene.chosen)
    machine.print_at(HELP_ROW, 0, centred(scene.help_line), ink=WHITE, paper=BAIZE)
    refusal = scene.message_ink == RED  # red on green is hard to read: refusals stand on a white strip
    machine.print_at(
        MESSAGE_ROW,
        0,
        centred(scene.message),
        ink=scene.message_ink,
        paper=CARD_PAPER if refusal else BAIZE,
        bright=int(refusal),
    )


def draw_status(machine: Spectrum, scene: Scene) -> None:
    """The line between the trick's cards alone (a clock counting down changes nothing else)."""
    machine.print_at(STATUS_ROW, 0, centred(scene.status), ink=YELLOW, paper=BAIZE)


def only_the_status_differs(scene: Scene, shown: Scene | None) -> bool:
    """`scene` is `shown` but for a status line that is still there (no panel over the table): drawn
    by `draw_status` alone, the screen is the one `draw` would give."""
    return (
        shown is not None
        and scene != shown
        and bool(scene.status)
        and dataclasses.replace(scene, status=shown.status) == shown
        and not scene.results
    )


def results_top(lines: list[str]) -> int:
    """The panel's top row for `lines`: row 9, or higher so that it ends by row 15."""
    return max(0, min(RESULT_TOP, RESULT_LAST_ROW - len(lines) - 1))


def name_colours(lit: bool) -> dict:
    """A name is lit (black on yellow) while that player is to play; nothing on the baize is BRIGHT,
    which would light the green behind it too."""
    return dict(ink=BLACK, paper=YELLOW, bright=1) if lit else dict(ink=WHITE, paper=BAIZE, bright=0)


def hand_columns(hand: list[str]) -> list[int]:
    """Each card two cells wide, a gap between suits, the whole centred."""
    columns, col = [], 0
    for index, card in enumerate(hand):
        if index and BY_NAME[card].suit != BY_NAME[hand[index - 1]].suit:
            col += 1
        columns.append(col)
        col += 2
    start = (WIDTH - col) // 2
    return [start + column for column in columns]


def draw_hand(machine: Spectrum, hand: list[str], chosen: int | None) -> None:
    for index, (card, col) in enumerate(zip(hand, hand_columns(hand))):
        draw_hand_card(machine, HAND_ROW - (index == chosen), col, BY_NAME[card], bright=int(index == chosen))


def draw_backs(machine: Spectrum, count: int) -> None:
    """Your cards face down: a blue strip as wide as the hand."""
    width = 2 * count
    start = (WIDTH - width) // 2
    for row in (HAND_ROW, HAND_ROW + 1):
        machine.print_at(row, start, " " * width, paper=BLUE, bright=1)


@cache
def _faces_by_pixels() -> tuple[dict[tuple[int, int], str], np.ndarray]:
    """Each card's face as the pixels of its two cells (rank, suit UDG) as any table draws it, each
    cell's 8 lines read as one little-endian number; and the rank cells' numbers, to look for."""
    machine = Spectrum()
    prepare(machine)
    faces = {}
    for card in DECK:
        machine.print_at(0, 0, card.face)
        left, right = (
            int.from_bytes(bytes(machine.memory[cell_address(0, col) + (line << 8)] for line in range(8)), "little")
            for col in (0, 1)
        )
        faces[left, right] = card.name
    return faces, np.array(sorted({left for left, _ in faces}), np.uint64)


_CELL_LINES = np.array(
    [
        [[cell_address(row, col) + (line << 8) - DISPLAY_FILE for line in range(8)] for col in range(WIDTH)]
        for row in range(24)
    ]
)  # each cell's 8 bytes in SCREEN$


def faces_shown(screen: bytes) -> set[str]:
    """The names of the cards whose faces a SCREEN$ (display file and attributes, 6,912 bytes) shows:
    what a seat has been sent, to check that it holds no hand but its own."""
    cells = np.frombuffer(screen, np.uint8)[_CELL_LINES].view("<u8")[..., 0]  # rows x columns, a cell a number
    left, right = cells[:, :-1].ravel(), cells[:, 1:].ravel()
    faces, rank_cells = _faces_by_pixels()
    found = np.flatnonzero(np.isin(left, rank_cells))  # only a rank's cell can start a face
    return {faces[pair] for pair in zip(left[found].tolist(), right[found].tolist()) if pair in faces}
