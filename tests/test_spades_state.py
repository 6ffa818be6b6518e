"""Spades through the game-state protocol: `games.spades.new_game`, the seed's game and the full one."""

import random

import pytest

from games.protocol import TERMINAL, MoveRefused, Outcome, Termination, playout
from games.spades import new_game
from games.spades.full_rules import GAME_POINTS, LOSING_POINTS
from games.spades.rules import PLAYERS


def random_until(state, rng, stop):
    """Random legal moves until `stop(state)` holds (or the game ends)."""
    while state.outcome() is None and not stop(state):
        state.apply(rng.choice(state.legal_moves()))
    return state


def refusal(state, move) -> str:
    """The words `state` refuses `move` with (it must refuse it)."""
    with pytest.raises(MoveRefused) as refused:
        state.apply(move)
    return refused.value.reason


def test_a_seed_hand_takes_card_names_and_returns_the_tricks():
    state = new_game(5)
    assert state.num_players() == 4 and state.current_player() == 0
    hand = state.game.hand("player_0")
    assert state.legal_moves() == hand and all(len(card) == 2 for card in hand)
    playout(state, random.Random(5).choice)
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    taken = state.game.scores()
    outcome = state.outcome()
    assert outcome.termination == Termination.HAND_OVER
    assert outcome.returns == tuple(float(taken[player]) for player in PLAYERS) and sum(outcome.returns) == 13
    assert outcome.winners == tuple(seat for seat, player in enumerate(PLAYERS) if taken[player] == max(taken.values()))
    first_trick = [card for _, card in state.game.tricks[0][0]]
    assert len(state.history) == 52 and [move for _, move in state.history[:4]] == first_trick
    before = str(state)
    assert refusal(state, hand[0]) == "the hand is over" and str(state) == before


def revoke_position():
    """A seed hand after one card, where the next player holds the suit led and another suit."""
    for seed in range(100):
        state = new_game(seed)
        lead = state.legal_moves()[0]
        state.apply(lead)
        hand = state.game.hand(state.game.to_play)
        following = [card for card in hand if card[1] == lead[1]]
        others = [card for card in hand if card[1] != lead[1]]
        if following and others:
            return state, others[0]
    raise AssertionError("no deal of 100 gives a revoke to try")


def test_refusals_use_the_rulesets_words_and_change_nothing():
    state, revoke = revoke_position()
    unheld = next(card for card in ("as", "kd", "2c", "th") if card not in state.game.hand(state.game.to_play))
    before, legal = str(state), state.legal_moves()
    assert refusal(state, revoke) == f"must follow suit: {revoke}"
    assert refusal(state, unheld) == f"card not in player hand: {unheld}"
    assert refusal(state, "10d").startswith("not a card: '10d'")
    assert str(state) == before and state.legal_moves() == legal


def test_a_seats_move_is_answered_in_the_seeds_words_and_order():
    """The referee's way in: a move from a given player is checked as the seed checks a message,
    its turn first, whatever the move is."""
    state, revoke = revoke_position()
    mover, other = state.current_player(), (state.current_player() + 1) % 4
    before = str(state)
    for player, move, words in [
        (other, revoke, f"not player turn: {PLAYERS[other]}"),
        (other, "10d", f"not player turn: {PLAYERS[other]}"),
        (mover, "10d", "card not in player hand: 10d"),
        (mover, revoke, f"must follow suit: {revoke}"),
    ]:
        with pytest.raises(MoveRefused) as refused:
            state.apply(move, player=player)
        assert refused.value.reason == words and str(state) == before
    move = state.legal_moves()[0]
    state.apply(move, player=mover)
    assert state.history[-1] == (mover, move)


def test_a_player_sees_their_own_hand_and_never_anothers():
    for options in ({}, {"full_rules": True}):
        state = new_game(6, **options)
        hands = state.game.state()["hands"] if not options else state.hand.state()["hands"]
        for seat, player in enumerate(PLAYERS):
            seen = state.observation(seat)
            assert " ".join(hands[player]) in seen
            for other in PLAYERS:
                if other != player:
                    assert not any(card in seen.split() for card in hands[other]), (player, other)


def test_a_clone_is_independent_both_ways():
    for options in ({}, {"full_rules": True}):
        state = new_game(3, **options)
        twin = state.clone()
        text = str(state)
        twin.apply(twin.legal_moves()[0])
        assert str(state) == text != str(twin)
        state.apply(state.legal_moves()[-1])
        assert str(twin) != str(state)


@pytest.mark.parametrize("seed", [0, -1, 1, 2**70])
def test_any_whole_number_deals_the_same_hands_every_time(seed):
    assert str(new_game(seed)) == str(new_game(seed))
    assert str(new_game(seed, full_rules=True)) == str(new_game(seed, full_rules=True))


def test_zero_and_negative_seeds_are_seeds_of_their_own():
    hands = {str(new_game(seed)) for seed in (0, 1, -1, 2, -2)}
    assert len(hands) == 5


def test_the_full_game_starts_with_bids_as_a_player_types_them():
    state = new_game(8, full_rules=True)
    assert state.current_player() == 1  # left of the first dealer, player_0
    assert state.legal_moves() == ["nil"] + [f"bid {number}" for number in range(1, 14)]
    before = str(state)
    for wrong, words in [
        ("td", "not a bid: 'td'"),
        ("bid 0", "not a bid: 'bid 0'"),
        ("bid 14", "not a bid: 14"),
        ("blind nil", "this game is played without blind nil"),
    ]:
        assert refusal(state, wrong).startswith(words)
        assert str(state) == before


def test_a_partnerships_bids_come_to_13_at_most():
    state = new_game(8, full_rules=True)
    for move in ("bid 10", "bid 2"):  # west 10, north 2
        state.apply(move)
    assert state.current_player() == 3  # east, west's partner
    assert state.legal_moves() == ["nil", "bid 1", "bid 2", "bid 3"]
    before = str(state)
    assert refusal(state, "bid 4") == "partners bid 13 at most: 4" and str(state) == before
    state.apply("nil")
    assert refusal(state, "bid 12") == "partners bid 13 at most: 12"
    state.apply("bid 11")
    assert state.hand.legal_cards("player_1") == state.legal_moves()  # play


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_full_game_is_played_to_its_end_and_returns_the_partnerships_points(seed):
    state = playout(new_game(seed, full_rules=True), random.Random(seed).choice)
    scores = state.match.scores
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    winning = 0 if scores[0] > scores[1] else 1
    assert state.outcome() == Outcome(Termination.WON, (winning, winning + 2), (float(scores[0]), float(scores[1])) * 2)
    assert (max(scores) >= GAME_POINTS or min(scores) <= LOSING_POINTS) and scores[0] != scores[1]
    assert refusal(state, "nil") == "the game is over"
    assert "game over" in str(state)


def test_blind_nil_is_open_exactly_to_a_partnership_100_behind():
    state, rng, offered = new_game(4, full_rules=True, blind_nil=True), random.Random(4), 0
    while state.outcome() is None:
        if state.hand.bidding:
            team = PLAYERS.index(state.hand.to_play) % 2
            behind = state.match.scores[1 - team] - state.match.scores[team] >= 100
            assert ("blind nil" in state.legal_moves()) == behind
            offered += behind
            if not behind:
                before = str(state)
                assert refusal(state, "blind nil") == "blind nil only 100 or more behind" and str(state) == before
        state.apply(rng.choice(state.legal_moves()))
    assert offered


def test_blind_nil_needs_the_full_game():
    with pytest.raises(ValueError, match="full"):
        new_game(1, blind_nil=True)
