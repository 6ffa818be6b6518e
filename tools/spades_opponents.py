"""Computer players of habits other than ours, to measure the levels against players they were not
built beside: a nil buster, a cautious low-card player, a greedy over-bidder, a card counter that
plays to its side's contract, and a sandbagger that bids short and takes what it can.

Each plays a card number from a `views.View` (`choose`) and bids from its hand of card names and its
partner's bid (`bid`), in the seed's game and the full game alike; none of them looks at anything a
seat could not see.
"""

from games.cards import BY_NAME, DECK, JACK, KING, QUEEN, Suit, number_of, trick_rank, trick_suit
from games.spades.full_rules import MOST_TRICKS, estimate_tricks
from games.spades.players.habits import cheapest_equal, habitual_card_of, is_master, suit_lengths, trick_leader
from games.spades.players import make_player
from games.spades.players.solver import (
    ALL_CARDS,
    BIT,
    CARD_OF_BIT,
    SPADE_MASK,
    SPADES_BELOW,
    SUIT_MASK,
    mask_of,
    strength,
)
from games.spades.players.views import SUIT, View

SPADES = int(Suit.SPADES)  # the trump suit, as a card number's suit
# as `cards.trick_rank` gives them: 0 the two ... 12 the ace
BIT_RANK_TEN, BIT_RANK_JACK = (trick_rank(BIT[number_of(SPADES, rank)]) for rank in (10, JACK))
ACE_HIGH = KING + 1  # an ace's `Card.high_rank`


def power(card: int, led: int) -> int:
    """How a card (a card number) stands in a trick led in suit `led` (`solver.strength`)."""
    return strength(BIT[card], led)


def winning_now(view: View) -> tuple[int, int] | None:
    """(seat, power) of the card winning the trick so far, or None before the lead."""
    if not view.trick:
        return None
    led = SUIT[view.trick[0][1]]
    seat, card = max(view.trick, key=lambda played: power(played[1], led))
    return seat, power(card, led)


def lowest(cards: list[int]) -> int:
    """The lowest card by rank, a side card before a spade of the same rank."""
    return min(cards, key=lambda card: (DECK[card].high_rank, SUIT[card] == SPADES))


def highest(cards: list[int]) -> int:
    return max(cards, key=lambda card: (SUIT[card] == SPADES, DECK[card].high_rank))


class NilBuster:
    """Bids what its hand is worth and never nil; plays as the rule player does, until a player of
    the other side has bid nil and not yet taken a trick: then it leads low into the nil bidder's
    suits, plays under a nil bidder's winning card, and keeps its own high cards back while the
    nil bidder is still to play."""

    name = "buster"

    def bid(self, hand: list[str], partner_bid: int | None) -> int:
        return min(max(1, round(estimate_tricks(hand))), MOST_TRICKS - (partner_bid or 0))

    def choose(self, view: View) -> int:
        legal = view.legal()
        target = self.nil_to_bust(view)
        if len(legal) == 1 or target is None:
            return habitual_card_of(view)
        if not view.trick:
            open_suits = [card for card in legal if SUIT[card] not in view.voids[target] and SUIT[card] != SPADES]
            return lowest(open_suits or legal)
        led = SUIT[view.trick[0][1]]
        played = {seat for seat, _ in view.trick}
        winner, top = winning_now(view)
        if winner == target:  # the nil bidder is winning: stay under it
            under = [card for card in legal if power(card, led) < top]
            return highest(under) if under else lowest(legal)
        if target not in played:  # still to play: leave it room to win
            return lowest(legal)
        return habitual_card_of(view)

    @staticmethod
    def nil_to_bust(view: View) -> int | None:
        """The seat of an opponent whose nil still stands, if any."""
        if view.bids is None or view.partner is None:
            return None
        for seat in range(4):
            if seat not in view.side and view.bids[seat] == 0 and view.taken[seat] == 0:
                return seat
        return None


