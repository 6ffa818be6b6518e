"""Computer players: a random legal card, a rule-based player, and information-set Monte Carlo tree
search (ISMCTS) over deals consistent with what the player has seen.

Players work on card numbers (see cards.py) and a `View`: what one seat knows when it is to play.
They serve both the seed's game and the full game (partnerships, bids, spades broken).
"""

import math
import random
import time
from dataclasses import dataclass, field

from .cards import CARD_NAME, CARD_NUMBER, SPADE_SUIT, SUITS, suit_of
from .full_rules import FullSpades, hand_points, partner_of
from .rules import PLAYERS, Spades

SUIT = [card // 13 for card in range(52)]
RANK = [card % 13 for card in range(52)]  # 0 = two ... 12 = ace
# TRICK_VALUE[led][card]: the seed's spades_value (on ranks 0-12) for a card when suit `led` was led
TRICK_VALUE = [[(RANK[card] + 100 if SUIT[card] == SPADE_SUIT else RANK[card] + 50 if SUIT[card] == led else 0)
                for card in range(52)] for led in range(4)]


@dataclass
class View:
    """One seat's knowledge at its turn. Seats are 0-3 and play in that order (player_0 first)."""
    seat: int
    hand: list[int]
    trick: list[tuple[int, int]]          # (seat, card) of the trick so far, in the order played
    played: set[int]                      # every card seen played, the current trick's included
    voids: list[set[int]]                 # per seat: suits it has shown it does not hold
    hand_sizes: list[int]                 # per seat, before this play
    taken: list[int]                      # tricks won so far, per seat
    spades_must_be_broken: bool = False   # full rules: no spade lead until a spade has been played
    spades_broken: bool = False
    partner: int | None = None            # full rules: the partner's seat
    bids: list[int] | None = None         # full rules: each seat's bid (0 = nil)
    history: list[tuple[int, int]] = field(default_factory=list)  # every (seat, card) played, in order

    def legal(self) -> list[int]:
        return legal_cards(self.hand, self.trick, self.spades_must_be_broken and not self.spades_broken)


def legal_cards(hand: list[int], trick: list, spades_closed: bool) -> list[int]:
    """Follow suit if you can; a lead may not be a spade while spades are closed, unless all are."""
    if trick:
        led = SUIT[trick[0][1]]
        return [card for card in hand if SUIT[card] == led] or list(hand)
    if spades_closed:
        return [card for card in hand if SUIT[card] != SPADE_SUIT] or list(hand)
    return list(hand)


def trick_winner(trick: list[tuple[int, int]]) -> int:
    values = TRICK_VALUE[SUIT[trick[0][1]]]
    return max(trick, key=lambda play: values[play[1]])[0]


def win_shares(taken: list[int]) -> list[float]:
    """The seed game's result: the players with most tricks share the win."""
    best = max(taken)
    winners = taken.count(best)
    return [1 / winners if tricks == best else 0.0 for tricks in taken]


def seat_of(player: str) -> int:
    return PLAYERS.index(player)


def shown_voids(tricks) -> list[set[int]]:
    """Suits each seat has shown it lacks, from tricks given as [(player, card name), ...]."""
    voids = [set() for _ in range(4)]
    for trick in tricks:
        led = suit_of(trick[0][1])
        for player, card in trick[1:]:
            if suit_of(card) != led:
                voids[seat_of(player)].add(SUITS.index(led))
    return voids


def seed_view(game: Spades, player: str) -> View:
    """What `player` knows in the seed's game: its hand, all cards played, who showed out of what."""
    tricks = [cards for cards, _ in game.tricks] + ([game.trick] if game.trick else [])
    state = game.state()
    return View(seat=seat_of(player),
                hand=[CARD_NUMBER[card] for card in state["hands"][player]],
                trick=[(seat_of(who), CARD_NUMBER[card]) for who, card in game.trick],
                played={CARD_NUMBER[card] for trick in tricks for _, card in trick},
                voids=shown_voids(tricks),
                hand_sizes=[len(state["hands"][other]) for other in PLAYERS],
                taken=[state["player_scores"][other] for other in PLAYERS],
                history=[(seat_of(who), CARD_NUMBER[card]) for trick in tricks for who, card in trick])


def full_view(game: FullSpades, player: str) -> View:
    """What `player` knows in the full game: the seed's view, with partner, bids and broken spades."""
    view = seed_view(game, player)
    view.spades_must_be_broken = True
    view.spades_broken = game.spades_broken
    view.partner = seat_of(partner_of(player))
    view.bids = [game.bids[other] for other in PLAYERS]
    return view


def full_outcome(bids: list[int]):
    """The full game's reward for a hand's tricks: each seat gets its partnership's points, bags
    counted at their real cost (a tenth of the 100-point penalty), scaled into [0, 1]."""
    def outcome(taken: list[int]) -> list[float]:
        points = hand_points(dict(zip(PLAYERS, bids)), dict(zip(PLAYERS, taken)))
        team_values = [min(1.0, max(0.0, (score - 11 * bags + 300) / 600)) for score, bags in points]
        return [team_values[seat % 2] for seat in range(4)]
    return outcome


# --- random and rule-based ---------------------------------------------------------------------------

class RandomPlayer:
    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, view: View) -> int:
        return self.rng.choice(view.legal())


