"""11-Up Patience benchmarks: the port's shuffle and deal against the listing on the ROM, measured in one run.

    python tools/bench_patience.py

`report()` is the section for tools/bench.py.
"""

import sys
import time
from pathlib import Path

from bench import median_seconds
from games.patience import play, rules
from spectrum import Spectrum
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
    machine.randomize(SEED)
    play.shuffle(machine, play.make_pack())


def port_deal() -> None:
    machine = Spectrum()
    machine.randomize(SEED)
    play.deal(machine, play.initialise(rules.Table(play.shuffle(machine, play.make_pack()))))


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
            f"({deal_emulator * 1e3:.0f} ms in the emulator): {deal_rom / deal_port:.0f}x a real Spectrum"]


if __name__ == "__main__":
    print(f"== patience: {report.__doc__.splitlines()[0]}")
    for line in report():
        print("  " + line)
