"""Canfield's rules engine: the deal, each rule, refusals, the end of a game, and random play."""

import argparse
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.canfield import add_options, new_game
from games.canfield.deals import deck_for
from games.canfield.rules import ACTIONS, Canfield, fits_on, moves
from games.canfield.solver import solve
from games.protocol import TERMINAL, MoveRefused, Outcome, Termination
from games.cards import NAMES, RANK_LETTERS, SUIT_LETTERS, Card

ALL_CARDS = list(NAMES)


def card_number(name):
    return Card.parse(name).index


def deck_with(stock_top=(), first="7h", tableau=("kd", "3s", "9c", "jh"), pack_next=()):
    """A deck dealing `first` to the foundation, `tableau` to piles 1-4, `stock_top` to the top of
    the stock (last card on top) and `pack_next` as the first cards turned; the other cards fill
    the rest, cards of the base rank deepest in the stock."""
    chosen = [*stock_top, first, *tableau, *pack_next]
    base = first[0]
    rest = sorted((card for card in ALL_CARDS if card not in chosen), key=lambda card: card[0] != base)
    stock_rest = rest[: 13 - len(stock_top)]
    pack_rest = rest[13 - len(stock_top) :]
    return [*stock_rest, *stock_top, first, *tableau, *pack_next, *pack_rest]


SEVENS = (("7h",), ("7s",), ("7d",), ("7c",))


def table(tableau, *, stock=(), talon=(), pack_next=(), foundations=SEVENS, base="7"):
    """A game at a chosen position; the cards not named form the pack, `pack_next` turned first.
    By default the four sevens are home, so no base-rank card waits in the pack."""
    named = [*stock, *talon, *pack_next, *sum(map(list, foundations), []), *sum(map(list, tableau), [])]
    rest = [card for card in ALL_CARDS if card not in named]
    return Canfield.from_state(
        {
            "stock": list(stock),
            "talon": list(talon),
            "pack": rest + list(pack_next)[::-1],
            "foundations": [list(pile) for pile in foundations],
            "tableau": [list(pile) for pile in tableau],
            "base": base,
        }
    )


def refusal_of(action, *arguments):
    """The rules' words refusing `action(*arguments)` (a key pressed, a move applied), or None
    when it was taken."""
    try:
        action(*arguments)
    except MoveRefused as refusal:
        assert isinstance(refusal.reason, str) and refusal.reason == str(refusal)
        return refusal.reason
    return None


def press_all(game, keys):
    for key in keys:
        assert refusal_of(game.press, key) is None, key


# --- the deal --------------------------------------------------------------------------------


def test_deal_follows_the_contract():
    deck = deck_with(first="kc", tableau=("qd", "3s", "9c", "jh"))
    state = Canfield(deck).state()
    assert state["stock"] == deck[:13] and state["stock"][-1] == deck[12]
    assert state["foundations"] == [["kc"], [], [], []]
    assert state["base"] == "k"
    assert state["tableau"] == [["qd"], ["3s"], ["9c"], ["jh"]]
    assert state["pack"] == deck[18:][::-1]  # the next card to turn is last
    assert state["pack"][-1] == deck[18] and state["talon"] == []


def test_deal_sends_base_rank_cards_home_and_fills_their_spaces_from_the_stock_in_pile_order():
    deck = deck_with(stock_top=("4c", "5d"), first="7h", tableau=("7s", "3s", "7d", "jh"))
    state = Canfield(deck).state()
    assert state["foundations"] == [["7h"], ["7s"], ["7d"], []]  # tableau tops in order 1-4
    assert state["tableau"] == [["5d"], ["3s"], ["4c"], ["jh"]]  # pile 1 got the top of the stock
    assert len(state["stock"]) == 11


def test_deal_repeats_automatic_moves_until_nothing_moves():
    deck = deck_with(stock_top=("2c", "7c"), first="7h", tableau=("7s", "3s", "9c", "jh"))
    state = Canfield(deck).state()
    # 7s home; the space takes 7c, which goes home too; the space then takes 2c
    assert state["foundations"] == [["7h"], ["7s"], ["7c"], []]
    assert state["tableau"][0] == ["2c"]


def test_a_deck_must_be_52_different_cards():
    with pytest.raises(ValueError):
        Canfield(ALL_CARDS[:51] + ["as"])
    with pytest.raises(ValueError):
        Canfield(ALL_CARDS[:51] + ["1x"])


# --- turning the pack ------------------------------------------------------------------------


