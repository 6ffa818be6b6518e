"""Canfield played through the Spectrum screen with scripted keys, for money and in practice."""

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.canfield import play as play_module
from games.canfield import run
from games.canfield.bank import GIVEN_UP, NAME_CHARACTERS, NAME_LENGTH, WON, Bank
from games.canfield.deals import deck_for
from games.canfield.rules import Canfield, moves
from games.canfield import screen
from games.canfield.screen import HELP_ROWS, MESSAGE_ROWS
from games.canfield.solver import Solved, solve
from games.program import CannotStart
from spectrum import ReportError, Spectrum
from spectrum.colours import BLACK
from spectrum.frontends import HeadlessFrontend, Leave, ScriptExhausted
from spectrum.frontends.headless import LEAVE
from test_canfield_rules import table

REPO = Path(__file__).resolve().parent.parent
BREAK = ("CAPS", "SPACE")
ENTER = "ENTER"


class WaitingFrontend(HeadlessFrontend):
    """Headless, but once the script is used up it lets frames pass without a key, as a player
    who waits a moment, until `until(machine)` holds (or `seconds` of real time have passed)."""

    def __init__(self, presses, until, seconds=30):
        super().__init__(presses)
        self.until, self.deadline = until, time.monotonic() + seconds

    def present(self, machine):
        waiting = not self.presses and not self.pressing and machine.awaiting_key
        if waiting and not self.until(machine) and time.monotonic() < self.deadline:
            self.frames_presented += 1
            time.sleep(0.001)
            return
        super().present(machine)


def play(presses, until=None, **options):
    """Run the game on a headless Spectrum until the script runs out (or BREAK) and, when `until`
    is given, until it holds; the machine and front end afterwards, and whether it ended by BREAK."""
    frontend = WaitingFrontend(presses, until) if until else HeadlessFrontend(presses)
    machine = Spectrum(frontend)
    try:
        run(machine, **options)
    except ScriptExhausted:
        return machine, frontend, False
    except ReportError as report:
        assert str(report) == "L BREAK into program"
        return machine, frontend, True
    raise AssertionError("the game ended without BREAK")


def row_text(machine, row):
    return "".join(machine.screen_char(row, col) or "?" for col in range(32))


def message(machine):
    return " ".join(row_text(machine, row).strip() for row in MESSAGE_ROWS).strip()


def screen_text(machine):
    return "\n".join(row_text(machine, row) for row in range(22))


def typed(name):
    return [*name, ENTER]


def winning_keys(number):
    return "".join(solve(Canfield(deck_for(number)).position).line)


# --- practice --------------------------------------------------------------------------------


def test_a_practice_game_is_won_through_the_screen():
    keys = winning_keys(1)
    machine, frontend, _ = play(list(keys), deal=1)
    text = screen_text(machine)
    assert "ALL 52 CARDS HOME!" in text and "52/52" in text
    assert message(machine).startswith("You win")
    assert "PRACTICE" in row_text(machine, 0)
    assert len(frontend.audio()) > 0  # moves, cards home and the win were heard


def test_the_table_shows_stock_pack_talon_foundations_and_piles():
    machine, _, _ = play(["p"], deal=1)
    game = Canfield(deck_for(1))
    game.press("p")
    state = game.state()
    text = screen_text(machine)
    for label in ("STOCK", "PACK", "TALON", "FOUNDATIONS from T up", "DEAL", "HOME"):
        assert label in text
    assert row_text(machine, 3)[5:7] == str(len(state["stock"]))
    assert row_text(machine, 7)[5:7] == str(len(state["pack"]))
    assert row_text(machine, 10)[1:8] == f"TALON {len(state['talon'])}"
    # the last three turned, fanned: two faces, then the top card whole, two rows high
    assert row_text(machine, 11)[1:8:2] == "".join(card[0].upper() for card in state["talon"][-3:]) + " "
    assert row_text(machine, 12)[5:8] == f" {state['talon'][-1][0].upper()}?"  # the top card's second row
    assert machine.attr(11, 2) & 7 == (2 if state["talon"][-3][1] in "hd" else 0)  # the suit in its colour
    assert row_text(machine, HELP_ROWS[0]).startswith("From S T 1-4 to 1-4 F. P turns")


