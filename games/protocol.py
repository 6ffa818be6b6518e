"""The one shape every game's rules take for players, solvers, tests and benchmarks.

`games.<name>.new_game(seed, **options)` returns a `GameState`. A move is text as a player would
type it ("27" in Patience, "t1" in Canfield, "td" in Spades); `apply` answers None when the move
is made, or the refusal text with the state unchanged. Players are numbered from 0;
`current_player()` is TERMINAL once the game is over. `returns()` has one number per player:
what the game gave them so far (final once `is_terminal()`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

TERMINAL = -1  # current_player() of a finished game


@runtime_checkable
class GameState(Protocol):
    def num_players(self) -> int: ...

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[str]: ...

    def apply(self, action: str) -> str | None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def clone(self) -> GameState: ...

    def __str__(self) -> str: ...


def playout(state: GameState, choose) -> GameState:
    """Play `state` to its end, each move `choose(legal_actions)`; the finished state is returned."""
    while not state.is_terminal():
        refusal = state.apply(choose(state.legal_actions()))
        if refusal is not None:
            raise RuntimeError(f"a legal action was refused: {refusal}")
    return state
