"""A Spades table for four across the network: the seed's backend, with seats.

One `SpadesTable` per table code is the referee: the seed's `Spades` hand is its only state of
play, and a seat's move is the seed's message, `play_card <player> <card>`, for the player that
seat is, never one the message names. Seats fill as people join; the seats still empty when play
starts are computer players. A seat whose player drops is held (its hand shown to nobody) for
GRACE_SECONDS, then played by a computer until its player comes back with the seat's secret; a
player who does not move for TURN_SECONDS is warned at WARN_SECONDS and then played for.

`seat_view` is all a seat may see: its own hand, the trick on the table, the tricks taken, whose
turn it is, the names at the table — never another hand. The table's `dealer` runs on a thread of
its own: the computer seats' cards, the players' clocks, the next hand.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .players import LEVELS, card_chosen, make_player
from .rules import PLAYERS, Spades, dealing_rng, shuffled_deck
from .views import seed_view

GRACE_SECONDS = 60.0  # a dropped seat is held this long before a computer plays it
TURN_SECONDS = 60.0  # a player who has not moved this long is played for
WARN_SECONDS = 45.0  # ... and warned from this long
COMPUTER_SECONDS = 0.4  # a computer seat's card follows the one before by this much, to be followed
TRICK_SECONDS = 1.2  # a finished trick stays on the table this long
NAME_LENGTH = 10
SEATS = 4


class TableRefused(ValueError):
    """A join or move the table can't take; the message says why, for that seat only."""


@dataclass
class Occupant:
    """A person at a seat: the name they gave, the hash of the seat's secret, since when they are
    connected (or gone), and how many terminals they have connected."""

    name: str
    owner: str
    since: float = 0.0
    terminals: int = 1  # connected now (two tabs of one browser are one player)

    @property
    def connected(self) -> bool:
        return self.terminals > 0


@dataclass(frozen=True)
class SeatView:
    """What one seat sees of the table (or a spectator, `seat` None: no hand at all)."""

    seat: int | None
    names: tuple[str, ...]  # per seat: the person's name, or COMPUTER
    humans: tuple[bool, ...]  # per seat: a person sits there (connected or held)
    connected: tuple[bool, ...]
    started: bool
    hand_number: int
    hand: tuple[str, ...]  # this seat's cards; () for a spectator
    legal: tuple[str, ...]  # those it may play now (its turn), else ()
    trick: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    last_trick: tuple[tuple[int, str], ...]
    last_winner: int | None
    taken: tuple[int, ...]  # tricks per seat this hand
    hands_won: tuple[int, ...]
    to_play: int | None  # None between hands or before play
    finished: bool  # the hand is over
    winners: tuple[int, ...]
    refusal: str | None  # the last refusal of this seat's move, for it alone
    warning: str | None  # to this seat: its time to move is running out
    version: int


COMPUTER = "computer"


def seat_of(player: str) -> int:
    return PLAYERS.index(player)


def clean_name(name: str) -> str:
    """A name as the table shows it: printable ASCII, at most NAME_LENGTH characters; TableRefused
    for one with nothing left to show."""
    shown = "".join(char for char in name if " " <= char <= "~").strip()[:NAME_LENGTH].strip()
    if not any(char.isalnum() for char in shown):
        raise TableRefused("a name needs a letter or a digit")
    return shown


