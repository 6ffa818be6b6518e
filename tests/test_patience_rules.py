"""11-Up Patience rules as the listing applies them: the pack, the cut shuffle, the layout, entries."""

import pytest
from hypothesis import given, strategies as st

import games.patience as patience
from games.patience import rules

SPADE, HEART, CLUB, DIAMOND = rules.SUITS


def records(pack: str) -> list[str]:
    return [pack[i:i + rules.CARD] for i in range(0, len(pack), rules.CARD)]


def dealt_table(values: dict[int, int], centre_used=False, cards_left=43) -> rules.Table:
    return rules.Table(rules.fresh_pack(), rules.PACK_END + 1 - rules.CARD * cards_left, dict(values),
                       centre_used)


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
    moved = pack[start - 1:start + 4]
    cut = rules.cut(pack, pass_number, start)
    assert sorted(records(cut)) == sorted(records(pack))
    rest = records(pack)[:card] + records(pack)[card + 1:]
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


@pytest.mark.parametrize("entry, expected", [
    ("12", (1, 2)), ("21", (2, 1)), ("345", (3, 4, 5)), ("467", (4, 6, 7)), ("558", None), ("855", None),
    ("585", None), ("158", None), ("0", rules.RESIGN), ("9", (9,)), ("1", None), ("", None),
    ("1234", None), ("10", None), ("01", None), ("00", None), ("11", None), ("13", None), ("a", None),
    (" 12", None), ("12 ", None), ("+12", None), ("1.2", None), ("3456", None)])
def test_entries_are_judged_as_lines_1100_to_1190_do(entry, expected):
    assert rules.judge(entry, dealt_table(VALUES)) == expected


def test_queen_queen_queen_and_king_king_ten_pass_the_sum_check():
    assert rules.judge("467", dealt_table(VALUES)) == (4, 6, 7)  # Q+Q+Q = 36
    assert rules.judge("853", dealt_table({**VALUES, 3: 13})) == (8, 5, 3)  # 10+K+K = 36


def test_nine_alone_plays_once_a_game():
    table = dealt_table(VALUES)
    move = rules.judge("9", table)
    assert list(rules.cover(table, move)) == [(9, table.pack[45:50])]
    assert table.centre_used and rules.judge("9", table) is None
    assert rules.judge("12", table) == (1, 2)


def test_the_last_move_covers_as_many_cards_as_are_left():
    pack = rules.fresh_pack()
    table = rules.Table(pack, rules.PACK_END + 1 - rules.CARD, dict(VALUES))
    placed = list(rules.cover(table, (3, 4, 5)))
    assert placed == [(3, pack[-5:])] and table.pack_out and table.cards_left == 0


def test_the_deal_takes_the_first_nine_cards():
    pack = rules.fresh_pack()
    table = rules.Table(pack, next_card=77)
    assert list(rules.deal(table)) == list(zip(rules.POSITIONS, records(pack)[:9]))
    assert table.next_card == 46 and table.cards_left == 43


@pytest.mark.parametrize("seed", [1, 6])
def test_a_winning_line_is_legal_move_by_move_and_uses_up_the_pack(seed):
    pack = patience.shuffled_pack(seed).decode("latin-1")
    line = rules.winning_line(pack)
    assert line is not None
    table = rules.Table(pack)
    list(rules.deal(table))
    for entry in line:
        assert not table.pack_out
        assert entry in rules.legal_entries(table)
        list(rules.cover(table, rules.judge(entry, table)))
    assert table.pack_out
