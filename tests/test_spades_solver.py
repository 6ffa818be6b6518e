"""The exact solver against a plain search of every line of play, on small endings."""

import random

import pytest

from games.cards import BY_NAME, NAMES
from games.spades.players.habits import rule_model
from games.spades.players.solver import BIT, CARD_OF_BIT, Solver, bits_of, legal_mask, trick_winner


def plain_value(hands, trick, to_play, side, policy, closed=False) -> int:
    """The side's tricks from here, every line tried: no table, no merging, no pruning."""
    if not trick and not hands[to_play]:
        return 0
    if policy is not None and to_play not in side:
        options = [policy(to_play, hands, trick, closed)]
    else:
        options = bits_of(legal_mask(hands[to_play], trick, closed))
    values = []
    for bit in options:
        after = list(hands)
        after[to_play] ^= 1 << bit
        played = trick + [(to_play, bit)]
        now_closed = closed and bit >= 13
        if len(played) == 4:
            winner = trick_winner(played)
            values.append((winner in side) + plain_value(after, [], winner, side, policy, now_closed))
        else:
            values.append(plain_value(after, played, (to_play + 1) % 4, side, policy, now_closed))
    return max(values) if to_play in side else min(values)


def ending(seed: int, size: int) -> list[int]:
    """Four hands of `size` cards from a few suits, so that following and trumping both happen."""
    rng = random.Random(seed)
    cards = rng.sample(range(52), 4 * size)
    hands = []
    for seat in range(4):
        mask = 0
        for card in cards[seat * size : (seat + 1) * size]:
            mask |= 1 << BIT[card]
        hands.append(mask)
    return hands


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("side, modelled", [({0}, False), ({0, 2}, False), ({1}, True), ({1, 3}, True)])
def test_solver_values_match_a_search_of_every_line(seed, side, modelled):
    size = 3 if seed % 2 else 4
    hands = ending(seed, size)
    policy = rule_model() if modelled else None
    leader = seed % 4
    closed = seed % 3 == 0
    solver = Solver(side, policy)
    assert solver.value(hands, [], leader, closed) == plain_value(hands, [], leader, side, policy, closed)
    if leader in side:
        for bit, value in solver.card_values(hands, [], leader, closed).items():
            after = list(hands)
            after[leader] ^= 1 << bit
            assert value == plain_value(after, [(leader, bit)], (leader + 1) % 4, side, policy, closed and bit >= 13)


def test_solver_values_a_trick_in_progress():
    # West led the king of hearts; north, third to play, holds the ace and the two: the ace takes
    # the trick, the two lets west have it and north never takes one
    held = {0: ["3d", "6d"], 1: ["4d"], 2: ["ah", "2h"], 3: ["5h", "9s"]}
    hands = [sum(1 << BIT[BY_NAME[name].index] for name in held[seat]) for seat in range(4)]
    trick = [(1, BIT[BY_NAME["kh"].index])]
    values = Solver({2}).card_values(hands, trick, 2)
    assert {NAMES[CARD_OF_BIT[bit]]: value for bit, value in values.items()} == {"ah": 1, "2h": 0}
