"""The seed's Spades, exactly: four players, no bidding, no partners, 13 tricks, most tricks wins.

Cards are named as the seed names them, which is `games.cards`' naming: rank `a 2-9 t j q k`, suit
`s h d c` ("td" = ten of diamonds). Messages are the seed's one directive, `play_card $dummy
$card_name`, written as its words with spaces between: `receive("player_0", "play_card x td")`
plays the ten of diamonds for player_0 (the middle word is the seed's unused `$dummy`; any word
will do). The answer is `(True, None)` (ACCEPT) or `(False, text)` (REJECT, with the seed's text);
a REJECT changes nothing.

Moves, for the table's referee and the state API (`SpadesState`), are a card's name ("td"):
`make(player, move)` answers as `receive` does, with MoveRefused in the seed's words.
"""

import copy
import random

from ..cards import BY_NAME, DECK, DECK_SIZE, NAMES, RANK_LETTERS, SUIT_LETTERS, Card, Suit, checked_deck
from ..protocol import TERMINAL, MoveRefused, Outcome, Termination

PLAYERS = tuple(f"player_{number}" for number in range(4))
HAND_SIZE = DECK_SIZE // len(PLAYERS)  # 13 cards dealt to each
TRICKS_IN_A_HAND = HAND_SIZE
PLAY_CARD = "play_card"


SUIT_LETTER = {card.name: card.suit.letter for card in DECK}  # looked up card by card: kept at hand


def seat_of(player: str) -> int:
    """The seat (0-3) of the seed's player name ("player_2" is 2)."""
    return PLAYERS.index(player)


def suit_of(card: str) -> str:
    """The suit letter of a card name: "d" for "td"."""
    return SUIT_LETTER[card]


def spades_value(card: Card, suit_led: str | None) -> int:
    """The seed's spades_value: a spade beats the suit led, which beats any other card (worth 0);
    within them the rank counts, aces high."""
    if card.suit == Suit.SPADES:
        return card.high_rank + 100
    if card.suit.letter == suit_led:
        return card.high_rank + 50
    return 0


TRICK_VALUE = {(card.name, led): spades_value(card, led) for card in DECK for led in SUIT_LETTERS}


def trick_value(card: str, suit_led: str) -> int:
    """The seed's spades_value of card name `card` when `suit_led` (a suit letter) was led."""
    return TRICK_VALUE[card, suit_led]


def shuffled_deck(rng: random.Random) -> list[str]:
    """The 52 card names in the order `rng` shuffles them (the seed's SHUFFLE of draw_deck)."""
    deck = list(NAMES)
    rng.shuffle(deck)
    return deck


def dealing_rng(seed: int | None) -> random.Random:
    """The random numbers that deal the hands of `seed`: any whole number (0 and negatives too,
    each its own deals), or None for new deals every time."""
    return random.Random(None if seed is None else f"spades {seed}")


def message_words(message: str) -> list[str]:
    """A message's words: the directive's name, then its arguments."""
    return message.split()


def unknown_message(message: str) -> str:
    """The refusal for a message that is not `play_card <word> <card>` (the seed has no text for it)."""
    return f"unknown message: {message}"


