"""Spades at the Spectrum: keys, the screen, the computer players' pace, the end of a hand."""

import json
import random

import pytest

from games.cards import NAMES
from games.spades import run
from games.spades.full_play import FullTable
from games.spades.play import HUMAN, Table
from games.spades.screen import HELP_ROW, MESSAGE_ROW, RESULT_TOP, STATUS_ROW, YOUR_LABEL_ROW, prepare
from spectrum import ReportError, Spectrum
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.frontends.headless import presses_from

CAPS_RIGHT, CAPS_LEFT = {"CAPS", "8"}, {"CAPS", "5"}
CLUBS_DECK = list(NAMES[1:] + NAMES[:1])  # you: the clubs and the ace of spades; west: diamonds and ac; ...


def row_text(machine: Spectrum, row: int) -> str:
    return "".join(machine.screen_char(row, col) or "?" for col in range(32)).strip()


def table_after(presses, deck=CLUBS_DECK, table_class=Table, level="rules") -> tuple[Table, HeadlessFrontend]:
    frontend = HeadlessFrontend(presses)
    machine = Spectrum(frontend)
    table = table_class(machine, level=level, rng=random.Random(1))
    prepare(machine)
    with pytest.raises(ScriptExhausted):
        table.play_hand(deck)
    return table, frontend


def test_a_card_you_do_not_hold_is_refused_with_the_rulesets_text_and_nothing_changes():
    table, _ = table_after(["t", "d"])
    assert row_text(table.machine, MESSAGE_ROW) == "card not in player hand: td"
    assert len(table.game.hand(HUMAN)) == 13 and table.game.to_play == HUMAN


def test_typing_a_card_plays_it_and_the_computers_answer_with_a_beep_each():
    table, frontend = table_after(["k", "c"])
    assert [card for _, card in table.game.tricks[0][0]] == ["kc", "ac", "2h", "2s"]
    assert "kc" not in table.game.hand(HUMAN)
    assert len(frontend.audio()) > 0
    assert row_text(table.machine, YOUR_LABEL_ROW) == "YOU 0 tricks"


def test_cursor_keys_choose_and_enter_plays():
    # your hand shows the ace of spades first, then the clubs 2..k: two steps right is the 3 of clubs
    table, _ = table_after([CAPS_RIGHT, CAPS_RIGHT, CAPS_LEFT, CAPS_RIGHT, "ENTER"])
    assert table.game.tricks[0][0][0] == (HUMAN, "3c")


REVOKE_DECK = (
    [rank + "d" for rank in "a23456789tjqk"]                                         # east
    + ["8s", "7s", "6s", "5s", "4s", "3s", "2s", "9h", "th", "jh", "qh", "kh", "ah"]  # north
    + ["ac", "kc", "qc", "jc", "tc", "9c", "8c", "as", "ks", "qs", "js", "ts", "9s"]  # west
    + ["2c", "3c", "4c", "5c", "6c", "7c", "2h", "3h", "4h", "5h", "6h", "7h", "8h"])  # you


def test_the_last_trick_on_request_and_a_revoke_refused_with_must_follow_suit():
    # you lead the 7 of hearts, west trumps and leads the ace of clubs
    table, _ = table_after(["7", "h", "l"], deck=REVOKE_DECK)
    assert row_text(table.machine, STATUS_ROW) == "Last trick: WEST took it"
    assert table.game.trick[0] == ("player_1", "ac") and table.game.to_play == HUMAN
    table, _ = table_after(["7", "h", "2", "h"], deck=REVOKE_DECK)
    assert row_text(table.machine, MESSAGE_ROW) == "must follow suit: 2h"
    assert "2h" in table.game.hand(HUMAN) and table.game.to_play == HUMAN


