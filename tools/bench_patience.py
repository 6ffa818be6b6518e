"""11-Up Patience benchmarks: the port's shuffle and deal against the listing on the ROM, the port's
time statement by statement against the ROM's over a whole game, and the listing played live on
the ROM machine (headless speed; a window's share of a core against the port's), measured in one
run.

    python tools/bench_patience.py
    xvfb-run -a python tools/bench_patience.py    # the windows on an X server without a screen

`report()` is the section for tools/bench.py.
"""

import os
import sys
import time
from pathlib import Path

import numpy as np

from bench import median_seconds, window_cost
import games.patience as patience
from games.patience import original, play, rules
from spectrum import Spectrum
from spectrum.calibration import rom_run
from spectrum.command_line import OneLineParser
from spectrum.frontends import HeadlessFrontend, ScriptExhausted, presses_from
from spectrum.hardware import FRAME_T_STATES, T_STATES_PER_SECOND
from spectrum.oracle import Oracle, Unfinished

LISTING = Path(__file__).resolve().parent.parent / "games" / "patience" / "patience.bas"
SEED = 1984
SHUFFLE_ONLY = f"1 RANDOMIZE {SEED}: GO SUB 1400: STOP\n"
# No title: initialise, make and shuffle the pack, deal up to the first INPUT
DEAL_ONLY = f"1 GO SUB 1710: RANDOMIZE {SEED}: GO SUB 1400: GO TO 1050\n"


def rom_seconds(listing: str, script=()) -> tuple[float, float]:
    """(Spectrum seconds, emulator wall seconds) of one run of `listing`, typing it in excluded."""
    oracle = Oracle()
    oracle.typed(listing)
    start = time.perf_counter()
    result = oracle.run(listing, list(script))
    return result.seconds, time.perf_counter() - start


def port_shuffle(fast: bool = False) -> Spectrum:
    machine = Spectrum()
    play.start(machine, fast=fast)
    machine.randomize(SEED)
    play.made_and_shuffled(machine)
    return machine


def port_deal(fast: bool = False) -> Spectrum:
    machine = Spectrum()
    play.dealt_game(machine, SEED, fast)
    return machine


TIMELINE_SEED = 1  # a game won to the end: the title, the shuffle, every move and the goodbye


def timelines() -> tuple[list[tuple[int, int, int]], list]:
    """The port's statement starts and the ROM's, T-states from frame 0, over one whole game."""
    line = rules.winning_line(patience.shuffled_pack(TIMELINE_SEED).decode("latin-1"))
    presses = presses_from(["SPACE", *(key for entry in line for key in (*entry, "ENTER")), "n"])
    rom = rom_run(original.listing(TIMELINE_SEED), presses)
    machine = Spectrum(HeadlessFrontend(presses))
    machine.timeline = []
    try:
        play.run(machine, TIMELINE_SEED)
    except ScriptExhausted:
        pass
    return machine.timeline, [(start.t - rom.origin, start.line, start.statement) for start in rom.statements]


def timeline_report() -> list[str]:
    """How far from the ROM's each statement of the port starts, over a whole game."""
    port, rom = timelines()
    same = [(ours[0], theirs[0]) for ours, theirs in zip(port, rom) if ours[1:] == theirs[1:]]
    errors = np.array([ours - theirs for ours, theirs in same]) / FRAME_T_STATES
    return [
        f"timeline, seed {TIMELINE_SEED} won and goodbye: {len(port):,} statements on the port, "
        f"{len(rom):,} on the ROM, {len(same):,} the same in turn; the last starts at frame "
        f"{rom[-1][0] / FRAME_T_STATES:,.0f} on the ROM, {port[-1][0] / FRAME_T_STATES:,.1f} on the port",
        f"  a statement's start, port less ROM: median {np.median(errors):+.2f} frames, "
        f"95% within {np.percentile(np.abs(errors), 95):.2f}, worst {errors[np.argmax(np.abs(errors))]:+.2f}",
    ]


FRAMES_PER_SECOND = T_STATES_PER_SECOND / FRAME_T_STATES  # 50.08
WINDOW_SECONDS = 10
WINDOW_SCALE = 3


def rom_mode_headless() -> tuple[float, float]:
    """(Spectrum seconds, wall seconds) of the listing on the live ROM machine from RUN to the
    first move: the typed-out title, a key, the shuffle and the deal."""
    frontend = HeadlessFrontend(["SPACE"])
    machine = original.rom_machine(frontend, SEED)
    start = time.perf_counter()
    try:
        machine.run()
    except ScriptExhausted:
        pass
    return machine.frame_count / FRAMES_PER_SECOND, time.perf_counter() - start


def window_share(mode: str) -> tuple[float, float, str]:
    """(share of a core, frames a second, SDL video driver) of the port or the ROM machine in a window at scale 3
    for WINDOW_SECONDS of the title being typed out (the screen changes every other frame)."""
    from spectrum.frontends import WindowFrontend

    window = WindowFrontend(scale=WINDOW_SCALE)
    machine = Spectrum(window) if mode == "port" else original.rom_machine(window, SEED)
    return window_cost(
        window, machine, (lambda: play.run(machine, SEED)) if mode == "port" else machine.run, WINDOW_SECONDS
    )


def report() -> list[str]:
    """11-Up Patience: shuffle and deal, the port against the listing on the ROM."""
    listing = LISTING.read_text()
    lines = []
    for name, port, rom_listing, script in (
        ("shuffle (60 cuts, 60 BEEPs)", port_shuffle, SHUFFLE_ONLY, ()),
        ("shuffle and deal to the first INPUT", port_deal, DEAL_ONLY, [Unfinished("")]),
    ):
        rom_spectrum, rom_wall = rom_seconds(listing + rom_listing, script)
        timed, fast = median_seconds(port, 10), median_seconds(lambda: port(fast=True), 10)
        lines += [
            f"{name}: ROM {rom_spectrum:.2f} s of Spectrum time ({rom_wall * 1e3:.0f} ms in the emulator); "
            f"the port computes it in {timed * 1e3:.1f} ms ({rom_spectrum / timed:.0f}x real time), "
            f"--fast in {fast * 1e3:.1f} ms"
        ]
    return lines + timeline_report() + live_rom()


def live_rom() -> list[str]:
    """zxcards patience --rom: headless speed, and a window's cost beside the port's."""
    spectrum_seconds, wall = rom_mode_headless()
    lines = [
        f"ROM mode headless, RUN to the first move: {spectrum_seconds:.1f} s of Spectrum time in "
        f"{wall:.2f} s: {spectrum_seconds / wall:.0f}x real time"
    ]
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    for mode in ("port", "ROM"):
        share, frames, driver = window_share(mode)
        lines.append(
            f"{mode} in a window at scale {WINDOW_SCALE}, the title typed out: {share:.1%} of a core "
            f"({frames:.1f} frames a second; SDL video driver {driver})"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    OneLineParser(prog="bench_patience", description=__doc__.splitlines()[0]).parse_args(argv)
    print(f"== patience: {report.__doc__.splitlines()[0]}")
    for line in report():
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
