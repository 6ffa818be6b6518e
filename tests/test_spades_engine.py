"""The Spades engine on its own, and the LudL interpreter on small rule texts of our own."""

import random

import pytest

from games.spades.cards import DECK, trick_value
from games.spades.engine import PLAYERS, Spades
from games.spades.ludl import Interpreter, LudlError, Token, rules_text


def shuffled_deck(seed: int) -> list[str]:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


def play_out(engine: Spades, rng: random.Random) -> None:
    while not engine.finished:
        player = engine.to_play
        assert engine.receive(player, f"play_card x {rng.choice(engine.legal_cards(player))}") == (True, None)


def test_set_up_deals_blocks_of_13_from_the_front_player_3_first():
    deck = shuffled_deck(1)
    hands = Spades(deck).state()["hands"]
    assert [hands[f"player_{seat}"] for seat in (3, 2, 1, 0)] == [deck[0:13], deck[13:26], deck[26:39], deck[39:52]]


def test_a_fresh_hand_starts_with_player_0_and_nothing_led():
    state = Spades(DECK).state()
    assert state["play_order"] == list(PLAYERS)
    assert (state["suit_led"], state["current_trick_count"], state["current_trick_num"]) == (None, 0, 0)
    assert state["player_scores"] == {player: 0 for player in PLAYERS}


@pytest.mark.parametrize("deck, problem", [
    (DECK[:51], "52 different cards"), (DECK[:51] + ("as",), "missing kc"), (DECK[:51] + ("10s",), "not card names")])
def test_a_bad_deck_is_refused_clearly(deck, problem):
    with pytest.raises(ValueError, match=problem):
        Spades(deck)


@pytest.mark.parametrize("player, message, refusal", [
    ("player_1", "play_card x 2c", "not player turn: player_1"),
    ("player_0", "play_card x 2s", "card not in player hand: 2s"),
    ("player_0", "play_card x", "unknown message: play_card x"),
    ("player_0", "bid 3", "unknown message: bid 3"),
])
def test_a_refusal_changes_nothing(player, message, refusal):
    engine = Spades(shuffled_deck(2))
    before = engine.state()
    assert engine.receive(player, message) == (False, refusal)
    assert engine.state() == before


def test_a_revoke_is_refused_and_changes_nothing():
    engine = Spades(DECK[1:] + DECK[:1])  # player_0: the clubs and the ace of spades; player_1: diamonds and ac
    assert engine.receive("player_0", "play_card any kc") == (True, None)
    before = engine.state()
    assert engine.receive("player_1", "play_card any td") == (False, "must follow suit: td")
    assert engine.state() == before
    assert engine.legal_cards("player_1") == ["ac"]


def test_a_void_player_may_discard_or_trump_and_the_spade_wins():
    engine = Spades(DECK[1:] + DECK[:1])
    for player, card in [("player_0", "kc"), ("player_1", "ac"), ("player_2", "ad"), ("player_3", "2s")]:
        assert engine.receive(player, f"play_card - {card}") == (True, None)
    state = engine.state()
    assert state["player_scores"]["player_3"] == 1
    assert state["play_order"] == ["player_3", "player_0", "player_1", "player_2"]
    assert (state["suit_led"], state["current_trick_count"], state["current_trick_num"]) == (None, 0, 1)
    assert engine.tricks[0] == ([("player_0", "kc"), ("player_1", "ac"), ("player_2", "ad"), ("player_3", "2s")],
                                "player_3")


def test_the_highest_card_of_the_suit_led_wins_without_spades_and_aces_are_high():
    assert trick_value("ad", "d") > trick_value("kd", "d") > trick_value("ah", "d") == 0
    assert trick_value("2s", "d") > trick_value("ad", "d")


@pytest.mark.parametrize("seed", range(5))
def test_a_hand_is_13_tricks_and_most_tricks_wins(seed):
    engine = Spades(shuffled_deck(seed))
    play_out(engine, random.Random(seed))
    scores = engine.scores()
    assert sum(scores.values()) == 13 and len(engine.tricks) == 13
    assert all(not cards for cards in engine.state()["hands"].values())
    assert engine.winners() == [player for player in PLAYERS if scores[player] == max(scores.values())]
    assert engine.receive(engine.to_play, "play_card x as") == (False, "card not in player hand: as")


# --- the interpreter ---------------------------------------------------------------------------------

COUNTER = """ignored page heading
DEF twice $n:
  RETURN PLUS $n $n;
END_DEF
# a comment
RECEIVE add $amount:
  SET_PROP 'total' PLUS GET_PROP 'total' twice INT $amount;
  IF GREATER_OR_EQUAL GET_PROP 'total' 10:
    REJECT CONCAT "too much: " STR GET_PROP 'total';
  END_IF
  ACCEPT;
END_RECEIVE"""


def counter() -> Interpreter:
    return Interpreter(rules_text(COUNTER), props={"total": 0}, containers={}, shuffle=None)


def test_prefix_expressions_calls_and_rejects_that_undo():
    game = counter()
    assert game.receive("p", "add 2") == (True, None)
    assert game.props["total"] == 4
    assert game.receive("p", "add 3") == (False, "too much: 10")
    assert game.props["total"] == 4
    assert game.receive("p", "add") == (False, "unknown message: add")


def test_containers_tokens_and_sorting():
    rules = """DEF value $card:
  RETURN TOKEN_GET_PROP $card 'v';
END_DEF
DEF pair $name:
  RETURN TUPLE2 $name value POP GET_CONTAINER $name 0;
END_DEF
RECEIVE best $x:
  ASSIGN 'pairs' MAP GET_PROP 'names' 'pair';
  REVERSE SORT_TUPLE $pairs;
  SET_PROP 'best' GET_POSITION_ELT GET_POSITION_ELT $pairs 0 0;
  ACCEPT;
END_RECEIVE"""
    containers = {"a": [Token("x", {"v": 3})], "b": [Token("y", {"v": 7})], "c": [Token("z", {"v": 5})]}
    game = Interpreter(rules, props={"names": ["a", "b", "c"]}, containers=containers, shuffle=None)
    assert game.receive("p", "best 0") == (True, None)
    assert game.props["best"] == "b"
    assert all(not tokens for tokens in game.containers.values())


@pytest.mark.parametrize("rules", ["DEF f:\n  RETURN FROB 1;\nEND_DEF", "DEF f:\n  RETURN PLUS 1;\nEND_DEF",
                                   "DEF f:\n  RETURN 1;\n"])
def test_rules_it_cannot_read_are_refused(rules):
    with pytest.raises(LudlError):
        Interpreter(rules, props={}, containers={}, shuffle=None)
