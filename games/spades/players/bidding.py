"""The computer players' bids in the full game, from play: the hand played out on sampled deals."""

import random

from ...cards import DECK_SIZE
from ..full_rules import USUAL, contract_bid, nil_chance_needed, nil_considered
from ..house_rules import HouseRules
from ..rules import TRICKS_IN_A_HAND
from .habits import Deal, rule_model
from .solver import mask_of
from .views import card_number

# Nil is bid when ducking kept the hand out of every trick in this share of the sampled deals. On
# forced nils played out by rule players against each kind of `opponents` (7,757 hands of at most
# three spades, none above the jack), 0.8 alone bid nil with 5% of hands and made 88% of them (83%
# against the card counter); beside `nil_considered` (no spade above the nine) 0.7 bid 6% and made
# 87% (82%), 0.65 bid 7% and made 85% (81%). The solver level's own nils at 0.65, in 20 games against
# the rule players and 20 against the counter: 7.0% and 7.7% of its bids, 78% and 74% made.
NIL_CLEAN = 0.7
# A bid is the hand's mean tricks less this margin, rounded: a contract one trick short loses ten a
# trick bid, one trick over costs a bag. On the solver level's hands against the card counter and the
# sandbagger (187 hands), its own contracts would have been made 76% of the time bidding the mean,
# 94% with the margin, for the most points a hand.
BID_MARGIN = 0.5


def sampled_play(
    hand: list[str], seat: int, leader: int, rng: random.Random, deals: int, nil: bool
) -> tuple[float, float]:
    """The hand played out on `deals` random deals of the other hands by the rule player's habits,
    with partners (seat and seat + 2), spades to be broken, `leader` first: the mean of its tricks,
    and (when `nil`) the share of the deals in which, bidding nil, it took none."""
    mine = [card_number(card) for card in hand]
    held = set(mine)
    unseen = [card for card in range(DECK_SIZE) if card not in held]
    others = [other for other in range(4) if other != seat]
    nil_bids = [0 if other == seat else 3 for other in range(4)]
    total = clean = 0
    for _ in range(deals):
        rng.shuffle(unseen)
        hands = [0] * 4
        hands[seat] = mask_of(mine)
        for position, other in enumerate(others):
            hands[other] = mask_of(unseen[TRICKS_IN_A_HAND * position : TRICKS_IN_A_HAND * (position + 1)])
        for bids in (None, nil_bids) if nil else (None,):
            deal = Deal(list(hands), [], leader, [0] * 4, True, rule_model(lambda other: (other + 2) % 4, bids))
            deal.play_out()
            if bids is None:
                total += deal.taken[seat]
            else:
                clean += deal.taken[seat] == 0
    return total / deals, clean / deals


def sampled_bid(
    hand: list[str],
    seat: int,
    leader: int,
    partner_bid: int | None,
    rng: random.Random,
    deals: int = 40,
    rules: HouseRules = USUAL,
) -> int:
    """A bid from play (`sampled_play`, `deals` deals): nil with a hand `nil_considered` (small
    spades, a partner not at nil) that ducking kept out of every trick in at least NIL_CLEAN of the
    deals; else the mean of its tricks less BID_MARGIN, rounded, at least 1 and at most what the
    partner's bid leaves. The table's `rules` judge it: the share needed for nil is NIL_CLEAN at
    nil's usual value and `full_rules.nil_chance_needed` at another (no nil at a table without), and
    the contract is bid as they let it be (`full_rules.contract_bid`: a minimum, "10 for 200")."""
    considering_nil = (
        rules.nil_allowed
        and nil_considered(hand, partner_bid)
        and (partner_bid is None or partner_bid >= rules.minimum_bid)
    )
    tricks, clean = sampled_play(hand, seat, leader, rng, deals, considering_nil)
    needed = NIL_CLEAN if rules.nil == USUAL.nil else nil_chance_needed(rules)
    if considering_nil and clean >= needed:
        return 0
    return contract_bid(tricks - BID_MARGIN, partner_bid, rules)