@pytest.mark.parametrize("talon", [(), ("5h",), ("5h", "6s")])
def test_the_talon_fans_what_it_has_when_fewer_than_three_are_turned(talon):
    machine = Spectrum(HeadlessFrontend())
    screen.prepare(machine)
    screen.draw_table(machine, screen.TableView(table([["kd"], ["3s"], ["9c"], ["jh"]], talon=talon), 1))
    assert row_text(machine, 10)[1:8] == f"TALON {len(talon)}"
    faces = "".join(f"{card[0].upper()}?" for card in talon[:-1])
    if talon:
        assert row_text(machine, 11)[1 : 1 + len(faces) + 3] == faces + talon[-1][0].upper() + "? "
    else:
        assert machine.attr(11, 1) >> 3 & 7 == 4  # an empty place on the baize


def test_a_refused_key_says_why_and_changes_nothing():
    machine, _, _ = play(["p"], deal=1)
    before = screen_text(machine)
    machine, _, _ = play(["p", "f"], deal=1)
    assert message(machine) == "First pick a card: S, T or a pile 1-4"
    # the table is unchanged (row 0, the title, says what the background search knows so far)
    assert screen_text(machine).split("\n")[1 : MESSAGE_ROWS[0]] == before.split("\n")[1 : MESSAGE_ROWS[0]]


def test_a_long_pile_folds_its_middle_and_keeps_both_ends():
    # deal 1 played along its winning line until a pile is 12 cards long
    game = Canfield(deck_for(1))
    keys = []
    for move in solve(game.position).line:
        keys += move
        for key in move:
            game.press(key)
        if max(map(len, game.state()["tableau"])) >= 12:
            break
    pile_number, pile = max(enumerate(game.state()["tableau"], 1), key=lambda item: len(item[1]))
    machine, _, _ = play(keys, deal=1)
    col = (10, 16, 22, 28)[pile_number - 1]
    column = [row_text(machine, row)[col : col + 3] for row in range(7, 18)]
    assert column[0][0] == pile[0][0].upper()  # the bottom card
    assert column[1].strip() == f"+{len(pile) - 9}"  # the cards folded away
    assert column[-2][0] == pile[-1][0].upper()  # the top card, two rows high


def hint_given(machine):
    return not message(machine).startswith("Thinking")


def test_practice_hint_and_undo():
    machine, _, _ = play(["h"], until=hint_given, deal=1)
    assert message(machine).startswith("Hint: ") and message(machine).endswith("(this deal can be won)")
    machine, _, _ = play(["u"], deal=1)
    assert message(machine) == "Nothing to undo"
    machine, _, _ = play(["p", "u"], deal=1)
    assert message(machine) == "Move taken back"
    assert row_text(machine, 7)[5:7] == "34"


def test_a_hint_never_holds_up_the_screen(monkeypatch):
    """While the solver is still searching, H says so at once and the keys go on working; the
    hint is shown when the search ends, without a key."""
    searching, release = threading.Event(), threading.Event()

    def slow_solve(position, budget):
        searching.set()
        release.wait(30)
        return solve(position, budget=budget)

    monkeypatch.setattr(play_module, "solve", slow_solve)
    seen = []

    def until(machine):
        if not seen:  # the script is used up: H and P were taken while the search was held
            seen.append((message(machine), row_text(machine, 0), row_text(machine, 10).strip()))
            release.set()
        return message(machine).startswith("Hint: ")

    machine, _, _ = play(["p", "h"], until=until, deal=1)
    assert searching.is_set()
    assert seen == [(play_module.THINKING, " CANFIELD  THINKING    PRACTICE ", "TALON 3")]
    assert message(machine).startswith("Hint: ") and "CAN BE WON" in row_text(machine, 0)


def test_a_new_practice_deal_is_free():
    machine, _, _ = play(["n"], deal=1)
    assert message(machine).startswith("Deal ") and "PRACTICE" in row_text(machine, 0)


def test_a_deal_number_out_of_range_is_refused_before_anything_is_drawn():
    with pytest.raises(CannotStart, match="Deals are numbered 1 to 65535"):
        run(Spectrum(HeadlessFrontend()), deal=70000)


