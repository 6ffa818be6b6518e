"""The Spades table for four: one referee, a seat per person, nothing of another hand ever shown,
and seats that are held, warned and played for as people come and go."""

import json

import pytest

from games.cards import NAMES
from games.spades.rules import PLAYERS
from games.spades import seats
from games.host.tables import Tables
from games.protocol import MoveRefused
from games.spades.seats import GRACE_SECONDS, SAVED_FORMAT, TURN_SECONDS, WARN_SECONDS, SpadesTable, TableRefused
from games.store import TableStore


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def table_of_two(clock=None):
    table = SpadesTable("T1", seed=7, clock=clock or Clock())
    assert table.join("anna-secret", "Anna") == 0
    assert table.join("bob-secret", "Bob") == 1
    return table


def at_a_persons_turn():
    """A table of two people and two computers, played until a person is to play: (table, clock, that seat)."""
    clock = Clock()
    table = table_of_two(clock)
    table.start(0)
    return table, clock, run_computers(table, clock).to_play


def run_computers(table, clock):
    """Let the dealer play until a person is to play or the hand is over."""
    while True:
        view = table.view(None)
        if view.finished or view.humans[view.to_play]:
            return view
        clock.now += 5
        assert table.dealer_step()


def test_seats_fill_in_turn_a_returning_owner_gets_its_seat_and_a_full_table_is_watched():
    table = table_of_two()
    assert table.join("anna-secret", "Someone else") == 0  # the secret, not the name, is the seat
    table.drop(0)  # one of Anna's two tabs closed: she is still there
    assert table.view(None).connected[0]
    assert table.join("cy", "Cy") == 2 and table.join("di", "Di") == 3
    assert table.join("ed", "Ed") is None
    assert table.view(None).names == ("Anna", "Bob", "Cy", "Di")
    table.drop(3)  # before play a seat is freed at once
    assert table.view(None).humans == (True, True, True, False)
    with pytest.raises(TableRefused):
        table.join("x", "\x00\x01")


def test_only_a_seated_player_starts_and_empty_seats_are_computers():
    clock = Clock()
    table = table_of_two(clock)
    with pytest.raises(TableRefused):
        table.start(2)
    table.start(0)
    assert table.join("late", "Late") is None  # play has started: no new seat
    view = run_computers(table, clock)
    assert view.humans[view.to_play]


def test_no_seat_ever_sees_another_hand():
    clock = Clock()
    table = table_of_two(clock)
    table.start(0)
    hands = {seat: set(table.game.hand(PLAYERS[seat])) for seat in range(4)}
    for seat in (0, 1, None):
        view = table.view(seat)
        shown = set(view.hand)
        assert shown == (hands[seat] if seat is not None else set())
        others = set().union(*(hands[other] for other in range(4) if other != seat))
        text = repr(view)
        assert not any(f"'{card}'" in text for card in others - {card for _, card in view.trick})


def test_every_change_at_the_table_is_told_to_its_listeners_until_they_stop():
    clock = Clock()
    table = table_of_two(clock)
    told = []
    table.listen(lambda: told.append(table.version))
    table.start(0)
    view = run_computers(table, clock)
    assert told and told == list(range(told[0], view.version + 1))  # each change, in turn
    heard = len(told)
    table.listen(told.append)
    table.stop_listening(told.append)
    table.drop(0)
    assert len(told) == heard + 1  # the first listener still hears; the one that stopped does not


def test_a_move_is_the_seats_own_and_a_refusal_is_told_to_that_seat_alone():
    table, clock, mover = at_a_persons_turn()
    other = 1 - mover
    other_card = table.view(other).hand[0]
    with pytest.raises(MoveRefused, match="^card not in player hand") as refused:
        table.play(mover, other_card)  # a card of the other seat's hand
    assert table.view(mover).refusal == refused.value.reason and table.view(other).refusal is None
    with pytest.raises(MoveRefused, match="^not player turn"):
        table.play(other, other_card)  # out of turn
    card = table.game.legal_cards(PLAYERS[mover])[0]
    table.play(mover, card)
    assert table.view(mover).refusal is None and table.moves[-1] == (mover, card)


