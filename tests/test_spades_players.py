"""Spades computer players and the full game's rules (bidding, nil, bags, spades broken, 500)."""

import random
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import BY_NAME, NAMES
from games.spades.rules import PLAYERS, Spades
from games.spades.full_rules import FullMatch, FullSpades, choose_bid, hand_points, partner_of
from games.spades.players.bidding import sampled_bid
from games.spades.players.guesses import (
    HabitCheck,
    consistent_deal,
    deal_hidden_cards,
    exact_deal,
    guessed_deal,
    habit_agreement,
    habit_guesses,
)
from games.spades.players.information_set import BAG_WORTH, NIL_TRICK_WORTH, SET_NIL_WORTH, SolverPlayer, trick_worth
from games.spades.players.mcts import SearchPlayer, seed_outcome
from games.spades.players import RandomPlayer, RulePlayer, make_player, play_seed_hand
from games.spades.players.views import View, full_outcome, full_view, seed_view, win_shares
from games.spades.players.solver import CARD_OF_BIT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))  # the measuring players, beside the benches
from spades_opponents import CountingPlayer  # noqa: E402
from spades_seeing import KnowingPlayer, Position, dealt_hands  # noqa: E402


def number(name: str) -> int:
    return BY_NAME[name].index


def numbers(*names: str) -> list[int]:
    return [number(name) for name in names]


def view(hand, trick=(), played=(), seat=0, partner=None, bids=None) -> View:
    trick_numbers = [(who, number(card)) for who, card in trick]
    return View(
        seat=seat,
        hand=numbers(*hand),
        trick=trick_numbers,
        played=set(numbers(*played)) | {card for _, card in trick_numbers},
        voids=[set() for _ in range(4)],
        hand_sizes=[len(hand)] * 4,
        taken=[0] * 4,
        partner=partner,
        bids=bids,
    )


def shuffled(seed: int) -> list[str]:
    deck = list(NAMES)
    random.Random(seed).shuffle(deck)
    return deck


# --- the rule-based player's habits -----------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, trick, expected",
    [
        (("4h", "9h", "kh"), [(3, "th")], "4h"),  # second hand low
        (("4h", "jh", "kh", "ah"), [(2, "th"), (3, "5h")], "kh"),  # third hand high: K and A are equal, play K
        (("4h", "jh", "kh"), [(1, "th"), (2, "5h"), (3, "2h")], "jh"),  # last hand wins as cheaply as it can
        (("4h", "9h"), [(1, "th"), (2, "5h"), (3, "2h")], "4h"),  # cannot win: lowest
        (("2s", "9s", "4c", "kd"), [(3, "th")], "2s"),  # void: trump, cheaply
        (("2s", "9s", "4c", "kd"), [(2, "th"), (3, "5s")], "9s"),  # overtrump as cheaply as wins
        (("2s", "4c", "kd"), [(2, "th"), (3, "5s")], "4c"),  # cannot win: the least useful card
    ],
)
def test_rule_player_follows_its_rules(hand, trick, expected):
    played = ("ah",) if expected == "kh" else ()
    assert NAMES[RulePlayer().choose(view(hand, trick, played))] == expected


def test_rule_player_leads_a_card_that_cannot_be_beaten_else_low_from_its_longest_side_suit():
    assert NAMES[RulePlayer().choose(view(("ah", "4c", "5c", "2s")))] == "ah"
    assert NAMES[RulePlayer().choose(view(("kh", "4c", "9c", "2s"), played=("ah",)))] == "kh"
    assert NAMES[RulePlayer().choose(view(("kh", "4c", "9c", "2s")))] == "4c"


def test_rule_player_leaves_a_winning_partner_alone_and_a_nil_bidder_ducks():
    trick = [(0, "5h"), (1, "th"), (2, "2h")]
    assert NAMES[RulePlayer().choose(view(("jh", "3h"), trick, seat=3, partner=1, bids=[3, 3, 3, 3]))] == "3h"
    nil = view(("jh", "9h", "3h"), [(1, "th")], seat=2, partner=0, bids=[3, 3, 0, 3])
    assert NAMES[RulePlayer().choose(nil)] == "9h"


