"""A seat at a Spades table (`seats.SpadesTable`) on that player's own Spectrum: at home the one seat
among three computers (`zxcards spades`), on a server one of up to four people's. A table's first
screen lists the seats as they fill and ENTER starts play; then the Spades screen from this seat —
its hand at the foot, the others round the table by name; in the full game the bids by the names,
the partnerships' scores on top, and a bid typed as digits.

Keys: CAPS 5 / CAPS 8 (the arrow keys) choose a card and ENTER plays it, or type the card (`td`);
L shows the last trick; BREAK leaves. Another seat's move is heard (a BEEP), a refused one buzzes.

The table is the referee: this screen only shows `table.view(seat)` and sends this seat's moves. At
home it also keeps the table moving (`deals`): the computers' moves are made here, on the machine's
own clock, so that a game is the same game at any speed, headless or in a window.
"""

import math

from spectrum import Spectrum
from spectrum.colours import BLACK, BLUE, CYAN, RED, WHITE, YELLOW
from spectrum.hardware import FRAME_T_STATES, T_STATES_PER_SECOND
from spectrum.rom import CURSOR_LEFT, CURSOR_RIGHT, DELETE, ENTER  # CAPS 5, CAPS 8 (the arrows), CAPS 0

from ..cards import RANK_LETTERS, SUIT_LETTERS
from ..table import BAIZE, wrapped
from .full_rules import BLIND_NIL, TEAM_NAMES, bid_words
from .rules import PLAYERS, TRICKS_IN_A_HAND
from .screen import NAMES, RESULT_WIDTH, Scene, centred, draw, hand_order, prepare
from .seats import SEATS, SeatView, SpadesTable, Tables

CLOCK_FRAMES = 25  # how often the screen looks at the clock (a warning counts down by the second)
FRAMES_PER_SECOND = T_STATES_PER_SECOND / FRAME_T_STATES
HELP = "CAPS5/8+ENTER or type td  L:last"
AFTER_HAND_HELP = "L: the last trick again"
HOW_TO_LEAVE = "BREAK (Esc) leaves"  # said as each hand begins and after it
WATCHING = "Watching: no hand is shown"
BID_HELP = "Type your bid and ENTER (N: nil)"
BID_DIGITS = 2
BLIND_NIL_QUESTION = ["You may bid BLIND NIL:", "no trick at all, for 200", "(lose 200 if you take one),",
                      "bid before you see your cards.", "Bid blind nil? (Y/N)"]
BEEP_SECONDS, BEEP_PITCH = 0.04, 12  # another seat's bid or card
REFUSAL_BEEP = (0.15, -10)
SEAT_WIDTH = 20  # a lobby's seat line ("1 Annamariax <- you"), then its partnership in a column
COMPASS = {"player_0": "YOU", "player_1": "W", "player_2": "N", "player_3": "E"}  # as the score line shows them


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


def names_seen(view: SeatView, seat: int) -> dict[str, str]:
    """Who sits where, from `seat`: YOU, then the others' names (their compass point for a computer)."""
    names = {}
    for at in range(SEATS):
        player = shown_player(seat, at)
        if at == view.seat:
            names[player] = NAMES["player_0"]
        elif view.humans[at]:
            names[player] = view.names[at].upper() + ("" if view.connected[at] else "?")
        else:
            names[player] = NAMES[player]
    return names


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


