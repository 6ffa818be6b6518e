"""The title page of zxcards: the programs by number, and each one run in turn until Esc (or
BREAK) here; Esc in a program comes back here.

The programs are the light packages of `games.PROGRAMS` (a title and a `run` that loads the
program's play only when it is picked).
"""

from spectrum import ReportError, Spectrum
from spectrum.errors import BREAK_INTO_PROGRAM
from spectrum.frontends import Leave, ScriptExhausted
from spectrum.pointing import Target, Targets
from spectrum.colours import BLACK, CYAN, RED, WHITE, YELLOW

from ..cards import ACE, Card, Suit
from ..program import CannotStart
from ..drawing import CARD_PAPER, DOZE_FRAMES, SUIT_UDGS, poke_udgs, wrapped

TITLE_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)  # black and red in turn
# What Escape does, said by the window under the picture (the Spectrum's screen stays the program's)
LEAVE_ZXCARDS, BACK_TO_MENU = "Esc: leave zxcards", "Esc: back to the menu"
ANY_KEY = Targets((Target("go on", ("ENTER",), row=0, rows=24, cols=32),))  # a screen that waits for any key


OPEN_TABLES = "open tables"  # what `choose` returns for T, on a server


def choose(machine: Spectrum, programs: list, listed=None) -> object:
    """Show the title page and return the program whose number is pressed (or, on a server, given
    `listed`, OPEN_TABLES for T: the page says so while there are tables to list); BREAK stops with
    a ReportError, Esc with Leave."""
    machine.set_border(BLACK)
    machine.colour(ink=WHITE, paper=BLACK, bright=0, flash=0, inverse=0, over=0)
    machine.cls()
    poke_udgs(machine, SUIT_UDGS)
    machine.print_at(1, 11, "ZX CARDS", ink=YELLOW, bright=1)
    machine.print_at(2, 11, "\x83" * 8, ink=RED)
    for col in (3, 23):  # the suits on a white card
        machine.print_at(1, col, " " * 6, paper=CARD_PAPER, bright=1)
        for offset, suit in enumerate(TITLE_SUITS):
            machine.print_at(1, col + 1 + offset, suit.udg, paper=CARD_PAPER, ink=Card(ACE, suit).ink, bright=1)
    for number, program in enumerate(programs, 1):
        machine.print_at(4 + 2 * number, 8, f"{number}  {program.TITLE}")
    machine.print_at(19, 2, f"Press 1-{len(programs)} to play", ink=CYAN)
    if listed is not None and (count := len(listed())):
        machine.print_at(17, 2, f"T  the open tables ({count})"[:30], ink=CYAN)
    machine.print_at(20, 2, "Esc to leave", ink=CYAN)
    machine.targets = menu_targets(programs)
    while True:
        key = machine.inkey()
        if key.isdigit() and 1 <= int(key) <= len(programs):
            break
        if listed is not None and key.lower() == "t":
            let_go(machine)
            return OPEN_TABLES
        machine.wait_frames_for_key(DOZE_FRAMES)
    let_go(machine)  # the program chosen must not take the same key press as its own first key
    machine.targets = None
    return programs[int(key) - 1]


LISTED_MOST = 8  # tables on the Spectrum's list, two lines each


def listing_lines(number: int, title: str, listing) -> tuple[str, str]:
    """A table of the list (`games.program.Listing`) in two lines of 30 characters, ASCII only."""

    def plain(text: str) -> str:
        return "".join(char if " " <= char <= "~" else "?" for char in text)

    first = plain(f"{number} {title} {listing.code}: {listing.rules}")
    seats = plain(f"{len(listing.seats)} of {listing.places} " + ", ".join(listing.seats) + f"; {listing.score}")
    return first[:30], ("  " + seats)[:30]


def open_tables(machine: Spectrum, listed, sit) -> None:
    """The open tables (`listed()`: (program name, its title, a Listing) of each), until Esc or BREAK:
    a table's number, then S to sit (your name typed) or W to watch, `sit(program name, code, name,
    watch)` playing the seat until it is left; the list comes back then, looked at anew."""
    while True:
        tables = listed()[:LISTED_MOST]
        machine.set_border(BLACK)
        machine.colour(ink=WHITE, paper=BLACK, bright=0, flash=0, inverse=0, over=0)
        machine.cls()
        machine.print_at(0, 1, "Open tables", ink=YELLOW, bright=1)
        if not tables:
            machine.print_at(4, 1, "None just now: make one on the", ink=WHITE)
            machine.print_at(5, 1, "menu page, under the picture.", ink=WHITE)
        for number, (_, title, listing) in enumerate(tables, 1):
            first, second = listing_lines(number, title, listing)
            machine.print_at(2 * number, 1, first, ink=WHITE if listing.seat_free else CYAN)
            machine.print_at(2 * number + 1, 1, second, ink=CYAN)
        machine.print_at(
            19, 1, f"1-{len(tables)} a table, Esc back" if tables else "Esc back, any key again", ink=YELLOW
        )
        if tables:
            machine.print_at(20, 1, "White: a seat free, to sit at", ink=CYAN)
        let_go(machine)
        key = wait_key(machine)
        if not (key.isdigit() and 1 <= int(key) <= len(tables)):
            continue
        name, _, listing = tables[int(key) - 1]
        machine.print_at(19, 1, " " * 30)
        machine.print_at(20, 1, " " * 31)
        machine.print_at(
            19, 1, ("S sits, W watches, Esc back" if listing.seat_free else "W watches, Esc back")[:30], ink=YELLOW
        )
        let_go(machine)
        choice = wait_key(machine).lower()
        try:
            if choice == "w":
                sit(name, listing.code, "Watcher", True)
            elif choice == "s" and listing.seat_free:
                let_go(machine)
                sit(name, listing.code, machine.input("Your name? "), False)
        except CannotStart as refusal:  # a name the table can't show: said, and the list again
            machine.print_at(21, 0, str(refusal)[:64], ink=RED, bright=1)
            let_go(machine)
            wait_key(machine)


