"""The full game of Spades, beyond the seed: partners, bidding, nil, blind nil, bags, game to 500.

You (player_0) and north (player_2) play against west and east (player_1, player_3). After the deal
each player bids, starting left of the dealer, how many tricks they will take: 1-13, or nil (none
at all); a partnership's two bids come to 13 at most. Then the player left of the dealer leads.
Spades may not be led until a spade has been played (unless the leader holds nothing else).

Scoring, per partnership and hand: a contract (the two bids added, nil bids left out) that is made
scores 10 a trick bid and 1 for each trick over (a bag); one that fails loses 10 a trick bid. A nil
scores 100 if the nil bidder takes no trick, else loses 100; a failed nil's tricks are bags and do
not count toward the partner's bid. Every 10 bags cost 100 points. After a hand in which a
partnership reaches 500 or falls to -200, the game is over and the higher score wins (a tie plays
on).

A table's house rules (`house_rules.HouseRules`, given as `rules`) change these numbers: the game's
length, the bags and their penalty, nil's value (or no nil), "10 for 200" and a partnership's
minimum contract; the numbers above are `HouseRules()`'s.

Blind nil, when the game allows it: a player whose partnership trails by 100 or more may bid nil
before looking at their cards, for 200 points made or lost instead of 100. Seeing the cards is the
table's business; the rules know only who may bid it.

Messages: `bid <1-13>`, `bid nil`, `bid blind nil`, and the seed's `play_card <word> <card>`.
Moves (`make`, the state API): "bid 4", "nil", "blind nil" (and "bid nil", "bid 0" as the message
says them), and card names ("td").
"""

from ..cards import BY_NAME, Suit
from ..protocol import MoveRefused, Outcome, Termination
from .house_rules import HouseRules
from .rules import (
    PLAYERS,
    FourPlayerState,
    Spades,
    card_refusal,
    dealing_rng,
    hand_text,
    message_words,
    shuffled_deck,
    suit_of,
)

TEAMS = (("player_0", "player_2"), ("player_1", "player_3"))
TEAM_NAMES = ("US", "THEM")
GAME_POINTS = 500  # a partnership with this many after a hand ends the game
LOSING_POINTS = -200  # ... and so does one with this few
NIL_POINTS, BLIND_NIL_POINTS = 100, 200
BLIND_NIL_DEFICIT = 100  # how far behind a partnership must be for its players to bid blind nil
BAGS_PER_PENALTY, BAG_PENALTY = 10, 100
MOST_TRICKS = 13  # a partnership's two bids together
NIL, BLIND_NIL = "nil", "blind nil"
USUAL = HouseRules()  # the numbers above


def team_of(player: str) -> int:
    return 0 if player in TEAMS[0] else 1


def partner_of(player: str) -> str:
    first, second = TEAMS[team_of(player)]
    return second if player == first else first


def bid_words(bid: int, blind: bool = False) -> str:
    """A bid as said and typed: "4", "nil", "blind nil"."""
    return (BLIND_NIL if blind else NIL) if bid == 0 else str(bid)


def hand_points(
    bids: dict[str, int], taken: dict[str, int], blind=frozenset(), rules: HouseRules = USUAL
) -> list[tuple[int, int]]:
    """(points, bags) of each partnership for one hand under `rules`, bag penalties not yet applied.
    A bid of 0 is nil, a blind nil when its player is in `blind`."""
    result = []
    for team in TEAMS:
        points = bags = 0
        contract = sum(bids[player] for player in team if bids[player])
        made = sum(taken[player] for player in team if bids[player])
        for player in team:
            if not bids[player]:
                value = rules.blind_nil_points if player in blind else rules.nil
                points += value if not taken[player] else -value
                bags += taken[player]
        if contract and made >= contract:
            points += rules.contract_points(contract)
            bags += made - contract
        elif contract:
            points -= rules.contract_points(contract)
        elif made:
            bags += made
        result.append((points + bags, bags))
    return result


