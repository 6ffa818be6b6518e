"""The games a table plays, as rules variants of one shape: the seed's game (hand after hand, most
tricks wins, the hands won counted) and the full game (partners, bidding, nil, bags, game to 500).

A variant deals a hand as a state (`rules.SpadesState`, or deals again the hand a saved table was
playing), says a computer seat's move as a move ("td", "bid 4", "nil", "blind nil"), counts a
finished hand, and keeps its standing as plain data; the table (`seats.SpadesTable`) does
everything else the same way for both.
"""

import dataclasses
import random

from .full_rules import BLIND_NIL, FullMatch, FullSpades, bid_move, choose_bid, gambles_blind_nil, partner_of, team_of
from .house_rules import HouseRules
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
        if not (
            isinstance(hands_won, list)
            and len(hands_won) == len(PLAYERS)
            and all(type(count) is int and count >= 0 for count in hands_won)
        ):
            raise ValueError("not the hands won of four seats")
        return cls(rng, level, hands_won)


class FullGame:
    """The full game to 500 (or as the house `rules` say), seats 0 and 2 against 1 and 3; a new game
    follows one that is over. With blind nil, a partnership 100 or more behind may bid nil before
    seeing its cards (each seat's screen keeps them face down until its player says whether to)."""

    full = True

    def __init__(
        self,
        rng: random.Random,
        level: str,
        match: FullMatch | None = None,
        blind_nil: bool = False,
        rules: HouseRules | None = None,
    ):
        self.rng, self.level = rng, level
        self.match = match or FullMatch(blind_nil, rules)

    @property
    def rules(self) -> HouseRules:
        return self.match.rules

    def deal(self, deck: list[str]) -> SpadesState:
        if self.match.over:
            self.match = FullMatch(rules=self.match.rules)
        return SpadesState(game=self.match.new_hand(deck))

    def redeal(self, deck: list[str]) -> SpadesState:
        """The hand a saved table was playing: its dealer is the match's dealer already."""
        return SpadesState(game=FullSpades(deck, self.match.dealer, self.match.blind_nil_teams(), self.rules))

    def computer_move(self, computer, game: FullSpades, player: str) -> str:
        """A bid while bidding (blind nil as a comeback where it may; else the strongest level's
        from sampled play, the others' by rule), else a card chosen knowing the bids; each judged by
        the table's rules."""
        hand, rules = game.hand(player), game.rules
        if game.bidding:
            partner_bid = game.bids[partner_of(player)]
            if game.may_bid_blind_nil(player) and gambles_blind_nil(
                self.match.scores, team_of(player), partner_bid, rules
            ):
                return BLIND_NIL
            if self.level != "solver":
                return bid_move(choose_bid(hand, partner_bid, rules))
            leader = (seat_of(game.dealer) + 1) % len(PLAYERS)
            return bid_move(sampled_bid(hand, seat_of(player), leader, partner_bid, self.rng, rules=rules))
        return card_chosen(computer, full_view(game, player), hand)

    def hand_over(self, state: SpadesState) -> None:
        self.match.score(state.game)

    def saved(self) -> dict:
        return {"match": self.match.saved(), "blind_nil": self.match.blind_nil}

    @classmethod
    def from_saved(
        cls, data: dict, rng: random.Random, level: str, blind_nil: bool | None = None, rules: HouseRules | None = None
    ) -> "FullGame":
        """The standing `saved` kept, under `rules` (None: the usual ones), played with or without
        blind nil as kept, unless `blind_nil` says otherwise."""
        blind_nil = data.get("blind_nil", False) if blind_nil is None else blind_nil
        if type(blind_nil) is not bool:
            raise ValueError("not a game of Spades")
        rules = rules or HouseRules()
        if rules.nil_allowed:
            rules = dataclasses.replace(rules, blind_nil=blind_nil)
        match = FullMatch.from_saved(data["match"], rules=rules)
        if not all(
            isinstance(hand, dict)
            and isinstance(hand.get("points"), list)
            and len(hand["points"]) == 2
            and all(type(points) is int for points in hand["points"])
            for hand in match.history
        ):
            raise ValueError("not the hands of a game of Spades")
        return cls(rng, level, match)


def variant(
    rules: HouseRules, rng: random.Random, level: str, saved: dict | None = None, blind_nil: bool | None = None
):
    """The full game (under `rules`) or the seed's (`rules.no_bids`), new or (from `saved`) as a
    table kept it, with or without blind nil as `blind_nil` says (None: as the rules say, or as
    kept); ValueError for saved data that is not a variant's."""
    if rules.no_bids:
        return SeedGame(rng, level) if saved is None else SeedGame.from_saved(saved, rng, level)
    if saved is None:
        if blind_nil is not None and rules.nil_allowed:
            rules = dataclasses.replace(rules, blind_nil=blind_nil)
        return FullGame(rng, level, rules=rules)
    return FullGame.from_saved(saved, rng, level, blind_nil, rules)
