"""Playing Spades at the Spectrum: you (south) against three computer players.

The seed's game: hand after hand of 13 tricks, most tricks wins. Keys: CAPS 5 / CAPS 8 (the arrow
keys) choose a card and ENTER plays it, or type the card (`td`); L shows the last trick; BREAK leaves.
"""

import random

from spectrum import Spectrum
from spectrum.colours import RED, WHITE, YELLOW

from ..cards import RANK_LETTERS, SUIT_LETTERS
from ..table import next_key_code
from .players import LEVELS, card_chosen, make_player
from .views import seed_view
from .rules import PLAYERS, TRICKS_IN_A_HAND, Spades, shuffled_deck
from .screen import KEY_DELETE, KEY_ENTER, KEY_LEFT, KEY_RIGHT, NAMES, Scene, draw, hand_order, prepare

HUMAN = "player_0"
PLAY_PAUSE_FRAMES = 20      # before each computer card, so the play can be followed
TRICK_PAUSE_FRAMES = 60     # a finished trick stays this long
BEEP_SECONDS, BEEP_PITCH = 0.04, 12
REFUSAL_BEEP = (0.15, -10)
HELP = "CAPS5/8+ENTER or type td  L:last"
NEXT_HAND = "ENTER: next hand"
AFTER_HAND_HELP = "L: the last trick again"
HOW_TO_LEAVE = "BREAK (Esc) leaves"  # said as each hand begins and after it


def tricks_label(count: int) -> str:
    return f"{count} trick" + ("" if count == 1 else "s")


def takes(player: str) -> str:
    return f"{NAMES[player]} {'take' if player == HUMAN else 'takes'}"


