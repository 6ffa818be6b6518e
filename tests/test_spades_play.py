"""Spades at home: the table for four with one Spectrum seat (yours, seat 0) and three computers —
keys, the screen, the computer players' pace and BEEPs, the end of a hand, the full game kept."""

import copy
import errno
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import NAMES
from games.program import CannotStart
from games.spades import run, seats
from games.spades.home import HOME_OWNER, SAVED_GAME, home_table, play_at_home
from games.spades.screen import HAND_ROW, HELP_ROW, MESSAGE_ROW, STATUS_ROW, YOUR_LABEL_ROW, results_top
from games.spades.seat_play import BEEP_PITCH, BEEP_SECONDS, REFUSAL_BEEP, scene_of
from spectrum import ReportError, Spectrum
from spectrum.frontends import HeadlessFrontend, Press, ScriptExhausted
from spectrum.frontends.headless import presses_from

YOU = "player_0"
CAPS_RIGHT, CAPS_LEFT = {"CAPS", "8"}, {"CAPS", "5"}
CLUBS_DECK = list(NAMES[1:] + NAMES[:1])  # you: the clubs and the ace of spades; west: diamonds and ac; ...


def row_text(machine: Spectrum, row: int) -> str:
    return "".join(machine.screen_char(row, col) or "?" for col in range(32)).strip()


def screen_text(machine: Spectrum) -> str:
    return " ".join(row_text(machine, row) for row in range(24))


@pytest.fixture
def dealt(monkeypatch):
    """Deal `deck` (every hand) instead of a shuffled one."""

    def deal(deck):
        monkeypatch.setattr(seats, "shuffled_deck", lambda rng: list(deck))

    return deal


def at_home(frontend, *, full=False, level="rules", seed=1, folder=None, blind_nil=False):
    """The table at home on a machine with `frontend`, played until the script is used up."""
    machine = Spectrum(frontend)
    if folder is not None and (folder / SAVED_GAME).exists():
        seed = None  # a kept game goes on as it was dealt (a seed given would be said to wait for --new)
    table, notice = home_table(machine, level=level, seed=seed, full=full, blind_nil=blind_nil, folder=folder)
    frontend.table = table
    with pytest.raises(ScriptExhausted):
        play_at_home(machine, table, notice)
    return table, machine


def table_after(presses, dealt, deck=CLUBS_DECK, **options):
    dealt(deck)
    return at_home(HeadlessFrontend(presses), **options)


def test_a_card_you_do_not_hold_is_refused_with_the_rulesets_text_and_nothing_changes(dealt):
    table, machine = table_after(["t", "d"], dealt)
    assert row_text(machine, MESSAGE_ROW) == "card not in player hand: td"
    assert len(table.game.hand(YOU)) == 13 and table.game.to_play == YOU


def test_typing_a_card_plays_it_and_the_computers_answer_with_a_beep_each(dealt, monkeypatch):
    beeps = []
    beep = Spectrum.beep
    monkeypatch.setattr(Spectrum, "beep", lambda machine, *sound: (beeps.append(sound), beep(machine, *sound)))
    table, machine = table_after(["k", "c"], dealt)
    played = [card for _, card in table.game.tricks[0][0]]
    assert played[:3] == ["kc", "ac", "2h"] and played[3][1] == "s"  # east, out of clubs, ruffs
    assert "kc" not in table.game.hand(YOU)
    computer_cards = sum(player != YOU for cards, _ in table.game.tricks for player, _ in cards) + len(table.game.trick)
    assert beeps == [(BEEP_SECONDS, BEEP_PITCH)] * computer_cards and computer_cards >= 3
    assert len(machine.frontend.audio()) > 0
    assert row_text(machine, YOUR_LABEL_ROW) == "YOU 0 tricks"


class NotesMoves(HeadlessFrontend):
    """Notes the frame at which each move is seen made at the table."""

    def __init__(self, presses):
        super().__init__(presses)
        self.table, self.moved_at = None, []

    def present(self, machine) -> None:
        if self.table is not None and self.table.game is not None and len(self.moved_at) < len(self.table.moves):
            self.moved_at.append(machine.frame_count)
        super().present(machine)


