"""Spades at the Spectrum: keys, the screen, the computer players' pace, the end of a hand."""

import errno
import json
import os
import random

import pytest

from games.cards import NAMES
from games.spades import run
from games.spades.full_play import FullTable
from games.spades.play import HUMAN, Table
from games.spades.screen import HAND_ROW, HELP_ROW, MESSAGE_ROW, STATUS_ROW, YOUR_LABEL_ROW, prepare, results_top
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
    played = [card for _, card in table.game.tricks[0][0]]
    assert played[:3] == ["kc", "ac", "2h"] and played[3][1] == "s"  # east, out of clubs, ruffs
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


def test_your_turn_begins_with_a_card_you_may_play_raised():
    # the 2 of hearts is raised until west leads the ace of clubs: then the nearest club, the 2
    table, _ = table_after(["7", "h", "ENTER"], deck=REVOKE_DECK)
    yours = [card for cards, _ in table.game.tricks for player, card in cards if player == HUMAN]
    assert yours == ["7h", "2c"]
    # a card you may play stays raised: here the 3 of hearts, led
    table, _ = table_after([CAPS_RIGHT, "ENTER"], deck=REVOKE_DECK)
    assert table.game.tricks[0][0][0] == (HUMAN, "3h")


class TypesLegalCards(HeadlessFrontend):
    """Types a legal card (or a bid of 3) whenever the table waits for one; stops at the end of a hand."""

    def __init__(self):
        super().__init__()
        self.table = None

    def present(self, machine) -> None:
        game = self.table.game if self.table else None
        if not self.presses and machine.awaiting_key and game and not game.finished and game.to_play == HUMAN:
            if getattr(game, "bidding", False):
                self.presses.extend(presses_from([str(min(3, game.highest_bid(HUMAN))), "ENTER"]))
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
    results = table.results()
    top = results_top([*results, "", "ENTER: next hand"])
    lines = [row_text(machine, row) for row in range(top + 1, top + len(results) + 3)]
    assert lines[-1] == "ENTER: next hand"
    if table_class is Table:
        assert sum(table.hands_won.values()) >= 1
        assert lines[0] in ("YOU WIN THE HAND!", "WEST wins the hand", "NORTH wins the hand", "EAST wins the hand") \
            or lines[0].startswith("Shared: ")
    else:
        assert lines[0] in ("YOU and NORTH win the hand", "WEST and EAST win the hand") or lines[0].startswith("Hand even")
        assert lines[1].startswith("US bid ") and lines[2].startswith("THEM bid ")
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


BAD_SAVES = ["", "{", "[]", '{"scores": [1, 2]}', b"\xff\xfe".decode("latin-1"), "[" * 400_000,
             '{"scores": [1, "2"], "bags": [0, 0], "dealer": "player_0", "history": []}',
             '{"scores": [1, 2], "bags": [0, 10], "dealer": "player_0", "history": []}',
             '{"scores": [1, 2], "bags": [0, 0], "dealer": "nobody", "history": []}']


def saved_game(scores=(230, -40), padding: int = 0) -> str:
    return json.dumps({"scores": list(scores), "bags": [3, 7], "dealer": "player_2",
                       "history": [{"bids": {}, "taken": {}, "points": [0, 0], "note": "x" * padding}]})


@pytest.mark.parametrize("content", BAD_SAVES + [saved_game(padding=1_000_001)],
                         ids=[f"bad{number}" for number in range(len(BAD_SAVES))] + ["over a megabyte"])
def test_an_unreadable_save_is_set_aside_not_lost_and_a_new_game_begins(tmp_path, content):
    path = tmp_path / "spades-game.json"
    path.write_text(content, encoding="latin-1")
    table = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    assert table.match.scores == [0, 0] and table.notice[0] == "Unreadable saved game kept as:"
    assert not path.exists()
    assert (tmp_path / "spades-game.json.unreadable-1").read_text(encoding="latin-1") == content


