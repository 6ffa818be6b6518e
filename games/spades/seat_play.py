"""A seat at a Spades table for four (`seats.SpadesTable`), on that player's own Spectrum: the
table's first screen lists the seats as they fill, ENTER starts play, and then the same Spades
screen as at home, from this seat — its hand at the foot, the others round the table by name; in
the full game the bids by the names, the partnerships' scores on top, and a bid typed as digits.

The table is the referee: this screen only shows `table.view(seat)` and sends this seat's moves.
"""

from spectrum import Spectrum, sysvars
from spectrum.colours import BLACK, BLUE, CYAN, RED, WHITE, YELLOW

from ..cards import RANK_LETTERS, SUIT_LETTERS
from ..table import BAIZE
from .full_rules import TEAM_NAMES, bid_words
from .play import AFTER_HAND_HELP, HELP, tricks_label
from .rules import PLAYERS, TRICKS_IN_A_HAND
from .screen import (KEY_DELETE, KEY_ENTER, KEY_LEFT, KEY_RIGHT, NAMES, RESULT_WIDTH, Scene, centred, draw, hand_order,
                     prepare)
from .seats import SEATS, SeatView, SpadesTable, Tables

NEW_KEY = 0x20  # FLAGS bit 5: the keyboard interrupt has a new key in LAST_K
CLOCK_FRAMES = 25  # how often the screen looks at the clock (a warning counts down by the second)
WATCHING = "Watching: no hand is shown"
BID_HELP = "Type your bid and ENTER (N: nil)"
BID_DIGITS = 2
SEAT_WIDTH = 20  # a lobby's seat line ("1 Annamariax <- you"), then its partnership in a column
COMPASS = {"player_0": "YOU", "player_1": "W", "player_2": "N", "player_3": "E"}  # as the score line at home


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
    or None as soon as the table changes, or the clock changes what this seat is told."""
    frames = 0
    while True:
        frames += machine.wait_frames_for_key(CLOCK_FRAMES - frames % CLOCK_FRAMES)
        flags = machine.peek(sysvars.FLAGS)
        if flags & NEW_KEY:
            machine.poke(sysvars.FLAGS, flags & ~NEW_KEY)
            return machine.peek(sysvars.LAST_K)
        if table.version != view.version:
            return None
        if frames % CLOCK_FRAMES == 0 and table.view(view.seat).warning != view.warning:
            return None


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
        machine.print_at(20, 1, "BREAK (Esc) leaves", ink=WHITE, paper=BAIZE)
        if view.notice:
            machine.print_at(22, 0, view.notice[:64], ink=RED, paper=WHITE, bright=1)
        code = key_or_news(machine, table, view)
        if code == KEY_ENTER and seat is not None:
            table.start(seat)


def scene_of(view: SeatView, seat: int, chosen: int | None, typed: str, note: str) -> Scene:
    """The Spades screen of `view`, seen from `seat`."""
    hand = hand_order(list(view.hand))
    bidding_now = view.bidding and view.seat is not None and view.to_play == view.seat
    scene = Scene(title=title_of(view), hand=hand, trick=[(shown_player(seat, at), card) for at, card in view.trick],
                  labels={shown_player(seat, at): label_of(view, at) for at in range(SEATS)},
                  to_play=None if view.to_play is None else shown_player(seat, view.to_play),
                  chosen=chosen if view.to_play == view.seat and hand and not view.bidding else None,
                  names=names_seen(view, seat),
                  help_line=(WATCHING if view.seat is None else AFTER_HAND_HELP if view.finished
                             else BID_HELP if bidding_now else HELP),
                  score_line=score_line_of(view, seat))
    if view.finished:
        scene.results = full_results(view, seat) if view.full else seed_results(view, seat)
    if view.refusal:
        scene.message, scene.message_ink = view.refusal, RED
    elif view.warning:
        scene.message, scene.message_ink = view.warning, YELLOW
    elif bidding_now:
        scene.message = f"Your bid (0 = nil, 1-{view.highest_bid})? {typed}_"
    elif typed:
        scene.message = f"Card: {typed}_  (then its suit: {' '.join(SUIT_LETTERS)})"
    elif note:
        scene.message = note
    elif view.notice:
        scene.message, scene.message_ink = view.notice, RED
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
    if view.bidding:
        return "bid ..." if bid is None else f"bid {bid_words(bid)}"
    return f"{view.taken[at]} of {bid_words(bid)}" if bid is not None else ""


def score_line_of(view: SeatView, seat: int) -> str:
    """The hands won (the seed's game) or the partnerships' scores and bags, this seat's first."""
    if not view.full:
        return "Hands won: " + " ".join(f"{COMPASS[PLAYERS[offset]]} {view.hands_won[(seat + offset) % SEATS]}"
                                        for offset in range(SEATS))
    us, them = seat % 2, 1 - seat % 2
    scores, bags = view.team_scores, view.team_bags
    return f"{TEAM_NAMES[0]} {scores[us]} ({bags[us]} bags)  {TEAM_NAMES[1]} {scores[them]} ({bags[them]})"


def seed_results(view: SeatView, seat: int) -> list[str]:
    names = names_seen(view, seat)
    won = [names[shown_player(seat, at)] for at in view.winners]
    verdict = ("YOU WIN THE HAND!" if won == ["YOU"] else f"{won[0]} wins the hand" if len(won) == 1
               else "Shared: " + ", ".join(won))
    return [verdict, *(f"{names[shown_player(seat, at)][:9]} {view.taken[at]}" for at in range(SEATS)), "",
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
        bids = "+".join(bid_words(view.bids[at]) for at in members)
        took = sum(view.taken[at] for at in members)
        line = f"{side} bid {bids}, took {took}: {points[team]:+d}"
        lines.append(line if len(line) <= RESULT_WIDTH else f"{side} {bids}, took {took}: {points[team]:+d}")
    if view.game_winner is not None:
        lines.append(f"{partners[view.game_winner].upper()} WIN THE GAME" + ("!" if view.game_winner == us else ""))
    return [*lines, "", "ENTER: a new game" if view.game_winner is not None else "ENTER: next hand"]


def bid_keys(table: SpadesTable, seat: int, code: int, key: str, typed: str) -> tuple[str, str]:
    """A key at this seat's turn to bid: digits make the bid, ENTER makes it (N: nil at once),
    DELETE starts again; the digits typed so far and a note."""
    if code == KEY_ENTER and typed:
        table.bid(seat, typed)
        return "", ""
    if code == KEY_DELETE:
        return "", ""
    if key == "n":
        table.bid(seat, "nil")
        return "", ""
    if key.isdigit() and len(typed) < BID_DIGITS:
        return typed + key, ""
    return typed, BID_HELP if key else ""


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


def play_at(machine: Spectrum, table: SpadesTable, seat: int | None) -> None:
    """Hand after hand at `seat` (None: watching) until BREAK."""
    chosen, typed, note, shown, my_turn = 0, "", "", None, False
    while True:
        view = table.view(seat)
        at = 0 if seat is None else seat
        hand, chosen, my_turn = hand_and_card(view, seat, chosen, my_turn)
        scene = scene_of(view, at, chosen, typed, note)
        if scene != shown:
            draw(machine, scene)
            shown = scene
        code = key_or_news(machine, table, view)
        if code is None or seat is None:
            continue
        if table.version != view.version:  # the key came as the table moved on: it meets the table as it is now
            view = table.view(seat)
            hand, chosen, my_turn = hand_and_card(view, seat, chosen, my_turn)
        key = chr(code).lower() if 32 <= code < 127 else ""
        note = ""
        table.forget_refusal(seat)  # said until the next key, as at home
        if key == "l" and not typed:
            show_last_trick(machine, table, view, at)
            shown = None
            continue
        if view.finished:
            if code == KEY_ENTER:
                table.next_hand(seat)
            continue
        if view.bidding:
            if view.to_play == seat:
                typed, note = bid_keys(table, seat, code, key, typed)
            continue
        if view.to_play != seat or not hand:
            continue
        if code in (KEY_LEFT, KEY_RIGHT):
            chosen, typed = (chosen + (1 if code == KEY_RIGHT else -1)) % len(hand), ""
        elif code == KEY_ENTER:
            table.play(seat, hand[chosen])
            typed = ""
        elif code == KEY_DELETE:
            typed = ""
        elif typed:
            table.play(seat, typed + key)
            typed = ""
        elif key in RANK_LETTERS:
            typed = key
        elif key:
            note = "Keys: CAPS5/8 ENTER, or a card: td"


def run(machine: Spectrum, tables: Tables, code: str, owner: str | None, name: str, *, level: str = "rules",
        seed: int | None = None, full: bool = False, watch: bool = False) -> None:
    """Take the next free seat at table `code` (made, with `level`, `seed` and `full`, on the first
    join) for `owner` as `name`, or watch; the seat is let go (held, once play has started) when
    this ends."""
    table = tables.table(code, level=level, seed=seed, full=full)
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
