"""Pointing (`spectrum.pointing`): what a tap on a cell types, for any program and for each of ours.

The host knows no game: a program's `Targets` say what its cells mean at each wait, and a tap types
the keys a player would type there. These tests check the declarations, the host's side (parts of a
move picked until it is whole, drags, the typist's timing), a script's taps, the wire's tap messages,
and each program's cells: the menu's lines, Patience's cards and choices read from its screen,
Canfield's piles (home at one tap, or picked and then put), Spades' cards and bids.
"""

from __future__ import annotations

import json

import pytest

from games import PROGRAMS
from games.canfield import targets as canfield_targets
from games.canfield.deals import deck_for
from games.canfield.rules import Canfield
from games.host import cli, load, menu
from games.patience import play as patience_play
from games.patience import rules as patience_rules
from games.patience import targets as patience_targets
from games.spades import targets as spades_targets
from spectrum import Spectrum, wire
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.pointing import (
    GAP_FRAMES,
    HOLD_FRAMES,
    Pointer,
    PointerSession,
    Tap,
    Target,
    TargetError,
    Targets,
    Typist,
    cell_at,
    char_at,
    targets_of,
    text_at,
)


# --- the declaration --------------------------------------------------------------------------------


def test_a_target_must_lie_on_the_screen_and_be_named():
    with pytest.raises(TargetError, match="within the screen"):
        Target("card", ("a",), row=23, col=0, rows=2)
    with pytest.raises(TargetError, match="within the screen"):
        Target("card", ("a",), row=0, col=31, cols=2)
    with pytest.raises(TargetError, match="named"):
        Target("", ("a",))
    with pytest.raises(TargetError, match="same name"):
        Targets((Target("a", ("a",)), Target("a", ("b",))))
    with pytest.raises(TargetError, match="no part"):
        Targets((Target("a", ("a",), row=0),), moves=(frozenset({"a"}),))


def test_the_first_target_covering_a_cell_is_the_one_there():
    small, whole = (
        Target("small", ("s",), row=3, col=4, rows=2, cols=3),
        Target("whole", ("w",), row=0, rows=24, cols=32),
    )
    targets = Targets((small, whole, Target("choice", ("c",))))
    assert targets.at(3, 4) is small and targets.at(4, 6) is small
    assert targets.at(5, 4) is whole and targets.at(3, 7) is whole
    assert Targets((small,)).at(2, 4) is None


def test_a_declaration_goes_through_json_unchanged():
    targets = Targets(
        (
            Target("1", ("1",), row=1, col=6, rows=6, cols=5, part=True),
            Target("pile", ("2",), row=6, col=16, rows=3, cols=3, drag=("2",), drop=(), picked=True),
            Target("New deal", ("n",)),
        ),
        moves=(frozenset({"1"}),),
        finish=("ENTER",),
        letters=True,
    )
    assert Targets.from_json(json.loads(json.dumps(targets.as_json()))) == targets
    with pytest.raises(TargetError):
        Targets.from_json({"targets": [{"nom": "x"}]})


