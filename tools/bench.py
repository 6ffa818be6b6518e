"""Benchmarks, every figure and ratio measured in this one run (these machines are shared and noisy).

    python tools/bench.py            # all sections (the game sections take minutes)
    python tools/bench.py display    # one section: display, printing, window, patience, canfield, spades,
                                     # opponents, games, serve, tables
    python tools/bench.py serve tables --quick           # the sections that have one, in their quick look
    python tools/bench.py display --write-docs           # and its figures written into docs/benchmarks.md
    xvfb-run -a python tools/bench.py window    # the window's idle cost on an X server without a screen

With --write-docs, each section's block in docs/benchmarks.md (between its markers) is rewritten with
the figures of this run, the command, the date and the machine (its processor, cores and load); the
rest of the page is left as it is.
"""

import argparse
import importlib
import os
import platform
import resource
import statistics
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from spectrum import Spectrum, render
from spectrum.command_line import OneLineParser
from spectrum.hardware import FRAME_SECONDS
from spectrum.oracle import Oracle

SCREEN_TEXT = [bytes(32 + (row * 32 + col) % 96 for col in range(32)) for row in range(22)]


def median_seconds(action, repeats: int) -> float:
    """Median wall time of `action()` over `repeats` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def display() -> list[str]:
    """Display file to RGB, against the 20 ms a frame lasts."""
    memory = np.random.default_rng(1).integers(0, 256, 65536, dtype=np.uint8)
    screen = median_seconds(lambda: render.screen_rgb(memory, True), 2000)
    framed = median_seconds(lambda: render.frame_rgb(memory, True, 3), 2000)
    return [
        f"screen_rgb (256x192)          median {screen * 1e3:.3f} ms = {screen / FRAME_SECONDS:.2%} of a frame",
        f"frame_rgb (with border)       median {framed * 1e3:.3f} ms = {framed / FRAME_SECONDS:.2%} of a frame",
    ]


def full_screen_print(machine: Spectrum) -> None:
    for row, text in enumerate(SCREEN_TEXT):
        machine.print_at(row, 0, text)


def basic_literal(text: bytes) -> str:
    """Printable codes as the inside of a listing's string literal."""
    escapes = {ord("\\"): "\\\\", ord('"'): '""', 127: "\\*"}
    return "".join(escapes.get(code, chr(code)) for code in text)


def printing() -> list[str]:
    """A full screen of PRINT AT (22 rows of 32 characters): the layer against the ROM."""
    machine = Spectrum()
    layer = median_seconds(lambda: full_screen_print(machine), 50)
    listing = (
        "10 LET f=PEEK 23672+256*PEEK 23673\n"
        + "".join(f'{20 + row} PRINT AT {row},0;"{basic_literal(text)}";\n' for row, text in enumerate(SCREEN_TEXT))
        + "50 LET g=PEEK 23672+256*PEEK 23673\n"
    )
    oracle = Oracle()
    oracle.typed(listing)  # typing the listing in is not part of the run
    start = time.perf_counter()
    result = oracle.run(listing)
    emulator = time.perf_counter() - start
    spectrum = (result.variables["g"] - result.variables["f"]) * FRAME_SECONDS
    return [
        f"layer: 704 characters by PRINT AT median {layer * 1e3:.2f} ms",
        f"ROM:   the same PRINTs take {spectrum * 1e3:.0f} ms of Spectrum time "
        f"({emulator * 1e3:.1f} ms wall in the emulator, with RUN)",
        f"ratio: the layer is {spectrum / layer:.0f}x a real Spectrum, {emulator / layer:.1f}x the emulator",
    ]


IDLE_SECONDS = 5


def window_cost(window, machine, action, seconds: float) -> tuple[float, float, str]:
    """(share of one core, frames a second, SDL video driver) while `action()` runs `machine` in
    `window` for `seconds`, until the window's Quit ends it; the window is closed afterwards."""
    import pygame

    from spectrum.frontends import Quit

    pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), loops=1)
    used, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    try:
        action()
    except Quit:
        pass
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    driver = pygame.display.get_driver()
    window.close()
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    return cpu / wall, machine.frame_count / wall, driver


def idle_window() -> list[str]:
    """The window idle at the menu: the share of one core the process takes, at scale 1 and 3."""
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from games.host import PROGRAMS, load, menu
    from spectrum.frontends import WindowFrontend

    lines = []
    for scale in (1, 3):
        window = WindowFrontend(scale=scale)
        machine = Spectrum(window)
        share, frames, driver = window_cost(
            window, machine, lambda: menu.run(machine, [load(name) for name in PROGRAMS]), IDLE_SECONDS
        )
        lines.append(
            f"scale {scale}: {share:.1%} of a core over {IDLE_SECONDS} s at the menu "
            f"({frames:.0f} frames a second; SDL video driver {driver})"
        )
    return lines


def game_section(module_name: str):
    """A game's section: `report()` of tools/<module_name>.py, imported only when it runs; with
    `quick`, the arguments of its quick look (QUICK_ARGUMENTS) when it has one."""

    def section(quick: bool = False) -> list[str]:
        module = importlib.import_module(module_name)
        arguments = QUICK_ARGUMENTS[module_name](module) if quick and module_name in QUICK_ARGUMENTS else {}
        return module.report(**arguments)

    section.__doc__ = GAME_SECTIONS[module_name]
    return section


