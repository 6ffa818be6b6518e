"""The listing `patience.bas`, routine by routine, on the `spectrum` layer.

Each function names the lines it stands for and prints, beeps and waits in the same order as
they do, so that the screen and the sound match the listing on a real Spectrum byte for byte.
A PRINT with several items is one `print_at` whose text carries the same control codes PRINT
sends (AT, INK, ...), since temporary colours last to the end of a PRINT statement.

The listing's BASIC variables are kept in `machine.variables` as its LETs, FORs, READs and DIMs
leave them (a FOR variable at its value after the loop, or where a GO TO left it), so that an
expression typed at an INPUT in place of the quotes (`p$(1 TO 5)`, `r$(2,3)`, `STR$ c`) means
what it means on the Spectrum: strings as str, numbers as int, DIM'd arrays as lists; and
`FN c(q)` and `FN d(q)` are lines 1020-1030's.
"""

from dataclasses import replace

from spectrum import Spectrum
from spectrum.basic import decode_escapes, tokenize
from spectrum.numbers import format_number, parse_number

from . import rules

END_OF_LINE = "\r"  # every PRINT of the listing ends its line (none ends with ';')
# BEEP durations as the ROM stores their literals (".2" is not exactly 0.2)
ERROR_BEEP = (parse_number(".2"), -20)
SHUFFLE_BEEP = parse_number(".01")
TYPEWRITER_BEEP = (parse_number(".005"), 36)
ARPEGGIO_NOTE, ARPEGGIO_LAST = parse_number(".1"), (parse_number(".4"), 24)
LAMENT_NOTE = parse_number(".15")

MOVE_PROMPT = "Your move? "
AGAIN_PROMPT = "Not allowed - again? "
TABLE_PAPER, TABLE_INK, CARD_PAPER = 4, 0, 7
CARD_WIDTH, CARD_HEIGHT = 5, 5
VALUE_LENGTH = 5  # DIM r$(9,5): a card's two-digit value, padded as a fixed-length string is
# Lines 1020-1030, DEF FN c(x) and d(x) (`rules.column` and `rules.row`), for an INPUT expression
FUNCTIONS = {"c": (("x",), tokenize("6*(x-4*(x>4))-15*(x=9)")),
             "d": (("x",), tokenize("1+6*(x>4)+6*(x>4 AND x<9)"))}
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
TITLE_RULE = graphics(r"\''") * 14

INSTRUCTIONS = (
    "Nine cards are dealt: two rows", "of four, and one in the centre.",
    "Cover two cards that add up to", "11 (Ace counts 1), or a Jack,",
    "Queen and King, with new cards", "from the pack: type the numbers",
    "under them, e.g. 27 or 368.",
    "No move? 9 covers the centre", "card (once a game). 0 resigns.",
    "Use up the whole pack to win!",
)
FIRST_INSTRUCTION_ROW = 7


def at(row: int, col: int) -> str:
    """The control codes of a PRINT item AT row,col."""
    return f"\x16{chr(row)}{chr(col)}"


def ink(colour: int) -> str:
    """The control codes of a PRINT item INK colour."""
    return f"\x10{chr(colour)}"


def deal(machine: Spectrum, table: rules.Table) -> rules.Table:
    """Lines 1050-1080: the green table, nine cards with their numbers, the instructions."""
    machine.set_border(TABLE_PAPER)
    machine.colour(paper=TABLE_PAPER, ink=TABLE_INK)
    machine.cls()
    machine.print_at(0, 9, "11-UP PATIENCE" + END_OF_LINE, ink=7)
    table, placements = rules.deal(table)
    machine.variables["c"] = 1
    for position, record in placements:
        x, y = place_card(machine, position, record)
        machine.print_at(y + CARD_HEIGHT, x + 2, format_number(position) + END_OF_LINE, ink=7)
    machine.variables["q"] = len(placements) + 1  # after NEXT q
    machine.print_at(19, 0, " Type the numbers of two cards  " + at(20, 0) + " adding to 11, or of J Q K.     "
                     + at(21, 0) + " 9: new centre card  0: resign  " + END_OF_LINE)
    return table


def play(machine: Spectrum, table: rules.Table) -> rules.Table:
    """Lines 1090-1220: moves until the pack is used up or the player resigns; the table then.

    An illegal entry goes to the handler at 1230 (GO SUB H) and the new entry is judged from
    the start again (GO TO G).
    """
    variables = machine.variables
    while True:
        variables["z$"] = machine.input(MOVE_PROMPT)
        move = judge(machine, table)
        while move is None:
            variables["z$"] = ask_again(machine)
            move = judge(machine, table)
        if move == rules.RESIGN:
            return rules.resign(table)
        table, placements = rules.cover(table, move)
        for n, (position, record) in enumerate(placements, 1):
            variables["n"] = n
            place_card(machine, position, record)
        variables["n"] = len(placements) + 1  # after NEXT n, or where line 1200 left for 1510
        if table.pack_out:
            return table


