"""The Python rules against the seed's ruleset itself, run by the LudL interpreter.

The seed is read from ../shared/seeds/ beside the checkout; without it these tests are skipped.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades_oracle import seed_path, seed_spades, seed_state

from games.cards import NAMES
from games.spades.rules import PLAYERS, Spades, suit_of

SEED = seed_path(Path(__file__).resolve().parent.parent)
WITHOUT_THE_SEED = (
    f"the Spades seed's ruleset ({SEED.name}), which these tests play against the Python rules, is "
    "not part of the project: it is read from shared/seeds/ in the folder that holds this clone, "
    "and a clone of its own has none, so these tests are skipped; nothing else needs it"
)
seed_tests = pytest.mark.skipif(not SEED.exists(), reason=WITHOUT_THE_SEED)
MALFORMED = [
    "",
    "play_card td",
    "play_card x td extra",
    "PLAY_CARD x td",
    "pass",
    "play_card x zz",
    "play_card x 10d",
    "play_card  x   td",
]
WRONG_KINDS = ("revoke", "other player", "not held", "malformed")


def test_a_clone_without_the_seed_says_plainly_what_it_skips_and_why():
    assert "shared/seeds/" in WITHOUT_THE_SEED and "not part of the project" in WITHOUT_THE_SEED
    assert str(SEED.parent.parent.parent) not in WITHOUT_THE_SEED  # no path of this computer's


@pytest.fixture(scope="module")
def seed_text():
    return SEED.read_text(encoding="utf-8", errors="replace")


def unheld_cards(game: Spades, player: str) -> list[str]:
    return sorted(set(NAMES) - set(game.hand(player)))


def draw_message(data, game: Spades, kind: str) -> tuple[str, str]:
    """A (player, message) of the given kind; wrong kinds may turn out right, which is fine."""
    player = game.to_play
    hand = game.hand(player)
    dummy = data.draw(st.sampled_from(["x", "_", "0", "td"]))
    if kind == "legal":
        card = data.draw(st.sampled_from(game.legal_cards(player)))
    elif kind == "any held":
        card = data.draw(st.sampled_from(hand)) if hand else "as"
    elif kind == "revoke":
        off_suit = [card for card in hand if suit_of(card) != game.suit_led]
        card = data.draw(st.sampled_from(off_suit or hand or ["as"]))
    elif kind == "other player":
        player = data.draw(st.sampled_from([p for p in PLAYERS if p != player] + ["player_4", "Player_0"]))
        card = data.draw(st.sampled_from(game.hand(player) if player in PLAYERS and game.hand(player) else list(NAMES)))
    elif kind == "not held":
        card = data.draw(st.sampled_from(unheld_cards(game, player)))
    else:
        return player, data.draw(st.sampled_from(MALFORMED))
    return player, f"play_card {dummy} {card}"


def deliver(game: Spades, seed, player: str, message: str) -> bool:
    answer = game.receive(player, message)
    assert answer == seed.receive(player, message), (player, message)
    assert game.state() == seed_state(seed), (player, message)
    return answer[0]


@seed_tests
@settings(max_examples=520, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deck=st.permutations(NAMES), data=st.data())
def test_whole_hands_with_wrong_messages_answer_as_the_seed(seed_text, deck, data):
    seed = seed_spades(seed_text, deck)
    game = Spades(deck)
    assert game.state() == seed_state(seed)
    player, message = draw_message(data, game, data.draw(st.sampled_from(WRONG_KINDS)))
    deliver(game, seed, player, message)
    while not game.finished:
        kind = data.draw(st.sampled_from(("legal", "legal", "legal", "any held") + WRONG_KINDS))
        deliver(game, seed, *draw_message(data, game, kind))
    for kind in ("any held", "other player", "not held"):  # the seed keeps answering after the 13th trick
        deliver(game, seed, *draw_message(data, game, kind))
    assert sum(game.scores().values()) == 13


@seed_tests
def test_the_seed_refuses_with_its_own_texts(seed_text):
    deck = list(NAMES[1:] + NAMES[:1])  # each player holds one suit and the ace of the next
    seed, game = seed_spades(seed_text, deck), Spades(deck)
    messages = [
        ("player_2", "play_card x td"),
        ("player_0", "play_card x ah"),
        ("player_0", "play_card x kc"),
        ("player_1", "play_card x td"),
        ("player_1", "play_card x ac"),
        ("player_2", "play_card x ad"),
        ("player_3", "play_card x 2s"),
    ]
    answers = [seed.receive(player, message) for player, message in messages]
    assert answers == [
        (False, "not player turn: player_2"),
        (False, "card not in player hand: ah"),
        (True, None),
        (False, "must follow suit: td"),
        (True, None),
        (True, None),
        (True, None),
    ]
    assert seed_state(seed)["player_scores"]["player_3"] == 1  # the two of spades trumps the clubs
    for (player, message), answer in zip(messages, answers):
        assert game.receive(player, message) == answer
    assert game.state() == seed_state(seed)
