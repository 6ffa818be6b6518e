"""11-Up Patience rules as the listing applies them: the pack, the cut shuffle, the layout, entries."""

import argparse
import itertools
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

import games.patience as patience
from games.cards import Card
from games.patience import rules
from games.protocol import TERMINAL, MoveRefused, Outcome, Termination

SPADE, HEART, CLUB, DIAMOND = rules.SUITS


def records(pack: str) -> list[str]:
    return [pack[i : i + rules.CARD] for i in range(0, len(pack), rules.CARD)]


def record(value: int, suit: str = SPADE) -> str:
    """A record of p$ with this value (its face and colour do not matter to the rules)."""
    return f"X{value:02}{suit}0"


def dealt_table(values: dict[int, int], centre_used=False, cards_left=43) -> rules.Game:
    layout = tuple(record(values[position]) for position in rules.POSITIONS)
    return rules.Game(rules.fresh_pack(), rules.PACK_END + 1 - rules.CARD * cards_left, layout, centre_used)


def test_fresh_pack_is_52_cards_suit_by_suit_with_red_hearts_and_diamonds():
    cards = records(rules.fresh_pack())
    assert len(cards) == rules.CARDS == len(set(cards))
    assert cards[0] == "A01" + SPADE + "0" and cards[12] == "K13" + SPADE + "0"
    assert cards[22] == rules.TEN + "10" + HEART + "2"
    for card in cards:
        assert card[4] == ("2" if card[3] in (HEART, DIAMOND) else "0")
    assert sorted(int(card[1:3]) for card in cards) == sorted(list(range(1, 14)) * 4)


@given(pass_number=st.integers(1, rules.SHUFFLE_PASSES), card=st.integers(0, rules.CARDS - 1))
def test_a_cut_moves_one_card_to_the_top_on_even_passes_and_under_on_odd_ones(pass_number, card):
    pack = rules.fresh_pack()
    start = rules.CARD * card + 1
    moved = pack[start - 1 : start + 4]
    cut = rules.cut(pack, pass_number, start)
    assert sorted(records(cut)) == sorted(records(pack))
    rest = records(pack)[:card] + records(pack)[card + 1 :]
    assert records(cut) == ([moved] + rest if pass_number % 2 == 0 else rest + [moved])


@given(seed=st.integers(0, 65535))
def test_block_start_is_a_whole_record_for_every_rnd(seed):
    start = rules.block_start(seed / 65536)
    assert 1 <= start <= rules.PACK_END - rules.CARD + 1 and start % rules.CARD == 1


def test_layout_is_four_then_one_then_four_with_numbers_under_the_cards():
    cells = {}
    for position in rules.POSITIONS:
        x, y = rules.column(position), rules.row(position)
        for row in range(y, y + 6):  # five rows of card, then its number
            for col in range(x, x + 5):
                assert (row, col) not in cells, f"cards {cells.get((row, col))} and {position} overlap"
                cells[row, col] = position
        assert 0 <= x and x + 4 <= 31 and 1 <= y and y + 5 <= 18  # rows 19-21 hold the text
    assert [rules.row(p) for p in rules.POSITIONS] == [1] * 4 + [13] * 4 + [7]
    assert [rules.column(p) for p in rules.POSITIONS] == [6, 12, 18, 24] * 2 + [15]


VALUES = {1: 4, 2: 7, 3: 11, 4: 12, 5: 13, 6: 12, 7: 12, 8: 10, 9: 1}


@pytest.mark.parametrize(
    "entry, expected",
    [
        ("12", (1, 2)),
        ("21", (2, 1)),
        ("345", (3, 4, 5)),
        ("467", (4, 6, 7)),
        ("558", None),
        ("855", None),
        ("585", None),
        ("158", None),
        ("0", rules.RESIGN),
        ("9", (9,)),
        ("1", None),
        ("", None),
        ("1234", None),
        ("10", None),
        ("01", None),
        ("00", None),
        ("11", None),
        ("13", None),
        ("a", None),
        (" 12", None),
        ("12 ", None),
        ("+12", None),
        ("1.2", None),
        ("3456", None),
    ],
)
def test_entries_are_judged_as_lines_1100_to_1190_do(entry, expected):
    if expected is None:
        with pytest.raises(MoveRefused, match="Not allowed"):
            rules.judge(entry, dealt_table(VALUES))
        assert not rules.legal(entry, dealt_table(VALUES))
    else:
        assert rules.judge(entry, dealt_table(VALUES)) == expected and rules.legal(entry, dealt_table(VALUES))


