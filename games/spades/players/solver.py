"""Exact play of the rest of a Spades hand with every card known.

Hands are bit masks in trick order: a card's bit is suit * 13 + (high rank - 2) (`BIT`:
`games.cards.TRICK_BIT`), so within a suit a stronger card has the higher bit and the spades, the
trumps, are bits 0-12. The value of a position is what one side (`side`: a set of seats) takes in
the rest of the hand: the sum of `worth[seat]` over the tricks it wins (by default 1 a trick for the
side's seats, so the side's tricks). The side's seats choose to make it as large as they can; the
other seats either choose to make it as small as they can (`policy=None`: the side plays against
the worst case, as a double-dummy solver does) or play by a known `policy` (one card for a seat in
a position: the side plays against opponents whose habits it knows).

Alpha-beta on that value with a transposition table at the start of each trick, keyed by the cards
left in each hand (what was played before no longer matters: the value counts only what is still
to come), storing bounds so that zero-window searches (MTD(f)) reuse each other's work. Cards of one
hand that are next to each other in a suit once the cards between them are gone are equivalent: only
the lowest of each such run is searched. Moves are ordered: a side that is winning the trick plays
low, otherwise its cheapest winner first; a lead tries high cards first.
"""

from ...cards import CARD_OF_TRICK_BIT, DECK, DECK_SIZE, SUIT_LETTERS, SUIT_SIZE, TRICK_BIT, Suit
from ..rules import spades_value

BIT = TRICK_BIT  # Card.index -> trick-order bit
CARD_OF_BIT = CARD_OF_TRICK_BIT  # trick-order bit -> Card.index
SPADES_BELOW = SUIT_SIZE  # the spades, the trumps, are the bits below this one
SUIT_PATTERN = (1 << SUIT_SIZE) - 1  # a whole suit, as the suit's own bits
SUITS = tuple(range(len(Suit)))  # the suits as plain numbers (quicker to index with than `Suit`s)
SUIT_MASK = [SUIT_PATTERN << (SUIT_SIZE * suit) for suit in SUITS]
SPADE_MASK = SUIT_MASK[Suit.SPADES]
ALL_CARDS = (1 << DECK_SIZE) - 1
# how strongly each card (by bit) plays to a trick, per led suit: the rules' `spades_value`, looked up
STRENGTH = tuple(
    tuple(spades_value(DECK[CARD_OF_BIT[bit]], SUIT_LETTERS[led]) for bit in range(DECK_SIZE)) for led in SUITS
)


def mask_of(cards) -> int:
    """The hand mask of cards given as `Card.index` numbers."""
    mask = 0
    for card in cards:
        mask |= 1 << BIT[card]
    return mask


# the bits of each suit's pattern, per suit: bits_of looks a suit up instead of looping over bits
SUIT_BITS = [
    [
        [SUIT_SIZE * suit + rank for rank in range(SUIT_SIZE) if pattern >> rank & 1]
        for pattern in range(SUIT_PATTERN + 1)
    ]
    for suit in SUITS
]
_HEARTS_AT, _DIAMONDS_AT, _CLUBS_AT = SUIT_SIZE, 2 * SUIT_SIZE, 3 * SUIT_SIZE  # where each suit's bits start


def bits_of(mask: int) -> list[int]:
    """The bits of `mask`, lowest first."""
    return (
        SUIT_BITS[0][mask & SUIT_PATTERN]
        + SUIT_BITS[1][mask >> _HEARTS_AT & SUIT_PATTERN]
        + SUIT_BITS[2][mask >> _DIAMONDS_AT & SUIT_PATTERN]
        + SUIT_BITS[3][mask >> _CLUBS_AT]
    )


