"""11-Up Patience (Colin Gooch, ZX Computing 1984): the reconstructed listing, ported.

`patience.bas` beside this file is the listing; `play` is the port, routine by routine, on the
`spectrum` layer; `rules` holds what the listing decides, with no machine.
"""

import argparse

from spectrum.command_line import whole_number

from ..program import NOTHING, CannotStart

from . import rules

TITLE = "11-Up Patience"
NEEDS = NOTHING
SEEDS = range(1, 65536)  # what RANDOMIZE n takes as a seed (0 would take FRAMES)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed",
        type=whole_number(SEEDS.start, SEEDS.stop - 1, "a seed"),
        metavar="N",
        help="the game of RANDOMIZE N at line 1040 (1-65535; default: from FRAMES)",
    )
    parser.add_argument(
        "--fast",
        action="store_true",
        help="the port with no time taken but by its waits (PAUSE, BEEP): the pack made and "
        "shuffled in a moment, not the Spectrum's 12 seconds; with --rom, the listing typed in and RUN, "
        "not loaded from its tape",
    )
    original = parser.add_mutually_exclusive_group()
    original.add_argument(
        "--rom",
        action="store_true",
        help="play the listing itself on the genuine 48K ROM, at the Spectrum's own speed, "
        "loaded from its tape as it was saved in 1984 (autostart at line 1760)",
    )
    original.add_argument(
        "--compare",
        action="store_true",
        help="the port and the listing on the ROM side by side, the same keys to both; "
        "headless: print 'identical' (exit 0) or the first difference (exit 1)",
    )


def shuffled_pack(seed: int) -> bytes:
    """p$ as `RANDOMIZE seed: GO SUB 1400` leaves it: 52 records of 5 Spectrum codes."""
    from spectrum import Spectrum  # the ROM's RND, kept by the machine

    machine = Spectrum()
    machine.randomize(seed)
    return rules.shuffle(rules.fresh_pack(), [machine.rnd() for _ in range(rules.SHUFFLE_PASSES)]).encode("latin-1")


def new_game(seed: int) -> rules.PatienceState:
    """The game of `RANDOMIZE seed` (1-65535), dealt: the listing's shuffle of a fresh pack."""
    if seed not in SEEDS:
        raise ValueError(f"a seed is 1-65535, not {seed!r}")
    return rules.PatienceState(rules.deal(rules.Game(shuffled_pack(seed).decode("latin-1")))[0])


def run(machine, seed: int | None = None, rom: bool = False, compare: bool = False, fast: bool = False) -> int:
    """Play from the autostart line on; `seed` (1-65535) stands for RANDOMIZE seed at line 1040.
    `rom` plays the listing itself on the genuine ROM, from its tape (`fast`: typed in and RUN),
    `compare` the port beside it (see `original.run`); `fast` runs the port with no time taken by
    its statements. The exit status: 0, or 1 when a headless comparison found a difference. The
    port ends as the listing does, "Thanks for playing." then STOP at line 1590: ReportError
    "9 STOP statement, 1590:6", as the ROM reports it. CannotStart for `fast` with `compare`,
    which plays both at the Spectrum's speed."""
    if fast and compare:
        raise CannotStart("--fast is for the port or --rom: --compare plays both at the Spectrum's speed")
    if rom or compare:
        from . import original

        return original.run(machine, seed, compare, from_tape=not fast)
    from . import play

    play.run_to_report(machine, seed, fast)
