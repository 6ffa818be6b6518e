"""The solver level: guessed deals searched together by information set, solved exactly near the
end of the hand (`solver.Solver`), within a budget of work."""

import random
from dataclasses import dataclass, field

from .guesses import HabitCheck, habit_guesses
from ...cards import trick_rank
from .habits import Deal, habitual_card_of, model_for
from .solver import CARD_OF_BIT, SPADES_BELOW, Budget, OutOfWork, Solver, mask_of
from .views import View


# In points a nil is 100 made and -100 broken: its first trick swings 200, as much as twenty tricks
# of a contract, where a later trick is only a bag. A trick is worth what follows (a whole number:
# the exact solver counts in steps of one).
NIL_TRICK_WORTH = -10  # a trick taken by our own nil bidder while its nil stands: it breaks it
SET_NIL_WORTH = 8  # a trick taken by an opposing nil bidder while its nil stands: it sets it
BAG_WORTH = -1  # a trick past our contract: one point, and a tenth of the 100 that ten bags cost


def trick_worth(view: View) -> list[int]:
    """What a trick won by each seat is worth to `view`'s side: its own tricks (and its partner's)
    1; in the full game a trick our standing nil takes costs NIL_TRICK_WORTH, one an opposing
    standing nil takes pays SET_NIL_WORTH, and a broken nil's tricks count for nothing (they are
    bags, and help no contract). Once our contract is made, our tricks are bags (BAG_WORTH), unless
    the other side still needs half of the tricks left or more: those are worth taking, to set it.
    A nil's tricks are worth in proportion to nil's value at the table (these at 100)."""
    worth = []
    nil_scale = view.rules.nil / 100
    made = False
    if view.bids is not None:
        theirs = view.tricks_needed(view.opponents)
        made = view.tricks_needed(view.side) <= 0 and not (theirs > 0 and 2 * theirs >= len(view.hand))
    for seat in range(4):
        nil = view.bids is not None and view.bids[seat] == 0
        if nil and view.taken[seat]:
            worth.append(0)
        elif seat in view.side:
            worth.append(round(NIL_TRICK_WORTH * nil_scale) if nil else BAG_WORTH if made else 1)
        else:
            worth.append(round(SET_NIL_WORTH * nil_scale) if nil else 0)
    return worth


MOST_STEPS = 200_000  # the solver level's work a decision (see Budget): at most about 1.6 s of CPU here


@dataclass
class SolverPlayer:
    """Sampled deals searched by information set: `samples` guesses at the hidden hands, consistent
    with what this seat has seen (its cards, every card played, who showed out) and drawn in
    proportion to how well they explain the other seats' plays by the rule player's habits
    (`habit_guesses`: `chains` Metropolis chains of `sweeps` swaps a seat, a play unexplained costing
    a factor `mismatch`), then searched together (`InformationSetSearch`) `depth` turns of this seat
    deep: a card is chosen once for all the guesses that this seat could not yet tell apart, so that
    no plan leans on knowing which guess is the deal. Past that depth each guess is played out by the
    rule player's habits, or, once this seat holds `exact_within` cards or fewer, solved exactly
    (`Solver`: this seat, and its partner in the full game, choose their cards; the other seats play
    by the habits). The card played has the best weighted mean of what this side takes from here on
    (tricks; in the full game nil tricks count as `trick_worth` says); equal cards go to the lowest
    (a spade last). The search deepens a turn at a time; should it pass `most_steps` of work (a step
    a card played out or a position solved: work, not time, so that a decision is the same every
    time), the deepest search finished decides (and with none finished, the rule player's card)."""

    samples: int = 30
    chains: int = 6
    sweeps: int = 30
    most_steps: int = MOST_STEPS
    exact_within: int = 7
    depth: int = 2
    mismatch: float = 0.001
    rng: random.Random = field(default_factory=random.Random)
    name = "solver"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        budget = Budget(self.most_steps)
        guesses, weights = self.guesses(view)
        policy, worth = model_for(view), trick_worth(view)
        solver = Solver(view.side, policy, worth, budget) if len(view.hand) <= self.exact_within else None
        search = InformationSetSearch(view.seat, worth, solver, budget)
        deals = [
            Deal([mask_of(hand) for hand in guess], view.trick_bits(), view.seat, [0] * 4, view.spades_closed, policy)
            for guess in guesses
        ]
        totals = None
        for depth in range(1, self.depth + 1):
            try:
                totals = search.card_totals(deals, weights, depth)
            except OutOfWork:
                break
        if totals is None:
            return habitual_card_of(view)
        return CARD_OF_BIT[max(totals, key=lambda bit: (totals[bit], -trick_rank(bit), bit >= SPADES_BELOW))]

    def guesses(self, view: View) -> tuple[list[list[list[int]]], list[float]]:
        """The guesses weighted by the rule player's habits; when none explains every play seen, the
        seats whose plays no guess explains do not play by those habits (a person, another level),
        and the guesses are drawn again by the habits of the others only."""
        judged = set(range(4)) - view.side
        guesses, weights = habit_guesses(view, judged, self.rng, self.samples, self.chains, self.sweeps, self.mismatch)
        if max(weights) < 1:
            habitual = HabitCheck(view, judged).habitual_seats(guesses)
            return habit_guesses(view, habitual, self.rng, self.samples, self.chains, self.sweeps, self.mismatch)
        return guesses, weights