def test_queen_queen_queen_and_king_king_ten_pass_the_sum_check():
    assert rules.judge("467", dealt_table(VALUES)) == (4, 6, 7)  # Q+Q+Q = 36
    assert rules.judge("853", dealt_table({**VALUES, 3: 13})) == (8, 5, 3)  # 10+K+K = 36


def test_nine_alone_plays_once_a_game():
    before = dealt_table(VALUES)
    table, placed = rules.cover(before, rules.judge("9", before))
    assert placed == [(9, before.pack[45:50])] and table.layout[8] == before.pack[45:50]
    assert table.centre_used and not rules.legal("9", table)
    assert not before.centre_used and rules.judge("9", before) == (9,)  # the old table is untouched
    assert rules.judge("12", table) == (1, 2)


def test_cards_go_down_in_the_order_typed():
    before = dealt_table(VALUES)
    table, placed = rules.cover(before, (2, 1))
    assert placed == [(2, before.pack[45:50]), (1, before.pack[50:55])]
    assert table.layout[:2] == (before.pack[50:55], before.pack[45:50]) and table.cards_left == 41


def test_the_last_move_covers_as_many_cards_as_are_left():
    pack = rules.fresh_pack()
    table, placed = rules.cover(dealt_table(VALUES, cards_left=1), (3, 4, 5))
    assert placed == [(3, pack[-5:])] and table.pack_out and table.cards_left == 0


def test_the_deal_takes_the_first_nine_cards():
    pack = rules.fresh_pack()
    table, placed = rules.deal(rules.Game(pack, next_card=77))
    assert placed == list(zip(rules.POSITIONS, records(pack)[:9]))
    assert table.layout == tuple(records(pack)[:9])
    assert table.next_card == 46 and table.cards_left == 43


def test_initialising_keeps_only_the_pack():
    table = rules.resign(rules.cover(dealt_table(VALUES), (9,))[0])
    assert rules.initialised(table) == rules.Game(table.pack)


def test_a_record_is_its_card():
    cards = [rules.card_of(record) for record in records(rules.fresh_pack())]
    assert cards[0] == Card.parse("as") and cards[22] == Card.parse("th") and cards[51] == Card.parse("kd")
    assert cards[26] == Card.parse("ac") and len(set(cards)) == 52
    assert all(card.is_red == (record[4] == "2") for card, record in zip(cards, records(rules.fresh_pack())))


def test_the_shuffle_is_sixty_cuts_at_the_rnd_values():
    rnds = [n / 61 for n in range(1, 61)]
    pack = rules.fresh_pack()
    expected = pack
    for pass_number, rnd in enumerate(rnds, 1):
        expected = rules.cut(expected, pass_number, rules.block_start(rnd))
    assert rules.shuffle(pack, rnds) == expected != pack


@pytest.mark.parametrize("seed", [1, 6])
def test_a_winning_line_is_legal_move_by_move_and_uses_up_the_pack(seed):
    pack = patience.shuffled_pack(seed).decode("latin-1")
    line = rules.winning_line(pack)
    assert line is not None
    table, _ = rules.deal(rules.Game(pack))
    for entry in line:
        assert not table.pack_out
        assert entry in rules.legal_entries(table)
        table, _ = rules.cover(table, rules.judge(entry, table))
    assert table.pack_out


# --- the game-state adapter ------------------------------------------------------------------------