def test_a_game_saved_at_its_final_result_gives_way_to_a_new_one_without_a_word(tmp_path):
    path = tmp_path / "spades-game.json"
    path.write_text(saved_game(scores=(-210, 40)))
    table = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    assert table.match.scores == [0, 0] and not table.notice and sorted(tmp_path.iterdir()) == [path]


def test_every_unreadable_save_is_kept_numbered_and_the_screen_says_where(tmp_path):
    path = tmp_path / "spades-game.json"
    for number in (1, 2, 3):
        path.write_text(f"damaged {number}")
        frontend = HeadlessFrontend()
        table = FullTable(Spectrum(frontend), level="rules", rng=random.Random(1), save_path=path)
        prepare(table.machine)
        with pytest.raises(ScriptExhausted):
            table.play_hand(CLUBS_DECK)
        kept = tmp_path / f"spades-game.json.unreadable-{number}"
        screen = "".join(row_text(table.machine, row) for row in range(24))
        assert str(kept).replace("/", "") in screen.replace("/", "").replace(" ", "")
        assert row_text(table.machine, MESSAGE_ROW) == "Any key to go on"
    assert [(tmp_path / f"spades-game.json.unreadable-{number}").read_text() for number in (1, 2, 3)] == \
        ["damaged 1", "damaged 2", "damaged 3"]


def full_hand_with(path, monkeypatch=None, trouble=None) -> FullTable:
    """One hand of the full game saved at `path`, with `trouble` patched in while it is played."""
    frontend = TypesLegalCards()
    machine = Spectrum(frontend)
    frontend.table = table = FullTable(machine, level="rules", rng=random.Random(2), save_path=path)
    if trouble:
        trouble(monkeypatch)
    with pytest.raises(ScriptExhausted):
        table.play()
    return table


