"""Every game keeps the one game-state protocol (games/protocol.py) under random legal and illegal play."""

import importlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.protocol import TERMINAL, GameState, MoveRefused, Outcome, playout

VARIANTS = {
    "patience": ("games.patience", {}),
    "canfield": ("games.canfield", {}),
    "spades": ("games.spades", {}),
    "spades-full": ("games.spades", {"full_rules": True}),
}
CASES = list(VARIANTS)
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
            if state.outcome() is not None:
                break
            legal = state.legal_moves()
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
    outcome = state.outcome()
    assert all(isinstance(state.observation(player), str) for player in range(players))
    if outcome is not None:
        assert isinstance(outcome, Outcome) and state.current_player() == TERMINAL
        assert len(outcome.returns) == players and all(isinstance(value, float) for value in outcome.returns)
        assert all(0 <= player < players for player in outcome.winners)
    else:
        assert 0 <= state.current_player() < players
        assert state.legal_moves(), "a game that is not over has a move"
        assert all(isinstance(move, str) and move for move in state.legal_moves())


@pytest.mark.parametrize("variant", CASES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 65535), data=st.data())
def test_random_legal_and_illegal_play_keeps_the_protocol(variant, seed, data):
    state = new_game(variant, seed)
    assert isinstance(state, GameState)
    pool = candidates(variant)
    for _ in range(STEPS):
        check_shape(state)
        if state.outcome() is not None:
            assert state.legal_moves() == []
            break
        legal = state.legal_moves()
        if data.draw(st.booleans(), label="legal"):
            move = data.draw(st.sampled_from(legal), label="move")
        else:
            move = data.draw(st.sampled_from(pool) | st.text(max_size=6), label="move")
        before, twin = str(state), state.clone()
        try:
            state.apply(move)
        except MoveRefused as refused:
            assert move not in legal, f"{move!r} is legal but was refused: {refused.reason}"
            assert isinstance(refused.reason, str) and refused.reason.strip(), "a refusal says why"
            assert str(state) == before and state.legal_moves() == legal, "a refusal changed the state"
        else:
            assert move in legal or move not in pool, f"{move!r} was taken though not offered: {legal}"
            if move in legal:
                assert str(twin) == before, "a clone changes with the state it was taken from"


@pytest.mark.parametrize("variant", CASES)
@pytest.mark.parametrize("seed", [7, 4242])
def test_random_playouts_end_with_an_outcome_for_every_player(variant, seed):
    rng = random.Random(seed)
    state = playout(new_game(variant, seed), rng.choice)
    outcome = state.outcome()
    assert outcome is not None and state.current_player() == TERMINAL
    assert len(outcome.returns) == state.num_players()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_deals_the_same_game(variant):
    assert str(new_game(variant, 31337)) == str(new_game(variant, 31337))
    assert str(new_game(variant, 31337)) != str(new_game(variant, 31338))