class Spades:
    """One hand of the seed's ruleset, dealt from `deck` (52 card names, front first)."""

    def __init__(self, deck):
        cards = [card.name for card in checked_deck(deck)]
        # set_up: blocks of 13 from the front of the deck, player_3 first
        self._hands = {f"player_{seat}": cards[HAND_SIZE * (3 - seat) : HAND_SIZE * (4 - seat)] for seat in range(4)}
        self._plays = {player: [] for player in PLAYERS}
        self._play_order = list(PLAYERS)
        self._scores = {player: 0 for player in PLAYERS}
        self._suit_led = None
        self._trick_count = 0
        self._trick_num = 0
        self.tricks: list[tuple[list[tuple[str, str]], str]] = []  # finished tricks: [(player, card)...], winner
        self._trick: list[tuple[str, str]] = []

    # --- the seed's RECEIVE play_card ---------------------------------------------------------------
    def receive(self, player: str, message: str) -> tuple[bool, str | None]:
        words = message_words(message)
        if len(words) != 3 or words[0] != PLAY_CARD:
            return False, unknown_message(message)
        return self.play_card(player, words[2])

    def play_card(self, player: str, card: str) -> tuple[bool, str | None]:
        refusal = self.refusal(player, card)
        if refusal:
            return False, refusal
        self._play(player, card)
        return True, None

    # --- moves: what the referee and the state API make ---------------------------------------------
    def make(self, player: str, move: str) -> str:
        """Make `move` (a card name) for `player`, checked as the seed's RECEIVE checks it:
        MoveRefused with its REJECT text (nothing changed), else the move as made."""
        refusal = self.refusal(player, move)
        if refusal:
            raise MoveRefused(refusal)
        self._play(player, move)
        return move

    def moves_open_to(self, player: str) -> list[str]:
        """The moves `player` may make now, as typed."""
        return self.legal_cards(player)

    def move_refusal(self, move: str) -> str | None:
        """Why `move` is no move of this game at all (whoever makes it), or None."""
        return card_refusal(move)

    def _play(self, player: str, card: str) -> None:
        """The seed's play_card past its checks."""
        self._hands[player].remove(card)
        self._plays[player].append(card)
        self._trick.append((player, card))
        self._trick_count += 1
        if self._suit_led is None:
            self._suit_led = suit_of(card)
        self._play_order.append(self._play_order.pop(0))
        if self._trick_count == 4:
            self._clean_up_trick()

    def refusal(self, player: str, card: str) -> str | None:
        """The seed's REJECT text for `player` playing `card` now, or None when it may."""
        if player != self._play_order[0]:
            return f"not player turn: {player}"
        hand = self._hands[player]
        if card not in hand:
            return f"card not in player hand: {card}"
        led = self._suit_led
        if led is not None and SUIT_LETTER[card] != led and any(SUIT_LETTER[held] == led for held in hand):
            return f"must follow suit: {card}"
        return None

    def _clean_up_trick(self) -> None:
        values = [(player, trick_value(self._plays[player].pop(0), self._suit_led)) for player in self._play_order]
        winner = max(values, key=lambda pair: pair[1])[0]  # the top value is unique: one spade or led card wins
        self._scores[winner] += 1
        self._trick_count = 0
        self._trick_num += 1
        self._suit_led = None
        while self._play_order[0] != winner:
            self._play_order.append(self._play_order.pop(0))
        self.tricks.append((self._trick, winner))
        self._trick = []

    # --- what a player or the screen may look at ---------------------------------------------------
    def state(self) -> dict:
        return {
            "play_order": list(self._play_order),
            "hands": {player: list(cards) for player, cards in self._hands.items()},
            "plays": {player: list(cards) for player, cards in self._plays.items()},
            "player_scores": dict(self._scores),
            "suit_led": self._suit_led,
            "current_trick_count": self._trick_count,
            "current_trick_num": self._trick_num,
        }

    @property
    def to_play(self) -> str:
        return self._play_order[0]

    @property
    def trick(self) -> list[tuple[str, str]]:
        """The cards of the trick being played, in the order played: [(player, card), ...]."""
        return list(self._trick)

    @property
    def suit_led(self) -> str | None:
        return self._suit_led

    def hand(self, player: str) -> list[str]:
        return list(self._hands[player])

    def scores(self) -> dict[str, int]:
        return dict(self._scores)

    def legal_cards(self, player: str) -> list[str]:
        """The cards `player` may play now (none when it is not their turn): those `refusal` lets
        through, found in one pass."""
        if player != self._play_order[0]:
            return []
        hand = self._hands[player]
        following = [card for card in hand if SUIT_LETTER[card] == self._suit_led]
        return following or list(hand)

    @property
    def finished(self) -> bool:
        return self._trick_num >= TRICKS_IN_A_HAND

    def winners(self) -> list[str]:
        """The players with the most tricks (ties shared); only meaningful once the hand is finished."""
        best = max(self._scores.values())
        return [player for player in PLAYERS if self._scores[player] == best]

    def outcome(self) -> Outcome | None:
        """None until the hand is over; then HAND_OVER, the players (by number) with the most
        tricks and the tricks each took."""
        if not self.finished:
            return None
        scores = self._scores
        return Outcome(
            Termination.HAND_OVER,
            tuple(PLAYERS.index(player) for player in self.winners()),
            tuple(float(scores[player]) for player in PLAYERS),
        )

    def seen_by(self, player: str) -> list[str]:
        """What `player` may see, as lines of text: its own hand, how many cards each other hand
        holds (never which), the tricks taken and the cards played."""
        scores = self._scores
        lines = [f"{player}: {' '.join(self._hands[player]) or '-'}"]
        lines += [f"{other} {scores[other]:2d} tricks, {len(self._hands[other]):2d} cards" for other in PLAYERS]
        lines.append("trick: " + (" ".join(f"{who}:{card}" for who, card in self._trick) or "-"))
        lines += [
            f"trick {number}: " + " ".join(f"{who}:{card}" for who, card in cards) + f" -> {winner}"
            for number, (cards, winner) in enumerate(self.tricks, 1)
        ]
        lines.append("hand over" if self.finished else f"to play: {self.to_play}")
        return lines


