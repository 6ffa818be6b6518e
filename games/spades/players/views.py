"""What a seat knows when it is to play (`View`), read from the seed's game or the full game, and the
results the players aim at. Cards are `games.cards` numbers (`Card.index`)."""

from dataclasses import dataclass, field

from ...cards import BY_NAME, DECK_SIZE, suit_of
from ..full_rules import USUAL, FullSpades, hand_points, partner_of
from ..house_rules import HouseRules
from ..rules import PLAYERS, Spades, seat_of
from .solver import BIT, legal_mask, mask_of


SUIT = [suit_of(card) for card in range(DECK_SIZE)]  # per Card.index


def card_number(name: str) -> int:
    return BY_NAME[name].index


@dataclass
class View:
    """One seat's knowledge at its turn. Seats are 0-3 and play in that order (player_0 first)."""

    seat: int
    hand: list[int]
    trick: list[tuple[int, int]]  # (seat, card) of the trick so far, in the order played
    played: set[int]  # every card seen played, the current trick's included
    voids: list[set[int]]  # per seat: suits it has shown it does not hold
    hand_sizes: list[int]  # per seat, before this play
    taken: list[int]  # tricks won so far, per seat
    spades_must_be_broken: bool = False  # full rules: no spade lead until a spade has been played
    spades_broken: bool = False
    partner: int | None = None  # full rules: the partner's seat
    bids: list[int] | None = None  # full rules: each seat's bid (0 = nil)
    history: list[tuple[int, int]] = field(default_factory=list)  # every (seat, card) played, in order
    rules: HouseRules = USUAL  # full rules: the table's scoring

    @property
    def side(self) -> set[int]:
        """The seats playing for this seat's result: itself, and its partner in the full game."""
        return {self.seat} if self.partner is None else {self.seat, self.partner}

    @property
    def spades_closed(self) -> bool:
        return self.spades_must_be_broken and not self.spades_broken

    @property
    def opponents(self) -> list[int]:
        return [seat for seat in range(4) if seat not in self.side]

    def tricks_needed(self, seats) -> int:
        """The tricks the contract of `seats` (their bids other than nil) still lacks (full game)."""
        return sum(self.bids[seat] - self.taken[seat] for seat in seats if self.bids[seat])

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


def shown_voids(tricks) -> list[set[int]]:
    """Suits each seat has shown it lacks, from tricks given as [(player, card name), ...]."""
    voids: list[set[int]] = [set() for _ in range(4)]
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
    return View(
        seat=seat_of(player),
        hand=[card_number(card) for card in state["hands"][player]],
        trick=[(seat_of(who), card_number(card)) for who, card in game.trick],
        played={card_number(card) for trick in tricks for _, card in trick},
        voids=shown_voids(tricks),
        hand_sizes=[len(state["hands"][other]) for other in PLAYERS],
        taken=[state["player_scores"][other] for other in PLAYERS],
        history=[(seat_of(who), card_number(card)) for trick in tricks for who, card in trick],
    )


def full_view(game: FullSpades, player: str) -> View:
    """What `player` knows in the full game: the seed's view, with partner, bids and broken spades."""
    view = seed_view(game, player)
    view.spades_must_be_broken = True
    view.spades_broken = game.spades_broken
    view.partner = seat_of(partner_of(player))
    view.bids = [game.bids[other] for other in PLAYERS]
    view.rules = game.rules
    return view


def full_outcome(bids: list[int], rules: HouseRules = USUAL):
    """The full game's reward for a hand's tricks under the table's `rules`: each seat gets how far
    its partnership's points are ahead of the other's (a game is won on the difference: an
    opponents' contract set is worth as much as one's own made), bags counted at their real cost
    (their point, and their share of the penalty), scaled into [0, 1]."""
    bag_cost = 1 + rules.bag_penalty / rules.bags

    def outcome(taken: list[int]) -> list[float]:
        points = hand_points(dict(zip(PLAYERS, bids)), dict(zip(PLAYERS, taken)), rules=rules)
        worth = [score - bag_cost * bags for score, bags in points]
        team_values = [min(1.0, max(0.0, (worth[team] - worth[1 - team] + 600) / 1200)) for team in (0, 1)]
        return [team_values[seat % 2] for seat in range(4)]

    return outcome
