"""The full game at the table: bidding, partners (you and north), nil, bags, game to 500."""

import json
import os
from pathlib import Path

from spectrum.colours import RED, YELLOW

from ..datafolder import read_saved, set_aside_name, write_atomically
from ..table import next_key_code, wrapped
from .full_rules import (BLIND_NIL, TEAM_NAMES, FullMatch, FullSpades, bid_words, choose_bid, gambles_blind_nil,
                         partner_of, team_of)
from .play import BEEP_PITCH, BEEP_SECONDS, HUMAN, NEXT_HAND, PLAY_PAUSE_FRAMES, Table
from .bidding import sampled_bid
from .views import full_view
from .rules import PLAYERS
from .screen import NAMES, RESULT_WIDTH, draw

HELP_BIDDING = "Bid: the tricks you will take"
BLIND_NIL_QUESTION = ["You may bid BLIND NIL:", "no trick at all, for 200", "(lose 200 if you take one),",
                      "bid before you see your cards.", "Bid blind nil? (Y/N)"]
SAVED_GAME = "spades-game.json"


class FullTable(Table):
    """Hands of the full game until a partnership wins, then a new game."""

    def __init__(self, machine, *, level, rng, save_path: Path | None = None, blind_nil: bool = False):
        super().__init__(machine, level=level, rng=rng)
        self.save_path = save_path
        self.blind_nil = blind_nil
        self.notice: list[str] = []         # said once, in a panel, before the next bidding
        self.save_trouble: list[str] = []   # said with the hand's result while saving fails
        self.hand_seen = True                # False while you may still bid blind nil, cards face down
        self.blind_nil_chosen = False
        self.match = self.load_match()

    def load_match(self) -> FullMatch:
        """The game left unfinished last time, if any (one left at its final result is over: a new
        game begins). A file that cannot be read, or is no plain file the size of a saved game, is
        set aside under a new numbered name, never deleted, and a new game begins; the panel says
        where the file is kept. If it cannot even be moved, it stays where it is and this
        session's game is not saved, so that it is never written over."""
        path = self.save_path
        if path is None or not path.exists():
            return FullMatch(self.blind_nil)
        try:
            saved = FullMatch.from_saved(read_saved(path), self.blind_nil)
            return FullMatch(self.blind_nil) if saved.over else saved  # left at its result: a new game
        except (OSError, ValueError):
            pass
        kept = set_aside_name(path)
        try:
            os.replace(path, kept)
        except OSError as error:
            self.notice = ["Unreadable saved game, left", *wrapped(f"where it is ({error.strerror}):", RESULT_WIDTH),
                           *wrapped(str(path), RESULT_WIDTH), "This game will not be saved."]
            self.save_path = None
        else:
            self.notice = ["Unreadable saved game kept as:", *wrapped(str(kept), RESULT_WIDTH), "A new game begins."]
        return FullMatch(self.blind_nil)

    def save_match(self) -> None:
        """Keep the score after every hand, so that leaving loses no finished hand. A save that
        fails is said with the hand's result, and the game goes on."""
        if self.save_path is None:
            return
        try:
            write_atomically(self.save_path, json.dumps(self.match.saved()))
        except OSError as error:
            self.save_trouble = ["Score NOT saved:", *wrapped(error.strerror or str(error), RESULT_WIDTH),
                                 *wrapped(str(self.save_path), RESULT_WIDTH)]
        else:
            self.save_trouble = []

    def new_game(self, deck) -> FullSpades:
        return self.match.new_hand(deck)

    def view(self, player: str):
        return full_view(self.game, player)

    def title(self) -> str:
        if self.game.bidding:
            return f"SPADES  bidding  {self.level}"
        return super().title()

    def score_line(self) -> str:
        (us, them), (our_bags, their_bags) = self.match.scores, self.match.bags
        return f"US {us} ({our_bags} bags)  THEM {them} ({their_bags})"

    def labels(self) -> dict[str, str]:
        taken = self.game.scores()
        labels = {}
        for player in PLAYERS:
            bid = self.game.bids[player]
            if bid is None:
                labels[player] = "bid ..." if self.game.bidding else ""
            elif self.game.bidding:
                labels[player] = f"bid {bid_words(bid, player in self.game.blind)}"
            else:
                labels[player] = f"{taken[player]} of {bid_words(bid, player in self.game.blind)}"
        return labels

    def before_play(self) -> None:
        """The bidding, left of the dealer first; then the search players learn what scores."""
        if self.notice:
            draw(self.machine, self.scene(results=self.notice, message="Any key to go on", message_ink=YELLOW,
                                          help_line=""))
            next_key_code(self.machine)
            self.notice = []
        self.hand_seen = not self.game.may_bid_blind_nil(HUMAN)
        self.blind_nil_chosen = not self.hand_seen and self.ask_blind_nil()
        while self.game.bidding:
            player = self.game.to_play
            if player == HUMAN:
                self.human_bid()
            else:
                draw(self.machine, self.scene(help_line=HELP_BIDDING))
                self.machine.pause(PLAY_PAUSE_FRAMES)
                partner_bid = self.game.bids[partner_of(player)]
                accepted, refusal = self.game.bid(player, self.computer_bid(player, partner_bid))
                if not accepted:
                    raise RuntimeError(f"a computer player's bid was refused: {refusal}")
                self.machine.beep(BEEP_SECONDS, BEEP_PITCH)

    def scene(self, **changes):
        return super().scene(**({"hand_hidden": not self.hand_seen} | changes))

    def ask_blind_nil(self) -> bool:
        """Before you see your cards: Y bids blind nil when your turn comes, N looks at them."""
        while True:
            draw(self.machine, self.scene(results=BLIND_NIL_QUESTION, help_line="", message="Y or N",
                                          message_ink=YELLOW))
            key = chr(next_key_code(self.machine)).lower()
            if key in ("y", "n"):
                self.hand_seen = key == "n"
                return key == "y"

    def computer_bid(self, player: str, partner_bid: int | None) -> int | str:
        """Blind nil as a comeback where it may; else the strongest level bids from sampled play of its
        hand, the others estimate by rule."""
        if self.game.may_bid_blind_nil(player) and gambles_blind_nil(self.match.scores, team_of(player), partner_bid):
            return BLIND_NIL
        hand = self.game.hand(player)
        if self.level != "solver":
            return choose_bid(hand, partner_bid)
        leader = (PLAYERS.index(self.game.dealer) + 1) % 4
        return sampled_bid(hand, PLAYERS.index(player), leader, partner_bid, self.rng)

    def human_bid(self) -> None:
        if self.blind_nil_chosen:
            accepted, refusal = self.game.bid(HUMAN, BLIND_NIL)
            if not accepted:
                raise RuntimeError(f"your blind nil was refused: {refusal}")
            self.hand_seen = True
            self.say("You bid blind nil", YELLOW)
            return
        while True:
            draw(self.machine, self.scene(help_line=HELP_BIDDING))
            answer = self.machine.input(f"Your bid (0 = nil, 1-{self.game.highest_bid(HUMAN)})? ").strip()
            if answer.lower() == BLIND_NIL:
                self.say("No blind nil: you saw your cards", RED)
                continue
            accepted, refusal = self.game.bid(HUMAN, answer)
            if accepted:
                self.say("")
                return
            self.say(refusal, RED)

    def hand_verdict(self) -> str:
        ours, theirs = self.match.history[-1]["points"]
        if ours == theirs:
            return f"Hand even: {ours:+d} each"
        return f"{self.partnership(0)} win the hand" if ours > theirs else f"{self.partnership(1)} win the hand"

    @staticmethod
    def partnership(team: int) -> str:
        """The partners as the table names them: "YOU and NORTH", "WEST and EAST"."""
        return " and ".join(NAMES[player] for player in PLAYERS if team_of(player) == team)

    def results(self) -> list[str]:
        latest = self.match.history[-1]["points"]
        lines = [self.hand_verdict()]
        for team, name in enumerate(TEAM_NAMES):
            members = [player for player in PLAYERS if team_of(player) == team]
            bid = "+".join(bid_words(self.game.bids[player], player in self.game.blind) for player in members)
            took = sum(self.game.scores()[player] for player in members)
            line = f"{name} bid {bid}, took {took}: {latest[team]:+d}"
            lines.append(line if len(line) <= RESULT_WIDTH else f"{name} {bid}, took {took}: {latest[team]:+d}")
        winner = self.match.winner
        if winner is not None:
            lines.append("YOU AND NORTH WIN THE GAME!" if winner == 0 else "WEST AND EAST WIN THE GAME")
        return lines + self.save_trouble

    def next_key_line(self) -> str:
        return "ENTER: a new game" if self.match.over else NEXT_HAND

    def end_hand(self) -> None:
        self.match.score(self.game)
        self.save_match()

    def after_hand(self) -> None:
        super().after_hand()
        if self.match.over:
            self.match = FullMatch(self.blind_nil)
            self.save_match()
