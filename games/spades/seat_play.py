"""A seat at a Spades table (`seats.SpadesTable`) on that player's own Spectrum: at home the one seat
among three computers (`zxcards spades`), on a server one of up to four people's. A table's first
screen lists the seats as they fill and ENTER starts play; then the Spades screen from this seat —
its hand at the foot, the others round the table by name; in the full game the bids by the names,
the partnerships' scores on top, and a bid typed as digits.

Keys: CAPS 5 / CAPS 8 (the arrow keys) choose a card and ENTER plays it, or type the card (`td`);
L shows the last trick, P (the full game) the points of the hands gone by; BREAK leaves. Another seat's move is heard (a BEEP), a refused one buzzes.

The table is the referee: this screen only shows `table.view(seat)` and sends this seat's moves. At
home it also keeps the table moving (`deals`): the computers' moves are made here, on the machine's
own clock, so that a game is the same game at any speed, headless or in a window.
"""

import enum
import math

from spectrum import Spectrum
from spectrum.colours import BLACK, BLUE, CYAN, RED, WHITE, YELLOW
from spectrum.pointing import Targets
from spectrum.hardware import FRAME_T_STATES, T_STATES_PER_SECOND
from spectrum.rom import CURSOR_LEFT, CURSOR_RIGHT, DELETE, ENTER  # CAPS 5, CAPS 8 (the arrows), CAPS 0

from ..cards import RANK_LETTERS, SUIT_LETTERS
from ..drawing import BAIZE, wrapped
from ..protocol import MoveRefused
from .full_rules import BLIND_NIL, TEAM_NAMES, bid_words
from .house_rules import HouseRules
from .rules import PLAYERS, TRICKS_IN_A_HAND
from . import targets
from .screen import NAMES, RESULT_WIDTH, Scene, centred, draw, draw_status, hand_order, only_the_status_differs, prepare
from .seats import SEATS, SeatView, SpadesTable, TableRefused, clean_name

CLOCK_FRAMES = 25  # how often the screen looks at the clock (a warning counts down by the second)
FRAMES_PER_SECOND = T_STATES_PER_SECOND / FRAME_T_STATES
HELP = "CAPS5/8+ENTER or type td  L:last"
FULL_HELP = "CAPS5/8 ENTER/td L:last P:points"  # the full game: P shows the hands gone by
HISTORY_KEY = "p"  # not a rank or a suit: a card typed out of turn ("3h") never opens it
AFTER_HAND_HELP = "L: the last trick again"
AFTER_FULL_HAND_HELP = "L: last trick  P: the points"
HISTORY_ROWS = 10  # the hands gone by shown at most (the latest)
HOW_TO_LEAVE = "BREAK (Esc) leaves"  # said whenever nothing else is
NO_BID_GAME = "No bids: most tricks wins"  # the reference rules' game (no bidding, no partners)
WATCHING = "Watching: no hand is shown"
# why a screen at a table watches rather than plays, or sits under another name than it gave
ASKED_TO_WATCH = "You watch, as you asked"
NO_SECRET = "No site data kept: watch only"  # a seat is kept by the browser's secret
PLAY_BEGUN = "Play had begun: you watch"
NO_SEAT_FREE = "All seats taken: you watch"
BID_HELP = "Type a bid, then ENTER (N: nil)"
NIL = "nil"  # typed with N
BID_DIGITS = 2
BLIND_NIL_QUESTION = [
    "You may bid BLIND NIL:",
    "no trick at all, for 200",
    "(lose 200 if you take one),",
    "bid before you see your cards.",
    "Bid blind nil? (Y/N)",
]
BEEP_SECONDS, BEEP_PITCH = 0.04, 12  # another seat's bid or card
REFUSAL_BEEP = (0.15, -10)
SEAT_WIDTH = 20  # a lobby's seat line ("1 Annamariax <- you"), then its partnership in a column
# Each seat's name at a table, the same for everyone at it (and a watcher): its compass point, the
# first seat's south (at home, yours: the others sit west, north and east of you, as they play)
COMPASS = ("SOUTH", "WEST", "NORTH", "EAST")