def test_p_turns_three_one_by_one_the_third_on_top():
    deck = deck_with(pack_next=("2c", "5d", "8s", "4h"))
    game = Canfield(deck)
    assert refusal_of(game.press, "p") is None
    state = game.state()
    assert state["talon"] == ["2c", "5d", "8s"] and state["pack"][-1] == "4h"


def test_the_talon_turns_over_in_order_and_passes_are_unlimited():
    game = table([["kd"], ["3s"], ["9c"], ["jh"]], pack_next=())
    first_pass = game.state()["pack"][::-1]
    for _ in range(3):
        while game.state()["pack"]:
            press_all(game, "p")
        assert game.state()["talon"] == first_pass
        press_all(game, "p")  # turn the talon over: it is the pack again, first card next
        assert game.state()["talon"] == [] and game.state()["pack"][::-1] == first_pass


def test_the_last_turn_of_a_pass_takes_what_is_left():
    game = table([["kd"], ["3s"], ["9c"], ["jh"]])
    size = len(game.state()["pack"])
    for _ in range(size // 3):
        press_all(game, "p")
    press_all(game, "p")
    assert len(game.state()["talon"]) == size and game.state()["pack"] == []


def test_p_with_nothing_to_turn_is_refused():
    game = table(**STUCK)
    assert refusal_of(game.press, "p") == "No cards left in the pack or talon"


# --- foundations -----------------------------------------------------------------------------


def test_foundations_build_up_in_suit_and_wrap_from_king_to_ace():
    game = table([["kh"], ["ah"], ["2h"], ["5c"]], foundations=(("qh",), (), (), ()), base="q")
    press_all(game, "1f2f3f")
    assert game.state()["foundations"][0] == ["qh", "kh", "ah", "2h"]


def test_a_card_out_of_sequence_or_suit_is_refused_for_the_foundation():
    game = table([["9h"], ["9s"], ["2c"], ["5c"]], foundations=(("7h",), (), (), ()))
    before = game.state()
    assert refusal_of(game.press, "1") is None
    assert refusal_of(game.press, "f") == "The hearts need the eight first"
    assert refusal_of(game.press, "2") is None
    assert refusal_of(game.press, "f") == "The spades need the seven first"
    assert game.state() == before and game.selected is None


def test_a_foundation_is_never_more_than_13_cards():
    hearts = [rank + "h" for rank in "789tjqka23456"]
    game = table([["kd"], ["3s"], ["9c"], ["js"]], foundations=(hearts, (), (), ()))
    assert len(game.state()["foundations"][0]) == 13 and game.cards_home == 13


# --- the tableau -----------------------------------------------------------------------------


def test_tableau_builds_down_in_alternating_colours_and_a_king_goes_on_an_ace():
    assert fits_on(card_number("ks"), card_number("ah")) and fits_on(card_number("kd"), card_number("ac"))
    assert not fits_on(card_number("ks"), card_number("ac"))  # same colour
    assert not fits_on(card_number("qs"), card_number("ah"))  # not one lower
    game = table([["ah"], ["3s"], ["9c"], ["jh"]], stock=("ks",))
    press_all(game, "s1")
    assert game.state()["tableau"][0] == ["ah", "ks"]


def test_a_card_that_does_not_fit_is_refused_with_the_rule():
    game = table([["9h"], ["3s"], ["9c"], ["jh"]], talon=("8d",))
    before = game.state()
    assert refusal_of(game.press, "t") is None
    assert refusal_of(game.press, "1") == "Only a black eight goes on the nine of hearts"
    assert game.state() == before and game.selected is None


def test_a_whole_pile_moves_onto_another_pile():
    game = table([["5c", "4h"], ["6h"], ["9c"], ["jh"]], stock=("2s", "ts"))
    press_all(game, "12")
    state = game.state()
    assert state["tableau"][1] == ["6h", "5c", "4h"]
    assert state["tableau"][0] == ["ts"] and state["stock"] == ["2s"]  # the space filled from the stock


def test_only_the_whole_pile_moves_between_piles():
    game = table([["6c", "5h"], ["6d"], ["9c"], ["jh"]], stock=("ts",))
    # the top card 5h would fit on 6c only as part of the pile; the pile's bottom 6c fits nowhere
    assert refusal_of(game.press, "1") is None
    assert refusal_of(game.press, "2") == "Only a black five goes on the six of diamonds"


def test_a_pile_never_moves_into_a_space_nor_onto_itself():
    game = table([["kd"], [], ["9c"], ["jh"]], talon=("4s",))
    before = game.state()
    assert refusal_of(game.press, "1") is None
    assert refusal_of(game.press, "2") == "A whole pile never moves into a space"
    assert refusal_of(game.press, "3") is None
    assert refusal_of(game.press, "3") == "Pile 3 can't move onto itself"
    assert game.state() == before


def test_a_space_fills_from_the_talon_once_the_stock_is_empty_or_stays_open():
    game = table([["kd"], [], ["9c"], ["jh"]], talon=("4s",))
    press_all(game, "p")  # a space may stay open while the play goes on
    assert game.state()["tableau"][1] == []
    game = table([["kd"], [], ["9c"], ["jh"]], talon=("4s",))
    press_all(game, "t2")
    assert game.state()["tableau"][1] == ["4s"] and game.state()["talon"] == []


def test_the_stock_and_talon_cards_go_to_foundations_and_piles():
    game = table([["9h"], ["3s"], ["9c"], ["jh"]], stock=("8h",), talon=("8s",), foundations=(("7h",), ("7s",), (), ()))
    press_all(game, "sf")
    assert game.state()["foundations"][0] == ["7h", "8h"]
    press_all(game, "t1")
    assert game.state()["tableau"][0] == ["9h", "8s"]


def test_a_move_exposing_a_base_rank_card_sends_it_home_and_fills_the_space():
    diamonds = [rank + "d" for rank in "789tjqka2345"]
    game = table([["7s", "6d"], ["3s"], ["9c"], ["jh"]], stock=("2s", "qh"), foundations=(("7h",), diamonds, (), ()))
    press_all(game, "1f")
    state = game.state()
    assert state["foundations"] == [["7h"], diamonds + ["6d"], ["7s"], []]
    assert state["tableau"][0] == ["qh"] and state["stock"] == ["2s"]


def test_the_stock_and_talon_never_take_cards():
    game = table([["9h"], ["3s"], ["9c"], ["jh"]], stock=("8s",), talon=("8c",))
    assert refusal_of(game.press, "s") is None
    assert refusal_of(game.press, "t") == "Nothing can be put on the talon"
    assert refusal_of(game.press, "t") is None
    assert refusal_of(game.press, "s") == "Nothing can be put on the stock"
    assert refusal_of(game.press, "1") is None
    assert refusal_of(game.press, "p") == "A card can't go back into the pack"


@pytest.mark.parametrize(
    "keys, refusal",
    [
        ("f", "First pick a card: S, T or a pile 1-4"),
        ("x", "Keys: S, T or 1-4, then 1-4 or F; P turns"),
        ("t", "The talon is empty: press P to turn the pack"),
        ("sx", "Move to a pile 1-4 or F, the foundations"),
    ],
)
def test_refusals_say_why_change_nothing_and_drop_the_source(keys, refusal):
    game = Canfield(deck_with())
    for key in keys[:-1]:
        refusal_of(game.press, key)
    before = game.state()
    assert refusal_of(game.press, keys[-1]) == refusal
    assert game.state() == before and game.selected is None


def test_an_empty_source_is_refused():
    game = table([["kd"], [], ["9c"], ["jh"]], talon=("4s",))
    assert refusal_of(game.press, "s") == "The stock is empty"
    assert refusal_of(game.press, "2") == "Pile 2 is empty"
    assert game.selected is None


def test_keys_in_capitals_work_too():
    game = table([["9h"], ["3s"], ["9c"], ["jh"]], stock=("8h",))
    press_all(game, "SF")
    assert game.state()["foundations"][0] == ["7h", "8h"]


def test_undo_takes_back_moves_and_turns():
    game = Canfield(deck_with())
    start = game.state()
    press_all(game, "pp")
    assert refusal_of(game.undo) is None and refusal_of(game.undo) is None
    assert game.state() == start
    assert refusal_of(game.undo) == "Nothing to undo"


# --- the end of a game -----------------------------------------------------------------------

STUCK = dict(
    tableau=[["ks"], ["kh"], ["kd"], ["kc"]],
    stock=("ts", "th", "td", "tc", "qs", "qh", "qd", "qc", "js", "jh", "jd", "jc"),
    foundations=tuple([rank + suit for rank in "a23456789"] for suit in SUIT_LETTERS),
    base="a",
)


def test_no_move_left_is_detected():
    game = table(**STUCK)
    assert game.stuck and not game.won
    assert moves(game.position) == []


def test_a_move_reachable_only_by_turning_the_pack_is_a_move():
    layout = dict(STUCK, stock=("ts", "th", "td", "tc", "qs", "qh", "qc", "js", "jh", "jd", "jc"), pack_next=("qd",))
    game = table(**layout)
    assert not game.stuck
    assert [keys for keys, _ in moves(game.position)] == ["pt1", "pt4"]  # qd goes on a black king


def test_a_card_that_turning_never_brings_to_the_top_gives_no_move():
    # qd is turned first, jd and jh on top of it, and so again after each turn of the talon
    layout = dict(STUCK, stock=("ts", "th", "td", "tc", "qs", "qh", "qc", "js", "jc"), pack_next=("qd", "jd", "jh"))
    game = table(**layout)
    assert game.stuck


def test_a_won_game_refuses_keys():
    suits = [[r + s for r in "789tjqka23456"] for s in "hsdc"]
    game = Canfield.from_state(
        {"stock": [], "pack": [], "talon": [], "foundations": suits, "tableau": [[], [], [], []], "base": "7"}
    )
    assert game.won and not game.stuck and game.cards_home == 52
    assert refusal_of(game.press, "p") == "All 52 cards are home"


# --- random play -----------------------------------------------------------------------------

KEYS = st.sampled_from("stf1234p" * 3 + "x5n")


def check_invariants(game):
    state = game.state()
    everything = (
        state["stock"] + state["pack"] + state["talon"] + sum(state["foundations"], []) + sum(state["tableau"], [])
    )
    assert sorted(everything) == sorted(ALL_CARDS)
    base = state["base"]
    for pile in state["foundations"]:
        if pile:
            assert pile[0][0] == base and len(pile) <= 13
            for below, above in zip(pile, pile[1:]):
                assert above[1] == below[1]
                assert RANK_LETTERS.index(above[0]) == (RANK_LETTERS.index(below[0]) + 1) % 13
    for pile in state["tableau"]:
        for below, above in zip(pile, pile[1:]):
            assert fits_on(card_number(above), card_number(below))
    exposed = [pile[-1] for pile in state["tableau"] if pile] + state["stock"][-1:] + state["talon"][-1:]
    assert all(card[0] != base for card in exposed)  # base-rank cards never wait
    assert not state["stock"] or all(state["tableau"])  # spaces fill from the stock
    assert game.won == (game.cards_home == 52)


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.permutations(ALL_CARDS), keys=st.lists(KEYS, max_size=120))
def test_random_key_sequences_keep_every_rule(deck, keys):
    game = Canfield(deck)
    check_invariants(game)
    for key in keys:
        before, selected = game.state(), game.selected
        refusal = refusal_of(game.press, key)
        if refusal is not None:
            assert isinstance(refusal, str) and refusal
            assert game.state() == before and game.selected is None
        elif selected is None and key != "p":
            assert game.selected == key and game.state() == before  # a source picked
        else:
            assert game.state() != before and game.selected is None  # a move or a turn
            check_invariants(game)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.permutations(ALL_CARDS), data=st.data())
