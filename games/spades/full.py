"""The full game of Spades, beyond the seed: partners, bidding, nil, bags, game to 500.

You (player_0) and north (player_2) play against west and east (player_1, player_3). After the deal
each player bids, starting left of the dealer, how many tricks they will take; 0 is nil. Then the
player left of the dealer leads. Spades may not be led until a spade has been played (unless the
leader holds nothing else).

Scoring, per partnership and hand: a contract (the two bids added, nil bids left out) that is made
scores 10 a trick bid and 1 for each trick over (a bag); one that fails loses 10 a trick bid. A nil
scores 100 if the nil bidder takes no trick, else loses 100, and its tricks are bags. Every 10 bags
cost 100 points. The first partnership at 500 or more after a hand wins (a tie plays on).

Messages: `bid <0-13>` and the seed's `play_card <word> <card>`.
"""

from .cards import SPADES, rank_of, suit_of
from .engine import PLAYERS, Spades, message_words

TEAMS = (("player_0", "player_2"), ("player_1", "player_3"))
TEAM_NAMES = ("US", "THEM")
GAME_POINTS = 500
NIL_POINTS = 100
BAGS_PER_PENALTY, BAG_PENALTY = 10, 100


def team_of(player: str) -> int:
    return 0 if player in TEAMS[0] else 1


def partner_of(player: str) -> str:
    first, second = TEAMS[team_of(player)]
    return second if player == first else first


def hand_points(bids: dict[str, int], taken: dict[str, int]) -> list[tuple[int, int]]:
    """(points, bags) of each partnership for one hand, bag penalties not yet applied."""
    result = []
    for team in TEAMS:
        points = bags = 0
        contract = sum(bids[player] for player in team if bids[player])
        made = sum(taken[player] for player in team if bids[player])
        for player in team:
            if not bids[player]:
                points += NIL_POINTS if not taken[player] else -NIL_POINTS
                bags += taken[player]
        if contract and made >= contract:
            points += 10 * contract
            bags += made - contract
        elif contract:
            points -= 10 * contract
        elif made:
            bags += made
        result.append((points + bags, bags))
    return result


class FullSpades(Spades):
    """One hand of the full game: the seed's play with bidding first and spades to be broken."""

    def __init__(self, deck, dealer: str):
        super().__init__(deck)
        self.dealer = dealer
        self.bids: dict[str, int | None] = {player: None for player in PLAYERS}
        while self._play_order[0] != dealer:
            self._play_order.append(self._play_order.pop(0))
        self._play_order.append(self._play_order.pop(0))  # left of the dealer bids and leads first
        self.spades_broken = False

    @property
    def bidding(self) -> bool:
        return None in self.bids.values()

    def receive(self, player: str, message: str) -> tuple[bool, str | None]:
        words = message_words(message)
        if len(words) == 2 and words[0] == "bid":
            return self.bid(player, words[1])
        return super().receive(player, message)

    def bid(self, player: str, amount: str | int) -> tuple[bool, str | None]:
        if not self.bidding:
            return False, "bidding is over"
        if player != self._play_order[0]:
            return False, f"not player turn: {player}"
        if str(amount) not in {str(number) for number in range(14)}:
            return False, f"not a bid: {amount}"
        self.bids[player] = int(amount)
        self._play_order.append(self._play_order.pop(0))
        return True, None

    def refusal(self, player: str, card: str) -> str | None:
        if self.bidding:
            return "bid first"
        refusal = super().refusal(player, card)
        if refusal is None and self._suit_led is None and suit_of(card) == SPADES and not self.spades_broken \
                and any(suit_of(held) != SPADES for held in self._hands[player]):
            return f"spades not broken: {card}"
        return refusal

    def play_card(self, player: str, card: str) -> tuple[bool, str | None]:
        accepted, refusal = super().play_card(player, card)
        if accepted and suit_of(card) == SPADES:
            self.spades_broken = True
        return accepted, refusal

    def state(self) -> dict:
        return super().state() | {"bids": dict(self.bids), "spades_broken": self.spades_broken,
                                  "dealer": self.dealer}

    def points(self) -> list[tuple[int, int]]:
        return hand_points(self.bids, self.scores())