def judge(machine: Spectrum, table: rules.Table) -> tuple[int, ...] | str | None:
    """Lines 1100-1190 on z$: `rules.judge`, with what the lines LET on the way: n and z() as
    far as the checks get, RES for 0 and FA for a lone 9."""
    variables = machine.variables
    entry = variables["z$"]
    move = rules.judge(entry, table)
    if not entry or len(entry) > 3:  # line 1100
        return move
    lowest = ord("0") + (len(entry) > 1)
    for n, char in enumerate(entry, 1):  # lines 1110-1120
        variables["n"] = n
        if not lowest <= ord(char) <= ord("9"):
            return move
        variables["z"][n - 1] = int(char)
    for n in range(len(entry) + 1, 4):  # line 1130
        variables["z"][n - 1] = -n
    variables["n"] = 4
    if move == rules.RESIGN:
        variables["res"] = 1
    elif move is not None and len(entry) == 1:
        variables["fa"] = 1
    return move


def ask_again(machine: Spectrum) -> str:
    """Lines 1230-1240: a low buzz and a new entry (in z$); an empty one asks again (GO TO H)."""
    while True:
        machine.beep(*ERROR_BEEP)
        entry = machine.variables["z$"] = machine.input(AGAIN_PROMPT)
        if entry:
            return entry


def place_card(machine: Spectrum, position: int, record: str) -> tuple[int, int]:
    """LET q, x=FN c(q), y=FN d(q) (lines 1060 and 1210-1220), then GO SUB 1250 with the next
    record of p$ on that position; its column and row."""
    variables = machine.variables
    x, y = rules.column(position), rules.row(position)
    variables.update(q=position, x=x, y=y)
    variables["f$"], variables["e$"], variables["i"] = record[0], record[3], int(record[4])
    variables["r$"][position - 1] = record[1:3].ljust(VALUE_LENGTH)
    variables["c"] += rules.CARD
    print_card(machine, record, x, y)
    variables["j"] = y + CARD_HEIGHT  # after line 1260's NEXT j
    return x, y


def print_card(machine: Spectrum, record: str, x: int, y: int) -> None:
    """Lines 1250-1390: a card (its 5-character record) with its top left corner at (y, x)."""
    face, suit, colour = record[0], record[3], int(record[4])
    machine.colour(paper=CARD_PAPER, ink=colour)
    for line in range(y, y + CARD_HEIGHT):
        machine.print_at(line, x, " " * CARD_WIDTH + END_OF_LINE)
    machine.print_at(y, x, face + at(y + 1, x) + suit + at(y + 3, x + 4) + suit + at(y + 4, x + 4) + face
                     + END_OF_LINE)
    if face in COURT_FIGURES:
        figure = COURT_FIGURES[face]
        machine.print_at(y, x + 1, "".join((at(y + n, x + 1) if n else "") + part for n, part in enumerate(figure))
                         + END_OF_LINE)
    else:
        print_pips(machine, face, suit, x, y)
    machine.colour(paper=TABLE_PAPER, ink=TABLE_INK)


def print_pips(machine: Spectrum, face: str, suit: str, x: int, y: int) -> None:
    """Lines 1310-1380: the pips of A-10, one IF per group of cells, in the listing's order."""
    def pips(*cells: tuple[int, int]) -> None:
        first_row, first_col = cells[0]
        text = suit + "".join(at(y + r, x + c) + suit for r, c in cells[1:])
        machine.print_at(y + first_row, x + first_col, text + END_OF_LINE)

    if face in "A359":
        pips((2, 2))
    if face in "23":
        pips((0, 2), (4, 2))
    if "4" <= face <= "9" or face == rules.TEN:
        pips((0, 1), (0, 3), (4, 1), (4, 3))
    if "6" <= face <= "8":
        pips((2, 1), (2, 3))
    if face in "78":
        pips((1, 2))
    if face == "8":
        pips((3, 2))
    if face in "9" + rules.TEN:
        pips((1, 1), (1, 3), (3, 1), (3, 3))
    if face == rules.TEN:
        pips((1, 2), (3, 2))


def make_pack(machine: Spectrum) -> str:
    """Lines 1400-1440: a new pack in order, from d$ and b$ built up in a$."""
    pack = rules.fresh_pack()
    machine.variables.update({"d$": rules.FACES, "b$": rules.SUITS, "a$": pack, "p$": pack,
                              "p": 5, "f": 40, "col": 2})  # after NEXT f and NEXT p
    return pack


def shuffle(machine: Spectrum, pack: str) -> str:
    """Lines 1460-1490: 60 cuts of a random card, to the top on even passes, else to the bottom;
    a BEEP each pass, an octave higher on the even ones.

    The cuts are taken first: RND and string slicing take no time here and BEEP leaves SEED
    alone, so the pack and the sound are those of the listing's loop.
    """
    *_, (start, block, pack) = rules.shuffle_passes(pack, [machine.rnd() for _ in range(rules.SHUFFLE_PASSES)])
    machine.variables.update({"a": start, "c$": block, "p$": pack, "n": rules.SHUFFLE_PASSES + 1})
    for pass_number in range(1, rules.SHUFFLE_PASSES + 1):
        machine.beep(SHUFFLE_BEEP, 12 + 12 * (pass_number % 2 == 0))
    return pack


