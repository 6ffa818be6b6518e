"""The seed's rules of Spades on their own."""

import random

import pytest

from games.cards import NAMES
from games.spades.rules import PLAYERS, Spades, trick_value


def shuffled_deck(seed: int) -> list[str]:
    deck = list(NAMES)
    random.Random(seed).shuffle(deck)
    return deck


def play_out(game: Spades, rng: random.Random) -> None:
    while not game.finished:
        player = game.to_play
        assert game.receive(player, f"play_card x {rng.choice(game.legal_cards(player))}") == (True, None)


def test_set_up_deals_blocks_of_13_from_the_front_player_3_first():
    deck = shuffled_deck(1)
    hands = Spades(deck).state()["hands"]
    assert [hands[f"player_{seat}"] for seat in (3, 2, 1, 0)] == [deck[0:13], deck[13:26], deck[26:39], deck[39:52]]


def test_a_fresh_hand_starts_with_player_0_and_nothing_led():
    state = Spades(NAMES).state()
    assert state["play_order"] == list(PLAYERS)
    assert (state["suit_led"], state["current_trick_count"], state["current_trick_num"]) == (None, 0, 0)
    assert state["player_scores"] == {player: 0 for player in PLAYERS}


@pytest.mark.parametrize(
    "deck, problem",
    [
        (NAMES[:51], "52 different cards"),
        (NAMES[:51] + ("as",), "missing kc"),
        (NAMES[:51] + ("10s",), "not card names"),
    ],
)
def test_a_bad_deck_is_refused_clearly(deck, problem):
    with pytest.raises(ValueError, match=problem):
        Spades(deck)


@pytest.mark.parametrize(
    "player, message, refusal",
    [
        ("player_1", "play_card x 2c", "not player turn: player_1"),
        ("player_0", "play_card x 2s", "card not in player hand: 2s"),
        ("player_0", "play_card x", "unknown message: play_card x"),
        ("player_0", "bid 3", "unknown message: bid 3"),
    ],
)
def test_a_refusal_changes_nothing(player, message, refusal):
    game = Spades(shuffled_deck(2))
    before = game.state()
    assert game.receive(player, message) == (False, refusal)
    assert game.state() == before


def test_a_revoke_is_refused_and_changes_nothing():
    game = Spades(NAMES[1:] + NAMES[:1])  # player_0: the clubs and the ace of spades; player_1: diamonds and ac
    assert game.receive("player_0", "play_card any kc") == (True, None)
    before = game.state()
    assert game.receive("player_1", "play_card any td") == (False, "must follow suit: td")
    assert game.state() == before
    assert game.legal_cards("player_1") == ["ac"]


def test_a_void_player_may_discard_or_trump_and_the_spade_wins():
    game = Spades(NAMES[1:] + NAMES[:1])
    for player, card in [("player_0", "kc"), ("player_1", "ac"), ("player_2", "ad"), ("player_3", "2s")]:
        assert game.receive(player, f"play_card - {card}") == (True, None)
    state = game.state()
    assert state["player_scores"]["player_3"] == 1
    assert state["play_order"] == ["player_3", "player_0", "player_1", "player_2"]
    assert (state["suit_led"], state["current_trick_count"], state["current_trick_num"]) == (None, 0, 1)
    assert game.tricks[0] == (
        [("player_0", "kc"), ("player_1", "ac"), ("player_2", "ad"), ("player_3", "2s")],
        "player_3",
    )


def test_the_highest_card_of_the_suit_led_wins_without_spades_and_aces_are_high():
    assert trick_value("ad", "d") > trick_value("kd", "d") > trick_value("ah", "d") == 0
    assert trick_value("2s", "d") > trick_value("ad", "d")


@pytest.mark.parametrize("seed", range(5))
def test_a_hand_is_13_tricks_and_most_tricks_wins(seed):
    game = Spades(shuffled_deck(seed))
    play_out(game, random.Random(seed))
    scores = game.scores()
    assert sum(scores.values()) == 13 and len(game.tricks) == 13
    assert all(not cards for cards in game.state()["hands"].values())
    assert game.winners() == [player for player in PLAYERS if scores[player] == max(scores.values())]
    assert game.receive(game.to_play, "play_card x as") == (False, "card not in player hand: as")


@pytest.mark.parametrize("seed", range(20))
def test_the_legal_cards_are_exactly_those_the_rules_do_not_refuse(seed):
    from games.spades.full_rules import FullSpades

    rng = random.Random(seed)
    for game in (Spades(shuffled_deck(seed)), FullSpades(shuffled_deck(seed), PLAYERS[seed % 4])):
        while not game.finished:
            for player in PLAYERS:
                expected = [card for card in game.hand(player) if game.refusal(player, card) is None]
                assert game.legal_cards(player) == expected
            if getattr(game, "bidding", False):
                game.bid(game.to_play, rng.randint(0, 3))
            else:
                game.play_card(game.to_play, rng.choice(game.legal_cards(game.to_play)))