class FullSpades(Spades):
    """One hand of the full game: the seed's play with bidding first and spades to be broken.
    Players of the partnerships in `blind_nil_teams` (0 = you and north) may bid blind nil; None
    when the game is played without blind nil. `rules` are the table's house rules (nil's value,
    or none; a partnership's least contract; the scoring)."""

    def __init__(self, deck, dealer: str, blind_nil_teams: frozenset[int] | None = None, rules: HouseRules = USUAL):
        super().__init__(deck)
        self.dealer = dealer
        self.rules = rules
        self.blind_nil_teams = blind_nil_teams if rules.nil_allowed else None
        self.bids: dict[str, int | None] = {player: None for player in PLAYERS}
        self.blind: set[str] = set()  # the players who bid blind nil
        while self._play_order[0] != dealer:
            self._play_order.append(self._play_order.pop(0))
        self._play_order.append(self._play_order.pop(0))  # left of the dealer bids and leads first
        self.spades_broken = False

    @property
    def bidding(self) -> bool:
        return None in self.bids.values()

    def receive(self, player: str, message: str) -> tuple[bool, str | None]:
        words = message_words(message)
        if len(words) >= 2 and words[0] == "bid":
            return self.bid(player, " ".join(words[1:]))
        return super().receive(player, message)

    def highest_bid(self, player: str) -> int:
        """The most `player` may bid: what the partner's bid leaves of 13."""
        return MOST_TRICKS - (self.bids[partner_of(player)] or 0)

    def may_bid_blind_nil(self, player: str) -> bool:
        return self.blind_nil_teams is not None and team_of(player) in self.blind_nil_teams

    def bids_open_to(self, player: str) -> list[str]:
        """The bids `player` may make now, as typed: "nil", "1" ... and "blind nil" when allowed."""
        if not self.bidding or player != self._play_order[0]:
            return []
        open_bids = [NIL] + [str(number) for number in range(1, self.highest_bid(player) + 1)]
        open_bids += [BLIND_NIL] if self.may_bid_blind_nil(player) else []
        return [amount for amount in open_bids if self.bid_refusal(player, amount) is None]

    def least_bid(self, player: str) -> int:
        """The least `player` may bid, besides nil: what the partner's bid (if made) leaves of the
        partnership's minimum contract (at least 1)."""
        partner_bid = self.bids[partner_of(player)]
        return max(1, self.rules.minimum_bid - (partner_bid or 0)) if partner_bid is not None else 1

    def bid_refusal(self, player: str, amount: str) -> str | None:
        """Why `player` may not bid `amount` ("4", "0" or "nil", "blind nil") now, or None."""
        if not self.bidding:
            return "bidding is over"
        if player != self._play_order[0]:
            return f"not player turn: {player}"
        if amount in (NIL, BLIND_NIL, "0") and not self.rules.nil_allowed:
            return "this table plays without nil"
        if amount == BLIND_NIL and self.blind_nil_teams is None:
            return "this game is played without blind nil"
        if amount != BLIND_NIL and amount != NIL and amount not in {str(number) for number in range(MOST_TRICKS + 1)}:
            return f"not a bid: {amount}"
        if amount == BLIND_NIL and not self.may_bid_blind_nil(player):
            return f"blind nil only {BLIND_NIL_DEFICIT} or more behind"
        if amount not in (NIL, BLIND_NIL) and int(amount) > self.highest_bid(player):
            return f"partners bid {MOST_TRICKS} at most: {amount}"
        partner_bid, least = self.bids[partner_of(player)], self.rules.minimum_bid
        bid = 0 if amount in (NIL, BLIND_NIL) else int(amount)
        if partner_bid is not None and least and partner_bid + bid < least:
            return f"partners bid {least} at least: {bid_words(bid, amount == BLIND_NIL)}"
        return None

    def bid(self, player: str, amount: str | int) -> tuple[bool, str | None]:
        """Bid for `player`: a number 0-13 (0 is nil), "nil" or "blind nil"."""
        amount = str(amount).strip().lower()
        refusal = self.bid_refusal(player, amount)
        if refusal:
            return False, refusal
        if amount == BLIND_NIL:
            self.blind.add(player)
        self.bids[player] = 0 if amount in (NIL, BLIND_NIL) else int(amount)
        self._play_order.append(self._play_order.pop(0))
        return True, None

    def refusal(self, player: str, card: str) -> str | None:
        if self.bidding:
            return "bid first"
        refusal = super().refusal(player, card)
        if (
            refusal is None
            and self._suit_led is None
            and suit_of(card) == Suit.SPADES.letter
            and not self.spades_broken
            and any(suit_of(held) != Suit.SPADES.letter for held in self._hands[player])
        ):
            return f"spades not broken: {card}"
        return refusal

    def legal_cards(self, player: str) -> list[str]:
        if self.bidding:
            return []
        cards = super().legal_cards(player)
        if self._suit_led is None and not self.spades_broken:
            return [card for card in cards if suit_of(card) != Suit.SPADES.letter] or cards
        return cards

    def _play(self, player: str, card: str) -> None:
        super()._play(player, card)
        if suit_of(card) == Suit.SPADES.letter:
            self.spades_broken = True

    def make(self, player: str, move: str) -> str:
        """A bid ("bid 4", "nil", "blind nil"; "bid nil", "bid 0") or a card for `player`: MoveRefused
        in the rules' words, else the move as made ("bid 4", "nil", "blind nil" or the card)."""
        amount = bid_in(move)
        if amount is None:
            return super().make(player, move)
        accepted, refusal = self.bid(player, amount)
        if not accepted:
            raise MoveRefused(refusal)
        return bid_move(self.bids[player], player in self.blind)

    def moves_open_to(self, player: str) -> list[str]:
        if self.bidding:
            return [bid_action(amount) for amount in self.bids_open_to(player)]
        return self.legal_cards(player)

    def move_refusal(self, move: str) -> str | None:
        if bid_of_action(move) is not None:
            return None
        if self.bidding:
            return f"not a bid: {move!r} (bid 1-{MOST_TRICKS} as: bid 4; or: {NIL}, {BLIND_NIL})"
        return card_refusal(move)

    def seen_by(self, player: str) -> list[str]:
        bids = " ".join(
            f"{other}:{'-' if bid is None else bid_words(bid, other in self.blind)}" for other, bid in self.bids.items()
        )
        return super().seen_by(player) + [
            f"dealer {self.dealer}",
            f"bids: {bids}",
            f"spades broken: {'yes' if self.spades_broken else 'no'}",
        ]

    def state(self) -> dict:
        return super().state() | {
            "bids": dict(self.bids),
            "blind": sorted(self.blind),
            "spades_broken": self.spades_broken,
            "dealer": self.dealer,
        }

    def points(self) -> list[tuple[int, int]]:
        return hand_points(self.bids, self.scores(), self.blind, self.rules)


