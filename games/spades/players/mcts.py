"""The mcts level: information-set Monte Carlo tree search over guessed deals."""

import math
import random
from dataclasses import dataclass, field

from ..rules import TRICKS_IN_A_HAND
from .guesses import HabitCheck, consistent_deal, guessed_deal
from .habits import Deal
from .solver import BIT, CARD_OF_BIT
from .views import View, full_outcome, win_shares


class Node:
    """One of the searching seat's own decisions: its statistics and the decisions after it."""

    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0  # how often this node's card was legal when its parent was reached
        self.reward = 0.0


@dataclass
class SearchPlayer:
    """Information-set Monte Carlo tree search.

    Each iteration takes a guess at the hidden hands, consistent with what this seat has seen (its
    own cards, every card played, who has shown out of which suit): it draws `pool` such guesses and
    weighs each by how well it explains the plays so far of the others that play by the rule
    player's habits (`HabitCheck.habitual_seats`: the best of the guesses explains them all), and each
    iteration picks one by weight. In that guess it tries every card this seat may play now, so that
    the cards are compared on equal terms. After that card the other seats play by the rule
    player's habits (the model of the opponents), and this seat's own later cards are chosen in a
    tree of its decisions, among those legal in the guess (UCB1 with availability counts); a new node
    is added and the hand played out by the habits. Every node on the way is credited with this
    seat's result (`outcome`).

    The think budget is `iterations` guesses (a count, not a time: the same decision every time).
    """

    iterations: int = 60
    exploration: float = 0.3
    pool: int = 300
    mismatch: float = 0.3
    rng: random.Random = field(default_factory=random.Random)
    outcome: object = None  # tricks taken per seat -> reward per seat in [0, 1]; default: the view's game's
    name = "mcts"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        outcome = self.outcome or (seed_outcome if view.bids is None else full_outcome(view.bids, view.rules))
        root = {BIT[card]: Node() for card in legal}
        guesses = [consistent_deal(view, self.rng) for _ in range(self.pool)]
        check = HabitCheck(view, range(4))
        habitual = check.habitual_seats(guesses)
        weights = [check.agreement(hands, self.mismatch, habitual) for hands in guesses]
        for _ in range(self.iterations):
            hands = self.rng.choices(guesses, weights)[0]
            for bit, node in root.items():
                deal = guessed_deal(view, hands)
                deal.play(bit)
                node.available += 1
                reward = self._descend(node, deal, view.seat, outcome)
                node.visits += 1
                node.reward += reward
        return CARD_OF_BIT[max(root, key=lambda bit: root[bit].reward / root[bit].visits)]

    def _descend(self, node: Node, deal: Deal, seat: int, outcome) -> float:
        """Play on from `node` to the end of the hand in this guess; update the tree below; the reward."""
        path = []
        while not deal.over():
            if deal.to_play != seat:
                deal.play(deal.habitual_card())
                continue
            legal = deal.legal()
            children = node.children
            for bit in legal:
                if bit in children:
                    children[bit].available += 1
            untried = [bit for bit in legal if bit not in children]
            if untried:
                bit = self.rng.choice(untried)
                node = children[bit] = Node()
                node.available = 1
                deal.play(bit)
                path.append(node)
                break
            bit = max(legal, key=lambda option: self._ucb(children[option]))
            node = children[bit]
            deal.play(bit)
            path.append(node)
        deal.play_out()
        reward = outcome(deal.taken)[seat]
        for visited in path:
            visited.visits += 1
            visited.reward += reward
        return reward

    def _ucb(self, child: Node) -> float:
        return child.reward / child.visits + self.exploration * math.sqrt(math.log(child.available) / child.visits)


def seed_outcome(taken: list[int]) -> list[float]:
    """The seed game's reward: half for the win (shared on a tie), half for the tricks."""
    return [0.5 * share + 0.5 * tricks / TRICKS_IN_A_HAND for share, tricks in zip(win_shares(taken), taken)]
