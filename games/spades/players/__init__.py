"""Spades' computer players, apart from the rules: the levels (`levels`), the rule player's habits
(`habits`), guessed deals (`guesses`), the search over guessed deals (`information_set`), Monte Carlo
tree search (`mcts`), the exact double-dummy solver (`solver`), bidding from sampled play
(`bidding`) and what a seat knows at its turn (`views`).

Players that only measure (they see every hand, or play habits other than ours) live with the
benches: `tools/spades_seeing.py`, `tools/spades_opponents.py`.
"""

from .levels import LEVELS, RandomPlayer, RulePlayer, card_chosen, make_player, play_seed_hand

__all__ = ["LEVELS", "RandomPlayer", "RulePlayer", "card_chosen", "make_player", "play_seed_hand"]
