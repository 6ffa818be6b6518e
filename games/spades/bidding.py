"""The computer players' bids in the full game, from play: the hand played out on sampled deals."""

import random

from .habits import Deal, rule_model
from .solver import mask_of
from .views import card_number


def sampled_bid(hand: list[str], seat: int, leader: int, partner_bid: int | None, rng: random.Random,
                deals: int = 40) -> int:
    """A bid from play: the other hands dealt `deals` times at random, each hand played out by the rule
    player's habits with partners (seat and seat + 2), spades to be broken, `leader` first. Nil when
    ducking kept this hand out of every trick in at least 80% of the deals (and the partner has not bid
    nil); else the mean of its tricks, rounded, at least 1 and at most what the partner's bid leaves."""
    mine = [card_number(card) for card in hand]
    unseen = [card for card in range(52) if card not in set(mine)]
    total = clean = 0
    for _ in range(deals):
        rng.shuffle(unseen)
        others = [seat_ for seat_ in range(4) if seat_ != seat]
        hands = [0] * 4
        hands[seat] = mask_of(mine)
        for position, other in enumerate(others):
            hands[other] = mask_of(unseen[13 * position:13 * position + 13])
        for bids in (None, [0 if other == seat else 3 for other in range(4)]):
            deal = Deal(list(hands), [], leader, [0] * 4, True, rule_model(lambda other: (other + 2) % 4, bids))
            deal.play_out()
            if bids is None:
                total += deal.taken[seat]
            else:
                clean += deal.taken[seat] == 0
    if partner_bid != 0 and clean >= 0.8 * deals:
        return 0
    most = 13 - (partner_bid or 0)
    return min(most, max(1, round(total / deals)))  # 0 (nil) only when the partner's bid leaves nothing
