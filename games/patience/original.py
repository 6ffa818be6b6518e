"""The listing itself, `patience.bas`, on the genuine 48K ROM in the same front ends as the port,
and the two side by side with the same keys.

The ROM types the listing in with its own editor and RUNs it, or LOADs it from the tape it is
saved to as in 1984 (autostarting at its loader, line 1760, which asks to stop the tape); `seed`
rewrites line 1040 to `RANDOMIZE seed`, which is what the port's `seed` stands for. Side by side,
both play the game of one seed (one is drawn from the clock when none is given: their FRAMES
differ).
"""

from __future__ import annotations

import sys
import time

from spectrum import ReportError, Spectrum
from spectrum import sysvars
from spectrum.compare import Difference, KeyWait, KeyWaitRecorder, Lateness, first_difference, first_lateness
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.make_tap import listing_tap
from spectrum.rom_machine import RomSpectrum

from . import play, targets

LISTING_FILE = play.LISTING_FILE
RANDOMIZE_LINE = "\n1040 RANDOMIZE\n"
TAPE_NAME, AUTOSTART_LINE = "patience", 1760  # as the listing was saved: its loader asks to stop the tape


def listing(seed: int | None = None) -> str:
    """The listing as typed into the ROM; with `seed`, line 1040 reads RANDOMIZE seed."""
    text = LISTING_FILE.read_text()
    return text if seed is None else text.replace(RANDOMIZE_LINE, f"\n1040 RANDOMIZE {seed}\n")


def rom_machine(frontend, seed: int | None = None, from_tape: bool = False) -> RomSpectrum:
    """The listing RUN on the ROM, or (`from_tape`) LOADed from its tape at the tape's speed, about
    to show its first frame in `frontend`."""
    if from_tape:
        rom = RomSpectrum.loading(frontend, listing_tap(listing(seed), TAPE_NAME, AUTOSTART_LINE)[0])
    else:
        rom = RomSpectrum.running(frontend, listing(seed))
    rom.targets = targets.targets  # the same screen as the port's: the same taps type the same keys
    return rom


def run_port(machine: Spectrum, program, recorder: KeyWaitRecorder) -> None:
    """`program(machine)`, the port, until it ends or waits with no keys left; its end is noted as
    a key wait with the program stopped, as the ROM waits at its command line then, with the
    report it stopped with shown as the ROM shows it."""
    try:
        program(machine)
    except ScriptExhausted:
        return
    except ReportError as report:
        machine.show_report(report)
    recorder.note(machine, stopped=True)


def compare_headless(
    machine: Spectrum, seed: int | None
) -> tuple[Difference | Lateness | str | None, list[KeyWait], RomSpectrum]:
    """The port on `machine` (a headless front end's) and the listing on the ROM, each given that
    front end's presses, from the same FRAMES: the first difference in their screens, or else in
    their time (None if none), the port's key waits, and the ROM machine as it ended (its front
    end holds its key waits)."""
    rom_keys = KeyWaitRecorder(HeadlessFrontend(machine.frontend.presses))
    rom = rom_machine(rom_keys, seed)
    machine.memory[sysvars.FRAMES : sysvars.FRAMES + 3] = rom.memory[sysvars.FRAMES : sysvars.FRAMES + 3]
    port_keys = machine.frontend = KeyWaitRecorder(machine.frontend)
    run_port(machine, lambda port: play.run_to_report(port, seed), port_keys)
    try:
        rom.run()
    except ScriptExhausted:
        pass
    finally:
        rom.flush_sound()
    machine.frontend = port_keys.frontend
    difference = first_difference(port_keys.waits, rom_keys.waits) or first_lateness(
        port_keys.waits, rom_keys.waits, machine.sound_onsets, rom.sound_onsets
    )
    return difference, port_keys.waits, rom


def run(machine: Spectrum, seed: int | None = None, compare: bool = False, from_tape: bool = False) -> int:
    """The listing on the ROM in `machine`'s front end (typed in, or `from_tape`), or beside the
    port (`compare`, typed in): in a window until it is closed, headless until the keys run out.
    Headless, the comparison prints "identical" (and gives 0) or the first difference (and gives 1)."""
    if not compare:
        return play_on_rom(machine.frontend, seed, from_tape)
    if isinstance(machine.frontend, HeadlessFrontend):
        difference, _, _ = compare_headless(machine, seed)
        print(f"{f'seed {seed}' if seed else 'seed from FRAMES'}: {difference or 'identical'}")
        return 1 if difference else 0
    seed = seed or 1 + time.time_ns() // 1000 % 65535
    scale = machine.frontend.scale
    machine.frontend.close()  # the two machines' window takes the place of the port's
    window = side_by_side_window(scale, f"11-Up Patience, seed {seed}: the port and the ROM")
    return side_by_side(window, lambda port: play.run_to_report(port, seed), listing(seed))


def play_on_rom(frontend, seed: int | None, from_tape: bool = False) -> int:
    rom = rom_machine(frontend, seed, from_tape)
    try:
        rom.run()
    finally:
        rom.flush_sound()
    return 0


def side_by_side_window(scale: int, title: str, command: str = "zxcards"):
    """The two machines' window, as near `scale` as the display allows; `command` says (on stderr)
    when it had to be smaller."""
    from spectrum.frontends.side_by_side import SideBySideWindow

    window = SideBySideWindow(scale=scale, title=title)
    if window.scale_note:
        print(f"{command}: {window.scale_note}", file=sys.stderr)
    return window


def side_by_side(window, program, rom_listing: str) -> int:
    """`program(machine)`, the port, and `rom_listing` RUN on the ROM in `window` (a
    SideBySideWindow), until the window is closed (Quit) or left (Leave)."""
    rom = RomSpectrum.running(window.rom_keys, rom_listing)
    rom.targets = targets.targets
    window.attach(rom)
    port = Spectrum(window)
    try:
        run_port(port, program, window.port_keys)
        while True:  # the ROM plays on until the window is closed
            window.present(port)
    finally:
        window.close()