# --- the money game --------------------------------------------------------------------------


def test_the_money_game_asks_a_name_charges_the_deck_and_pays_the_cards(tmp_path):
    machine, _, broke = play(typed("Anna") + ["p", "p", BREAK], data_dir=tmp_path)
    assert broke
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.unfinished_deal(account)
    assert bank.balance(account) == 500 - 50 + 5 * deal.cards_home
    assert "Anna" in row_text(machine, 0) and f"${bank.balance(account)}" in row_text(machine, 0)
    # BREAK kept the position: the two turns of the pack are there
    replay = Canfield(deck_for(deal.number))
    replay.press("p"), replay.press("p")
    assert deal.position == replay.state()


def test_leaving_and_coming_back_carries_on_with_the_same_deal(tmp_path):
    play(typed("Anna") + ["p", BREAK], data_dir=tmp_path)
    bank = Bank(tmp_path)
    account = bank.open_account("anna")
    first = bank.unfinished_deal(account)
    machine, _, _ = play(typed("anna") + ["p"], data_dir=tmp_path)
    assert message(machine) == ""  # the turn was taken quietly
    after = bank.unfinished_deal(account)
    assert after.id == first.id and len(after.position["talon"]) == 6
    assert len(bank.deals(account)) == 1 and bank.balance(account) == 450 + 5 * after.cards_home


def test_winning_a_resumed_deal_for_money_pays_every_card(tmp_path):
    game = Canfield(deck_for(1))
    line = solve(game.position).line
    for move in line[:-8]:
        for key in move:
            game.press(key)
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    bank.buy_deck(account, 1, game.state(), game.cards_home)
    machine, _, _ = play(typed("Anna") + list("".join(line[-8:])), data_dir=tmp_path)
    assert "ALL 52 CARDS HOME!" in screen_text(machine)
    assert bank.balance(account) == 500 - 50 + 5 * 52
    assert [(deal.result, deal.cards_home) for deal in bank.deals(account)] == [(WON, 52)]
    assert "$710" in row_text(machine, 0)


def test_a_new_deal_asks_first_then_costs_50(tmp_path):
    machine, _, _ = play(typed("Anna") + ["n"], data_dir=tmp_path)
    assert message(machine) == "Give up this deal? A new one costs $50: press N again"
    machine, _, _ = play(typed("Anna") + ["n", "p"], data_dir=tmp_path)
    assert message(machine) == "Carry on with this deal"
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    assert len(bank.deals(account)) == 1
    play(typed("Anna") + ["n", "n"], data_dir=tmp_path)
    deals = bank.deals(account)
    assert [deal.result for deal in deals] == ["given up", "playing"]
    assert bank.balance(account) == 500 - 100 + 5 * sum(deal.cards_home for deal in deals)


def test_no_undo_or_hints_for_money(tmp_path):
    for key in "uh":
        machine, _, _ = play(typed("Anna") + [key], data_dir=tmp_path)
        assert message(machine) == "Undo and hints are for practice games only"


def test_the_record_screen_shows_the_statistics_and_a_chart(tmp_path):
    play(typed("Anna") + ["n", "n", "n", "n"], data_dir=tmp_path)  # two deals given up, a third going on
    bank = Bank(tmp_path)
    first, second, _ = bank.deals(bank.open_account("Anna"))
    bank.judge(first.id, "won")
    bank.judge(second.id, "lost")
    machine, _, _ = play(typed("Anna") + ["r"], data_dir=tmp_path)
    lines = [row_text(machine, row).strip() for row in range(2, 9)]
    money = bank.balance(bank.open_account("Anna"))
    best = max(deal.balance for deal in bank.deals(bank.open_account("Anna")))
    assert lines == [
        "Finished 2, won 0 (0%)",
        f"Cards home {(first.cards_home + second.cards_home) / 2:.1f} "
        f"a deal, best {max(first.cards_home, second.cards_home)}",
        "Wins in a row 0, best 0",
        "Could be won: 1 of 2 (50%)",
        f"Money ${money}, best ${best}",
        "$500 from the house: 1 time",
        "",
    ]
    assert row_text(machine, 0).startswith(" RECORD  Anna ") and "Money after each deal" in screen_text(machine)
    bars = [
        machine.attr(row, col) & 7 for row in range(8, 19) for col in range(6, 9) if machine.screen_char(row, col) == ""
    ]
    assert bars  # block-graphic bars, one a deal
    machine, _, _ = play(typed("Anna") + ["r", "p"], data_dir=tmp_path)
    assert "STOCK" in screen_text(machine)  # any key goes back to the table