class FullMatch:
    """Hands until the game is over: the running scores, bags and dealer, under `rules` (the house
    rules; else the usual ones, with blind nil as `blind_nil` says: a partnership that trails by
    100 or more may bid it)."""

    def __init__(self, blind_nil: bool = False, rules: HouseRules | None = None):
        self.rules = rules if rules is not None else HouseRules(blind_nil=blind_nil)
        self.scores = [0, 0]
        self.bags = [0, 0]
        self.dealer = PLAYERS[-1]
        self.history: list[dict] = []

    @property
    def blind_nil(self) -> bool:
        return self.rules.blind_nil

    def blind_nil_teams(self) -> frozenset[int] | None:
        """The partnerships that may bid blind nil in the next hand (None: not played)."""
        if not self.blind_nil:
            return None
        return frozenset(team for team in (0, 1) if self.scores[1 - team] - self.scores[team] >= BLIND_NIL_DEFICIT)

    def new_hand(self, deck) -> FullSpades:
        if self.over:
            raise ValueError("the game is over")
        self.dealer = PLAYERS[(PLAYERS.index(self.dealer) + 1) % 4]
        return FullSpades(deck, self.dealer, self.blind_nil_teams(), self.rules)

    def score(self, hand: FullSpades) -> list[int]:
        """Add a finished hand's points; each team's change (bag penalties included)."""
        if not hand.finished:
            raise ValueError("the hand is not finished")
        changes = []
        for team, (points, bags) in enumerate(hand.points()):
            self.bags[team] += bags
            while self.bags[team] >= self.rules.bags:
                self.bags[team] -= self.rules.bags
                points -= self.rules.bag_penalty
            self.scores[team] += points
            changes.append(points)
        self.history.append(
            {"bids": dict(hand.bids), "blind": sorted(hand.blind), "taken": hand.scores(), "points": changes}
        )
        return changes

    def saved(self) -> dict:
        """The match as plain data, to keep between sessions."""
        return {"scores": self.scores, "bags": self.bags, "dealer": self.dealer, "history": self.history}

    @classmethod
    def from_saved(cls, data, blind_nil: bool = False, rules: HouseRules | None = None) -> "FullMatch":
        """A match kept by `saved`, played on under `rules` (else the usual ones, blind nil as
        `blind_nil` says); ValueError when `data` is not one."""
        match = cls(blind_nil, rules)
        try:
            scores, bags, dealer, history = data["scores"], data["bags"], data["dealer"], data["history"]
        except (KeyError, TypeError):
            raise ValueError("not a saved game of Spades") from None
        pairs_of_numbers = all(
            isinstance(pair, list) and len(pair) == 2 and all(type(value) is int for value in pair)
            for pair in (scores, bags)
        )
        if (
            not pairs_of_numbers
            or dealer not in PLAYERS
            or not isinstance(history, list)
            or not all(0 <= bag < match.rules.bags for bag in bags)
        ):
            raise ValueError("not a saved game of Spades")
        match.scores, match.bags, match.dealer, match.history = scores, bags, dealer, history
        return match

    @property
    def winner(self) -> int | None:
        """The winning partnership (0 = you and north), once the game is over."""
        if self.over:
            return 0 if self.scores[0] > self.scores[1] else 1
        return None

    @property
    def over(self) -> bool:
        """A partnership has reached the game's points (500) or fallen to its losing points (-200),
        and the scores differ."""
        ended = max(self.scores) >= self.rules.game_to or min(self.scores) <= self.rules.losing_points
        return ended and self.scores[0] != self.scores[1]