def test_a_cell_is_found_in_the_picture_at_any_scale_and_the_border_is_none():
    assert cell_at(32 * 3, 24 * 3, 960, 720, 320, 240, 32, 24) == (0, 0)
    assert cell_at((32 + 255) * 3 + 2, (24 + 191) * 3 + 2, 960, 720, 320, 240, 32, 24) == (23, 31)
    assert cell_at(31 * 3, 100, 960, 720, 320, 240, 32, 24) is None  # the border
    assert cell_at(160, 120, 320, 240, 320, 240, 32, 24) == ((120 - 24) // 8, (160 - 32) // 8)


# --- the host's side ----------------------------------------------------------------------------------


def parts_of_eleven() -> Targets:
    cards = tuple(Target(str(n), (str(n),), row=0, col=3 * n, cols=3, part=True) for n in range(1, 5))
    return Targets(
        (*cards, Target("resign", ("0", "ENTER"))),
        moves=(frozenset({"1", "2"}), frozenset({"3", "4"}), frozenset({"1", "3", "4"})),
        finish=("ENTER",),
    )


def test_parts_are_picked_until_they_make_a_move_then_typed_in_the_order_tapped():
    pointer, targets = Pointer(), parts_of_eleven()
    assert pointer.tap(targets, "2") == () and pointer.picks == ["2"]
    assert pointer.tap(targets, "1") == ("2", "1", "ENTER") and pointer.picks == []
    assert pointer.tap(targets, "3") == () and pointer.tap(targets, "4") == ("3", "4", "ENTER")  # {3,4} is whole
    assert pointer.tap(targets, "1") == () and pointer.tap(targets, "3") == ()  # on the way to {1,3,4}
    assert pointer.tap(targets, "4") == ("1", "3", "4", "ENTER")


def test_a_pick_that_can_make_no_move_is_typed_for_the_program_to_refuse():
    pointer, targets = Pointer(), parts_of_eleven()
    pointer.tap(targets, "2")
    assert pointer.tap(targets, "3") == ("2", "3", "ENTER")


def test_a_part_tapped_again_is_let_go_and_a_choice_drops_the_picks():
    pointer, targets = Pointer(), parts_of_eleven()
    pointer.tap(targets, "2")
    assert pointer.tap(targets, "2") == () and pointer.picks == []
    pointer.tap(targets, "1")
    assert pointer.tap(targets, "resign") == ("0", "ENTER") and pointer.picks == []


def test_picks_no_longer_declared_are_forgotten():
    pointer = Pointer()
    pointer.tap(parts_of_eleven(), "1")
    pointer.forget_gone(Targets((Target("2", ("2",), row=0, part=True),)))
    assert pointer.picks == []


def test_a_drag_types_the_source_then_the_drop_and_nothing_where_either_cannot_be():
    pointer = Pointer()
    targets = Targets(
        (
            Target("stock", ("s", "f"), row=3, cols=3, drag=("s",), drop=()),
            Target("pile2", ("2",), row=6, col=16, cols=3, drag=("2",), drop=("2",)),
            Target("pack", ("p",), row=7, cols=3, drag=(), drop=()),
        )
    )
    assert pointer.drag(targets, "stock", "pile2") == ("s", "2")
    assert pointer.drag(targets, "pile2", "stock") == ()  # the stock takes no card
    assert pointer.drag(targets, "pack", "pile2") == ()  # the pack is not dragged
    assert pointer.drag(targets, "stock", "stock") == ("s", "f")  # where it began: a tap
    with pytest.raises(TargetError, match="no target"):
        pointer.drag(targets, "stock", "nowhere")


def test_two_parts_dragged_together_are_both_picked():
    assert Pointer().drag(parts_of_eleven(), "1", "2") == ("1", "2", "ENTER")


def test_a_tap_on_no_target_types_nothing_and_one_by_a_wrong_name_says_so():
    session = PointerSession()
    machine = Spectrum(HeadlessFrontend())
    machine.targets = parts_of_eleven()
    session.look(machine)
    session.tap(20, 20)
    session.tap_name("x")
    assert session.for_frame() == frozenset() and not session.busy
    assert session.refusals == ["no target 'x' here"]


def test_a_tap_waits_for_the_program_to_wait_for_a_key_and_is_read_against_the_targets_then():
    session, machine = PointerSession(), Spectrum(HeadlessFrontend())
    machine.targets = Targets((Target("old", ("o",), row=0),))
    session.look(machine)
    session.tap(0, 0)
    assert session.for_frame(awaiting_key=False) == frozenset() and session.busy  # the program is busy
    machine.targets = Targets((Target("new", ("n",), row=0),))  # it drew its screen again
    session.look(machine)
    assert session.for_frame(awaiting_key=True) == frozenset({"n"})


def test_the_typist_types_a_press_at_a_time_when_the_program_waits_held_and_let_go_for_the_rom():
    typist = Typist()
    typist.type(["2", "CAPS+5", "ENTER"])
    assert typist.for_frame(awaiting_key=False) == frozenset()  # busy: nothing typed
    frames = [typist.for_frame() for _ in range(3 * (HOLD_FRAMES + GAP_FRAMES))]
    assert frames == (
        [frozenset({"2"})] * HOLD_FRAMES
        + [frozenset()] * GAP_FRAMES
        + [frozenset({"CAPS", "5"})] * HOLD_FRAMES
        + [frozenset()] * GAP_FRAMES
        + [frozenset({"ENTER"})] * HOLD_FRAMES
        + [frozenset()] * GAP_FRAMES
    )
    assert not typist.busy
    with pytest.raises(TargetError):
        typist.type(["NOKEY"])


def test_a_terminal_of_a_served_machine_sends_its_taps_to_the_server():
    terminal = wire.Terminal()
    terminal.receive(json.dumps({"targets": parts_of_eleven().as_json(), "picked": ["1"]}))
    session = PointerSession()
    session.look(terminal)
    assert session.targets == parts_of_eleven() and session.picked == ["1"]
    session.tap(0, 4)
    session.drag((0, 3), (0, 6))
    session.tap_name("resign")
    assert terminal.outbox == [{"tap": [0, 4]}, {"drag": [[0, 3], [0, 6]]}, {"tap": "resign"}]
    assert not session.typist.busy  # typed there, not here


# --- a script's taps ----------------------------------------------------------------------------------


def test_a_script_taps_a_cell_or_a_target_and_drags():
    presses = cli.script_presses("1{tap 3,12}{tap 5s}{drag 7,11 pile2}{ENTER}")
    assert presses[1] == Tap((3, 12)) and presses[2] == Tap("5s") and presses[3] == Tap((7, 11), "pile2")
    for script, complaint in (("{tap}", "a tap is"), ("{tap 24,0}", "rows are 0-23"), ("{drag a}", "a drag")):
        with pytest.raises(ValueError, match=complaint):
            cli.script_presses(script)


def test_a_scripted_tap_on_no_target_stops_with_the_targets_named():
    machine = Spectrum(HeadlessFrontend([Tap("nowhere")]))
    machine.targets = parts_of_eleven()
    with pytest.raises(TargetError, match="no target 'nowhere' to tap here; the targets are: 1, 2, 3, 4, resign"):
        machine.wait_key()


# --- the wire -------------------------------------------------------------------------------------------


def test_a_terminal_taps_and_drags_in_messages_checked_like_the_others():
    assert wire.terminal_message('{"tap": [3, 12]}').tap == (3, 12)
    assert wire.terminal_message('{"tap": "New deal"}').tap == "New deal"
    assert wire.terminal_message('{"drag": [[7, 11], [7, 17]]}').drag == ((7, 11), (7, 17))
    for text in (
        '{"tap": [24, 0]}',
        '{"tap": [1]}',
        '{"tap": [1.5, 2]}',
        '{"tap": ""}',
        '{"drag": [[1, 2]]}',
        '{"drag": [[1, 2], [3, 40]]}',
        '{"tap": true}',
        '{"tapp": [1, 2]}',
    ):
        with pytest.raises(wire.MessageError):
            wire.terminal_message(text)


# --- the menu -------------------------------------------------------------------------------------------


def test_a_tap_on_a_program_line_of_the_menu_types_its_number():
    programs = [load(name) for name in PROGRAMS]
    targets = menu.menu_targets(programs)
    for number, program in enumerate(programs, 1):
        assert Pointer().tap_cell(targets, 4 + 2 * number, 8) == (str(number),)
        assert targets.at(4 + 2 * number, 8).name == program.TITLE
    assert targets.at(1, 8) is None


def test_the_menu_runs_the_program_tapped():
    chosen = []
    frontend = HeadlessFrontend([Tap((8, 10))])
    machine = Spectrum(frontend)
    programs = [
        type("P", (), {"TITLE": f"Program {n}", "run": staticmethod(lambda m, n=n: chosen.append(n))})
        for n in range(1, 4)
    ]
    menu.choose(machine, programs).run(machine)
    assert chosen == [2] and machine.targets is None  # the program chosen says what its cells mean


# --- Patience: the cards and the choices, read from its screen ------------------------------------------


@pytest.fixture(scope="module")
def patience_table():
    machine = Spectrum(HeadlessFrontend())
    table = patience_play.dealt_game(machine, 1, fast=True)
    machine.targets = patience_targets.targets
    with pytest.raises(ScriptExhausted):
        patience_play.play(machine, table)
    return machine, table


def test_patience_reads_its_faces_and_prompt_from_the_screen(patience_table):
    machine, table = patience_table
    assert text_at(machine, 21, 0, 19) == patience_targets.NEW_CENTRE
    for position in patience_targets.POSITIONS:
        face = char_at(machine, patience_rules.row(position), patience_rules.column(position))
        record = table.layout[position - 1]
        assert face == ("" if record[0] == patience_rules.TEN else record[0])  # the ten: a UDG, no letter


def test_patience_cards_are_parts_whose_moves_are_two_plain_cards_or_the_courts(patience_table):
    machine, _ = patience_table
    targets = targets_of(machine)
    faces = {
        position: char_at(machine, patience_rules.row(position), patience_rules.column(position))
        for position in patience_targets.POSITIONS
    }
    courts = {str(p) for p, face in faces.items() if face in "JQK" and face}
    plain = {str(p) for p in faces} - courts
    for move in targets.moves:
        assert (len(move) == 2 and move <= plain) or sorted(faces[int(p)] for p in move) == ["J", "K", "Q"]
    assert targets.finish == ("ENTER",)
    for position in patience_targets.POSITIONS:  # the card, and its number under it
        card = targets.named(str(position))
        assert card.part and card.keys == (str(position),)
        assert targets.at(patience_rules.row(position), patience_rules.column(position)) is card
        assert targets.at(patience_rules.row(position) + 5, patience_rules.column(position) + 2) is card
    assert Pointer().tap_cell(targets, 21, 5) == ("9", "ENTER")  # "9: new centre card"
    assert Pointer().tap_cell(targets, 21, 24) == ("0", "ENTER")  # "0: resign"


def test_patience_any_jack_queen_and_king_make_a_move_when_two_of_a_court_show():
    faces = {1: "Q", 2: "7", 3: "J", 4: "3", 5: "K", 6: "6", 7: "7", 8: "Q", 9: "J"}
    courts = {move for move in patience_targets.moves(faces) if len(move) == 3}
    assert courts == {
        frozenset(three) for three in (("3", "1", "5"), ("3", "8", "5"), ("9", "1", "5"), ("9", "8", "5"))
    }
    assert frozenset({"2", "7"}) in patience_targets.moves(faces)  # two sevens: the listing refuses, not the host


def test_patience_two_cards_tapped_are_typed_as_their_numbers_and_enter(patience_table):
    machine, _ = patience_table
    targets, pointer = targets_of(machine), Pointer()
    first, second = sorted(next(iter(targets.moves)), reverse=True)
    assert pointer.tap(targets, first) == ()
    assert pointer.tap(targets, second) == (first, second, "ENTER")


def test_patience_screens_with_no_prompt_have_no_targets():
    machine = Spectrum(HeadlessFrontend())
    assert targets_of(machine) == Targets()
    machine.targets = patience_targets.targets
    assert targets_of(machine) == Targets()


# --- Canfield --------------------------------------------------------------------------------------------


def canfield_with(deal: int) -> Canfield:
    return Canfield(deck_for(deal))


def test_canfield_a_card_that_can_go_home_goes_at_one_tap_another_is_picked():
    for deal in range(1, 200):
        game = canfield_with(deal)
        homeward = [source for source in "st1234" if canfield_targets.goes_home(game, source)]
        others = [source for source in "st1234" if source not in homeward and source != "t"]
        if homeward and others:
            break
    assert homeward and others, "no deal with a card to send home and one to pick"
    targets = canfield_targets.targets(game, practice=True)
    names = {"s": "stock", "t": "talon", **{n: f"pile{n}" for n in "1234"}}
    for source in homeward:
        assert Pointer().tap(targets, names[source]) == (source, "f")
    for source in others:
        assert Pointer().tap(targets, names[source]) == (source,)
    assert Pointer().tap(targets, "pack") == ("p",)
    assert Pointer().drag(targets, names[homeward[0]], "pile3") == (homeward[0], "3")


def test_canfield_with_a_card_picked_a_pile_takes_it_and_the_card_again_sends_it_home():
    game = canfield_with(7)
    game.press("1")
    targets = canfield_targets.targets(game, practice=True)
    assert targets.named("pile1").picked
    assert Pointer().tap(targets, "pile2") == ("2",)
    assert Pointer().tap(targets, "pile1") == ("f",)
    assert Pointer().tap(targets, "home") == ("f",)
    assert Pointer().tap(targets, "stock") == ()


def test_canfield_piles_cover_their_cards_and_the_choices_are_the_games():
    game = canfield_with(7)
    practice, money = canfield_targets.targets(game, True), canfield_targets.targets(game, False)
    assert practice.at(6, 11).name == "pile1" and practice.at(8, 12).name == "pile1"  # the number, the card
    assert practice.at(9, 12) is None
    assert {t.name for t in practice.targets if not t.on_screen} == {"Turn the pack", "New deal", "Undo", "Hint"}
    assert {t.name for t in money.targets if not t.on_screen} == {"Turn the pack", "New deal", "Record"}


# --- Spades -----------------------------------------------------------------------------------------------


def test_spades_a_card_of_the_hand_types_its_name_and_the_raised_one_is_picked():
    hand = ["2s", "ks", "3h", "ah", "td"]
    targets = spades_targets.playing(hand, "", chosen=1)
    for card in hand:
        target = targets.named(card)
        assert Pointer().tap(targets, card) == (card[0], card[1])
        assert targets.at(target.row + 1, target.col) is target  # its face row
    assert targets.named("ks").picked and not targets.named("2s").picked
    assert spades_targets.playing(hand, "t").named("ah").keys == ("DELETE", "a", "h")  # what was typed, undone
    assert targets.named("Last trick").keys == ("l",)


def test_spades_bids_are_choices_typed_as_digits_and_enter():
    targets = spades_targets.bidding("")
    assert targets.named("Nil").keys == ("n", "ENTER")
    assert targets.named("4").keys == ("4", "ENTER") and targets.named("13").keys == ("1", "3", "ENTER")
    assert spades_targets.bidding("1").named("4").keys == ("DELETE", "4", "ENTER")
    assert [target.name for target in spades_targets.bidding("", 10).targets][-2:] == ["10", "Last trick"]
    assert not any(target.on_screen for target in targets.targets)


def test_the_command_says_in_one_line_where_a_scripted_tap_met_no_target(tmp_path, capsys):
    shot = tmp_path / "where.scr"
    status = cli.main(
        ["patience", "--fast", "--seed", "5", "--headless", "--keys", "{tap deal}{tap 7,30}", "--screenshot", str(shot)]
    )
    said = capsys.readouterr().err
    assert status == 1 and said == "zxcards patience: the key script stopped: no target at row 7, column 30\n"
    assert shot.stat().st_size == 6912  # the screen it stopped at, saved


def test_targets_read_from_the_screen_are_read_again_only_when_the_screen_changed_and_then_at_a_pace():
    from spectrum.pointing import READ_EVERY

    reads = []

    def read(machine):
        reads.append(machine.frame_count)
        return Targets((Target("a", ("a",), row=0),))

    machine, session = Spectrum(HeadlessFrontend()), PointerSession()
    machine.targets = read
    session.look(machine)
    session.look(machine)
    assert len(reads) == 1 and session.targets.named("a")
    for frame in range(READ_EVERY - 1):  # a screen being drawn: not read at every change
        machine.print_at(5, 5, str(frame % 10))
        session.look(machine)
    assert len(reads) == 1
    machine.print_at(5, 5, "x")
    session.look(machine)
    assert len(reads) == 2  # read again, READ_EVERY frames of changes on
    machine.print_at(5, 5, "y")
    session.look(machine)
    assert len(reads) == 2
    session.tap(0, 0)  # a tap waiting: what is on the screen now is read before it is typed
    session.for_frame(awaiting_key=True)
    assert len(reads) == 3


def test_spades_blind_nil_is_asked_by_two_choices_and_a_finished_hand_goes_on_at_a_tap_anywhere():
    question = spades_targets.blind_question()
    assert [(t.name, t.keys, t.on_screen) for t in question.targets] == [
        ("Blind nil", ("y",), False),
        ("No", ("n",), False),
    ]
    over = spades_targets.hand_over()
    assert Pointer().tap_cell(over, 3, 3) == ("ENTER",) and over.named("Next hand").keys == ("ENTER",)
    assert over.named("Last trick").keys == ("l",)
    assert Pointer().tap_cell(spades_targets.lobby(), 18, 5) == ("ENTER",)


def test_a_screen_drawn_between_pauses_is_read_once_it_stays_as_it_is():
    """Patience's title types a letter, then pauses a frame (PAUSE 1, no key wait): its targets are
    not read at each letter, but once the screen has stayed as it is for STILL_FRAMES frames."""
    from spectrum.pointing import READ_EVERY, STILL_FRAMES

    reads = []

    def read(machine):
        reads.append(machine.frame_count)
        return Targets((Target("a", ("a",), row=0),))

    machine, session = Spectrum(HeadlessFrontend()), PointerSession()
    machine.targets = read
    session.look(machine)
    for letter in "ELEVEN U"[: (READ_EVERY - STILL_FRAMES) // 2 - 1]:  # a letter, then a frame's pause
        machine.print_at(5, 5, letter)
        session.look(machine)
        session.look(machine)
    machine.print_at(5, 6, "P")  # the last letter
    session.look(machine)
    assert len(reads) == 1
    for _ in range(STILL_FRAMES - 1):
        session.look(machine)
    assert len(reads) == 1
    session.look(machine)
    assert len(reads) == 2  # the title drawn: read
    for _ in range(READ_EVERY * 2):
        session.look(machine)
    assert len(reads) == 2  # and not again while it stays


def test_the_screen_is_read_as_the_rom_font_shows_it_ink_on_paper_or_inverted():
    machine = Spectrum(HeadlessFrontend())
    machine.print_at(3, 2, "Deal 9?")
    machine.print_at(5, 26, "INVERSE", inverse=1)  # to the row's end, inverted
    machine.print_at(6, 0, "\x81")  # a block graphic: no character of the font
    assert text_at(machine, 3, 2, 7) == "Deal 9?"
    assert text_at(machine, 5, 25, 7) == " INVERS"
    assert char_at(machine, 5, 31) == "S" and char_at(machine, 6, 0) == ""
    assert text_at(machine, 6, 0, 2) == "? "
