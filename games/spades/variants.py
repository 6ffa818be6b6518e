"""The games a table plays, as rules variants of one shape: the seed's game (hand after hand, most
tricks wins, the hands won counted) and the full game (partners, bidding, nil, bags, game to 500).

A variant deals a hand as a state (`rules.SpadesState`, or deals again the hand a saved table was
playing), says a computer seat's move as a move ("td", "bid 4", "nil", "blind nil"), counts a
finished hand, and keeps its standing as plain data; the table (`seats.SpadesTable`) does
everything else the same way for both.
"""

import random

from .full_rules import BLIND_NIL, FullMatch, FullSpades, bid_move, choose_bid, gambles_blind_nil, partner_of, team_of
from .players import card_chosen
from .players.bidding import sampled_bid
from .players.views import full_view, seed_view
from .rules import PLAYERS, Spades, SpadesState, seat_of


class SeedGame:
    """The seed's game: each hand stands alone; the table counts the hands each seat has won."""

    full = False

    def __init__(self, rng: random.Random, level: str, hands_won: list[int] | None = None):
        self.hands_won = hands_won or [0] * len(PLAYERS)

    def deal(self, deck: list[str]) -> SpadesState:
        return SpadesState(game=Spades(deck))

    redeal = deal  # a saved hand is dealt again from its deck just the same

    def computer_move(self, computer, game: Spades, player: str) -> str:
        return card_chosen(computer, seed_view(game, player), game.hand(player))

    def hand_over(self, state: SpadesState) -> None:
        for seat in state.outcome().winners:
            self.hands_won[seat] += 1

    def saved(self) -> dict:
        return {"hands_won": list(self.hands_won)}

    @classmethod
    def from_saved(cls, data: dict, rng: random.Random, level: str) -> "SeedGame":
        hands_won = data["hands_won"]
        if not (isinstance(hands_won, list) and len(hands_won) == len(PLAYERS)
                and all(type(count) is int and count >= 0 for count in hands_won)):
            raise ValueError("not the hands won of four seats")
        return cls(rng, level, hands_won)


class FullGame:
    """The full game to 500, seats 0 and 2 against 1 and 3; a new game follows one that is over.
    With `blind_nil`, a partnership 100 or more behind may bid nil before seeing its cards (each
    seat's screen keeps them face down until its player says whether to)."""

    full = True

    def __init__(self, rng: random.Random, level: str, match: FullMatch | None = None, blind_nil: bool = False):
        self.rng, self.level = rng, level
        self.match = match or FullMatch(blind_nil)

    def deal(self, deck: list[str]) -> SpadesState:
        if self.match.over:
            self.match = FullMatch(self.match.blind_nil)
        return SpadesState(game=self.match.new_hand(deck))

    def redeal(self, deck: list[str]) -> SpadesState:
        """The hand a saved table was playing: its dealer is the match's dealer already."""
        return SpadesState(game=FullSpades(deck, self.match.dealer, self.match.blind_nil_teams()))

    def computer_move(self, computer, game: FullSpades, player: str) -> str:
        """A bid while bidding (blind nil as a comeback where it may; else the strongest level's
        from sampled play, the others' by rule), else a card chosen knowing the bids."""
        hand = game.hand(player)
        if game.bidding:
            partner_bid = game.bids[partner_of(player)]
            if game.may_bid_blind_nil(player) and gambles_blind_nil(self.match.scores, team_of(player), partner_bid):
                return BLIND_NIL
            if self.level != "solver":
                return bid_move(choose_bid(hand, partner_bid))
            leader = (seat_of(game.dealer) + 1) % len(PLAYERS)
            return bid_move(sampled_bid(hand, seat_of(player), leader, partner_bid, self.rng))
        return card_chosen(computer, full_view(game, player), hand)

    def hand_over(self, state: SpadesState) -> None:
        self.match.score(state.game)

    def saved(self) -> dict:
        return {"match": self.match.saved(), "blind_nil": self.match.blind_nil}

    @classmethod
    def from_saved(cls, data: dict, rng: random.Random, level: str, blind_nil: bool | None = None) -> "FullGame":
        """The standing `saved` kept, played with or without blind nil as kept, unless `blind_nil`
        says otherwise."""
        blind_nil = data.get("blind_nil", False) if blind_nil is None else blind_nil
        if type(blind_nil) is not bool:
            raise ValueError("not a game of Spades")
        match = FullMatch.from_saved(data["match"], blind_nil)
        if not all(isinstance(hand, dict) and isinstance(hand.get("points"), list) and len(hand["points"]) == 2
                   and all(type(points) is int for points in hand["points"]) for hand in match.history):
            raise ValueError("not the hands of a game of Spades")
        return cls(rng, level, match)


def variant(full: bool, rng: random.Random, level: str, saved: dict | None = None, blind_nil: bool | None = None):
    """The full game or the seed's, new or (from `saved`) as a table kept it, with or without blind
    nil as `blind_nil` says (None: as kept; new, without); ValueError for saved data that is not a
    variant's."""
    if not full:
        return SeedGame(rng, level) if saved is None else SeedGame.from_saved(saved, rng, level)
    if saved is None:
        return FullGame(rng, level, blind_nil=bool(blind_nil))
    return FullGame.from_saved(saved, rng, level, blind_nil)