def lobby(machine: Spectrum, table: SpadesTable, seat: int | None) -> None:
    """The seats as they fill, until play starts (ENTER, from any seated player)."""
    while True:
        view = table.view(seat)
        if view.started:
            return
        machine.cls()
        machine.print_at(0, 0, centred(f"SPADES  table {table.code}"), ink=WHITE, paper=BLUE, bright=1)
        machine.print_at(2, 1, "The full game to 500" if table.full else "The seed's game", ink=YELLOW, paper=BAIZE)
        machine.print_at(3, 1, "The seats, as people join:", ink=YELLOW, paper=BAIZE)
        for at in range(SEATS):
            who = view.names[at] if view.humans[at] else f"({table.level} computer)"
            mark = " <- you" if at == seat else ""
            partners = (TEAM_NAMES[0] if at % 2 == (seat or 0) % 2 else TEAM_NAMES[1]) if table.full else ""
            machine.print_at(5 + 2 * at, 3, f"{at + 1} {who}{mark}".ljust(SEAT_WIDTH) + partners, ink=WHITE, paper=BAIZE)
        machine.print_at(13, 1, "Others join with the same link:", ink=CYAN, paper=BAIZE)
        machine.print_at(14, 2, f"/spades?table={table.code}"[:29], ink=WHITE, paper=BAIZE)
        machine.print_at(18, 1, "ENTER starts play" if seat is not None else WATCHING, ink=BLACK, paper=YELLOW, bright=1)
        machine.print_at(20, 1, HOW_TO_LEAVE, ink=WHITE, paper=BAIZE)
        if view.notice:
            machine.print_at(22, 0, view.notice[:64], ink=RED, paper=WHITE, bright=1)
        code = key_or_news(machine, table, view)
        if code == ENTER and seat is not None:
            table.start(seat)


def scene_of(view: SeatView, seat: int, chosen: int | None, typed: str, note: str, *,
             blind_question: bool = False, hand_hidden: bool = False) -> Scene:
    """The Spades screen of `view`, seen from `seat`; `blind_question` asks whether to bid blind nil,
    the hand face down (`hand_hidden` keeps it so until the blind nil is bid)."""
    hand = hand_order(list(view.hand))
    bidding_now = view.bidding and view.seat is not None and view.to_play == view.seat
    names = names_seen(view, seat)
    scene = Scene(title=title_of(view), hand=hand, trick=[(shown_player(seat, at), card) for at, card in view.trick],
                  labels={shown_player(seat, at): label_of(view, at) for at in range(SEATS)},
                  to_play=None if view.to_play is None else shown_player(seat, view.to_play),
                  chosen=chosen if view.to_play == view.seat and hand and not view.bidding else None,
                  names=names, hand_hidden=blind_question or hand_hidden,
                  help_line=(WATCHING if view.seat is None else AFTER_HAND_HELP if view.finished
                             else BID_HELP if bidding_now else HELP),
                  score_line=score_line_of(view, seat))
    results = (full_results(view, seat) if view.full else seed_results(view, seat)) if view.finished else []
    if view.trick_taken:
        winner = names[shown_player(seat, view.last_winner)]
        scene.trick = [(shown_player(seat, at), card) for at, card in view.last_trick]
        scene.status = f"{winner} {'take' if view.last_winner == view.seat else 'takes'} the " + \
                       ("last trick" if view.finished else "trick")
        scene.to_play = shown_player(seat, view.last_winner)
        if view.finished:
            scene.message, scene.message_ink, scene.help_line = results[0], YELLOW, ""
            return scene
    scene.results = results + (wrapped(view.notice, RESULT_WIDTH) if view.notice and results else [])
    if blind_question:
        scene.results, scene.help_line, scene.message, scene.message_ink = BLIND_NIL_QUESTION, "", "Y or N", YELLOW
    elif view.refusal:
        scene.message, scene.message_ink = view.refusal, RED
    elif view.warning:
        scene.message, scene.message_ink = view.warning, YELLOW
    elif bidding_now and not hand_hidden:
        scene.message = f"Your bid (0 = nil, 1-{view.highest_bid})? {typed}_"
    elif typed:
        scene.message = f"Card: {typed}_  (then its suit: {' '.join(SUIT_LETTERS)})"
    elif note:
        scene.message = note
    elif view.notice:
        scene.message, scene.message_ink = view.notice, RED
    elif view.finished:
        scene.message = HOW_TO_LEAVE
    return scene