def test_a_key_while_a_computer_is_to_play_hurries_it_and_plays_no_card(dealt):
    dealt(CLUBS_DECK)
    patient = NotesMoves(["k", "c"])
    at_home(patient)
    hurried = NotesMoves(["k", "c", Press(frozenset({"ENTER"}), after=2)])  # ENTER as west thinks
    table, _ = at_home(hurried)
    waits = [later - sooner for sooner, later in zip(patient.moved_at, patient.moved_at[1:])]
    assert waits[0] >= 20 and hurried.moved_at[1] - hurried.moved_at[0] < 10  # west's card at once
    assert hurried.moved_at[2:] == [
        frame - (patient.moved_at[1] - hurried.moved_at[1]) for frame in patient.moved_at[2:]
    ]  # then the same pace
    assert [card for _, card in table.game.tricks[0][0]][:2] == ["kc", "ac"] and len(table.game.hand(YOU)) == 12


def test_a_refused_card_buzzes(dealt, monkeypatch):
    beeps = []
    monkeypatch.setattr(Spectrum, "beep", lambda machine, *sound: beeps.append(sound))
    table_after(["t", "d"], dealt)
    assert beeps == [REFUSAL_BEEP]


def test_cursor_keys_choose_and_enter_plays(dealt):
    # your hand shows the ace of spades first, then the clubs 2..k: two steps right is the 3 of clubs
    table, _ = table_after([CAPS_RIGHT, CAPS_RIGHT, CAPS_LEFT, CAPS_RIGHT, "ENTER"], dealt)
    assert table.game.tricks[0][0][0] == (YOU, "3c")


REVOKE_DECK = (
    [rank + "d" for rank in "a23456789tjqk"]  # east
    + ["8s", "7s", "6s", "5s", "4s", "3s", "2s", "9h", "th", "jh", "qh", "kh", "ah"]  # north
    + ["ac", "kc", "qc", "jc", "tc", "9c", "8c", "as", "ks", "qs", "js", "ts", "9s"]  # west
    + ["2c", "3c", "4c", "5c", "6c", "7c", "2h", "3h", "4h", "5h", "6h", "7h", "8h"]
)  # you


def test_the_last_trick_on_request_and_a_revoke_refused_with_must_follow_suit(dealt):
    # you lead the 7 of hearts, west trumps and leads the ace of clubs
    table, machine = table_after(["7", "h", "l"], dealt, deck=REVOKE_DECK)
    assert row_text(machine, STATUS_ROW) == "Last trick: WEST took it"
    assert table.game.trick[0] == ("player_1", "ac") and table.game.to_play == YOU
    table, machine = table_after(["7", "h", "2", "h"], dealt, deck=REVOKE_DECK)
    assert row_text(machine, MESSAGE_ROW) == "must follow suit: 2h"
    assert "2h" in table.game.hand(YOU) and table.game.to_play == YOU


def test_your_turn_begins_with_a_card_you_may_play_raised(dealt):
    # the 2 of hearts is raised until west leads the ace of clubs: then the nearest club, the 2
    table, _ = table_after(["7", "h", "ENTER"], dealt, deck=REVOKE_DECK)
    yours = [card for cards, _ in table.game.tricks for player, card in cards if player == YOU]
    assert yours == ["7h", "2c"]
    # a card you may play stays raised: here the 3 of hearts, led
    table, _ = table_after([CAPS_RIGHT, "ENTER"], dealt, deck=REVOKE_DECK)
    assert table.game.tricks[0][0][0] == (YOU, "3h")


class TypesLegalCards(HeadlessFrontend):
    """Types a legal card (or a bid of 3) whenever the table waits for you, and ENTER after each hand
    until `hands` are over; then stops."""

    def __init__(self, hands: int = 1):
        super().__init__()
        self.table, self.hands = None, hands

    def present(self, machine) -> None:
        view = self.table.view(0) if self.table else None
        if not self.presses and machine.awaiting_key and view:
            if view.finished and view.hand_number < self.hands:
                self.presses.extend(presses_from(["ENTER"]))
            elif not view.finished and view.to_play == 0 and view.bidding:
                self.presses.extend(presses_from([str(min(3, view.highest_bid)), "ENTER"]))
            elif not view.finished and view.to_play == 0:
                self.presses.extend(presses_from(list(view.legal[0])))
        super().present(machine)