def test_the_record_screen_fills_in_the_verdicts_as_they_come(tmp_path, monkeypatch):
    release = threading.Event()
    monkeypatch.setattr(
        play_module, "solve", lambda position, budget: release.wait(30) and solve(position, budget=budget)
    )
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    for number in (1, 2, 3):
        deal = bank.buy_deck(account, number, Canfield(deck_for(number)).state(), 1)
        bank.record(account, deal, Canfield(deck_for(number)).state(), 1, GIVEN_UP)
    before = []

    def judged(machine):
        before.append((row_text(machine, 5).strip(), row_text(machine, 6).strip()))
        release.set()  # the solver may go on once the record screen is up
        return not before[-1][1].startswith("Still to judge")

    machine, _, _ = play(typed("Anna") + ["r"], until=judged, data_dir=tmp_path)
    winnable = sum(
        solve(Canfield(deck_for(number)).position, budget=play_module.JUDGE_BUDGET).outcome is Solved.WON
        for number in (1, 2, 3)
    )
    assert row_text(machine, 5).strip() == f"Could be won: {winnable} of 3 ({round(100 * winnable / 3)}%)"
    assert before[0] == ("Could be won: 0 of 0 (-)", "Still to judge: 3 deals")  # none judged when it came up


def test_the_record_screen_s_legend_shows_its_colours_on_the_chart_s_black(tmp_path):
    """Bright green on the green baize hardly showed: the legend's swatches are on black, as the bars."""
    machine, _, _ = play(typed("Anna") + ["r"], data_dir=tmp_path)
    swatches = [(machine.attr(row, 1), row_text(machine, row).strip()) for row in (19, 20)]
    assert [(attribute & 7, attribute >> 3 & 7, text) for attribute, text in swatches] == [
        (screen.PAID_OFF, BLACK, "? paid for its deck"),
        (screen.LOST, BLACK, "? did not"),
    ]  # ? the swatch


@pytest.mark.parametrize("money", [455, 1000, 123456])
def test_a_long_name_and_any_money_stand_apart_in_the_table_s_title_bar(money):
    machine = Spectrum()
    screen.prepare(machine)
    screen.draw_table(machine, screen.TableView(Canfield(deck_for(7)), 7, "Abcdefghijklmnop", money))
    assert row_text(machine, 0).endswith(f"  ${money} ") and row_text(machine, 0).startswith(" Abcdefghijklmnop  ")
    assert row_text(machine, 1).strip() == ""


@settings(max_examples=200)
@given(
    name=st.text(alphabet=sorted(NAME_CHARACTERS - {" "}), min_size=1, max_size=NAME_LENGTH),
    money=st.integers(0, 10**9),
    verdict=st.sampled_from(list(play_module.VERDICT_WORDS.values())),
)
def test_the_title_bar_shows_the_name_and_the_money_whole_and_apart(name, money, verdict):
    """A name of 16 characters beside $1000 or more ran into the money, or over the bar's end."""
    for parts, right, kept in (
        (["CANFIELD", name], f"${money}", name),
        (["RECORD", name], f"${money}", name),
        (["CANFIELD", verdict], "PRACTICE", verdict),
    ):
        machine = Spectrum()
        screen.title_bar(machine, parts, right)
        bar = row_text(machine, 0)
        assert len(bar) == 32 and bar.endswith(f"  {right} ")  # the right part whole, at the end, apart
        assert bar.startswith((f" {parts[0]}  {kept}  ", f" {kept}  "))  # the name whole: the title only left out
        assert row_text(machine, 1).strip() == ""  # nothing spilled onto the next row


