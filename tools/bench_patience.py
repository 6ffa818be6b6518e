"""11-Up Patience benchmarks: the port's shuffle and deal against the listing on the ROM, and the
listing played live on the ROM machine (headless speed; a window's share of a core against the
port's), measured in one run.

    python tools/bench_patience.py
    xvfb-run -a python tools/bench_patience.py    # the windows on an X server without a screen

`report()` is the section for tools/bench.py.
"""

import os
import sys
import time
from pathlib import Path

from bench import median_seconds, window_cost
from games.patience import original, play
from spectrum import Spectrum
from spectrum.command_line import OneLineParser
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.sound import FRAME_T_STATES, T_STATES_PER_SECOND
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


def port_shuffle() -> None:
    machine = Spectrum()
    play.start(machine)
    machine.randomize(SEED)
    play.made_and_shuffled(machine)


def port_deal() -> None:
    play.dealt_game(Spectrum(), SEED)


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
    return window_cost(window, machine, (lambda: play.run(machine, SEED)) if mode == "port" else machine.run,
                       WINDOW_SECONDS)


def report() -> list[str]:
    """11-Up Patience: shuffle and deal, the port against the listing on the ROM."""
    listing = LISTING.read_text()
    shuffle_port = median_seconds(port_shuffle, 20)
    shuffle_rom, shuffle_emulator = rom_seconds(listing + SHUFFLE_ONLY)
    deal_port = median_seconds(port_deal, 20)
    deal_rom, deal_emulator = rom_seconds(listing + DEAL_ONLY, [Unfinished("")])
    return [f"shuffle (60 cuts, 60 BEEPs): port median {shuffle_port * 1e3:.1f} ms; ROM {shuffle_rom:.2f} s of "
            f"Spectrum time ({shuffle_emulator * 1e3:.0f} ms in the emulator): the port is "
            f"{shuffle_rom / shuffle_port:.0f}x a real Spectrum",
            f"shuffle and deal to the first INPUT: port median {deal_port * 1e3:.1f} ms; ROM {deal_rom:.2f} s "
            f"({deal_emulator * 1e3:.0f} ms in the emulator): {deal_rom / deal_port:.0f}x a real Spectrum",
            *live_rom()]


def live_rom() -> list[str]:
    """zxcards patience --rom: headless speed, and a window's cost beside the port's."""
    spectrum_seconds, wall = rom_mode_headless()
    lines = [f"ROM mode headless, RUN to the first move: {spectrum_seconds:.1f} s of Spectrum time in "
             f"{wall:.2f} s: {spectrum_seconds / wall:.0f}x real time"]
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    for mode in ("port", "ROM"):
        share, frames, driver = window_share(mode)
        lines.append(f"{mode} in a window at scale {WINDOW_SCALE}, the title typed out: {share:.1%} of a core "
                     f"({frames:.1f} frames a second; SDL video driver {driver})")
    return lines


def main(argv: list[str] | None = None) -> int:
    OneLineParser(prog="bench_patience", description=__doc__.splitlines()[0]).parse_args(argv)
    print(f"== patience: {report.__doc__.splitlines()[0]}")
    for line in report():
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
