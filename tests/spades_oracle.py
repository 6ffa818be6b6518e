"""The seed's ruleset run by the LudL interpreter, set up as the seed expects: the oracle that the
Python rules are tested against.

The seed names its props and containers but leaves their starting values to the site; ours are the
obvious ones: players `player_0`-`player_3` in that play order, scores 0, no suit led, trick count and
trick number 0, the 52 cards in `draw_deck` and empty hands and play piles.
"""

from pathlib import Path

from spades_ludl import Interpreter, Token, rules_text

from games.cards import DECK, checked_deck
from games.spades.rules import PLAYERS

SEED_NAME = "004_e9d9204818fa81b5.txt"


def seed_path(project_root: Path) -> Path:
    """Where the seed lives beside a checkout: ../shared/seeds/ from the project root."""
    return project_root.parent / "shared" / "seeds" / SEED_NAME


def seed_spades(seed_text: str, deck) -> Interpreter:
    """The seed's game, after its `set_up`, with SHUFFLE putting the draw deck in `deck`'s order."""
    order = {card.name: position for position, card in enumerate(checked_deck(deck))}
    containers = {"draw_deck": [Token(card.name, {"suit": card.suit.letter, "value": str(card.rank)}) for card in DECK]}
    for player in PLAYERS:
        containers[f"{player}_hand"] = []
        containers[f"{player}_play"] = []
    props = {
        "play_order": list(PLAYERS),
        "player_scores": {player: 0 for player in PLAYERS},
        "suit_led": None,
        "current_trick_count": 0,
        "current_trick_num": 0,
    }
    game = Interpreter(
        rules_text(seed_text),
        props=props,
        containers=containers,
        shuffle=lambda tokens: tokens.sort(key=lambda token: order[token.name]),
    )
    game.call("set_up")
    return game


def seed_state(game: Interpreter) -> dict:
    """The seed game's state in the shape of `Spades.state()`."""

    def names(container):
        return [token.name for token in game.containers[container]]

    return {
        "play_order": list(game.props["play_order"]),
        "hands": {player: names(f"{player}_hand") for player in PLAYERS},
        "plays": {player: names(f"{player}_play") for player in PLAYERS},
        "player_scores": dict(game.props["player_scores"]),
        "suit_led": game.props["suit_led"],
        "current_trick_count": game.props["current_trick_count"],
        "current_trick_num": game.props["current_trick_num"],
    }