# The quick look of the sections that have one, as each bench's own --quick (or its docstring) sets it
QUICK_ARGUMENTS = {
    "bench_canfield": lambda module: {"deals": 100, "seconds": 2.0},
    "bench_serve": lambda module: {"levels": module.QUICK_LEVELS, "seconds": module.QUICK_SECONDS},
    "bench_tables": lambda module: {"tables": module.QUICK_TABLES, "hands": module.QUICK_HANDS},
    "bench_spades": lambda module: {
        "hands": module.QUICK_HANDS,
        "given_away_hands": module.QUICK_GIVEN_AWAY_HANDS,
        "solver_deals": module.QUICK_SOLVER_DEALS,
        "games": module.QUICK_GAMES,
    },
    "bench_opponents": lambda module: {"hands": module.QUICK_HANDS, "games": module.QUICK_GAMES},
}


GAME_SECTIONS = {
    "bench_patience": "11-Up Patience: the port's shuffle and deal against the listing on the ROM, its time "
    "statement by statement; the listing live.",
    "bench_canfield": "Canfield: the solver over deals 1-1,000 (solve rate, time per deal).",
    "bench_spades": "Spades: each computer player against three of the level below, over rotated deals.",
    "bench_opponents": "Spades: every level against opponents of other habits (a nil buster, a cautious "
    "player, a greedy one, a card counter, a sandbagger) and mixed pairs of them, the seed's "
    "game and the full game to 500.",
    "bench_games": "Every game through the one game-state protocol: random playouts a second.",
    "bench_serve": "zxcards serve: sessions held at 50 frames a second, each one's processor time, bytes a "
    "second and key-to-screen time, the idle server.",
    "bench_tables": "Spades tables for four: 50 tables of scripted people coming and going, every frame read "
    "for another's hand, each hand's end against the seat's view, the frame rate held.",
}
SECTIONS = {
    "display": display,
    "printing": printing,
    "window": idle_window,
    **{name.removeprefix("bench_"): game_section(name) for name in GAME_SECTIONS},
}


def section_name(text: str) -> str:
    """An argparse type: the name of a section (argparse's own `choices` refuses an empty list)."""
    if text not in SECTIONS:
        raise argparse.ArgumentTypeError(f"no section {text!r}: choose from {', '.join(SECTIONS)}")
    return text


def has_quick_look(name: str) -> bool:
    return f"bench_{name}" in QUICK_ARGUMENTS


# --- docs/benchmarks.md ----------------------------------------------------------------------------

DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def markers(name: str) -> tuple[str, str]:
    """The lines that open and close section `name`'s block in the benchmarks page."""
    return f"<!-- bench {name}: written by tools/bench.py --write-docs -->", f"<!-- end bench {name} -->"


def machine_facts(load_before: tuple[float, ...]) -> str:
    """The machine a run measured: processor, cores, the load average (1 min) before and after, Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    niceness = os.nice(0)
    return (
        f"{model}, {os.cpu_count()} cores (nproc), load average {load_before[0]:.2f} before and "
        f"{os.getloadavg()[0]:.2f} after{f', run at nice {niceness}' if niceness else ''}; "
        f"Python {platform.python_version()}, {platform.system()}"
    )


def section_block(name: str, command: str, when: datetime, machine: str, lines: list[str]) -> str:
    """What the page shows of one section's run, between its markers."""
    said = textwrap.wrap(
        f"Measured {when:%Y-%m-%d %H:%M} UTC by `{command.replace(' ', NBSP)}` on {machine}:",
        width=100,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join([line.replace(NBSP, " ") for line in said] + ["", "```text", *lines, "```"])


NBSP = "\N{NO-BREAK SPACE}"  # holds the command together on one line while the rest is wrapped


def written_into(page: str, name: str, block: str) -> str:
    """`page` with section `name`'s block replaced by `block`; ValueError unless the page has that
    section's markers once each, in order."""
    opening, closing = markers(name)
    if page.count(opening) != 1 or page.count(closing) != 1 or page.index(opening) > page.index(closing):
        raise ValueError(
            f"{DOCS_PAGE.name} has no block for the section {name!r} (a line {opening!r}, then {closing!r})"
        )
    before, rest = page.split(opening)
    _, after = rest.split(closing)
    return f"{before}{opening}\n{block}\n{closing}{after}"


def main(argv: list[str]) -> int:
    parser = OneLineParser(prog="bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "sections",
        nargs="*",
        type=section_name,
        metavar="SECTION",
        help=f"the sections to run, of {', '.join(SECTIONS)} (default: all)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="the quick look of the sections that have one: "
        + ", ".join(name for name in SECTIONS if has_quick_look(name)),
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help=f"write each section's figures, command, date and machine into docs/{DOCS_PAGE.name}",
    )
    options = parser.parse_args(argv)
    chosen = options.sections or list(SECTIONS)
    if options.write_docs:  # a page without a section's block is said before anything runs
        for name in chosen:
            try:
                written_into(DOCS_PAGE.read_text(encoding="utf-8"), name, "")
            except (OSError, ValueError) as error:
                parser.error(str(error))
    for name in chosen:
        print(f"== {name}: {SECTIONS[name].__doc__.splitlines()[0]}", flush=True)
        quick = options.quick and has_quick_look(name)
        load_before, when = os.getloadavg(), datetime.now(timezone.utc)
        lines = []
        for line in SECTIONS[name](quick=True) if quick else SECTIONS[name]():
            print("  " + line, flush=True)
            lines.append(line)
        if options.write_docs:
            command = f"python tools/bench.py {name}" + (" --quick" if quick else "")
            if "xvfb-run" in os.environ.get("XAUTHORITY", ""):  # the X server without a screen that xvfb-run starts
                command = "xvfb-run -a " + command
            block = section_block(name, command, when, machine_facts(load_before), lines)
            DOCS_PAGE.write_text(written_into(DOCS_PAGE.read_text(encoding="utf-8"), name, block), encoding="utf-8")
            print(f"  (written into docs/{DOCS_PAGE.name})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
