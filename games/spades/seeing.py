"""For measuring only: players that see every hand, the ceiling no honest player reaches."""

from .habits import Deal, model_for, rank_of_bit
from .solver import BIT, CARD_OF_BIT, Solver, mask_of
from .views import View, card_number


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
