"""The listing `patience.bas`, routine by routine, on the `spectrum` layer.

Each function names the lines it stands for and prints, beeps and waits in the same order as
they do, so that the screen and the sound match the listing on a real Spectrum byte for byte.
A PRINT with several items is one `print_at` whose text carries the same control codes PRINT
sends (AT, INK, ...), since temporary colours last to the end of a PRINT statement.

The port tells the machine's interpreter (`spectrum.interpreter`) every statement of the
listing it runs, in the listing's order: the interpreter keeps the listing's BASIC variables as
the ROM has them (so that an expression typed at an INPUT in place of the quotes, `p$(1 TO 5)`
or `r$(2,3)`, means what it means on the Spectrum), refuses a statement the listing would not
run next, and — unless the machine runs fast — gives each statement the time the ROM takes
for it. What the port decides it decides by `rules`; the drawing and the sound are its own.
"""

from pathlib import Path
from typing import NoReturn

from spectrum import ReportError, Spectrum
from spectrum.basic import decode_escapes
from spectrum.errors import STOP_STATEMENT
from spectrum.interpreter import Interpreter
from spectrum.numbers import format_number, parse_number
from spectrum.program import Program
from spectrum.timing import Timing

from ..protocol import MoveRefused
from . import rules, targets

LISTING_FILE = Path(__file__).with_name("patience.bas")
PROGRAM = Program(LISTING_FILE.read_text())
END_OF_LINE = "\r"  # every PRINT of the listing ends its line (none ends with ';')
# BEEP durations as the ROM stores their literals (".2" is not exactly 0.2)
ERROR_BEEP = (parse_number(".2"), -20)
SHUFFLE_BEEP = parse_number(".01")
SHUFFLING = "Shuffling the pack…"  # said outside the screen while the shuffle runs: the prompt stays up
TYPEWRITER_BEEP = (parse_number(".005"), 36)
ARPEGGIO_NOTE, ARPEGGIO_LAST = parse_number(".1"), (parse_number(".4"), 24)
LAMENT_NOTE = parse_number(".15")

MOVE_PROMPT = "Your move? "
AGAIN_PROMPT = "Not allowed - again? "
TABLE_PAPER, TABLE_INK, CARD_PAPER = 4, 0, 7
CARD_WIDTH, CARD_HEIGHT = 5, 5
BLANK_LINE = " " * 32

# The DATA of lines 1780-1820: UDG A the ten's face, B-E spade, heart, club, diamond
UDG_DATA = (
    (0, 38, 105, 41, 41, 41, 118, 0),
    (0, 16, 56, 124, 254, 214, 16, 56),
    (0, 108, 254, 254, 124, 56, 16, 0),
    (0, 56, 56, 214, 254, 214, 16, 56),
    (0, 16, 56, 124, 254, 124, 56, 16),
)


def graphics(text: str) -> str:
    """Spectrum codes for text written with the listing's escapes (block graphics, UDGs)."""
    return decode_escapes(text).decode("latin-1")


# Lines 1280-1300: the court cards' figures, 3 block graphics wide and 5 rows high
COURT_FIGURES = {
    "J": tuple(map(graphics, (r"\ .\::\:.", r"\  \:.\: ", r"\ .\.:\..", r"\' \::\: ", r"\  \: \: "))),
    "Q": tuple(map(graphics, (r"\ :\..\: ", r"\: \  \ :", r"\''\..\''", r"\ '\::\' ", r"\.:\::\:."))),
    "K": tuple(map(graphics, (r"\:.\::\.:", r"\: \  \ :", r"\ :\::\: ", r"\::\::\::", r"\::\''\::"))),
}
COURT_LINES = {"J": 1280, "Q": 1290, "K": 1300}
TITLE_RULE = graphics(r"\''") * 14

INSTRUCTIONS = (
    "Nine cards are dealt: two rows",
    "of four, and one in the centre.",
    "Cover two cards that add up to",
    "11 (Ace counts 1), or a Jack,",
    "Queen and King, with new cards",
    "from the pack: type the numbers",
    "under them, e.g. 27 or 368.",
    "No move? 9 covers the centre",
    "card (once a game). 0 resigns.",
    "Use up the whole pack to win!",
)
# Lines 1610-1660: where each LET t$ and its GO SUB 1690 stand (line, statement of the LET)
INSTRUCTION_STATEMENTS = (
    (1610, 2),
    (1610, 4),
    (1620, 1),
    (1620, 3),
    (1630, 1),
    (1630, 3),
    (1640, 1),
    (1650, 1),
    (1650, 3),
    (1660, 1),
)
FIRST_INSTRUCTION_ROW = 7


