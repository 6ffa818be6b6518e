"""`zxcards`: the menu of the programs, or one program directly, in a window or headless.

Each program declares its own options (`add_options` in its package), so `zxcards canfield --help`
lists Canfield's; the window and headless options are on the menu and on every program.
"""

import argparse
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from spectrum import Spectrum
from spectrum.command_line import OneLineParser, ends_quietly, new_file_ending, whole_number
from spectrum.frontends import HeadlessFrontend, NoDisplay, Press, Quit, presses_from
from spectrum.pointing import Tap, TargetError
from spectrum.rom_machine import ProgramFileError, RomSpectrum

from ..datafolder import DataUnusable, check_folder
from . import PROGRAMS, load, menu, router, serve
from .session import ended, start_frames_from_host_clock

DEFAULT_SCALE = 3  # a window three times life size (reduced to fit the display)
HEADLESS_SCALE = 2  # a headless --screenshot twice life size, 640x480, unless --scale says otherwise
LOAD = "load"  # zxcards load FILE: a tape or a listing on the genuine ROM
SERVE, CONNECT = "serve", "connect"  # every program on a web page; a window or script as its terminal
HEADLESS_ONLY = ("keys", "screenshot", "wav")  # a window takes the keys from the keyboard
COMMON_OPTIONS = ("scale", "headless", *HEADLESS_ONLY)
COMMON_OPTION_NAMES = tuple(f"--{name}" for name in COMMON_OPTIONS)


def script_presses(keys: str) -> list[Press | Tap]:
    """The key presses of a --keys script: characters to type, {NAME} or {NAME+NAME} for other
    keys held together ({ENTER}, {CAPS+5}), and \\{ \\} \\\\ to type a brace or a backslash; each is
    typed when the program waits for a key. {x*N} holds a press for N frames; {@N} times the next
    press for frame N and {+N} for N frames after the press before is let go of, whatever the
    program is doing. {tap ROW,COL} or {tap NAME} taps a cell or a target of the program's, {drag
    FROM TO} drags (`spectrum.pointing`). ValueError says what is wrong."""
    presses: list[Press | Tap] = []
    at, timing = 0, {}
    item: str | list[str]  # a character, or the names of keys held together
    while at < len(keys):
        char = keys[at]
        if char == "\\":
            escaped = keys[at + 1 : at + 2]
            if escaped not in ("{", "}", "\\"):
                raise ValueError(f"\\ at character {at + 1} escapes only {{, }} and \\ (\\{{ \\}} \\\\)")
            item, hold, at = escaped, None, at + 2
        elif char == "{":
            end = keys.find("}", at)
            if end < 0:
                raise ValueError(f"the {{ at character {at + 1} is not closed; \\{{ types a brace")
            inside, at = keys[at + 1 : end], end + 1
            if inside.split(" ")[0] in ("tap", "drag"):
                try:
                    presses.append(Tap.parse(inside))
                except TargetError as error:
                    raise ValueError(str(error)) from None
                continue
            timed = re.fullmatch(r"([@+])(\d+)", inside)
            if timed:
                timing = {"at" if timed[1] == "@" else "after": int(timed[2])}
                continue
            held = re.fullmatch(r"(.+)\*(\d+)", inside)
            if held and int(held[2]) < 1:
                raise ValueError(f"{{{inside}}} holds a key for no frames: from *1 on")
            name, hold = (held[1], int(held[2])) if held else (inside, None)
            item = name if len(name) == 1 and held else name.split("+")
        elif char == "}":
            raise ValueError(f"the }} at character {at + 1} closes nothing; \\}} types a brace")
        else:
            item, hold, at = char, None, at + 1
        for number, typed in enumerate(presses_from([item])):
            presses.append(Press(typed, hold, **(timing if number == 0 else {})))
        timing = {}
    if timing:
        raise ValueError("the script ends with {@N} or {+N}: a timing is for the press after it")
    return presses


