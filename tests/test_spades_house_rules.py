"""A table's house rules: each changes the score as its definition says (the cases are read from
the rules' own text, `games/spades/house_rules.py`), the computer players bid to the table's
scoring, the table keeps its rules (and reads tables kept before them), the open tables are listed
and a private one never, and a game over is played again at the same seats."""

import dataclasses
import json
import random

import pytest

from games.cards import NAMES
from games.host.cli import main
from games.host.tables import Tables
from games.spades import NEEDS, table_refusal
from games.spades.full_rules import FullMatch, FullSpades, choose_bid, hand_points, nil_chance_needed
from games.spades.house_rules import HouseRules, RulesRefused
from games.spades.players.bidding import sampled_bid
from games.spades.rules import PLAYERS
from games.spades.seats import GRACE_SECONDS, SAVED_FORMAT, SpadesTable
from games.store import TableStore

P0, P1, P2, P3 = PLAYERS


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def points(bids, taken, blind=(), **rules):
    """Each partnership's (points, bags) for one hand under the house `rules`."""
    return hand_points(dict(zip(PLAYERS, bids)), dict(zip(PLAYERS, taken)), frozenset(blind), HouseRules(**rules))


# (rules, bids per seat, tricks per seat, blind nil bidders) -> (points, bags) of seats 0 and 2
SCORING = [
    # "a contract ... made scores 10 a trick bid and 1 for each trick over"
    ({}, (4, 3, 3, 3), (5, 3, 4, 1), (), (72, 2)),
    ({}, (4, 3, 3, 3), (5, 3, 1, 4), (), (-70, 0)),
    # "10 for 200": a contract of 10 or more scores double (20 a trick bid), made or set
    ({"ten_for_200": True}, (5, 1, 5, 1), (6, 1, 4, 2), (), (200, 0)),
    ({"ten_for_200": True}, (5, 1, 5, 1), (6, 1, 5, 1), (), (201, 1)),
    ({"ten_for_200": True}, (5, 1, 5, 1), (5, 2, 4, 2), (), (-200, 0)),
    ({"ten_for_200": True}, (5, 1, 4, 1), (6, 1, 4, 2), (), (91, 1)),  # 9: as usual
    ({}, (5, 1, 5, 1), (6, 1, 4, 2), (), (100, 0)),
    # nil's value: made scores it, broken loses it, and its tricks are bags
    ({"nil": 50}, (0, 3, 4, 3), (0, 3, 5, 5), (), (50 + 40 + 1, 1)),
    ({"nil": 50}, (0, 3, 4, 3), (1, 3, 4, 5), (), (-50 + 40 + 1, 1)),
    ({"nil": 200}, (0, 3, 4, 3), (0, 3, 5, 5), (), (200 + 40 + 1, 1)),
    # a blind nil is worth twice nil's value
    ({"nil": 50, "blind_nil": True}, (0, 3, 4, 3), (0, 3, 5, 5), ("player_0",), (100 + 40 + 1, 1)),
    ({"nil": 200, "blind_nil": True}, (0, 3, 4, 3), (2, 3, 4, 4), ("player_0",), (-400 + 40 + 2, 2)),
]


@pytest.mark.parametrize("rules, bids, taken, blind, ours", SCORING)
def test_each_house_rule_scores_a_hand_as_its_definition_says(rules, bids, taken, blind, ours):
    assert sum(taken) == 13
    assert points(bids, taken, blind, **rules)[0] == ours


def finished_hand(rules: HouseRules, bids, taken) -> FullSpades:
    """A hand of the full game under `rules` with these bids and tricks (the tricks set as taken)."""
    hand = FullSpades(list(NAMES), P3, None, rules)
    for player, bid in zip(PLAYERS, bids):
        hand.bids[player] = bid
    hand._scores = dict(zip(PLAYERS, taken))
    hand._trick_num = 13
    return hand