def test_random_games_played_deep_keep_every_rule(deck, data):
    """Random choices among the moves on offer, pressed as keys, so that piles grow long, the
    stock runs out and spaces open: every move lands where `moves` said and keeps the rules."""
    game = Canfield(deck)
    for _ in range(data.draw(st.integers(0, 150))):
        options = moves(game.position)
        assert game.stuck == (not options and not game.won)
        if not options:
            break
        keys, expected = options[data.draw(st.integers(0, len(options) - 1))]
        for key in keys:
            assert refusal_of(game.press, key) is None
        assert game.position == expected
        check_invariants(game)


def moves_by_pressing(game):
    """The first keys of every move, found by trying keys on copies of the game: each source and
    target, then the talon card after each turn of the pack, until turning comes round again."""

    def works(state, keys):
        copy = Canfield.from_state(state)
        return all(refusal_of(copy.press, key) is None for key in keys)

    state, found = game.state(), set()
    for source in "s1234":
        found |= {source + target for target in "f1234" if works(state, source + target)}
    presses, seen = "", set()
    while (len(state["talon"]), len(state["pack"])) not in seen:
        seen.add((len(state["talon"]), len(state["pack"])))
        found |= {presses + "t" + target for target in "f1234" if works(state, "t" + target)}
        turned = Canfield.from_state(state)
        if refusal_of(turned.press, "p") is not None:
            break
        presses += "p"
        if turned.cards_home > game.cards_home:  # turning sent a base-rank card home
            found.add(presses)
            break
        state = turned.state()
    return found


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck=st.permutations(ALL_CARDS), data=st.data())
def test_the_moves_on_offer_are_the_moves_the_keys_allow(deck, data):
    game = Canfield(deck)
    for _ in range(data.draw(st.integers(0, 40))):
        options = moves(game.position)
        assert {keys for keys, _ in options} == moves_by_pressing(game)
        if not options:
            break
        for key in options[data.draw(st.integers(0, len(options) - 1))][0]:
            refusal_of(game.press, key)