def test_the_solver_judges_every_deal_in_the_background_for_the_record(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")

    def all_judged(machine):
        return len(bank.deals(account)) == 3 and all(deal.verdict for deal in bank.deals(account))

    play(typed("Anna") + ["n", "n", "n", "n"], until=all_judged, data_dir=tmp_path)
    for deal in bank.deals(account):
        assert (
            deal.verdict
            == solve(Canfield(deck_for(deal.number)).position, budget=play_module.JUDGE_BUDGET).outcome.value
        )


@pytest.mark.parametrize(
    "name, refusal",
    [
        ("a/b", "A name holds only A-Z, 0-9, spaces and - ' . _"),
        ("C:x*", "A name holds only A-Z, 0-9, spaces and - ' . _"),
        ("", "Please type your name"),
        ("x" * 17, "A name has at most 16 characters"),
    ],
)
def test_a_bad_name_typed_is_refused_on_screen_and_creates_nothing(tmp_path, name, refusal):
    machine, _, _ = play(typed(name), data_dir=tmp_path / "data")
    assert message(machine) == refusal
    assert not (tmp_path / "data").exists()


def test_the_first_screen_says_how_to_leave_and_esc_leaves_there(tmp_path):
    machine, _, _ = play([], data_dir=tmp_path / "data")
    assert message(machine) == "Type your name and press ENTER. STOP (SYMBOL+A) or Esc leaves"
    # what a name may hold, before one is typed (a window drops the letters no Spectrum key types)
    assert [row_text(machine, row).strip() for row in (16, 17)] == [
        "Your name: up to 16 of A-Z,",
        "0-9, spaces and - ' . _",
    ]
    with pytest.raises(Leave):
        run(Spectrum(HeadlessFrontend([LEAVE])), data_dir=tmp_path / "data")


def test_stop_at_the_name_prompt_leaves_quietly_and_creates_nothing(tmp_path):
    frontend = HeadlessFrontend([("SYMBOL", "a"), ENTER])
    assert run(Spectrum(frontend), data_dir=tmp_path / "data") is None
    assert not (tmp_path / "data").exists()
    finished = zxcards("canfield", "--headless", "--keys", "{SYMBOL+a}{ENTER}", "--data-dir", tmp_path / "data")
    assert (finished.returncode, finished.stderr) == (0, "")


def zxcards(*arguments):
    return subprocess.run(
        [sys.executable, "-m", "games", *map(str, arguments)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )


@pytest.mark.parametrize("number", ["0", "65536", "-5"])
def test_deal_zero_or_out_of_range_is_refused_in_one_line_before_a_deck_is_bought(tmp_path, number):
    finished = zxcards("canfield", "--deal", number, "--headless", "--keys", "Anna{ENTER}", "--data-dir", tmp_path)
    assert finished.returncode == 2 and finished.stderr.count("\n") == 1
    assert f"deals are numbered 1 to 65535, not '{number}'" in finished.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_unfinished_deal_is_closed_and_a_new_one_dealt(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    bank.buy_deck(account, 9, {"stock": ["zz"]}, 1)
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)
    assert [deal.result for deal in bank.deals(account)] == ["given up", "playing"]
    assert message(machine).startswith("Deal 9 was damaged: set aside. Deal ")
    assert bank.balance(account) == 500 - 100 + 5 * sum(deal.cards_home for deal in bank.deals(account))


@pytest.mark.parametrize("saved", ['{"stock": ["as", ', "[" * 100_000, "null", '"text"', "\x00\xff"])
def test_an_unreadable_saved_deal_is_set_aside_said_and_never_locks_the_player_out(tmp_path, saved):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deal = bank.buy_deck(account, 9, Canfield(deck_for(9)).state(), 1)
    bank.db.execute("UPDATE deals SET position = ? WHERE id = ?", (saved, deal))
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)
    assert message(machine).startswith("Deal 9 was damaged: set aside. Deal ")
    assert [deal.result for deal in bank.deals(account)] == ["given up", "playing"]
    assert bank.db.execute("SELECT deal, position FROM set_aside").fetchall() == [(deal, saved)]
    machine, _, _ = play(typed("Anna") + ["r"], data_dir=tmp_path)  # the record shows the deal set aside
    assert "RECORD" in row_text(machine, 0) and "Finished 1, won 0" in screen_text(machine)
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)  # and the next start carries on as ever
    assert message(machine).startswith("Welcome back, Anna")