def test_a_dropped_seat_is_held_for_its_grace_then_played_by_a_computer_until_its_player_returns():
    table, clock, mover = at_a_persons_turn()
    table.drop(mover)
    clock.now += GRACE_SECONDS - 1
    assert not table.dealer_step()  # held
    assert table.view(1 - mover).connected[mover] is False
    clock.now += 2
    assert table.dealer_step()  # played for
    assert table.join(["anna-secret", "bob-secret"][mover], "") == mover  # back, with the seat's secret
    assert table.view(mover).connected[mover]


def test_a_player_who_does_not_move_is_warned_then_played_for():
    table, clock, mover = at_a_persons_turn()
    clock.now += WARN_SECONDS - 1
    assert table.view(mover).warning is None and not table.dealer_step()
    clock.now += 2
    assert "computer plays for you" in table.view(mover).warning
    assert table.view(1 - mover).warning is None
    clock.now = clock.now + TURN_SECONDS - WARN_SECONDS
    assert table.dealer_step()


def test_a_whole_hand_finishes_and_the_next_is_dealt_on_enter():
    clock = Clock()
    table = table_of_two(clock)
    table.start(1)
    while not (view := table.view(None)).finished:
        if view.humans[view.to_play]:
            table.play(view.to_play, table.game.legal_cards(PLAYERS[view.to_play])[-1])
        else:
            clock.now += 5
            table.dealer_step()
    assert sum(view.taken) == 13 and sum(view.hands_won) >= 1 and view.to_play is None
    table.next_hand(0)  # the last trick is still on the table
    assert table.view(0).hand_number == 1 and table.view(0).trick_taken
    clock.now += seats.TRICK_SECONDS
    table.next_hand(0)
    assert table.view(0).hand_number == 2 and len(table.view(0).hand) == 13


def test_a_deserted_table_is_closed_and_a_held_one_is_kept():
    clock = Clock()
    tables = Tables(SpadesTable, clock=clock)
    table = tables.table("X", seed=1)
    table.close()  # its dealer thread ends
    table = tables.table("X", seed=1)
    table.join("a", "A")
    table.start(0)
    table.drop(0)
    tables.leave(table)
    assert tables.tables.get("X") is table  # held within its grace
    clock.now += GRACE_SECONDS + 1
    tables.leave(table)
    assert "X" not in tables.tables and table.closed


# --- the full game at a table, kept after every move ----------------------------------------------


def full_table(store=None, clock=None, code="F1"):
    table = SpadesTable(code, seed=3, full=True, clock=clock or Clock(), store=store)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    return table


def person_moves(table, seat):
    """A person's move at `seat`: a bid of 3 (nil if that is all the partner's bid leaves) or the
    first card it may play."""
    view = table.view(seat)
    if view.bidding:
        table.bid(seat, str(min(3, view.highest_bid)) if view.highest_bid else "nil")
    else:
        table.play(seat, view.legal[0])
    return True


def play_on(table, clock, moves):
    """`moves` moves (people's or computers'), going on to the next hand when one is over."""
    for _ in range(moves):
        view = table.view(None)
        if view.finished:
            clock.now += 5
            table.next_hand(0)
        elif view.humans[view.to_play]:
            assert person_moves(table, view.to_play)
        else:
            clock.now += 5
            assert table.dealer_step()


def test_the_full_game_at_a_table_bids_then_plays_and_scores_the_partnerships():
    clock = Clock()
    table = full_table(clock=clock)
    view = table.view(0)
    assert view.full and view.bidding and view.bids == (None,) * 4
    with pytest.raises(MoveRefused, match="^bid first$"):
        table.play(0, view.hand[0])
    play_on(table, clock, 4)  # everyone has bid
    view = table.view(None)
    assert not view.bidding and None not in view.bids
    with pytest.raises(MoveRefused, match="^bidding is over$"):
        table.bid(view.to_play, "3")
    while not table.view(None).finished:
        play_on(table, clock, 1)
    view = table.view(2)
    assert sum(view.taken) == 13 and view.hand_points is not None
    assert list(view.team_scores) == table.variant.match.scores and view.hand_points[0] == view.team_scores[0]