class InformationSetSearch:
    """`seat`'s cards chosen over several guessed deals at once, the other seats playing by the
    habits in each. After each card the guesses are split by what `seat` then sees (the other seats'
    cards up to its next turn); each part, a set of deals it cannot tell apart, gets one card at that
    turn: the one best for that part's weighted total. Unlike solving each guess alone and averaging,
    this never credits a plan that would need to know the deal. Below the search each deal is solved
    exactly by `solver` (if given) or played out by the habits; a deal's value is what the tricks won
    from the start are worth to `seat`'s side (`worth`). Each card played and each position solved is
    spent from `budget`; raises OutOfWork when it is used up."""

    def __init__(self, seat: int, worth: list[int], solver: Solver | None, budget: Budget):
        self.seat, self.worth, self.solver, self.budget = seat, worth, solver, budget

    def card_totals(self, deals: list[Deal], weights: list[float], depth: int) -> dict[int, float]:
        """The weighted total value after each card `seat` may play now (all `deals` at its turn)."""
        return {
            bit: weighted_total(weights, values)
            for bit, values in self._values_after_each_card(deals, weights, depth).items()
        }

    def _values_after_each_card(self, deals, weights, depth) -> dict[int, list[float]]:
        values_after = {}
        for bit in deals[0].legal():
            values = [0.0] * len(deals)
            parts: dict = {}
            for index, deal in enumerate(deals):
                deal = deal.copy()
                deal.play(bit)
                seen = []
                while not deal.over() and deal.to_play != self.seat:
                    card = deal.habitual_card()
                    seen.append(card)
                    deal.play(card)
                self.budget.spend(1 + len(seen))
                parts.setdefault(tuple(seen), []).append((index, deal))
            for part in parts.values():
                part_deals = [deal for _, deal in part]
                if depth == 1 or part_deals[0].over():
                    part_values = [self._value_below(deal) for deal in part_deals]
                else:
                    part_values = self._best_values(part_deals, [weights[index] for index, _ in part], depth - 1)
                for (index, _), value in zip(part, part_values):
                    values[index] = value
            values_after[bit] = values
        return values_after

    def _best_values(self, deals, weights, depth) -> list[float]:
        """Each deal's value when `seat` plays the card best for these deals taken together."""
        values_after = self._values_after_each_card(deals, weights, depth)
        best = max(values_after, key=lambda bit: weighted_total(weights, values_after[bit]))
        return values_after[best]

    def _value_below(self, deal: Deal) -> float:
        if self.solver and not deal.over():
            return self._won(deal) + self.solver.value(deal.hands, deal.trick, deal.to_play, deal.spades_closed)
        self.budget.spend(bin(deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]).count("1"))
        deal.play_out()
        return self._won(deal)

    def _won(self, deal: Deal) -> int:
        return sum(worth * tricks for worth, tricks in zip(self.worth, deal.taken))


def weighted_total(weights: list[float], values: list[float]) -> float:
    return sum(weight * value for weight, value in zip(weights, values))
