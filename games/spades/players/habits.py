"""The rule player's habits, on hand masks in trick order (`solver.BIT`), where they are fast enough
to play out thousands of guessed deals: second hand low, third hand high, win cheaply, trump when
void, discard the least useful card, lead masters; and `Deal`, a deal with every hand known played
out by them."""

from ...cards import SUIT_SIZE, trick_rank
from .solver import (
    ALL_CARDS,
    CARD_OF_BIT,
    SPADES_BELOW,
    SUIT_MASK,
    SUITS,
    bits_of,
    legal_mask,
    mask_of,
    strength,
    trick_winner,
)
from .views import View

SPADES_LAST = SUITS[::-1]  # the side suits, then the spades


def is_master(bit: int, outside: int) -> bool:
    """No card that could beat `bit` in its suit is held by another seat."""
    return not outside & SUIT_MASK[bit // SUIT_SIZE] & ~((2 << bit) - 1)


def suit_lengths(mask: int) -> list[int]:
    return [bin(mask & SUIT_MASK[suit]).count("1") for suit in SUITS]


def rule_card(
    hand: int,
    outside: int,
    trick: list[tuple[int, int]],
    seat: int,
    spades_closed: bool = False,
    partner: int | None = None,
    bids: list[int] | None = None,
) -> int:
    """The rule player's card (a bit), from its hand, the cards the other seats hold between them
    (`outside`: every card neither played nor its own), and the trick so far as (seat, bit).

    Second hand low, third hand high, win as cheaply as possible, trump when void, discard the least
    useful card; lead a card that cannot be beaten in its suit, else low from the longest side suit.
    With a partner: do not overtake a partner who is winning; having bid nil, take nothing: duck
    under the best card, discard high; beside a partner's nil, cover it (`cover`); against an
    opponent's nil, set it (`set_nil`)."""
    legal = legal_mask(hand, trick, spades_closed)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if bids and bids[seat] == 0:
        return duck(legal, trick)
    if bids and partner is not None:
        if bids[partner] == 0:
            covering = cover(legal, outside, trick, partner)
            if covering is not None:
                return covering
        else:
            nil = next((other for other in range(4) if other not in (seat, partner) and bids[other] == 0), None)
            setting = None if nil is None else set_nil(legal, trick, nil)
            if setting is not None:
                return setting
    if not trick:
        return lead(legal, outside)
    led = trick[0][1] // SUIT_SIZE
    leader_seat, best = trick_leader(trick)
    top = strength(best, led)
    position = len(trick)
    partner_nil = bids is not None and bids[partner] == 0
    partner_winning = (
        partner is not None
        and leader_seat == partner
        and not partner_nil
        and (position == 3 or is_master(best, outside) or best < SPADES_BELOW)
    )
    winners = [bit for bit in bits_of(legal) if strength(bit, led) > top]
    if legal & SUIT_MASK[led]:  # following suit
        if not winners or partner_winning or position == 1:
            return (legal & -legal).bit_length() - 1
        if position == 2:
            return cheapest_equal(winners, outside, hand)
        return winners[0]
    if winners and not partner_winning:
        return winners[0]  # trump as cheaply as wins
    return discard(legal)


def cheapest_equal(winners: list[int], outside: int, hand: int) -> int:
    """The lowest winner as good as the highest: every card between them is mine or played."""
    best = lower = winners[-1]
    floor = (winners[-1] // SUIT_SIZE) * SUIT_SIZE
    while lower > floor:
        lower -= 1
        if lower in winners:
            best = lower
        elif (outside | hand) >> lower & 1:
            break
    return best


def duck(legal: int, trick: list[tuple[int, int]]) -> int:
    """A nil bidder's card: the highest that loses, or failing that the lowest."""
    cards = bits_of(legal)
    if not trick:
        return min(cards, key=lambda bit: (trick_rank(bit), bit < SPADES_BELOW))
    led = trick[0][1] // SUIT_SIZE
    top = max(strength(bit, led) for _, bit in trick)
    losers = [bit for bit in cards if strength(bit, led) < top]
    if losers:
        return max(losers, key=lambda bit: (bit >= SPADES_BELOW, trick_rank(bit)))
    return min(cards, key=lambda bit: strength(bit, led))


def trick_leader(trick: list[tuple[int, int]]) -> tuple[int, int]:
    """(seat, bit) of the card winning the trick so far."""
    led = trick[0][1] // SUIT_SIZE
    return max(trick, key=lambda play: strength(play[1], led))


def side_cards(cards: list[int]) -> list[int]:
    """The cards of side suits, or all of them when there are none."""
    return [bit for bit in cards if bit >= SPADES_BELOW] or cards


def master_lead(legal: int, outside: int) -> int | None:
    """The highest side-suit master, else the highest master spade (a suit's highest card is its
    master if any is); None without one."""
    for suit in SPADES_LAST:
        held = legal & SUIT_MASK[suit]
        if held and is_master(held.bit_length() - 1, outside):
            return held.bit_length() - 1
    return None


def cover(legal: int, outside: int, trick: list[tuple[int, int]], partner: int) -> int | None:
    """Beside a partner's nil: lead high (masters first) so that the partner can duck; while the
    partner is still to play, win the trick as high as the hand allows; once the partner is
    winning, take the trick from it. None where the usual play does as well."""
    cards = bits_of(legal)
    if not trick:
        master = master_lead(legal, outside)
        return master if master is not None else max(side_cards(cards), key=trick_rank)
    led = trick[0][1] // SUIT_SIZE
    leader, best = trick_leader(trick)
    top = strength(best, led)
    winners = [bit for bit in cards if strength(bit, led) > top]
    if partner not in (seat for seat, _ in trick):
        return max(winners, key=lambda bit: strength(bit, led)) if winners else None
    if leader == partner and winners:
        return min(winners, key=lambda bit: strength(bit, led))
    return None


def set_nil(legal: int, trick: list[tuple[int, int]], nil: int) -> int | None:
    """Against an opponent's nil: lead low in a side suit; while the nil bidder is still to play,
    play low to leave it the trick; while it is winning, stay under its card. None once it has
    played a card that is beaten."""
    cards = bits_of(legal)
    if not trick:
        return min(side_cards(cards), key=trick_rank)
    led = trick[0][1] // SUIT_SIZE
    leader, best = trick_leader(trick)
    top = strength(best, led)
    if leader == nil:
        under = [bit for bit in cards if strength(bit, led) < top]
        if under:
            return max(under, key=lambda bit: strength(bit, led))
    if leader == nil or nil not in (seat for seat, _ in trick):
        return min(cards, key=lambda bit: strength(bit, led)) if legal & SUIT_MASK[led] else discard(legal)
    return None


def lead(legal: int, outside: int) -> int:
    """A master (`master_lead`), else low from the longest side suit."""
    master = master_lead(legal, outside)
    if master is not None:
        return master
    length = suit_lengths(legal)
    return min(side_cards(bits_of(legal)), key=lambda bit: (-length[bit // SUIT_SIZE], trick_rank(bit)))


def discard(legal: int) -> int:
    """The lowest side card, from the shortest suit (towards a void to trump in); spades last."""
    length = suit_lengths(legal)
    return min(side_cards(bits_of(legal)), key=lambda bit: (trick_rank(bit), length[bit // SUIT_SIZE]))


def habitual_card_of(view: View) -> int:
    """The rule player's card (a card number) for `view`."""
    hand = mask_of(view.hand)
    outside = ALL_CARDS ^ hand ^ mask_of(view.played)  # the cards the other seats hold between them
    return CARD_OF_BIT[
        rule_card(hand, outside, view.trick_bits(), view.seat, view.spades_closed, view.partner, view.bids)
    ]


def rule_model(partner_of_seat=None, bids=None):
    """The rule players' habits as a solver policy: (seat, hands, trick, spades closed) -> bit."""

    def policy(seat: int, hands: list[int], trick, closed: bool) -> int:
        outside = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[seat]
        partner = partner_of_seat(seat) if partner_of_seat else None
        return rule_card(hands[seat], outside, trick, seat, closed, partner, bids)

    return policy


def model_for(view: View):
    """The rule model of the other seats as `view`'s seat knows them (partners and bids if any)."""
    if view.partner is None:
        return rule_model()
    return rule_model(lambda seat: (seat + 2) % 4, view.bids)


class Deal:
    """A position with every hand known (one guess at the hidden cards) as masks, played out fast,
    the seats by `policy` (the rule players' habits)."""

    __slots__ = ("hands", "trick", "to_play", "taken", "spades_closed", "policy")

    def __init__(self, hands, trick, to_play, taken, spades_closed, policy):
        self.hands, self.trick, self.to_play, self.taken = hands, trick, to_play, taken
        self.spades_closed, self.policy = spades_closed, policy

    def copy(self) -> "Deal":
        return Deal(list(self.hands), list(self.trick), self.to_play, list(self.taken), self.spades_closed, self.policy)

    def legal(self) -> list[int]:
        return bits_of(legal_mask(self.hands[self.to_play], self.trick, self.spades_closed))

    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_play]

    def play(self, bit: int) -> None:
        self.hands[self.to_play] ^= 1 << bit
        self.trick.append((self.to_play, bit))
        if bit < SPADES_BELOW:
            self.spades_closed = False
        if len(self.trick) == 4:
            winner = trick_winner(self.trick)
            self.taken[winner] += 1
            self.trick = []
            self.to_play = winner
        else:
            self.to_play = (self.to_play + 1) % 4

    def habitual_card(self) -> int:
        return self.policy(self.to_play, self.hands, self.trick, self.spades_closed)

    def play_out(self) -> None:
        while not self.over():
            self.play(self.habitual_card())
