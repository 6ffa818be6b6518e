"""The rules of 11-Up Patience as the listing applies them: no screen, no keys, no sound.

The pack is the listing's `p$`: 52 records of 5 characters (face, two-digit value, suit, INK
digit), kept whole through a game — a pointer says where the next card starts — so that a replay
can shuffle it again. Characters are Spectrum codes in a str ('\\x90' is UDG A).

Every function here is pure: a `Game` (the game's variables) is never changed, a move gives a new
one together with the placements — (position, record) in the order the listing draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from itertools import permutations

from ..cards import Card, Suit
from ..protocol import TERMINAL, MoveRefused, Outcome, Termination

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
SUIT_OF_UDG = dict(zip(SUITS, (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)))

RESIGN = "resign"
RESIGN_ENTRY = "0"
Placement = tuple[int, str]  # a position and the record that goes onto it


def card_of(record: str) -> Card:
    """The card a record of p$ stands for: its value is the rank, its UDG the suit."""
    return Card(int(record[1:3]), SUIT_OF_UDG[record[3]])


def fresh_pack() -> str:
    """Lines 1410-1440: the 52 records suit by suit, INK 2 (red) for suits 2 and 4, else INK 0."""
    records = []
    for suit_number, suit in enumerate(SUITS, 1):
        colour = 2 * (suit_number in (2, 4))
        for start in range(0, len(FACES), 3):
            records.append(FACES[start : start + 3] + suit + str(colour))
    return "".join(records)


def block_start(rnd: float) -> int:
    """Line 1460: A = 5*INT (RND*52)+1, where a random record starts in p$ (counting from 1)."""
    return CARD * int(rnd * CARDS) + 1


def cut(pack: str, pass_number: int, start: int) -> str:
    """Lines 1470-1480: take out the record at `start`; even passes put it on top, odd ones under."""
    block = pack[start - 1 : start - 1 + CARD]
    rest = pack[: start - 1] + pack[start - 1 + CARD :]
    return block + rest if pass_number % 2 == 0 else rest + block


def shuffle_passes(pack: str, rnds):
    """Lines 1460-1480 pass by pass: (A, c$, p$) after each cut, pass n at the record RND
    number n picks."""
    for pass_number, rnd in enumerate(rnds, 1):
        start = block_start(rnd)
        block = pack[start - 1 : start - 1 + CARD]
        pack = cut(pack, pass_number, start)
        yield start, block, pack


def shuffle(pack: str, rnds) -> str:
    """Lines 1460-1490 without the BEEPs: 60 cuts, pass n at the record RND number n picks."""
    for _, _, pack in shuffle_passes(pack, rnds):
        pass
    return pack


def column(position: int) -> int:
    """DEF FN c(x) at line 1020: the column of a card's left edge."""
    return 6 * (position - 4 * (position > 4)) - 15 * (position == CENTRE)


def row(position: int) -> int:
    """DEF FN d(x) at line 1030: the row of a card's top edge."""
    return 1 + 6 * (position > 4) + 6 * (4 < position < CENTRE)


@dataclass(frozen=True)
class Game:
    """The game's variables: p$, the pointer c, the cards on positions 1-9 (r$ holds their
    values), FA and RES."""

    pack: str
    next_card: int = 1  # c: where the next record starts in p$, counting from 1
    layout: tuple[str, ...] = ()  # the record on each position 1-9 once dealt
    centre_used: bool = False  # FA: the lone `9` has been played
    resigned: bool = False  # RES

    def value(self, position: int) -> int:
        """VAL r$(position): the card's value, ace 1 to king 13."""
        return int(self.layout[position - 1][1:3])

    @property
    def pack_out(self) -> bool:
        return self.next_card > PACK_END

    @property
    def cards_left(self) -> int:
        return (PACK_END + 1 - self.next_card) // CARD


def initialised(table: Game) -> Game:
    """Lines 1710-1740: RES and FA to 0 and r$ emptied; p$ is kept for the next shuffle."""
    return Game(table.pack)


def _placed(table: Game, positions) -> tuple[Game, list[Placement]]:
    """Line 1250 for each position in turn: the next record of p$ goes onto it."""
    layout, next_card, placements = list(table.layout or [""] * len(POSITIONS)), table.next_card, []
    for position in positions:
        record = table.pack[next_card - 1 : next_card - 1 + CARD]
        layout[position - 1] = record
        next_card += CARD
        placements.append((position, record))
    return replace(table, layout=tuple(layout), next_card=next_card), placements


def deal(table: Game) -> tuple[Game, list[Placement]]:
    """Lines 1060-1070 without the drawing: the first nine records of p$ onto positions 1-9."""
    return _placed(replace(table, next_card=1), POSITIONS)