def disk_full(monkeypatch):
    def no_space(_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fsync", no_space)


def read_only(monkeypatch):
    def refused(file, *args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
    monkeypatch.setattr("games.datafolder.open", refused, raising=False)


@pytest.mark.parametrize("trouble, reason", [(disk_full, "No space left on device"),
                                             (read_only, "Permission denied")])
def test_a_save_that_fails_is_said_the_game_goes_on_and_the_old_save_is_kept(tmp_path, monkeypatch, trouble, reason):
    path = tmp_path / "spades-game.json"
    path.write_text(saved_game())
    table = full_hand_with(path, monkeypatch, trouble)
    assert table.game.finished and len(table.match.history) == 2  # the hand was played and scored
    assert path.read_text() == saved_game() and sorted(tmp_path.iterdir()) == [path]
    panel = " ".join(row_text(table.machine, row) for row in range(24))
    assert "Score NOT saved:" in panel and reason in panel


def test_a_data_folder_that_is_a_file_is_said_and_the_file_kept(tmp_path):
    folder = tmp_path / "zxcards"
    folder.write_text("mine")
    table = full_hand_with(folder / "spades-game.json")
    assert table.game.finished and table.save_trouble[0] == "Score NOT saved:"
    assert folder.read_text() == "mine" and sorted(tmp_path.iterdir()) == [folder]


def test_an_unreadable_save_that_cannot_be_moved_stays_and_is_never_written_over(tmp_path, monkeypatch):
    path = tmp_path / "spades-game.json"
    path.write_text("damaged")

    def refused(source, target):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    monkeypatch.setattr(os, "replace", refused)
    table = FullTable(Spectrum(), level="rules", rng=random.Random(1), save_path=path)
    monkeypatch.undo()
    assert table.notice[-1] == "This game will not be saved." and table.save_path is None
    table.save_match()
    assert path.read_text() == "damaged" and sorted(tmp_path.iterdir()) == [path]


def test_a_save_behind_a_symbolic_link_is_written_to_its_target(tmp_path):
    target = tmp_path / "elsewhere" / "my-spades.json"
    target.parent.mkdir()
    target.write_text(saved_game())
    link = tmp_path / "spades-game.json"
    link.symlink_to(target)
    table = full_hand_with(link)
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text()) == table.match.saved() and len(table.match.history) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["elsewhere", "spades-game.json"]


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


# --- the end of a hand ----------------------------------------------------------------------------

class WatchesTheLastTrick(TypesLegalCards):
    """Also keeps the screen's lines while the hand's last trick is shown."""

    def __init__(self):
        super().__init__()
        self.last_trick_rows = None

    def present(self, machine) -> None:
        game = self.table.game if self.table else None
        if game is not None and game.finished and self.last_trick_rows is None and not machine.awaiting_key:
            self.last_trick_rows = {row: row_text(machine, row) for row in range(24)}
        super().present(machine)


def test_the_last_trick_says_who_won_the_hand_and_the_score_line_counts_it_at_once():
    frontend = WatchesTheLastTrick()
    machine = Spectrum(frontend)
    frontend.table = table = Table(machine, level="rules", rng=random.Random(2))
    with pytest.raises(ScriptExhausted):
        table.play()
    rows = frontend.last_trick_rows
    won = table.hands_won
    assert rows[1] == f"Hands won: YOU {won['player_0']} W {won['player_1']} N {won['player_2']} E {won['player_3']}"
    assert sum(won.values()) >= 1
    assert rows[STATUS_ROW].endswith("the last trick")
    assert rows[MESSAGE_ROW] == table.hand_verdict() and "the hand" in rows[MESSAGE_ROW] or \
        rows[MESSAGE_ROW].startswith("Shared: ")


def finished_full_table(scores: list[int], rng_seed: int = 2) -> FullTable:
    """A full-game table whose match stood at `scores` when a hand was played to its end."""
    frontend = TypesLegalCards()
    machine = Spectrum(frontend)
    frontend.table = table = FullTable(machine, level="rules", rng=random.Random(rng_seed))
    table.match.scores = list(scores)
    with pytest.raises(ScriptExhausted):
        table.play()
    return table


def test_the_end_of_a_full_game_is_said_and_enter_starts_a_new_one():
    table = finished_full_table([0, 440])  # this deal gives west and east 63
    assert table.match.over and table.match.winner == 1
    top = results_top([*table.results(), "", "ENTER: a new game"])
    panel = [row_text(table.machine, row) for row in range(top + 1, top + len(table.results()) + 3)]
    assert "WEST AND EAST WIN THE GAME" in panel and panel[-1] == "ENTER: a new game"


def test_your_bid_is_capped_by_north_s():
    table, _ = table_after(presses_from(["1", "3", "ENTER"]), table_class=FullTable)
    north = table.game.bids["player_2"]
    assert north and table.game.to_play == HUMAN  # north bid before you
    assert row_text(table.machine, MESSAGE_ROW) == "partners bid 13 at most: 13"
    assert table.game.bids[HUMAN] is None


# --- seeds ------------------------------------------------------------------------------------------

def headless_screen(tmp_path, name: str, *options: str) -> bytes:
    from games.cli import main

    shot = tmp_path / f"{name}.png"
    assert main(["spades", "--headless", "--keys", "{ENTER}", "--screenshot", str(shot), *options]) == 0
    return shot.read_bytes()


def test_seed_zero_deals_the_same_hands_every_time(tmp_path):
    first = headless_screen(tmp_path, "a", "--seed", "0")
    assert headless_screen(tmp_path, "b", "--seed", "0") == first
    assert headless_screen(tmp_path, "c", "--seed", "1") != first


# --- blind nil ----------------------------------------------------------------------------------

def blind_nil_table(presses, scores=(0, 150)) -> FullTable:
    frontend = HeadlessFrontend(presses_from(presses))
    table = FullTable(Spectrum(frontend), level="rules", rng=random.Random(1), blind_nil=True)
    table.match.scores = list(scores)
    prepare(table.machine)
    with pytest.raises(ScriptExhausted):
        table.play_hand(list(NAMES))
    return table


def hand_shown(machine: Spectrum) -> bool:
    """Any card face among your cards' rows (a blind nil hides them)."""
    return any(machine.screen_char(row, col) not in (" ", None) for row in (HAND_ROW - 1, HAND_ROW)
               for col in range(32))


def test_behind_by_100_you_are_asked_for_blind_nil_before_seeing_your_cards():
    table = blind_nil_table([])
    assert "Bid blind nil? (Y/N)" in " ".join(row_text(table.machine, row) for row in range(24))
    assert not hand_shown(table.machine) and table.game.bids[HUMAN] is None


def test_y_bids_blind_nil_at_your_turn_and_then_shows_your_cards():
    table = blind_nil_table(["y"])
    assert table.game.bids[HUMAN] == 0 and table.game.blind == {HUMAN} and not table.game.bidding
    assert hand_shown(table.machine) and row_text(table.machine, YOUR_LABEL_ROW) == "YOU 0 of blind nil"


def test_n_shows_your_cards_and_blind_nil_is_no_longer_taken():
    table = blind_nil_table(["n", *"blind nil", "ENTER"])
    assert hand_shown(table.machine) and table.game.bids[HUMAN] is None
    assert row_text(table.machine, MESSAGE_ROW) == "No blind nil: you saw your cards"


def test_without_being_100_behind_there_is_no_question():
    table = blind_nil_table([], scores=(0, 99))
    assert hand_shown(table.machine) and table.game.to_play == HUMAN and table.game.bidding


def test_the_blind_nil_option_needs_the_full_game(capsys):
    from games.cli import main

    assert main(["spades", "--blind-nil", "--headless"]) == 1
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.endswith(": --blind-nil is a bid of the full game: add --full")


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["a named pipe", "a folder"])
def test_a_save_that_is_no_plain_file_is_set_aside_without_being_read(tmp_path, make):
    path = tmp_path / "spades-game.json"
    make(path)
    table = FullTable(Spectrum(), level="random", rng=random.Random(1), save_path=path)
    assert table.match.scores == [0, 0] and table.notice[0] == "Unreadable saved game kept as:"
    assert not path.exists() and (tmp_path / "spades-game.json.unreadable-1").exists()