def test_rule_player_covers_its_partners_nil_and_sets_an_opponents():
    nil_partner = [3, 3, 0, 3]  # seat 2, seat 0's partner, bid nil
    # the nil bidder still to play: win as high as can be, not second hand low
    assert (
        NAMES[RulePlayer().choose(view(("jh", "kh", "3h"), [(3, "th")], seat=0, partner=2, bids=nil_partner))] == "kh"
    )
    # the nil bidder winning the trick: take it from it, cheaply
    trick = [(2, "5h"), (1, "th"), (0, "2h")]
    assert NAMES[RulePlayer().choose(view(("jh", "kh", "3h"), trick, seat=3, partner=1, bids=[3, 0, 3, 3]))] == "jh"
    assert NAMES[RulePlayer().choose(view(("jh", "kh", "3h"), trick, seat=3, partner=1, bids=[3] * 4))] == "3h"
    # an opponent's nil (seat 2) still to play after this seat: low, not third hand high
    trick = [(3, "5h"), (0, "6h")]
    assert NAMES[RulePlayer().choose(view(("jh", "kh", "3h"), trick, seat=1, partner=3, bids=nil_partner))] == "3h"
    # ... and winning the trick: stay under its card
    assert (
        NAMES[RulePlayer().choose(view(("jh", "9h", "3h"), [(2, "th")], seat=3, partner=1, bids=nil_partner))] == "9h"
    )
    assert NAMES[RulePlayer().choose(view(("jh", "9h", "3h"), [(2, "th")], seat=3, partner=1, bids=[3] * 4))] == "3h"


@pytest.mark.parametrize("level", ["random", "rules"])
def test_players_only_play_cards_the_rules_accept(level):
    for seed in range(20):
        tricks, _ = play_seed_hand(shuffled(seed), [make_player(level, random.Random(seed)) for _ in range(4)])
        assert sum(tricks) == 13


def test_a_watcher_sees_every_decision_with_a_choice_and_the_card_chosen():
    seen = []
    _, times = play_seed_hand(
        shuffled(5), [RulePlayer() for _ in range(4)], lambda seat, view, card: seen.append((seat, view, card))
    )
    assert [len(seconds) for seconds in times] == [sum(seat == watched for watched, _, _ in seen) for seat in range(4)]
    assert sum(map(len, times)) > 13
    for seat, view, card in seen:
        assert view.seat == seat and len(view.legal()) > 1 and card == RulePlayer().choose(view)


def test_search_player_plays_legal_cards_and_takes_a_sure_trick():
    players = [
        RulePlayer(),
        RandomPlayer(random.Random(1)),
        SearchPlayer(iterations=40, rng=random.Random(2)),
        RulePlayer(),
    ]
    assert sum(play_seed_hand(shuffled(3), players)[0]) == 13
    # Two tricks left, north to lead the ace of hearts (the last heart, no spades left) or the 2 of
    # diamonds (the king of diamonds is out): the ace takes a trick, the 2 first takes none
    sure = view(("ah", "2d"), seat=2)
    sure.hand_sizes = [2, 2, 2, 2]
    sure.played = set(range(52)) - set(numbers("ah", "2d", "kd", "3c", "4c", "5c", "6c", "7c"))
    assert NAMES[SearchPlayer(iterations=20, rng=random.Random(4)).choose(sure)] == "ah"


def play_until(seed: int, plays: int, deck) -> Spades:
    game = Spades(deck)
    for _ in range(plays):
        game.play_card(game.to_play, NAMES[RulePlayer().choose(seed_view(game, game.to_play))])
    return game


@pytest.mark.parametrize("seed, plays", [(11, 9), (12, 22), (13, 30)])
def test_solver_player_does_not_peek(seed, plays):
    """Swap two hidden cards of one suit between two other seats:
    the same visible history and the same random numbers give the same decision."""
    deck = shuffled(seed)
    game = play_until(seed, plays, deck)
    me = game.to_play
    others = [player for player in PLAYERS if player != me]
    a, b = next((x, y) for x in game.hand(others[0]) for y in game.hand(others[1]) if x[1] == y[1])
    swapped = list(deck)
    i, j = swapped.index(a), swapped.index(b)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    regame = Spades(swapped)
    for player, card in [play for trick, _ in game.tricks for play in trick] + game.trick:
        assert regame.play_card(player, card) == (True, None)
    seen, reseen = seed_view(game, me), seed_view(regame, me)
    assert seen == reseen and game.hand(others[0]) != regame.hand(others[0])
    choose = [SolverPlayer(rng=random.Random(seed)).choose(view) for view in (seen, reseen)]
    assert choose[0] == choose[1]


