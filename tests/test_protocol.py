"""Every game keeps the one game-state protocol (games/protocol.py) under random legal and illegal play."""

import importlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.protocol import TERMINAL, GameState, MoveRefused, playout

VARIANTS = {
    "patience": ("games.patience", {}),
    "canfield": ("games.canfield", {}),
    "spades": ("games.spades", {}),
    "spades-full": ("games.spades", {"full_rules": True}),
}
STEPS = 250  # moves per example: enough to cross hands, deals and the end of short games
JUNK = ["", " ", "x", "99", "0000", "zz", "\x00", "é", "play_card x td", "bid", "-1", "1 2", "s", "ff"]


def new_game(variant: str, seed: int) -> GameState:
    module, options = VARIANTS[variant]
    return importlib.import_module(module).new_game(seed, **options)


def seen_actions(variant: str) -> list[str]:
    """Every action legal at some point of two random playouts: candidates that are legal in one
    state and not in another."""
    actions = set()
    for seed in (1, 2):
        state, rng = new_game(variant, seed), random.Random(seed)
        for _ in range(STEPS * 2):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            actions.update(legal)
            state.apply(rng.choice(legal))
    return sorted(actions)


CANDIDATES = {}


def candidates(variant: str) -> list[str]:
    if variant not in CANDIDATES:
        CANDIDATES[variant] = seen_actions(variant) + JUNK
    return CANDIDATES[variant]


def check_shape(state: GameState) -> None:
    players = state.num_players()
    assert len(state.returns()) == players
    assert all(isinstance(value, float) for value in state.returns())
    if state.is_terminal():
        assert state.current_player() == TERMINAL
    else:
        assert 0 <= state.current_player() < players
        assert state.legal_actions(), "a game that is not over has a move"
        assert all(isinstance(action, str) and action for action in state.legal_actions())


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 65535), data=st.data())
def test_random_legal_and_illegal_play_keeps_the_protocol(variant, seed, data):
    state = new_game(variant, seed)
    assert isinstance(state, GameState)
    pool = candidates(variant)
    for _ in range(STEPS):
        check_shape(state)
        if state.is_terminal():
            assert state.legal_actions() == []
            break
        legal = state.legal_actions()
        if data.draw(st.booleans(), label="legal"):
            action = data.draw(st.sampled_from(legal), label="action")
        else:
            action = data.draw(st.sampled_from(pool) | st.text(max_size=6), label="action")
        before, twin = str(state), state.clone()
        try:
            answer = state.apply(action)
        except MoveRefused as refusal:  # the one state API's refusal (Canfield has it already)
            answer = refusal.reason
        if action in legal:
            assert answer is None, f"{action!r} is legal but was refused: {answer}"
            assert str(twin) == before, "a clone changes with the state it was taken from"
        elif answer is not None:
            assert isinstance(answer, str) and answer.strip(), "a refusal says why"
            assert str(state) == before and state.legal_actions() == legal, "a refusal changed the state"
        elif action in pool:
            pytest.fail(f"{action!r} was taken though legal_actions() did not offer it: {legal}")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [7, 4242])
def test_random_playouts_end_with_returns_for_every_player(variant, seed):
    rng = random.Random(seed)
    state = playout(new_game(variant, seed), rng.choice)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert len(state.returns()) == state.num_players()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_deals_the_same_game(variant):
    assert str(new_game(variant, 31337)) == str(new_game(variant, 31337))
    assert str(new_game(variant, 31337)) != str(new_game(variant, 31338))