def estimate_tricks(hand: list[str]) -> float:
    """Tricks a hand should take: high spades and length in spades, side aces and guarded kings."""
    by_suit = {
        suit: sorted((BY_NAME[card].high_rank for card in hand if suit_of(card) == suit.letter), reverse=True)
        for suit in Suit
    }
    spades = by_suit[Suit.SPADES]
    tricks = 0.0
    for position, rank in enumerate(spades):
        if rank >= 14 - position or (rank >= 12 and len(spades) >= 3):
            tricks += 1  # top spades, or a queen or king with length to guard it
        elif position >= 3:
            tricks += 0.8  # length in trumps
    for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        ranks = by_suit[suit]
        if 14 in ranks:
            tricks += 1 if len(ranks) <= 6 else 0.5
        if 13 in ranks and len(ranks) >= 2:
            tricks += 0.7 if len(ranks) <= 5 else 0.3
        if not ranks and len(spades) >= 3:
            tricks += 0.5  # a void to trump in
    return tricks


# A nil is bid with no spade above the nine, three spades at most, and side cards of ten and up
# that can be got rid of: each counts 1 / (1 + the cards beneath it in its suit), and together no
# more than NIL_EXPOSURE. Played out against the nil buster (`opponents`), about one hand in twenty
# is such a hand, and 77% of them made their nil; a looser limit bids more nils and makes fewer.
NIL_HIGHEST_SPADE = 9
NIL_MOST_SPADES = 3
NIL_EXPOSURE = 0.9
HONOUR = 10  # the ten and up


def nil_exposure(hand: list[str]) -> float:
    """How exposed a hand's side cards of ten and up are to winning a trick (see NIL_EXPOSURE)."""
    exposure = 0.0
    for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        ranks = sorted(BY_NAME[card].high_rank for card in hand if suit_of(card) == suit.letter)
        exposure += sum(1 / (1 + beneath) for beneath, rank in enumerate(ranks) if rank >= HONOUR)
    return exposure


def nil_considered(hand: list[str], partner_bid: int | None) -> bool:
    """Whether a computer player may think of nil at all: no spade above the nine, three at most,
    and a partner who has not bid nil."""
    spades = [BY_NAME[card].high_rank for card in hand if suit_of(card) == Suit.SPADES.letter]
    return partner_bid != 0 and len(spades) <= NIL_MOST_SPADES and max(spades, default=0) <= NIL_HIGHEST_SPADE