@pytest.mark.parametrize("full", [False, True], ids=["the seed's game", "the full game"])
def test_a_whole_hand_ends_with_the_result(tmp_path, full):
    table, machine = at_home(TypesLegalCards(), full=full, seed=2, folder=tmp_path)
    view = table.view(0)
    assert view.finished and not view.trick_taken
    results = scene_of(view, 0, None, "", "").results
    top = results_top(results)
    lines = [row_text(machine, row) for row in range(top + 1, top + len(results) + 1)]
    assert lines[-1] == "ENTER: next hand" and lines[0] == results[0]
    if not full:
        assert sum(view.hands_won) >= 1
        assert lines[0] in (
            "YOU WIN THE HAND!",
            "WEST wins the hand",
            "NORTH wins the hand",
            "EAST wins the hand",
        ) or lines[0].startswith("Shared: ")
    else:
        assert lines[0] in ("YOU and NORTH win the hand", "WEST and EAST win the hand") or lines[0].startswith(
            "Hand even"
        )
        assert lines[1].startswith("US bid ") and lines[2].startswith("THEM bid ")
        assert len(table.variant.match.history) == 1


def test_enter_after_a_hand_deals_the_next():
    table, _ = at_home(TypesLegalCards(hands=2), seed=2)
    view = table.view(0)
    assert view.hand_number == 2 and view.finished and sum(view.hands_won) >= 2


def test_break_leaves_the_game():
    frontend = HeadlessFrontend(["t", {"CAPS", "SPACE"}])
    with pytest.raises(ReportError, match="BREAK"):
        run(Spectrum(frontend), level="random", seed=3)


def test_an_unknown_level_is_refused():
    with pytest.raises(CannotStart, match="no level"):
        run(Spectrum(HeadlessFrontend()), level="expert")


def test_full_game_asks_for_a_bid_and_refuses_a_wrong_one(dealt, tmp_path):
    table, machine = table_after(presses_from(["1", "4", "ENTER"]), dealt, full=True, folder=tmp_path)
    assert table.game.bidding and table.game.to_play == YOU
    assert row_text(machine, MESSAGE_ROW) == "not a bid: 14"
    assert row_text(machine, HELP_ROW) == "Type a bid, then ENTER (N: nil)"


def test_n_types_nil_and_enter_bids_it_as_the_prompt_says(dealt, tmp_path):
    """N is typed like a digit (the bid prompt and its help both say ENTER makes a bid): N alone
    bids nothing, and a script's N{ENTER} bids nil rather than playing a card."""
    table, machine = table_after(presses_from(["n"]), dealt, full=True, folder=tmp_path)
    assert table.game.bids[YOU] is None and row_text(machine, MESSAGE_ROW).endswith("? nil_")
    table, machine = table_after(presses_from(["n", "ENTER"]), dealt, full=True, folder=tmp_path / "again")
    assert table.game.bids[YOU] == 0 and not table.game.tricks
    assert YOU not in [player for player, _ in table.game.trick] and len(table.game.hand(YOU)) == 13


def test_a_digit_after_n_starts_the_bid_again(dealt, tmp_path):
    table, machine = table_after(presses_from(["n", "3", "ENTER"]), dealt, full=True, folder=tmp_path)
    assert table.game.bids[YOU] == 3


def test_your_bid_is_capped_by_north_s(dealt, tmp_path):
    table, machine = table_after(presses_from(["1", "3", "ENTER"]), dealt, full=True, folder=tmp_path)
    north = table.game.bids["player_2"]
    assert north and table.game.to_play == YOU  # north bid before you
    assert row_text(machine, MESSAGE_ROW) == "partners bid 13 at most: 13"
    assert table.game.bids[YOU] is None


# --- the trick taken stays on the table a while -----------------------------------------------------


class WatchesTheTricks(TypesLegalCards):
    """Also keeps, for each frame, the trick's status line and whether the table shows a trick taken."""

    def __init__(self):
        super().__init__()
        self.status_rows = []

    def present(self, machine) -> None:
        if self.table is not None:
            self.status_rows.append(
                (
                    machine.frame_count,
                    row_text(machine, STATUS_ROW),
                    row_text(machine, MESSAGE_ROW),
                    self.table.view(0).hands_won,
                )
            )
        super().present(machine)


def test_each_trick_taken_stays_on_the_table_for_its_time_and_the_last_says_who_won_the_hand():
    frontend = WatchesTheTricks()
    table, _ = at_home(frontend, seed=2)
    shows = []  # (first frame, last frame, status) of each stretch a trick taken is shown
    for frame, status, message, won in frontend.status_rows:
        if status.endswith(("the trick", "the last trick")):
            if shows and shows[-1][1] == frame - 1:
                shows[-1][1] = frame
            else:
                shows.append([frame, frame, status, message, won])
    assert len(shows) == 13 and all(status.endswith("the trick") for *_, status, _, _ in shows[:12])
    lengths = [last - first + 1 for first, last, *_ in shows]
    assert all(abs(length - round(seats.TRICK_SECONDS * 50.08)) <= 1 for length in lengths), lengths
    *_, status, message, won = shows[-1]
    assert status.endswith("the last trick") and sum(won) >= 1  # the hand is counted as soon as it is over
    assert message == scene_of(table.view(0), 0, None, "", "").results[0]