class TypesLegalCards(HeadlessFrontend):
    """Types a legal card (or a bid of 3) whenever the table waits for one; stops at the end of a hand."""

    def __init__(self):
        super().__init__()
        self.table = None

    def present(self, machine) -> None:
        game = self.table.game if self.table else None
        if not self.presses and machine.awaiting_key and game and not game.finished and game.to_play == HUMAN:
            if getattr(game, "bidding", False):
                self.presses.extend(presses_from(["3", "ENTER"]))
            else:
                self.presses.extend(presses_from(list(game.legal_cards(HUMAN)[0])))
        super().present(machine)


@pytest.mark.parametrize("table_class", [Table, FullTable])
def test_a_whole_hand_ends_with_the_result(table_class):
    frontend = TypesLegalCards()
    machine = Spectrum(frontend)
    frontend.table = table = table_class(machine, level="rules", rng=random.Random(2))
    with pytest.raises(ScriptExhausted):
        table.play()
    assert table.game.finished
    lines = [row_text(machine, row) for row in range(RESULT_TOP + 1, RESULT_TOP + 4)]
    if table_class is Table:
        assert sum(table.hands_won.values()) >= 1
        assert lines[0] in ("YOU WIN!", "WEST wins", "NORTH wins", "EAST wins") or lines[0].startswith("Shared: ")
    else:
        assert lines[0].startswith("US bid ") and lines[1].startswith("THEM bid ")
        assert len(table.match.history) == 1


def test_break_leaves_the_game():
    frontend = HeadlessFrontend(["t", {"CAPS", "SPACE"}])
    with pytest.raises(ReportError, match="BREAK"):
        run(Spectrum(frontend), level="random", seed=3)


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="no level"):
        run(Spectrum(HeadlessFrontend()), level="expert")


def test_full_game_asks_for_a_bid_and_refuses_a_wrong_one():
    table, _ = table_after(presses_from(["x", "ENTER"]), table_class=FullTable)
    assert table.game.bidding and table.game.to_play == HUMAN
    assert row_text(table.machine, MESSAGE_ROW) == "not a bid: x"
    assert row_text(table.machine, HELP_ROW) == "Bid: the tricks you will take"


# --- the full game's score is kept between sessions ------------------------------------------------

def test_a_saved_game_to_500_comes_back_as_it_was(tmp_path):
    from games.spades.full_rules import FullMatch

    path = tmp_path / "spades-game.json"
    table = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    table.match.scores, table.match.bags, table.match.dealer = [230, -40], [3, 7], "player_2"
    table.match.history.append({"bids": {}, "taken": {}, "points": [230, -40]})
    table.save_match()
    again = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    assert again.match.saved() == table.match.saved() and not again.notice
    assert FullMatch.from_saved(json.loads(path.read_text())).scores == [230, -40]


@pytest.mark.parametrize("content", ["", "{", "[]", '{"scores": [1, 2]}', b"\xff\xfe".decode("latin-1"),
                                     '{"scores": [1, "2"], "bags": [0, 0], "dealer": "player_0", "history": []}',
                                     '{"scores": [1, 2], "bags": [0, 10], "dealer": "player_0", "history": []}',
                                     '{"scores": [1, 2], "bags": [0, 0], "dealer": "nobody", "history": []}'])
def test_an_unreadable_save_is_set_aside_not_lost_and_a_new_game_begins(tmp_path, content):
    path = tmp_path / "spades-game.json"
    path.write_text(content, encoding="latin-1")
    table = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    assert table.match.scores == [0, 0] and "unreadable" in table.notice
    assert not path.exists()
    assert (tmp_path / "spades-game.json.unreadable").read_text(encoding="latin-1") == content


def test_the_full_game_keeps_its_score_after_every_hand(tmp_path):
    path = tmp_path / "spades-game.json"
    frontend = TypesLegalCards()
    machine = Spectrum(frontend)
    frontend.table = table = FullTable(machine, level="rules", rng=random.Random(2), save_path=path)
    with pytest.raises(ScriptExhausted):
        table.play()
    assert table.game.finished and len(table.match.history) == 1
    assert json.loads(path.read_text()) == table.match.saved()
    assert FullTable(Spectrum(), level="rules", rng=random.Random(2), save_path=path).match.history == \
        table.match.history
