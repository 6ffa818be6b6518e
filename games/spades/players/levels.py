"""Computer players, one per level, weakest to strongest: a random legal card, the rule player
(`habits`), information-set Monte Carlo tree search (`mcts`), and guessed deals searched together
and solved exactly (`information_set`).

Players see a `views.View` (what one seat knows when it is to play) with cards as `games.cards`
numbers (`Card.index`), and answer a card number. Inside, they play with hand masks in trick order
(`solver.BIT`), where the rule player's habits and the exact solver work fast. They serve both the
seed's game and the full game (partnerships, bids, spades broken).
"""

import random
import time

from ...cards import NAMES
from ..rules import PLAYERS, Spades, seat_of
from .habits import habitual_card_of
from .information_set import SolverPlayer
from .mcts import SearchPlayer
from .views import View, seed_view


class RandomPlayer:
    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, view: View) -> int:
        return self.rng.choice(view.legal())


class RulePlayer:
    """The rule player (see `habits.rule_card`)."""

    name = "rules"

    def choose(self, view: View) -> int:
        return habitual_card_of(view)


LEVELS = {"random": RandomPlayer, "rules": RulePlayer, "mcts": SearchPlayer, "solver": SolverPlayer}


def make_player(level: str, rng: random.Random | None = None):
    """A computer player of `level` (one of LEVELS)."""
    if level == "random":
        return RandomPlayer(rng)
    if level == "rules":
        return RulePlayer()
    if level in ("mcts", "solver"):
        return LEVELS[level](rng=rng or random.Random())
    raise ValueError(f"no level {level!r}: choose from {', '.join(LEVELS)}")


def card_chosen(computer, view: View, hand: list[str]) -> str:
    """The name of the card `computer` chooses from `view` of a seat holding `hand` (the game's
    card names): the players number cards their own way, so the card is named by its place."""
    return dict(zip(view.hand, hand))[computer.choose(view)]


def play_seed_hand(deck, players: list, watch=None) -> tuple[list[int], list[list[float]]]:
    """Play one hand of the seed's game from `deck` (card names) with a computer player in each seat;
    `watch(seat, view, card)`, if given, sees each decision with a choice in it.

    Returns the tricks per seat and, per seat, the CPU seconds each decision with a choice took."""
    game = Spades(deck)
    times: list[list[float]] = [[] for _ in range(4)]
    while not game.finished:
        player = game.to_play
        seat = seat_of(player)
        view = seed_view(game, player)
        started = time.process_time()
        card = players[seat].choose(view)
        if len(view.legal()) > 1:
            times[seat].append(time.process_time() - started)
            if watch:
                watch(seat, view, card)
        accepted, refusal = game.play_card(player, NAMES[card])
        if not accepted:
            raise RuntimeError(f"{players[seat].name} player chose a card the rules refuse: {refusal}")
    scores = game.scores()
    return [scores[player] for player in PLAYERS], times