@pytest.mark.parametrize(
    "rules, bags_before, hand_bags, score_change, bags_after",
    [
        # "every `bags` tricks over a partnership's contract (5-15) cost `bag_penalty` points"
        ({}, 8, 2, 40 + 2 - 100, 0),
        ({}, 6, 2, 40 + 2, 8),
        ({"bags": 7}, 6, 2, 40 + 2 - 100, 1),
        ({"bags": 7, "bag_penalty": 50}, 6, 2, 40 + 2 - 50, 1),
        ({"bags": 15}, 13, 2, 40 + 2 - 100, 0),
        ({"bags": 5, "bag_penalty": 0}, 4, 2, 40 + 2, 1),
    ],
)
def test_bags_cost_the_penalty_at_the_house_limit(rules, bags_before, hand_bags, score_change, bags_after):
    match = FullMatch(rules=HouseRules(**rules))
    match.bags = [bags_before, 0]
    hand = finished_hand(match.rules, (2, 3, 2, 3), (2 + hand_bags, 3, 2, 4 - hand_bags))
    assert match.score(hand)[0] == score_change
    assert match.bags[0] == bags_after


@pytest.mark.parametrize(
    "game_to, scores, over",
    [
        (500, [390, 0], False),
        (500, [399, 0], True),
        (300, [198, 0], False),
        (300, [199, 0], True),
        (1000, [898, 0], False),
        (1000, [899, 0], True),
        (100, [-2, 100], False),
        (100, [-1, 100], True),
        # out at -game_to / 2.5
        (500, [0, -139], False),
        (500, [0, -140], True),
        (1000, [0, -339], False),
        (1000, [0, -340], True),
        (100, [-60, 21], False),
        (100, [-60, 20], True),
    ],
)
def test_the_game_ends_at_the_house_points_or_its_losing_points(game_to, scores, over):
    match = FullMatch(rules=HouseRules(game_to=game_to))
    match.scores = scores
    assert match.score(finished_hand(match.rules, (5, 3, 5, 3), (6, 1, 5, 1))) == [101, -60]
    assert match.over == over


def bidding_hand(rules: HouseRules) -> FullSpades:
    return FullSpades(list(NAMES), P3, frozenset({0, 1}) if rules.blind_nil else None, rules)  # player_0 bids first


def test_no_nil_at_a_table_without_nil():
    hand = bidding_hand(HouseRules(nil=0))
    assert hand.bid(P0, "nil") == (False, "this table plays without nil")
    assert hand.bid(P0, "0") == (False, "this table plays without nil")
    assert "nil" not in hand.bids_open_to(P0) and "1" in hand.bids_open_to(P0)
    assert hand.bids[P0] is None


def test_a_minimum_bid_binds_the_second_of_a_partnership_to_bid():
    hand = bidding_hand(HouseRules(minimum_bid=5))
    assert hand.bid(P0, "1") == (True, None)  # the first may bid anything: the partner makes it up
    assert hand.bid(P1, "nil") == (True, None)
    assert hand.bid(P2, "3") == (False, "partners bid 5 at least: 3")
    assert hand.bid(P2, "nil") == (False, "partners bid 5 at least: nil")
    assert hand.bids_open_to(P2)[0] == "4" and hand.bids[P2] is None
    assert hand.bid(P2, "4") == (True, None)
    assert hand.bids_open_to(P3)[0] == "5"  # beside a partner's nil, the other bids it all
    assert hand.bid(P3, "4") == (False, "partners bid 5 at least: 4")


@pytest.mark.parametrize(
    "rules, said",
    [
        ({"game_to": 350}, "game-to is one of 100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, not 350"),
        ({"bags": 4}, "bags is one of 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, not 4"),
        ({"nil": 75}, "nil is one of 0, 50, 100, 200, not 75"),
        ({"game_to": "300"}, "game-to is a whole number, not '300'"),
        ({"ten_for_200": 1}, "ten-for-200 is on or off"),
        ({"no_bids": True, "game_to": 300}, "game-to is a rule of the full game: add full"),
        ({"no_bids": True, "ten_for_200": True}, "ten-for-200 is a rule of the full game: add full"),
        ({"nil": 0, "blind_nil": True}, "blind nil is a nil: it can't be played with nil 0 (no nil)"),
    ],
)
def test_rules_that_cannot_be_played_are_refused_in_one_line(rules, said):
    with pytest.raises(RulesRefused) as refused:
        HouseRules(**rules)
    assert str(refused.value) == said