def title_of(view: SeatView) -> str:
    if view.finished:
        return f"SPADES  hand {view.hand_number} over"
    if view.bidding:
        return f"SPADES  hand {view.hand_number}  bidding"
    return f"SPADES  hand {view.hand_number}  trick {sum(view.taken) + 1} of {TRICKS_IN_A_HAND}"


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
        return "Hands won: " + " ".join(f"{COMPASS[PLAYERS[offset]]} {view.hands_won[(seat + offset) % SEATS]}"
                                        for offset in range(SEATS))
    us, them = seat % 2, 1 - seat % 2
    scores, bags = view.team_scores, view.team_bags
    return f"{TEAM_NAMES[0]} {scores[us]} ({bags[us]} bags)  {TEAM_NAMES[1]} {scores[them]} ({bags[them]})"


def seed_results(view: SeatView, seat: int) -> list[str]:
    """The seed's hand over, from `seat`: who won it, and each seat's tricks, two to a line (this
    seat and west, then north and east), so that the panel stays clear of the names at the sides."""
    names = names_seen(view, seat)
    won = [names[shown_player(seat, at)] for at in view.winners]
    verdict = ("YOU WIN THE HAND!" if won == ["YOU"] else f"{won[0]} wins the hand" if len(won) == 1
               else "Shared: " + ", ".join(won))
    tricks = [f"{names[shown_player(seat, at % SEATS)]} {view.taken[at % SEATS]}" for at in range(seat, seat + SEATS)]
    width = max(9, *(len(said) + 1 for said in tricks))
    return [verdict, f"{tricks[0]:<{width}}{tricks[1]:>{width}}", f"{tricks[2]:<{width}}{tricks[3]:>{width}}", "",
            "ENTER: next hand"]


def full_results(view: SeatView, seat: int) -> list[str]:
    """The full game's hand over, from `seat`: who won it, each side's bids, tricks and points, and
    the game's end when it is over."""
    names = names_seen(view, seat)
    sides = {team: [at for at in (seat, seat + 1, seat + 2, seat + 3) if at % 2 == team]
             for team in (seat % 2, 1 - seat % 2)}  # this seat's side first, itself first in it
    partners = {team: " and ".join(names[shown_player(seat, at % SEATS)] for at in seats) for team, seats in sides.items()}
    us, them = seat % 2, 1 - seat % 2
    points = view.hand_points
    lines = [f"Hand even: {points[us]:+d} each" if points[us] == points[them]
             else f"{partners[us if points[us] > points[them] else them]} win the hand"]
    for team, side in zip((us, them), TEAM_NAMES):
        members = [at % SEATS for at in sides[team]]
        bids = "+".join(bid_words(view.bids[at], view.blind[at]) for at in members)
        took = sum(view.taken[at] for at in members)
        line = f"{side} bid {bids}, took {took}: {points[team]:+d}"
        lines.append(line if len(line) <= RESULT_WIDTH else f"{side} {bids}, took {took}: {points[team]:+d}")
    if view.game_winner is not None:
        lines.append(f"{partners[view.game_winner].upper()} WIN THE GAME" + ("!" if view.game_winner == us else ""))
    return [*lines, "", "ENTER: a new game" if view.game_winner is not None else "ENTER: next hand"]


def bid_keys(code: int, key: str, typed: str) -> tuple[str | None, str, str]:
    """A key at this seat's turn to bid: digits make the bid, ENTER makes it (N: nil at once),
    DELETE starts again. The bid to make now (or None), the digits typed so far and a note."""
    if code == ENTER and typed:
        return typed, "", ""
    if code == DELETE:
        return None, "", ""
    if key == "n":
        return "nil", "", ""
    if key.isdigit() and len(typed) < BID_DIGITS:
        return None, typed + key, ""
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
    key_or_news(machine, table, view)


def moved(machine: Spectrum, answer: tuple[bool, str | None]) -> None:
    """The table's answer to this seat's move: a refusal (shown with the table's view) buzzes."""
    if not answer[0]:
        machine.beep(*REFUSAL_BEEP)