# --- a deal as the game-state protocol sees it -----------------------------------------------


def line_actions(line):
    """A solver's line as protocol actions: each P alone, each move a source and a target."""
    actions = []
    for keys in line:
        turns = len(keys) - len(keys.lstrip("p"))
        actions += ["p"] * turns + ([keys[turns:]] if keys[turns:] else [])
    return actions


def test_new_game_deals_the_numbered_deal():
    state = new_game(1)
    assert state.position == Canfield(deck_for(1)).position
    assert state.num_players() == 1 and state.current_player() == 0 and state.outcome() is None


def test_every_legal_move_is_what_its_keys_do_and_nothing_else_is_taken():
    state = new_game(5)
    rng = random.Random(5)
    for _ in range(60):
        if state.outcome() is not None:
            break
        legal = state.legal_moves()
        for action in ACTIONS + ("x1", "", "pp", "1", "f1"):
            game, trial = game_at(state.position), state.clone()
            refusal = refusal_of(trial.apply, action)
            keyed = [refusal_of(game.press, key) for key in action] or ["no keys"]
            if action in legal:
                assert refusal is None and keyed[-1] is None and trial.position == game.position
            else:
                assert refusal and str(trial) == str(state), action
                if len(action) == 2 and action[0] in "st1234":
                    assert refusal == next(answer for answer in keyed if answer), action  # the rules' own words
        state.apply(rng.choice(legal))