# --- the full game is kept after every move -----------------------------------------------------------


def test_the_full_game_is_kept_after_every_move_and_taken_up_where_it_was(tmp_path):
    table, machine = table_after(presses_from(["3", "ENTER"]), lambda deck: None, full=True, folder=tmp_path)
    kept = json.loads((tmp_path / SAVED_GAME).read_text())
    assert kept == json.loads(json.dumps(table.saved())) and kept["hand"]["moves"]
    again, notice = home_table(Spectrum(), level="rules", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert notice is None and again.saved() == table.saved()
    assert again.game.hand(YOU) == table.game.hand(YOU) and again.game.bids == table.game.bids


def test_a_seed_given_with_a_kept_game_says_which_game_goes_on_and_how_to_start_anew(tmp_path):
    table, _ = table_after(presses_from(["3", "ENTER"]), lambda deck: None, full=True, folder=tmp_path)
    again, notice = home_table(Spectrum(), level="rules", seed=5, full=True, blind_nil=False, folder=tmp_path)
    assert again.saved() == table.saved() and "kept game goes on" in notice and "--new" in notice


def test_new_sets_the_kept_game_aside_and_deals_a_new_one(tmp_path):
    table_after(presses_from(["3", "ENTER"]), lambda deck: None, full=True, folder=tmp_path)
    kept = (tmp_path / SAVED_GAME).read_text()
    fresh, notice = home_table(Spectrum(), level="rules", seed=5, full=True, blind_nil=False, folder=tmp_path, new=True)
    assert notice is None and fresh.hand_number == 0 and fresh.variant.match.scores == [0, 0]
    assert (tmp_path / f"{SAVED_GAME}.given-up-1").read_text() == kept  # nothing a player owned is lost


def test_one_program_plays_a_folders_full_game_at_a_time(tmp_path):
    """A second zxcards on the same data folder is refused before anything is drawn, instead of
    the last to save writing over the other's moves."""
    from games.datafolder import InUse, held
    from games.spades import GAME_LOCK

    with held(tmp_path / GAME_LOCK, "the game"):
        with pytest.raises(InUse, match="another zxcards"):
            run(Spectrum(HeadlessFrontend([])), full_rules=True, data_dir=tmp_path)
    assert not (tmp_path / SAVED_GAME).exists()
    with pytest.raises(ScriptExhausted):  # once the other has gone, it plays
        run(Spectrum(HeadlessFrontend([])), full_rules=True, data_dir=tmp_path)


def old_saved_game(scores=(230, -40), padding: int = 0) -> str:
    """A game kept by an earlier zxcards: its score, between hands."""
    return json.dumps(
        {
            "scores": list(scores),
            "bags": [3, 7],
            "dealer": "player_2",
            "history": [{"bids": {}, "taken": {}, "points": [0, 0], "note": "x" * padding}],
        }
    )


def test_a_game_kept_by_an_earlier_zxcards_is_taken_up_with_its_score(tmp_path):
    path = tmp_path / SAVED_GAME
    path.write_text(old_saved_game())
    table, notice = home_table(Spectrum(), level="rules", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert notice is None and table.variant.match.scores == [230, -40] and table.variant.match.bags == [3, 7]
    table.join(HOME_OWNER, "YOU")
    table.start(0)
    assert table.game.dealer == "player_3"  # the next dealer after the kept one
    assert json.loads(path.read_text())["standing"]["match"]["scores"] == [230, -40]


BAD_SAVES = [
    "",
    "{",
    "[]",
    '{"scores": [1, 2]}',
    b"\xff\xfe".decode("latin-1"),
    "[" * 400_000,
    '{"scores": [1, "2"], "bags": [0, 0], "dealer": "player_0", "history": []}',
    '{"scores": [1, 2], "bags": [0, 10], "dealer": "player_0", "history": []}',
    '{"scores": [1, 2], "bags": [0, 0], "dealer": "nobody", "history": []}',
    '{"format": 1, "code": "home", "full": true}',
    '{"format": 99}',
]


@pytest.mark.parametrize(
    "content",
    BAD_SAVES + [old_saved_game(padding=1_000_001)],
    ids=[f"bad{number}" for number in range(len(BAD_SAVES))] + ["over a megabyte"],
)
def test_an_unreadable_save_is_set_aside_not_lost_and_a_new_game_begins(tmp_path, content):
    path = tmp_path / SAVED_GAME
    path.write_text(content, encoding="latin-1")
    table, notice = home_table(Spectrum(), level="random", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert table.variant.match.scores == [0, 0] and f"{SAVED_GAME}.unreadable-1" in notice
    assert not path.exists()
    assert (tmp_path / f"{SAVED_GAME}.unreadable-1").read_text(encoding="latin-1") == content


def test_a_kept_table_with_no_seat_of_this_machine_s_is_set_aside(tmp_path):
    clock = lambda: 0.0  # noqa: E731
    served = seats.SpadesTable("home", full=True, clock=clock)
    served.join("someone else", "Eve")
    served.start(0)
    (tmp_path / SAVED_GAME).write_text(json.dumps(served.saved()))
    table, notice = home_table(Spectrum(), level="rules", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert f"{SAVED_GAME}.unreadable-1" in notice and table.seats == [None] * 4


def test_a_game_kept_at_its_final_result_gives_way_to_a_new_one_without_a_word(tmp_path):
    path = tmp_path / SAVED_GAME
    path.write_text(old_saved_game(scores=(-210, 40)))
    table, notice = home_table(Spectrum(), level="random", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert notice is None
    table.join(HOME_OWNER, "YOU")
    table.start(0)
    assert table.variant.match.scores == [0, 0] and sorted(tmp_path.iterdir()) == [path]


def test_every_unreadable_save_is_kept_numbered_and_the_screen_says_where(tmp_path):
    path = tmp_path / SAVED_GAME
    for number in (1, 2, 3):
        path.write_text(f"damaged {number}")
        _, machine = at_home(HeadlessFrontend(), full=True, folder=tmp_path)
        screen = screen_text(machine).replace(" ", "")
        assert f"{SAVED_GAME}.unreadable-{number}" in screen
        assert row_text(machine, MESSAGE_ROW) == "Any key to go on"
    assert [(tmp_path / f"{SAVED_GAME}.unreadable-{number}").read_text() for number in (1, 2, 3)] == [
        "damaged 1",
        "damaged 2",
        "damaged 3",
    ]


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["a named pipe", "a folder"])
def test_a_save_that_is_no_plain_file_is_set_aside_without_being_read(tmp_path, make):
    path = tmp_path / SAVED_GAME
    make(path)
    table, notice = home_table(Spectrum(), level="random", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert table.variant.match.scores == [0, 0] and notice
    assert not path.exists() and (tmp_path / f"{SAVED_GAME}.unreadable-1").exists()


def full_hand_with(folder, monkeypatch=None, trouble=None):
    """One hand of the full game kept in `folder`, with `trouble` patched in while it is played."""
    frontend = TypesLegalCards()
    machine = Spectrum(frontend)
    table, notice = home_table(machine, level="rules", seed=2, full=True, blind_nil=False, folder=folder)
    frontend.table = table
    if trouble:
        trouble(monkeypatch)
    with pytest.raises(ScriptExhausted):
        play_at_home(machine, table, notice)
    return table, machine


def disk_full(monkeypatch):
    def no_space(_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


def read_only(monkeypatch):
    def refused(file, *args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))

    monkeypatch.setattr("games.datafolder.open", refused, raising=False)


@pytest.mark.parametrize("trouble, reason", [(disk_full, "No space left on device"), (read_only, "Permission denied")])
def test_a_save_that_fails_is_said_the_game_goes_on_and_the_old_save_is_kept(tmp_path, monkeypatch, trouble, reason):
    path = tmp_path / SAVED_GAME
    path.write_text(old_saved_game())
    table, machine = full_hand_with(tmp_path, monkeypatch, trouble)
    assert table.game.finished and len(table.variant.match.history) == 2  # the hand was played and scored
    assert path.read_text() == old_saved_game() and sorted(tmp_path.iterdir()) == [path]
    assert f"Table NOT kept: {reason}" in screen_text(machine)


def test_an_unreadable_save_that_cannot_be_moved_stays_and_is_never_written_over(tmp_path, monkeypatch):
    path = tmp_path / SAVED_GAME
    path.write_text("damaged")

    def refused(source, target):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "replace", refused)
    table, notice = home_table(Spectrum(), level="rules", seed=None, full=True, blind_nil=False, folder=tmp_path)
    monkeypatch.undo()
    assert "can't be read" in notice and "not kept" in notice
    table.join(HOME_OWNER, "YOU")
    table.start(0)
    assert table.view(0).notice.startswith("Table NOT kept")
    assert path.read_text() == "damaged" and sorted(tmp_path.iterdir()) == [path]


def test_a_save_behind_a_symbolic_link_is_written_to_its_target(tmp_path):
    target = tmp_path / "elsewhere" / "my-spades.json"
    target.parent.mkdir()
    target.write_text(old_saved_game())
    link = tmp_path / SAVED_GAME
    link.symlink_to(target)
    table, _ = full_hand_with(tmp_path)
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text()) == json.loads(json.dumps(table.saved()))
    assert len(table.variant.match.history) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["elsewhere", SAVED_GAME]


def test_the_end_of_a_full_game_is_said_and_enter_starts_a_new_one(tmp_path):
    (tmp_path / SAVED_GAME).write_text(old_saved_game(scores=(460, 0)))  # this deal gives you and north 45
    table, machine = full_hand_with(tmp_path)
    match = table.variant.match
    assert match.over and match.winner == 0
    assert "YOU AND NORTH WIN THE GAME!" in screen_text(machine) and "ENTER: a new game" in screen_text(machine)
    table.next_hand(0)
    assert table.variant.match.scores == [0, 0] and table.game.bidding


# --- seeds ------------------------------------------------------------------------------------------


def headless_screen(tmp_path, name: str, *options: str) -> bytes:
    from games.host.cli import main

    shot = tmp_path / f"{name}.png"
    assert main(["spades", "--headless", "--keys", "{ENTER}", "--screenshot", str(shot), *options]) == 0
    return shot.read_bytes()


def test_seed_zero_deals_the_same_hands_every_time(tmp_path):
    first = headless_screen(tmp_path, "a", "--seed", "0")
    assert headless_screen(tmp_path, "b", "--seed", "0") == first
    assert headless_screen(tmp_path, "c", "--seed", "1") != first


# --- blind nil ----------------------------------------------------------------------------------


def blind_nil_table(presses, dealt, tmp_path, scores=(0, 150)):
    (tmp_path / SAVED_GAME).write_text(old_saved_game(scores=scores))
    return table_after(presses_from(presses), dealt, deck=list(NAMES), full=True, folder=tmp_path, blind_nil=True)


def hand_shown(machine: Spectrum) -> bool:
    """Any card face among your cards' rows (a blind nil hides them)."""
    return any(
        machine.screen_char(row, col) not in (" ", None) for row in (HAND_ROW - 1, HAND_ROW) for col in range(32)
    )


def test_behind_by_100_you_are_asked_for_blind_nil_before_seeing_your_cards(dealt, tmp_path):
    table, machine = blind_nil_table([], dealt, tmp_path)
    assert "Bid blind nil? (Y/N)" in screen_text(machine)
    assert not hand_shown(machine) and table.game.bids[YOU] is None


def test_y_bids_blind_nil_at_your_turn_and_then_shows_your_cards(dealt, tmp_path):
    table, machine = blind_nil_table(["y"], dealt, tmp_path)
    assert table.game.bids[YOU] == 0 and table.game.blind == {YOU} and not table.game.bidding
    assert hand_shown(machine) and row_text(machine, YOUR_LABEL_ROW) == "YOU 0 of blind nil"


def test_n_shows_your_cards_for_an_ordinary_bid(dealt, tmp_path):
    table, machine = blind_nil_table(["n", "4", "ENTER"], dealt, tmp_path)
    assert hand_shown(machine) and table.game.bids[YOU] == 4 and table.game.blind == set()


def test_without_being_100_behind_there_is_no_question(dealt, tmp_path):
    table, machine = blind_nil_table([], dealt, tmp_path, scores=(0, 99))
    assert hand_shown(machine) and table.game.to_play == YOU and table.game.bidding


def test_the_blind_nil_option_needs_the_full_game(capsys):
    from games.host.cli import main

    assert main(["spades", "--blind-nil", "--headless"]) == 1
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.endswith(": --blind-nil is a bid of the full game: add --full")


@pytest.mark.parametrize(
    "scores, partner_bid, blind",
    [
        ([400, 150], None, True),  # far behind, the other side near game: the gamble
        ([400, 150], 0, False),  # never beside a partner's nil
        ([300, 50], None, False),  # far behind, but the other side not near game
        ([400, 250], None, False),  # near game, but only 150 behind
    ],
)
def test_computers_gamble_on_blind_nil_only_as_a_comeback(scores, partner_bid, blind):
    import random

    from games.spades.variants import FullGame

    game = FullGame(random.Random(1), "rules", blind_nil=True)
    game.match.scores = scores
    game.match.dealer = "player_3" if partner_bid is None else "player_1"  # west bids first, or after east and you
    state = game.deal(list(CLUBS_DECK))
    hand = state.game
    if partner_bid is not None:
        assert hand.bid("player_3", partner_bid)[0] and hand.bid("player_0", 4)[0]
    assert hand.to_play == "player_1" and hand.may_bid_blind_nil("player_1")
    move = game.computer_move(None, hand, "player_1")
    assert (move == "blind nil") == blind
    state.apply(move, player=1)
    assert state.history[-1] == (1, move)


@pytest.mark.parametrize("full", [False, True])
def test_the_first_screen_says_how_to_leave_or_asks_for_your_bid(dealt, tmp_path, full):
    _, machine = table_after([], dealt, full=full, folder=tmp_path)
    said = row_text(machine, MESSAGE_ROW)
    assert said.startswith("Your bid (0/N = nil, 1-") if full else said == "BREAK (Esc) leaves"


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["player_0", "bid 3", "play_card - as", "as"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def kept_midway(tmp_path_factory) -> dict:
    """A full game kept after a bid and a few cards."""
    folder = tmp_path_factory.mktemp("kept")
    at_home(HeadlessFrontend(presses_from(["3", "ENTER", "ENTER", "ENTER"])), full=True, folder=folder)
    return json.loads((folder / SAVED_GAME).read_text())


def places_in(node, path=()) -> list[tuple]:
    """The paths to every value in `node` (of a long list, its first two and last)."""
    if isinstance(node, dict):
        keys = sorted(node)
    elif isinstance(node, list):
        keys = sorted({*range(min(2, len(node))), len(node) - 1}) if node else []
    else:
        return [path]
    return [path] + [place for key in keys for place in places_in(node[key], path + (key,))]


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_kept_game_damaged_anywhere_is_taken_up_or_set_aside_never_a_crash(kept_midway, tmp_path_factory, data):
    damaged = copy.deepcopy(kept_midway)
    path = data.draw(st.sampled_from(places_in(damaged)), label="where")
    value = data.draw(st.none() | JSON_VALUES, label="what (None: removed)")
    if not path:
        damaged = value
    else:
        place = damaged
        for key in path[:-1]:
            place = place[key]
        if value is None:
            del place[path[-1]]
        else:
            place[path[-1]] = value
    folder = tmp_path_factory.mktemp("damaged")
    (folder / SAVED_GAME).write_text(json.dumps(damaged))
    frontend = HeadlessFrontend(presses_from(["3", "ENTER", "ENTER"]))
    machine = Spectrum(frontend)
    table, notice = home_table(machine, level="rules", seed=None, full=True, blind_nil=False, folder=folder)
    assert (notice is None) == (folder / SAVED_GAME).exists()  # taken up, or set aside and said
    with pytest.raises(ScriptExhausted):
        play_at_home(machine, table, notice)


# --- one name a seat, for everyone at the table -------------------------------------------------------


def two_people_at_a_table(clock=lambda: 0.0):
    table = seats.SpadesTable("T1", seed=7, clock=clock, turn_seconds=None)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    return table


def test_each_seat_has_one_name_for_everyone_at_the_table():
    """The computers at seats 2 and 3 are NORTH and EAST to Anna, to Bob and to a watcher alike,
    wherever each screen draws them; Anna is ANNA to Bob and Bob BOB to Anna."""
    table = two_people_at_a_table()
    seen = {seat: scene_of(table.view(seat), 0 if seat is None else seat, None, "", "").names for seat in (0, 1, None)}
    assert sorted(seen[0].values()) == sorted(["YOU", "BOB", "NORTH", "EAST"])
    assert sorted(seen[1].values()) == sorted(["ANNA", "YOU", "NORTH", "EAST"])
    assert sorted(seen[None].values()) == sorted(["ANNA", "BOB", "NORTH", "EAST"])
    assert seen[0]["player_2"] == "NORTH" and seen[1]["player_1"] == "NORTH"  # across the table from Anna, left of Bob


def test_the_hands_won_line_names_the_seats_as_the_table_does():
    table = two_people_at_a_table()
    line_for = {seat: scene_of(table.view(seat), seat, None, "", "").score_line for seat in (0, 1)}
    assert line_for[0] == "Hands won: YOU 0 W 0 N 0 E 0"
    assert line_for[1] == "Hands won: YOU 0 N 0 E 0 S 0"


def test_a_trick_taken_and_still_shown_keeps_its_number_in_the_header():
    now = [0.0]
    table = two_people_at_a_table(lambda: now[0])
    while not table.view(None).trick_taken:
        view = table.view(None)
        if view.to_play in (0, 1):
            table.play(view.to_play, table.view(view.to_play).legal[0])
        else:
            now[0] += 1
            assert table.dealer_step()
    view = table.view(0)
    assert sum(view.taken) == 1 and scene_of(view, 0, None, "", "").title == "SPADES  hand 1  trick 1 of 13"
    now[0] += 5  # the trick's show is over: the next trick is the second
    assert scene_of(table.view(0), 0, None, "", "").title == "SPADES  hand 1  trick 2 of 13"


def test_break_is_said_whenever_nothing_else_is():
    table = two_people_at_a_table()
    view = table.view(0)
    assert view.to_play == 0 and scene_of(view, 0, 0, "", "").message == "BREAK (Esc) leaves"
    assert scene_of(table.view(1), 1, 0, "", "").message == "BREAK (Esc) leaves"


# --- why a screen at a table watches, or sits under another name --------------------------------------


def seat_screen_text(tables, owner, name, **options):
    from games.spades.seat_play import run as take_a_seat

    machine = Spectrum(HeadlessFrontend([]))
    with pytest.raises(ScriptExhausted):
        take_a_seat(machine, tables, "T9", owner, name, seed=7, **options)
    return screen_text(machine)


def test_a_newcomer_who_watches_is_told_why():
    from games.host.tables import Tables

    tables = Tables(seats.SpadesTable, clock=lambda: 0.0)
    table = tables.table("T9", seed=7)
    assert table.join("anna-secret", "Anna") == 0  # Anna stays at the table throughout
    said = seat_screen_text(tables, "bob-secret", "Bob")
    assert "2 Bob <- you" in said and "watch" not in said
    assert "You watch, as you asked" in seat_screen_text(tables, "eve-secret", "Eve", watch=True)
    assert "No site data kept" in seat_screen_text(tables, None, "Eve")
    table.start(0)
    assert "Play had begun: you watch" in seat_screen_text(tables, "carl-secret", "Carl")
    assert "You sit here as Anna" in seat_screen_text(tables, "anna-secret", "Zed")  # a second tab, another name


# --- house rules at a seat ----------------------------------------------------------------------


def test_p_shows_the_hands_of_the_game_and_a_card_typed_out_of_turn_never_does(tmp_path):
    from games.spades.variants import FullGame
    from games.spades.full_rules import FullMatch

    (tmp_path / SAVED_GAME).write_text(old_saved_game(scores=(120, 80)))
    table, machine = at_home(HeadlessFrontend(presses_from(["p"])), full=True, folder=tmp_path)
    assert "The hands of this game" in screen_text(machine) and "Any key to go on" in screen_text(machine)
    assert isinstance(table.variant, FullGame) and isinstance(table.variant.match, FullMatch)
    table, machine = at_home(HeadlessFrontend(presses_from(["3", "h"])), full=True, folder=tmp_path)
    assert "The hands of this game" not in screen_text(machine)


def test_the_table_s_first_screen_says_its_house_rules(tmp_path):
    from games.host.tables import Tables
    from games.spades.house_rules import HouseRules
    from games.spades.seat_play import run as take_a_seat

    tables = Tables(seats.SpadesTable, clock=lambda: 0.0)
    machine = Spectrum(HeadlessFrontend([]))
    rules = HouseRules(game_to=300, bags=7, nil=0, ten_for_200=True, minimum_bid=4, turn_seconds=30)
    with pytest.raises(ScriptExhausted):
        take_a_seat(machine, tables, "R9", "anna-secret", "Anna", rules=rules, private=True)
    said = screen_text(machine)
    for words in (
        "Full game to 300, out -120",
        "7 bags cost 100 points",
        "No nil bids",
        "10 for 200, partners bid 4+",
        "30 s to move; seat held 60 s",
        "Private: only by this link",
        "1 Anna <- you",
    ):
        assert words in said