def tricks_label(count: int) -> str:
    return f"{count} trick" + ("" if count == 1 else "s")


def machine_clock(machine: Spectrum):
    """The machine's own time in seconds, for a table played at home: it passes as frames pass."""
    return lambda: machine.t_states / T_STATES_PER_SECOND


def frames_in(seconds: float) -> int:
    """The frames (one at least) until `seconds` from now have passed."""
    return max(1, math.ceil(seconds * FRAMES_PER_SECOND))


def shown_player(seat: int, at: int) -> str:
    """The screen's player for table seat `at`, seen from `seat` (who is always south, player_0)."""
    return PLAYERS[(at - seat) % SEATS]


def seat_name(view: SeatView, at: int) -> str:
    """What everyone at the table calls seat `at`: its person's name (with ? while they are away),
    or its compass point for a computer; YOU to its own screen."""
    if at == view.seat:
        return NAMES["player_0"]
    if view.humans[at]:
        return view.names[at].upper() + ("" if view.connected[at] else "?")
    return COMPASS[at]


def names_seen(view: SeatView, seat: int) -> dict[str, str]:
    """Who sits where, from `seat` (always south on its own screen): each seat's one name."""
    return {shown_player(seat, at): seat_name(view, at) for at in range(SEATS)}


def key_or_news(machine: Spectrum, table: SpadesTable, view: SeatView) -> int | None:
    """The code of the next key pressed (PAUSE 0's way: LAST_K when the interrupt flags a new key),
    or None as soon as the table changes, or the clock changes what this seat sees (a warning, the
    end of a trick's show)."""
    waited, most = 0, frames_until_the_clock_tells(table, view)
    while True:
        waited += machine.wait_frames_for_key(most - waited)
        code = machine.take_key()
        if code is not None:
            return code
        if table.version != view.version:
            return None
        if waited >= most:
            if table.view(view.seat) != view:
                return None
            waited, most = 0, frames_until_the_clock_tells(table, view)


def key_or_move(machine: Spectrum, table: SpadesTable, view: SeatView) -> None:
    """Until a key is pressed or the table changes (a panel over the table: the clock's counting
    down leaves it shown)."""
    while True:
        machine.wait_frames_for_key(CLOCK_FRAMES)
        if machine.take_key() is not None or table.version != view.version:
            return


def frames_until_the_clock_tells(table: SpadesTable, view: SeatView) -> int:
    """How long a screen may wait before the clock alone may change its view: a trick's show ends,
    or (every CLOCK_FRAMES) a warning counts down."""
    if view.trick_shown_until is None:
        return CLOCK_FRAMES
    return min(CLOCK_FRAMES, frames_in(view.trick_shown_until - table.clock()))


def table_moves(machine: Spectrum, table: SpadesTable, view: SeatView) -> bool:
    """At home, where this screen deals: while a trick taken is on show, or the table's own move (a
    computer's) is due, its time passes on this machine as PAUSE n passes it — a key ends the wait
    and is taken by it, and the table goes on at once — and then the move is made. False when the
    table waits for this seat."""
    until = view.trick_shown_until if view.trick_taken else table.due()
    if until is None:
        return False
    left = until - table.clock()
    if left > 0:
        frames, began = frames_in(left), machine.frame_count
        machine.pause(frames)
        if machine.frame_count - began < frames:
            table.hurry()
    if not view.trick_taken:
        table.dealer_step()
    return True


def rules_lines(table: SpadesTable) -> list[str]:
    """The table's house rules as its first screen says them, with the time to move when it runs."""
    lines = table.rules.lines()
    if table.turn_seconds is not None:
        lines.append(f"{round(table.turn_seconds)} s to move; seat held {round(table.grace_seconds)} s"[:30])
    return lines