def strength(bit: int, led: int) -> int:
    """How strongly a card plays to a trick whose led suit is `led`: spades beat the led suit, which
    beats anything else (0); the rules' `spades_value`."""
    return STRENGTH[led][bit]


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """The seat that wins a trick given as (seat, bit) in the order played."""
    strengths = STRENGTH[trick[0][1] // SUIT_SIZE]
    return max(trick, key=lambda play: strengths[play[1]])[0]


def legal_mask(hand: int, trick: list, spades_closed: bool) -> int:
    """Follow suit if you can; a lead may not be a spade while spades are closed, unless all are."""
    if trick:
        following = hand & SUIT_MASK[trick[0][1] // SUIT_SIZE]
        return following or hand
    if spades_closed:
        return (hand & ~SPADE_MASK) or hand
    return hand


class OutOfWork(Exception):
    """A search used up its budget."""


class Budget:
    """The work a search may do, in steps: a position the solver searches, or a card played by the
    rule players' habits. Counted in work, not time, a search gives the same answer every time, on
    any machine, however busy."""

    def __init__(self, steps: int):
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise OutOfWork


class Solver:
    """Searches positions for one `side`, remembering them across searches (same side, policy and
    worth: use a new Solver when any of those change)."""

    def __init__(self, side, policy=None, worth=None, budget: Budget | None = None):
        self.side = frozenset(side)
        self.budget = budget  # spent a position at a time; used up, a search gives up (OutOfWork)
        self.policy = policy
        self.worth = tuple(worth) if worth is not None else tuple(int(seat in self.side) for seat in range(4))
        self.best_trick = max(self.worth)
        self.worst_trick = min(self.worth)
        self.table: dict = {}
        self.nodes = 0
        self.charged = 0  # nodes already spent from the budget

    # --- the public searches -----------------------------------------------------------------------
    def value(self, hands: list[int], trick: list[tuple[int, int]], to_play: int, spades_closed: bool = False) -> int:
        """The exact value of the position (the current trick's cards included), by MTD(f)."""
        hands = list(hands)
        lower, upper = self._bounds(hands, trick, to_play)
        guess = lower
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            guess = self._search(hands, list(trick), to_play, spades_closed, beta - 1, beta)
            if guess < beta:
                upper = guess
            else:
                lower = guess
        return lower

    def card_values(
        self, hands: list[int], trick: list[tuple[int, int]], to_play: int, spades_closed: bool = False
    ) -> dict[int, int]:
        """The exact value after each legal card of `to_play` (bits), equivalent cards valued once."""
        values = {}
        legal = legal_mask(hands[to_play], trick, spades_closed)
        for run in self._runs(hands, trick, legal):
            after = list(hands)
            after[to_play] ^= 1 << run[0]
            value = self._after_play(after, trick, to_play, run[0], spades_closed)
            for bit in run:
                values[bit] = value
        return values

    def _after_play(self, hands, trick, to_play, bit, spades_closed) -> int:
        played = trick + [(to_play, bit)]
        closed = spades_closed and bit >= SPADES_BELOW
        if len(played) == 4:
            winner = trick_winner(played)
            return self.worth[winner] + self.value(hands, [], winner, closed)
        return self.value(hands, played, (to_play + 1) % 4, closed)

    # --- the search ------------------------------------------------------------------------------------
    def _bounds(self, hands, trick, to_play) -> tuple[int, int]:
        tricks_left = bin(hands[to_play]).count("1")  # the current trick included: to_play has not played to it
        return min(0, self.worst_trick) * tricks_left, max(0, self.best_trick) * tricks_left

    def _runs(self, hands, trick, legal: int) -> list[list[int]]:
        """The legal cards grouped into runs of equivalent cards, each run lowest first."""
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        for _, bit in trick:
            remaining |= 1 << bit
        runs: list[list[int]] = []
        previous = -2
        while legal:
            low = legal & -legal
            bit = low.bit_length() - 1
            legal ^= low
            if runs and bit // SUIT_SIZE == previous // SUIT_SIZE and not remaining & (low - (2 << previous)):
                runs[-1].append(bit)
            else:
                runs.append([bit])
            previous = bit
        return runs

    def _search(self, hands, trick, to_play, closed, alpha, beta) -> int:
        self.nodes += 1
        key = None
        if not trick:
            if self.budget is not None and self.nodes - self.charged >= 256:
                self.budget.spend(self.nodes - self.charged)
                self.charged = self.nodes
            left = hands[to_play]
            if not left:
                return 0
            if not left & (left - 1):
                return self._last_trick(hands, to_play)
            key = (hands[0], hands[1], hands[2], hands[3], to_play, closed)
            entry = self.table.get(key)
            if entry is not None:
                lower, upper = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        original_alpha, original_beta = alpha, beta
        maximising = to_play in self.side
        hand = hands[to_play]
        if self.policy is not None and not maximising:
            moves = [self.policy(to_play, hands, trick, closed)]
        else:
            moves = self._ordered(hands, trick, to_play, closed, maximising)
        best = None
        for bit in moves:
            hands[to_play] = hand ^ (1 << bit)
            trick.append((to_play, bit))
            now_closed = closed and bit >= SPADES_BELOW
            if len(trick) == 4:
                winner = trick_winner(trick)
                won = self.worth[winner]
                value = won + self._search(hands, [], winner, now_closed, alpha - won, beta - won)
            else:
                value = self._search(hands, trick, (to_play + 1) % 4, now_closed, alpha, beta)
            trick.pop()
            hands[to_play] = hand
            if maximising:
                if best is None or value > best:
                    best = value
                    alpha = max(alpha, value)
            elif best is None or value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            lower, upper = self.table.get(key, (-(10**6), 10**6))
            if best <= original_alpha:
                upper = min(upper, best)
            elif best >= original_beta:
                lower = max(lower, best)
            else:
                lower = upper = best
            self.table[key] = (lower, upper)
        return best

    def _last_trick(self, hands, leader) -> int:
        trick = [((leader + offset) % 4, hands[(leader + offset) % 4].bit_length() - 1) for offset in range(4)]
        return self.worth[trick_winner(trick)]

    def _ordered(self, hands, trick, to_play, closed, maximising) -> list[int]:
        runs = self._runs(hands, trick, legal_mask(hands[to_play], trick, closed))
        lows = [run[0] for run in runs]
        if not trick:
            return lows[::-1]
        strengths = STRENGTH[trick[0][1] // SUIT_SIZE]
        winner_seat, best = max(trick, key=lambda play: strengths[play[1]])
        ours_winning = (winner_seat in self.side) == maximising
        if ours_winning:
            return lows
        top = strengths[best]
        winners = [bit for bit in lows if strengths[bit] > top]
        return winners + [bit for bit in lows if strengths[bit] <= top]