def test_house_rules_without_the_full_game_are_refused_by_the_page_and_the_command_line(capsys):
    assert table_refusal({"game_to": 300}) == "game-to is a rule of the full game: add full"
    assert table_refusal({"full_rules": True, "game_to": 300, "nil": 0}) is None
    assert main(["spades", "--game-to", "300", "--headless"]) == 1
    assert capsys.readouterr().err.strip().endswith("--game-to is a rule of the full game: add --full")
    assert main(["spades", "--full", "--turn", "30", "--headless"]) == 1
    assert "at home your time is your own" in capsys.readouterr().err


def test_the_summary_says_what_differs_from_the_usual():
    assert HouseRules().summary() == "to 500"
    assert HouseRules(no_bids=True).summary() == "no bids"
    assert (
        HouseRules(game_to=300, bags=7, bag_penalty=50, nil=0, ten_for_200=True, minimum_bid=4).summary()
        == "to 300, 7 bags -50, no nil, 10 for 200, min bid 4"
    )
    assert all(
        len(line) <= 30
        for line in HouseRules(
            game_to=1000, bags=15, bag_penalty=150, nil=200, blind_nil=True, ten_for_200=True, minimum_bid=6
        ).lines()
    )


# --- the computer players bid to the table's scoring ------------------------------------------------