def is_master(card: int, view: View) -> bool:
    """No card that could still beat `card` in its suit is out: all higher ones are played or mine."""
    return all(higher in view.played or higher in view.hand for higher in range(card + 1, SUIT[card] * 13 + 13))


def cheapest_equal(card: int, winners: list[int], view: View) -> int:
    """The lowest of my winning cards as good as `card`: every card between them is mine or played."""
    best, lower = card, card - 1
    while lower >= SUIT[card] * 13 and (lower in winners or lower in view.played):
        if lower in winners:
            best = lower
        lower -= 1
    return best


class RulePlayer:
    """Second hand low, third hand high, win as cheaply as possible, trump when void, discard the least
    useful card; lead a card that cannot be beaten in its suit, else low from the longest side suit.
    With a partner: do not overtake a partner who is winning, unless the partner bid nil; having bid
    nil, take nothing: duck under the best card, discard high."""
    name = "rules"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        if view.bids and view.bids[view.seat] == 0:
            return self.duck(legal, view)
        if not view.trick:
            return self.lead(legal, view)
        led = SUIT[view.trick[0][1]]
        values = TRICK_VALUE[led]
        leader_seat, best = max(view.trick, key=lambda play: values[play[1]])
        position = len(view.trick)
        partner_nil = view.bids is not None and view.bids[view.partner] == 0
        partner_winning = view.partner is not None and leader_seat == view.partner and not partner_nil and (
            position == 3 or is_master(best, view) or SUIT[best] == SPADE_SUIT)
        winners = sorted(card for card in legal if values[card] > values[best])
        if SUIT[legal[0]] == led:  # following suit
            if not winners or partner_winning or position == 1:
                return min(legal)
            if position == 2:
                return cheapest_equal(max(winners), winners, view)
            return winners[0]
        if winners and not partner_winning:
            return winners[0]  # trump as cheaply as wins
        return self.discard(legal)

    @staticmethod
    def duck(legal: list[int], view: View) -> int:
        """A nil bidder's card: the highest that loses, or failing that the lowest."""
        if not view.trick:
            return min(legal, key=lambda card: (RANK[card], SUIT[card] == SPADE_SUIT))
        values = TRICK_VALUE[SUIT[view.trick[0][1]]]
        best = max(values[card] for _, card in view.trick)
        losers = [card for card in legal if values[card] < best]
        if losers:
            return max(losers, key=lambda card: (SUIT[card] != SPADE_SUIT, RANK[card]))
        return min(legal, key=lambda card: values[card])

    @staticmethod
    def lead(legal: list[int], view: View) -> int:
        masters = [card for card in legal if is_master(card, view)]
        side_masters = [card for card in masters if SUIT[card] != SPADE_SUIT]
        if side_masters or masters:
            return max(side_masters or masters)
        side = [card for card in legal if SUIT[card] != SPADE_SUIT] or legal
        length = {suit: sum(SUIT[card] == suit for card in legal) for suit in range(4)}
        return min(side, key=lambda card: (-length[SUIT[card]], RANK[card]))

    @staticmethod
    def discard(legal: list[int]) -> int:
        """The lowest side card, from the shortest suit (towards a void to trump in); spades last."""
        side = [card for card in legal if SUIT[card] != SPADE_SUIT] or legal
        length = {suit: sum(SUIT[card] == suit for card in legal) for suit in range(4)}
        return min(side, key=lambda card: (RANK[card], length[SUIT[card]]))


# --- information-set Monte Carlo tree search ---------------------------------------------------------

