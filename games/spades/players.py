"""Computer players: a random legal card, a rule-based player, information-set Monte Carlo tree
search (ISMCTS), and a player that solves guessed deals exactly (perfect-information Monte Carlo).

Players see a `View` (what one seat knows when it is to play) with cards as `games.cards` numbers
(`Card.index`), and answer a card number. Inside, they play with hand masks in trick order
(`solver.BIT`), where the rule player's habits and the exact solver work fast. They serve both the
seed's game and the full game (partnerships, bids, spades broken).
"""

import math
import random
import time
from dataclasses import dataclass, field

from ..cards import BY_NAME, NAMES
from .rules import PLAYERS, Spades  # the rules modules: imported here only
from .full_rules import FullSpades, hand_points, partner_of
from .solver import (ALL_CARDS, BIT, CARD_OF_BIT, SUIT_MASK, Budget, OutOfWork, Solver, bits_of, legal_mask, mask_of,
                     strength, trick_winner)

SUIT = [card // 13 for card in range(52)]   # per Card.index


def card_number(name: str) -> int:
    return BY_NAME[name].index


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

    @property
    def side(self) -> set[int]:
        """The seats playing for this seat's result: itself, and its partner in the full game."""
        return {self.seat} if self.partner is None else {self.seat, self.partner}

    @property
    def spades_closed(self) -> bool:
        return self.spades_must_be_broken and not self.spades_broken

    def legal(self) -> list[int]:
        legal = legal_mask(mask_of(self.hand), self.trick_bits(), self.spades_closed)
        return [card for card in self.hand if legal >> BIT[card] & 1]

    def trick_bits(self) -> list[tuple[int, int]]:
        return [(seat, BIT[card]) for seat, card in self.trick]


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
        led = SUIT[card_number(trick[0][1])]
        for player, card in trick[1:]:
            if SUIT[card_number(card)] != led:
                voids[seat_of(player)].add(led)
    return voids


def seed_view(game: Spades, player: str) -> View:
    """What `player` knows in the seed's game: its hand, all cards played, who showed out of what."""
    tricks = [cards for cards, _ in game.tricks] + ([game.trick] if game.trick else [])
    state = game.state()
    return View(seat=seat_of(player),
                hand=[card_number(card) for card in state["hands"][player]],
                trick=[(seat_of(who), card_number(card)) for who, card in game.trick],
                played={card_number(card) for trick in tricks for _, card in trick},
                voids=shown_voids(tricks),
                hand_sizes=[len(state["hands"][other]) for other in PLAYERS],
                taken=[state["player_scores"][other] for other in PLAYERS],
                history=[(seat_of(who), card_number(card)) for trick in tricks for who, card in trick])


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


def rank_of_bit(bit: int) -> int:
    return bit % 13   # 0 = two ... 12 = ace


def is_master(bit: int, outside: int) -> bool:
    """No card that could beat `bit` in its suit is held by another seat."""
    return not outside & SUIT_MASK[bit // 13] & ~((2 << bit) - 1)


def suit_lengths(mask: int) -> list[int]:
    return [bin(mask & SUIT_MASK[suit]).count("1") for suit in range(4)]


def rule_card(hand: int, outside: int, trick: list[tuple[int, int]], seat: int, spades_closed: bool = False,
              partner: int | None = None, bids: list[int] | None = None) -> int:
    """The rule player's card (a bit), from its hand, the cards the other seats hold between them
    (`outside`: every card neither played nor its own), and the trick so far as (seat, bit).

    Second hand low, third hand high, win as cheaply as possible, trump when void, discard the least
    useful card; lead a card that cannot be beaten in its suit, else low from the longest side suit.
    With a partner: do not overtake a partner who is winning, unless the partner bid nil; having bid
    nil, take nothing: duck under the best card, discard high."""
    legal = legal_mask(hand, trick, spades_closed)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if bids and bids[seat] == 0:
        return duck(legal, trick)
    if not trick:
        return lead(legal, outside)
    led = trick[0][1] // 13
    leader_seat, best = trick[0]
    top = strength(best, led)
    for play in trick[1:]:
        if strength(play[1], led) > top:
            leader_seat, best = play
            top = strength(best, led)
    position = len(trick)
    partner_nil = bids is not None and bids[partner] == 0
    partner_winning = partner is not None and leader_seat == partner and not partner_nil and (
        position == 3 or is_master(best, outside) or best < 13)
    winners = [bit for bit in bits_of(legal) if strength(bit, led) > top]
    if legal & SUIT_MASK[led]:  # following suit
        if not winners or partner_winning or position == 1:
            return (legal & -legal).bit_length() - 1
        if position == 2:
            return cheapest_equal(winners, outside, hand)
        return winners[0]
    if winners and not partner_winning:
        return winners[0]  # trump as cheaply as wins
    return discard(legal)


def cheapest_equal(winners: list[int], outside: int, hand: int) -> int:
    """The lowest winner as good as the highest: every card between them is mine or played."""
    best = lower = winners[-1]
    floor = (winners[-1] // 13) * 13
    while lower > floor:
        lower -= 1
        if lower in winners:
            best = lower
        elif (outside | hand) >> lower & 1:
            break
    return best


def duck(legal: int, trick: list[tuple[int, int]]) -> int:
    """A nil bidder's card: the highest that loses, or failing that the lowest."""
    cards = bits_of(legal)
    if not trick:
        return min(cards, key=lambda bit: (rank_of_bit(bit), bit < 13))
    led = trick[0][1] // 13
    top = max(strength(bit, led) for _, bit in trick)
    losers = [bit for bit in cards if strength(bit, led) < top]
    if losers:
        return max(losers, key=lambda bit: (bit >= 13, rank_of_bit(bit)))
    return min(cards, key=lambda bit: strength(bit, led))


def lead(legal: int, outside: int) -> int:
    # the highest side-suit master, else the highest master spade: a suit's highest card is its master if any is
    for suit in (3, 2, 1, 0):
        held = legal & SUIT_MASK[suit]
        if held and is_master(held.bit_length() - 1, outside):
            return held.bit_length() - 1
    cards = bits_of(legal)
    side = [bit for bit in cards if bit >= 13] or cards
    length = suit_lengths(legal)
    return min(side, key=lambda bit: (-length[bit // 13], rank_of_bit(bit)))


def discard(legal: int) -> int:
    """The lowest side card, from the shortest suit (towards a void to trump in); spades last."""
    cards = bits_of(legal)
    side = [bit for bit in cards if bit >= 13] or cards
    length = suit_lengths(legal)
    return min(side, key=lambda bit: (rank_of_bit(bit), length[bit // 13]))


def view_masks(view: View) -> tuple[int, int]:
    """A view's own hand and the cards the other seats hold between them, as masks."""
    hand = mask_of(view.hand)
    return hand, ALL_CARDS ^ hand ^ mask_of(view.played)


class RulePlayer:
    """The rule player (see `rule_card`)."""
    name = "rules"

    def choose(self, view: View) -> int:
        hand, outside = view_masks(view)
        return CARD_OF_BIT[rule_card(hand, outside, view.trick_bits(), view.seat, view.spades_closed,
                                     view.partner, view.bids)]


def rule_model(partner_of_seat=None, bids=None):
    """The rule players' habits as a solver policy: (seat, hands, trick, spades closed) -> bit."""
    def policy(seat: int, hands: list[int], trick, closed: bool) -> int:
        outside = (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[seat]
        partner = partner_of_seat(seat) if partner_of_seat else None
        return rule_card(hands[seat], outside, trick, seat, closed, partner, bids)
    return policy


def model_for(view: View):
    """The rule model of the other seats as `view`'s seat knows them (partners and bids if any)."""
    if view.partner is None:
        return rule_model()
    return rule_model(lambda seat: (seat + 2) % 4, view.bids)


# --- guessing the hidden hands -----------------------------------------------------------------------

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


class HabitCheck:
    """The plays so far of the seats in `judged`, each with what that seat knew when it played (the
    cards played before, the trick, whether spades were closed, the cards it played from then on), to
    count the plays that a guess at a seat's hidden cards fails to explain by the rule player's habits.
    A seat's habits depend only on its own hand and what everyone saw, so seats are judged one by one."""

    def __init__(self, view: View, judged):
        self.partnered, self.bids = view.partner is not None, view.bids
        self.plays = {seat: [] for seat in judged if seat != view.seat}
        before, trick, closed = 0, [], view.spades_must_be_broken
        for seat, card in view.history:
            bit = BIT[card]
            if seat in self.plays:
                self.plays[seat].append([before, tuple(trick), closed, bit, 0])
            before |= 1 << bit
            trick = [] if len(trick) == 3 else trick + [(seat, bit)]
            closed = closed and bit >= 13
        for plays in self.plays.values():
            later = 0
            for play in reversed(plays):
                later |= 1 << play[3]
                play[4] = later

    def agreement(self, hands: list[list[int]], mismatch: float) -> float:
        """`mismatch` to the power of the judged plays that `hands` (a whole deal) fails to explain."""
        return mismatch ** sum(self.misses(seat, mask_of(hands[seat])) for seat in self.plays)

    def misses(self, seat: int, hidden: int, most: int = 52) -> int:
        """How many of `seat`'s plays differ from its habits were `hidden` (a mask) its cards now;
        counting stops past `most`."""
        plays = self.plays.get(seat)
        if not plays:
            return 0
        partner = (seat + 2) % 4 if self.partnered else None
        count = 0
        for before, trick, closed, bit, later in plays:
            hand = hidden | later
            if rule_card(hand, ALL_CARDS ^ hand ^ before, list(trick), seat, closed, partner, self.bids) != bit:
                count += 1
                if count > most:
                    break
        return count


def habit_agreement(view: View, hands: list[list[int]], mismatch: float, judged=None) -> float:
    """How well the plays so far of the seats in `judged` (default: every other seat) fit the rule
    player's habits, were `hands` the deal: `mismatch` to the power of the plays that differ from the
    habitual card."""
    return HabitCheck(view, range(4) if judged is None else judged).agreement(hands, mismatch)


def habit_guesses(view: View, judged, rng: random.Random, count: int, chains: int, sweeps: int,
                  mismatch: float) -> tuple[list[list[list[int]]], list[float]]:
    """`count` guesses at the hidden hands, each weighted by `habit_agreement`, drawn in proportion to
    that weight: Metropolis sampling over the deals consistent with what `view`'s seat has seen, by
    swapping two hidden cards between two other seats (each card to a seat not void in its suit).
    Each of `chains` chains starts from a `consistent_deal`, makes `sweeps` swaps a seat to settle,
    then gives its share of the guesses, a few swaps apart."""
    others = [seat for seat in range(4) if seat != view.seat]
    check = HabitCheck(view, judged)
    void_masks = [sum(SUIT_MASK[suit] for suit in view.voids[seat]) for seat in range(4)]
    log_mismatch = math.log(mismatch)
    settle = sweeps * len(others)
    per_chain = -(-count // chains)
    spacing = max(1, settle // (2 * per_chain))
    guesses, weights = [], []
    for _ in range(chains):
        hidden = [mask_of(hand) if seat != view.seat else 0 for seat, hand in enumerate(consistent_deal(view, rng))]
        misses = [check.misses(seat, hidden[seat]) for seat in range(4)]
        for step in range(settle + per_chain * spacing):
            a, b = rng.sample(others, 2)
            giving, taking = bits_of(hidden[a] & ~void_masks[b]), bits_of(hidden[b] & ~void_masks[a])
            if giving and taking:
                swap = 1 << rng.choice(giving) | 1 << rng.choice(taking)
                new_a, new_b = hidden[a] ^ swap, hidden[b] ^ swap
                # a swap that explains two plays fewer is accepted mismatch² of the time: not worth counting past
                misses_a = check.misses(a, new_a, misses[a] + 2)
                misses_b = check.misses(b, new_b, misses[b] + 2)
                worse = misses_a + misses_b - misses[a] - misses[b]
                if worse <= 0 or rng.random() < math.exp(worse * log_mismatch):
                    hidden[a], hidden[b], misses[a], misses[b] = new_a, new_b, misses_a, misses_b
            if step >= settle and (step - settle) % spacing == 0 and len(guesses) < count:
                hands = [[CARD_OF_BIT[bit] for bit in bits_of(mask)] for mask in hidden]
                hands[view.seat] = list(view.hand)
                guesses.append(hands)
                weights.append(mismatch ** sum(misses))
    return guesses, weights


class Deal:
    """A position with every hand known (one guess at the hidden cards) as masks, played out fast,
    the seats by `policy` (the rule players' habits)."""

    __slots__ = ("hands", "trick", "to_play", "taken", "spades_closed", "policy")

    def __init__(self, hands, trick, to_play, taken, spades_closed, policy):
        self.hands, self.trick, self.to_play, self.taken = hands, trick, to_play, taken
        self.spades_closed, self.policy = spades_closed, policy

    def copy(self) -> "Deal":
        return Deal(list(self.hands), list(self.trick), self.to_play, list(self.taken), self.spades_closed, self.policy)

    def legal(self) -> list[int]:
        return bits_of(legal_mask(self.hands[self.to_play], self.trick, self.spades_closed))

    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_play]

    def play(self, bit: int) -> None:
        self.hands[self.to_play] ^= 1 << bit
        self.trick.append((self.to_play, bit))
        if bit < 13:
            self.spades_closed = False
        if len(self.trick) == 4:
            winner = trick_winner(self.trick)
            self.taken[winner] += 1
            self.trick = []
            self.to_play = winner
        else:
            self.to_play = (self.to_play + 1) % 4

    def habitual_card(self) -> int:
        return self.policy(self.to_play, self.hands, self.trick, self.spades_closed)

    def play_out(self) -> None:
        while not self.over():
            self.play(self.habitual_card())


def guessed_deal(view: View, hands: list[list[int]]) -> Deal:
    return Deal([mask_of(hand) for hand in hands], view.trick_bits(), view.seat, list(view.taken),
                view.spades_closed, model_for(view))


# --- information-set Monte Carlo tree search ---------------------------------------------------------

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
    weighs each by how well it explains the others' plays so far (`habit_agreement`), and each
    iteration picks one by weight. In that guess it tries every card this seat may play now, so that
    the cards are compared on equal terms. After that card the other seats play by the rule
    player's habits (the model of the opponents), and this seat's own later cards are chosen in a
    tree of its decisions, among those legal in the guess (UCB1 with availability counts); a new node
    is added and the hand played out by the habits. Every node on the way is credited with this
    seat's result (`outcome`).

    The think budget is `iterations` guesses (a count, not a time: the same decision every time).
    """
    iterations: int = 60
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
        root = {BIT[card]: Node() for card in legal}
        guesses = [consistent_deal(view, self.rng) for _ in range(self.pool)]
        check = HabitCheck(view, range(4))
        weights = [check.agreement(hands, self.mismatch) for hands in guesses]
        for _ in range(self.iterations):
            hands = self.rng.choices(guesses, weights)[0]
            for bit, node in root.items():
                deal = guessed_deal(view, hands)
                deal.play(bit)
                node.available += 1
                reward = self._descend(node, deal, view.seat, outcome)
                node.visits += 1
                node.reward += reward
        return CARD_OF_BIT[max(root, key=lambda bit: root[bit].reward / root[bit].visits)]

    def _descend(self, node: Node, deal: Deal, seat: int, outcome) -> float:
        """Play on from `node` to the end of the hand in this guess; update the tree below; the reward."""
        path = []
        while not deal.over():
            if deal.to_play != seat:
                deal.play(deal.habitual_card())
                continue
            legal = deal.legal()
            children = node.children
            for bit in legal:
                if bit in children:
                    children[bit].available += 1
            untried = [bit for bit in legal if bit not in children]
            if untried:
                bit = self.rng.choice(untried)
                node = children[bit] = Node()
                node.available = 1
                deal.play(bit)
                path.append(node)
                break
            bit = max(legal, key=lambda option: self._ucb(children[option]))
            node = children[bit]
            deal.play(bit)
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


# --- solving guessed deals exactly --------------------------------------------------------------------

NIL_TRICK_WORTH = -4     # a trick taken by our own nil bidder: it breaks the nil
SET_NIL_WORTH = 2        # a trick taken by an opposing nil bidder: it sets their nil


def trick_worth(view: View) -> list[int]:
    """What a trick won by each seat is worth to `view`'s side: its own tricks (and its partner's)
    1; in the full game a trick our nil bidder takes costs, one an opposing nil bidder takes pays."""
    worth = []
    for seat in range(4):
        nil = view.bids is not None and view.bids[seat] == 0
        if seat in view.side:
            worth.append(NIL_TRICK_WORTH if nil else 1)
        else:
            worth.append(SET_NIL_WORTH if nil else 0)
    return worth


MOST_STEPS = 200_000   # the solver level's work a decision (see Budget): at most about 1.6 s of CPU here


@dataclass
class SolverPlayer:
    """Sampled deals searched by information set: `samples` guesses at the hidden hands, consistent
    with what this seat has seen (its cards, every card played, who showed out) and drawn in
    proportion to how well they explain the other seats' plays by the rule player's habits
    (`habit_guesses`: `chains` Metropolis chains of `sweeps` swaps a seat, a play unexplained costing
    a factor `mismatch`), then searched together (`InformationSetSearch`) `depth` turns of this seat
    deep: a card is chosen once for all the guesses that this seat could not yet tell apart, so that
    no plan leans on knowing which guess is the deal. Past that depth each guess is played out by the
    rule player's habits, or, once this seat holds `exact_within` cards or fewer, solved exactly
    (`Solver`: this seat, and its partner in the full game, choose their cards; the other seats play
    by the habits). The card played has the best weighted mean of what this side takes from here on
    (tricks; in the full game nil tricks count as `trick_worth` says); equal cards go to the lowest
    (a spade last). The search deepens a turn at a time; should it pass `most_steps` of work (a step
    a card played out or a position solved: work, not time, so that a decision is the same every
    time), the deepest search finished decides (and with none finished, the rule player's card)."""
    samples: int = 30
    chains: int = 6
    sweeps: int = 30
    most_steps: int = MOST_STEPS
    exact_within: int = 7
    depth: int = 2
    mismatch: float = 0.001
    rng: random.Random = field(default_factory=random.Random)
    name = "solver"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        budget = Budget(self.most_steps)
        guesses, weights = self.guesses(view)
        policy, worth = model_for(view), trick_worth(view)
        solver = Solver(view.side, policy, worth, budget) if len(view.hand) <= self.exact_within else None
        search = InformationSetSearch(view.seat, worth, solver, budget)
        deals = [Deal([mask_of(hand) for hand in guess], view.trick_bits(), view.seat, [0] * 4, view.spades_closed,
                      policy) for guess in guesses]
        totals = None
        for depth in range(1, self.depth + 1):
            try:
                totals = search.card_totals(deals, weights, depth)
            except OutOfWork:
                break
        if totals is None:
            return RulePlayer().choose(view)
        return CARD_OF_BIT[max(totals, key=lambda bit: (totals[bit], -rank_of_bit(bit), bit >= 13))]

    def guesses(self, view: View) -> tuple[list[list[list[int]]], list[float]]:
        return habit_guesses(view, set(range(4)) - view.side, self.rng, self.samples, self.chains, self.sweeps,
                             self.mismatch)


class InformationSetSearch:
    """`seat`'s cards chosen over several guessed deals at once, the other seats playing by the
    habits in each. After each card the guesses are split by what `seat` then sees (the other seats'
    cards up to its next turn); each part, a set of deals it cannot tell apart, gets one card at that
    turn: the one best for that part's weighted total. Unlike solving each guess alone and averaging,
    this never credits a plan that would need to know the deal. Below the search each deal is solved
    exactly by `solver` (if given) or played out by the habits; a deal's value is what the tricks won
    from the start are worth to `seat`'s side (`worth`). Each card played and each position solved is
    spent from `budget`; raises OutOfWork when it is used up."""

    def __init__(self, seat: int, worth: list[int], solver: Solver | None, budget: Budget):
        self.seat, self.worth, self.solver, self.budget = seat, worth, solver, budget

    def card_totals(self, deals: list[Deal], weights: list[float], depth: int) -> dict[int, float]:
        """The weighted total value after each card `seat` may play now (all `deals` at its turn)."""
        return {bit: weighted_total(weights, values)
                for bit, values in self._values_after_each_card(deals, weights, depth).items()}

    def _values_after_each_card(self, deals, weights, depth) -> dict[int, list[float]]:
        values_after = {}
        for bit in deals[0].legal():
            values = [0.0] * len(deals)
            parts = {}
            for index, deal in enumerate(deals):
                deal = deal.copy()
                deal.play(bit)
                seen = []
                while not deal.over() and deal.to_play != self.seat:
                    card = deal.habitual_card()
                    seen.append(card)
                    deal.play(card)
                self.budget.spend(1 + len(seen))
                parts.setdefault(tuple(seen), []).append((index, deal))
            for part in parts.values():
                part_deals = [deal for _, deal in part]
                if depth == 1 or part_deals[0].over():
                    part_values = [self._value_below(deal) for deal in part_deals]
                else:
                    part_values = self._best_values(part_deals, [weights[index] for index, _ in part], depth - 1)
                for (index, _), value in zip(part, part_values):
                    values[index] = value
            values_after[bit] = values
        return values_after

    def _best_values(self, deals, weights, depth) -> list[float]:
        """Each deal's value when `seat` plays the card best for these deals taken together."""
        values_after = self._values_after_each_card(deals, weights, depth)
        best = max(values_after, key=lambda bit: weighted_total(weights, values_after[bit]))
        return values_after[best]

    def _value_below(self, deal: Deal) -> float:
        if self.solver and not deal.over():
            return self._won(deal) + self.solver.value(deal.hands, deal.trick, deal.to_play, deal.spades_closed)
        self.budget.spend(bin(deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]).count("1"))
        deal.play_out()
        return self._won(deal)

    def _won(self, deal: Deal) -> int:
        return sum(worth * tricks for worth, tricks in zip(self.worth, deal.taken))


def weighted_total(weights: list[float], values: list[float]) -> float:
    return sum(weight * value for weight, value in zip(weights, values))


def dealt_hands(deck) -> list[int]:
    """Each seat's thirteen cards as the seed deals them from `deck` (card names), as masks."""
    return [mask_of(card_number(card) for card in deck[13 * (3 - seat):13 * (4 - seat)]) for seat in range(4)]


class SeeingPlayer:
    """For measuring only, never a level: a player that sees every hand (dealt from `deck` as the
    seed deals) and knows the rule players' habits. With `levels` it tries each card it may play
    now and at its next `levels` - 1 turns, the rest played by the habits; with `levels=None` it
    solves the rest of the hand exactly."""

    def __init__(self, deck, levels: int | None):
        self.dealt = dealt_hands(deck)
        self.levels = levels
        self.name = "exact" if levels is None else f"{levels}-level"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        played = mask_of(view.played)
        hands = [hand & ~played for hand in self.dealt]
        if self.levels is None:
            values = Solver({view.seat}, model_for(view)).card_values(hands, view.trick_bits(), view.seat,
                                                                      view.spades_closed)
        else:
            values = lookahead_values(view, hands, self.levels, [int(seat == view.seat) for seat in range(4)])
        return CARD_OF_BIT[max(values, key=lambda bit: (values[bit], -rank_of_bit(bit), bit >= 13))]


def looked_ahead(deal: Deal, seat: int, levels: int, worth: list[int]) -> int:
    """What the tricks taken by the end of `deal` are worth (`worth` a trick per winning seat), trying
    every card at `seat`'s next `levels` turns, every other card played by the habits."""
    while not deal.over():
        if deal.to_play == seat and levels:
            best = None
            for bit in deal.legal():
                branch = deal.copy()
                branch.play(bit)
                value = looked_ahead(branch, seat, levels - 1, worth)
                best = value if best is None else max(best, value)
            return best
        deal.play(deal.habitual_card())
    return sum(value * tricks for value, tricks in zip(worth, deal.taken))


def lookahead_values(view: View, hands: list[int], levels: int, worth: list[int]) -> dict[int, int]:
    """`looked_ahead` after each card `view`'s seat may play, on the deal `hands` (masks)."""
    values = {}
    for card in view.legal():
        deal = Deal(list(hands), view.trick_bits(), view.seat, [0] * 4, view.spades_closed, model_for(view))
        deal.play(BIT[card])
        values[BIT[card]] = looked_ahead(deal, view.seat, levels - 1, worth)
    return values


# --- bidding ---------------------------------------------------------------------------------------

def sampled_bid(hand: list[str], seat: int, leader: int, partner_bid: int | None, rng: random.Random,
                deals: int = 40) -> int:
    """A bid from play: the other hands dealt `deals` times at random, each hand played out by the rule
    player's habits with partners (seat and seat + 2), spades to be broken, `leader` first. Nil when
    ducking kept this hand out of every trick in at least 80% of the deals (and the partner has not bid
    nil); else the mean of its tricks, rounded, at least 1 and at most what the partner's bid leaves."""
    mine = [card_number(card) for card in hand]
    unseen = [card for card in range(52) if card not in set(mine)]
    total = clean = 0
    for _ in range(deals):
        rng.shuffle(unseen)
        others = [seat_ for seat_ in range(4) if seat_ != seat]
        hands = [0] * 4
        hands[seat] = mask_of(mine)
        for position, other in enumerate(others):
            hands[other] = mask_of(unseen[13 * position:13 * position + 13])
        for bids in (None, [0 if other == seat else 3 for other in range(4)]):
            deal = Deal(list(hands), [], leader, [0] * 4, True, rule_model(lambda other: (other + 2) % 4, bids))
            deal.play_out()
            if bids is None:
                total += deal.taken[seat]
            else:
                clean += deal.taken[seat] == 0
    if partner_bid != 0 and clean >= 0.8 * deals:
        return 0
    most = 13 - (partner_bid or 0)
    return min(most, max(1, round(total / deals)))  # 0 (nil) only when the partner's bid leaves nothing


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


def play_seed_hand(deck, players: list, watch=None) -> tuple[list[int], list[list[float]]]:
    """Play one hand of the seed's game from `deck` (card names) with a computer player in each seat;
    `watch(seat, view, card)`, if given, sees each decision with a choice in it.

    Returns the tricks per seat and, per seat, the CPU seconds each decision with a choice took."""
    game = Spades(deck)
    times = [[] for _ in range(4)]
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
