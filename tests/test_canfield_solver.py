"""Numbered deals (checked against the ROM's own shuffle) and the solver's verdicts."""

import pytest

from games.canfield.rules import Canfield
from games.cards import RANK_LETTERS
from games.canfield.deals import LAST_DEAL, NEW_DECK, check_deal_number, deck_for
from games.canfield.solver import solve
from spectrum.oracle import Oracle
from test_canfield_rules import STUCK, table

# Pinned so that a deal's number replays the same cards in every version
DEAL_1 = ("jc 9d td js qh 2h 2d qs 7h 9h kc 6s 4d tc kd 3h 4c th 4h 3s ac jh ad 8d 6d 4s 9c 3c 5d qd ts 7c 2c "
          "6c 7d qc 2s 8h 5s 8s jd ah 7s 8c ks 6h 5h kh 3d 5c 9s as").split()
DEAL_2_START = "ks 5s 9h 7d 5c 7c 4c 6c 9s jd jh 4h js kc 5h 9c 4d 3d".split()

SHUFFLE = """10 RANDOMIZE {number}
20 DIM d(52): FOR i=1 TO 52: LET d(i)=i: NEXT i
30 FOR i=52 TO 2 STEP -1: LET j=INT (RND*i)+1: LET t=d(i): LET d(i)=d(j): LET d(j)=t: NEXT i
"""


def test_the_first_deals_never_change():
    assert deck_for(1) == DEAL_1
    assert deck_for(2)[:18] == DEAL_2_START


@pytest.mark.rom
@pytest.mark.parametrize("number", [1, 40000, LAST_DEAL])
def test_a_deal_is_the_shuffle_a_spectrum_does_after_randomize_n(number):
    result = Oracle().run(SHUFFLE.format(number=number))
    assert result.report.startswith("0 OK")
    assert [NEW_DECK[int(index) - 1] for index in result.variables["d"]] == deck_for(number)


@pytest.mark.parametrize("number", [0, LAST_DEAL + 1, -3, 2.5])
def test_deal_numbers_outside_1_to_65535_are_refused(number):
    assert check_deal_number(number) == "Deals are numbered 1 to 65535"
    with pytest.raises(ValueError):
        deck_for(number)


def test_deals_differ():
    assert len({tuple(deck_for(number)) for number in range(1, 30)}) == 29


def test_a_winning_line_wins_when_its_keys_are_pressed():
    won = 0
    for number in range(1, 13):
        game = Canfield(deck_for(number))
        verdict = solve(game.position)
        if verdict.outcome != "won":
            continue
        won += 1
        for keys in verdict.line:
            for key in keys:
                assert game.press(key) is None
        assert game.won
    assert won >= 6  # most deals are won with every card known


def test_a_stuck_position_is_lost_at_once():
    verdict = solve(table(**STUCK).position)
    assert verdict.outcome == "lost" and verdict.line == () and verdict.nodes == 1


def test_an_end_game_needing_the_pack_turned_is_solved():
    foundations = ([rank + "s" for rank in "a23456789tjq"], [rank + "h" for rank in RANK_LETTERS],
                   [rank + "d" for rank in RANK_LETTERS], [rank + "c" for rank in "a23456789tj"])
    game = table([["kc"], [], [], []], pack_next=("qc", "ks"), foundations=foundations, base="a")
    verdict = solve(game.position)
    assert verdict.outcome == "won" and verdict.line == ("ptf", "tf", "1f")  # one turn shows ks, then qc
    for key in "".join(verdict.line):
        assert game.press(key) is None
    assert game.won


def test_the_budget_bounds_the_search():
    game = Canfield(deck_for(28))  # a deal that needs a long search
    verdict = solve(game.position, budget=50)
    assert verdict.outcome == "unknown" and verdict.nodes == 50 and verdict.line == ()


def test_a_won_position_needs_no_move():
    suits = [[rank + suit for rank in "789tjqka23456"] for suit in "hsdc"]
    game = Canfield.from_state({"stock": [], "pack": [], "talon": [], "foundations": suits,
                                "tableau": [[], [], [], []], "base": "7"})
    assert solve(game.position) == solve(game.position, budget=1)
    assert solve(game.position).outcome == "won" and solve(game.position).line == ()
