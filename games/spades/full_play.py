"""The full game at the table: bidding, partners (you and north), nil, bags, game to 500."""

import json
import os
from pathlib import Path

from spectrum.colours import RED

from ..datafolder import write_atomically
from .full_rules import TEAM_NAMES, FullMatch, FullSpades, choose_bid, partner_of, team_of
from .play import BEEP_PITCH, BEEP_SECONDS, HUMAN, PLAY_PAUSE_FRAMES, Table
from .players import SearchPlayer, full_outcome, full_view
from .rules import PLAYERS
from .screen import draw

HELP_BIDDING = "Bid: the tricks you will take"
SAVED_GAME = "spades-game.json"


class FullTable(Table):
    """Hands of the full game until a partnership reaches 500, then a new game."""

    def __init__(self, machine, *, level, rng, save_path: Path | None = None, blind_nil: bool = False):
        super().__init__(machine, level=level, rng=rng)
        self.save_path = save_path
        self.blind_nil = blind_nil
        self.notice = ""
        self.match = self.load_match()

    def load_match(self) -> FullMatch:
        """The game to 500 left unfinished last time, if any. An unreadable file is set aside
        (renamed, never deleted) and a new game begins, with a word to say so."""
        if self.save_path is None or not self.save_path.exists():
            return FullMatch(self.blind_nil)
        try:
            return FullMatch.from_saved(json.loads(self.save_path.read_text(encoding="utf-8")), self.blind_nil)
        except (OSError, UnicodeDecodeError, ValueError):
            kept = self.save_path.with_name(self.save_path.name + ".unreadable")
            os.replace(self.save_path, kept)
            self.notice = f"Saved game unreadable: kept as {kept.name}"
            return FullMatch(self.blind_nil)

    def save_match(self) -> None:
        """Keep the score after every hand, so that leaving loses no finished hand."""
        if self.save_path is not None:
            write_atomically(self.save_path, json.dumps(self.match.saved()))

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
                labels[player] = "bid nil" if bid == 0 else f"bid {bid}"
            else:
                labels[player] = f"{taken[player]} of " + ("nil" if bid == 0 else str(bid))
        return labels

    def before_play(self) -> None:
        """The bidding, left of the dealer first; then the search players learn what scores."""
        if self.notice:
            self.say(self.notice, RED)
            self.notice = ""
        while self.game.bidding:
            player = self.game.to_play
            if player == HUMAN:
                self.human_bid()
            else:
                draw(self.machine, self.scene(help_line=HELP_BIDDING))
                self.machine.pause(PLAY_PAUSE_FRAMES)
                partner_bid = self.game.bids[partner_of(player)]
                self.game.bid(player, choose_bid(self.game.hand(player), partner_bid))
                self.machine.beep(BEEP_SECONDS, BEEP_PITCH)
        bids = [self.game.bids[player] for player in PLAYERS]
        for player in self.players.values():
            if isinstance(player, SearchPlayer):
                player.outcome = full_outcome(bids)

    def human_bid(self) -> None:
        while True:
            draw(self.machine, self.scene(help_line=HELP_BIDDING))
            answer = self.machine.input("Your bid (0 = nil, 1-13)? ").strip()
            accepted, refusal = self.game.bid(HUMAN, answer)
            if accepted:
                self.say("")
                return
            self.say(refusal, RED)

    def results(self) -> list[str]:
        latest = self.match.history[-1]["points"]
        lines = []
        for team, name in enumerate(TEAM_NAMES):
            members = [player for player in PLAYERS if team_of(player) == team]
            bids = [self.game.bids[player] for player in members]
            bid = "+".join(str(bid) if bid else "nil" for bid in bids)
            took = sum(self.game.scores()[player] for player in members)
            lines.append(f"{name} bid {bid}, took {took}: {latest[team]:+d}")
        winner = self.match.winner
        if winner is not None:
            lines.append("YOU AND NORTH WIN THE GAME!" if winner == 0 else "WEST AND EAST WIN THE GAME")
        return lines

    def end_hand(self) -> None:
        self.match.score(self.game)
        self.save_match()

    def after_hand(self) -> None:
        super().after_hand()
        if self.match.over:
            self.match = FullMatch(self.blind_nil)
            self.save_match()