class FullMatch:
    """Hands until a partnership reaches 500: the running scores, bags and dealer."""

    def __init__(self):
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.dealer = PLAYERS[-1]
        self.history: list[dict] = []

    def new_hand(self, deck) -> FullSpades:
        self.dealer = PLAYERS[(PLAYERS.index(self.dealer) + 1) % 4]
        return FullSpades(deck, self.dealer)

    def score(self, hand: FullSpades) -> list[int]:
        """Add a finished hand's points; each team's change (bag penalties included)."""
        if not hand.finished:
            raise ValueError("the hand is not finished")
        changes = []
        for team, (points, bags) in enumerate(hand.points()):
            self.bags[team] += bags
            while self.bags[team] >= BAGS_PER_PENALTY:
                self.bags[team] -= BAGS_PER_PENALTY
                points -= BAG_PENALTY
            self.scores[team] += points
            changes.append(points)
        self.history.append({"bids": dict(hand.bids), "taken": hand.scores(), "points": changes})
        return changes

    def saved(self) -> dict:
        """The match as plain data, to keep between sessions."""
        return {"scores": self.scores, "bags": self.bags, "dealer": self.dealer, "history": self.history}

    @classmethod
    def from_saved(cls, data) -> "FullMatch":
        """A match kept by `saved`; ValueError when `data` is not one."""
        match = cls()
        try:
            scores, bags, dealer, history = data["scores"], data["bags"], data["dealer"], data["history"]
        except (KeyError, TypeError):
            raise ValueError("not a saved game of Spades") from None
        pairs_of_numbers = all(isinstance(pair, list) and len(pair) == 2
                               and all(type(value) is int for value in pair) for pair in (scores, bags))
        if not pairs_of_numbers or dealer not in PLAYERS or not isinstance(history, list) \
                or not all(0 <= bag < BAGS_PER_PENALTY for bag in bags):
            raise ValueError("not a saved game of Spades")
        match.scores, match.bags, match.dealer, match.history = scores, bags, dealer, history
        return match

    @property
    def winner(self) -> int | None:
        """The winning partnership (0 = you and north), once one has 500 and more than the other."""
        if max(self.scores) >= GAME_POINTS and self.scores[0] != self.scores[1]:
            return 0 if self.scores[0] > self.scores[1] else 1
        return None


def estimate_tricks(hand: list[str]) -> float:
    """Tricks a hand should take: high spades and length in spades, side aces and guarded kings."""
    by_suit = {suit: sorted((rank_of(card) for card in hand if suit_of(card) == suit), reverse=True)
               for suit in "shdc"}
    spades = by_suit[SPADES]
    tricks = 0.0
    for position, rank in enumerate(spades):
        if rank >= 14 - position or (rank >= 12 and len(spades) >= 3):
            tricks += 1  # top spades, or a queen or king with length to guard it
        elif position >= 3:
            tricks += 0.8  # length in trumps
    for suit in "hdc":
        ranks = by_suit[suit]
        if 14 in ranks:
            tricks += 1 if len(ranks) <= 6 else 0.5
        if 13 in ranks and len(ranks) >= 2:
            tricks += 0.7 if len(ranks) <= 5 else 0.3
        if not ranks and len(spades) >= 3:
            tricks += 0.5  # a void to trump in
    return tricks


def choose_bid(hand: list[str], partner_bid: int | None) -> int:
    """A computer player's bid: its estimate, or nil with a hand that can hardly win a trick."""
    tricks = estimate_tricks(hand)
    high_spade = any(suit_of(card) == SPADES and card[0] in "tjqka" for card in hand)
    spades = sum(suit_of(card) == SPADES for card in hand)
    if tricks < 0.8 and not high_spade and spades <= 3 and partner_bid != 0:
        return 0
    bid = max(1, round(tricks))
    if partner_bid:
        bid = min(bid, 13 - partner_bid)
    return max(1, bid)