def lobby(machine: Spectrum, table: SpadesTable, seat: int | None, why: str = "") -> None:
    """The seats as they fill, until play starts (ENTER, from any seated player), under the table's
    house rules; `why` this screen watches, or sits under another name than it gave."""
    while True:
        view = table.view(seat)
        if view.started:
            return
        machine.cls()
        machine.print_at(0, 0, centred(f"SPADES  table {table.code}"), ink=WHITE, paper=BLUE, bright=1)
        for row, line in enumerate(rules_lines(table)[:5], 2):
            machine.print_at(row, 1, line[:30], ink=YELLOW, paper=BAIZE)
        machine.print_at(8, 1, "The seats, as people join:", ink=CYAN, paper=BAIZE)
        for at in range(SEATS):
            who = view.names[at] if view.humans[at] else f"({table.level} computer)"
            mark = " <- you" if at == seat else ""
            partners = (TEAM_NAMES[0] if at % 2 == (seat or 0) % 2 else TEAM_NAMES[1]) if table.full else ""
            machine.print_at(9 + at, 3, f"{at + 1} {who}{mark}".ljust(SEAT_WIDTH) + partners, ink=WHITE, paper=BAIZE)
        machine.print_at(
            13,
            1,
            "Private: only by this link:" if table.private else "Others join with the same link:",
            ink=CYAN,
            paper=BAIZE,
        )
        machine.print_at(14, 2, f"/spades?table={table.code}"[:29], ink=WHITE, paper=BAIZE)
        machine.print_at(
            18, 1, "ENTER starts play" if seat is not None else WATCHING, ink=BLACK, paper=YELLOW, bright=1
        )
        machine.print_at(20, 1, HOW_TO_LEAVE, ink=WHITE, paper=BAIZE)
        if why:
            machine.print_at(16, 1, why, ink=YELLOW, paper=BAIZE)
        if view.notice:
            # the upper screen's last line (AT 22 is the lower screen's: 5 Out of screen); in full once play begins
            machine.print_at(21, 0, view.notice[:32], ink=RED, paper=WHITE, bright=1)
        machine.targets = targets.lobby() if seat is not None else Targets()
        code = key_or_news(machine, table, view)
        if code == ENTER and seat is not None:
            table.start(seat)


def scene_of(
    view: SeatView,
    seat: int,
    chosen: int | None,
    typed: str,
    note: str,
    *,
    blind_question: bool = False,
    hand_hidden: bool = False,
) -> Scene:
    """The Spades screen of `view`, seen from `seat`; `blind_question` asks whether to bid blind nil,
    the hand face down (`hand_hidden` keeps it so until the blind nil is bid)."""
    hand = hand_order(list(view.hand))
    bidding_now = view.bidding and view.seat is not None and view.to_play == view.seat
    names = names_seen(view, seat)
    scene = Scene(
        title=title_of(view),
        hand=hand,
        trick=[(shown_player(seat, at), card) for at, card in view.trick],
        labels={shown_player(seat, at): label_of(view, at) for at in range(SEATS)},
        to_play=None if view.to_play is None else shown_player(seat, view.to_play),
        chosen=chosen if view.to_play == view.seat and hand and not view.bidding else None,
        names=names,
        hand_hidden=blind_question or hand_hidden,
        help_line=(
            WATCHING
            if view.seat is None
            else (AFTER_FULL_HAND_HELP if view.full else AFTER_HAND_HELP)
            if view.finished
            else BID_HELP
            if bidding_now
            else FULL_HELP
            if view.full
            else HELP
        ),
        score_line=score_line_of(view, seat),
    )
    results = (full_results(view, seat) if view.full else seed_results(view, seat)) if view.finished else []
    if view.trick_taken:
        winner = names[shown_player(seat, view.last_winner)]
        scene.trick = [(shown_player(seat, at), card) for at, card in view.last_trick]
        scene.status = f"{winner} {'take' if view.last_winner == view.seat else 'takes'} the " + (
            "last trick" if view.finished else "trick"
        )
        scene.to_play = shown_player(seat, view.last_winner)
        if view.finished:
            scene.message, scene.message_ink, scene.help_line = results[0], YELLOW, ""
            return scene
    scene.results = results + (wrapped(view.notice, RESULT_WIDTH) if view.notice and results else [])
    if view.turn_left is not None and view.to_play is not None and not scene.status:  # a person's clock
        doing = "bid" if view.bidding else "play"
        who = f"Your {doing}" if view.to_play == view.seat else f"{names[shown_player(seat, view.to_play)]} to {doing}"
        scene.status = f"{who}: {view.turn_left} s"
    if blind_question:
        scene.results, scene.help_line, scene.message, scene.message_ink = BLIND_NIL_QUESTION, "", "Y or N", YELLOW
    elif view.refusal:
        scene.message, scene.message_ink = view.refusal, RED
    elif view.warning:
        scene.message, scene.message_ink = view.warning, YELLOW
    elif bidding_now and not hand_hidden:
        scene.message = f"Your bid (0/N = nil, 1-{view.highest_bid})? {typed}_"
    elif typed:
        scene.message = f"Card: {typed}_  (then its suit: {' '.join(SUIT_LETTERS)})"
    elif note:
        scene.message = note
    elif view.notice:
        scene.message, scene.message_ink = view.notice, RED
    else:
        scene.message = HOW_TO_LEAVE
    return scene