class Table:
    """The seed's game at the table: deals, turns, the human's keys and the computer players."""

    def __init__(self, machine: Spectrum, *, level: str, rng: random.Random):
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}: choose from {', '.join(LEVELS)}")
        self.machine = machine
        self.level = level
        self.rng = rng
        self.players = {player: make_player(level, random.Random(rng.random())) for player in PLAYERS if player != HUMAN}
        self.hands_won = {player: 0 for player in PLAYERS}
        self.game: Spades | None = None
        self.chosen = 0
        self.message = ""
        self.message_ink = WHITE

    # --- the game being played: what differs between the seed's game and the full one -------------
    def new_game(self, deck) -> Spades:
        return Spades(deck)

    def view(self, player: str):
        return seed_view(self.game, player)

    def title(self) -> str:
        if self.game.finished:
            return f"SPADES  hand over  {self.level}"
        return f"SPADES  trick {len(self.game.tricks) + 1} of {TRICKS_IN_A_HAND}  {self.level}"

    def score_line(self) -> str:
        won = self.hands_won
        return f"Hands won: YOU {won['player_0']} W {won['player_1']} N {won['player_2']} E {won['player_3']}"

    def labels(self) -> dict[str, str]:
        scores = self.game.scores()
        return {player: tricks_label(scores[player]) for player in PLAYERS}

    def hand_verdict(self) -> str:
        winners = self.game.winners()
        if len(winners) > 1:
            return "Shared: " + ", ".join(NAMES[player] for player in winners)
        return "YOU WIN THE HAND!" if winners == [HUMAN] else f"{NAMES[winners[0]]} wins the hand"

    def results(self) -> list[str]:
        scores = self.game.scores()
        tricks = [f"{NAMES[player]} {scores[player]}" for player in PLAYERS]
        return [self.hand_verdict(), f"{tricks[0]:<9}{tricks[1]:>9}", f"{tricks[2]:<9}{tricks[3]:>9}"]

    def next_key_line(self) -> str:
        return NEXT_HAND

    def before_play(self) -> None:
        """Anything between the deal and the first card (the full game's bidding)."""

    def card_played(self) -> None:
        if self.game.finished:
            self.end_hand()

    def end_hand(self) -> None:
        """The hand's result counted, as soon as its last card is played."""
        for player in self.game.winners():
            self.hands_won[player] += 1

    # --- play ---------------------------------------------------------------------------------------
    def play(self) -> None:
        """Hand after hand until BREAK."""
        prepare(self.machine)
        while True:
            self.play_hand(shuffled_deck(self.rng))
            self.after_hand()

    def play_hand(self, deck) -> None:
        self.game = self.new_game(deck)
        self.chosen = 0
        self.say(HOW_TO_LEAVE)
        self.before_play()
        while not self.game.finished:
            player = self.game.to_play
            if player == HUMAN:
                self.human_turn()
            else:
                self.computer_turn(player)
            if not self.game.trick:
                self.show_finished_trick()

    def scene(self, **changes) -> Scene:
        game = self.game
        scene = Scene(title=self.title(), hand=hand_order(game.hand(HUMAN)), trick=game.trick, labels=self.labels(),
                      to_play=None if game.finished else game.to_play, message=self.message,
                      message_ink=self.message_ink, help_line=HELP, score_line=self.score_line())
        for name, value in changes.items():
            setattr(scene, name, value)
        return scene

    def say(self, message: str, ink: int = WHITE) -> None:
        self.message, self.message_ink = message, ink

    def computer_turn(self, player: str) -> None:
        draw(self.machine, self.scene())
        self.machine.pause(PLAY_PAUSE_FRAMES)
        card = card_chosen(self.players[player], self.view(player), self.game.hand(player))
        accepted, refusal = self.game.receive(player, f"play_card - {card}")
        if not accepted:
            raise RuntimeError(f"the {self.level} player chose a card the rules refuse: {refusal}")
        self.card_played()
        draw(self.machine, self.scene() if self.game.trick else self.trick_taken_scene())
        self.machine.beep(BEEP_SECONDS, BEEP_PITCH)

    def human_turn(self) -> None:
        typed = ""
        self.raise_a_playable_card()
        while True:
            hand = hand_order(self.game.hand(HUMAN))
            draw(self.machine, self.scene(chosen=self.chosen))
            code = next_key_code(self.machine)
            key = chr(code).lower() if 32 <= code < 127 else ""
            if code in (KEY_LEFT, KEY_RIGHT):
                self.chosen = (self.chosen + (1 if code == KEY_RIGHT else -1)) % len(hand)
                typed = ""
                self.say("")
            elif code == KEY_ENTER:
                if self.try_card(hand[self.chosen]):
                    return
                typed = ""
            elif code == KEY_DELETE:
                typed = ""
                self.say("")
            elif typed:
                if self.try_card(typed + key):
                    return
                typed = ""
            elif key in RANK_LETTERS:
                typed = key
                self.say(f"Card: {key}_  (then its suit: {' '.join(SUIT_LETTERS)})")
            elif key == "l":
                self.show_last_trick()
            elif key:
                self.say("Keys: CAPS5/8 ENTER, a card, L")

    def raise_a_playable_card(self) -> None:
        """Your turn begins with a card you may play raised: the one raised before if it may be played,
        else the nearest one that may (the arrows still reach every card)."""
        hand = hand_order(self.game.hand(HUMAN))
        playable = set(self.game.legal_cards(HUMAN))
        self.chosen = max(0, min(self.chosen, len(hand) - 1))
        if hand[self.chosen] not in playable:
            self.chosen = min((index for index, card in enumerate(hand) if card in playable),
                              key=lambda index: abs(index - self.chosen))

    def try_card(self, card: str) -> bool:
        """Play `card` for the human; on a refusal, show the ruleset's text and buzz."""
        self.say("")
        accepted, refusal = self.game.receive(HUMAN, f"play_card - {card}")
        if accepted:
            self.card_played()
            return True
        self.say(refusal, RED)
        self.machine.beep(*REFUSAL_BEEP)
        return False

    def trick_taken_scene(self) -> Scene:
        """The trick just finished, and who takes it; after the last, who won the hand too."""
        cards, winner = self.game.tricks[-1]
        if self.game.finished:
            return self.scene(trick=cards, status=f"{takes(winner)} the last trick", to_play=winner,
                              message=self.hand_verdict(), message_ink=YELLOW, help_line="")
        return self.scene(trick=cards, status=f"{takes(winner)} the trick", to_play=winner)

    def show_finished_trick(self) -> None:
        draw(self.machine, self.trick_taken_scene())
        self.machine.pause(TRICK_PAUSE_FRAMES)

    def show_last_trick(self) -> None:
        if not self.game.tricks:
            self.say("No trick has been played yet")
            return
        cards, winner = self.game.tricks[-1]
        draw(self.machine, self.scene(trick=cards, status=f"Last trick: {NAMES[winner]} took it",
                                      message="Any key to go on", message_ink=YELLOW, chosen=None))
        next_key_code(self.machine)

    def after_hand(self) -> None:
        """The hand's result, until ENTER (or N) goes on."""
        while True:
            draw(self.machine, self.scene(results=[*self.results(), "", self.next_key_line()],
                                          help_line=AFTER_HAND_HELP, message=HOW_TO_LEAVE, message_ink=WHITE))
            code = next_key_code(self.machine)
            if code == KEY_ENTER or chr(code).lower() == "n":
                return
            if chr(code).lower() == "l":
                self.show_last_trick()