class Deal:
    """A position with every hand known (one guess at the hidden cards), played out fast."""

    __slots__ = ("hands", "trick", "to_play", "taken", "spades_closed")

    def __init__(self, hands, trick, to_play, taken, spades_closed):
        self.hands, self.trick, self.to_play, self.taken = hands, trick, to_play, taken
        self.spades_closed = spades_closed

    def legal(self) -> list[int]:
        return legal_cards(self.hands[self.to_play], self.trick, self.spades_closed)

    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_play]

    def play(self, card: int) -> None:
        self.hands[self.to_play].remove(card)
        self.trick.append((self.to_play, card))
        if SUIT[card] == SPADE_SUIT:
            self.spades_closed = False
        if len(self.trick) == 4:
            winner = trick_winner(self.trick)
            self.taken[winner] += 1
            self.trick = []
            self.to_play = winner
        else:
            self.to_play = (self.to_play + 1) % 4

    def play_out(self) -> None:
        """Play to the end of the hand, every seat by `habitual_card`."""
        while not self.over():
            self.play(self.habitual_card())

    def habitual_card(self) -> int:
        """The rule player's habits in brief, for play-outs: second hand low, third hand high, last
        hand and trumps as cheaply as wins, discard low; lead the top card left in a suit, else low
        from the longest side suit. With every hand known this needs no chance."""
        hand, trick = self.hands[self.to_play], self.trick
        if not trick:
            options = ([card for card in hand if SUIT[card] != SPADE_SUIT] or hand) if self.spades_closed else hand
            return greedy_lead(options, self.hands)
        led = SUIT[trick[0][1]]
        values = TRICK_VALUE[led]
        following = [card for card in hand if SUIT[card] == led]
        options = following or hand
        best = max(values[played] for _, played in trick)
        winners = [card for card in options if values[card] > best]
        if not winners or (len(trick) == 1 and following):
            return min(options, key=lambda card: values[card] * 16 + RANK[card])
        if len(trick) == 2 and following:
            return max(winners)
        return min(winners)


def greedy_lead(options: list[int], hands: list[list[int]]) -> int:
    """With every hand known: the top card left in its suit (side suits first), else a low card from
    the longest side suit."""
    top = [-1, -1, -1, -1]
    for hand in hands:
        for card in hand:
            if card > top[SUIT[card]]:
                top[SUIT[card]] = card
    masters = [card for card in options if card == top[SUIT[card]]]
    if masters:
        return max(masters, key=lambda card: (SUIT[card] != SPADE_SUIT, card))
    length = [0, 0, 0, 0]
    for card in options:
        length[SUIT[card]] += 1
    return min(options, key=lambda card: (SUIT[card] == SPADE_SUIT, -length[SUIT[card]], RANK[card]))


def deal_hidden_cards(view: View, rng: random.Random) -> list[list[int]] | None:
    """The other seats' hands, guessed: the unseen cards shuffled, each to a seat that may hold it (not
    void in its suit) with room for it, cards that fewer seats may hold first. None if stuck."""
    others = [seat for seat in range(4) if seat != view.seat]
    unseen = [card for card in range(52) if card not in view.played and card not in view.hand]
    rng.shuffle(unseen)
    hands = [[] for _ in range(4)]
    hands[view.seat] = list(view.hand)
    if not any(view.voids[seat] for seat in others):
        start = 0
        for seat in others:
            hands[seat] = unseen[start:start + view.hand_sizes[seat]]
            start += view.hand_sizes[seat]
        return hands
    can_hold = [[seat for seat in others if suit not in view.voids[seat]] for suit in range(4)]
    unseen.sort(key=lambda card: len(can_hold[SUIT[card]]))
    room = list(view.hand_sizes)
    for card in unseen:
        seats = [seat for seat in can_hold[SUIT[card]] if room[seat]]
        if not seats:
            return None
        # a seat in proportion to its room left, so the guess does not favour whichever seat comes first
        pick = rng.random() * sum(room[seat] for seat in seats)
        for seat in seats:
            pick -= room[seat]
            if pick < 0:
                break
        room[seat] -= 1
        hands[seat].append(card)
    return hands


def consistent_deal(view: View, rng: random.Random) -> list[list[int]]:
    for _ in range(50):
        hands = deal_hidden_cards(view, rng)
        if hands:
            return hands
    return exact_deal(view)


def exact_deal(view: View) -> list[list[int]]:
    """A consistent deal by search (a true deal exists, so this always finds one)."""
    others = [seat for seat in range(4) if seat != view.seat]
    unseen = [card for card in range(52) if card not in view.played and card not in view.hand]
    room = {seat: view.hand_sizes[seat] for seat in others}
    hands = [[] for _ in range(4)]
    hands[view.seat] = list(view.hand)

    def place(index: int) -> bool:
        if index == len(unseen):
            return True
        card = unseen[index]
        for seat in others:
            if room[seat] and SUIT[card] not in view.voids[seat]:
                room[seat] -= 1
                hands[seat].append(card)
                if place(index + 1):
                    return True
                hands[seat].pop()
                room[seat] += 1
        return False

    if not place(0):
        raise ValueError("no deal fits what this player has seen")
    return hands


