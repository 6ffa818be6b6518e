"""Shuffle the 11-Up Patience pack for one seed on the real ROM and in the port, side by side.

    python tools/replay_shuffle.py --seed 1984      (or: python -m games.patience.replay_shuffle)

The ROM runs the listing's own lines after `RANDOMIZE seed: GO SUB 1400` (typed into the genuine
48K ROM under SkoolKit); the port runs `games.patience.shuffled_pack(seed)`. Both packs are printed
card by card (rank and suit letter), then whether they match and how long each took.
"""

import sys
import time
from pathlib import Path

from spectrum.command_line import OneLineParser, whole_number
from spectrum.oracle import Oracle, OracleError

from . import rules, shuffled_pack

LISTING = Path(__file__).resolve().parent / "patience.bas"
SUIT_LETTERS = dict(zip(rules.SUITS, "SHCD"))  # spade, heart, club, diamond
CARDS_PER_LINE = 13


def harness(seed: int) -> str:
    """The listing with a first line that seeds RND, runs the pack routine and stops."""
    return LISTING.read_text() + f"1 RANDOMIZE {seed}: GO SUB 1400: STOP\n"


def card_names(pack: bytes) -> list[str]:
    """'AS', '10H', 'KD' … for each 5-character record of p$."""
    names = []
    for start in range(0, len(pack), rules.CARD):
        record = pack[start:start + rules.CARD].decode("latin-1")
        names.append(f"{int(record[1:3]) if record[0] == rules.TEN else record[0]}"
                     f"{SUIT_LETTERS.get(record[3], '?')}")
    return names


def show(title: str, pack: bytes) -> None:
    print(title)
    names = card_names(pack)
    for start in range(0, len(names), CARDS_PER_LINE):
        print("  " + " ".join(f"{name:>3}" for name in names[start:start + CARDS_PER_LINE]))


def main(argv=None) -> int:
    parser = OneLineParser(prog="replay_shuffle", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=whole_number(1, 65535, "a seed"),
                        required=True, help="RANDOMIZE seed, 1-65535 (0 would take FRAMES)")
    args = parser.parse_args(argv)
    listing = harness(args.seed)
    oracle = Oracle()
    try:
        oracle.typed(listing)  # typing the listing in is not part of the run
        start = time.perf_counter()
        result = oracle.run(listing)
        rom_wall = time.perf_counter() - start
    except OracleError as error:
        print(f"replay_shuffle: the ROM run failed: {error}", file=sys.stderr)
        return 1
    rom_pack = result.variables.get("p$", b"")
    start = time.perf_counter()
    port_pack = shuffled_pack(args.seed)
    port_wall = time.perf_counter() - start
    spectrum_seconds = result.seconds
    show(f"ROM  ({result.report}):", rom_pack)
    show("port:", port_pack)
    same = rom_pack == port_pack
    print(f"\nseed {args.seed}: the packs {'MATCH' if same else 'DIFFER'}")
    print(f"ROM:  {spectrum_seconds:.2f} s of Spectrum time, {rom_wall * 1e3:.0f} ms in the emulator")
    print(f"port: {port_wall * 1e3:.1f} ms ({spectrum_seconds / port_wall:.0f}x a real Spectrum)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