def test_a_computer_bids_for_a_person_who_lets_the_time_pass():
    clock = Clock()
    table = full_table(clock=clock)
    while not table.view(None).humans[table.view(None).to_play]:
        play_on(table, clock, 1)
    seat = table.view(None).to_play
    clock.now += TURN_SECONDS + 1
    assert table.dealer_step() and table.view(None).bids[seat] is not None


def test_a_table_is_kept_after_every_move_and_taken_up_where_it_was(tmp_path):
    store = TableStore(tmp_path)
    clock = Clock()
    table = full_table(store, clock)
    for moves in (3, 9, 40):  # during the bidding, in the first tricks, in a later hand
        play_on(table, clock, moves)
        again = SpadesTable.restored(json.loads(store.path("F1").read_text()), clock=clock)
        for seat in (0, 1, 2, 3, None):
            kept, now = again.view(seat), table.view(seat)
            assert (kept.hand, kept.trick, kept.taken, kept.bids, kept.team_scores, kept.hand_number, kept.to_play) == (
                now.hand,
                now.trick,
                now.taken,
                now.bids,
                now.team_scores,
                now.hand_number,
                now.to_play,
            )
        assert again.view(None).connected == (False,) * 4 and again.view(None).humans == (True, True, False, False)
        assert again.rng.getstate() == table.rng.getstate()  # the next deal is the same too


def first_format(data: dict) -> dict:
    """A kept table as the first format kept it: the hand's moves as the seed's messages, a card
    as "play_card - td" and a bid as `SpadesTable.bid` sent it ("bid 3", "bid 0" from a computer's
    nil, "bid blind nil")."""

    def message(move: str) -> str:
        if move in NAMES:
            return f"play_card - {move}"
        return {"nil": "bid 0", "blind nil": "bid blind nil"}.get(move, move)

    old = json.loads(json.dumps(data))
    old["format"] = 1
    del old["rules"], old["private"]  # kept from the third format on
    if old["hand"] is not None:
        old["hand"]["moves"] = [[seat, message(move)] for seat, move in old["hand"]["moves"]]
    return old


def test_a_table_kept_in_the_first_format_is_taken_up_and_played_on(tmp_path):
    for full in (False, True):
        store, clock = TableStore(tmp_path / str(full)), Clock()
        table = full_table(store, clock) if full else SpadesTable("F1", seed=3, clock=clock, store=store)
        if not full:
            table.join("anna-secret", "Anna")
            table.start(0)
        play_on(table, clock, 19)  # bids and cards (the full game), cards and a trick taken
        kept = json.loads(store.path("F1").read_text())
        assert kept["format"] == SAVED_FORMAT and all(
            isinstance(move, str) and not move.startswith("play_card") for _, move in kept["hand"]["moves"]
        )
        old = first_format(kept)
        assert any(move.startswith("play_card - ") for _, move in old["hand"]["moves"])
        again = SpadesTable.restored(old, clock=clock, store=store)
        assert again.moves == table.moves  # read as moves, once
        for seat in (0, 1, 2, 3, None):
            assert again.view(seat).hand == table.view(seat).hand and again.view(seat).trick == table.view(seat).trick
        assert again.join("anna-secret", "Anna") == 0
        play_on(again, clock, 10)  # ... and played on, kept in the new format
        assert json.loads(store.path("F1").read_text())["format"] == SAVED_FORMAT
        assert SpadesTable.restored(json.loads(store.path("F1").read_text()), clock=clock).moves == again.moves