def key_script(text: str) -> list[Press | Tap]:
    try:
        return script_presses(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_common_options(parser: argparse.ArgumentParser, *, with_defaults: bool) -> None:
    """The window and headless options. A program's parser has them without defaults, so that
    `zxcards --headless canfield` keeps the --headless given before the program's name."""

    def default(value):
        return value if with_defaults else argparse.SUPPRESS

    group = parser.add_argument_group("window and headless options")
    group.add_argument(
        "--scale",
        type=whole_number(1, what="the scale"),
        default=default(None),
        metavar="N",
        help=f"the window N times life size (default {DEFAULT_SCALE}; reduced to fit the display); "
        f"headless, the PNG --screenshot (default {HEADLESS_SCALE}: 1 is 320x240)",
    )
    group.add_argument(
        "--headless", action="store_true", default=default(False), help="no window: play the --keys script"
    )
    group.add_argument(
        "--keys",
        type=key_script,
        default=default([]),
        metavar="TEXT",
        help=r"headless: keys to type; {ENTER}, {DELETE}, {LEFT}, {BREAK}, {CAPS+5}… for others, {ESC} "
        r"leaves the program; {tap ROW,COL} or {tap NAME} taps a cell or a target, {drag A B} "
        r"drags; \{ \} \\ for { } \ ",
    )
    group.add_argument(
        "--screenshot",
        type=new_file_ending(".png", ".scr"),
        default=default(None),
        metavar="FILE",
        help="headless: save the last screen as a PNG, or as SCREEN$ (6,912 bytes) if FILE ends in .scr",
    )
    group.add_argument(
        "--wav",
        type=new_file_ending(".wav"),
        default=default(None),
        metavar="WAV",
        help="headless: save all the sound as a WAV",
    )


def command_line() -> OneLineParser:
    parser = OneLineParser(
        prog="zxcards",
        allow_abbrev=False,
        description="Classic card games on a ZX Spectrum 48K: the menu, or a program started directly.",
    )
    add_common_options(parser, with_defaults=True)
    programs = parser.add_subparsers(
        dest="program", metavar="PROGRAM", title="programs (zxcards PROGRAM --help lists its options)"
    )
    for name in PROGRAMS:
        program = load(name)
        program_parser = programs.add_parser(name, help=program.TITLE, description=program.__doc__.splitlines()[0])
        program.add_options(program_parser)
        add_common_options(program_parser, with_defaults=False)
    loader = programs.add_parser(
        LOAD,
        help="a .tap or a BASIC listing, on the genuine 48K ROM",
        description="A .tap with a BASIC program (LOAD \"\", played to the ROM's loader at "
        "the tape's speed), or a listing in text (typed in and RUN), on the "
        "genuine 48K ROM.",
    )
    loader.add_argument("file", type=Path, help="the .tap, or the listing (zmakebas escapes, as zxcards-tap reads)")
    loader.add_argument(
        "--fast",
        action="store_true",
        help="put the tape's blocks in memory at once as the ROM asks for them, instead of playing "
        "the tape to its loader",
    )
    add_common_options(loader, with_defaults=False)
    server = programs.add_parser(
        SERVE,
        help="every program on a web page, a Spectrum for each tab",
        description="Serve the menu and every program on a web page: each browser tab gets a "
        "Spectrum of its own. The first line printed is the address to open.",
    )
    serve.add_options(server)
    terminal = programs.add_parser(
        CONNECT,
        help="a window (or a headless script) on a served Spectrum",
        description="Play a Spectrum that `zxcards serve` runs, in a window or headless "
        "(the script is typed as the remote program waits for keys).",
    )
    terminal.add_argument(
        "url",
        help="the page's address, as serve prints it, with a program and options: "
        "http://127.0.0.1:8048/patience?seed=5",
    )
    add_common_options(terminal, with_defaults=False)
    return parser


def open_window(scale: int):
    from spectrum.frontends import WindowFrontend

    window = WindowFrontend(scale=scale, title="ZX Cards")
    if window.scale_note:
        print(f"zxcards: {window.scale_note}", file=sys.stderr)
    return window


def misplaced_option(argv: list[str]) -> str | None:
    """The first option before the program's name (or with no program) that only a program takes."""
    for arg in argv:
        if arg in PROGRAMS or arg in (LOAD, SERVE, CONNECT):
            return None
        if arg.startswith("--") and arg.split("=")[0] not in (*COMMON_OPTION_NAMES, "--help"):
            return arg.split("=")[0]
    return None


@ends_quietly
def main(argv=None) -> int | str | None:  # the exit status, as sys.exit takes it
    argv = sys.argv[1:] if argv is None else list(argv)
    misplaced = misplaced_option(argv)
    if misplaced:
        print(
            f"zxcards: no option {misplaced} before a program's name (a program's own options follow it: "
            "zxcards PROGRAM --help)",
            file=sys.stderr,
        )
        return 2
    try:
        args = command_line().parse_args(argv)
    except SystemExit as done:  # --help, or the command line's fault said in one line
        return done.code
    if args.program == SERVE:
        return serve_command(args)
    options = {name: value for name, value in vars(args).items() if name not in (*COMMON_OPTIONS, "program", "file")}
    window_only = [f"--{name}" for name in HEADLESS_ONLY if getattr(args, name)]
    if window_only and not args.headless:
        print(
            f"zxcards: {' and '.join(window_only)} {'needs' if len(window_only) == 1 else 'need'} --headless "
            "(a window plays from the keyboard)",
            file=sys.stderr,
        )
        return 2
    if args.program == LOAD:
        try:  # the file is read, and refused if it must be, before a window opens
            machine = RomSpectrum.from_file(None, args.file, fast=args.fast)
        except ProgramFileError as error:
            print(f"zxcards load: {error}", file=sys.stderr)
            return 1
        except OSError as error:
            print(f"zxcards load: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
            return 1
    try:
        frontend = HeadlessFrontend(args.keys) if args.headless else open_window(args.scale or DEFAULT_SCALE)
    except NoDisplay as error:
        print(f"zxcards: {error}; run with --headless to play without a display", file=sys.stderr)
        return 1
    if args.program == CONNECT:
        return connect_command(args, frontend)
    if args.program == LOAD:
        machine.frontend = frontend
    else:
        machine = Spectrum(frontend)
        start_frames_from_host_clock(machine)
    frontend.status = menu.LEAVE_ZXCARDS
    session: Callable[[], int | None]
    if args.program == LOAD:
        session = machine.run
    elif args.program:
        session = partial(menu.run_program, machine, load(args.program), **options)
    else:
        session = partial(menu.run, machine, [load(name) for name in PROGRAMS])
    tapped_nothing = None
    try:
        ending = ended(session)
    except KeyboardInterrupt:  # Ctrl-C in the terminal: leave as quietly as closing the window
        ending = None
    except TargetError as error:  # a script's tap on what is not there: where it stopped is saved
        ending, tapped_nothing = None, error
    finally:
        machine.flush_sound()
        frontend.close()
    if tapped_nothing is not None:
        print(f"zxcards {args.program or 'menu'}: the key script stopped: {tapped_nothing}", file=sys.stderr)
        status = 1
    elif ending is None:
        status = 130
    elif ending.refused is not None:  # options a program refuses together, said before anything is drawn
        print(f"zxcards {args.program}: {ending.refused}", file=sys.stderr)
        status = ending.status
    else:
        if ending.report is not None:
            print(f"zxcards: {ending.said(args.program)}", file=sys.stderr)
        status = ending.status
    return save_headless_output(args, frontend, machine) or status


def serve_command(args: argparse.Namespace) -> int:
    """zxcards serve: the address on the first line of stdout, then sessions until Ctrl-C."""
    import asyncio

    if args.host in ("0.0.0.0", "::", ""):
        kept = "the database given" if args.database else "this computer's zxcards data folder"
        print(
            "zxcards serve: listening on every network this computer is on: anyone who can reach it can play, "
            f"and the accounts they make are kept in {kept}",
            file=sys.stderr,
        )
    try:  # where the players' data and the tables are kept is checked before anyone connects
        store = None
        if args.database:
            from ..postgres import PostgresStore

            store = PostgresStore(args.database)  # reached, and its tables made, before anyone connects
        server = serve.Server(max_sessions=args.max_sessions, data_dir=args.data_dir, store=store)
        if store is None:  # with a database, nothing is kept in the data folder
            check_folder(server.data_root)
    except DataUnusable as error:
        print(f"zxcards serve: {error}", file=sys.stderr)
        return 1
    try:
        if args.workers > 1:  # each worker reaches the database itself (a connection can't cross processes)
            if store is not None:
                store.close()
                store = None
            routing = router.Router(
                args.workers, {"max_sessions": args.max_sessions, "data_dir": args.data_dir, "database": args.database}
            )
            asyncio.run(routing.run(args.host, args.port, started=lambda url: print(url, flush=True)))
        else:
            asyncio.run(
                serve.serve_until_stopped(args.host, args.port, server, started=lambda url: print(url, flush=True))
            )
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:  # the address could not be said: nobody reads this command's output
        raise
    except OSError as error:
        print(f"zxcards serve: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    finally:
        if store is not None:
            store.close()
    return 0


def connect_command(args: argparse.Namespace, frontend) -> int:
    """zxcards connect URL: this front end as the terminal of a served session."""
    from . import connect

    terminal, interrupted = None, False
    try:
        terminal = connect.run(args.url, frontend, headless=args.headless)
    except connect.ConnectError as error:
        print(f"zxcards connect: {error}", file=sys.stderr)
        return 1
    except Quit:
        pass
    except KeyboardInterrupt:  # Ctrl-C in the terminal: as quietly as a local run, and with its status
        interrupted = True
    finally:
        frontend.close()
    status = 130 if interrupted else 0
    if terminal is not None and terminal.ended and terminal.exit_status:
        print(f"zxcards connect: {terminal.ended}", file=sys.stderr)
        status = terminal.exit_status
    return save_headless_output(args, frontend, terminal) or status


def save_headless_output(args: argparse.Namespace, frontend, machine: Spectrum) -> int:
    """Write --screenshot and --wav; 1 (and one line said) if one cannot be written."""
    try:
        if args.screenshot:  # of the machine the front end showed last: the ROM's, when it ran
            frontend.screenshot(args.screenshot, frontend.shown or machine, scale=args.scale or HEADLESS_SCALE)
        if args.wav:
            frontend.save_wav(args.wav)
    except OSError as error:
        print(f"zxcards: cannot write {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