def test_new_game_is_the_deal_of_randomize_seed():
    state = patience.new_game(1)
    pack = patience.shuffled_pack(1).decode("latin-1")
    assert state.table == rules.deal(rules.Game(pack))[0]
    assert state.num_players() == 1 and state.current_player() == 0 and state.outcome() is None
    first = str(state).splitlines()[0].split()
    assert first == [f"{p}:{rules.card_of(pack[5 * (p - 1) : 5 * p]).name}" for p in range(1, 5)]
    assert "pack (43 left): " + rules.card_of(pack[45:50]).name in str(state)


@pytest.mark.parametrize("seed", [0, 65536, -1, 1.5])
def test_new_game_refuses_seeds_randomize_would_not_take_as_a_game(seed):
    with pytest.raises(ValueError, match="1-65535"):
        patience.new_game(seed)


def test_legal_moves_are_the_entries_the_listing_takes_and_resigning():
    state = patience.new_game(1)
    legal = state.legal_moves()
    assert legal == rules.legal_entries(state.table) + ["0"]
    every_entry = (
        [str(n) for n in range(10)]
        + [f"{a}{b}" for a in range(1, 10) for b in range(1, 10)]
        + ["".join(map(str, three)) for three in itertools.permutations(range(1, 10), 3)]
    )
    assert {entry for entry in every_entry if rules.legal(entry, state.table)} == set(legal)


def test_a_refused_entry_says_not_allowed_and_changes_nothing():
    state = patience.new_game(1)
    before = str(state)
    for entry in (
        "",
        "1",
        "10",
        "1234",
        "x",
        "11",
        next(e for e in ("12", "13", "14", "15") if e not in state.legal_moves()),
    ):
        with pytest.raises(MoveRefused, match="^Not allowed") as refused:
            state.apply(entry)
        assert repr(entry) in refused.value.reason
        assert str(state) == before


def test_a_move_covers_the_cards_and_a_clone_keeps_its_own_game():
    state = patience.new_game(1)
    twin = state.clone()
    entry = next(e for e in state.legal_moves() if len(e) == 2)
    state.apply(entry)
    assert state.table.cards_left == 41 and twin.table.cards_left == 43
    assert str(state) != str(twin)


def test_resigning_ends_the_game_with_nothing_won():
    state = patience.new_game(5)
    state.apply("0")
    assert state.outcome() == Outcome(Termination.GIVEN_UP, (), (0.0,)) and state.current_player() == TERMINAL
    assert state.legal_moves() == []
    with pytest.raises(MoveRefused, match="The game is over"):
        state.apply("9")
    assert str(state).endswith("resigned")


def test_the_winning_line_wins():
    state = patience.new_game(1)
    for entry in rules.winning_line(patience.shuffled_pack(1).decode("latin-1")):
        state.apply(entry)
    assert state.outcome() == Outcome(Termination.WON, (0,), (1.0,)) and "won" in str(state)


def test_a_blocked_table_is_not_an_end_only_resigning_is_left():
    blocked = rules.PatienceState(dealt_table({p: 13 for p in rules.POSITIONS} | {9: 1}, centre_used=True))
    assert blocked.outcome() is None and blocked.legal_moves() == ["0"]


def test_the_package_imports_without_the_machine_numpy_or_pygame():
    code = (
        "import sys, games.patience as p; p.rules.winning_line; "
        "print(sorted(m for m in ('numpy', 'pygame', 'spectrum.machine', 'games.patience.play') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_seed_option_is_checked_before_anything_runs(capsys):
    parser = argparse.ArgumentParser(prog="zxcards patience")
    patience.add_options(parser)
    assert parser.parse_args(["--seed", "65535"]).seed == 65535
    for wrong in ("0", "65536", "-3", "x", "1.5"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--seed", wrong])
        assert "a seed is a whole number 1-65535" in capsys.readouterr().err


def test_a_player_sees_the_table_and_how_many_cards_are_left_never_their_order():
    state = patience.new_game(1)
    seen = state.observation(0)
    assert seen.splitlines()[:3] == str(state).splitlines()[:3]
    assert "pack: 43 left" in seen and rules.card_of(state.table.pack[45:50]).name not in seen.splitlines()[3]