class SpadesTable:
    """The referee of one table: seats, the seed's hand in play, and the players' clocks.

    Every method takes the table's lock; `changed` is notified after each change (`version` counts
    them), which is what a seat's screen waits on."""

    def __init__(self, code: str, *, level: str = "rules", seed: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        if level not in LEVELS:
            raise TableRefused(f"no level {level!r}: choose from {', '.join(LEVELS)}")
        self.code, self.level, self.clock = code, level, clock
        self.changed = threading.Condition()
        self.version = 0
        self.seats: list[Occupant | None] = [None] * SEATS
        self.rng = dealing_rng(seed)
        self.computers = {player: make_player(level, random.Random(self.rng.random())) for player in PLAYERS}
        self.started = False
        self.game: Spades | None = None
        self.hand_number = 0
        self.hands_won = [0] * SEATS
        self.refusals: dict[int, str] = {}
        self.turn_began = 0.0  # when the seat to play was given its turn
        self.next_move_at = 0.0  # the computer's card (or the next hand) not before this
        self.closed = False

    # --- people ---------------------------------------------------------------------------------

    def join(self, owner: str, name: str) -> int | None:
        """The seat of `owner` (the hash of its secret): its own seat again if it had one, else the
        next free seat before play starts; None when there is none (the caller may watch)."""
        with self.changed:
            for seat, occupant in enumerate(self.seats):
                if occupant is not None and occupant.owner == owner:
                    occupant.terminals, occupant.since = occupant.terminals + 1, self.clock()
                    self._changed()
                    return seat
            if self.started:
                return None
            shown = clean_name(name)
            for seat, occupant in enumerate(self.seats):
                if occupant is None:
                    self.seats[seat] = Occupant(shown, owner, self.clock())
                    self._changed()
                    return seat
            return None

    def drop(self, seat: int) -> None:
        """The seat's terminal has gone: the seat is held for GRACE_SECONDS; before play starts it
        is freed at once."""
        with self.changed:
            occupant = self.seats[seat]
            if occupant is None:
                return
            occupant.terminals = max(0, occupant.terminals - 1)
            if occupant.connected:
                return
            if not self.started:
                self.seats[seat] = None
            else:
                occupant.since = self.clock()
            self._changed()

    def start(self, seat: int) -> None:
        """A seated player starts play: the empty seats become computer players."""
        with self.changed:
            if self.seats[seat] is None:
                raise TableRefused("only a seated player can start play")
            if not self.started:
                self.started = True
                self._deal()

    # --- play -----------------------------------------------------------------------------------

    def play(self, seat: int, card: str) -> tuple[bool, str | None]:
        """The seed's message for the player at `seat`; the refusal, in the ruleset's words, is
        kept for that seat alone."""
        with self.changed:
            if self.game is None or self.game.finished:
                return self._refuse(seat, "no hand is being played")
            player = PLAYERS[seat]
            accepted, refusal = self.game.receive(player, f"play_card - {card}")
            if not accepted:
                return self._refuse(seat, refusal)
            self.refusals.pop(seat, None)
            self._card_played()
            return True, None

    def forget_refusal(self, seat: int) -> None:
        """The seat has read its refusal."""
        with self.changed:
            if self.refusals.pop(seat, None) is not None:
                self._changed()

    def next_hand(self, seat: int) -> None:
        """A seated player goes on to the next hand once this one is over."""
        with self.changed:
            if self.started and self.game is not None and self.game.finished and self.seats[seat] is not None:
                self._deal()

    def dealer_step(self) -> bool:
        """What the table does by itself now: a computer seat's card (an empty seat, a seat held past
        its grace, a player who let TURN_SECONDS pass); True if it did something."""
        with self.changed:
            if not self.started or self.game is None or self.game.finished:
                return False
            now = self.clock()
            seat = seat_of(self.game.to_play)
            if now < self.next_move_at or not self._played_by_computer(seat, now):
                return False
            player = PLAYERS[seat]
            card = card_chosen(self.computers[player], seed_view(self.game, player), self.game.hand(player))
            accepted, refusal = self.game.receive(player, f"play_card - {card}")
            if not accepted:
                raise RuntimeError(f"the {self.level} player chose a card the rules refuse: {refusal}")
            self._card_played()
            return True

    def seconds_to_next_event(self) -> float:
        """How long the dealer may sleep before its next move may be due (a change wakes it sooner)."""
        with self.changed:
            if not self.started or self.game is None or self.game.finished:
                return 1.0
            occupant = self.seats[seat_of(self.game.to_play)]
            if occupant is None:
                due = self.next_move_at
            elif not occupant.connected:
                due = max(occupant.since + GRACE_SECONDS, self.next_move_at)
            else:
                due = max(self.turn_began + TURN_SECONDS, self.next_move_at)
            return max(0.05, due - self.clock())

    def view(self, seat: int | None) -> SeatView:
        """What `seat` may see (None: a spectator, who sees no hand)."""
        with self.changed:
            game, now = self.game, self.clock()
            legal = ()
            if game is None:
                hand, trick, taken, to_play, finished, winners = (), (), (0,) * SEATS, None, False, ()
                last_trick, last_winner = (), None
            else:
                hand = tuple(game.hand(PLAYERS[seat])) if seat is not None else ()
                trick = tuple((seat_of(player), card) for player, card in game.trick)
                scores = game.scores()
                taken = tuple(scores[player] for player in PLAYERS)
                finished = game.finished
                to_play = None if finished else seat_of(game.to_play)
                if seat is not None and to_play == seat:
                    legal = tuple(game.legal_cards(PLAYERS[seat]))
                winners = tuple(seat_of(player) for player in game.winners()) if finished else ()
                if game.tricks:
                    cards, winner = game.tricks[-1]
                    last_trick, last_winner = tuple((seat_of(player), card) for player, card in cards), seat_of(winner)
                else:
                    last_trick, last_winner = (), None
            warning = None
            if seat is not None and to_play == seat and self.seats[seat] is not None:
                left = self.turn_began + TURN_SECONDS - now
                if left <= TURN_SECONDS - WARN_SECONDS:
                    warning = f"Play within {max(0, round(left))} s or a computer plays for you"
            return SeatView(
                seat=seat, names=tuple(occupant.name if occupant else COMPUTER for occupant in self.seats),
                humans=tuple(occupant is not None for occupant in self.seats),
                connected=tuple(bool(occupant and occupant.connected) for occupant in self.seats),
                started=self.started, hand_number=self.hand_number, hand=hand, legal=legal, trick=trick, last_trick=last_trick,
                last_winner=last_winner, taken=taken, hands_won=tuple(self.hands_won), to_play=to_play,
                finished=finished, winners=winners, refusal=self.refusals.get(seat) if seat is not None else None,
                warning=warning, version=self.version)

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self._changed()

    # --- inside the lock ------------------------------------------------------------------------

    def _played_by_computer(self, seat: int, now: float) -> bool:
        occupant = self.seats[seat]
        if occupant is None:
            return True
        if not occupant.connected:
            return now >= occupant.since + GRACE_SECONDS
        return now >= self.turn_began + TURN_SECONDS

    def _deal(self) -> None:
        self.game = Spades(shuffled_deck(self.rng))
        self.hand_number += 1
        self.refusals.clear()
        self.turn_began = self.clock()
        self.next_move_at = self.turn_began + COMPUTER_SECONDS
        self._changed()

    def _card_played(self) -> None:
        now = self.clock()
        if self.game.finished:
            for player in self.game.winners():
                self.hands_won[seat_of(player)] += 1
        self.turn_began = now
        self.next_move_at = now + (TRICK_SECONDS if not self.game.trick else COMPUTER_SECONDS)
        self._changed()

    def _refuse(self, seat: int, refusal: str) -> tuple[bool, str]:
        self.refusals[seat] = refusal
        self._changed()
        return False, refusal

    def _changed(self) -> None:
        self.version += 1
        self.changed.notify_all()


@dataclass
class Tables:
    """The tables of a server, by code; each has its dealer thread, which ends when the table is
    left by everyone."""

    tables: dict[str, SpadesTable] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def table(self, code: str, **options) -> SpadesTable:
        """Table `code`, made (with `options`) on the first join; later joins take it as it is."""
        with self.lock:
            table = self.tables.get(code)
            if table is None or table.closed:
                table = self.tables[code] = SpadesTable(code, **options)
                threading.Thread(target=dealer, args=(table, self), name=f"spades table {code}", daemon=True).start()
            return table

    def leave(self, table: SpadesTable) -> None:
        """Close `table` if nobody is at it: no seat taken before play, no seat connected or held
        within its grace after."""
        with self.lock, table.changed:
            now = table.clock()
            if not any(occupant and (occupant.connected or now <= occupant.since + GRACE_SECONDS)
                       for occupant in table.seats):
                table.closed = True
                table.changed.notify_all()
                if self.tables.get(table.code) is table:
                    del self.tables[table.code]


def dealer(table: SpadesTable, tables: Tables | None = None) -> None:
    """The table's own moves, until it is closed: by `tables` once nobody has been at it for
    GRACE_SECONDS."""
    while True:
        with table.changed:
            if table.closed:
                return
            table.changed.wait(timeout=min(1.0, table.seconds_to_next_event()))
            if table.closed:
                return
            deserted = all(occupant is None or (not occupant.connected and table.clock() > occupant.since + GRACE_SECONDS)
                           for occupant in table.seats)
        if deserted and tables is not None:
            tables.leave(table)
        else:
            table.dealer_step()
