"""The Canfield table on the Spectrum's 32x24 screen, drawn with PRINT AT and poked UDGs.

Cards are PAPER 7 rectangles three cells wide: the rank letter (T for ten) and a suit symbol, in
red or black ink, on a green baize. Long tableau piles fold their middle into a "+n" line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spectrum import Spectrum
from spectrum.colours import BLACK, BLUE, CYAN, GREEN, RED, WHITE, YELLOW

from ..cards import DECK, FACE_LETTERS, Card
from ..drawing import CARD_PAPER, draw_card, draw_hand_card, lay_baize
from .bank import NAME_LENGTH, NAME_RULE, START_MONEY, DealRecord, statistics
from .rules import CARD_PAYS, DECK_PRICE, Canfield

CARD_BACK_UDG = {"e": (0xFF, 0x99, 0xA5, 0xC3, 0xC3, 0xA5, 0x99, 0xFF)}  # UDGs A-D are the suits
CARD_BACK = "\x94"

BACK_INK = BLUE
TITLE_PAPER = BLUE
HELP_INK = CYAN
NEWS_INK, REFUSAL_INK = WHITE, YELLOW
OVER_PAPER = RED  # the message lines once a deal is over
MESSAGE_ROWS = (18, 19)
HELP_ROWS = (20, 21)
PILE_COLUMNS = (10, 16, 22, 28)  # the foundations stand above the tableau piles
TABLEAU_TOP, TABLEAU_BOTTOM = 7, 17
WIDTH = 32
SENTENCE_END = re.compile(r"(?<=[.!]) (?=[A-Za-z0-9$])")


def prepare(machine: Spectrum) -> None:
    """Poke the UDGs (the suits and the card back) and lay the green baize."""
    lay_baize(machine, ink=WHITE, udgs=CARD_BACK_UDG)


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """Words in lines of at most `width` characters."""
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return lines


def draw_back(machine: Spectrum, row: int, col: int) -> None:
    for line in range(2):
        machine.print_at(row + line, col, CARD_BACK * 3, ink=BACK_INK, paper=CARD_PAPER)


def folded(pile: Sequence, rows: int) -> list:
    """The lines of a pile in `rows` rows, its top card taking two: every card, or the bottom card,
    the number of cards folded away, and as many top cards as fit."""
    if len(pile) + 1 <= rows:
        return list(pile)
    shown = rows - 3  # bottom card, the fold line, the top cards, the top card's second row
    return [pile[0], len(pile) - 1 - shown] + list(pile[-shown:])


@dataclass
class TableView:
    """Everything the table screen shows besides the cards."""

    game: Canfield
    deal_number: int
    name: str | None = None  # None in practice
    money: int | None = None  # None in practice
    message: str = ""
    refused: bool = False
    keys_help: tuple[str, str] = ("", "")
    verdict: str = ""  # whether the deal can be won, in practice, once the solver knows
    tag: str = ""  # under the talon: WINNABLE (or the level asked for) for a deal dealt as winnable
    over: bool = False  # the deal is over though a move is left (given up)


def title_bar(machine: Spectrum, parts: list[str], right: str = "") -> None:
    """The blue bar on row 0: `parts` from the left, two spaces apart, and `right` (the money) at the
    right, a space at either end and two at least between them. The first parts are left out while
    the rest do not fit: the last (a player's name, 16 characters at most) fits beside any sum."""
    while len(parts) > 1 and len(" " + "  ".join(parts) + "  " + right + " ") > WIDTH:
        parts = parts[1:]
    left = " " + "  ".join(parts)
    machine.print_at(0, 0, left.ljust(WIDTH - len(right) - 1) + right + " ", ink=WHITE, paper=TITLE_PAPER, bright=1)


def draw_table(machine: Spectrum, view: TableView) -> None:
    position = view.game.position
    selected = view.game.selected
    machine.cls()
    right = f"${view.money}" if view.money is not None else "PRACTICE"
    title_bar(machine, ["CANFIELD", *(part for part in (view.name, view.verdict) if part)], right)
    _draw_left_column(machine, view.game, view.deal_number)
    if view.tag:
        machine.print_at(TAG_ROW, 1, view.tag[: PILE_COLUMNS[0] - 2], ink=YELLOW, paper=BLACK, bright=1)
    _draw_foundations(machine, position.homes, position.base)
    _draw_tableau(machine, position.tableau, selected)
    if view.game.won:
        banner(machine, "ALL 52 CARDS HOME!")
    show_message(machine, view.message, view.refused, over=view.game.won or view.game.stuck or view.over)
    for row, line in zip(HELP_ROWS, view.keys_help):
        machine.print_at(row, 0, line.ljust(WIDTH), ink=HELP_INK, paper=BLACK)


def banner(machine: Spectrum, text: str) -> None:
    """A boxed line across the empty tableau of a won deal."""
    width = WIDTH - PILE_COLUMNS[0] - 1
    for row, line in ((11, ""), (12, text), (13, "")):
        machine.print_at(row, PILE_COLUMNS[0], line.center(width), ink=YELLOW, paper=RED, bright=1)


def show_message(machine: Spectrum, message: str, refused: bool, over: bool = False) -> None:
    """The message lines, a sentence a line when they fit: refusals in yellow, news in white, on
    red once the deal is over."""
    # a sentence ends at . or ! before a word ("- ' . _" in a list of characters goes on)
    by_sentence = [line for sentence in SENTENCE_END.split(message) for line in wrap(sentence)]
    lines = (by_sentence if len(by_sentence) <= len(MESSAGE_ROWS) else wrap(message)) + ["", ""]
    for row, line in zip(MESSAGE_ROWS, lines):
        machine.print_at(
            row,
            0,
            line.ljust(WIDTH),
            ink=REFUSAL_INK if refused else NEWS_INK,
            paper=OVER_PAPER if over else BLACK,
            bright=1,
        )


def _top(cards: tuple[int, ...]) -> Card | None:
    return DECK[cards[-1]] if cards else None


def _draw_left_column(machine: Spectrum, game: Canfield, deal_number: int) -> None:
    stock, waste, turned = game.position.stock, game.position.waste, game.position.turned
    machine.print_at(2, 1, "STOCK")
    draw_card(machine, 3, 1, _top(stock), flash=int(game.selected == "s"))
    machine.print_at(3, 5, len(stock))
    machine.print_at(6, 1, "PACK")
    if turned < len(waste):
        draw_back(machine, 7, 1)
    else:
        draw_card(machine, 7, 1, None)
    machine.print_at(7, 5, len(waste) - turned)
    machine.print_at(10, 1, f"TALON {turned}")
    _draw_talon(machine, waste[:turned], game.selected == "t")
    machine.print_at(14, 1, "DEAL")
    machine.print_at(15, 1, deal_number)
    machine.print_at(16, 1, "HOME")
    machine.print_at(17, 1, f"{game.cards_home}/52")


TALON_ROW = 11
TAG_ROW = 13  # under the talon
TALON_FAN = 3  # the last three cards turned show, fanned to the right, the playable one on top


HAND_CARD_WIDTH = 2  # cells of a card beneath another in a fan


def _draw_talon(machine: Spectrum, talon: tuple[int, ...], selected: bool) -> None:
    """The talon's top cards fanned as a hand is: each card beneath shows its face in two cells,
    the top card whole."""
    shown = talon[-TALON_FAN:]
    if not shown:
        draw_card(machine, TALON_ROW, 1, None)
        return
    for offset, card in enumerate(shown[:-1]):
        draw_hand_card(machine, TALON_ROW, 1 + HAND_CARD_WIDTH * offset, DECK[card])
    draw_card(machine, TALON_ROW, 1 + HAND_CARD_WIDTH * (len(shown) - 1), DECK[shown[-1]], flash=int(selected))


def _draw_foundations(machine: Spectrum, homes: tuple[tuple[int, ...], ...], base: int) -> None:
    machine.print_at(2, PILE_COLUMNS[0], f"FOUNDATIONS from {FACE_LETTERS[base]} up")
    for col, pile in zip(PILE_COLUMNS, homes):
        draw_card(machine, 3, col, _top(pile))


def _draw_tableau(machine: Spectrum, tableau: tuple[tuple[int, ...], ...], selected: str | None) -> None:
    rows = TABLEAU_BOTTOM - TABLEAU_TOP + 1
    for number, (col, pile) in enumerate(zip(PILE_COLUMNS, tableau), 1):
        machine.print_at(TABLEAU_TOP - 1, col + 1, number)
        if not pile:
            draw_card(machine, TABLEAU_TOP, col, None)
            continue
        lines = folded(pile, rows)
        fold_row = TABLEAU_TOP + 1 if len(lines) < len(pile) else None
        for row, line in enumerate(lines, TABLEAU_TOP):
            if row == fold_row:  # how many cards the fold hides
                machine.print_at(row, col, f"+{line}".ljust(3), ink=BACK_INK, paper=CARD_PAPER)
            else:
                is_top = row == TABLEAU_TOP + len(lines) - 1
                draw_card(machine, row, col, DECK[line], tall=is_top, flash=int(is_top and selected == str(number)))


def draw_waiting(machine: Spectrum, message: str) -> None:
    """The green baize and a message, before the first deal is on the table."""
    machine.cls()
    title_bar(machine, ["CANFIELD"])
    show_message(machine, message, False)


def draw_title(machine: Spectrum, message: str = "", refused: bool = False) -> None:
    """The title page, where the player's name is asked for."""
    machine.cls()
    title_bar(machine, ["CANFIELD"])
    lines = (
        "Saratoga Springs, 1900. At Mr. Canfield's club a deck costs $50 and "
        "every card you bring home to the foundations pays $5."
    )
    for row, line in enumerate(wrap(lines, 30), 3):
        machine.print_at(row, 1, line)
    for index, name in enumerate(("as", "kh", "qc", "jd")):
        draw_card(machine, 9, 9 + 4 * index, Card.parse(name))
    for row, line in enumerate(
        wrap("You start with $500, and with $500 again whenever your money can't buy a deck.", 30), 12
    ):
        machine.print_at(row, 1, line)
    for row, line in enumerate(wrap(f"Your name: up to {NAME_LENGTH} of {NAME_RULE}", 30), 16):
        machine.print_at(row, 1, line)
    show_message(machine, message, refused)


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def draw_record(machine: Spectrum, name: str, deals: list[DealRecord], money: int, fresh_starts: int) -> None:
    """The player's statistics and a bar chart of the money after each deal."""
    machine.cls()
    title_bar(machine, ["RECORD", name], f"${money}")
    record = statistics(deals)
    average = f"{record.average_home:.1f}" if record.average_home is not None else "-"
    best_money = max((deal.balance for deal in deals), default=money)
    lines = (
        f"Finished {record.played}, won {record.won} ({percent(record.won, record.played)})",
        f"Cards home {average} a deal, best {record.best_home}",
        f"Wins in a row {record.streak}, best {record.best_streak}",
        f"Could be won: {record.winnable} of {record.judged} ({percent(record.winnable, record.judged)})",
        *([f"Still to judge: {record.to_judge} deal{'s' * (record.to_judge != 1)}"] if record.to_judge else []),
        *(
            [
                f"Dealt winnable {record.dealt_winnable}, won {record.won_winnable} "
                f"({percent(record.won_winnable, record.dealt_winnable)})"
            ]
            if record.dealt_winnable
            else []
        ),
        *([levels_line(record.by_level)] if any(count for _, count, _ in record.by_level) else []),
        f"Money ${money}, best ${best_money}",
        f"$500 from the house: {fresh_starts} time{'s' * (fresh_starts != 1)}",
    )
    for row, line in enumerate(lines, STATISTICS_TOP):
        machine.print_at(row, 1, line[: WIDTH - 1])
    _draw_chart(machine, deals)
    machine.print_at(21, 0, " Press any key for the table".ljust(WIDTH), ink=HELP_INK, paper=BLACK)


STATISTICS_TOP = 2  # rows 2-10
CHART_TOP, CHART_BOTTOM = 12, 18  # rows of the bars, under their caption
CHART_LEFT = 6  # one column per deal from here
BAR_FULL, BAR_LOWER_HALF = "\x8a", "\x88"  # left half of the cell: a gap between bars
PAID_OFF = GREEN  # the deal paid back its deck
LOST = RED  # it did not


LEVEL_WORDS = {"medium": "med"}  # short, for one line


def levels_line(by_level: tuple[tuple[str, int, int], ...]) -> str:
    """The deals won of each level finished, in one line: as counts where they fit, else as shares."""
    counts = "Won: " + " ".join(f"{LEVEL_WORDS.get(level, level)} {won}/{count}" for level, count, won in by_level)
    if len(counts) < WIDTH:
        return counts
    return "Won: " + " ".join(
        f"{LEVEL_WORDS.get(level, level)} {percent(won, count)}" for level, count, won in by_level
    )


def draw_verdict(machine: Spectrum, deal_number: int, lines: list[str], watch: str) -> None:
    """The verdict on a deal that is over: what the solver found, a sentence a line where it fits,
    and what L does."""
    machine.cls()
    title_bar(machine, ["VERDICT", f"DEAL {deal_number}"])
    rows = [
        row
        for line in lines
        for sentence in SENTENCE_END.split(line)
        for row in (wrap(sentence, WIDTH - 2) if sentence else [""])
    ]
    for row, line in enumerate(rows[: VERDICT_BOTTOM - STATISTICS_TOP + 1], STATISTICS_TOP):
        machine.print_at(row, 1, line)
    machine.print_at(HELP_ROWS[0], 0, (" " + watch).ljust(WIDTH), ink=HELP_INK, paper=BLACK)
    machine.print_at(HELP_ROWS[1], 0, " Any other key: the table".ljust(WIDTH), ink=HELP_INK, paper=BLACK)


VERDICT_BOTTOM = 18


def _draw_chart(machine: Spectrum, deals: list[DealRecord]) -> None:
    rows = CHART_BOTTOM - CHART_TOP + 1
    columns = WIDTH - CHART_LEFT
    shown = deals[-columns:]
    machine.print_at(CHART_TOP - 1, 1, "Money after each deal" + (f", last {columns}" if len(deals) > columns else ""))
    for row in range(CHART_TOP, CHART_BOTTOM + 1):
        machine.print_at(row, 0, " " * WIDTH, paper=BLACK)
    if not shown:
        machine.print_at(CHART_TOP + rows // 2, CHART_LEFT, "No deals yet", paper=BLACK)
        return
    top = max(max(deal.balance for deal in shown), START_MONEY)
    top = -(-top // 100) * 100  # a round figure
    labelled = set()
    for value in (top, START_MONEY, 0):  # each at the row where a bar of that value ends
        row = CHART_BOTTOM - max(_half_cells(value, top, rows) - 1, 0) // 2
        if row not in labelled:
            labelled.add(row)
            machine.print_at(row, 0, f"{value:>5}", paper=BLACK)
    for col, deal in enumerate(shown, CHART_LEFT):
        height = _half_cells(deal.balance, top, rows)
        ink = PAID_OFF if deal.cards_home * CARD_PAYS >= DECK_PRICE else LOST
        for step in range(0, height, 2):
            char = BAR_FULL if step + 1 < height else BAR_LOWER_HALF
            machine.print_at(CHART_BOTTOM - step // 2, col, char, ink=ink, paper=BLACK, bright=1)
    for row, ink, words in ((CHART_BOTTOM + 1, PAID_OFF, "paid for its deck"), (CHART_BOTTOM + 2, LOST, "did not")):
        # on the chart's black, as the bars are: green on the green baize would hardly show
        machine.print_at(row, 0, " " + BAR_FULL + " " + words.ljust(WIDTH - 3), paper=BLACK)
        machine.print_at(row, 1, BAR_FULL, ink=ink, paper=BLACK, bright=1)


def _half_cells(value: int, top: int, rows: int) -> int:
    return max(0, min(2 * rows, round(2 * rows * value / top)))
