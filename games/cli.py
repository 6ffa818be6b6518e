"""`zxcards`: a Spectrum-style menu of the programs, or one program directly, in a window or headless."""

import argparse
import inspect
import re
import sys
from pathlib import Path

from spectrum import ReportError, Spectrum, sysvars
from spectrum.errors import BREAK_INTO_PROGRAM
from spectrum.frontends import HeadlessFrontend, NoDisplay, Quit, ScriptExhausted

from . import PROGRAMS, load
from .cardfaces import SUIT_CHARS, SUIT_UDGS, card_ink, poke_udgs

KEY_NAME = re.compile(r"\{([^{}]+)\}|(.)", re.DOTALL)


def script_presses(keys: str) -> list:
    """Key presses for --keys: characters to type, and {NAME} or {NAME+NAME} for other keys."""
    presses = []
    for name, char in KEY_NAME.findall(keys):
        presses.append(frozenset(name.split("+")) if name else char)
    return presses


def menu(machine: Spectrum, modules: list) -> object | None:
    """The title page: pick a program with its number; BREAK (Escape) leaves."""
    machine.set_border(0)
    machine.colour(ink=7, paper=0, bright=0, flash=0, inverse=0, over=0)
    machine.cls()
    poke_udgs(machine, SUIT_UDGS)
    machine.print_at(1, 11, "ZX CARDS", ink=6, bright=1)
    machine.print_at(2, 11, "\x83" * 8, ink=2)
    for col in (3, 23):  # the suits on a white card
        machine.print_at(1, col, " " * 6, paper=7, bright=1)
        for offset, suit in enumerate("shcd"):
            machine.print_at(1, col + 1 + offset, SUIT_CHARS[suit], paper=7, ink=card_ink("a" + suit), bright=1)
    for number, module in enumerate(modules, 1):
        machine.print_at(4 + 2 * number, 8, f"{number}  {module.TITLE}")
    machine.print_at(19, 2, f"Press 1-{len(modules)} to play", ink=5)
    machine.print_at(20, 2, "BREAK (Esc) to leave", ink=5)
    while True:
        key = machine.inkey()
        if key.isdigit() and 1 <= int(key) <= len(modules):
            break
        machine.wait_frame(awaiting_key=True)
    # The program chosen must not take the same key press as its own first key: wait for the key to
    # be let go, and take back the new-key flag the keyboard interrupt set for it (FLAGS bit 5).
    while machine.inkey():
        machine.wait_frame()
    machine.poke(sysvars.FLAGS, machine.peek(sysvars.FLAGS) & 0xDF)
    return modules[int(key) - 1]


# Command-line options that are a program's own: option name -> keyword of that program's run()
PROGRAM_OPTIONS = {"seed": "seed", "deal": "deal", "data_dir": "data_dir", "practice": "practice",
                   "level": "level", "full": "full_rules"}


def program_options(program: str | None, args: argparse.Namespace) -> dict:
    """The keywords for `program`'s run() from the options given; ValueError for one it doesn't take."""
    given = {option: getattr(args, option) for option in PROGRAM_OPTIONS
             if getattr(args, option) not in (None, False)}
    if given and not program:
        raise ValueError(f"--{next(iter(given)).replace('_', '-')} is an option of one program: "
                         "name it, e.g. zxcards canfield --deal 7")
    accepted = inspect.signature(load(program).run).parameters if program else {}
    for option in given:
        if PROGRAM_OPTIONS[option] not in accepted:
            raise ValueError(f"{program} has no --{option.replace('_', '-')} option")
    return {PROGRAM_OPTIONS[option]: value for option, value in given.items()}


def play(machine: Spectrum, program: str | None, options: dict | None = None) -> None:
    """Run one program, or the menu and whatever is picked there until BREAK in the menu."""
    if program:
        load(program).run(machine, **(options or {}))
        return
    modules = [load(name) for name in PROGRAMS]
    while True:
        try:
            chosen = menu(machine, modules)
        except ReportError:
            return
        try:
            chosen.run(machine)
        except ReportError as report:  # BREAK (or a report) ends the program, as on the Spectrum
            machine.show_report(report)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="zxcards", description="Classic card games on a ZX Spectrum 48K.")
    parser.add_argument("program", nargs="?", choices=sorted(PROGRAMS), help="start this program directly")
    parser.add_argument("--scale", type=int, default=3, help="window scale (default 3)")
    parser.add_argument("--headless", action="store_true", help="no window: play scripted --keys")
    parser.add_argument("--keys", default="", help="headless key script: text, {ENTER}, {CAPS+5} …")
    parser.add_argument("--screenshot", type=Path, help="headless: save the last screen as PNG")
    parser.add_argument("--wav", type=Path, help="headless: save all the sound as WAV")
    games = parser.add_argument_group("the programs' own options")
    games.add_argument("--seed", type=int, help="patience: the game of RANDOMIZE N (1-65535); "
                                                "spades: repeatable deals")
    games.add_argument("--deal", type=int, help="canfield: play deal number N again")
    games.add_argument("--data-dir", type=Path, help="canfield: keep the accounts here; spades: the game to 500")
    games.add_argument("--practice", action="store_true", help="canfield: no money; undo and hints")
    games.add_argument("--level", choices=("random", "rules", "mcts"), help="spades: the computer players")
    games.add_argument("--full", action="store_true", help="spades: bidding, partners, nil, bags, to 500")
    args = parser.parse_args(argv)
    try:
        options = program_options(args.program, args)
        if args.headless:
            frontend = HeadlessFrontend(script_presses(args.keys))
        else:
            from spectrum.frontends import WindowFrontend
            frontend = WindowFrontend(scale=args.scale, title="ZX Cards")
    except (NoDisplay, ValueError) as error:
        print(f"zxcards: {error}", file=sys.stderr)
        return 1
    machine = Spectrum(frontend)
    try:
        play(machine, args.program, options)
    except (Quit, ScriptExhausted):
        pass
    except ValueError as error:  # a program's option it cannot use, refused before anything is drawn
        print(f"zxcards: {error}", file=sys.stderr)
        return 1
    except ReportError as report:
        if str(report) != BREAK_INTO_PROGRAM:  # BREAK is how a player leaves; anything else is news
            print(f"zxcards: {args.program} stopped with report {report}", file=sys.stderr)
            return 1
    finally:
        machine.flush_sound()
        frontend.close()
        if args.headless and args.screenshot:
            frontend.screenshot(args.screenshot, machine)
        if args.headless and args.wav:
            frontend.save_wav(args.wav)
    return 0


if __name__ == "__main__":
    sys.exit(main())
