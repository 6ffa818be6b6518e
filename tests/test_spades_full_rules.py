"""The full game's rules: bids, nil and blind nil, scoring, and the end of a game."""

import random

import pytest

from games.spades.full_rules import FullMatch, FullSpades, choose_bid, gambles_blind_nil, hand_points
from games.spades.rules import PLAYERS, shuffled_deck


def test_a_failed_nils_tricks_are_bags_and_do_not_help_the_partners_bid():
    bids = dict(zip(PLAYERS, (5, 3, 0, 4)))  # south 5 with north nil; north takes 2 of south's 7
    taken = dict(zip(PLAYERS, (4, 3, 2, 4)))
    ours, _ = hand_points(bids, taken)
    assert ours == (-100 - 50 + 2, 2)  # the nil fails, south's 5 fails though the pair took 6


def test_blind_nil_is_worth_200_made_or_lost():
    bids = dict(zip(PLAYERS, (0, 3, 4, 4)))
    assert hand_points(bids, dict(zip(PLAYERS, (0, 3, 6, 4))), blind={"player_0"})[0] == (200 + 40 + 2, 2)
    assert hand_points(bids, dict(zip(PLAYERS, (1, 3, 5, 4))), blind={"player_0"})[0] == (-200 + 40 + 2, 2)
    assert hand_points(bids, dict(zip(PLAYERS, (0, 3, 6, 4))))[0] == (100 + 40 + 2, 2)


@pytest.mark.parametrize(
    "scores, over, winner",
    [
        ([499, 100], False, None),
        ([500, 100], True, 0),
        ([100, 520], True, 1),
        ([-199, 0], False, None),
        ([-200, 0], True, 1),
        ([0, -350], True, 0),
        ([510, 510], False, None),
        ([-250, -210], True, 1),
    ],
)
def test_a_game_ends_at_500_or_at_minus_200_and_the_higher_score_wins(scores, over, winner):
    match = FullMatch()
    match.scores = scores
    assert (match.over, match.winner) == (over, winner)


def test_a_game_at_its_end_deals_no_more():
    match = FullMatch()
    match.scores = [-210, 40]
    with pytest.raises(ValueError, match="over"):
        match.new_hand(shuffled_deck(random.Random(1)))


def bidding_hand(blind_nil_teams=None) -> FullSpades:
    return FullSpades(shuffled_deck(random.Random(3)), "player_0", blind_nil_teams)  # west bids first


def test_the_second_partner_bids_at_most_what_13_leaves():
    hand = bidding_hand()
    for player, bid in (("player_1", "9"), ("player_2", "nil")):
        assert hand.bid(player, bid) == (True, None)
    assert hand.bids_open_to("player_3") == ["nil", "1", "2", "3", "4"]
    assert hand.bid("player_3", 5) == (False, "partners bid 13 at most: 5")
    assert hand.bid("player_3", 4) == (True, None)
    assert hand.highest_bid("player_0") == 13  # north's nil leaves all 13


def test_blind_nil_only_when_played_and_only_for_a_partnership_behind():
    assert bidding_hand().bid("player_1", "blind nil") == (False, "this game is played without blind nil")
    hand = bidding_hand(frozenset({0}))
    assert hand.bid("player_1", "blind nil") == (False, "blind nil only 100 or more behind")
    assert "blind nil" not in hand.bids_open_to("player_1")
    assert hand.bid("player_1", 2) == (True, None)
    assert hand.bids_open_to("player_2")[-1] == "blind nil"
    assert hand.receive("player_2", "bid blind nil") == (True, None)
    assert hand.bids["player_2"] == 0 and hand.blind == {"player_2"}


def test_the_match_offers_blind_nil_to_the_side_100_behind():
    match = FullMatch(blind_nil=True)
    match.scores = [120, 20]
    assert match.blind_nil_teams() == frozenset({1})
    match.scores = [120, 21]
    assert match.blind_nil_teams() == frozenset()
    assert FullMatch().blind_nil_teams() is None


@pytest.mark.parametrize("partner_bid", [None, 0, 5, 12, 13])
def test_computer_bids_keep_within_13_for_the_partnership(partner_bid):
    for seed in range(60):
        hand = shuffled_deck(random.Random(seed))[:13]
        assert 0 <= choose_bid(hand, partner_bid) <= 13 - (partner_bid or 0)


@pytest.mark.parametrize(
    "partner_bid, gambles",
    [
        (None, True),  # the partner bids after, knowing: it can cover
        (5, True),
        (4, True),
        (3, False),  # a partner of three tricks covers a blind nil too rarely
        (1, False),
        (0, False),  # never beside a partner's nil
    ],
)
def test_a_computer_gambles_on_blind_nil_beside_a_partner_who_can_cover_it(partner_bid, gambles):
    assert gambles_blind_nil([150, 400], 0, partner_bid) == gambles
