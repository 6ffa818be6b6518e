"""Computer players of habits other than ours, to measure the levels against players they were not
built beside: a nil buster, a cautious low-card player and a greedy over-bidder.

Each plays a card number from a `views.View` (`choose`) and bids from its hand of card names and its
partner's bid (`bid`), in the seed's game and the full game alike; none of them looks at anything a
seat could not see.
"""

from ..cards import DECK
from .full_rules import MOST_TRICKS, estimate_tricks
from .habits import habitual_card_of, is_master
from .players import make_player
from .solver import ALL_CARDS, BIT, SPADE_MASK, mask_of, strength
from .views import SUIT, View

SPADES = 0  # the trump suit, as a card number's suit


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
        if view.bids is not None and sum(view.taken[seat] for seat in view.side) >= sum(view.bids[seat] for seat in view.side):
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


OPPONENTS = {player.name: player for player in (NilBuster, CautiousPlayer, GreedyPlayer)}


def make_opponent(name: str, rng=None):
    """The opponent called `name` (one of OPPONENTS), or else the computer player of that level."""
    if name in OPPONENTS:
        return OPPONENTS[name]()
    return make_player(name, rng)
