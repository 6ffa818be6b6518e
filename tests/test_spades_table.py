"""The Spades table for four: one referee, a seat per person, nothing of another hand ever shown,
and seats that are held, warned and played for as people come and go."""

import pytest

from games.spades.rules import PLAYERS
from games.spades.seats import GRACE_SECONDS, TURN_SECONDS, WARN_SECONDS, SpadesTable, TableRefused, Tables


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


def test_a_move_is_the_seats_own_and_a_refusal_is_told_to_that_seat_alone():
    table, clock, mover = at_a_persons_turn()
    other = 1 - mover
    other_card = table.view(other).hand[0]
    accepted, refusal = table.play(mover, other_card)  # a card of the other seat's hand
    assert not accepted and refusal.startswith("card not in player hand")
    assert table.view(mover).refusal == refusal and table.view(other).refusal is None
    accepted, refusal = table.play(other, other_card)  # out of turn
    assert not accepted and refusal.startswith("not player turn")
    card = table.game.legal_cards(PLAYERS[mover])[0]
    assert table.play(mover, card) == (True, None)
    assert table.view(mover).refusal is None


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
            assert table.play(view.to_play, table.game.legal_cards(PLAYERS[view.to_play])[-1])[0]
        else:
            clock.now += 5
            table.dealer_step()
    assert sum(view.taken) == 13 and sum(view.hands_won) >= 1 and view.to_play is None
    table.next_hand(0)
    assert table.view(0).hand_number == 2 and len(table.view(0).hand) == 13


def test_a_deserted_table_is_closed_and_a_held_one_is_kept():
    clock = Clock()
    tables = Tables()
    table = tables.table("X", seed=1, clock=clock)
    table.close()  # its dealer thread ends
    table = tables.table("X", seed=1, clock=clock)
    table.join("a", "A")
    table.start(0)
    table.drop(0)
    tables.leave(table)
    assert tables.tables.get("X") is table  # held within its grace
    clock.now += GRACE_SECONDS + 1
    tables.leave(table)
    assert "X" not in tables.tables and table.closed