def random_hands(count: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.sample(list(NAMES), 13)


def test_a_computer_never_bids_nil_at_a_table_without_it_and_bids_it_more_the_more_it_is_worth():
    nils = {
        value: sum(choose_bid(hand, None, HouseRules(nil=value)) == 0 for hand in random_hands(3000))
        for value in (0, 50, 100, 200)
    }
    assert nils[0] == 0 < nils[50] < nils[100] < nils[200]


def test_a_computer_s_nil_needs_the_chance_the_table_s_scoring_asks():
    assert nil_chance_needed(HouseRules()) == pytest.approx(0.7)
    assert nil_chance_needed(HouseRules(nil=50)) == pytest.approx(0.9)
    assert nil_chance_needed(HouseRules(nil=200)) == pytest.approx(0.6)
    assert nil_chance_needed(HouseRules(nil=0)) > 1
    rules = HouseRules(nil=0)
    assert all(
        sampled_bid(hand, 0, 0, None, random.Random(2), deals=8, rules=rules) > 0 for hand in random_hands(60, seed=3)
    )


@pytest.mark.parametrize("partner_bid, least", [(1, 4), (0, 5), (3, 2), (None, 1)])
def test_a_computer_bids_up_to_the_minimum(partner_bid, least):
    rules = HouseRules(minimum_bid=5)
    for hand in random_hands(300):
        bid = choose_bid(hand, partner_bid, rules)
        assert bid >= least or (partner_bid is None and bid == 0)


def test_with_10_for_200_a_computer_does_not_stretch_a_shaky_contract_to_ten():
    usual, doubled = HouseRules(), HouseRules(ten_for_200=True)
    changed = 0
    for hand in random_hands(3000):
        for partner_bid in (4, 5, 6):
            ours, theirs = choose_bid(hand, partner_bid, usual), choose_bid(hand, partner_bid, doubled)
            assert theirs in (ours, ours - 1)
            if theirs != ours:
                changed += 1
                assert partner_bid + ours in (10, 11) and partner_bid + theirs in (9, 10)
    assert changed


def full_game_at(rules: HouseRules, seed: int = 5):
    """A full game by four rule players at a table of these rules, played to its end."""
    clock = Clock()
    table = SpadesTable("R1", seed=seed, rules=rules, clock=clock)
    table.join("anna-secret", "Anna")
    table.start(0)
    table.drop(0)  # Anna's seat is played by a computer after its grace
    while not table.between_games:
        clock.now += 100
        if table.game.finished:
            table.next_hand(0)
        else:
            table.dealer_step()
    return table


def test_computers_at_a_table_play_its_rules_to_the_end_of_a_game():
    rules = HouseRules(game_to=200, nil=0, minimum_bid=4, bags=5)
    table = full_game_at(rules)
    match = table.variant.match
    assert match.rules == rules and match.over
    assert match.history
    for hand in match.history:
        assert 0 not in hand["bids"].values()  # no nil
        for team in ((P0, P2), (P1, P3)):
            assert sum(hand["bids"][player] for player in team) >= 4
    assert all(0 <= bags < 5 for bags in match.bags)


# --- kept with the table ------------------------------------------------------------------------------


def test_a_table_keeps_its_house_rules_and_privacy_and_reads_a_table_kept_before_them(tmp_path):
    rules = HouseRules(game_to=300, bags=7, nil=50, blind_nil=True, ten_for_200=True, minimum_bid=3, turn_seconds=30)
    store, clock = TableStore(tmp_path), Clock()
    table = SpadesTable("K1", seed=2, rules=rules, clock=clock, store=store, private=True)
    table.join("anna-secret", "Anna")
    table.start(0)
    kept = json.loads(store.path("K1").read_text())
    assert kept["format"] == SAVED_FORMAT == 3 and kept["private"] is True
    again = SpadesTable.restored(kept, clock=clock)
    assert again.rules == rules and again.private and again.turn_seconds == 30
    assert again.variant.match.rules == rules and again.game.rules == rules
    older = {key: value for key, value in kept.items() if key not in ("rules", "private")} | {"format": 2}
    before = SpadesTable.restored(older, clock=clock)
    assert before.rules == HouseRules(blind_nil=True) and not before.private and before.turn_seconds == 60


@pytest.mark.parametrize(
    "damage",
    [
        {"rules": {"game_to": 333}},
        {"rules": {"colour": "red"}},
        {"rules": "to 300"},
        {"private": "yes"},
        {"full": False},
    ],
)
def test_kept_house_rules_that_are_not_rules_make_the_file_unreadable(damage):
    table = SpadesTable("K1", seed=2, rules=HouseRules(game_to=300), clock=Clock())
    data = table.saved()
    data.update(damage)
    with pytest.raises(ValueError):
        SpadesTable.restored(data, clock=Clock())


# --- open tables --------------------------------------------------------------------------------------


def test_the_open_tables_are_listed_and_a_private_one_never():
    clock = Clock()
    tables = Tables(SpadesTable, clock=clock)
    open_one = tables.table("OPEN1", seed=1, rules=HouseRules(game_to=300, nil=50))
    open_one.join("anna-secret", "Anna")
    secret = tables.table("HIDDEN", seed=1, rules=HouseRules(), private=True)
    secret.join("bob-secret", "Bob")
    playing = tables.table("PLAY1", seed=1, rules=HouseRules(no_bids=True))
    playing.join("cy-secret", "Cy")
    playing.start(0)
    listed = tables.listed()
    assert [listing.code for listing in listed] == ["OPEN1", "PLAY1"]  # a seat free first
    first, second = listed
    assert (first.rules, first.seats, first.places, first.seat_free, first.score) == (
        "to 300, nil 50",
        ("Anna",),
        4,
        True,
        "not started",
    )
    assert (second.rules, second.seats, second.seat_free, second.watchable) == ("no bids", ("Cy",), False, True)
    assert "HIDDEN" not in str(listed)
    for table in (open_one, secret, playing):
        table.close()


def test_the_menu_page_lists_the_open_tables_to_sit_at_or_watch_and_escapes_them(tmp_path):
    from games.host.serve import Server, new_table_form

    server = Server(data_dir=tmp_path)
    try:
        tables = server.tables_of("spades")
        table = tables.table("OPEN2", seed=1, rules=HouseRules(game_to=300))
        table.join("anna-secret", "Anna<b>")
        hidden = tables.table("HIDDEN2", seed=1, private=True)
        lobby = server.lobby()
        assert "OPEN2" in lobby and "to 300" in lobby and "HIDDEN2" not in lobby
        assert 'href="/spades?table=OPEN2&amp;watch"' in lobby and "<b>Anna" not in lobby
        assert '<input type="hidden" name="table" value="OPEN2">' in lobby
        form = new_table_form("spades", __import__("games.spades", fromlist=["NEEDS"]))
        assert '<select name="game-to"' in form and '<option value="0">no nil</option>' in form
        assert 'name="private"' in form and "<details><summary>House rules</summary>" in form
        assert 'name="ten-for-200"' in form
        table.close()
        hidden.close()
    finally:
        pass


def test_the_form_s_choices_are_options_the_query_takes():
    from games.host.serve import target_of

    seating = NEEDS.seating
    query = "&".join(f"{choice.name}={choice.default}" for choice in seating.choices)
    target = target_of(f"/spades?table=Q1&full&private&blind-nil&ten-for-200&{query}")
    assert target.table["private"] and target.options["ten_for_200"] and target.options["game_to"] == 500
    assert table_refusal(target.options) is None
    assert table_refusal(target_of(f"/spades?table=Q1&{query}").options) is None  # defaults need no full game


# --- again, at the same seats -------------------------------------------------------------------------


def game_of_two(clock, rules=HouseRules(game_to=100)):
    table = SpadesTable("G1", seed=4, rules=rules, clock=clock)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.watch()
    table.start(0)
    return table


def play_to_the_game_s_end(table, clock):
    while not table.between_games:
        view = table.view(None)
        clock.now += 100  # every move a computer's: the people let their time pass
        if view.finished:
            table.next_hand(0)
        else:
            table.dealer_step()


def test_a_game_over_is_played_again_at_the_same_seats_once_every_person_says_so():
    clock = Clock()
    table = game_of_two(clock)
    play_to_the_game_s_end(table, clock)
    hand_number = table.hand_number
    clock.now += 5  # the last trick's show is over
    table.next_hand(0)
    view = table.view(0)
    assert view.between_games and view.again == (True, False, False, False) and table.hand_number == hand_number
    table.next_hand(1)
    view = table.view(None)
    assert not view.between_games and view.names[:2] == ("Anna", "Bob") and table.hand_number == hand_number + 1
    assert view.team_scores == (0, 0) and table.rules == HouseRules(game_to=100) and table.watchers == 1


def test_a_seat_whose_person_has_gone_is_offered_to_the_room_when_the_game_ends():
    clock = Clock()
    table = game_of_two(clock)
    table.drop(1)  # Bob has gone, and stays away
    play_to_the_game_s_end(table, clock)
    clock.now += GRACE_SECONDS + 1
    assert table.listing().seat_free and table.listing().seats == ("Anna",)
    assert table.join("cy-secret", "Cy") == 1
    clock.now += 5
    table.next_hand(0)
    assert table.view(None).between_games  # Cy, seated now, is asked too
    table.next_hand(1)
    assert not table.view(None).between_games and table.view(None).names[:2] == ("Anna", "Cy")


def test_the_spectrum_s_menu_on_a_server_lists_the_open_tables_to_join_or_watch_with_a_key():
    from games.host import menu
    from games.program import CannotStart, Listing
    from spectrum import Spectrum
    from spectrum.frontends import HeadlessFrontend, ScriptExhausted
    from spectrum.frontends.headless import presses_from

    listing = Listing("K7Q2", "to 300, nil 50", ("Anna",), 4, "not started", True)
    full = Listing("FULL1", "to 500", ("A", "B", "C", "D"), 4, "hand 2: 40 to 30", False)
    sat = []

    def sit(machine, *seat):
        sat.append(seat)
        if seat[2] == "":
            raise CannotStart("a name is 1 to 10 letters")

    machine = Spectrum(HeadlessFrontend(presses_from(["t", "1", "w", "2", "s", "1", "s", *"Bob", "ENTER"])))
    with pytest.raises(ScriptExhausted):
        menu.run(machine, [], listed=lambda: [("spades", "Spades", listing), ("spades", "Spades", full)], sit=sit)
    text = "\n".join("".join(machine.screen_char(row, col) or " " for col in range(32)) for row in range(24))
    assert "1 Spades K7Q2: to 300, nil 50" in text and "1 of 4 Anna; not started" in text
    assert "2 Spades FULL1: to 500" in text
    # W watched the first; S at the full table did nothing; S at the first asked the name
    assert sat == [("spades", "K7Q2", "Watcher", True), ("spades", "K7Q2", "Bob", False)]


@pytest.mark.parametrize("turn, away", [(20, 30), (120, 300), (60, 60)])
def test_the_table_s_idle_times_are_its_house_rules(turn, away):
    clock = Clock()
    table = SpadesTable("I1", seed=3, rules=HouseRules(turn_seconds=turn, away_seconds=away), clock=clock)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    while table.view(None).to_play not in (0, 1):
        clock.now += 5
        table.dealer_step()
    seat = table.view(None).to_play
    began, moves = clock.now, table.view(None).moves
    clock.now = began + turn - 1
    assert table.view(seat).turn_left == 1 and not table.dealer_step()
    clock.now = began + turn
    assert table.dealer_step() and table.view(None).moves == moves + 1  # played for
    while table.view(None).to_play not in (0, 1):
        clock.now += 5
        table.dealer_step()
    seat = table.view(None).to_play
    table.drop(seat)  # gone: held for the away time, then a computer plays the seat
    gone = clock.now
    clock.now = gone + away - 1
    assert not table.dealer_step()
    clock.now = gone + away
    assert table.dealer_step()


@pytest.mark.parametrize("before, after", [("BOB to play: 42 s", "BOB to play: 9 s"), ("", "ANNA to play: 30 s")])
def test_a_clock_s_second_redraws_its_line_alone_to_the_screen_a_whole_draw_gives(before, after):
    from games.spades.screen import Scene, draw, draw_status, only_the_status_differs, prepare
    from spectrum import Spectrum

    def scene(status):
        return Scene(
            title="SPADES",
            hand=["as", "kd", "2c"],
            trick=[("player_1", "2h"), ("player_2", "9h")],
            labels={"player_1": "1 of 3"},
            to_play="player_3",
            status=status,
            message="BREAK (Esc) leaves",
        )

    assert only_the_status_differs(scene(after), scene(before))
    assert not only_the_status_differs(scene(after), None)
    assert not only_the_status_differs(scene(""), scene(after))  # a line gone: the whole table drawn again
    assert not only_the_status_differs(dataclasses.replace(scene(after), chosen=1), scene(before))
    redrawn, whole = Spectrum(), Spectrum()
    prepare(redrawn)
    prepare(whole)
    draw(redrawn, scene(before))
    draw_status(redrawn, scene(after))
    draw(whole, scene(after))
    assert (redrawn.memory[0x4000:0x5B00] == whole.memory[0x4000:0x5B00]).all()


def test_a_person_gone_a_moment_as_a_game_ends_keeps_their_seat():
    clock = Clock()
    table = game_of_two(clock)
    play_to_the_game_s_end(table, clock)
    table.drop(1)  # Bob reloads his page
    clock.now += 5
    assert table.join("cy-secret", "Cy") == 2  # a free seat, not Bob's
    assert table.join("bob-secret", "Bob") == 1 and table.view(None).names[:3] == ("Anna", "Bob", "Cy")


def test_every_seat_sees_whose_turn_it_is_and_the_time_left_but_a_trick_taken_is_said_first():
    from games.spades.seat_play import scene_of

    clock = Clock()
    table = SpadesTable("C1", seed=3, rules=HouseRules(turn_seconds=30), clock=clock)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    while table.view(None).to_play != 1:
        clock.now += 5
        table.dealer_step()
    clock.now += 12
    assert scene_of(table.view(0), 0, None, "", "").status == "BOB to bid: 18 s"
    assert scene_of(table.view(1), 1, None, "", "").status == "Your bid: 18 s"
    assert scene_of(table.view(None), 0, None, "", "").status == "BOB to bid: 18 s"  # a watcher too
    while not table.view(None).trick_taken:  # a trick taken is said while it is shown
        clock.now += 31
        table.dealer_step()
    view = table.view(0)
    assert "take" in scene_of(view, 0, None, "", "").status


def test_a_game_kept_at_home_goes_on_by_its_own_rules_and_says_so_only_when_others_are_given(tmp_path):
    from games.spades.home import home_table
    from spectrum import Spectrum

    rules = HouseRules(game_to=300, nil=0)
    table, notice = home_table(
        Spectrum(), level="rules", seed=1, full=True, blind_nil=False, folder=tmp_path, rules=rules
    )
    table.join("this machine", "YOU")
    table.start(0)
    again, notice = home_table(Spectrum(), level="rules", seed=None, full=True, blind_nil=False, folder=tmp_path)
    assert again.rules == rules and notice is None
    again, notice = home_table(
        Spectrum(),
        level="rules",
        seed=None,
        full=True,
        blind_nil=False,
        folder=tmp_path,
        rules=HouseRules(game_to=1000),
    )
    assert again.rules == rules and "goes on by its own rules (to 300, no nil)" in notice
    fresh, notice = home_table(
        Spectrum(),
        level="rules",
        seed=None,
        full=True,
        blind_nil=False,
        folder=tmp_path,
        rules=HouseRules(game_to=1000),
        new=True,
    )
    assert fresh.rules == HouseRules(game_to=1000) and notice is None
