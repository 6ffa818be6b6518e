"""The one shape every game's rules take, for the table's referee, the screens, the computer
players, the solvers and the benches alike (OpenSpiel's `State`, python-chess's `Outcome`).

A state has players numbered from 0. `legal_moves()` lists the moves of the player to move, as
text a player would type ("27" in Patience, "t1" in Canfield, "td" or "bid 4" in Spades); `apply`
makes one, or raises `MoveRefused` with the rules' own words and leaves the state as it was.
`outcome()` is None while the game goes on, then an `Outcome`: how it ended and what each player
got. `observation(player)` is everything `player` may see, and nothing more (another's hand never);
`current_player()` is TERMINAL once the game is over.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

TERMINAL = -1  # current_player() of a finished game


class MoveRefused(Exception):
    """A move the rules do not take; `reason` is the rules' own words for the player."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Termination(enum.Enum):
    """How a game (or a hand, for games of hands) ended."""

    WON = "won"  # the player (or side) in `winners` met the game's goal
    STUCK = "stuck"  # no move was left that could lead on
    GIVEN_UP = "given up"
    HAND_OVER = "hand over"  # every card played: `winners` took the most (or made the score)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: its `termination`, who won (`winners`, players by number; () for none)
    and `returns`, one number a player (what the game gave each)."""

    termination: Termination
    winners: tuple[int, ...]
    returns: tuple[float, ...]

    def result(self, player: int) -> str:
        """ "won" or "lost", for `player`."""
        return "won" if player in self.winners else "lost"


@runtime_checkable
class GameState(Protocol):
    def num_players(self) -> int: ...

    def current_player(self) -> int:
        """The player to move, from 0; TERMINAL once the game is over."""

    def legal_moves(self) -> list[str]:
        """The moves of the player to move, as typed; [] once the game is over."""

    def apply(self, move: str) -> None:
        """Make `move` for the player to move; MoveRefused (the state unchanged) when the rules refuse it."""

    def outcome(self) -> Outcome | None:
        """None while the game goes on, then how it ended."""

    def observation(self, player: int) -> str:
        """Everything `player` may see now, and nothing more."""

    def clone(self) -> GameState: ...

    def __str__(self) -> str: ...


def playout(state: GameState, choose) -> GameState:
    """Play `state` to its end, each move `choose(legal_moves)`; the finished state is returned."""
    while state.outcome() is None:
        try:
            state.apply(choose(state.legal_moves()))
        except MoveRefused as refused:
            raise RuntimeError(f"a legal move was refused: {refused.reason}") from refused
    return state
