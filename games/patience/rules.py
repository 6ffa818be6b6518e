"""The rules of 11-Up Patience as the listing applies them: no screen, no keys, no sound.

The pack is the listing's `p$`: 52 records of 5 characters (face, two-digit value, suit, INK
digit), kept whole through a game — a pointer says where the next card starts — so that a replay
can shuffle it again. Characters are Spectrum codes in a str ('\\x90' is UDG A).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations

CARD = 5  # characters per record in p$
CARDS = 52
PACK_END = CARD * CARDS  # 260: once the pointer passes this, the pack is used up
POSITIONS = range(1, 10)  # 1-4 top row, 5-8 bottom row, 9 the centre
CENTRE = 9
SHUFFLE_PASSES = 60
PAIR_TOTAL, THREE_TOTAL = 11, 36  # two cards making 11; J + Q + K = 11 + 12 + 13

TEN = "\x90"  # UDG A: the ten's face, "10" in one character cell
# d$ at line 1410: face and two-digit value of the 13 ranks
FACES = f"A01202303404505606707808909{TEN}10J11Q12K13"
# b$: UDGs B-E, spade, heart, club, diamond — so that suits 2 and 4 are the red ones
SUITS = "\x91\x92\x93\x94"

RESIGN = "resign"


def fresh_pack() -> str:
    """Lines 1410-1440: the 52 records suit by suit, INK 2 (red) for suits 2 and 4, else INK 0."""
    records = []
    for suit_number, suit in enumerate(SUITS, 1):
        colour = 2 * (suit_number in (2, 4))
        for start in range(0, len(FACES), 3):
            records.append(FACES[start:start + 3] + suit + str(colour))
    return "".join(records)


def block_start(rnd: float) -> int:
    """Line 1460: A = 5*INT (RND*52)+1, where a random record starts in p$ (counting from 1)."""
    return CARD * int(rnd * CARDS) + 1


def cut(pack: str, pass_number: int, start: int) -> str:
    """Lines 1470-1480: take out the record at `start`; even passes put it on top, odd ones under."""
    block = pack[start - 1:start - 1 + CARD]
    rest = pack[:start - 1] + pack[start - 1 + CARD:]
    return block + rest if pass_number % 2 == 0 else rest + block


def column(position: int) -> int:
    """DEF FN c(x) at line 1020: the column of a card's left edge."""
    return 6 * (position - 4 * (position > 4)) - 15 * (position == CENTRE)


def row(position: int) -> int:
    """DEF FN d(x) at line 1030: the row of a card's top edge."""
    return 1 + 6 * (position > 4) + 6 * (4 < position < CENTRE)


@dataclass
class Table:
    """The game's variables: p$, the pointer c, r$ (as numbers), FA and RES."""

    pack: str
    next_card: int = 1  # c: where the next record starts in p$, counting from 1
    values: dict[int, int] = field(default_factory=dict)  # VAL r$(position)
    centre_used: bool = False  # FA: the lone `9` has been played
    resigned: bool = False  # RES

    def take_card(self, position: int) -> str:
        """Line 1250: the next record from the pack goes to `position`."""
        record = self.pack[self.next_card - 1:self.next_card - 1 + CARD]
        self.values[position] = int(record[1:3])
        self.next_card += CARD
        return record

    @property
    def pack_out(self) -> bool:
        return self.next_card > PACK_END

    @property
    def cards_left(self) -> int:
        return (PACK_END + 1 - self.next_card) // CARD


def judge(entry: str, table: Table) -> tuple[int, ...] | str | None:
    """Lines 1100-1190: the positions an entry covers, RESIGN, or None for an illegal entry.

    Up to three digits, all different; 0 only alone (resign); a lone position only as 9, and
    only once a game; two cards must total 11 and three must total 36 (so Q+Q+Q and K+K+10 pass,
    as the listing's sum check lets them).
    """
    if not entry or len(entry) > 3:
        return None
    lowest = "1" if len(entry) > 1 else "0"  # line 1110: CODE z$(n)<48+(LEN z$>1)
    if any(not lowest <= char <= "9" for char in entry):
        return None
    positions = tuple(int(char) for char in entry)
    if len(set(positions)) < len(positions):
        return None
    if entry == "0":
        return RESIGN
    if len(positions) == 1 and (positions[0] != CENTRE or table.centre_used):
        return None
    total = sum(table.values[position] for position in positions)
    if (len(positions) == 2 and total != PAIR_TOTAL) or (len(positions) == 3 and total != THREE_TOTAL):
        return None
    return positions


def deal(table: Table) -> Iterator[tuple[int, str]]:
    """Lines 1060-1070 without the drawing: the first nine records to positions 1-9.

    Yields (position, record) as each card is placed.
    """
    table.next_card = 1
    for position in POSITIONS:
        yield position, table.take_card(position)


def cover(table: Table, positions: tuple[int, ...]) -> Iterator[tuple[int, str]]:
    """Lines 1170-1220 without the drawing: the next records onto `positions` in order, while
    the pack lasts; a lone position uses up the centre play (FA).

    Yields (position, record) as each card is placed.
    """
    if len(positions) == 1:
        table.centre_used = True
    for position in positions:
        if table.pack_out:
            return
        yield position, table.take_card(position)


def legal_entries(table: Table) -> list[str]:
    """Every entry the listing accepts as a move now (resigning aside), in a fixed order."""
    candidates = [] if table.centre_used else [str(CENTRE)]
    for size, total in ((2, PAIR_TOTAL), (3, THREE_TOTAL)):
        candidates += ["".join(map(str, chosen)) for chosen in permutations(POSITIONS, size)
                       if sum(table.values[position] for position in chosen) == total]
    return [entry for entry in candidates if isinstance(judge(entry, table), tuple)]


def winning_line(pack: str) -> list[str] | None:
    """A list of entries that uses up the whole pack from the deal, or None if no play wins.

    A depth-first search over every legal entry, remembering the positions already lost.
    """
    @cache
    def search(values: tuple[int, ...], next_card: int, centre_used: bool) -> tuple[str, ...] | None:
        table = Table(pack, next_card, dict(zip(POSITIONS, values)), centre_used)
        for entry in legal_entries(table):
            after = Table(pack, next_card, dict(table.values), centre_used)
            for _ in cover(after, judge(entry, after)):
                pass
            if after.pack_out:
                return (entry,)
            rest = search(tuple(after.values[p] for p in POSITIONS), after.next_card, after.centre_used)
            if rest is not None:
                return (entry,) + rest
        return None

    table = Table(pack)
    for _ in deal(table):
        pass
    line = search(tuple(table.values[p] for p in POSITIONS), table.next_card, False)
    return None if line is None else list(line)