def end_game(machine: Spectrum, table: rules.Table) -> bool:
    """Lines 1510-1590: the verdict and its tune, then "Another game?"; True for yes."""
    machine.print_at(19, 0, BLANK_LINE + at(20, 0) + BLANK_LINE + END_OF_LINE)
    machine.variables["n"] = -16 if table.resigned else 24  # after NEXT n at 1550 or 1530
    if table.resigned:
        machine.print_at(19, 4, "      YOU RESIGNED      " + at(20, 4) + "      Cards left: "
                         + format_number(table.cards_left) + "    " + END_OF_LINE, paper=2, ink=7)
        for pitch in range(12, -13, -4):
            machine.beep(LAMENT_NOTE, pitch)
    else:
        machine.print_at(19, 4, "  WELL DONE - YOU WIN!  " + at(20, 4) + "The pack is all used up." + END_OF_LINE, paper=6)
        for root in (0, 12):
            for step in (0, 4, 7):
                machine.beep(ARPEGGIO_NOTE, root + step)
        machine.beep(*ARPEGGIO_LAST)
    while True:
        machine.print_at(21, 0, "       Another game? (Y/N)      " + END_OF_LINE)
        machine.pause(0)
        key = machine.variables["k$"] = machine.inkey()
        if key in ("y", "Y"):
            return True
        if key in ("n", "N"):
            break
    machine.set_border(7)
    machine.colour(paper=7, ink=0)
    machine.cls()
    machine.print_at(10, 6, "Thanks for playing." + END_OF_LINE)
    return False


def title(machine: Spectrum) -> None:
    """Lines 1600-1670: the title, the rules typed out, and a key to deal."""
    machine.set_border(1)
    machine.colour(paper=1, ink=7)
    machine.cls()
    machine.print_at(2, 9, "11-UP PATIENCE" + at(3, 9) + ink(5) + TITLE_RULE + at(4, 9) + "by Colin Gooch" + END_OF_LINE,
                     ink=6, bright=1)
    machine.variables["l"] = FIRST_INSTRUCTION_ROW
    for row, text in enumerate(INSTRUCTIONS, FIRST_INSTRUCTION_ROW):
        typewrite(machine, row, text)
    machine.print_at(20, 5, " Press any key to deal " + END_OF_LINE, flash=1)
    machine.pause(0)


def typewrite(machine: Spectrum, row: int, text: str) -> None:
    """Lines 1690-1700 (t$ = text, l = row): one character at a time, with a tick and a PAUSE 1
    after each."""
    machine.variables["t$"] = text
    for col, char in enumerate(text, 1):
        machine.print_at(row, col, char + END_OF_LINE)
        machine.beep(*TYPEWRITER_BEEP)
        machine.pause(1)
    machine.variables.update(j=len(text) + 1, l=row + 1)


def initialise(machine: Spectrum, table: rules.Table) -> rules.Table:
    """Lines 1710-1750: RES and FA to 0, H and G (the flow of `play`), r$ and z() DIM'd anew."""
    machine.variables.update(res=0, fa=0, h=1230, g=1100, z=[0, 0, 0])
    machine.variables["r$"] = [" " * VALUE_LENGTH] * len(rules.POSITIONS)
    return rules.initialised(table)


def load_udgs(machine: Spectrum) -> None:
    """Lines 1760-1770: "Stop the tape", then the DATA poked into UDGs A-E."""
    machine.set_border(0)
    machine.colour(paper=0, ink=7)
    machine.cls()
    machine.print_at(10, 4, "Stop the tape, please." + END_OF_LINE)
    poke_udgs(machine)


def poke_udgs(machine: Spectrum) -> None:
    """Line 1770: RESTORE 1780 and the DATA poked into UDGs A-E (READ a, FOR n and m)."""
    for letter, rows in zip("abcde", UDG_DATA):
        for offset, value in enumerate(rows):
            machine.poke(machine.usr(letter) + offset, value)
    machine.variables.update(n=len(UDG_DATA), m=len(UDG_DATA[-1]), a=UDG_DATA[-1][-1])


def run(machine: Spectrum, seed: int | None = None) -> None:
    """The program from its autostart line to "Thanks for playing".

    `seed` stands for line 1040 reading RANDOMIZE seed; without it, RANDOMIZE takes FRAMES.
    """
    machine.variables = {}  # RUN clears them
    machine.functions = dict(FUNCTIONS)
    load_udgs(machine)
    title(machine)
    table = initialise(machine, rules.Table(pack=""))
    machine.randomize(seed or 0)
    table = replace(table, pack=shuffle(machine, make_pack(machine)))
    while True:
        table = play(machine, deal(machine, table))
        if not end_game(machine, table):
            return
        table = initialise(machine, initialise(machine, table))  # line 1570 calls GO SUB 1710 twice
        table = replace(table, pack=shuffle(machine, table.pack))
