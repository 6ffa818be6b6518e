"""The computer players' own fast rules (cards as numbers: solver.py, habits.py, views.py) against
the rules of the game (rules.py, full_rules.py), on random deals played out with random legal cards:
the same legal cards, the same trick winners, the same leader and the same tricks taken, card for
card."""

import random

import pytest

from games.spades.full_rules import FullSpades
from games.spades.players.habits import Deal
from games.spades.players.views import SUIT, full_view, seed_view
from games.spades.players.solver import BIT, legal_mask, mask_of, strength, trick_winner
from games.spades.rules import PLAYERS, Spades, shuffled_deck, suit_of, trick_value

DEALS = 150


def numbering(game) -> dict[str, int]:
    """Card name -> the players' number for it, read from the players' own view of each hand."""
    names = {}
    for player in PLAYERS:
        names.update(zip(game.hand(player), seed_view(game, player).hand))
    assert len(names) == 52 and sorted(names.values()) == list(range(52))
    return names


def play_side_by_side(game, view_of, spades_closed: bool, rng: random.Random) -> None:
    """Random legal play of `game` to its end, every step checked against the players' Deal."""
    number = numbering(game)
    deal = Deal(
        [mask_of(number[card] for card in game.hand(player)) for player in PLAYERS],
        [],
        PLAYERS.index(game.to_play),
        [0] * 4,
        spades_closed,
        policy=None,
    )
    while not game.finished:
        player = game.to_play
        seat = PLAYERS.index(player)
        legal = sorted(number[card] for card in game.legal_cards(player))
        view = view_of(game, player)
        assert deal.to_play == seat and not deal.over()
        assert sorted(deal.legal()) == sorted(BIT[card] for card in legal)
        assert sorted(view.legal()) == legal
        trick_bits = [(who, BIT[card]) for who, card in view.trick]
        assert legal_mask(mask_of(view.hand), trick_bits, spades_closed and not game.spades_broken) == mask_of(legal)
        card = rng.choice(game.legal_cards(player))
        trick = [(PLAYERS.index(who), BIT[number[played]]) for who, played in game.trick] + [(seat, BIT[number[card]])]
        assert game.play_card(player, card) == (True, None)
        deal.play(BIT[number[card]])
        if len(trick) == 4:
            assert trick_winner(trick) == PLAYERS.index(game.tricks[-1][1])
        assert deal.taken == [game.scores()[other] for other in PLAYERS]
    assert deal.over()


@pytest.mark.parametrize("first", range(0, DEALS, 50))
def test_the_seed_game_agrees_card_for_card(first):
    for seed in range(first, first + 50):
        rng = random.Random(seed)
        play_side_by_side(Spades(shuffled_deck(rng)), seed_view, False, rng)


@pytest.mark.parametrize("first", range(0, DEALS, 50))
def test_the_full_game_agrees_with_spades_to_be_broken(first):
    for seed in range(first, first + 50):
        rng = random.Random(seed)
        dealer = PLAYERS[seed % 4]
        game = FullSpades(shuffled_deck(rng), dealer)
        while game.bidding:
            assert game.bid(game.to_play, rng.randint(0, 3)) == (True, None)
        play_side_by_side(game, full_view, True, rng)


def test_trick_values_order_every_pair_of_cards_as_the_rules_do():
    deck = shuffled_deck(random.Random(0))
    number = numbering(Spades(deck))
    for led in "shdc":
        led_number = next(SUIT[number[card]] for card in deck if suit_of(card) == led)  # the players' suit index
        for first in deck:
            for second in deck:
                ours = strength(BIT[number[first]], led_number) - strength(BIT[number[second]], led_number)
                theirs = trick_value(first, led) - trick_value(second, led)
                assert (ours > 0) == (theirs > 0) and (ours == 0) == (theirs == 0), (first, second, led)