def title_of(view: SeatView) -> str:
    if view.finished:
        return f"SPADES  hand {view.hand_number} over"
    if view.bidding:
        return f"SPADES  hand {view.hand_number}  bidding"
    trick = sum(view.taken) + (0 if view.trick_taken else 1)  # a trick taken and still shown is its own number
    return f"SPADES  hand {view.hand_number}  trick {trick} of {TRICKS_IN_A_HAND}"


def label_of(view: SeatView, at: int) -> str:
    """What is said under a seat's name: its tricks; in the full game its bid, then tricks of bid."""
    if not view.full:
        return tricks_label(view.taken[at])
    bid = view.bids[at]
    if bid is None:
        return "bid ..." if view.bidding else ""
    said = bid_words(bid, view.blind[at])
    return f"bid {said}" if view.bidding else f"{view.taken[at]} of {said}"


def score_line_of(view: SeatView, seat: int) -> str:
    """The hands won (the seed's game) or the partnerships' scores and bags, this seat's first."""
    if not view.full:
        return "Hands won: " + " ".join(
            f"{'YOU' if at == view.seat else COMPASS[at][0]} {view.hands_won[at]}"
            for at in ((seat + offset) % SEATS for offset in range(SEATS))
        )
    us, them = seat % 2, 1 - seat % 2
    scores, bags = view.team_scores, view.team_bags
    return f"{TEAM_NAMES[0]} {scores[us]} ({bags[us]} bags)  {TEAM_NAMES[1]} {scores[them]} ({bags[them]})"


def seed_results(view: SeatView, seat: int) -> list[str]:
    """The seed's hand over, from `seat`: who won it, and each seat's tricks, two to a line (this
    seat and west, then north and east), so that the panel stays clear of the names at the sides."""
    names = names_seen(view, seat)
    won = [names[shown_player(seat, at)] for at in view.winners]
    verdict = (
        "YOU WIN THE HAND!"
        if won == ["YOU"]
        else f"{won[0]} wins the hand"
        if len(won) == 1
        else "Shared: " + ", ".join(won)
    )
    tricks = [f"{names[shown_player(seat, at % SEATS)]} {view.taken[at % SEATS]}" for at in range(seat, seat + SEATS)]
    width = max(9, *(len(said) + 1 for said in tricks))
    return [
        verdict,
        f"{tricks[0]:<{width}}{tricks[1]:>{width}}",
        f"{tricks[2]:<{width}}{tricks[3]:>{width}}",
        "",
        "ENTER: next hand",
    ]