def test_a_first_format_table_written_out_by_hand_is_taken_up():
    """The messages exactly as the first format wrote them, bids of a person ("bid 3", "bid nil")
    and of a computer ("bid 0") among them."""
    clock = Clock()
    table = full_table(clock=clock)
    first = table.game.to_play  # left of the dealer
    order = [(PLAYERS.index(first) + step) % 4 for step in range(4)]
    data = table.saved() | {
        "format": 1,
        "hand": {
            "deck": table.deck,
            "moves": [[order[0], "bid 3"], [order[1], "bid nil"], [order[2], "bid 0"], [order[3], "bid 4"]],
        },
    }
    again = SpadesTable.restored(data, clock=clock)
    bids = {order[0]: 3, order[1]: 0, order[2]: 0, order[3]: 4}
    assert again.view(None).bids == tuple(bids[seat] for seat in range(4))
    assert [move for _, move in again.moves] == ["bid 3", "nil", "nil", "bid 4"]
    lead = again.view(order[0]).legal[0]
    again.play(order[0], lead)
    assert again.saved()["hand"]["moves"][-1] == [order[0], lead] and again.saved()["format"] == SAVED_FORMAT


def test_a_server_started_again_gives_each_person_their_seat_and_hand_back(tmp_path):
    clock = Clock()
    before = Tables(SpadesTable, store=TableStore(tmp_path), clock=clock)
    table = before.table("R1", seed=5, full=True)
    table.close()  # no dealer thread: the test moves the table itself
    assert table.join("anna-secret", "Anna") == 0
    table.start(0)
    play_on(table, clock, 30)
    anna_hand, scores = table.view(0).hand, table.view(0).team_scores
    after = Tables(SpadesTable, store=TableStore(tmp_path), clock=clock)  # the server started again
    again = after.table("R1", seed=99, level="random")  # the options of a later join change nothing
    try:
        assert again.level == "rules" and again.full
        assert again.join("someone-else", "Eve") is None  # play has begun: Eve may watch
        assert again.join("anna-secret", "Anna") == 0
        assert again.view(0).hand == anna_hand and again.view(0).team_scores == scores
    finally:
        again.close()


def test_an_unreadable_kept_table_is_set_aside_and_a_new_one_says_so(tmp_path):
    store = TableStore(tmp_path)
    store.path("B1").write_text('{"format": 1, "code": "B1", "full": true, "level": "rules"')  # cut short
    tables = Tables(SpadesTable, store=store, clock=Clock())
    table = tables.table("B1", seed=1)
    table.close()
    assert (tmp_path / "B1.json.unreadable-1").read_text().startswith('{"format": 1')
    assert "B1.json.unreadable-1" in table.view(None).notice
    kept_moves = json.loads(store.path("B1").read_text()) if store.path("B1").exists() else None
    assert kept_moves is None  # nobody has joined: nothing new kept yet
    table.join("a", "A")
    assert json.loads(store.path("B1").read_text())["seats"][0] == {"name": "A", "owner": "a"}


def test_a_kept_move_the_rules_refuse_makes_the_file_unreadable(tmp_path):
    store = TableStore(tmp_path)
    clock = Clock()
    table = full_table(store, clock, code="M1")
    play_on(table, clock, 6)
    data = json.loads(store.path("M1").read_text())
    data["hand"]["moves"][5][1] = "zz"
    with pytest.raises(ValueError):
        SpadesTable.restored(data, clock=clock)
    data["hand"]["moves"][5][0] = 9
    with pytest.raises(ValueError, match="not the moves of a hand"):
        SpadesTable.restored(data, clock=clock)


def test_a_table_that_cannot_be_kept_says_so_and_plays_on(tmp_path):
    (tmp_path / "file").write_text("")
    clock = Clock()
    table = full_table(TableStore(tmp_path / "file" / "tables"), clock)
    assert table.view(0).notice.startswith("Table NOT kept")
    play_on(table, clock, 4)
    assert not table.view(0).bidding


def test_a_full_game_at_a_table_is_played_to_its_end_and_a_new_one_follows(tmp_path):
    store = TableStore(tmp_path)
    clock = Clock()
    table = full_table(store, clock)
    while table.view(0).game_winner is None:
        play_on(table, clock, 1)
    view = table.view(0)
    assert max(view.team_scores) >= 500 or min(view.team_scores) <= -200
    assert view.team_scores[view.game_winner] > view.team_scores[1 - view.game_winner]
    kept = SpadesTable.restored(json.loads(store.path("F1").read_text()), clock=clock)
    assert kept.view(0).team_scores == view.team_scores and kept.view(0).game_winner == view.game_winner
    clock.now += seats.TRICK_SECONDS  # the last trick off the table
    table.next_hand(1)  # Bob says again; Anna, still at the table, has not
    assert table.view(0).team_scores == view.team_scores and table.view(0).again == (False, True, False, False)
    table.next_hand(0)
    assert table.view(0).team_scores == (0, 0) and table.view(0).bidding