def at(row: int, col: int) -> str:
    """The control codes of a PRINT item AT row,col."""
    return f"\x16{chr(row)}{chr(col)}"


def ink(colour: int) -> str:
    """The control codes of a PRINT item INK colour."""
    return f"\x10{chr(colour)}"


def start(machine: Spectrum, line: int | None = None, fast: bool = False) -> Interpreter:
    """The listing RUN on `machine` (its variables cleared), or, with `line`, about to run
    that line as GO TO would go there: the machine's interpreter. The machine keeps the ROM's
    time for every statement unless `fast`."""
    machine.timing = None if fast else Timing(machine)
    basic = machine.interpreter = Interpreter(machine, PROGRAM)
    basic.run_program()
    if line is not None:
        basic.flow.next = (line, 1)
    return basic


def dealt_game(machine: Spectrum, seed: int, fast: bool = False) -> rules.Game:
    """The game of RANDOMIZE seed dealt, as if these commands were typed after RUN: GO TO 1770
    (the UDGs poked; it goes on to the title, which is left out), GO SUB 1710, RANDOMIZE seed,
    GO SUB 1400 (the pack made and shuffled) and GO TO 1050 (the deal). The table then, waiting
    for the first move (`fast`: with no time taken by the statements)."""
    basic = start(machine, fast=fast)
    basic.go_to(1770)
    poke_udgs(machine)
    basic.go_sub(1710)
    table = initialise(machine, rules.Game(""))
    machine.randomize(seed)
    table = rules.Game(pack=made_and_shuffled(machine))
    basic.go_to(1050)
    return deal(machine, table)


def made_and_shuffled(machine: Spectrum) -> str:
    """GO SUB 1400 typed as a command: the pack made and shuffled, p$ then."""
    machine.interpreter.go_sub(1400)
    pack = make_pack(machine)
    machine.interpreter.run(1450)  # REM
    return shuffle(machine, pack)


def deal(machine: Spectrum, table: rules.Game) -> rules.Game:
    """Lines 1050-1080: the green table, nine cards with their numbers, the instructions."""
    basic = machine.interpreter
    basic.run(1050, 1, 4)  # BORDER 4: PAPER 4: INK 0: CLS
    machine.set_border(TABLE_PAPER)
    machine.colour(paper=TABLE_PAPER, ink=TABLE_INK)
    machine.cls()
    basic.statement(1050, 5)
    machine.print_at(0, 9, "11-UP PATIENCE" + END_OF_LINE, ink=7)
    table, placements = rules.deal(table)
    basic.run(1060, 1, 2)  # LET c=1: FOR q=1 TO 9
    for position, record in placements:
        x, y = place_card(machine, position, record, 1060, 3)
        basic.statement(1070, 1)
        machine.print_at(y + CARD_HEIGHT, x + 2, format_number(position) + END_OF_LINE, ink=7)
        basic.statement(1070, 2)  # NEXT q
    basic.statement(1080, 1)
    machine.print_at(
        19,
        0,
        " Type the numbers of two cards  "
        + at(20, 0)
        + " adding to 11, or of J Q K.     "
        + at(21, 0)
        + " 9: new centre card  0: resign  "
        + END_OF_LINE,
    )
    return table


def play(machine: Spectrum, table: rules.Game) -> rules.Game:
    """Lines 1090-1220: moves until the pack is used up or the player resigns; the table then.

    An illegal entry goes to the handler at 1230 (GO SUB H) and the new entry is judged from
    the start again (GO TO G).
    """
    basic = machine.interpreter
    while True:
        basic.input(1090, 1, lambda: machine.input(MOVE_PROMPT))
        move = judge(machine, table)
        if isinstance(move, str):  # rules.RESIGN
            return rules.resign(table)
        table, placements = rules.cover(table, move)
        basic.statement(1200, 1)  # FOR n=1 TO LEN z$
        for position, record in placements:
            basic.statement(1200, 2)  # IF c>260 THEN GO TO 1510
            basic.statement(1210, 1)  # LET q=z(n)
            place_card(machine, position, record, 1220, 1)
            basic.statement(1220, 4)  # NEXT n
        if table.pack_out and len(placements) < len(move):
            basic.statement(1200, 2)
            basic.statement(1200, 3)  # the pack ran out before the last card: GO TO 1510
            return table
        basic.statement(1220, 5)  # GO TO 1090+420*(c>260)
        if table.pack_out:
            return table