def full_results(view: SeatView, seat: int) -> list[str]:
    """The full game's hand over, from `seat`: who won it, each side's bids, tricks and points, and
    the game's end when it is over."""
    names = names_seen(view, seat)
    sides = {
        team: [at for at in (seat, seat + 1, seat + 2, seat + 3) if at % 2 == team] for team in (seat % 2, 1 - seat % 2)
    }  # this seat's side first, itself first in it
    partners = {
        team: " and ".join(names[shown_player(seat, at % SEATS)] for at in seats) for team, seats in sides.items()
    }
    us, them = seat % 2, 1 - seat % 2
    points = view.hand_points
    lines = [
        f"Hand even: {points[us]:+d} each"
        if points[us] == points[them]
        else f"{partners[us if points[us] > points[them] else them]} win the hand"
    ]
    for team, side in zip((us, them), TEAM_NAMES):
        members = [at % SEATS for at in sides[team]]
        bids = "+".join(bid_words(view.bids[at], view.blind[at]) for at in members)
        took = sum(view.taken[at] for at in members)
        line = f"{side} bid {bids}, took {took}: {points[team]:+d}"
        lines.append(line if len(line) <= RESULT_WIDTH else f"{side} {bids}, took {took}: {points[team]:+d}")
    if view.game_winner is not None:
        lines.append(f"{partners[view.game_winner].upper()} WIN THE GAME" + ("!" if view.game_winner == us else ""))
        return [*lines, "", *again_lines(view, seat)]
    return [*lines, "", "ENTER: next hand"]


def again_lines(view: SeatView, seat: int) -> list[str]:
    """Once a game is over: "again?", and whom the table waits for once this seat has said so."""
    if view.seat is None or not view.again[view.seat]:
        return ["ENTER: a new game (again?)"]
    names = names_seen(view, seat)
    waiting = [
        names[shown_player(seat, at)]
        for at in range(SEATS)
        if view.humans[at] and view.connected[at] and not view.again[at]
    ]
    return [("Waiting for " + ", ".join(waiting))[:RESULT_WIDTH]] if waiting else ["Dealing..."]


def history_lines(view: SeatView, seat: int) -> list[str]:
    """The hands of this game gone by, from `seat` (its side first): each side's bids, tricks taken
    and points, the latest HISTORY_ROWS of them, and the rules they are scored by."""
    us, them = seat % 2, 1 - seat % 2
    lines = ["The hands of this game", f"   {TEAM_NAMES[0] + ' bid:took':<14}{TEAM_NAMES[1] + ' bid:took'}"]
    sides = {team: [at for at in range(SEATS) if at % 2 == team] for team in (us, them)}
    for number, (bids, blind, taken, points) in list(enumerate(view.history, 1))[-HISTORY_ROWS:]:
        said = []
        for team in (us, them):
            if bids is None:
                said.append(f"{'':8}{points[team]:+5d} ")
                continue
            bid = "+".join("b" if blind[at] else "n" if bids[at] == 0 else str(bids[at]) for at in sides[team])
            said.append(f"{bid:>5}:{sum(taken[at] for at in sides[team]):<2}{points[team]:+5d} ")
        lines.append(f"{number:>2} {said[0]}{said[1]}".rstrip()[:RESULT_WIDTH])
    if not view.history:
        lines.append("No hand has been played yet")
    return lines


def bid_keys(code: int, key: str, typed: str) -> tuple[str | None, str, str]:
    """A key at this seat's turn to bid: digits (or N, for nil) make the bid, ENTER makes it, DELETE
    starts again. The bid to make now (or None), what is typed so far and a note."""
    if code == ENTER and typed:
        return typed, "", ""
    if code == DELETE:
        return None, "", ""
    if key == "n":
        return None, NIL, ""
    if key.isdigit() and (typed == NIL or len(typed) < BID_DIGITS):
        return None, key if typed == NIL else typed + key, ""
    return None, typed, BID_HELP if key else ""