def habit_agreement(view: View, hands: list[list[int]], mismatch: float) -> float:
    """How well the other seats' plays so far fit the rule player's habits, were `hands` the deal:
    `mismatch` to the power of the plays that differ from the habitual card."""
    if not view.history:
        return 1.0
    start = [list(hand) for hand in hands]
    for seat, card in view.history:
        start[seat].append(card)
    deal = Deal(start, [], view.history[0][0], [0] * 4, view.spades_must_be_broken)
    weight = 1.0
    for seat, card in view.history:
        if seat != view.seat and deal.habitual_card() != card:
            weight *= mismatch
        deal.play(card)
    return weight


class Node:
    """One of the searching seat's own decisions: its statistics and the decisions after it."""
    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self):
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0      # how often this node's card was legal when its parent was reached
        self.reward = 0.0


@dataclass
class SearchPlayer:
    """Information-set Monte Carlo tree search.

    Each iteration takes a guess at the hidden hands, consistent with what this seat has seen (its
    own cards, every card played, who has shown out of which suit): it draws `pool` such guesses and
    weighs each by how well it explains the others' plays so far (`habit_agreement`: a play the rule
    player's habits would not have made multiplies the weight by `mismatch`), and each iteration
    picks one by weight. In that guess it tries every card this seat may play now, so that the cards
    are compared on equal terms. After that card the other seats play by the habits
    (`Deal.habitual_card`, the model of the opponents), and this seat's own later cards are chosen
    in a tree of its decisions, among those legal in the guess (UCB1 with availability counts); a
    new node is added and the hand played out by the habits. Every node on the way is credited
    with this seat's result (`outcome`).

    The think budget is `iterations` guesses, cut short after `seconds` of thinking.
    """
    iterations: int = 60
    seconds: float = 0.5
    exploration: float = 0.3
    pool: int = 300
    mismatch: float = 0.3
    rng: random.Random = field(default_factory=random.Random)
    outcome: object = None  # tricks taken per seat -> reward per seat in [0, 1]; default: seed_outcome
    name = "mcts"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        outcome = self.outcome or seed_outcome
        root = {card: Node() for card in legal}
        deadline = time.perf_counter() + self.seconds
        guesses = [consistent_deal(view, self.rng) for _ in range(self.pool)]
        weights = [habit_agreement(view, hands, self.mismatch) for hands in guesses]
        for iteration in range(self.iterations):
            if iteration and time.perf_counter() > deadline:
                break
            hands = self.rng.choices(guesses, weights)[0]
            for card, node in root.items():
                deal = Deal([list(hand) for hand in hands], list(view.trick), view.seat, list(view.taken),
                            view.spades_must_be_broken and not view.spades_broken)
                deal.play(card)
                node.available += 1
                reward = self._descend(node, deal, view.seat, outcome)
                node.visits += 1
                node.reward += reward
        return max(legal, key=lambda card: root[card].reward / root[card].visits)

    def _descend(self, node: Node, deal: Deal, seat: int, outcome) -> float:
        """Play on from `node` to the end of the hand in this guess; update the tree below; the reward."""
        path = []
        while not deal.over():
            if deal.to_play != seat:
                deal.play(deal.habitual_card())
                continue
            legal = deal.legal()
            children = node.children
            for card in legal:
                if card in children:
                    children[card].available += 1
            untried = [card for card in legal if card not in children]
            if untried:
                card = self.rng.choice(untried)
                node = children[card] = Node()
                node.available = 1
                deal.play(card)
                path.append(node)
                break
            card = max(legal, key=lambda option: self._ucb(children[option]))
            node = children[card]
            deal.play(card)
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
    return [0.5 * share + 0.5 * tricks / 13 for share, tricks in zip(win_shares(taken), taken)]


LEVELS = {"random": RandomPlayer, "rules": RulePlayer, "mcts": SearchPlayer}


def make_player(level: str, rng: random.Random | None = None):
    """A computer player of `level` (one of LEVELS)."""
    if level == "random":
        return RandomPlayer(rng)
    if level == "rules":
        return RulePlayer()
    if level == "mcts":
        return SearchPlayer(rng=rng or random.Random())
    raise ValueError(f"no level {level!r}: choose from {', '.join(LEVELS)}")


def play_seed_hand(deck, players: list) -> tuple[list[int], list[list[float]]]:
    """Play one hand of the seed's game from `deck` with a computer player in each seat.

    Returns the tricks per seat and, per seat, the seconds each decision with a choice took."""
    game = Spades(deck)
    times = [[] for _ in range(4)]
    while not game.finished:
        player = game.to_play
        seat = seat_of(player)
        view = seed_view(game, player)
        started = time.perf_counter()
        card = players[seat].choose(view)
        if len(view.legal()) > 1:
            times[seat].append(time.perf_counter() - started)
        accepted, refusal = game.play_card(player, CARD_NAME[card])
        if not accepted:
            raise RuntimeError(f"{players[seat].name} player chose a card the rules refuse: {refusal}")
    scores = game.scores()
    return [scores[player] for player in PLAYERS], times