def judge(machine: Spectrum, table: rules.Game) -> tuple[int, ...] | str:
    """Lines 1100-1190 on z$, as often as it takes: each check the listing makes, in turn, and
    where one refuses the entry GO SUB H (a new entry) and GO TO G (judged again). The move
    then, or RESIGN (with line 1150's LET res=1)."""
    basic = machine.interpreter
    while True:
        entry = machine.variables["z$"]
        refused = refusal(entry, table)
        try:
            move = rules.judge(entry, table)
        except MoveRefused:
            move = None  # `refused` says which line refuses it
        basic.statement(1100, 1)
        if refused == 1100:
            refuse(machine, 1100, 2)
            continue
        basic.statement(1110, 1)  # FOR n=1 TO LEN z$
        lowest = ord("0") + (len(entry) > 1)
        for index, char in enumerate(entry):
            basic.statement(1110, 2)
            if not lowest <= ord(char) <= ord("9"):
                break
            basic.run(1120)  # LET z(n)=VAL z$(n): NEXT n
        else:
            basic.statement(1130, 1)  # FOR n=LEN z$+1 TO 3
            for _ in range(len(entry), 3):
                basic.run(1130, 2, 3)
            basic.statement(1140, 1)
        if refused == 1110:
            refuse(machine, 1110, 3)
            continue
        if refused == 1140:
            refuse(machine, 1140, 2)
            continue
        basic.statement(1150, 1)
        if move == rules.RESIGN:
            basic.run(1150, 2, 3)  # LET res=1: GO TO 1510
            return move
        basic.statement(1160, 1)
        if refused == 1160:
            refuse(machine, 1160, 2)
            continue
        basic.statement(1170, 1)
        if len(entry) == 1:
            basic.statement(1170, 2)  # LET fa=1
        for line, size in ((1180, 2), (1190, 3)):
            basic.statement(line, 1)
            if len(entry) == size:
                basic.statement(line, 2)
                if refused == line:
                    refuse(machine, line, 3)
                    break
        else:
            assert move is not None  # an entry the rules refuse is refused by a line above
            return move


def refusal(entry: str, table: rules.Game) -> int | None:
    """The line of the listing whose check refuses an entry, or None if none does."""
    if not entry or len(entry) > 3:
        return 1100
    lowest = "1" if len(entry) > 1 else "0"
    if any(not lowest <= char <= "9" for char in entry):
        return 1110
    if len(set(entry)) < len(entry):
        return 1140
    if entry == rules.RESIGN_ENTRY:
        return None
    if len(entry) == 1 and (entry != str(rules.CENTRE) or table.centre_used):
        return 1160
    if not rules.legal(entry, table):
        return 1180 if len(entry) == 2 else 1190
    return None


def refuse(machine: Spectrum, line: int, statement: int) -> None:
    """GO SUB H at statement `statement` of `line` (the handler asks again), then GO TO G."""
    basic = machine.interpreter
    basic.statement(line, statement)
    ask_again(machine)
    basic.statement(line, statement + 1)


def ask_again(machine: Spectrum) -> None:
    """Lines 1230-1240: a low buzz and a new entry (in z$); an empty one asks again (GO TO H)."""
    basic = machine.interpreter
    while True:
        basic.statement(1230, 1)
        machine.beep(*ERROR_BEEP)
        entry = basic.input(1230, 2, lambda: machine.input(AGAIN_PROMPT))
        basic.statement(1230, 3)
        if entry:
            basic.statement(1240, 1)  # RETURN
            return
        basic.statement(1230, 4)  # GO TO h


def place_card(machine: Spectrum, position: int, record: str, line: int, statement: int) -> tuple[int, int]:
    """LET x=FN c(q): LET y=FN d(q): GO SUB 1250 (statements `statement` on of `line`), with
    the next record of p$ on that position; its column and row."""
    basic = machine.interpreter
    basic.run(line, statement, statement + 2)
    x, y = rules.column(position), rules.row(position)
    print_card(machine, record, x, y)
    return x, y


