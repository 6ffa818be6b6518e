"""A Spades table for four across the network: the seed's backend, with seats.

One `SpadesTable` per table code is the referee: the hand in play, a `rules.SpadesState` (the
game-state API over the seed's `Spades` hand or the full game's), is its only state of play, and a
seat's move ("td", "bid 4", "nil") is made by that state for the player that seat is, refused
(`MoveRefused`) in the seed's words. Seats fill as people join; the seats still empty when play
starts are computer players. A seat whose player drops is held (its hand shown to nobody) for
GRACE_SECONDS, then played by a computer until its player comes back with the seat's secret; a
player who does not move for TURN_SECONDS is warned at WARN_SECONDS and then played for.

The table plays its house rules (`house_rules.HouseRules`, chosen when it is made and kept with
it): the seed's game, or the full game with its bids, to 500 or as the rules say; a person's time
to move is one of them. `view` is all a seat may see: its own hand, the trick on the table, the tricks taken and the
bids, whose turn it is, the names at the table — never another hand. The table moves by itself
(the computer seats' moves, the players' clocks) when its `dealer_step` is called: by a `dealer`
thread of its own on a server (the host's tables), or, at home, by the one Spectrum seat's screen on
the machine's own clock (`seat_play.play_at(..., deals=True)`), where nobody's time to move runs
out. With a `TableStore` the table is kept after every move (its deal, the moves so far, the seats
by owner, the standing), and taken up from there when it is opened again. With a `thinker` (the
host's worker processes) a searching level's move is worked out there, the table not held meanwhile.
"""

from __future__ import annotations

import math
import pickle
import random
import threading
import time
from collections.abc import Callable
from typing import NoReturn
from dataclasses import dataclass

from ..cards import NAMES
from ..program import Listing
from ..protocol import MoveRefused
from ..store import TableStore
from .house_rules import WARN_BEFORE, HouseRules, RulesRefused
from .players import LEVELS, make_player
from .rules import PLAY_CARD, PLAYERS, Spades, SpadesState, dealing_rng, message_words, seat_of, shuffled_deck
from .variants import variant

GRACE_SECONDS = 60.0  # a dropped seat is held this long before a computer plays it
TURN_SECONDS = 60.0  # a player who has not moved this long is played for (the usual house rule)
WARN_SECONDS = TURN_SECONDS - WARN_BEFORE  # ... and warned from this long
COMPUTER_SECONDS = 0.4  # a computer seat's card follows the one before by this much, to be followed
TRICK_SECONDS = 1.2  # a finished trick stays on the table this long
NAME_LENGTH = 10
SEATS = 4
SAVED_FORMAT = 3  # the house rules kept too, and whether the table is private
MOVES_FORMAT = 2  # a hand's moves as moves ("td", "bid 4", "nil"); the usual rules: still taken up
FIRST_FORMAT = 1  # ... as the seed's messages ("play_card - td", "bid 4"): still taken up
AS_THE_RULES_SAY = "as the rules say"  # a table's time to move: its house rules' turn_seconds
DECK_NAMES = sorted(NAMES)
OWNER_LENGTH = 64  # the hash of a seat's secret, as hex
SEARCHING_LEVELS = frozenset({"mcts", "solver"})  # their moves are searches: worked out by the thinker, if any


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
    trick_shown_until: float | None  # the trick just taken stays on the table until then (or the next card)
    taken: tuple[int, ...]  # tricks per seat this hand
    hands_won: tuple[int, ...]  # the seed's game: hands won per seat
    to_play: int | None  # None between hands or before play
    finished: bool  # the hand is over
    winners: tuple[int, ...]
    moves: int  # the moves (bids and cards) made this hand
    last_mover: int | None  # the seat that made the last of them
    refusal: str | None  # the last refusal of this seat's move, for it alone
    warning: str | None  # to this seat: its time to move is running out
    version: int
    full: bool = False  # the full game; then:
    bidding: bool = False
    bids: tuple[int | None, ...] = (None,) * SEATS  # per seat (0 = nil), said aloud as made
    blind: tuple[bool, ...] = (False,) * SEATS  # per seat: its nil was bid blind
    may_bid_blind_nil: bool = False  # this seat, before its bid, may bid nil without seeing its cards
    highest_bid: int = 0  # the most this seat may bid, at its turn to bid
    team_scores: tuple[int, int] = (0, 0)  # seats 0 and 2, seats 1 and 3
    team_bags: tuple[int, int] = (0, 0)
    hand_points: tuple[int, int] | None = None  # each partnership's points for the hand just over
    game_winner: int | None = None  # the partnership that won the game (0: seats 0 and 2)
    notice: str | None = None  # for everyone: the table's own trouble (it can't be kept, say)
    turn_left: int | None = None  # whole seconds left to the person to play before a computer plays for them
    again: tuple[bool, ...] = (False,) * SEATS  # per seat: said "again" once the game was over
    between_games: bool = False  # a game is over and the next not yet dealt
    history: tuple = ()  # the full game's hands so far: (bids, blind, taken, points), each per seat or side
    rules: HouseRules = HouseRules()  # the table's house rules

    @property
    def trick_taken(self) -> bool:
        """The trick just taken is still shown: `last_trick`, `last_winner`."""
        return self.trick_shown_until is not None


