"""Canfield as solitaire players ask for it (#47): winnable deals on request, every deal's verdict
once it is over, the solver's win watched, and a difficulty for each deal."""

import sqlite3
from concurrent.futures import Future

import pytest

from games.canfield import new_game
from games.canfield import play as play_module
from games.canfield import player
from games.canfield.bank import DATABASE, SCHEMA, SCHEMA_VERSION, WON, Bank, statistics
from games.canfield.deals import deck_for
from games.canfield.difficulty import EASY_UP_TO, LEVELS, MEDIUM_UP_TO, level_of
from games.canfield.finder import FIND_BUDGET, DealFinder, judge_deal
from games.canfield.rules import Canfield
from games.canfield.solver import Solved, Verdict, solve
from games.program import CannotStart
from games.protocol import Termination
from spectrum import Spectrum
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.frontends.headless import Press
from test_canfield_play import BREAK, message, play, row_text, screen_text, typed, zxcards


def wins_through_the_state_api(number: int, line) -> bool:
    """Whether the line, each move made with the rules' own `apply` (P presses one by one, then the
    move), wins deal `number`."""
    state = new_game(number)
    for move in line:
        keys = move.lstrip("p")
        for _ in range(len(move) - len(keys)):
            state.apply("p")
        if keys:
            state.apply(keys)
    outcome = state.outcome()
    return outcome is not None and outcome.termination is Termination.WON


# --- the finder --------------------------------------------------------------------------------


def test_every_deal_the_finder_offers_is_won_by_its_line_through_the_rules():
    finder = DealFinder(1234)
    try:
        found = [finder.take(wait=60) for _ in range(4)]
    finally:
        finder.close()
    assert all(item is not None for item in found)
    assert len({item.number for item in found}) == 4
    for item in found:
        assert item.verdict.outcome is Solved.WON and item.level in LEVELS
        assert wins_through_the_state_api(item.number, item.verdict.line)
        assert judge_deal(item.number) == item.verdict  # the same proof, judged again


def test_a_line_that_does_not_win_is_caught_by_the_replay():
    """The replay above can fail: a winning line cut short wins nothing."""
    line = solve(Canfield(deck_for(1)).position).line
    assert wins_through_the_state_api(1, line) and not wins_through_the_state_api(1, line[:-1])


class SyncThinker:
    """A server's worker processes, played by the caller's thread."""

    def __init__(self):
        self.submitted = 0

    def submit(self, work, *arguments):
        self.submitted += 1
        future = Future()
        future.set_result(work(*arguments))
        return future


def test_a_finder_offers_the_same_deals_for_the_same_seed_with_or_without_a_thinker():
    thinker = SyncThinker()
    finders = [DealFinder(77, ahead=2), DealFinder(77, ahead=2, thinker=thinker)]
    try:
        offered = [[finder.take(wait=60).number for _ in range(3)] for finder in finders]
    finally:
        for finder in finders:
            finder.close()
    assert offered[0] == offered[1] and thinker.submitted >= 3


@pytest.mark.parametrize("level", LEVELS)
def test_a_finder_asked_for_a_level_offers_deals_of_that_level(level):
    finder = DealFinder(5, level=level, ahead=1)
    try:
        found = finder.take(wait=120)
    finally:
        finder.close()
    assert found.level == level == level_of(judge_deal(found.number))
    assert wins_through_the_state_api(found.number, found.verdict.line)


# --- the difficulty ------------------------------------------------------------------------------


def verdict(outcome, nodes):
    return Verdict(outcome, ("sf",) if outcome is Solved.WON else (), nodes)


def test_the_levels_go_up_with_the_solver_s_work_and_only_won_deals_have_one():
    assert [
        level_of(verdict(Solved.WON, nodes))
        for nodes in (1, EASY_UP_TO, EASY_UP_TO + 1, MEDIUM_UP_TO, MEDIUM_UP_TO + 1, FIND_BUDGET)
    ] == ["easy", "easy", "medium", "medium", "hard", "hard"]
    assert level_of(verdict(Solved.LOST, 10)) is None and level_of(verdict(Solved.UNKNOWN, FIND_BUDGET)) is None