def print_card(machine: Spectrum, record: str, x: int, y: int) -> None:
    """Lines 1250-1390: a card (its 5-character record) with its top left corner at (y, x)."""
    basic = machine.interpreter
    face, suit, colour = record[0], record[3], int(record[4])
    basic.run(1250)  # f$, r$(q), e$, i and c from p$
    basic.run(1260, 1, 3)  # PAPER 7: INK i: FOR j=y TO y+4
    machine.colour(paper=CARD_PAPER, ink=colour)
    for line in range(y, y + CARD_HEIGHT):
        basic.statement(1260, 4)
        machine.print_at(line, x, " " * CARD_WIDTH + END_OF_LINE)
        basic.statement(1260, 5)  # NEXT j
    basic.statement(1270, 1)
    machine.print_at(y, x, face + at(y + 1, x) + suit + at(y + 3, x + 4) + suit + at(y + 4, x + 4) + face + END_OF_LINE)
    for court, line in COURT_LINES.items():
        basic.statement(line, 1)
        if face == court:
            basic.statement(line, 2)
            figure = COURT_FIGURES[face]
            machine.print_at(
                y, x + 1, "".join((at(y + n, x + 1) if n else "") + part for n, part in enumerate(figure)) + END_OF_LINE
            )
            basic.statement(line, 3)  # GO TO 1390
            break
    else:
        print_pips(machine, face, suit, x, y)
    basic.run(1390, 1, 2)  # PAPER 4: INK 0
    machine.colour(paper=TABLE_PAPER, ink=TABLE_INK)
    basic.statement(1390, 3)  # RETURN


# Lines 1310-1380: which faces each IF draws pips for, and the cells (row, column in the card)
PIPS = (
    (1310, lambda face: face in "A359", ((2, 2),)),
    (1320, lambda face: face in "23", ((0, 2), (4, 2))),
    (1330, lambda face: "4" <= face <= "9" or face == rules.TEN, ((0, 1), (0, 3), (4, 1), (4, 3))),
    (1340, lambda face: "6" <= face <= "8", ((2, 1), (2, 3))),
    (1350, lambda face: face in "78", ((1, 2),)),
    (1360, lambda face: face == "8", ((3, 2),)),
    (1370, lambda face: face in "9" + rules.TEN, ((1, 1), (1, 3), (3, 1), (3, 3))),
    (1380, lambda face: face == rules.TEN, ((1, 2), (3, 2))),
)


def print_pips(machine: Spectrum, face: str, suit: str, x: int, y: int) -> None:
    """Lines 1310-1380: the pips of A-10, one IF per group of cells, in the listing's order."""
    basic = machine.interpreter
    for line, drawn, cells in PIPS:
        basic.statement(line, 1)
        if drawn(face):
            basic.statement(line, 2)
            first_row, first_col = cells[0]
            text = suit + "".join(at(y + r, x + c) + suit for r, c in cells[1:])
            machine.print_at(y + first_row, x + first_col, text + END_OF_LINE)