COMPUTER = "computer"


def clean_name(name: str) -> str:
    """A name as the table shows it: printable ASCII, at most NAME_LENGTH characters; TableRefused
    for one with nothing left to show."""
    shown = "".join(char for char in name if " " <= char <= "~").strip()[:NAME_LENGTH].strip()
    if not any(char.isalnum() for char in shown):
        raise TableRefused("a name needs a letter or a digit")
    return shown


class SpadesTable:
    """The referee of one table: seats, the hand in play (the seed's game or the full game), and the
    players' clocks.

    Every method takes the table's lock; `changed` is notified after each change (`version` counts
    them), which is what a seat's screen waits on, and each function given to `listen` is called
    (under the lock: it must not wait)."""

    def __init__(
        self,
        code: str,
        *,
        level: str = "rules",
        seed: int | None = None,
        full: bool = False,
        blind_nil: bool = False,
        clock: Callable[[], float] = time.monotonic,
        store: TableStore | None = None,
        turn_seconds: float | None | str = AS_THE_RULES_SAY,
        thinker=None,
        rules: HouseRules | None = None,
        private: bool = False,
    ):
        if level not in LEVELS:
            raise TableRefused(f"no level {level!r}: choose from {', '.join(LEVELS)}")
        if rules is None:
            if blind_nil and not full:
                raise TableRefused("blind nil is a bid of the full game")
            try:
                rules = HouseRules(no_bids=not full, blind_nil=blind_nil)
            except RulesRefused as refused:
                raise TableRefused(str(refused)) from None
        self.rules, self.private = rules, bool(private)
        self.code, self.level, self.full, self.clock, self.store = code, level, rules.full, clock, store
        self.thinker = thinker  # where a search is worked out: `submit(work, *arguments)` gives a Future
        # a person's time to move (None: theirs to take, as at home)
        self.turn_seconds: float | None = (
            float(rules.turn_seconds)
            if turn_seconds == AS_THE_RULES_SAY
            else None
            if turn_seconds is None
            else float(turn_seconds)
        )
        self.grace_seconds = float(rules.away_seconds)  # a dropped seat is held this long (GRACE_SECONDS usually)
        self.changed = threading.Condition()
        self.version = 0
        self._listeners: list[Callable[[], None]] = []
        self.seats: list[Occupant | None] = [None] * SEATS
        self.rng = dealing_rng(seed)
        self.variant = variant(rules, self.rng, level)
        self.computers = {player: make_player(level, random.Random(self.rng.random())) for player in PLAYERS}
        self.started = False
        self.state: SpadesState | None = None  # the hand being played, dealt by the variant
        self.deck: list[str] = []  # ... the deal it was dealt from
        self.hand_number = 0
        self.refusals: dict[int, str] = {}
        self.turn_began = 0.0  # when the seat to play was given its turn
        self.next_move_at = 0.0  # the computer's move (or the next hand) not before this
        self.notice: str | None = None  # the table's own trouble, said to everyone
        self.watchers = 0  # screens that watch, seated nowhere
        self.again: set[int] = set()  # the seats whose people said "again" once a game was over
        self.closed = False

    @property
    def game(self) -> Spades | None:
        """The rules of the hand being played: the variant's `Spades` or `FullSpades`."""
        return None if self.state is None else self.state.game

    @property
    def moves(self) -> list[tuple[int, str]]:
        """Every move accepted this hand: (seat, move as made)."""
        return [] if self.state is None else self.state.history

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
            if self.started and not self.between_games:
                return None
            shown = clean_name(name)
            for seat, occupant in enumerate(self.seats):
                if occupant is None or self._offered(occupant):
                    self.seats[seat] = Occupant(shown, owner, self.clock())
                    self._kept()
                    return seat
            return None

    def _offered(self, occupant: Occupant) -> bool:
        """Between games, a seat whose person has been gone past their grace is offered to the room."""
        return self.between_games and not occupant.connected and self.clock() > occupant.since + self.grace_seconds

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
                self._kept()
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

    def play(self, seat: int, card: str) -> None:
        """`card` played by the player at `seat` (MoveRefused as `move`)."""
        self.move(seat, card)

    def bid(self, seat: int, amount: str) -> None:
        """The full game's bid for the player at `seat` ("4", "0" or "nil", "blind nil")."""
        self.move(seat, f"bid {amount}")

    def move(self, seat: int, move: str) -> None:
        """`move` ("td", "bid 4", "nil", "blind nil") by the player at `seat`; MoveRefused, in the
        ruleset's words, when the rules do not take it (the refusal is then kept for that seat's
        screen alone, and nothing else changes)."""
        with self.changed:
            if self.state is None or self.state.outcome() is not None:
                self._refuse(seat, "no hand is being played")
            try:
                self.state.apply(move, player=seat)
            except MoveRefused as refused:
                self._refuse(seat, refused.reason)
            self.refusals.pop(seat, None)
            self._moved()

    def forget_refusal(self, seat: int) -> None:
        """The seat has read its refusal."""
        with self.changed:
            if self.refusals.pop(seat, None) is not None:
                self._changed()

    def next_hand(self, seat: int) -> None:
        """A seated player goes on to the next hand once this one is over (its last trick no longer
        on show: no screen is left showing the cards of a hand gone by). Once a game is over it says
        "again": the next game is dealt when every person seated and connected has said so, at the
        same seats and by the same rules, the watchers watching on."""
        with self.changed:
            if (
                self.started
                and self.game is not None
                and self.game.finished
                and self.seats[seat] is not None
                and not self._trick_on_show(self.clock())
            ):
                if self.between_games:
                    self.again.add(seat)
                    if not self._waiting_for_again():
                        self._deal()
                    else:
                        self._changed()
                else:
                    self._deal()

    @property
    def between_games(self) -> bool:
        """A game of the full game is over, and the next not yet dealt: a newcomer may sit in a seat
        that is free."""
        return self.full and self.game is not None and self.game.finished and self.variant.match.over

    def _waiting_for_again(self) -> list[int]:
        """The seats of the people connected who have not yet said "again"."""
        return [
            seat
            for seat, occupant in enumerate(self.seats)
            if occupant is not None and occupant.connected and seat not in self.again
        ]

    def hurry(self) -> None:
        """The table's own next move, or the end of a trick's show, is due now (a lone player at
        home pressed a key to go on)."""
        with self.changed:
            if self.next_move_at > self.clock():
                self.next_move_at = self.clock()
                self._changed()

    def dealer_step(self) -> bool:
        """What the table does by itself now: a computer seat's move (an empty seat, a seat held past
        its grace, a player who let TURN_SECONDS pass); True if it did something. A searching
        level's move worked out by the `thinker` is waited for without holding the table, and made
        only if the table is still where it was asked."""
        with self.changed:
            seat = self._computer_to_move()
            if seat is None:
                return False
            player = PLAYERS[seat]
            if self.thinker is None or self.level not in SEARCHING_LEVELS:
                return self._computer_moves(seat, self.variant.computer_move(self.computers[player], self.game, player))
            where = (self.hand_number, len(self.moves))
            # copies of everything the search reads are made now, while the table is held
            answer = self.thinker.submit(
                worked_out_move, pickle.dumps((self.variant, self.computers[player], self.game, player))
            )
        move, computer, dealing = answer.result()
        with self.changed:
            if (self.hand_number, len(self.moves)) != where or self._computer_to_move() != seat:
                return False
            self.computers[player] = computer
            if dealing is not None:
                self.rng.setstate(dealing)
            return self._computer_moves(seat, move)

    def due(self) -> float | None:
        """When, on the table's clock, its next move of its own is due (a computer seat's, or one
        made for a person); None while it waits for a person with time to take, or for nothing."""
        with self.changed:
            if not self.started or self.game is None or self.game.finished:
                return None
            occupant = self.seats[seat_of(self.game.to_play)]
            if occupant is None:
                return self.next_move_at
            if not occupant.connected:
                return max(occupant.since + self.grace_seconds, self.next_move_at)
            if self.turn_seconds is None:
                return None
            return max(self.turn_began + self.turn_seconds, self.next_move_at)

    def seconds_to_next_event(self) -> float:
        """How long the dealer may sleep before its next move may be due (a change wakes it sooner)."""
        due = self.due()
        return 1.0 if due is None else max(0.05, due - self.clock())

    def view(self, seat: int | None) -> SeatView:
        """What `seat` may see (None: a spectator, who sees no hand)."""
        with self.changed:
            game, now = self.game, self.clock()
            legal = ()
            if game is None:
                hand, trick, taken, to_play, finished, winners = (), (), (0,) * SEATS, None, False, ()
                last_trick, last_winner, trick_shown_until = (), None, None
            else:
                hand = tuple(game.hand(PLAYERS[seat])) if seat is not None else ()
                trick = tuple((seat_of(player), card) for player, card in game.trick)
                scores = game.scores()
                taken = tuple(scores[player] for player in PLAYERS)
                finished = game.finished
                to_play = None if finished else seat_of(game.to_play)
                if seat is not None and to_play == seat:
                    legal = tuple(game.legal_cards(PLAYERS[seat]))
                winners = self.state.outcome().winners if finished else ()
                if game.tricks:
                    cards, winner = game.tricks[-1]
                    last_trick, last_winner = tuple((seat_of(player), card) for player, card in cards), seat_of(winner)
                else:
                    last_trick, last_winner = (), None
                trick_shown_until = self.next_move_at if self._trick_on_show(now) else None
            warning, turn_left = None, None
            if (
                to_play is not None
                and self.seats[to_play] is not None
                and self.seats[to_play].connected
                and self.turn_seconds is not None
            ):
                turn_left = max(0, math.ceil(self.turn_began + self.turn_seconds - now))
            if seat is not None and to_play == seat and turn_left is not None and turn_left <= WARN_BEFORE:
                warning = f"Play within {round(turn_left)} s or a computer plays for you"
            return SeatView(
                seat=seat,
                names=tuple(occupant.name if occupant else COMPUTER for occupant in self.seats),
                humans=tuple(occupant is not None for occupant in self.seats),
                connected=tuple(bool(occupant and occupant.connected) for occupant in self.seats),
                started=self.started,
                hand_number=self.hand_number,
                hand=hand,
                legal=legal,
                trick=trick,
                last_trick=last_trick,
                last_winner=last_winner,
                trick_shown_until=trick_shown_until,
                taken=taken,
                hands_won=tuple(getattr(self.variant, "hands_won", (0,) * SEATS)),
                to_play=to_play,
                finished=finished,
                winners=winners,
                moves=len(self.moves),
                last_mover=self.moves[-1][0] if self.moves else None,
                refusal=self.refusals.get(seat) if seat is not None else None,
                warning=warning,
                version=self.version,
                notice=self.notice,
                turn_left=turn_left,
                rules=self.rules,
                again=tuple(at in self.again for at in range(SEATS)),
                between_games=self.between_games,
                **(self._full_view(seat) if self.full else {}),
            )

    def cards_open_to(self, seat: int | None) -> set[str]:
        """The cards `seat` may be shown now (None: a spectator): its own hand and the cards
        played this hand; anything else on its screen would be another hand."""
        with self.changed:
            game = self.game
            played = (
                set()
                if game is None
                else {card for cards, _ in game.tricks for _, card in cards} | {card for _, card in game.trick}
            )
            own = set(self.game.hand(PLAYERS[seat])) if self.game is not None and seat is not None else set()
            return played | own

    def _full_view(self, seat: int | None) -> dict:
        """The full game's part of a seat's view: bids, partnerships' scores and bags, the result."""
        game, match = self.game, self.variant.match
        bidding = game is not None and game.bidding
        finished = game is not None and game.finished
        return dict(
            full=True,
            bidding=bidding,
            bids=tuple(game.bids[player] for player in PLAYERS) if game is not None else (None,) * SEATS,
            blind=tuple(game is not None and player in game.blind for player in PLAYERS),
            may_bid_blind_nil=bidding
            and seat is not None
            and game.bids[PLAYERS[seat]] is None
            and game.may_bid_blind_nil(PLAYERS[seat]),
            highest_bid=game.highest_bid(PLAYERS[seat])
            if bidding and seat is not None and game.to_play == PLAYERS[seat]
            else 0,
            team_scores=tuple(match.scores),
            team_bags=tuple(match.bags),
            hand_points=tuple(match.history[-1]["points"]) if finished else None,
            history=hands_gone_by(match.history),
            game_winner=match.winner if finished else None,
        )

    def listing(self) -> Listing | None:
        """How a list of open tables shows this one (None: it is private): its rules, the people
        seated, the score, and whether a newcomer may sit (before play, or between games)."""
        with self.changed:
            if self.private:
                return None
            seats = tuple(
                occupant.name for occupant in self.seats if occupant is not None and not self._offered(occupant)
            )
            free = len(seats) < SEATS and (not self.started or self.between_games)
            if not self.started:
                score = "not started"
            elif self.full:
                us, them = self.variant.match.scores
                score = f"hand {self.hand_number}: {us} to {them}" + (" (game over)" if self.between_games else "")
            else:
                score = f"hand {self.hand_number}"
            return Listing(self.code, self.rules.summary(), seats, SEATS, score, free)

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self._changed()

    def watch(self) -> None:
        """A screen watches the table from now on (seated nowhere): the table plays on for it."""
        with self.changed:
            self.watchers += 1

    def stop_watching(self) -> None:
        with self.changed:
            self.watchers = max(0, self.watchers - 1)

    def deserted(self) -> bool:
        """Nobody has been at the table for GRACE_SECONDS: every seat empty or left that long ago,
        and nobody watches."""
        with self.changed:
            now = self.clock()
            return not self.watchers and all(
                occupant is None or (not occupant.connected and now > occupant.since + self.grace_seconds)
                for occupant in self.seats
            )

    def left_by_everyone(self) -> bool:
        """No seat taken before play, none connected or held within its grace after, and nobody
        watching."""
        with self.changed:
            now = self.clock()
            return not self.watchers and not any(
                occupant and (occupant.connected or now <= occupant.since + self.grace_seconds)
                for occupant in self.seats
            )

    def seat_of_owner(self, owner: str) -> int | None:
        """The seat `owner` has at this table, if any."""
        with self.changed:
            return next(
                (seat for seat, occupant in enumerate(self.seats) if occupant is not None and occupant.owner == owner),
                None,
            )

    # --- kept, and taken up again -----------------------------------------------------------------

    def saved(self) -> dict:
        """The table as plain data: enough to take it up where it is (its deal and the moves since,
        not the hands themselves)."""
        with self.changed:
            version, internal, gauss = self.rng.getstate()
            return {
                "format": SAVED_FORMAT,
                "code": self.code,
                "level": self.level,
                "full": self.full,
                "rules": self.rules.saved(),
                "private": self.private,
                "dealing": [version, list(internal), gauss],
                "started": self.started,
                "hand_number": self.hand_number,
                "seats": [
                    None if occupant is None else {"name": occupant.name, "owner": occupant.owner}
                    for occupant in self.seats
                ],
                "standing": self.variant.saved(),
                "hand": None
                if self.state is None
                else {"deck": self.deck, "moves": [list(move) for move in self.moves]},
            }

    @classmethod
    def restored(
        cls,
        data: dict,
        *,
        code: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        store: TableStore | None = None,
        level: str | None = None,
        blind_nil: bool | None = None,
        turn_seconds: float | None | str = AS_THE_RULES_SAY,
        thinker=None,
    ) -> "SpadesTable":
        """The table `saved` kept, everyone at it away (a seat held for GRACE_SECONDS from now), its
        computers of `level` from now on and blind nil as `blind_nil` says (None: as kept), under the
        house rules kept with it (a table kept before them: the usual ones); ValueError (or KeyError,
        TypeError, IndexError) for data that is not a table's."""
        if (
            data["format"] not in (FIRST_FORMAT, MOVES_FORMAT, SAVED_FORMAT)
            or not isinstance(data["code"], str)
            or type(data["full"]) is not bool
        ):
            raise ValueError("not a table kept by this version")
        if code is not None and data["code"] != code:
            raise ValueError(f"not table {code}")
        if data["format"] == SAVED_FORMAT:
            rules, private = HouseRules.from_saved(data["rules"]), data["private"]
            if rules.full != data["full"] or type(private) is not bool:
                raise ValueError("not the house rules of a table")
        else:
            rules, private = HouseRules(no_bids=not data["full"]), False
        table = cls(
            data["code"],
            level=level or data["level"],
            clock=clock,
            store=store,
            rules=rules,
            private=private,
            turn_seconds=turn_seconds,
            thinker=thinker,
        )
        version, internal, gauss = data["dealing"]
        try:
            table.rng.setstate((version, tuple(internal), gauss))
        except (OverflowError, TypeError) as wrong:
            raise ValueError("not the dealing numbers of a table") from wrong
        table.variant = variant(rules, table.rng, table.level, data["standing"], blind_nil)
        table.rules = getattr(table.variant, "rules", rules)
        table.started = data["started"] is True
        table.hand_number = data["hand_number"]
        if type(table.hand_number) is not int or not isinstance(data["seats"], list) or len(data["seats"]) != SEATS:
            raise ValueError("not the seats of a table")
        for seat, kept in enumerate(data["seats"]):
            if kept is not None and table.started:
                name, owner = kept["name"], kept["owner"]
                if not (isinstance(owner, str) and 0 < len(owner) <= OWNER_LENGTH and clean_name(name) == name):
                    raise ValueError("not a seat of a table")
                table.seats[seat] = Occupant(name, owner, table.clock(), terminals=0)
        hand = data["hand"]
        if hand is not None:
            deck, moves = hand["deck"], hand["moves"]
            if not isinstance(deck, list) or sorted(map(str, deck)) != DECK_NAMES:
                raise ValueError("not a deal of the 52 cards")
            if not isinstance(moves, list) or not all(
                isinstance(move, list)
                and len(move) == 2
                and type(move[0]) is int
                and 0 <= move[0] < SEATS
                and isinstance(move[1], str)
                for move in moves
            ):
                raise ValueError("not the moves of a hand")
            table.deck = deck
            table.state = table.variant.redeal(table.deck)
            for seat, move in moves:
                try:
                    table.state.apply(move_of_message(move) if data["format"] == FIRST_FORMAT else move, player=seat)
                except MoveRefused as refused:
                    raise ValueError(f"a kept move the rules refuse: {refused.reason}") from None
        table.turn_began = table.next_move_at = table.clock()
        return table

    # --- inside the lock ------------------------------------------------------------------------

    def _played_by_computer(self, seat: int, now: float) -> bool:
        occupant = self.seats[seat]
        if occupant is None:
            return True
        if not occupant.connected:
            return now >= occupant.since + self.grace_seconds
        return self.turn_seconds is not None and now >= self.turn_began + self.turn_seconds

    def _computer_to_move(self) -> int | None:
        """The seat a computer plays now, if any."""
        if not self.started or self.game is None or self.game.finished:
            return None
        now, seat = self.clock(), seat_of(self.game.to_play)
        return seat if now >= self.next_move_at and self._played_by_computer(seat, now) else None

    def _computer_moves(self, seat: int, move: str) -> bool:
        try:
            self.state.apply(move, player=seat)
        except MoveRefused as refused:
            raise RuntimeError(f"the {self.level} player made a move the rules refuse: {refused.reason}") from refused
        self._moved()
        return True

    def _trick_taken(self) -> bool:
        """The last move took a trick: a trick was taken and none begun since."""
        return bool(self.game.tricks) and not self.game.trick

    def _trick_on_show(self, now: float) -> bool:
        """The last move took a trick, and its TRICK_SECONDS are not yet over."""
        return self._trick_taken() and now < self.next_move_at

    def _deal(self) -> None:
        self.again.clear()
        self.deck = shuffled_deck(self.rng)
        self.state = self.variant.deal(self.deck)
        self.hand_number += 1
        self.refusals.clear()
        self.turn_began = self.clock()
        self.next_move_at = self.turn_began + COMPUTER_SECONDS
        self._kept()

    def _moved(self) -> None:
        now = self.clock()
        if self.state.outcome() is not None:
            self.variant.hand_over(self.state)
        self.turn_began = now
        self.next_move_at = now + (TRICK_SECONDS if self._trick_taken() else COMPUTER_SECONDS)
        self._kept()

    def _refuse(self, seat: int, refusal: str) -> NoReturn:
        self.refusals[seat] = refusal
        self._changed()
        raise MoveRefused(refusal)

    def _kept(self) -> None:
        """A change worth keeping: saved (when the table has a store), then told."""
        if self.store is not None:
            try:
                self.store.save(self.code, self.saved())
            except OSError as error:
                self.notice = f"Table NOT kept: {error.strerror or error}"
            else:
                self.notice = None
        self._changed()

    def listen(self, listener: Callable[[], None]) -> None:
        """Call `listener` (from whichever thread changes the table) at every change from now on."""
        with self.changed:
            self._listeners.append(listener)

    def stop_listening(self, listener: Callable[[], None]) -> None:
        with self.changed:
            self._listeners.remove(listener)

    def _changed(self) -> None:
        self.version += 1
        self.changed.notify_all()
        for listener in self._listeners:
            listener()