def test_a_seat_may_be_shown_its_own_hand_and_the_cards_played_and_nothing_else():
    table, clock, seat = at_a_persons_turn()
    played = {card for _, card in table.view(None).trick}
    assert table.cards_open_to(seat) == set(table.view(seat).hand) | played
    assert table.cards_open_to(None) == played
    others = set().union(*(table.game.hand(PLAYERS[other]) for other in range(4) if other != seat))
    assert not table.cards_open_to(seat) & others


# --- what the clock shows, blind nil, a table at home --------------------------------------------------


def test_a_trick_taken_stays_on_the_table_for_its_time_or_until_the_next_card():
    from games.spades.seats import TRICK_SECONDS

    clock = Clock()
    table = table_of_two(clock)
    table.start(0)
    while table.view(None).taken == (0,) * 4:
        play_on(table, clock, 1)
    view = table.view(1)
    winner = view.last_winner
    assert view.trick_taken and view.trick == () and len(view.last_trick) == 4 and view.taken[winner] == 1
    assert view.trick_shown_until == clock.now + TRICK_SECONDS
    clock.now += TRICK_SECONDS - 0.01
    assert table.view(1).trick_taken
    clock.now += 0.02
    assert not table.view(1).trick_taken and table.view(1).last_trick == view.last_trick
    clock.now -= 1  # back within the show: the next card ends it all the same
    play_on(table, clock, 1)
    assert not table.view(1).trick_taken and len(table.view(1).trick) == 1


def test_a_seat_100_behind_may_bid_blind_nil_and_the_others_see_it_said_blind(tmp_path):
    from games.spades.full_rules import BLIND_NIL

    store = TableStore(tmp_path)
    table = SpadesTable("N1", seed=3, full=True, blind_nil=True, clock=Clock(), store=store)
    table.variant.match.scores = [0, 100]  # seats 0 and 2 are 100 behind
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    assert table.view(0).may_bid_blind_nil and not table.view(1).may_bid_blind_nil
    while (view := table.view(None)).to_play != 0:
        if view.humans[view.to_play]:
            assert person_moves(table, view.to_play)
        else:
            table.clock.now += 5
            assert table.dealer_step()
    with pytest.raises(MoveRefused, match="^not player turn: player_1$"):
        table.bid(1, BLIND_NIL)
    table.bid(0, BLIND_NIL)
    assert table.view(1).blind[0] and table.view(1).bids[0] == 0 and not table.view(0).may_bid_blind_nil
    again = SpadesTable.restored(json.loads(store.path("N1").read_text()), clock=table.clock)
    assert again.view(1).blind == table.view(1).blind and again.variant.match.blind_nil


def test_blind_nil_needs_the_full_game():
    with pytest.raises(TableRefused, match="full game"):
        SpadesTable("B", blind_nil=True)


def test_at_home_nobody_s_time_runs_out_and_the_table_says_when_it_moves_itself():
    clock = Clock()
    table = SpadesTable("H", seed=7, clock=clock, turn_seconds=None)
    table.join("me", "Me")
    table.start(0)
    assert table.due() is None  # the first lead is yours, with all the time in the world
    clock.now += TURN_SECONDS * 10
    assert not table.dealer_step() and table.view(0).warning is None
    table.play(0, table.view(0).legal[0])
    assert table.due() == clock.now + seats.COMPUTER_SECONDS
    clock.now += 1
    assert table.dealer_step() and table.view(0).moves == 2 and table.view(0).last_mover == 1


# --- searches worked out in worker processes ----------------------------------------------------------


def solver_table(clock):
    table = SpadesTable("W", seed=4, level="solver", full=True, clock=clock)
    table.join("me", "Me")
    table.start(0)
    return table