class CautiousPlayer:
    """Bids a trick short of its hand's worth (nil with next to nothing); takes a trick only with a
    card no one left can beat, else plays its lowest card; once its side has its bid, ducks."""

    name = "cautious"

    def bid(self, hand: list[str], partner_bid: int | None) -> int:
        tricks = estimate_tricks(hand) - 1
        if tricks < 0.5 and partner_bid != 0:
            return 0
        return min(max(1, round(tricks)), MOST_TRICKS - (partner_bid or 0))

    def choose(self, view: View) -> int:
        legal = view.legal()
        if view.bids is not None and view.bids[view.seat] == 0:
            return habitual_card_of(view)  # a nil: the rule player's ducking
        if view.bids is not None and sum(view.taken[seat] for seat in view.side) >= sum(
            view.bids[seat] for seat in view.side
        ):
            return lowest(legal)  # the side's bid is made: no bags
        outside = ALL_CARDS ^ mask_of(view.hand) ^ mask_of(view.played)  # the cards the others hold
        led = SUIT[view.trick[0][1]] if view.trick else None
        winning = winning_now(view)
        for card in sorted(legal, key=lambda card: DECK[card].high_rank, reverse=True):
            beats_trick = winning is None or power(card, led) > winning[1]
            safe_from_trumps = SUIT[card] == SPADES or not outside & SPADE_MASK or len(view.trick) == 3
            if beats_trick and is_master(BIT[card], outside) and safe_from_trumps:
                return card
        return lowest(legal)


class GreedyPlayer:
    """Bids a trick over its hand's worth and plays to win every trick it can: the highest card
    that beats the trick, else its lowest; it leads its highest card."""

    name = "greedy"

    def bid(self, hand: list[str], partner_bid: int | None) -> int:
        return min(max(1, round(estimate_tricks(hand)) + 1), MOST_TRICKS - (partner_bid or 0))

    def choose(self, view: View) -> int:
        legal = view.legal()
        winning = winning_now(view)
        if winning is None:
            return highest(legal)
        led = SUIT[view.trick[0][1]]
        winners = [card for card in legal if power(card, led) > winning[1]]
        return highest(winners) if winners else lowest(legal)


class Count:
    """What the card counter reads from a view, on hand masks in trick order (`solver.BIT`): the cards
    the other seats hold between them, which seat may still hold which suit, the trick's winner, and
    whether an opponent still to play to the trick may beat a card."""

    def __init__(self, view: View):
        self.view = view
        self.hand = mask_of(view.hand)
        self.outside = ALL_CARDS ^ self.hand ^ mask_of(view.played)
        self.trick = view.trick_bits()
        self.led = trick_suit(self.trick[0][1]) if self.trick else None
        self.still_to_play = [(view.seat + step) % 4 for step in range(1, 4 - len(self.trick))]
        self.opponents = view.opponents
        self.winner, best = trick_leader(self.trick) if self.trick else (None, None)
        self.top = strength(best, self.led) if self.trick else -1

    def may_hold(self, seat: int, suit: int) -> bool:
        return suit not in self.view.voids[seat] and bool(self.outside & SUIT_MASK[suit])

    def may_ruff(self, seat: int, suit: int) -> bool:
        """`seat` is out of side suit `suit` (shown, or none is left) and may hold a spade."""
        return suit != SPADES and not self.may_hold(seat, suit) and self.may_hold(seat, SPADES)

    def beaten_later(self, bit: int) -> bool:
        """Whether an opponent still to play to this trick may beat `bit`, played now."""
        suit = trick_suit(bit)
        led = suit if self.led is None else self.led
        above = ~((2 << bit) - 1)
        for seat in self.still_to_play:
            if seat == self.view.partner:
                continue
            if suit == SPADES:
                overruff = led == SPADES or not self.may_hold(seat, led)
                if overruff and self.outside & SPADE_MASK & above and self.may_hold(seat, SPADES):
                    return True
            elif self.outside & SUIT_MASK[suit] & above and self.may_hold(seat, suit) or self.may_ruff(seat, suit):
                return True
        return False

    def winners(self, bits: list[int]) -> list[int]:
        """The cards of `bits` that beat the trick so far (all of them on the lead)."""
        if self.led is None:
            return list(bits)
        return [bit for bit in bits if strength(bit, self.led) > self.top]

    def following(self) -> bool:
        return self.led is not None and bool(self.hand & SUIT_MASK[self.led])


def standing_nil(view: View, seat: int | None) -> bool:
    """`seat` bid nil and has taken no trick yet."""
    return seat is not None and view.bids[seat] == 0 and view.taken[seat] == 0


