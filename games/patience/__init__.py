"""11-Up Patience (Colin Gooch, ZX Computing 1984): the reconstructed listing, ported.

`patience.bas` beside this file is the listing; `program` is the port, routine by routine, on the
`spectrum` layer; `rules` holds what the listing decides, with no machine.
"""

from spectrum import Spectrum

from . import program

TITLE = "11-Up Patience"


def run(machine: Spectrum, seed: int | None = None) -> None:
    """Play from the autostart line on; `seed` (1-65535) stands for RANDOMIZE seed at line 1040."""
    program.run(machine, seed)


def shuffled_pack(seed: int) -> bytes:
    """p$ as `RANDOMIZE seed: GO SUB 1400` leaves it: 52 records of 5 Spectrum codes."""
    machine = Spectrum()
    machine.randomize(seed)
    return program.shuffle(machine, program.make_pack()).encode("latin-1")