def test_the_rule_player_wins_more_of_the_easy_deals_than_of_the_medium_ones():
    """Deals 1-120 sorted by level: a deal the solver wins within EASY_UP_TO or MEDIUM_UP_TO
    positions is judged alike with that many positions to spend (the first round of its search
    has more), so the levels below hard cost little to find."""
    wins = {"easy": [], "medium": []}
    for number in range(1, 121):
        position = Canfield(deck_for(number)).position
        found = solve(position, budget=MEDIUM_UP_TO)
        level = level_of(found)
        if level is not None:
            wins[level].append(player.play(position)[0].cards_home == 52)
    assert min(map(len, wins.values())) >= 20
    rates = {level: sum(won) / len(won) for level, won in wins.items()}
    assert rates["easy"] > rates["medium"], rates


def test_a_deal_won_within_the_medium_bound_is_judged_alike_with_the_full_budget():
    for number in range(1, 41):
        position = Canfield(deck_for(number)).position
        cheap = solve(position, budget=MEDIUM_UP_TO)
        if cheap.outcome is Solved.WON:
            assert solve(position, budget=FIND_BUDGET) == cheap


def test_the_rule_player_plays_only_moves_the_rules_take_and_ends_each_deal():
    for number in range(1, 31):
        position = Canfield(deck_for(number)).position
        end, line = player.play(position)
        state = new_game(number)
        for move in line:
            for _ in range(len(move) - len(move.lstrip("p"))):
                state.apply("p")
            if move.lstrip("p"):
                state.apply(move.lstrip("p"))
        assert state.position == end and state.outcome() is not None


# --- the record --------------------------------------------------------------------------------

FIRST_SCHEMA_VERSION = 1