def play_at(machine: Spectrum, table: SpadesTable, seat: int | None, *, deals: bool = False) -> None:
    """Hand after hand at `seat` (None: watching) until BREAK; `deals`: this screen makes the table's
    own moves as they fall due (at home, where it is the only screen)."""
    chosen, typed, note, shown, my_turn = 0, "", "", None, False
    hand_number, moves, blind = None, 0, None  # blind: this hand's answer to the blind nil question
    while True:
        view = table.view(seat)
        at = 0 if seat is None else seat
        if view.hand_number != hand_number:
            hand_number, moves, blind, note, typed = view.hand_number, view.moves, None, HOW_TO_LEAVE, ""
        hand, chosen, my_turn = hand_and_card(view, seat, chosen, my_turn)
        asking = view.may_bid_blind_nil and blind is None
        scene = scene_of(view, at, chosen, typed, note, blind_question=asking,
                         hand_hidden=view.may_bid_blind_nil and blind is True)
        if scene != shown:
            draw(machine, scene)
            shown = scene
        if view.moves > moves and view.last_mover != seat:
            machine.beep(BEEP_SECONDS, BEEP_PITCH)
        moves = view.moves
        if blind and view.may_bid_blind_nil and view.to_play == seat:
            moved(machine, table.bid(seat, BLIND_NIL))
            continue
        if deals and table_moves(machine, table, view):
            continue
        code = key_or_news(machine, table, view)
        if code is None or seat is None:
            continue
        if table.version != view.version:  # the key came as the table moved on: it meets the table as it is now
            view = table.view(seat)
            hand, chosen, my_turn = hand_and_card(view, seat, chosen, my_turn)
            asking = view.may_bid_blind_nil and blind is None
        key = chr(code).lower() if 32 <= code < 127 else ""
        note = ""
        table.forget_refusal(seat)  # said until the next key, as a refusal is at home
        if asking:
            if key in ("y", "n"):
                blind = key == "y"
            continue
        if key == "l" and not typed:
            show_last_trick(machine, table, view, at)
            shown = None
            continue
        if view.finished:
            if code == ENTER:
                table.next_hand(seat)
            continue
        if view.bidding:
            if view.to_play == seat and not blind:
                bid, typed, note = bid_keys(code, key, typed)
                if bid is not None:
                    moved(machine, table.bid(seat, bid))
            continue
        if view.to_play != seat or not hand:
            continue
        if code in (CURSOR_LEFT, CURSOR_RIGHT):
            chosen, typed = (chosen + (1 if code == CURSOR_RIGHT else -1)) % len(hand), ""
        elif code == ENTER:
            moved(machine, table.play(seat, hand[chosen]))
            typed = ""
        elif code == DELETE:
            typed = ""
        elif typed:
            moved(machine, table.play(seat, typed + key))
            typed = ""
        elif key in RANK_LETTERS:
            typed = key
        elif key:
            note = "Keys: CAPS5/8 ENTER, or a card: td"


def run(machine: Spectrum, tables: Tables, code: str, owner: str | None, name: str, *, level: str = "rules",
        seed: int | None = None, full: bool = False, blind_nil: bool = False, watch: bool = False) -> None:
    """Take the next free seat at table `code` (made, with `level`, `seed`, `full` and `blind_nil`,
    on the first join) for `owner` as `name`, or watch; the seat is let go (held, once play has
    started) when this ends."""
    table = tables.table(code, level=level, seed=seed, full=full, blind_nil=blind_nil)
    seat = None if watch or owner is None else table.join(owner, name)
    table.listen(machine.wake)  # a change at the table wakes this screen, if its front end dozes
    prepare(machine)
    try:
        lobby(machine, table, seat)
        play_at(machine, table, seat)
    finally:
        table.stop_listening(machine.wake)
        if seat is not None:
            table.drop(seat)
        tables.leave(table)