def judge(entry: str, table: Game) -> tuple[int, ...] | str:
    """Lines 1100-1190: the positions an entry covers, or RESIGN; MoveRefused for an illegal entry.

    Up to three digits, all different; 0 only alone (resign); a lone position only as 9, and
    only once a game; two cards must total 11 and three must total 36 (so Q+Q+Q and K+K+10 pass,
    as the listing's sum check lets them).
    """
    if not entry or len(entry) > 3:
        raise not_allowed(entry)
    lowest = "1" if len(entry) > 1 else "0"  # line 1110: CODE z$(n)<48+(LEN z$>1)
    if any(not lowest <= char <= "9" for char in entry):
        raise not_allowed(entry)
    positions = tuple(int(char) for char in entry)
    if len(set(positions)) < len(positions):
        raise not_allowed(entry)
    if entry == RESIGN_ENTRY:
        return RESIGN
    if len(positions) == 1 and (positions[0] != CENTRE or table.centre_used):
        raise not_allowed(entry)
    total = sum(table.value(position) for position in positions)
    if (len(positions) == 2 and total != PAIR_TOTAL) or (len(positions) == 3 and total != THREE_TOTAL):
        raise not_allowed(entry)
    return positions


def not_allowed(entry) -> MoveRefused:
    """The refusal of an entry the listing does not take."""
    return MoveRefused(NOT_ALLOWED.format(entry=entry))


def legal(entry: str, table: Game) -> bool:
    """Whether the listing takes `entry` as a move (resigning too)."""
    try:
        judge(entry, table)
    except MoveRefused:
        return False
    return True


def cover(table: Game, positions: tuple[int, ...]) -> tuple[Game, list[Placement]]:
    """Lines 1170-1220 without the drawing: the next records onto `positions` in the order typed,
    as many as the pack still holds; a lone position uses up the centre play (FA)."""
    if len(positions) == 1:
        table = replace(table, centre_used=True)
    return _placed(table, positions[: table.cards_left])


def resign(table: Game) -> Game:
    """Line 1150: RES=1."""
    return replace(table, resigned=True)


def legal_entries(table: Game) -> list[str]:
    """Every entry the listing accepts as a move now (resigning aside), in a fixed order."""
    candidates = [] if table.centre_used else [str(CENTRE)]
    for size, total in ((2, PAIR_TOTAL), (3, THREE_TOTAL)):
        candidates += [
            "".join(map(str, chosen))
            for chosen in permutations(POSITIONS, size)
            if sum(table.value(position) for position in chosen) == total
        ]
    return [entry for entry in candidates if legal(entry, table)]


def winning_line(pack: str) -> list[str] | None:
    """A list of entries that uses up the whole pack from the deal, or None if no play wins.

    A depth-first search over every legal entry, remembering the tables already lost.
    """

    @cache
    def search(table: Game) -> tuple[str, ...] | None:
        for entry in legal_entries(table):
            positions = judge(entry, table)
            assert not isinstance(positions, str)  # resigning is no legal entry
            after, _ = cover(table, positions)
            if after.pack_out:
                return (entry,)
            rest = search(after)
            if rest is not None:
                return (entry,) + rest
        return None

    line = search(deal(Game(pack))[0])
    return None if line is None else list(line)


NOT_ALLOWED = (
    "Not allowed - {entry!r} is no move: two cards adding to 11, a Jack, Queen and King, 9 (once a game) or 0 to resign"
)


class PatienceState:
    """One game as the protocol sees it (games.protocol.GameState), one player.

    Moves are entries as typed at "Your move?": "27", "368", "9", and "0" to resign. The game
    ends when the pack is used up (won) or on resigning (given up). A blocked table is not an end,
    as in the listing: "0" is then the only legal move. The outcome's returns are (1.0,) for a
    win, else (0.0,).
    """

    def __init__(self, table: Game):
        self.table = table

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return TERMINAL if self.outcome() is not None else 0

    def outcome(self) -> Outcome | None:
        if self.table.pack_out:
            return Outcome(Termination.WON, (0,), (1.0,))
        if self.table.resigned:
            return Outcome(Termination.GIVEN_UP, (), (0.0,))
        return None

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() is not None else legal_entries(self.table) + [RESIGN_ENTRY]

    def apply(self, move: str) -> None:
        if self.outcome() is not None:
            raise MoveRefused("The game is over")
        if not isinstance(move, str):
            raise not_allowed(move)
        judged = judge(move, self.table)
        self.table = resign(self.table) if isinstance(judged, str) else cover(self.table, judged)[0]  # str: RESIGN

    def observation(self, player: int) -> str:
        """The table as the player sees it: the nine cards, how many are left in the pack (face
        down: never their order) and whether 9 is played."""
        lines = str(self).splitlines()
        return "\n".join(lines[:3] + [f"pack: {max(0, self.table.cards_left)} left"] + lines[4:])

    def clone(self) -> PatienceState:
        return PatienceState(self.table)  # a Game never changes: sharing it is safe

    def __str__(self) -> str:
        table = self.table

        def named(positions) -> str:
            return "  ".join(f"{p}:{card_of(table.layout[p - 1]).name}" for p in positions)

        rest = [card_of(table.pack[i : i + CARD]).name for i in range(table.next_card - 1, PACK_END, CARD)]
        if table.resigned:
            verdict = "resigned"
        elif table.pack_out:
            verdict = "won: the pack is used up"
        else:
            verdict = "9 played" if table.centre_used else "9 not yet played"
        return "\n".join(
            [
                named(range(1, 5)),
                f"       {named([CENTRE])}",
                named(range(5, 9)),
                f"pack ({len(rest)} left): {' '.join(rest) or '-'}",
                verdict,
            ]
        )