def wait_key(machine: Spectrum) -> str:
    """The next key pressed (as INKEY$ gives it)."""
    while True:
        key = machine.inkey()
        if key:
            return key
        machine.wait_frames_for_key(DOZE_FRAMES)


def menu_targets(programs: list) -> Targets:
    """A tap on a program's line (or the blank line over it) types its number."""
    return Targets(
        tuple(
            Target(program.TITLE, (str(number),), row=3 + 2 * number, rows=2, cols=32)
            for number, program in enumerate(programs, 1)
        )
    )


def run_program(machine: Spectrum, program, **options) -> int:
    """`program` run with `options`: what its run returns, or the ReportError it stops with, which
    is shown first as the ROM shows a report. Unless it is BREAK (how a player leaves), the screen
    stays until a key is pressed, as at the ROM's command line: the program's last words (Patience's
    "Thanks for playing.", before its STOP) are read before the window closes or the menu returns."""
    machine.targets = None  # the program says what its cells mean, if it does
    try:
        return program.run(machine, **options) or 0
    except ReportError as report:
        machine.show_report(report)
        if report.text != BREAK_INTO_PROGRAM:
            machine.targets = ANY_KEY  # a tap goes on, as a key does
            try:
                let_go(machine)
                machine.pause(0)
            except (ReportError, Leave, ScriptExhausted):  # BREAK, Esc or the end of a script: gone on
                pass
        raise


def let_go(machine: Spectrum) -> None:
    """Wait for the key held to be let go, and take back the new-key flag the keyboard interrupt
    set for it (FLAGS' NEW_KEY), so that what comes next does not take the same press."""
    while machine.inkey():
        machine.wait_frame()
    machine.take_key()


REASON_ROWS = range(4, 18)
REASON_WIDTH = 30


def show_refusal(machine: Spectrum, program, reason: str) -> None:
    """Why `program` can't play (its data folder is a file, say: said as it starts, or as soon as
    it is found), on the Spectrum's screen until a key is pressed; the menu comes back then, and the
    other programs still play."""
    machine.set_border(BLACK)
    machine.colour(ink=WHITE, paper=BLACK, bright=0, flash=0, inverse=0, over=0)
    machine.cls()
    machine.print_at(1, 1, f"{program.TITLE} can't play:", ink=YELLOW, bright=1)
    printable = "".join(char if " " <= char <= "~" else "?" for char in reason)  # the Spectrum's ASCII
    lines = wrapped(printable, REASON_WIDTH)
    if len(lines) > len(REASON_ROWS):
        lines = lines[: len(REASON_ROWS) - 1] + [lines[len(REASON_ROWS) - 1][: REASON_WIDTH - 3] + "..."]
    for row, line in zip(REASON_ROWS, lines):
        machine.print_at(row, 1, line)
    machine.print_at(20, 2, "Press a key for the menu", ink=CYAN)
    machine.targets = ANY_KEY
    let_go(machine)  # a key held (the ENTER that gave a name, say) must not clear the screen at once
    machine.pause(0)
    let_go(machine)


def run(machine: Spectrum, programs: list, options_for=lambda program: {}, listed=None, sit=None) -> None:
    """The title page and whatever is picked there, with its default options (or those
    `options_for(program)` gives), until Esc or BREAK on the title page; on a server, the open
    tables too (`listed` and `sit`, see `open_tables`)."""
    while True:
        machine.frontend.status = LEAVE_ZXCARDS
        try:
            chosen = choose(machine, programs, listed)
        except (ReportError, Leave):
            return
        machine.frontend.status = BACK_TO_MENU
        if chosen == OPEN_TABLES:
            try:
                open_tables(machine, listed, lambda *seat: sit(machine, *seat))
            except (ReportError, Leave, CannotStart):  # BREAK or Esc: back to the title page
                pass
            continue
        machine.variables, machine.functions = {}, {}  # a new program has none of the last one's
        try:
            run_program(machine, chosen, **options_for(chosen))
        except ReportError:  # BREAK (or a report) ended the program, as on the Spectrum: shown, and a key taken
            pass
        except CannotStart as refusal:  # a program that can't run: its data folder unusable, say
            try:
                show_refusal(machine, chosen, str(refusal))
            except (ReportError, Leave):  # BREAK or Esc there: back to the title page too
                pass
        except Leave:  # the host's key: straight back to the title page
            pass