def hand_and_card(view: SeatView, seat: int | None, chosen: int, my_turn: bool) -> tuple[list[str], int, bool]:
    """The hand as shown, the card raised in it and whether it is this seat's turn: the card raised
    stays within the hand, and a turn begins (`my_turn` was False) with a card it may play raised."""
    hand = hand_order(list(view.hand))
    chosen = max(0, min(chosen, len(hand) - 1))
    if view.to_play == seat and not my_turn and view.legal:
        chosen = playable_nearest(hand, view.legal, chosen)
    return hand, chosen, view.to_play == seat


def playable_nearest(hand: list[str], legal: tuple[str, ...], chosen: int) -> int:
    """The card raised as a turn begins: the one raised before if it may be played, else the nearest
    that may."""
    if hand[chosen] in legal:
        return chosen
    return min((index for index, card in enumerate(hand) if card in legal), key=lambda index: abs(index - chosen))


def show_last_trick(machine: Spectrum, table: SpadesTable, view: SeatView, seat: int) -> None:
    """The last trick taken, until a key (or the table moves on)."""
    scene = scene_of(view, seat, None, "", "")
    if not view.last_trick:
        scene.message = "No trick has been played yet"
    else:
        scene.trick = [(shown_player(seat, at), card) for at, card in view.last_trick]
        scene.status = f"Last trick: {names_seen(view, seat)[shown_player(seat, view.last_winner)]} took it"
        scene.message, scene.message_ink, scene.results = "Any key to go on", YELLOW, []
    draw(machine, scene)
    machine.targets = targets.any_key()
    key_or_move(machine, table, view)


def show_history(machine: Spectrum, table: SpadesTable, view: SeatView, seat: int) -> None:
    """The hands gone by (bids, tricks, points), until a key (or the table moves on)."""
    scene = scene_of(view, seat, None, "", "")
    scene.results, scene.status = history_lines(view, seat), ""
    scene.message, scene.message_ink = "Any key to go on", YELLOW
    draw(machine, scene)
    machine.targets = targets.any_key()
    key_or_move(machine, table, view)


class Phase(enum.Enum):
    """What a key means at a seat, by where the table is (`phase_of`)."""

    BLIND_QUESTION = "asked whether to bid blind nil"  # Y or N
    HAND_OVER = "the hand is over"  # ENTER: the next hand
    BIDDING = "bidding"  # digits and ENTER (N: nil) at this seat's turn
    PLAYING = "this seat's turn to play"  # the arrows and ENTER, or a card typed
    WAITING = "another seat's turn"  # no key does anything but L


def phase_of(view: SeatView, asking: bool) -> Phase:
    if asking:
        return Phase.BLIND_QUESTION
    if view.finished:
        return Phase.HAND_OVER
    if view.bidding:
        return Phase.BIDDING
    if view.to_play == view.seat and view.hand:
        return Phase.PLAYING
    return Phase.WAITING