def hands_gone_by(history: list[dict]) -> tuple:
    """A match's hands as a seat's view gives them: (bids, blind, taken) per seat and the points
    per side; a hand kept without its bids and tricks (by an earlier zxcards) with None for them."""
    hands = []
    for hand in history:
        bids, taken, blind = hand.get("bids"), hand.get("taken"), hand.get("blind", [])
        whole = all(
            isinstance(part, dict) and all(type(part.get(player)) is int for player in PLAYERS)
            for part in (bids, taken)
        ) and isinstance(blind, list)
        hands.append(
            (
                tuple(bids[player] for player in PLAYERS) if whole else None,
                tuple(player in blind for player in PLAYERS) if whole else None,
                tuple(taken[player] for player in PLAYERS) if whole else None,
                tuple(hand["points"]),
            )
        )
    return tuple(hands)


def move_of_message(message: str) -> str:
    """A move kept by the first format, a message of the seed's ("play_card - td") or the full
    game's ("bid 4", "bid nil"), as a move: the card's name, or the bid as the rules take it."""
    words = message_words(message)
    return words[2] if len(words) == 3 and words[0] == PLAY_CARD else message


def worked_out_move(copies: bytes) -> tuple[str, object, tuple | None]:
    """In a worker: a computer player's move from pickled copies of (variant, computer, game,
    player), with the player and the table's dealing numbers (the strongest level's bids draw on
    them) as the move left them."""
    variant, computer, game, player = pickle.loads(copies)
    move = variant.computer_move(computer, game, player)
    rng = getattr(variant, "rng", None)
    return move, computer, None if rng is None else rng.getstate()
