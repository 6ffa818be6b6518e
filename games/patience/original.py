"""The listing itself, `patience.bas`, on the genuine 48K ROM in the same front ends as the port,
and the two side by side with the same keys.

The ROM types the listing in with its own editor and RUNs it; `seed` rewrites line 1040 to
`RANDOMIZE seed`, which is what the port's `seed` stands for.
"""

from __future__ import annotations

from pathlib import Path

from spectrum import ReportError, Spectrum
from spectrum.compare import Difference, KeyWaitRecorder, first_difference
from spectrum.frontends import ScriptExhausted
from spectrum.rom_machine import RomSpectrum

from . import play

LISTING_FILE = Path(__file__).with_name("patience.bas")
RANDOMIZE_LINE = "\n1040 RANDOMIZE\n"


def listing(seed: int | None = None) -> str:
    """The listing as typed into the ROM; with `seed`, line 1040 reads RANDOMIZE seed."""
    text = LISTING_FILE.read_text()
    return text if seed is None else text.replace(RANDOMIZE_LINE, f"\n1040 RANDOMIZE {seed}\n")


def rom_machine(frontend, seed: int | None = None) -> RomSpectrum:
    """The listing RUN on the ROM, about to show its first frame in `frontend`."""
    return RomSpectrum.running(frontend, listing(seed))


def run_port(machine: Spectrum, seed: int, recorder: KeyWaitRecorder) -> None:
    """The port until it ends or waits with no keys left; its end is noted as a key wait with the
    program stopped, as the ROM waits at its command line then."""
    try:
        play.run(machine, seed)
    except ScriptExhausted:
        return
    except ReportError:
        pass
    recorder.note(machine, stopped=True)


def compare_headless(presses, seed: int) -> tuple[Difference | None, Spectrum, RomSpectrum]:
    """The port and the listing on the ROM, each given `presses` at its own key waits: the first
    difference (None if none) and the two machines as they ended."""
    port_keys, rom_keys = KeyWaitRecorder(presses), KeyWaitRecorder(presses)
    port = Spectrum(port_keys)
    run_port(port, seed, port_keys)
    rom = rom_machine(rom_keys, seed)
    try:
        rom.run()
    except ScriptExhausted:
        pass
    finally:
        rom.flush_sound()
    return first_difference(port_keys.waits, rom_keys.waits), port, rom
