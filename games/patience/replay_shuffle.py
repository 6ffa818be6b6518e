"""Shuffle the 11-Up Patience pack for one seed on the real ROM and in the port, side by side.

    python tools/replay_shuffle.py --seed 1984      (or: python -m games.patience.replay_shuffle)
    python tools/replay_shuffle.py --seed 1984 --window

The ROM runs the listing's own lines after `RANDOMIZE seed: GO SUB 1400` (typed into the genuine
48K ROM under SkoolKit); the port runs `games.patience.shuffled_pack(seed)`. Both packs are printed
card by card (rank and suit letter), then whether they match and how long each took.

With --window the two play it out in one window, live: from the UDGs and lines 1710-1750 (no
title), `RANDOMIZE seed`, the shuffle with its 60 BEEPs — 0.6 s in the port, 12 s on the ROM —
and the deal, where both wait for a move with the same table (the status line says whether the
screens agree, and the game plays on with the same keys to both).
"""

import sys
import time
from pathlib import Path


from spectrum import Spectrum
from spectrum.command_line import OneLineParser, ends_quietly, whole_number
from spectrum.frontends import Leave, NoDisplay, Quit
from spectrum.oracle import Oracle, OracleError

from . import original, play, rules, shuffled_pack

LISTING = Path(__file__).resolve().parent / "patience.bas"
SUIT_LETTERS = dict(zip(rules.SUITS, "SHCD"))  # spade, heart, club, diamond
CARDS_PER_LINE = 13


def harness(seed: int) -> str:
    """The listing with a first line that seeds RND, runs the pack routine and stops."""
    return LISTING.read_text() + f"1 RANDOMIZE {seed}: GO SUB 1400: STOP\n"


def shuffle_and_deal_harness(seed: int) -> str:
    """The listing with a first line that pokes the UDGs (line 1770's loop), initialises, seeds RND,
    shuffles and deals: the game from its shuffle on, without the title."""
    return (
        LISTING.read_text() + "1 RESTORE 1780: FOR n=0 TO 4: FOR m=0 TO 7: READ a: POKE USR CHR$ (97+n)+m,a: "
        f"NEXT m: NEXT n: GO SUB 1710: RANDOMIZE {seed}: GO SUB 1400: GO TO 1050\n"
    )


def shuffle_and_deal(machine: Spectrum, seed: int) -> None:
    """The port from the same place: the UDGs, lines 1710-1750, RANDOMIZE seed, the shuffle, the
    deal, then moves until the pack is out or the player resigns."""
    play.play(machine, play.dealt_game(machine, seed))


def show_in_window(seed: int, scale: int) -> int:
    try:
        window = original.side_by_side_window(
            scale, f"11-Up Patience's shuffle, seed {seed}: the port and the ROM", "replay_shuffle"
        )
    except NoDisplay as error:
        print(f"replay_shuffle: {error}; leave out --window to compare the packs without one", file=sys.stderr)
        return 1
    try:
        original.side_by_side(window, lambda machine: shuffle_and_deal(machine, seed), shuffle_and_deal_harness(seed))
    except (Quit, Leave):
        pass
    return 0


def card_names(pack: bytes) -> list[str]:
    """'AS', '10H', 'KD' … for each 5-character record of p$."""
    names = []
    for start in range(0, len(pack), rules.CARD):
        record = pack[start : start + rules.CARD].decode("latin-1")
        names.append(f"{int(record[1:3]) if record[0] == rules.TEN else record[0]}{SUIT_LETTERS.get(record[3], '?')}")
    return names


def show(title: str, pack: bytes) -> None:
    print(title)
    names = card_names(pack)
    for start in range(0, len(names), CARDS_PER_LINE):
        print("  " + " ".join(f"{name:>3}" for name in names[start : start + CARDS_PER_LINE]))


@ends_quietly
def main(argv=None) -> int:
    parser = OneLineParser(prog="replay_shuffle", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed",
        type=whole_number(1, 65535, "a seed"),
        required=True,
        help="RANDOMIZE seed, 1-65535 (0 would take FRAMES)",
    )
    parser.add_argument(
        "--window",
        action="store_true",
        help="play the shuffle and the deal live, the port beside the ROM, in one window",
    )
    parser.add_argument(
        "--scale",
        type=whole_number(1, None, "the scale"),
        default=3,
        help="with --window: the window N times life size (default 3; reduced to fit)",
    )
    args = parser.parse_args(argv)
    if args.window:
        return show_in_window(args.seed, args.scale)
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