def test_a_database_of_version_1_gains_the_new_columns_and_loses_nothing(tmp_path):
    path = tmp_path / DATABASE
    with sqlite3.connect(path) as db:  # the tables as version 1 made them
        db.executescript(SCHEMA)
        db.execute("ALTER TABLE deals ADD COLUMN verdict TEXT")
        db.execute("INSERT INTO accounts (name, name_key, balance) VALUES ('Anna', 'anna', 465)")
        db.execute(
            "INSERT INTO deals (account, number, cards_home, result, balance, position, verdict) "
            "VALUES (1, 7, 3, 'stuck', 465, '{}', 'lost')"
        )
        db.execute(
            "INSERT INTO payments (account, deal, amount, reason) VALUES (1, NULL, 500, 'fresh start'), "
            "(1, 1, -50, 'deck'), (1, 1, 15, 'cards home')"
        )
        db.execute(f"PRAGMA user_version = {FIRST_SCHEMA_VERSION}")
        before = {
            table: db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in ("accounts", "deals", "payments")
        }
    bank = Bank(tmp_path)
    account = bank.open_account("anna")
    assert bank.balance(account) == 465
    (old,) = bank.deals(account)
    assert (old.number, old.verdict, old.winnable, old.difficulty) == (7, "lost", False, None)
    bank.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        for table, rows in before.items():
            width = len(rows[0])
            assert [row[:width] for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid")] == rows


def test_the_record_keeps_which_deals_were_dealt_winnable_and_their_levels(tmp_path):
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    plain = bank.buy_deck(account, 3, Canfield(deck_for(3)).state(), 1)
    chosen = bank.buy_deck(
        account, 4, Canfield(deck_for(4)).state(), 1, winnable=True, verdict="won", difficulty="easy"
    )
    assert bank.balance(account) == 500 - 2 * 50 + 2 * 5
    bank.record(account, chosen, Canfield(deck_for(4)).state(), 52, WON)
    bank.judge(plain, "won", "hard")
    deals = bank.deals(account)
    assert [(deal.winnable, deal.verdict, deal.difficulty) for deal in deals] == [
        (False, "won", "hard"),
        (True, "won", "easy"),
    ]
    record = statistics(deals)
    assert (record.dealt_winnable, record.won_winnable) == (1, 1)
    assert record.by_level == (("easy", 1, 1), ("medium", 0, 0), ("hard", 0, 0))  # the deal playing not counted


# --- at the table ----------------------------------------------------------------------------------


def test_the_money_game_with_winnable_deals_charges_50_and_deals_only_proved_wins(tmp_path):
    machine, _, _ = play(typed("Anna") + ["n", "n", BREAK], data_dir=tmp_path, winnable=True)
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    deals = bank.deals(account)
    assert len(deals) == 2 and all(deal.winnable and deal.verdict == "won" for deal in deals)
    assert all(deal.difficulty == level_of(judge_deal(deal.number)) for deal in deals)
    assert bank.balance(account) == 500 - 100 + 5 * sum(deal.cards_home for deal in deals)
    for deal in deals:
        assert wins_through_the_state_api(deal.number, judge_deal(deal.number).line)
    assert "WINNABLE" in row_text(machine, 13)
    machine, _, _ = play(typed("Anna"), data_dir=tmp_path)  # the deal carried on is still one
    assert "WINNABLE" in row_text(machine, 13) and message(machine).endswith("goes on")


def test_a_practice_deal_of_a_level_asked_for_is_of_that_level():
    machine, _, _ = play([], difficulty="medium")
    number = int(row_text(machine, 15).strip())
    assert level_of(judge_deal(number)) == "medium"
    assert row_text(machine, 13).strip() == "MEDIUM"
    assert message(machine) == f"Deal {number}. The solver has won it: so can you!"


def test_w_goes_round_the_choices_in_practice_and_the_next_deal_follows_it():
    machine, _, _ = play(["w"], deal=1)
    assert message(machine) == play_module.PRACTICE_WINNABLE_NEWS[play_module.WINNABLE]
    assert row_text(machine, 13).strip() == ""  # the deal on the table is as it was dealt
    machine, _, _ = play(["w", "w", "n"], deal=1)
    number = int(row_text(machine, 15).strip())
    assert level_of(judge_deal(number)) == "easy" and row_text(machine, 13).strip() == "EASY"
    machine, _, _ = play(["w"] * (2 + len(LEVELS)), deal=1)
    assert message(machine) == play_module.PRACTICE_WINNABLE_NEWS[None]


def test_w_in_the_money_game_turns_winnable_deals_on_for_the_next_deal(tmp_path):
    play(typed("Anna") + ["w", "n", "n", BREAK], data_dir=tmp_path)
    bank = Bank(tmp_path)
    deals = bank.deals(bank.open_account("Anna"))
    assert [deal.winnable for deal in deals] == [False, True]


@pytest.mark.parametrize(
    "options, refusal",
    [
        (dict(deal=5, winnable=True), "--deal names the deal"),
        (dict(deal=5, difficulty="easy"), "--deal names the deal"),
        (dict(difficulty="impossible"), "The levels are easy, medium, hard"),
    ],
)
def test_a_deal_number_with_winnable_deals_or_an_unknown_level_is_refused(options, refusal):
    with pytest.raises(CannotStart, match=refusal):
        play_module.run(Spectrum(HeadlessFrontend()), **options)


def test_the_command_line_takes_winnable_and_difficulty_and_refuses_a_level_it_does_not_know():
    finished = zxcards("canfield", "--difficulty", "impossible", "--headless", "--keys", "")
    assert finished.returncode == 2 and "impossible" in finished.stderr and finished.stderr.count("\n") == 1


def verdict_in(machine):
    return "still looking" not in " ".join(screen_text(machine).split()) and "VERDICT" in row_text(machine, 0)


def expected_words(number):
    found = solve(Canfield(deck_for(number)).position, budget=play_module.JUDGE_BUDGET)
    return {
        Solved.WON: "As dealt: could be won",
        Solved.LOST: "As dealt: can't be won",
        Solved.UNKNOWN: "As dealt: undecided.",
    }[found.outcome], found


@pytest.mark.parametrize("number", [1, 2])
def test_a_given_up_practice_deal_shows_the_solver_s_verdict(number):
    machine, _, _ = play(["v"], deal=number)
    assert message(machine) == "Give up this deal to see its verdict? Press V again"
    machine, _, _ = play(["v", "v"], until=verdict_in, deal=number)
    text = " ".join(screen_text(machine).split())
    words, found = expected_words(number)
    home = play_module.cards_home_words(Canfield(deck_for(number)).cards_home)
    assert words in text and f"Deal {number}: given up, {home}." in text
    assert f"{found.nodes:,} positions" in text
    if found.outcome is Solved.WON:
        assert "L: watch the win from the deal" in row_text(machine, 20)
    else:
        assert f"{found.best_home} cards home at best" in text


def test_the_money_game_never_shows_a_verdict_while_the_deal_is_live(tmp_path):
    machine, _, _ = play(typed("Anna") + ["v"], data_dir=tmp_path)
    assert message(machine) == "Give up this deal to see its verdict? Press V again"
    assert not any(words in row_text(machine, 0) for words in play_module.VERDICT_WORDS.values())
    assert "could be won" not in screen_text(machine)
    machine, _, _ = play(typed("Anna") + ["l"], data_dir=tmp_path)
    assert message(machine) == "A deal's win is shown once it is over"
    machine, _, _ = play(typed("Anna") + ["v", "p"], data_dir=tmp_path)  # any other key: the deal goes on
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    assert [deal.result for deal in bank.deals(account)] == ["playing"]


def test_giving_a_money_deal_up_with_v_shows_its_verdict_and_n_then_deals_again(tmp_path):
    machine, _, _ = play(typed("Anna") + ["v", "v"], until=verdict_in, data_dir=tmp_path)
    bank = Bank(tmp_path)
    account = bank.open_account("Anna")
    (deal,) = bank.deals(account)
    assert deal.result == "given up"
    words, _ = expected_words(deal.number)
    assert words in " ".join(screen_text(machine).split())
    bank.close()


def test_after_a_deal_given_up_with_v_any_key_shows_the_table_and_n_deals_at_once(tmp_path):
    machine, _, _ = play(typed("Anna") + ["v", "v", "x"], data_dir=tmp_path)
    assert "STOCK" in screen_text(machine) and row_text(machine, 20).startswith(play_module.OVER_HELP)
    machine, _, _ = play(typed("Anna") + ["v", "v", "x", "n"], data_dir=tmp_path)  # over: N asks nothing
    bank = Bank(tmp_path)
    deals = bank.deals(bank.open_account("Anna"))
    assert [deal.result for deal in deals] == ["given up", "given up", "playing"]
    assert message(machine).endswith("$50 paid. Good luck!")


@pytest.fixture
def searches_at_once(monkeypatch):
    """The solver's answers come as they are asked for, on the caller's thread: a headless run goes
    at full speed, and a search on a thread of its own raced it (on a busy machine the verdict was
    not known yet when L was typed, and nothing was watched)."""
    from games.canfield.background import BackgroundSearch

    def ask(self, key, position, *, alone: bool = False) -> None:
        with self._changed:
            if key not in self._verdicts:
                self._verdicts[key] = self._search(position)

    monkeypatch.setattr(BackgroundSearch, "ask", ask)


def test_the_winning_line_is_watched_to_every_card_home_and_the_deal_is_left_as_it_was(monkeypatch, searches_at_once):
    # deal 1 can be won (the solver's line wins it: test_canfield_play); the win played out is
    # the solver's, move by move, and the table is the player's again after it
    assert solve(Canfield(deck_for(1)).position, budget=play_module.JUDGE_BUDGET).outcome is Solved.WON
    monkeypatch.setattr(play_module, "WATCH_FRAMES", 2)  # the pace is tested below: here the whole line
    monkeypatch.setattr(play_module, "TURN_FRAMES", 1)
    seen = []

    def watched(machine):
        seen.append(message(machine))
        return "every card home" in message(machine)

    machine, _, _ = play(["v", "v", "l"], until=watched, deal=1)
    assert "ALL 52 CARDS HOME!" in screen_text(machine) and "52/52" in screen_text(machine)
    assert row_text(machine, 20).startswith("Watching the win from the deal")
    machine, _, _ = play(["v", "v", "l", "x"], until=lambda machine: "your table again" in message(machine), deal=1)
    assert f"{Canfield(deck_for(1)).cards_home}/52" in screen_text(machine)  # the deal as it was given up


class WatchStopper(HeadlessFrontend):
    """V V L, then a key pressed 100 frames into the watching, whatever the program is doing."""

    def __init__(self):
        super().__init__(["v", "v", "l"])
        self.watching_from = None
        self.moves_seen = set()

    def present(self, machine):
        if "Watching the win" in row_text(machine, 20):
            self.moves_seen.add(message(machine))
            if self.watching_from is None:
                self.watching_from = machine.frame_count
                self.presses.append(Press(frozenset({"x"}), at=machine.frame_count + 100))
        super().present(machine)


def test_watching_goes_at_a_readable_pace_and_stops_at_a_key(searches_at_once):
    machine = Spectrum(WatchStopper())
    with pytest.raises(ScriptExhausted):
        play_module.run(machine, deal=1)
    assert message(machine) == "Watching stopped: your table again"
    assert f"{Canfield(deck_for(1)).cards_home}/52" in screen_text(machine)
    # 100 frames (2 s) showed a few moves, not the whole line
    assert 2 <= len(machine.frontend.moves_seen) <= 100 // play_module.WATCH_FRAMES + 1