def game_at(position):
    game = Canfield(NAMES)
    game.position = position
    return game


def test_a_solved_deal_played_by_moves_is_won_with_every_card_home_and_210_dollars():
    state = new_game(1)
    for action in line_actions(solve(state.position).line):
        assert action in state.legal_moves()
        state.apply(action)
    assert state.outcome() == Outcome(Termination.WON, (0,), (210.0,))
    assert state.outcome().result(0) == "won"
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    assert refusal_of(state.apply, "p") == "All 52 cards are home"
    assert "All 52 cards are home" in str(state) and "All 52 cards are home" in state.observation(0)


def test_a_deal_with_no_move_from_the_start_is_over_at_once_and_stuck():
    state = new_game(63149)
    assert state.outcome() == Outcome(Termination.STUCK, (), (5.0 * state.position.cards_home - 50,))
    assert state.outcome().result(0) == "lost"
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    before = str(state)
    assert refusal_of(state.apply, "p") == "No move left" and str(state) == before
    assert before.endswith("No move left")


def test_a_clone_goes_its_own_way():
    state = new_game(7)
    twin = state.clone()
    twin.apply(twin.legal_moves()[-1])
    assert str(state) == str(new_game(7)) != str(twin)


def test_the_text_shows_the_whole_table_every_card_once():
    text = str(new_game(3))
    assert sorted(word for word in text.replace("|", " ").split() if word in NAMES) == sorted(NAMES)
    assert text.startswith("Canfield deal 3:")


def named_cards(text):
    return sorted(word for word in text.replace("|", " ").split() if word in NAMES)


def test_the_player_sees_every_card_face_up_and_of_the_stock_and_pack_only_their_sizes():
    state = new_game(3)
    for action in ("p", "p"):
        state.apply(action)
    stock, waste, turned, homes, tableau, _ = state.position
    face_up = stock[-1:] + waste[:turned] + sum(homes, ()) + sum(tableau, ())
    seen = state.observation(0)
    assert named_cards(seen) == sorted(NAMES[card] for card in face_up)
    assert f"stock ({len(stock)}, top)" in seen and f"pack ({len(waste) - turned}, face down)" in seen
    assert seen.startswith("Canfield deal 3:")
    with pytest.raises(ValueError):
        state.observation(1)


@pytest.mark.parametrize("given", ["0", "65536", "-1", "x", "2.5"])
def test_a_deal_number_out_of_range_is_refused_with_one_line(given, capsys):
    parser = argparse.ArgumentParser(prog="canfield")
    add_options(parser)
    with pytest.raises(SystemExit) as stopped:
        parser.parse_args(["--deal", given])
    assert stopped.value.code == 2
    assert f"deals are numbered 1 to 65535, not '{given}'" in capsys.readouterr().err
    assert parser.parse_args(["--deal", "65535"]).deal == 65535


def test_the_rules_import_without_the_machine_numpy_or_pygame():
    code = (
        "import sys, games.canfield, games.canfield.rules, games.canfield.solver; "
        "print(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('numpy', 'pygame') or m == 'spectrum.machine'))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.strip() == "[]"