def test_an_account_played_elsewhere_is_refused_in_one_line_and_nothing_is_bought(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    bank.take_seat(account)
    machine, _, _ = play(typed("anna"), data_dir=tmp_path)
    assert message(machine) == "Anna is playing in another zxcards: one game at a time"
    assert bank.deals(account) == [] and bank.balance(account) == 500
    bank.close()
    machine, _, _ = play(typed("anna"), data_dir=tmp_path)
    assert message(machine).startswith("Deal ") and len(bank.deals(account)) == 1


STUCK_FROM_THE_START = 63149  # no card can move, now or after any turn of the pack


def test_a_deal_with_no_move_from_the_start_is_over_at_once(tmp_path, monkeypatch):
    machine, _, _ = play([], deal=STUCK_FROM_THE_START)
    assert message(machine) == f"Deal {STUCK_FROM_THE_START}. No move left, 1 card home. N deals again"
    monkeypatch.setattr(play_module, "new_deal_number", lambda machine: STUCK_FROM_THE_START)
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)
    assert message(machine) == f"Deal {STUCK_FROM_THE_START}: $50 paid. No move left, 1 card home. N deals again"
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    assert [(deal.result, deal.cards_home) for deal in bank.deals(account)] == [("stuck", 1)]
    bank.close()
    play(typed("Anna") + ["n"], data_dir=tmp_path)  # a deal at the start, and N buys the next at once
    assert [deal.result for deal in bank.deals(account)] == ["stuck", "stuck", "stuck"]
    assert bank.balance(account) == 500 - 150 + 15


def test_a_saved_deal_left_playing_with_no_move_is_closed_as_stuck(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    bank.buy_deck(account, STUCK_FROM_THE_START, Canfield(deck_for(STUCK_FROM_THE_START)).state(), 1)
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)
    assert message(machine) == f"Your deal {STUCK_FROM_THE_START}: no move left, 1 card home. N deals again"
    assert [deal.result for deal in bank.deals(account)] == ["stuck"]


def random_moves_until_stuck(number, seed=2):
    """Keys of random moves from deal `number` until no move is left (or the deal is won)."""
    rng, game, keys = random.Random(seed), Canfield(deck_for(number)), ""
    while options := moves(game.position):
        chosen = rng.choice(options)[0]
        keys += chosen
        for key in chosen:
            game.press(key)
    return keys, game


def test_no_move_left_is_told_and_recorded(tmp_path):
    keys, game = random_moves_until_stuck(1)
    assert game.stuck
    machine, _, _ = play(list(keys), deal=1)
    assert message(machine) == f"No move left, {game.cards_home} cards home. N deals again"
    assert machine.attr(MESSAGE_ROWS[0], 0) >> 3 & 7 == 2  # on red
    machine, _, _ = play(list(keys) + ["p"], deal=1)
    assert message(machine) == "This deal is over: N deals again"
    # for money: the last move, made on a deal taken up again, closes the deal as stuck
    last = Canfield(deck_for(1))
    moves_made = []
    replay = Canfield(deck_for(1))
    for key in keys:
        moves_made.append(key)
        replay.press(key)
        if replay.selected is None and not replay.stuck:
            last = Canfield.from_state(replay.state())
            moves_made.clear()
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    bank.buy_deck(account, 1, last.state(), last.cards_home)
    play(typed("Anna") + moves_made, data_dir=tmp_path)
    assert [(deal.result, deal.cards_home) for deal in bank.deals(account)] == [("stuck", game.cards_home)]
    assert bank.balance(account) == 450 + 5 * game.cards_home


def test_practice_does_not_say_whether_a_deal_can_be_won_until_the_player_asks():
    """The title bar keeps the deal's verdict to itself (the solver knows it at once) until a hint
    is asked for; a new deal keeps it again."""
    machine, _, _ = play(["p"], deal=1)
    assert row_text(machine, 0).split() == ["CANFIELD", "PRACTICE"]
    machine, _, _ = play(["p", "h"], until=lambda machine: message(machine).startswith("Hint: "), deal=1)
    assert "CAN BE WON" in row_text(machine, 0)
    machine, _, _ = play(["h", "n"], deal=1)
    assert row_text(machine, 0).split() == ["CANFIELD", "PRACTICE"]