class SeatScreen:
    """One seat's screen at a table (`seat` None: a watcher's), a state machine turned by the table's
    views and this seat's keys: each `step` looks at the table (drawing what changed, a BEEP for
    another seat's move), makes what is due (a blind nil decided, at home the table's own moves),
    then takes a key (or news of the table) and answers it as the `Phase` wants.

    Its state: the card raised in the hand (`chosen`), what is typed (`typed`), a note for this seat
    (`note`), the scene on the screen (`shown`), whether its turn had begun (`my_turn`), the hand and
    moves last seen (`hand_number`, `moves`), and this hand's answer to the blind nil question
    (`blind`: None until asked)."""

    def __init__(self, machine: Spectrum, table: SpadesTable, seat: int | None, deals: bool, why: str = ""):
        self.machine, self.table, self.seat, self.deals = machine, table, seat, deals
        self.why = why  # why this screen watches (or sits under another name): said as each hand begins
        self.chosen, self.typed, self.note, self.my_turn = 0, "", "", False
        self.shown: Scene | None = None
        self.hand_number: int | None = None
        self.moves = 0
        self.blind: bool | None = None

    def run(self) -> None:
        while True:
            self.step()

    def step(self) -> None:
        view = self.look()
        if self.blind and view.may_bid_blind_nil and view.to_play == self.seat:
            self.move(self.table.bid, self.seat, BLIND_NIL)
            return
        if self.deals and table_moves(self.machine, self.table, view):
            return
        code = key_or_news(self.machine, self.table, view)
        if code is None or self.seat is None:
            return
        if self.table.version != view.version:  # the key came as the table moved on: it meets the table as it is now
            view = self.table.view(self.seat)
            self.hand, self.chosen, self.my_turn = hand_and_card(view, self.seat, self.chosen, self.my_turn)
        self.answer(view, code)

    def asking(self, view: SeatView) -> bool:
        """This seat is asked whether to bid blind nil (and has not said)."""
        return view.may_bid_blind_nil and self.blind is None

    def look(self) -> SeatView:
        """The table as this seat sees it now, drawn if it changed; another seat's move is heard."""
        view = self.table.view(self.seat)
        if view.hand_number != self.hand_number:
            self.hand_number, self.moves, self.blind, self.typed = view.hand_number, view.moves, None, ""
            self.note = self.why or HOW_TO_LEAVE
        self.hand, self.chosen, self.my_turn = hand_and_card(view, self.seat, self.chosen, self.my_turn)
        scene = scene_of(
            view,
            0 if self.seat is None else self.seat,
            self.chosen,
            self.typed,
            self.note,
            blind_question=self.asking(view),
            hand_hidden=view.may_bid_blind_nil and self.blind is True,
        )
        if only_the_status_differs(scene, self.shown):  # a clock's second: its line alone is drawn again
            draw_status(self.machine, scene)
            self.shown = scene
        elif scene != self.shown:
            draw(self.machine, scene)
            self.shown = scene
        self.machine.targets = self.targets(view)
        if view.moves > self.moves and view.last_mover != self.seat:
            self.machine.beep(BEEP_SECONDS, BEEP_PITCH)
        self.moves = view.moves
        return view

    def targets(self, view: SeatView) -> Targets:
        """What a tap types at this seat now (`targets`)."""
        if self.seat is None:
            return Targets()
        phase = phase_of(view, self.asking(view))
        if phase is Phase.BLIND_QUESTION:
            return targets.blind_question()
        if phase is Phase.HAND_OVER:
            return targets.hand_over()
        if phase is Phase.BIDDING and view.to_play == self.seat and not self.blind:
            return targets.bidding(self.typed, view.highest_bid)
        if phase is Phase.PLAYING:
            return targets.playing(self.hand, self.typed, self.chosen)
        return targets.waiting()

    def answer(self, view: SeatView, code: int) -> None:
        """This seat's key `code`, as the phase of `view` takes it (L shows the last trick in any
        phase but the blind nil question, and while nothing is typed)."""
        key = chr(code).lower() if 32 <= code < 127 else ""
        self.note = ""
        self.table.forget_refusal(self.seat)  # said until the next key, as a refusal is at home
        phase = phase_of(view, self.asking(view))
        if (
            phase is not Phase.BLIND_QUESTION
            and key in ("l", HISTORY_KEY)
            and not self.typed
            and (key == "l" or view.full)
        ):
            (show_last_trick if key == "l" else show_history)(self.machine, self.table, view, self.seat)
            self.shown = None
            return
        ANSWERS[phase](self, view, code, key)

    def answer_blind_question(self, view: SeatView, code: int, key: str) -> None:
        if key in ("y", "n"):
            self.blind = key == "y"

    def answer_hand_over(self, view: SeatView, code: int, key: str) -> None:
        if code == ENTER:
            self.table.next_hand(self.seat)

    def answer_bidding(self, view: SeatView, code: int, key: str) -> None:
        if view.to_play == self.seat and not self.blind:
            bid, self.typed, self.note = bid_keys(code, key, self.typed)
            if bid is not None:
                self.move(self.table.bid, self.seat, bid)

    def answer_playing(self, view: SeatView, code: int, key: str) -> None:
        hand = self.hand
        if code in (CURSOR_LEFT, CURSOR_RIGHT):
            self.chosen, self.typed = (self.chosen + (1 if code == CURSOR_RIGHT else -1)) % len(hand), ""
        elif code == ENTER:
            self.move(self.table.play, self.seat, hand[self.chosen])
            self.typed = ""
        elif code == DELETE:
            self.typed = ""
        elif self.typed:
            self.move(self.table.play, self.seat, self.typed + key)
            self.typed = ""
        elif key in RANK_LETTERS:
            self.typed = key
        elif key:
            self.note = "Keys: CAPS5/8 ENTER, or a card: td"

    def answer_waiting(self, view: SeatView, code: int, key: str) -> None:
        pass

    def move(self, make, *move) -> None:
        """This seat's move made at the table (`make(*move)`): a refusal (shown with the table's
        view) buzzes."""
        try:
            make(*move)
        except MoveRefused:
            self.machine.beep(*REFUSAL_BEEP)