def test_solver_player_decides_by_work_done_not_by_the_clock(monkeypatch):
    """A slow or busy machine gets the same decisions: the search is cut short by the work it has done,
    and with no budget to search at all the rule player's card is played."""
    views = [
        seed_view(game, game.to_play)
        for game in (play_until(seed, plays, shuffled(seed)) for seed, plays in [(21, 4), (22, 13), (23, 21), (24, 29)])
    ]
    decisions = [SolverPlayer(rng=random.Random(1)).choose(view) for view in views]
    rule_cards = [RulePlayer().choose(view) for view in views]
    assert decisions != rule_cards
    assert [SolverPlayer(most_steps=1, rng=random.Random(1)).choose(view) for view in views] == rule_cards
    ticks = iter(range(0, 10**9, 60))
    for clock in ("process_time", "perf_counter", "monotonic", "time", "thread_time"):
        monkeypatch.setattr(time, clock, lambda: float(next(ticks)))  # a minute passes at every look
    assert [SolverPlayer(rng=random.Random(1)).choose(view) for view in views] == decisions


def test_solver_player_plays_legal_cards_and_takes_a_sure_trick():
    players = [
        RulePlayer(),
        SolverPlayer(samples=4, rng=random.Random(1)),
        RulePlayer(),
        RandomPlayer(random.Random(2)),
    ]
    assert sum(play_seed_hand(shuffled(4), players)[0]) == 13
    sure = view(("ah", "2d"), seat=2)
    sure.hand_sizes = [2, 2, 2, 2]
    sure.played = set(range(52)) - set(numbers("ah", "2d", "kd", "3c", "4c", "5c", "6c", "7c"))
    assert NAMES[SolverPlayer(samples=5, rng=random.Random(4)).choose(sure)] == "ah"


def test_a_nil_weighs_on_the_solver_while_it_stands_and_its_tricks_are_bags_once_broken():
    west_and_east_nil = view(("ah", "2d"), seat=0, partner=2, bids=[3, 0, 4, 0])
    worth = trick_worth(west_and_east_nil)
    assert worth[0] == worth[2] == 1 and worth[1] == worth[3] == SET_NIL_WORTH > 1
    west_and_east_nil.taken = [1, 1, 0, 0]  # west's nil is broken: its tricks help neither side now
    assert trick_worth(west_and_east_nil) == [1, 0, 1, SET_NIL_WORTH]
    north_nil = view(("ah", "2d"), seat=0, partner=2, bids=[3, 3, 0, 4])
    assert trick_worth(north_nil) == [1, 0, NIL_TRICK_WORTH, 0] and NIL_TRICK_WORTH < 0
    north_nil.taken = [0, 1, 2, 0]
    assert trick_worth(north_nil) == [1, 0, 0, 0]


def test_once_its_contract_is_made_the_solver_counts_its_tricks_as_bags_unless_a_set_is_in_play():
    made = view(("ah", "2d", "3c"), seat=0, partner=2, bids=[2, 3, 2, 4])
    made.taken = [2, 4, 2, 2]  # south and north have their 4; west and east need 1 more of the 3 left
    assert trick_worth(made) == [BAG_WORTH, 0, BAG_WORTH, 0] and BAG_WORTH < 0
    made.taken = [3, 2, 2, 3]  # west and east need 2 of the 3 left: every trick taken may set them
    assert trick_worth(made) == [1, 0, 1, 0]
    made.taken = [1, 4, 2, 3]  # south and north lack a trick
    assert trick_worth(made) == [1, 0, 1, 0]