class CountingPlayer:
    """Remembers every card played and who has shown out of which suit (`Count`) and plays to its
    side's contract: it wins with a card no opponent still to play can beat, or else as the trick
    needs (second hand low, third hand high, trumping what an opponent is winning); it cashes masters
    no opponent can trump, draws trumps with a master spade, leads into its partner's voids and
    gives up short suits to trump them later. Once its side's contract is made it ducks (no bags)
    unless the other side still needs half of what is left or more: that it sets. Beside its partner's nil
    it leads into the partner's voids or high, and wins high above the nil bidder; against an
    opponent's nil it leads low into the suits the nil bidder may hold, plays low before it and
    stays under it. It bids its own count of tricks (`counted_tricks`), nil with small cards."""

    name = "counter"
    avoids_bags = True

    def bid(self, hand: list[str], partner_bid: int | None) -> int:
        tricks = counted_tricks(hand)
        if partner_bid == 0:
            return min(MOST_TRICKS, round(tricks) + 1)  # its partner's nil needs covering
        if tricks < 1 and small_cards(hand):
            return 0
        return min(max(1, round(tricks)), MOST_TRICKS - (partner_bid or 0))

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        return CARD_OF_BIT[self.card(Count(view), sorted(BIT[card] for card in legal))]

    def card(self, count: Count, bits: list[int]) -> int:
        view = count.view
        if view.bids is not None:
            if view.bids[view.seat] == 0:
                return duck(count, bits)
            if standing_nil(view, view.partner):
                covering = cover_nil(count, bits)
                if covering is not None:
                    return covering
            for seat in count.opponents:
                if standing_nil(view, seat):
                    busting = bust_nil(count, bits, seat)
                    if busting is not None:
                        return busting
            theirs = view.tricks_needed(view.opponents)
            set_to_play = theirs > 0 and 2 * theirs >= len(view.hand)
            if self.avoids_bags and view.tricks_needed(view.side) <= 0 and not set_to_play:
                return duck(count, bits)
        return take(count, bits)


class Sandbagger(CountingPlayer):
    """The card counter's play without ever ducking for bags, and a bid a trick short of its count,
    never nil: its contract is nearly always made, its bags pile up, and every trick it takes past
    its bid is one the other side may have needed."""

    name = "sandbagger"
    avoids_bags = False

    def bid(self, hand: list[str], partner_bid: int | None) -> int:
        return min(max(1, round(counted_tricks(hand)) - 1), MOST_TRICKS - (partner_bid or 0))


def take(count: Count, bits: list[int]) -> int:
    """The counter's card to win tricks (see `CountingPlayer`)."""
    view = count.view
    if count.led is None:
        return lead_to_take(count, bits)
    partner_safe = count.winner == view.partner and not count.beaten_later(
        next(bit for seat, bit in count.trick if seat == view.partner)
    )
    winners = count.winners(bits)
    if partner_safe or not winners:
        return throw_away(count, bits)
    sure = [bit for bit in winners if not count.beaten_later(bit)]
    if sure:
        return min(sure, key=lambda bit: strength(bit, count.led))
    if not count.following():
        return winners[0]  # trump, as low as wins now
    if len(count.trick) == 1:
        return throw_away(count, bits)  # second hand low
    return cheapest_equal(winners, count.outside, count.hand)


def lead_to_take(count: Count, bits: list[int]) -> int:
    view = count.view
    lengths = suit_lengths(count.hand)

    def nobody_ruffs(suit: int) -> bool:
        return not any(count.may_ruff(seat, suit) for seat in count.opponents)

    masters = [bit for bit in bits if not count.beaten_later(bit)]
    side_masters = [bit for bit in masters if bit >= SPADES_BELOW]
    if side_masters:
        return max(side_masters, key=trick_rank)
    if masters and lengths[SPADES] >= 2 and any(count.may_hold(seat, SPADES) for seat in count.opponents):
        return masters[-1]  # draw trumps
    side = [bit for bit in bits if bit >= SPADES_BELOW]
    if view.partner is not None:
        to_partner = [
            bit for bit in side if count.may_ruff(view.partner, trick_suit(bit)) and nobody_ruffs(trick_suit(bit))
        ]
        if to_partner:
            return to_partner[0]
    if count.hand & SPADE_MASK:
        singletons = [bit for bit in side if lengths[trick_suit(bit)] == 1 and trick_rank(bit) < BIT_RANK_JACK]
        if singletons:
            return singletons[0]
    side = side or bits
    unruffed = [bit for bit in side if nobody_ruffs(trick_suit(bit))] or side
    return min(unruffed, key=lambda bit: (-lengths[trick_suit(bit)], trick_rank(bit)))


def throw_away(count: Count, bits: list[int]) -> int:
    """The lowest card following suit; out of the suit, a small side card from the shortest suit
    (towards a void to trump in), keeping masters, tens and up, and spades."""
    if count.following():
        return bits[0]
    lengths = suit_lengths(count.hand)
    side = [bit for bit in bits if bit >= SPADES_BELOW] or bits
    spare = [bit for bit in side if not is_master(bit, count.outside)] or side
    return min(spare, key=lambda bit: (trick_rank(bit) >= BIT_RANK_TEN, lengths[trick_suit(bit)], trick_rank(bit)))


