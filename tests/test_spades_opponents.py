"""The opponents of other habits (tools/spades_opponents.py): legal in every game, and each playing
as its habits say in positions built for them."""

import random
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.cards import BY_NAME, NAMES
from games.spades.full_rules import MOST_TRICKS, FullMatch, partner_of
from games.spades.players import play_seed_hand
from games.spades.players.views import View, full_view
from games.spades.rules import seat_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))  # the opponents live beside the benches
from spades_opponents import (
    OPPONENTS,
    CautiousPlayer,
    CountingPlayer,
    GreedyPlayer,
    NilBuster,
    Sandbagger,  # noqa: E402
    make_opponent,
)


def card(name: str) -> int:
    return BY_NAME[name].index


def view_of(seat, hand, trick=(), *, bids=None, taken=(0, 0, 0, 0), played=(), voids=None) -> View:
    trick = [(at, card(name)) for at, name in trick]
    return View(
        seat=seat,
        hand=[card(name) for name in hand],
        trick=trick,
        played={card(name) for name in played} | {number for _, number in trick},
        voids=voids or [set() for _ in range(4)],
        hand_sizes=[len(hand)] * 4,
        taken=list(taken),
        spades_must_be_broken=bids is not None,
        spades_broken=True,
        partner=None if bids is None else (seat + 2) % 4,
        bids=bids,
    )


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(OPPONENTS)))
@example(seed=2215, name="greedy")  # its game is over before the third hand
def test_each_opponent_plays_only_legal_cards_and_bids_within_what_its_partner_leaves(seed, name):
    rng = random.Random(seed)
    deck = list(NAMES)
    rng.shuffle(deck)
    players = [make_opponent(name) if seat % 2 else make_opponent("rules") for seat in range(4)]
    tricks, _ = play_seed_hand(deck, players)  # a refused card raises
    assert sum(tricks) == MOST_TRICKS
    match = FullMatch()
    for _ in range(3):
        if match.winner is not None:  # greedy bids can lose a game in a few hands
            break
        rng.shuffle(deck)
        hand = match.new_hand(list(deck))
        while hand.bidding:
            player = hand.to_play
            partner_bid = hand.bids[partner_of(player)]
            bidder = players[seat_of(player)] if seat_of(player) % 2 else OPPONENTS[name]()
            bid = bidder.bid(hand.hand(player), partner_bid)
            assert 0 <= bid <= MOST_TRICKS - (partner_bid or 0)
            assert hand.bid(player, bid) == (True, None)
        while not hand.finished:
            player = hand.to_play
            chosen = players[seat_of(player)].choose(full_view(hand, player))
            assert hand.play_card(player, NAMES[chosen]) == (True, None)
        match.score(hand)


def test_the_buster_stays_under_a_nil_bidder_who_is_winning_the_trick():
    # south leads a five, west (1), who bid nil, plays the king of hearts; north (2), the buster, third
    # to play, holds the ace and the two
    trick = [(0, "5h"), (1, "kh")]
    assert NilBuster().choose(view_of(2, ["ah", "2h", "5c"], trick=trick, bids=[3, 0, 4, 3])) == card("2h")
    # the same trick without a nil: third hand high, as the rule player plays it, with the ace
    assert NilBuster().choose(view_of(2, ["ah", "2h", "5c"], trick=trick, bids=[3, 2, 4, 3])) == card("ah")


def test_the_buster_keeps_low_while_the_nil_bidder_is_still_to_play_and_leads_into_its_suits():
    # north leads; east (3) bid nil: north leads low, and not in clubs, which east has shown it lacks
    voids = [set(), set(), set(), {3}]
    lead = NilBuster().choose(view_of(2, ["ah", "kh", "3h", "2c"], bids=[3, 3, 4, 0], voids=voids))
    assert lead == card("3h")
    # second to play, before the nil bidder: its lowest card
    assert NilBuster().choose(view_of(0, ["qd", "9d", "4d"], trick=[(3, "td")], bids=[3, 3, 4, 0])) != card("qd")
    assert NilBuster().choose(view_of(2, ["qd", "9d", "4d"], trick=[(1, "5d")], bids=[3, 3, 4, 0])) == card("4d")


def test_the_cautious_player_takes_a_trick_only_with_a_card_nobody_left_can_beat():
    everything_else = [name for name in NAMES if name not in ("kh", "2h", "ah", "7h")]
    # hearts led with the seven; the ace has been played: the king is master, and nobody has a spade left
    spades_gone = [name for name in everything_else if name[1] == "s"]
    view = view_of(1, ["kh", "2h"], trick=[(0, "7h")], played=["ah", *spades_gone])
    assert CautiousPlayer().choose(view) == card("kh")
    # the ace still out: the king could lose, so the two
    assert CautiousPlayer().choose(view_of(1, ["kh", "2h"], trick=[(0, "7h")])) == card("2h")