def test_sampled_bids_follow_the_hand():
    strong = ["as", "ks", "qs", "js", "ts", "ah", "kh", "ad", "kd", "ac", "kc", "2h", "2d"]
    weak = ["2s", "3s", "2h", "4h", "6h", "3d", "5d", "7d", "2c", "4c", "6c", "8c", "9d"]
    assert sampled_bid(strong, 0, 1, None, random.Random(1)) >= 9
    assert sampled_bid(strong, 0, 1, 6, random.Random(1)) == 7
    assert sampled_bid(weak, 0, 1, None, random.Random(1)) == 0
    assert sampled_bid(weak, 0, 1, 0, random.Random(1)) == 1  # no double nil
    assert sampled_bid(strong, 0, 1, 13, random.Random(1)) == 0  # the partner took all 13: only nil is left
    # ducking keeps these out of tricks in most deals, but a spade above the nine can be forced to win
    # against players who set nils better than the rule player: never nil
    for high_spade in ("ts", "js"):
        assert sampled_bid([high_spade, *weak[1:]], 0, 1, None, random.Random(1)) == 1, high_spade


def test_unknown_level_is_refused_clearly():
    with pytest.raises(ValueError, match="no level 'expert'"):
        make_player("expert")


def test_win_shares_split_ties():
    assert win_shares([4, 4, 3, 2]) == [0.5, 0.5, 0.0, 0.0]
    assert win_shares([5, 4, 2, 2]) == [1.0, 0.0, 0.0, 0.0]