@pytest.mark.parametrize("scores, partner_bid, blind", [
    ([400, 150], None, True),      # far behind, the other side near game: the gamble
    ([400, 150], 0, False),        # never beside a partner's nil
    ([300, 50], None, False),      # far behind, but the other side not near game
    ([400, 250], None, False),     # near game, but only 150 behind
])
def test_computers_gamble_on_blind_nil_only_as_a_comeback(tmp_path, scores, partner_bid, blind):
    from games.spades.full_rules import BLIND_NIL

    table = FullTable(Spectrum(), level="rules", rng=random.Random(1), save_path=tmp_path / "g.json", blind_nil=True)
    table.match.scores = scores
    table.game = table.new_game(list(CLUBS_DECK))
    assert table.game.may_bid_blind_nil("player_1")
    assert (table.computer_bid("player_1", partner_bid) == BLIND_NIL) == blind
    assert table.game.bid("player_1", table.computer_bid("player_1", partner_bid)) == (True, None)


@pytest.mark.parametrize("table_class", [Table, FullTable])
def test_the_first_screen_says_how_to_leave(tmp_path, table_class):
    options = {"save_path": tmp_path / "g.json"} if table_class is FullTable else {}
    table = table_class(Spectrum(HeadlessFrontend()), level="rules", rng=random.Random(1), **options)
    prepare(table.machine)
    with pytest.raises(ScriptExhausted):
        table.play_hand(CLUBS_DECK)
    assert row_text(table.machine, MESSAGE_ROW) == "BREAK (Esc) leaves"