def test_the_cautious_player_ducks_once_its_side_has_its_bid():
    view = view_of(
        0,
        ["ah", "3h"],
        trick=[(3, "5h")],
        bids=[2, 3, 1, 3],
        taken=[2, 4, 1, 4],
        played=[name for name in NAMES if name[1] == "s"],
    )
    assert CautiousPlayer().choose(view) == card("3h")


@pytest.mark.parametrize(
    "hand, trick, chosen",
    [
        (["ah", "qh", "2h"], [(0, "kh")], "ah"),  # the highest card that wins
        (["qh", "2h"], [(0, "kh")], "2h"),  # nothing wins: the lowest
        (["3s", "9c"], [(0, "kh")], "3s"),  # void in hearts: the spade wins
        (["9c", "ks", "2d"], [], "ks"),  # on lead: its highest, a spade first
    ],
)
def test_the_greedy_player_wins_what_it_can_with_its_highest(hand, trick, chosen):
    assert GreedyPlayer().choose(view_of(1, hand, trick=trick)) == card(chosen)


def test_the_counter_wins_with_the_cheapest_card_nobody_still_to_play_can_beat():
    # hearts led by east (3); the ace is gone, so west's king and queen are both masters: the queen
    view = view_of(1, ["kh", "qh", "3h"], trick=[(3, "5h"), (0, "7h")], played=["ah"])
    assert CountingPlayer().choose(view) == card("qh")
    # with the ace still out, third hand plays high, but only as high as it must
    assert CountingPlayer().choose(view_of(1, ["kh", "qh", "3h"], trick=[(3, "5h"), (0, "7h")])) == card("qh")
    # second to play with no sure winner: low
    assert CountingPlayer().choose(view_of(1, ["kh", "qh", "3h"], trick=[(0, "7h")])) == card("3h")


def test_the_counter_ducks_once_its_contract_is_made_unless_the_other_side_can_be_set():
    made = dict(bids=[3, 3, 2, 3], played=[name for name in NAMES if name[1] == "s"])
    # three tricks left; south and north bid 5 and have 6; west and east need 2 more: set them
    assert CountingPlayer().choose(
        view_of(0, ["ah", "3h", "4c"], trick=[(3, "5h")], taken=[4, 2, 2, 2], **made)
    ) == card("ah")
    # south and north have their 5, west and east need 1 more: no bag for nothing, duck
    assert CountingPlayer().choose(
        view_of(0, ["ah", "3h", "4c"], trick=[(3, "5h")], taken=[3, 3, 2, 2], **made)
    ) == card("3h")
    # the sandbagger takes it all the same
    assert Sandbagger().choose(view_of(0, ["ah", "3h", "4c"], trick=[(3, "5h")], taken=[3, 3, 2, 2], **made)) == card(
        "ah"
    )


def test_the_counter_covers_its_partners_nil_and_busts_an_opponents():
    # north (2) bid nil and plays after south: south wins as high as it can, not second hand low
    assert CountingPlayer().choose(view_of(0, ["kh", "jh", "3h"], trick=[(3, "th")], bids=[3, 3, 0, 3])) == card("kh")
    assert CountingPlayer().choose(view_of(0, ["kh", "jh", "3h"], trick=[(3, "th")], bids=[3, 3, 2, 3])) == card("3h")
    # east (3) bid nil and has shown it lacks clubs: north leads its lowest heart, not the two of clubs
    voids = [set(), set(), set(), {3}]
    assert CountingPlayer().choose(view_of(2, ["ah", "9h", "4h", "2c"], bids=[3, 3, 4, 0], voids=voids)) == card("4h")
    # the nil bidder (east) is winning with the ten: stay under it with the nine
    assert CountingPlayer().choose(
        view_of(0, ["jh", "9h", "3h"], trick=[(2, "5h"), (3, "th")], bids=[3, 3, 4, 0])
    ) == card("9h")


def test_the_counter_bids_its_count_nil_with_small_cards_and_over_beside_a_partners_nil():
    strong = ["as", "ks", "qs", "4s", "ah", "kh", "2h", "ad", "3d", "4d", "5c", "6c", "7c"]
    small = ["2s", "5s", "9s", "3h", "6h", "8h", "2d", "4d", "7d", "jd", "3c", "5c", "8c"]
    assert CountingPlayer().bid(strong, None) == 7  # three spade honours, a fourth spade, two aces, a king beside one
    assert CountingPlayer().bid(strong, 0) == 8  # the partner's nil to cover
    assert CountingPlayer().bid(small, None) == 0
    assert CountingPlayer().bid(small, 0) == 1  # no double nil
    assert Sandbagger().bid(strong, None) == 6 and Sandbagger().bid(small, None) == 1