ANSWERS = {
    Phase.BLIND_QUESTION: SeatScreen.answer_blind_question,
    Phase.HAND_OVER: SeatScreen.answer_hand_over,
    Phase.BIDDING: SeatScreen.answer_bidding,
    Phase.PLAYING: SeatScreen.answer_playing,
    Phase.WAITING: SeatScreen.answer_waiting,
}


def play_at(machine: Spectrum, table: SpadesTable, seat: int | None, *, deals: bool = False, why: str = "") -> None:
    """Hand after hand at `seat` (None: watching) until BREAK; `deals`: this screen makes the table's
    own moves as they fall due (at home, where it is the only screen); `why` it watches, if it does."""
    SeatScreen(machine, table, seat, deals, why).run()


def shown_name(name: str) -> str | None:
    """`name` as the table would show it (None: it would refuse it)."""
    try:
        return clean_name(name)
    except TableRefused:
        return None


def run(
    machine: Spectrum,
    tables,
    code: str,
    owner: str | None,
    name: str,
    *,
    level: str = "rules",
    seed: int | None = None,
    rules: HouseRules | None = None,
    watch: bool = False,
    private: bool = False,
) -> None:
    """Take the next free seat at table `code` (made, with `level`, `seed`, the house `rules` and
    `private`, on the first join) for `owner` as `name`, or watch (saying why); the seat is let go
    (held, once play has started) when this ends."""
    table = tables.table(code, level=level, seed=seed, rules=rules or HouseRules(), private=private)
    seat, why = None, ASKED_TO_WATCH if watch else NO_SECRET if owner is None else ""
    if not why:
        had = table.seat_of_owner(owner)
        seat = table.join(owner, name)
        if seat is None:
            why = PLAY_BEGUN if table.view(None).started else NO_SEAT_FREE
        elif had is not None and table.view(seat).names[seat] != shown_name(name):
            why = f"You sit here as {table.view(seat).names[seat]}"  # this browser's seat, whatever it typed
    if seat is None:
        table.watch()
    table.listen(machine.wake)  # a change at the table wakes this screen, if its front end dozes
    prepare(machine)
    try:
        lobby(machine, table, seat, why)
        play_at(machine, table, seat, why=why)
    finally:
        table.stop_listening(machine.wake)
        if seat is not None:
            table.drop(seat)
        else:
            table.stop_watching()
        tables.leave(table)
