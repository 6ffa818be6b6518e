"""The information-set search over guessed deals: exact on one deal, never above solving each deal
alone, and below it where a plan would need to know which deal it is."""

import random

import pytest

from games.spades.players.habits import Deal, rule_model
from games.spades.players.information_set import InformationSetSearch
from games.spades.players.solver import Budget, Solver, bits_of
from tests.test_spades_solver import ending

UNLIMITED = 10**18  # steps: more than any search here needs


def guesses(seed: int, size: int, seat: int, count: int) -> list[list[int]]:
    """`count` deals that `seat` cannot tell apart: its own hand kept, two cards of two other seats
    swapped (deals that close tend to look alike for a trick or more)."""
    hands = ending(seed, size)
    rng = random.Random(seed)
    deals = [hands]
    while len(deals) < count:
        a, b = rng.sample([other for other in range(4) if other != seat], 2)
        swap = 1 << rng.choice(bits_of(hands[a])) | 1 << rng.choice(bits_of(hands[b]))
        dealt = list(hands)
        dealt[a], dealt[b] = hands[a] ^ swap, hands[b] ^ swap
        deals.append(dealt)
    return deals


def deals_at(hands_list, seat: int) -> list[Deal]:
    return [Deal(list(hands), [], seat, [0] * 4, False, rule_model()) for hands in hands_list]


def solved_totals(hands_list, seat: int) -> dict[int, int]:
    """Each deal solved alone with every card known, its values after each card added up."""
    totals = {}
    for hands in hands_list:
        for bit, value in Solver({seat}, rule_model()).card_values(hands, [], seat).items():
            totals[bit] = totals.get(bit, 0) + value
    return totals


@pytest.mark.parametrize("seed", range(20))
def test_on_one_deal_the_search_is_the_exact_solution(seed):
    seat, size = seed % 4, 3 + seed % 2
    hands = [ending(seed, size)]
    worth = [int(other == seat) for other in range(4)]
    deals = deals_at(hands, seat)
    played_out = InformationSetSearch(seat, worth, None, Budget(UNLIMITED)).card_totals(deals, [1.0], size)
    solver = Solver({seat}, rule_model(), worth)
    solved_below = InformationSetSearch(seat, worth, solver, Budget(UNLIMITED)).card_totals(deals, [1.0], 1)
    assert played_out == solved_below == solved_totals(hands, seat)


def test_the_search_never_values_a_card_above_solving_each_deal_and_sometimes_below():
    below = 0
    for seed in range(100):
        seat, size = seed % 4, 4
        hands_list = guesses(seed, size, seat, 6)
        worth = [int(other == seat) for other in range(4)]
        search = InformationSetSearch(seat, worth, None, Budget(UNLIMITED))
        totals = search.card_totals(deals_at(hands_list, seat), [1.0] * 6, size)
        solved = solved_totals(hands_list, seat)
        assert totals.keys() == solved.keys()
        assert all(totals[bit] <= solved[bit] for bit in totals)
        below += any(totals[bit] < solved[bit] for bit in totals)
    assert below >= 3
