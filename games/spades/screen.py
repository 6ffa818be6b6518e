"""The Spades table on the Spectrum's 32x24 screen: PRINT AT and four poked suit UDGs.

You sit south; west, north and east play in that order after you (the seed's player_0 to player_3).
Cards are PAPER 7 rectangles with the rank letter (T for ten) and the suit symbol in red or black ink,
on a green baize.
"""

from dataclasses import dataclass, field

from spectrum import Spectrum, sysvars

from ..cardfaces import BLACK, CARD_PAPER, RED, SUIT_UDGS, card_ink, face, poke_udgs
from .cards import RANKS_LOW_TO_HIGH

HAND_SUIT_ORDER = "shcd"  # black and red suits alternate along your hand

BAIZE, BLUE, WHITE, YELLOW = 4, 1, 7, 6
TITLE_PAPER = 1
WIDTH = 32
NAMES = {"player_0": "YOU", "player_1": "WEST", "player_2": "NORTH", "player_3": "EAST"}
# Where each seat's card of the trick lies (top-left of a 3x2 card); "led" goes under the first card
CARD_AT = {"player_2": (4, 14), "player_1": (9, 9), "player_3": (9, 20), "player_0": (13, 14)}
# Name over tricks, centred in a column: (row, col, width); you have one line under your trick card
LABEL_AT = {"player_2": (2, 10, 12), "player_1": (7, 0, 8), "player_3": (7, 24, 8)}
YOUR_LABEL_ROW = 16
RESULT_TOP, RESULT_LEFT, RESULT_WIDTH = 10, 1, 30  # the end-of-hand panel; its first line is blank
STATUS_ROW = 12
HAND_ROW = 18          # the face row of your cards; the chosen card is raised one row
HELP_ROW, MESSAGE_ROW = 20, 21
KEY_LEFT, KEY_RIGHT, KEY_DELETE, KEY_ENTER = 8, 9, 12, 13  # CAPS 5, CAPS 8 (the arrows), CAPS 0


def prepare(machine: Spectrum) -> None:
    """Poke the suit UDGs and lay the baize."""
    poke_udgs(machine, SUIT_UDGS)
    machine.set_border(BAIZE)
    machine.colour(ink=WHITE, paper=BAIZE, bright=0, flash=0, inverse=0, over=0)
    machine.cls()


def hand_order(cards: list[str]) -> list[str]:
    """Your hand as shown: by suit, alternating colours, then rank from low to high (aces high)."""
    return sorted(cards, key=lambda card: (HAND_SUIT_ORDER.index(card[1]), RANKS_LOW_TO_HIGH.index(card[0])))


def read_key(machine: Spectrum) -> int:
    """PAUSE 0, then the code of the key pressed (PEEK LAST_K), the BASIC way to take one key."""
    machine.pause(0)
    return machine.peek(sysvars.LAST_K)


def centred(text: str, width: int = WIDTH) -> str:
    return text[:width].center(width)


@dataclass
class Scene:
    """Everything the table shows at one moment."""
    title: str
    hand: list[str]                               # your cards in the order shown
    trick: list[tuple[str, str]]                  # (player, card) in the order played
    labels: dict[str, str]                        # per player: tricks (and bid) to show by the name
    to_play: str | None = None                    # whose name is lit
    chosen: int | None = None                     # index in `hand` of the raised card
    status: str = ""                              # a line between the trick cards
    message: str = ""                             # the bottom line: refusals, prompts
    message_ink: int = WHITE
    help_line: str = ""
    score_line: str = ""
    results: list[str] = field(default_factory=list)  # lines across the middle (end of a hand)


def draw(machine: Spectrum, scene: Scene) -> None:
    machine.cls()
    machine.print_at(0, 0, centred(scene.title), ink=WHITE, paper=TITLE_PAPER, bright=1)
    if scene.score_line:
        machine.print_at(1, 0, centred(scene.score_line), ink=YELLOW, paper=BAIZE)
    for player, (row, col, width) in LABEL_AT.items():
        machine.print_at(row, col, NAMES[player].center(width), **name_colours(player == scene.to_play))
        machine.print_at(row + 1, col, scene.labels.get(player, "").center(width), ink=WHITE, paper=BAIZE)
    yours = f"{NAMES['player_0']} {scene.labels.get('player_0', '')}"
    machine.print_at(YOUR_LABEL_ROW, (WIDTH - len(yours)) // 2, yours,
                     **name_colours(scene.to_play == "player_0"))
    for place, (player, card) in enumerate(scene.trick):
        row, col = CARD_AT[player]
        draw_card(machine, row, col, card)
        if place == 0:
            machine.print_at(row + 2, col, "led", ink=YELLOW, paper=BAIZE)
    if scene.status:
        machine.print_at(STATUS_ROW, 0, centred(scene.status), ink=YELLOW, paper=BAIZE)
    if scene.results:
        for row, line in enumerate(["", *scene.results, ""], RESULT_TOP):
            machine.print_at(row, RESULT_LEFT, centred(line, RESULT_WIDTH), paper=CARD_PAPER, bright=1,
                             ink=BLUE if row == RESULT_TOP + 1 else BLACK)
    draw_hand(machine, scene.hand, scene.chosen)
    machine.print_at(HELP_ROW, 0, centred(scene.help_line), ink=WHITE, paper=BAIZE)
    refusal = scene.message_ink == RED  # red on green is hard to read: refusals stand on a white strip
    machine.print_at(MESSAGE_ROW, 0, centred(scene.message), ink=scene.message_ink,
                     paper=CARD_PAPER if refusal else BAIZE, bright=int(refusal))


def name_colours(lit: bool) -> dict:
    """A name is lit (black on yellow) while that player is to play; nothing on the baize is BRIGHT,
    which would light the green behind it too."""
    return dict(ink=BLACK, paper=YELLOW, bright=1) if lit else dict(ink=WHITE, paper=BAIZE, bright=0)


def draw_card(machine: Spectrum, row: int, col: int, card: str) -> None:
    """A trick card: three cells wide and two rows high, its face at the top left and bottom right."""
    ink = card_ink(card)
    machine.print_at(row, col, face(card) + " ", ink=ink, paper=CARD_PAPER)
    machine.print_at(row + 1, col, " " + face(card), ink=ink, paper=CARD_PAPER)


def hand_columns(hand: list[str]) -> list[int]:
    """Each card two cells wide, a gap between suits, the whole centred."""
    columns, col = [], 0
    for index, card in enumerate(hand):
        if index and card[1] != hand[index - 1][1]:
            col += 1
        columns.append(col)
        col += 2
    start = (WIDTH - col) // 2
    return [start + column for column in columns]


def draw_hand(machine: Spectrum, hand: list[str], chosen: int | None) -> None:
    for index, (card, col) in enumerate(zip(hand, hand_columns(hand))):
        row = HAND_ROW - (index == chosen)
        machine.print_at(row, col, face(card), ink=card_ink(card), paper=CARD_PAPER, bright=index == chosen)
        machine.print_at(row + 1, col, "  ", paper=CARD_PAPER, bright=index == chosen)