def can_bid_nil(hand: list[str], partner_bid: int | None, rules: HouseRules = USUAL) -> bool:
    """Whether a computer player bids nil by rule: `nil_considered`, and side cards it can get rid of:
    no more exposed than NIL_EXPOSURE at nil's usual value (100), in proportion to it at another (a
    nil of 50 risks half as much, one of 200 twice as much); never at a table without nil."""
    return (
        rules.nil_allowed
        and nil_considered(hand, partner_bid)
        and nil_exposure(hand) <= NIL_EXPOSURE * rules.nil / NIL_POINTS
    )


# A nil is worth bidding, by the table's scoring, when what it is expected to score, (2p - 1) times
# nil's value for a chance p of making it, reaches this: at nil 100 that is p = 0.7, the share the
# sampled bids were measured at (`players.bidding.NIL_CLEAN`); at nil 50, 0.9; at nil 200, 0.6.
NIL_WORTH_POINTS = 40


def nil_chance_needed(rules: HouseRules = USUAL) -> float:
    """The chance of making a nil that makes it worth bidding under `rules` (above 1: never)."""
    return 2.0 if not rules.nil_allowed else (1 + NIL_WORTH_POINTS / rules.nil) / 2


def contract_bid(tricks: float, partner_bid: int | None, rules: HouseRules = USUAL) -> int:
    """A bid of `tricks` expected, as the table's rules let it be: at least 1 and what the partner's
    bid leaves of the partnership's minimum contract, at most what it leaves of 13; and with "10 for
    200" a contract of 10 or 11 is bid a trick short unless the two expect 10.5 or more (set, it
    loses twice as much: 10 made on a coin's toss is worth less than 9 made nearly surely)."""
    bid = max(1, round(tricks))
    if partner_bid is not None:
        bid = max(bid, rules.minimum_bid - partner_bid)
        if (
            rules.ten_for_200
            and partner_bid
            and partner_bid + bid in (10, 11)
            and partner_bid + tricks < 10.5
            and partner_bid + bid - 1 >= rules.minimum_bid
            and bid > 1
        ):
            bid -= 1
    return min(bid, MOST_TRICKS - (partner_bid or 0))


def choose_bid(hand: list[str], partner_bid: int | None, rules: HouseRules = USUAL) -> int:
    """A computer player's bid: nil with a hand that can duck every trick (`can_bid_nil`), else its
    estimate as the table's rules let it be bid (`contract_bid`)."""
    if can_bid_nil(hand, partner_bid, rules) and (partner_bid is None or partner_bid >= rules.minimum_bid):
        return 0
    return contract_bid(estimate_tricks(hand), partner_bid, rules)


BLIND_NIL_GAMBLE_DEFICIT = 200  # a computer gambles on blind nil this far behind ...
BLIND_NIL_GAMBLE_NEAR_GAME = 150  # ... with the other side this close to game ...
# ... and beside a partner yet to bid, or one who bid this many: forced blind nils played out by rule
# players against each kind of `opponents` (4,952 hands) were made 22% of the time, 16-24% beside a
# partner's bid of 1-3, 32% beside 4 or more (38% beside 5 or more)
BLIND_NIL_COVER = 4


def gambles_blind_nil(scores: list[int], team: int, partner_bid: int | None, rules: HouseRules = USUAL) -> bool:
    """Whether a computer player of `team`, free to bid blind nil, does: only as a comeback, with the
    other side near game and this side far behind (a blind nil is made less often than not, so it
    pays only when an ordinary hand cannot catch up), and beside a partner who can cover it: one yet
    to bid (it will bid knowing), or one whose bid is BLIND_NIL_COVER or more (never a partner's nil)."""
    ours, theirs = scores[team], scores[1 - team]
    covered = partner_bid is None or partner_bid >= max(BLIND_NIL_COVER, rules.minimum_bid)
    near_game = BLIND_NIL_GAMBLE_NEAR_GAME * rules.game_to / GAME_POINTS
    return (
        covered
        and theirs >= rules.game_to - near_game
        and theirs - ours >= max(BLIND_NIL_DEFICIT, BLIND_NIL_GAMBLE_DEFICIT * rules.game_to / GAME_POINTS)
    )


