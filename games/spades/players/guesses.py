"""Guessing the hidden hands: deals consistent with what a seat has seen (its cards, every card
played, who has shown out of a suit), and weighed by how well they explain the other seats' plays
by the rule player's habits — the plays of each seat that plays by them."""

import math
import random

from ...cards import DECK_SIZE
from .habits import Deal, model_for, rule_card
from .solver import ALL_CARDS, BIT, CARD_OF_BIT, SPADES_BELOW, SUIT_MASK, SUITS, bits_of, mask_of
from .views import SUIT, View


def deal_hidden_cards(view: View, rng: random.Random) -> list[list[int]] | None:
    """The other seats' hands, guessed: the unseen cards shuffled, each to a seat that may hold it (not
    void in its suit) with room for it, cards that fewer seats may hold first. None if stuck."""
    others = [seat for seat in range(4) if seat != view.seat]
    unseen = [card for card in range(DECK_SIZE) if card not in view.played and card not in view.hand]
    rng.shuffle(unseen)
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[view.seat] = list(view.hand)
    if not any(view.voids[seat] for seat in others):
        start = 0
        for seat in others:
            hands[seat] = unseen[start : start + view.hand_sizes[seat]]
            start += view.hand_sizes[seat]
        return hands
    can_hold = [[seat for seat in others if suit not in view.voids[seat]] for suit in SUITS]
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
    unseen = [card for card in range(DECK_SIZE) if card not in view.played and card not in view.hand]
    room = {seat: view.hand_sizes[seat] for seat in others}
    hands: list[list[int]] = [[] for _ in range(4)]
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
        self.plays: dict[int, list[list]] = {seat: [] for seat in judged if seat != view.seat}
        trick: list[tuple[int, int]] = []
        before, closed = 0, view.spades_must_be_broken
        for seat, card in view.history:
            bit = BIT[card]
            if seat in self.plays:
                self.plays[seat].append([before, tuple(trick), closed, bit, 0])
            before |= 1 << bit
            trick = [] if len(trick) == 3 else trick + [(seat, bit)]
            closed = closed and bit >= SPADES_BELOW
        for plays in self.plays.values():
            later = 0
            for play in reversed(plays):
                later |= 1 << play[3]
                play[4] = later

    def agreement(self, hands: list[list[int]], mismatch: float, seats=None) -> float:
        """`mismatch` to the power of the plays of the judged `seats` (default: all) that `hands` (a
        whole deal) fails to explain."""
        return mismatch ** sum(
            self.misses(seat, mask_of(hands[seat])) for seat in (self.plays if seats is None else seats)
        )

    def habitual_seats(self, guesses: list[list[list[int]]]) -> set[int]:
        """The judged seats whose every play so far one of `guesses` explains by the rule player's
        habits. A rule player's plays nearly always are; the others play by habits of their own (a
        person, another program), and what they played is no evidence for or against a guess."""
        return {
            seat for seat in self.plays if any(not self.misses(seat, mask_of(hands[seat]), most=0) for hands in guesses)
        }

    def misses(self, seat: int, hidden: int, most: int = DECK_SIZE) -> int:
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


def habit_guesses(
    view: View, judged, rng: random.Random, count: int, chains: int, sweeps: int, mismatch: float
) -> tuple[list[list[list[int]]], list[float]]:
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
    guesses: list = []
    weights: list[float] = []
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


def guessed_deal(view: View, hands: list[list[int]]) -> Deal:
    return Deal(
        [mask_of(hand) for hand in hands],
        view.trick_bits(),
        view.seat,
        list(view.taken),
        view.spades_closed,
        model_for(view),
    )