def card_refusal(action: str) -> str | None:
    """Why `action` is not a card name, or None when it is one."""
    if action in BY_NAME:
        return None
    return f"not a card: {action!r} (a rank {RANK_LETTERS}, then a suit {SUIT_LETTERS}: td)"


def hand_text(game: Spades) -> list[str]:
    """A hand of the seed's game as lines of text: each player's cards and tricks, the trick on the table."""
    scores = game.scores()
    lines = [f"{player} {scores[player]:2d} tricks: {' '.join(game.hand(player))}" for player in PLAYERS]
    lines.append("trick: " + (" ".join(f"{player}:{card}" for player, card in game.trick) or "-"))
    lines += [
        f"trick {number}: " + " ".join(f"{player}:{card}" for player, card in cards) + f" -> {winner}"
        for number, (cards, winner) in enumerate(game.tricks, 1)
    ]
    lines.append("hand over" if game.finished else f"to play: {game.to_play}")
    return lines


class FourPlayerState:
    """What the states of Spades share: four players, and the hand in play (`in_play()`: None
    once all is over)."""

    def in_play(self) -> Spades | None:
        raise NotImplementedError

    def num_players(self) -> int:
        return len(PLAYERS)

    def current_player(self) -> int:
        hand = self.in_play()
        return TERMINAL if hand is None else PLAYERS.index(hand.to_play)

    def legal_moves(self) -> list[str]:
        hand = self.in_play()
        return [] if hand is None else hand.moves_open_to(hand.to_play)

    def clone(self):
        return copy.deepcopy(self)


class SpadesState(FourPlayerState):
    """One hand of Spades as a `games.protocol.GameState`: the seed's, dealt from `seed`, or a
    `game` given (the seed's hand or the full game's, as a table deals it). A move is a card name
    as typed ("td"), or in the full game a bid ("bid 4", "nil", "blind nil"); the outcome's
    returns are each player's tricks. `history` is every move made, (player, move as made)."""

    def __init__(self, seed: int | None = None, *, game: Spades | None = None):
        self.game = Spades(shuffled_deck(dealing_rng(seed))) if game is None else game
        self.history: list[tuple[int, str]] = []

    def in_play(self) -> Spades | None:
        return None if self.game.finished else self.game

    def apply(self, move: str, player: int | None = None) -> None:
        """Make `move` for the player to move; or, with `player` (a seat's move at the table), for
        that player, checked in the seed's order (its turn first) and answered in its words."""
        if self.game.finished:
            raise MoveRefused("the hand is over")
        if player is None:
            refusal = self.game.move_refusal(move)
            if refusal:
                raise MoveRefused(refusal)
            mover = self.game.to_play
        else:
            mover = PLAYERS[player]
        made = self.game.make(mover, move)
        self.history.append((PLAYERS.index(mover), made))

    def outcome(self) -> Outcome | None:
        return self.game.outcome()

    def observation(self, player: int) -> str:
        return "\n".join(self.game.seen_by(PLAYERS[player]))

    def __str__(self) -> str:
        return "\n".join(hand_text(self.game))