BID_ACTION = "bid "  # "bid 4"; nil and blind nil are typed as they are said


def bid_action(amount: str) -> str:
    """A bid open to a player ("4", "nil", "blind nil") as the move a player types."""
    return amount if amount in (NIL, BLIND_NIL) else BID_ACTION + amount


def bid_move(bid: int, blind: bool = False) -> str:
    """A bid made (0 is nil) as the move that makes it: "bid 4", "nil", "blind nil"."""
    return bid_action(bid_words(bid, blind))


def bid_in(move: str) -> str | None:
    """The amount a move bids, as `FullSpades.bid` takes it ("4", "0", "nil", "blind nil"): from
    "bid <amount>" (the message's form) or "nil", "blind nil"; None when the move is no bid."""
    if move in (NIL, BLIND_NIL):
        return move
    words = message_words(move)
    return " ".join(words[1:]) if len(words) >= 2 and words[0] == "bid" else None


def bid_of_action(action: str) -> str | None:
    """The bid a move makes ("bid 4" -> "4", "nil", "blind nil"), or None when it is no bid."""
    if action in (NIL, BLIND_NIL):
        return action
    if action.startswith(BID_ACTION) and action[len(BID_ACTION) :].isdigit() and action[len(BID_ACTION) :] != "0":
        return action[len(BID_ACTION) :]
    return None


class FullSpadesState(FourPlayerState):
    """The full game as a `games.protocol.GameState`: hands dealt from `seed` until the game is over.
    A move is a bid ("bid 4", "nil", "blind nil" when `blind_nil` is played) or a card name ("td");
    the outcome gives the partnership that won (its two players) and each player their
    partnership's points."""

    def __init__(self, seed: int, blind_nil: bool = False, rules: HouseRules | None = None):
        self.rng = dealing_rng(seed)
        self.match = FullMatch(blind_nil, rules)
        self.hand = self.match.new_hand(shuffled_deck(self.rng))

    def in_play(self) -> FullSpades | None:
        return None if self.match.over else self.hand

    def apply(self, move: str) -> None:
        if self.match.over:
            raise MoveRefused("the game is over")
        refusal = self.hand.move_refusal(move)
        if refusal:
            raise MoveRefused(refusal)
        self.hand.make(self.hand.to_play, move)
        if self.hand.finished:
            self.match.score(self.hand)
            if not self.match.over:
                self.hand = self.match.new_hand(shuffled_deck(self.rng))

    def outcome(self) -> Outcome | None:
        match = self.match
        if not match.over:
            return None
        return Outcome(
            Termination.WON,
            tuple(PLAYERS.index(player) for player in TEAMS[match.winner]),
            tuple(float(match.scores[team_of(player)]) for player in PLAYERS),
        )

    def observation(self, player: int) -> str:
        match = self.match
        lines = [f"{name} {match.scores[team]} points, {match.bags[team]} bags" for team, name in enumerate(TEAM_NAMES)]
        lines += self.hand.seen_by(PLAYERS[player])
        if match.over:
            lines.append(f"game over: {TEAM_NAMES[match.winner]} win")
        return "\n".join(lines)

    def __str__(self) -> str:
        match, hand = self.match, self.hand
        lines = [f"{name} {match.scores[team]} points, {match.bags[team]} bags" for team, name in enumerate(TEAM_NAMES)]
        lines.append(f"hand {len(match.history) + (0 if match.over else 1)}, dealer {hand.dealer}")
        lines.append(
            "bids: "
            + " ".join(
                f"{player}:{'-' if bid is None else bid_words(bid, player in hand.blind)}"
                for player, bid in hand.bids.items()
            )
        )
        lines.append(f"spades broken: {'yes' if hand.spades_broken else 'no'}")
        lines += hand_text(hand)
        if match.over:
            lines.append(f"game over: {TEAM_NAMES[match.winner]} win")
        return "\n".join(lines)