def make_pack(machine: Spectrum) -> str:
    """Lines 1400-1440: a new pack in order, from d$ and b$ built up in a$."""
    basic = machine.interpreter
    basic.run(1400)
    basic.run(1410)
    basic.statement(1420, 1)  # FOR p=1 TO 4
    for _ in rules.SUITS:
        basic.statement(1420, 2)  # LET col=2*(p=2 OR p=4)
        basic.statement(1430, 1)  # FOR f=1 TO 37 STEP 3
        for _ in range(len(rules.FACES) // 3):
            basic.run(1430, 2, 3)  # LET a$=...: NEXT f
        basic.statement(1430, 4)  # NEXT p
    basic.run(1440)
    return rules.fresh_pack()


def shuffle(machine: Spectrum, pack: str) -> str:
    """Lines 1460-1490: 60 cuts of a random card, to the top on even passes, else to the bottom;
    a BEEP each pass, an octave higher on the even ones."""
    basic = machine.interpreter
    with machine.saying(SHUFFLING):  # outside the Spectrum's screen, where the last prompt stays up
        basic.statement(1460, 1)  # FOR n=1 TO 60
        for pass_number in range(1, rules.SHUFFLE_PASSES + 1):
            basic.statement(1460, 2)  # LET a=5*INT (RND*52)+1, with the RND drawn next
            start = rules.block_start(machine.rnd())
            pack = rules.cut(pack, pass_number, start)
            basic.run(1470)
            basic.statement(1480, 1)
            basic.statement(1480, 2)
            machine.beep(SHUFFLE_BEEP, 12 + 12 * (pass_number % 2 == 0))
            basic.statement(1490, 1)  # NEXT n
        basic.statement(1490, 2)  # RETURN
    return pack


def end_game(machine: Spectrum, table: rules.Game) -> bool:
    """Lines 1510-1590: the verdict and its tune, then "Another game?"; True for yes."""
    basic = machine.interpreter
    basic.statement(1510, 1)
    machine.print_at(19, 0, BLANK_LINE + at(20, 0) + BLANK_LINE + END_OF_LINE)
    basic.statement(1510, 2)  # IF res THEN GO TO 1540
    if table.resigned:
        basic.statement(1510, 3)
        basic.statement(1540, 1)
        machine.print_at(
            19,
            4,
            "      YOU RESIGNED      "
            + at(20, 4)
            + "      Cards left: "
            + format_number(table.cards_left)
            + "    "
            + END_OF_LINE,
            paper=2,
            ink=7,
        )
        basic.statement(1550, 1)  # FOR n=12 TO -12 STEP -4
        for pitch in range(12, -13, -4):
            basic.statement(1550, 2)
            machine.beep(LAMENT_NOTE, pitch)
            basic.statement(1550, 3)  # NEXT n
    else:
        basic.statement(1520, 1)
        machine.print_at(
            19, 4, "  WELL DONE - YOU WIN!  " + at(20, 4) + "The pack is all used up." + END_OF_LINE, paper=6
        )
        basic.statement(1530, 1)  # FOR n=0 TO 12 STEP 12
        for root in (0, 12):
            for number, step in enumerate((0, 4, 7), 2):
                basic.statement(1530, number)
                machine.beep(ARPEGGIO_NOTE, root + step)
            basic.statement(1530, 5)  # NEXT n
        basic.statement(1530, 6)
        machine.beep(*ARPEGGIO_LAST)
        basic.statement(1530, 7)  # GO TO 1560
    while True:
        basic.statement(1560, 1)
        machine.print_at(21, 0, "       Another game? (Y/N)      " + END_OF_LINE)
        basic.statement(1560, 2)
        machine.pause(0)
        basic.statement(1560, 3)  # LET k$=INKEY$
        key = machine.variables["k$"]
        basic.statement(1570, 1)
        if key in ("y", "Y"):
            return True
        basic.statement(1580, 1)
        if key in ("n", "N"):
            break
        basic.statement(1580, 2)  # GO TO 1560
    basic.run(1590, 1, 4)  # BORDER 7: PAPER 7: INK 0: CLS
    machine.set_border(7)
    machine.colour(paper=7, ink=0)
    machine.cls()
    basic.statement(1590, 5)
    machine.print_at(10, 6, "Thanks for playing." + END_OF_LINE)
    basic.statement(1590, 6)  # STOP
    return False


def title(machine: Spectrum) -> None:
    """Lines 1600-1670: the title, the rules typed out, and a key to deal."""
    basic = machine.interpreter
    basic.run(1600, 1, 4)  # BORDER 1: PAPER 1: INK 7: CLS
    machine.set_border(1)
    machine.colour(paper=1, ink=7)
    machine.cls()
    basic.statement(1600, 5)
    machine.print_at(
        2,
        9,
        "11-UP PATIENCE" + at(3, 9) + ink(5) + TITLE_RULE + at(4, 9) + "by Colin Gooch" + END_OF_LINE,
        ink=6,
        bright=1,
    )
    basic.statement(1610, 1)  # LET l=7
    for row, text, (line, statement) in zip(range(FIRST_INSTRUCTION_ROW, 99), INSTRUCTIONS, INSTRUCTION_STATEMENTS):
        basic.run(line, statement, statement + 1)  # LET t$=...: GO SUB 1690
        typewrite(machine, row, text)
    basic.statement(1670, 1)
    machine.print_at(20, 5, " Press any key to deal " + END_OF_LINE, flash=1)
    basic.statement(1670, 2)
    machine.pause(0)


def typewrite(machine: Spectrum, row: int, text: str) -> None:
    """Lines 1690-1700 (t$ = text, l = row): one character at a time, with a tick and a PAUSE 1
    after each."""
    basic = machine.interpreter
    basic.statement(1690, 1)  # FOR j=1 TO LEN t$
    for col, char in enumerate(text, 1):
        basic.statement(1690, 2)
        machine.print_at(row, col, char + END_OF_LINE)
        basic.statement(1690, 3)
        machine.beep(*TYPEWRITER_BEEP)
        basic.statement(1690, 4)
        machine.pause(1)
        basic.statement(1690, 5)  # NEXT j
    basic.run(1700)  # LET l=l+1: RETURN


def initialise(machine: Spectrum, table: rules.Game) -> rules.Game:
    """Lines 1710-1750: RES and FA to 0, H and G (the flow of `play`), r$ and z() DIM'd anew."""
    for line in range(1710, 1760, 10):
        machine.interpreter.run(line)
    return rules.initialised(table)


def load_udgs(machine: Spectrum) -> None:
    """Lines 1760-1770: "Stop the tape", then the DATA poked into UDGs A-E."""
    basic = machine.interpreter
    basic.run(1760, 1, 4)  # BORDER 0: PAPER 0: INK 7: CLS
    machine.set_border(0)
    machine.colour(paper=0, ink=7)
    machine.cls()
    basic.statement(1760, 5)
    machine.print_at(10, 4, "Stop the tape, please." + END_OF_LINE)
    poke_udgs(machine)


def poke_udgs(machine: Spectrum) -> None:
    """Line 1770: RESTORE 1780 and the DATA poked into UDGs A-E (READ a, FOR n and m), then GO TO
    1600."""
    basic = machine.interpreter
    basic.run(1770, 1, 2)  # RESTORE 1780: FOR n=0 TO 4
    for letter, rows in zip("abcde", UDG_DATA):
        basic.statement(1770, 3)  # FOR m=0 TO 7
        for offset, value in enumerate(rows):
            basic.run(1770, 4, 5)  # READ a: POKE USR CHR$ (97+n)+m,a
            machine.poke(machine.usr(letter) + offset, value)
            basic.statement(1770, 6)  # NEXT m
        basic.statement(1770, 7)  # NEXT n
    basic.statement(1770, 8)  # GO TO 1600


def run(machine: Spectrum, seed: int | None = None, fast: bool = False) -> None:
    """The program from RUN to "Thanks for playing": its autostart line, the title, then
    games until the player says no, at the ROM's pace (`fast`: with no time taken but by the
    waits for keys, PAUSE and BEEP).

    `seed` stands for line 1040 reading RANDOMIZE seed; without it, RANDOMIZE takes FRAMES.
    """
    basic = start(machine, fast=fast)
    machine.targets = targets.targets  # what a tap on its screen types, read from the screen as on the ROM
    basic.run(1000)  # REM
    basic.statement(1010, 1)  # GO TO 1760
    load_udgs(machine)
    title(machine)
    basic.statement(1680, 1)  # GO SUB 1710
    table = initialise(machine, rules.Game(pack=""))
    basic.statement(1680, 2)  # GO TO 1040
    basic.statement(1040, 1)
    machine.randomize(seed or 0)
    basic.statement(1045, 1)  # GO SUB 1400
    pack = make_pack(machine)
    basic.run(1450)  # REM
    table = rules.Game(pack=shuffle(machine, pack))
    while True:
        table = play(machine, deal(machine, table))
        if not end_game(machine, table):
            return
        basic.statement(1570, 2)  # GO SUB 1710
        table = initialise(machine, table)
        basic.statement(1570, 3)  # GO SUB 1710
        table = initialise(machine, table)
        basic.statement(1570, 4)  # GO SUB 1460
        table = rules.Game(pack=shuffle(machine, table.pack))
        basic.statement(1570, 5)  # GO TO 1050


def run_to_report(machine: Spectrum, seed: int | None = None, fast: bool = False) -> NoReturn:
    """`run`, and the report the program stops with as the ROM gives it, with the line and
    statement it came in: the listing's STOP ("9 STOP statement, 1590:6"), or BREAK, say."""
    try:
        run(machine, seed, fast)
    except ReportError as report:
        raise machine.interpreter.placed(report) if machine.interpreter else report from None
    raise machine.interpreter.placed(ReportError(STOP_STATEMENT))