def computer_moves(table, clock, count):
    """`count` moves of the computers, a bid of 3 for the person at seat 0 when it is theirs."""
    while count:
        if table.view(None).to_play == 0:
            assert person_moves(table, 0)
            continue
        clock.now += 5
        assert table.dealer_step()
        count -= 1


def test_a_search_worked_out_in_a_worker_process_is_the_move_worked_out_here():
    from games.host.thinking import Workers

    here_clock, there_clock = Clock(), Clock()
    here = solver_table(here_clock)
    computer_moves(here, here_clock, 6)  # three bids (from the dealing numbers) and three cards
    there = solver_table(there_clock)
    there.thinker = Workers(1)
    computer_moves(there, there_clock, 6)
    assert there.moves == here.moves and there.rng.getstate() == here.rng.getstate()
    assert [player.rng.getstate() for player in there.computers.values()] == [
        player.rng.getstate() for player in here.computers.values()
    ]


def test_the_table_is_not_held_while_a_worker_thinks_and_an_answer_overtaken_is_dropped():
    import threading
    from concurrent.futures import Future

    class Thinker:  # a worker that answers only when told
        def submit(self, *job):
            asked.append(Future())
            return asked[-1]

    clock = Clock()
    table = table_of_two(clock)
    table.level = "mcts"
    table.thinker = Thinker()
    table.start(0)
    asked = []
    assert person_moves(table, 0)  # Anna leads; Bob is to play, and drops
    table.drop(1)
    clock.now += GRACE_SECONDS + 1
    stepped = []
    stepping = threading.Thread(target=lambda: stepped.append(table.dealer_step()))  # a computer plays for Bob
    stepping.start()
    while not asked:  # ... and a worker thinks
        pass
    assert table.changed.acquire(timeout=5)  # the table is not held meanwhile
    table.changed.release()
    assert table.join("bob-secret", "Bob") == 1  # Bob is back meanwhile, and plays himself
    bobs = table.view(1).legal[-1]
    table.play(1, bobs)
    asked[0].set_result((table.view(1).hand[0], table.computers["player_1"], None))
    stepping.join()
    assert stepped == [False]  # the answer came too late: not played
    assert [card for _, card in table.view(0).trick] == [table.moves[0][1], bobs]


def test_the_search_workers_end_with_a_server_that_is_killed(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    script = """
import pickle, random, sys
from games.host.thinking import Workers
from games.spades.players import make_player
from games.spades.rules import Spades, shuffled_deck
from games.spades.seats import worked_out_move
from games.spades.variants import SeedGame
game = Spades(shuffled_deck(random.Random(1)))
copies = pickle.dumps((SeedGame(None, "mcts"), make_player("mcts", random.Random(2)), game, "player_0"))
print(Workers().submit(worked_out_move, copies).result()[0])
sys.stdout.flush()
sys.stdin.read()
"""
    server = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() in NAMES  # a card

    def children_of(pid: int) -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError):
                pass
        return found

    workers = children_of(server.pid)
    assert workers  # the worker (and the resource tracker)
    server.send_signal(signal.SIGKILL)
    server.wait()
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z" for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.1)


# --- a table watched after its people have left ---------------------------------------------------


def test_a_watched_table_plays_on_for_the_seats_held_past_their_grace():
    """Both people gone and a watcher still there: the table is neither deserted nor closed, and
    once the seats' grace is over the computers play for them (the watcher sees play go on)."""
    clock = Clock()
    tables = Tables(SpadesTable, clock=clock)
    table = tables.table("W1", seed=7)
    assert table.join("anna-secret", "Anna") == 0 and table.join("bob-secret", "Bob") == 1
    table.start(0)
    table.watch()
    table.drop(0)
    table.drop(1)
    clock.now += GRACE_SECONDS + 1
    assert not table.deserted() and not table.left_by_everyone()
    tables.leave(table)
    assert not table.closed
    moves = len(table.moves)
    while len(table.moves) < moves + 4:
        clock.now += 2
        table.dealer_step()
    table.stop_watching()
    assert table.deserted() and table.left_by_everyone()
    tables.leave(table)
    assert table.closed