def duck(count: Count, bits: list[int]) -> int:
    """A card that takes no trick: on the lead, the side card with the most cards out above it;
    following, the highest card that loses (out of the suit, the highest card, a spade first); the
    lowest when all would win and someone is still to play, else the highest."""
    if count.led is None:

        def above(bit: int) -> int:
            return (count.outside & SUIT_MASK[trick_suit(bit)] & ~((2 << bit) - 1)).bit_count()

        return max(bits, key=lambda bit: (above(bit) > 0, bit >= SPADES_BELOW, above(bit), -trick_rank(bit)))
    losers = [bit for bit in bits if strength(bit, count.led) < count.top]
    if losers:
        return max(losers, key=lambda bit: (trick_rank(bit), bit < SPADES_BELOW))
    by_strength = sorted(bits, key=lambda bit: strength(bit, count.led))
    return by_strength[0] if count.still_to_play else by_strength[-1]


def cover_nil(count: Count, bits: list[int]) -> int | None:
    """Beside a partner's standing nil (see `CountingPlayer`); None where the usual play does."""
    view, partner = count.view, count.view.partner
    if count.led is None:
        into_voids = [bit for bit in bits if bit >= SPADES_BELOW and trick_suit(bit) in view.voids[partner]]
        masters = [bit for bit in bits if not count.beaten_later(bit)]
        lengths = suit_lengths(count.hand)
        side = [bit for bit in bits if bit >= SPADES_BELOW] or bits
        return max(into_voids or masters or side, key=lambda bit: (lengths[trick_suit(bit)], trick_rank(bit)))
    winners = count.winners(bits)
    if partner in count.still_to_play and winners:
        return max(winners, key=lambda bit: strength(bit, count.led))
    if count.winner == partner and winners:
        return min(winners, key=lambda bit: strength(bit, count.led))
    return None


def bust_nil(count: Count, bits: list[int], nil: int) -> int | None:
    """Against an opponent's standing nil (see `CountingPlayer`); None once its card is beaten."""
    if count.led is None:
        into = [bit for bit in bits if count.may_hold(nil, trick_suit(bit))] or bits
        return min(into, key=lambda bit: (trick_rank(bit), bit < SPADES_BELOW))
    if count.winner == nil:
        under = [bit for bit in bits if strength(bit, count.led) < count.top]
        if not under:
            return min(bits, key=lambda bit: strength(bit, count.led))
        return under[-1] if count.following() else throw_away(count, under)
    if nil in count.still_to_play:
        return throw_away(count, bits)
    return None


def counted_tricks(hand: list[str]) -> float:
    """The counter's count of a hand's tricks: the ace of spades, the king with a spade beside it, the
    queen with two, and every spade past the third; side aces, and kings with the ace or two guards; half a trick for each
    void or singleton that a spade beyond two can trump."""
    ranks = {
        suit: sorted((BY_NAME[card].high_rank for card in hand if card[1] == suit.letter), reverse=True)
        for suit in Suit
    }
    spades = ranks[Suit.SPADES]
    tricks = float(sum(len(spades) >= 15 - rank for rank in spades if rank >= QUEEN)) + max(0, len(spades) - 3)
    shortness = 0
    for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        held = ranks[suit]
        tricks += (ACE_HIGH in held) * (1.0 if len(held) <= 5 else 0.6)
        tricks += (KING in held and (ACE_HIGH in held or len(held) >= 3)) * (0.8 if len(held) <= 5 else 0.4)
        shortness += max(0, 2 - len(held))
    return tricks + 0.5 * min(shortness, max(0, len(spades) - 2))


def small_cards(hand: list[str]) -> bool:
    """A hand to bid nil with: no spade above the ten, three spades at most, and no side ace or
    king without three cards beneath it."""
    spades = [BY_NAME[card].high_rank for card in hand if card[1] == Suit.SPADES.letter]
    if len(spades) > 3 or max(spades, default=0) > 10:
        return False
    for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        held = sorted(BY_NAME[card].high_rank for card in hand if card[1] == suit.letter)
        if any(rank >= KING and place < 3 for place, rank in enumerate(held)):
            return False
    return True


OPPONENTS = {player.name: player for player in (NilBuster, CautiousPlayer, GreedyPlayer, CountingPlayer, Sandbagger)}


def make_opponent(name: str, rng=None):
    """The opponent called `name` (one of OPPONENTS), or else the computer player of that level."""
    if name in OPPONENTS:
        return OPPONENTS[name]()
    return make_player(name, rng)
