"""For measuring only: players that see every hand, the ceiling no honest player reaches."""

from games.cards import trick_rank
from games.spades.rules import TRICKS_IN_A_HAND
from games.spades.players.habits import Deal, model_for
from games.spades.players.solver import BIT, CARD_OF_BIT, SPADES_BELOW, Solver, bits_of, mask_of, trick_winner
from games.spades.players.views import SUIT, View, card_number


def dealt_hands(deck) -> list[int]:
    """Each seat's thirteen cards as the seed deals them from `deck` (card names), as masks."""
    size = TRICKS_IN_A_HAND
    return [mask_of(card_number(card) for card in deck[size * (3 - seat) : size * (4 - seat)]) for seat in range(4)]


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
            values = Solver({view.seat}, model_for(view)).card_values(
                hands, view.trick_bits(), view.seat, view.spades_closed
            )
        else:
            values = lookahead_values(view, hands, self.levels, [int(seat == view.seat) for seat in range(4)])
        return CARD_OF_BIT[max(values, key=lambda bit: (values[bit], -trick_rank(bit), bit >= SPADES_BELOW))]


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


class Position:
    """A position of the seed's game with every hand known (card numbers), played on by players that
    choose from a `View`: what each seat would see is kept as it goes (cards played, who showed out
    of what, tricks taken)."""

    __slots__ = ("hands", "trick", "played", "voids", "taken", "history", "to_play")

    def __init__(self, hands, trick, played, voids, taken, history, to_play):
        self.hands, self.trick, self.played, self.voids = hands, trick, played, voids
        self.taken, self.history, self.to_play = taken, history, to_play

    @classmethod
    def seen_by(cls, view: View, dealt: list[int]) -> "Position":
        """`view`'s position with the hands of `dealt` (masks, as dealt) less the cards played."""
        played = mask_of(view.played)
        hands = [[CARD_OF_BIT[bit] for bit in bits_of(hand & ~played)] for hand in dealt]
        return cls(
            hands,
            list(view.trick),
            set(view.played),
            [set(voids) for voids in view.voids],
            list(view.taken),
            list(view.history),
            view.seat,
        )

    def copy(self) -> "Position":
        return Position(
            [list(hand) for hand in self.hands],
            list(self.trick),
            set(self.played),
            [set(voids) for voids in self.voids],
            list(self.taken),
            list(self.history),
            self.to_play,
        )

    def view(self) -> View:
        """What the seat to play sees."""
        return View(
            seat=self.to_play,
            hand=list(self.hands[self.to_play]),
            trick=list(self.trick),
            played=set(self.played),
            voids=[set(voids) for voids in self.voids],
            hand_sizes=[len(hand) for hand in self.hands],
            taken=list(self.taken),
            history=list(self.history),
        )

    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_play]

    def play(self, card: int) -> None:
        seat = self.to_play
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.add(card)
        self.history.append((seat, card))
        led = SUIT[self.trick[0][1]]
        if SUIT[card] != led:
            self.voids[seat].add(led)
        if len(self.trick) == 4:
            self.to_play = trick_winner([(at, BIT[played]) for at, played in self.trick])
            self.taken[self.to_play] += 1
            self.trick = []
        else:
            self.to_play = (seat + 1) % 4


class KnowingPlayer:
    """For measuring only, never a level: a player that sees every hand (dealt from `deck` as the
    seed deals) and knows how the others play: `kind` (a player that chooses from a `View` alone, as
    the rule player and the `opponents` do) plays every other seat. It tries each card it may play
    now and at its next `levels` - 1 turns; past them it plays as `kind` too. Against players other
    than ours, a ceiling nearer the truth than `SeeingPlayer`, which judges everyone by our habits."""

    def __init__(self, deck, kind, levels: int):
        self.dealt = dealt_hands(deck)
        self.kind, self.levels = kind, levels
        self.name = f"knowing, {levels}-level"

    def choose(self, view: View) -> int:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        position = Position.seen_by(view, self.dealt)
        values = {card: self._tricks_after(position, card, view.seat, self.levels - 1) for card in legal}
        return max(legal, key=lambda card: (values[card], -trick_rank(BIT[card]), BIT[card] >= SPADES_BELOW))

    def _tricks_after(self, position: Position, card: int, seat: int, levels: int) -> int:
        """`seat`'s tricks at the end of the hand after it plays `card`, trying every card at its
        next `levels` turns."""
        position = position.copy()
        position.play(card)
        while not position.over():
            if position.to_play == seat and levels:
                return max(self._tricks_after(position, later, seat, levels - 1) for later in position.view().legal())
            position.play(self.kind.choose(position.view()))
        return position.taken[seat]