# --- guessing the hidden hands ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 48))
def test_guessed_deals_fit_everything_the_player_has_seen(seed, plays):
    rng = random.Random(seed)
    game = Spades(shuffled(seed))
    for _ in range(plays):
        game.play_card(game.to_play, rng.choice(game.legal_cards(game.to_play)))
    player = game.to_play
    seen = seed_view(game, player)
    truth = [numbers(*game.hand(other)) for other in PLAYERS]
    assert all(card // 13 not in seen.voids[seat] for seat in range(4) for card in truth[seat])
    sampled = habit_guesses(seen, set(range(4)) - {seen.seat}, rng, count=3, chains=3, sweeps=2, mismatch=0.05)[0]
    for guess in [deal_hidden_cards(seen, rng) or exact_deal(seen), exact_deal(seen)] + sampled:
        assert guess[seen.seat] == seen.hand
        assert [len(hand) for hand in guess] == seen.hand_sizes
        assert sorted(card for hand in guess for card in hand) == sorted(card for hand in truth for card in hand)
        assert all(card // 13 not in seen.voids[seat] for seat in range(4) for card in guess[seat])


def rule_played_views(seed: int, plays: int) -> list[tuple[View, list[list[int]]]]:
    """Every view of a hand played by rule players up to `plays` cards, with the true hidden hands."""
    game, views = Spades(shuffled(seed)), []
    for _ in range(plays):
        player = game.to_play
        seen = seed_view(game, player)
        views.append((seen, [numbers(*game.hand(other)) for other in PLAYERS]))
        game.play_card(player, NAMES[RulePlayer().choose(seen)])
    return views


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(1, 50))
def test_the_true_deal_explains_every_play_of_rule_players(seed, plays):
    seen, truth = rule_played_views(seed, plays)[-1]
    assert habit_agreement(seen, truth, 0.05) == 1.0


def test_sampled_guesses_explain_the_plays_better_than_guesses_dealt_at_random():
    rng = random.Random(5)
    sampled = dealt = 0.0
    for seed in range(4):
        for seen, _ in rule_played_views(seed, 40)[20::4]:
            others = set(range(4)) - {seen.seat}
            weights = habit_guesses(seen, others, rng, count=10, chains=2, sweeps=20, mismatch=0.05)[1]
            sampled += sum(weights) / len(weights)
            dealt += sum(habit_agreement(seen, consistent_deal(seen, rng), 0.05) for _ in range(10)) / 10
    assert sampled > 2 * dealt


def test_players_who_do_not_play_by_the_habits_are_guessed_without_them():
    game, rng = Spades(shuffled(21)), random.Random(3)
    while len(game.tricks) < 5 or game.to_play != "player_0":
        game.play_card(game.to_play, rng.choice(game.legal_cards(game.to_play)))
    seen = seed_view(game, "player_0")
    player = SolverPlayer(rng=random.Random(4))
    by_habits = habit_guesses(
        seen, {1, 2, 3}, random.Random(4), player.samples, player.chains, player.sweeps, player.mismatch
    )[1]
    assert max(by_habits) < 1  # random players: no guess explains every play by the habits
    guesses, weights = player.guesses(seen)
    assert weights == [1.0] * player.samples
    for hands in guesses:
        assert sorted(card for hand in hands for card in hand) == sorted(set(range(52)) - seen.played)


def table_played_to(seed: int, tricks: int, players: list) -> tuple[Spades, View]:
    """Deal `seed` played by `players` (one a seat) until player_0's turn after `tricks` tricks, and its view."""
    game = Spades(shuffled(seed))
    while len(game.tricks) < tricks or game.to_play != "player_0":
        player = game.to_play
        game.play_card(player, NAMES[players[PLAYERS.index(player)].choose(seed_view(game, player))])
    return game, seed_view(game, "player_0")


def test_the_plays_of_card_counters_still_tell_where_the_cards_are():
    """Card counters keep the rule player's habits in most plays, not all: the solver level's guesses,
    judging each seat on its own, put more hidden cards in the right hands than deals at random."""
    guessed = dealt = 0.0
    for seed in range(8):
        game, seen = table_played_to(seed, 6, [RulePlayer()] + [CountingPlayer() for _ in range(3)])
        truth = [numbers(*game.hand(other)) for other in PLAYERS]

        def right(hands):
            return sum(card in truth[seat] for seat in (1, 2, 3) for card in hands[seat]) / (
                52 - len(seen.played) - len(seen.hand)
            )

        guesses, weights = SolverPlayer(rng=random.Random(4)).guesses(seen)
        guessed += sum(weight * right(hands) for hands, weight in zip(guesses, weights)) / sum(weights) / 8
        dealt += sum(right(consistent_deal(seen, random.Random(deal))) for deal in range(30)) / 30 / 8
    assert guessed > dealt + 0.05


def test_only_the_seats_that_play_by_the_habits_are_judged_by_them():
    _, seen = table_played_to(21, 5, [RulePlayer(), RulePlayer(), RandomPlayer(random.Random(3)), RulePlayer()])
    guesses = [consistent_deal(seen, random.Random(seed)) for seed in range(300)]
    assert HabitCheck(seen, range(4)).habitual_seats(guesses) == {1, 3}  # the random player is not judged


def test_guesses_that_explain_the_plays_seen_weigh_more():
    deck = numbers(*shuffled(7))
    true_hands = [deck[13 * (3 - seat) : 13 * (4 - seat)] for seat in range(4)]
    start = View(
        seat=0, hand=[], trick=[], played=set(), voids=[set() for _ in range(4)], hand_sizes=[13] * 4, taken=[0] * 4
    )
    deal = guessed_deal(start, true_hands)
    history = []
    for _ in range(14):  # everyone plays by habit
        bit = deal.habitual_card()
        history.append((deal.to_play, CARD_OF_BIT[bit]))
        deal.play(bit)
    hands = [[CARD_OF_BIT[bit] for bit in range(52) if hand >> bit & 1] for hand in deal.hands]
    seen = View(
        seat=deal.to_play,
        hand=hands[deal.to_play],
        trick=[(seat, CARD_OF_BIT[bit]) for seat, bit in deal.trick],
        played={card for _, card in history},
        voids=[set() for _ in range(4)],
        hand_sizes=[len(hand) for hand in hands],
        taken=list(deal.taken),
        history=history,
    )
    assert habit_agreement(seen, hands, 0.3) == 1.0
    guesses = [habit_agreement(seen, consistent_deal(seen, random.Random(seed)), 0.3) for seed in range(30)]
    assert min(guesses) < 1.0


# --- the full game --------------------------------------------------------------------------------


def bid_all(hand: FullSpades, bids: dict[str, int]) -> None:
    while hand.bidding:
        player = hand.to_play
        assert hand.receive(player, f"bid {bids[player]}") == (True, None)


def test_bidding_starts_left_of_the_dealer_and_play_waits_for_it():
    hand = FullSpades(NAMES, dealer="player_1")
    assert hand.to_play == "player_2"
    assert hand.receive("player_2", "play_card x 2h") == (False, "bid first")
    assert hand.receive("player_3", "bid 3") == (False, "not player turn: player_3")
    assert hand.receive("player_2", "bid 14") == (False, "not a bid: 14")
    assert hand.receive("player_2", "bid three") == (False, "not a bid: three")
    bid_all(hand, {player: 3 for player in PLAYERS})
    assert hand.receive("player_2", "bid 3") == (False, "bidding is over")
    assert hand.to_play == "player_2" and hand.bids == {player: 3 for player in PLAYERS}


def test_spades_may_not_be_led_until_broken_unless_only_spades_are_left():
    deck = list(NAMES[1:] + NAMES[:1])  # player_0: clubs and the ace of spades; player_3: spades and ah
    hand = FullSpades(deck, dealer="player_3")
    bid_all(hand, {player: 2 for player in PLAYERS})
    assert hand.receive("player_0", "play_card x as") == (False, "spades not broken: as")
    for player, card in [("player_0", "kc"), ("player_1", "ac"), ("player_2", "ad"), ("player_3", "2s")]:
        assert hand.receive(player, f"play_card x {card}") == (True, None)
    assert hand.spades_broken and hand.to_play == "player_3"
    assert hand.receive("player_3", "play_card x 3s") == (True, None)


def test_a_hand_of_only_spades_may_lead_them():
    hand = FullSpades(NAMES, dealer="player_2")  # player_3 holds all the spades and leads
    bid_all(hand, {player: 1 for player in PLAYERS})
    assert hand.receive("player_3", "play_card x as") == (True, None)


@pytest.mark.parametrize(
    "bids, taken, expected",
    [
        ((4, 3, 2, 3), (5, 3, 2, 3), [(61, 1), (60, 0)]),  # made with a bag; made exactly
        ((4, 5, 2, 4), (3, 4, 2, 4), [(-60, 0), (-90, 0)]),  # both set
        ((0, 3, 5, 3), (0, 4, 6, 3), [(151, 1), (61, 1)]),  # nil made, partner makes with a bag
        ((0, 3, 5, 3), (1, 4, 5, 3), [(-49, 1), (61, 1)]),  # nil failed: its trick is a bag
        ((0, 4, 0, 4), (0, 7, 1, 5), [(1, 1), (84, 4)]),  # both nil: +100 -100 and a bag
    ],
)
def test_hand_points(bids, taken, expected):
    assert hand_points(dict(zip(PLAYERS, bids)), dict(zip(PLAYERS, taken))) == expected


def finished_hand(bids, taken) -> FullSpades:
    hand = FullSpades(NAMES, dealer="player_3")
    hand.bids = dict(zip(PLAYERS, bids))
    hand._scores = dict(zip(PLAYERS, taken))
    hand._trick_num = 13
    return hand


def test_ten_bags_cost_a_hundred_and_500_wins_but_a_tie_plays_on():
    match = FullMatch()
    match.bags = [8, 0]
    assert match.score(finished_hand((2, 2, 2, 2), (5, 2, 4, 2))) == [45 - 100, 40]
    assert match.bags == [3, 0] and match.winner is None
    match.scores = [490, 480]
    match.score(finished_hand((2, 1, 2, 1), (2, 1, 2, 1)))
    assert match.scores == [530, 500] and match.winner == 0
    match.scores = [500, 500]
    assert match.winner is None


def test_an_unfinished_hand_is_not_scored():
    with pytest.raises(ValueError, match="not finished"):
        FullMatch().score(FullSpades(NAMES, dealer="player_0"))


def test_computer_bids():
    strong = ["as", "ks", "qs", "js", "ts", "ah", "kh", "ad", "kd", "ac", "kc", "2h", "2d"]
    weak = ["2s", "3s", "2h", "4h", "6h", "3d", "5d", "7d", "2c", "4c", "6c", "8c", "9d"]
    assert choose_bid(strong, None) >= 9
    assert choose_bid(strong, 6) <= 7
    assert choose_bid(weak, None) == 0
    assert choose_bid(weak, 0) == 1  # no double nil
    guarded_ace = ["ah", "2h", "3h", "4h", "5h", *weak[5:9], "2s", "3s", "9s", "2d"]  # four hearts beneath the ace
    assert choose_bid(guarded_ace, None) == 0
    for risky in (
        ["ah", "2s", "3s", "3d", "5d", "7d", "9d", "2c", "3c", "4c", "5c", "6c", "8c"],  # a bare ace
        [*weak[:12], "ts"],  # a spade above the nine
        ["4s", "5s", "6s", "7s", *weak[2:11]],
    ):  # four spades
        assert choose_bid(risky, None) >= 1, risky


def test_full_game_players_play_legal_cards_and_score():
    rng = random.Random(5)
    match = FullMatch()
    hand = match.new_hand(shuffled(5))
    while hand.bidding:
        player = hand.to_play
        hand.bid(player, choose_bid(hand.hand(player), hand.bids[partner_of(player)]))
    bids = [hand.bids[player] for player in PLAYERS]
    players = [
        RulePlayer(),
        SearchPlayer(iterations=30, rng=rng, outcome=full_outcome(bids)),
        SolverPlayer(samples=3, rng=rng),
        RandomPlayer(rng),
    ]
    while not hand.finished:
        player = hand.to_play
        card = players[PLAYERS.index(player)].choose(full_view(hand, player))
        assert hand.play_card(player, NAMES[card]) == (True, None)
    changes = match.score(hand)
    assert match.scores == changes and len(match.history) == 1


def test_the_full_games_reward_is_the_lead_over_the_other_partnership():
    taken = [3, 4, 3, 3]  # north and south take the 6 they bid; west and east take 7
    set_them, they_make = full_outcome([3, 4, 3, 4])(taken), full_outcome([3, 4, 3, 3])(taken)
    assert set_them[0] == set_them[2] > they_make[0]  # their 8 set is worth to us what it costs them
    assert set_them[1] < they_make[1]
    assert set_them[0] + set_them[1] == pytest.approx(1.0)


def test_the_search_plays_the_full_game_for_its_bids_without_being_told():
    """In the full game the mcts level's reward is its partnership's lead in points for the bids in
    the view (a nil's trick costs), as if given `full_outcome`; the seed's reward would play for tricks."""
    differing = 0
    for seed in range(6):
        game = FullMatch().new_hand(shuffled(seed))
        while game.bidding:
            game.bid(game.to_play, 0 if game.to_play == "player_0" else 3)
        while not game.finished:
            player = game.to_play
            seen = full_view(game, player)
            if player == "player_0" and len(seen.legal()) > 1:
                choices = [
                    SearchPlayer(rng=random.Random(seed), outcome=outcome).choose(seen)
                    for outcome in (None, full_outcome(seen.bids), seed_outcome)
                ]
                assert choices[0] == choices[1]
                differing += choices[1] != choices[2]
            game.play_card(player, NAMES[RulePlayer().choose(seen)])
    assert differing, "no position told the two rewards apart: the test would show nothing"


# --- the bench's player that sees every hand and knows the others' own play ---------------------------


@pytest.mark.parametrize("kind", [CountingPlayer, RulePlayer])
def test_a_position_played_on_by_the_players_ends_as_the_game_does(kind):
    """`seeing.Position` keeps what each seat sees as the game's own views do: the same players,
    choosing from it, play the same cards and take the same tricks."""
    for seed in range(6):
        deck = shuffled(seed)
        game, seen = Spades(deck), []
        tricks, _ = play_seed_hand(
            deck, [kind() for _ in range(4)], watch=lambda seat, view, card: seen.append((view, card))
        )
        first_view = seed_view(game, game.to_play)
        position = Position.seen_by(first_view, dealt_hands(deck))
        views = []
        while not position.over():
            view = position.view()
            card = kind().choose(view)
            if len(view.legal()) > 1:
                views.append((view, card))
            position.play(card)
        assert position.taken == tricks
        assert [(view.seat, sorted(view.hand), view.trick, view.voids, view.taken, card) for view, card in views] == [
            (view.seat, sorted(view.hand), view.trick, view.voids, view.taken, card) for view, card in seen
        ]


def test_the_knowing_player_never_takes_fewer_tricks_than_the_kind_it_knows_would_in_its_seat():
    """The counters choose from what they see and nothing else, so its play-outs foretell them
    exactly; one turn deep it may always play the card a counter would: it takes at least what a
    counter in its seat takes, and on some deals more."""
    gains = []
    for seed in range(8):
        deck = shuffled(seed)
        alone, _ = play_seed_hand(deck, [CountingPlayer() for _ in range(4)])
        for seat in range(4):
            players = [CountingPlayer() for _ in range(4)]
            players[seat] = KnowingPlayer(deck, CountingPlayer(), 1)
            tricks, _ = play_seed_hand(deck, players)
            gains.append(tricks[seat] - alone[seat])
    assert min(gains) >= 0 and max(gains) > 0
