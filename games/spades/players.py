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
from .engine import PLAYERS, Spades
from .full import FullSpades, hand_points, partner_of

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
                taken=[state["player_scores"][other] for other in PLAYERS])


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

    __slots__ = ("hands", "trick", "to_play", "taken", "spades_closed", "must_break")

    def __init__(self, hands, trick, to_play, taken, spades_closed, must_break):
        self.hands, self.trick, self.to_play, self.taken = hands, trick, to_play, taken
        self.spades_closed, self.must_break = spades_closed, must_break

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

    def play_out(self, rng: random.Random, *, greedy: bool) -> None:
        """Play to the end of the hand: random legal cards, or (`greedy`) the rule player's habits in
        brief: second hand low, third hand high, last hand and trumps as cheaply as wins, discards low;
        lead the top card left in a suit, else low from the longest side suit."""
        hands, trick, taken = self.hands, self.trick, self.taken
        to_play, closed = self.to_play, self.spades_closed
        random_number = rng.random
        while True:
            hand = hands[to_play]
            if trick:
                led = SUIT[trick[0][1]]
                options = [card for card in hand if SUIT[card] == led] or hand
                if greedy and len(options) > 1:
                    values = TRICK_VALUE[led]
                    best = max(values[played] for _, played in trick)
                    winners = [card for card in options if values[card] > best]
                    if not winners or (len(trick) == 1 and SUIT[options[0]] == led):
                        card = min(options, key=lambda card: values[card] * 16 + RANK[card])
                    elif len(trick) == 2 and SUIT[options[0]] == led:
                        card = max(winners)
                    else:
                        card = min(winners)
                else:
                    card = options[int(random_number() * len(options))]
            elif not hand:
                break
            else:
                options = ([card for card in hand if SUIT[card] != SPADE_SUIT] or hand) if closed else hand
                card = greedy_lead(options, hands) if greedy else options[int(random_number() * len(options))]
            hand.remove(card)
            trick.append((to_play, card))
            if closed and SUIT[card] == SPADE_SUIT:
                closed = False
            if len(trick) == 4:
                values = TRICK_VALUE[SUIT[trick[0][1]]]
                to_play = max(trick, key=lambda play: values[play[1]])[0]
                taken[to_play] += 1
                trick = []
            else:
                to_play = (to_play + 1) % 4
        self.trick, self.to_play, self.spades_closed = trick, to_play, closed


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


class Node:
    __slots__ = ("mover", "children", "visits", "available", "reward")

    def __init__(self, mover: int):
        self.mover = mover      # the seat whose card led to this node
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0      # how often this node's card was legal when its parent was visited
        self.reward = 0.0


@dataclass
class SearchPlayer:
    """ISMCTS: each iteration guesses the hidden hands from what this seat has seen, walks the shared
    tree choosing among the cards legal in that guess (UCB1 with availability counts), adds a node,
    plays out at random, and credits every node with the result for the seat that chose it.

    The think budget is `iterations`, cut short after `seconds` of thinking.
    """
    iterations: int = 300
    seconds: float = 0.8
    exploration: float = 0.7
    greedy_rollouts: bool = True
    rng: random.Random = field(default_factory=random.Random)
    outcome: object = None  # taken tricks -> per-seat reward in [0, 1]; default: seed_outcome
    name = "mcts"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        outcome = self.outcome or seed_outcome
        root = Node(-1)
        deadline = time.perf_counter() + self.seconds
        for iteration in range(self.iterations):
            if iteration % 16 == 15 and time.perf_counter() > deadline:
                break
            self._iterate(root, view, outcome)
        return max(legal, key=lambda card: root.children[card].visits if card in root.children else -1)

    def _iterate(self, root: Node, view: View, outcome) -> None:
        deal = Deal(consistent_deal(view, self.rng), list(view.trick), view.seat, list(view.taken),
                    view.spades_must_be_broken and not view.spades_broken, view.spades_must_be_broken)
        path = [root]
        node = root
        while not deal.over():
            legal = deal.legal()
            untried = [card for card in legal if card not in node.children]
            for card in legal:
                if card in node.children:
                    node.children[card].available += 1
            if untried:
                card = self.rng.choice(untried)
                child = Node(deal.to_play)
                child.available = 1
                node.children[card] = child
                deal.play(card)
                path.append(child)
                break
            card = max(legal, key=lambda option: self._ucb(node.children[option]))
            node = node.children[card]
            deal.play(card)
            path.append(node)
        deal.play_out(self.rng, greedy=self.greedy_rollouts)
        rewards = outcome(deal.taken)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += rewards[visited.mover]

    def _ucb(self, child: Node) -> float:
        return child.reward / child.visits + self.exploration * math.sqrt(math.log(child.available) / child.visits)


def seed_outcome(taken: list[int]) -> list[float]:
    """The seed game's reward: the win (shared on a tie), with a little for each trick as tie-break."""
    shares = win_shares(taken)
    return [0.75 * share + 0.25 * tricks / 13 for share, tricks in zip(shares, taken)]


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
