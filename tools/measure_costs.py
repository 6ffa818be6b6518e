"""Measure the T-states of the ROM's routines on the genuine ROM and write spectrum/rom_costs.py.

    python tools/measure_costs.py                  # measure, print the fit, write the table
    python tools/measure_costs.py --listings 40 --dry-run

Random listings (`spectrum.calibration.ListingGenerator`) run on the ROM and through the layer's
interpreter with the same keys; the table is the fit of the items the layer charges to the ROM's
times, in two rounds: first without PAUSE, then everything with the layer keeping the first
round's time (a PAUSE's wait depends on where in its frame it starts, so the layer's clock must
be close to the ROM's first).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spectrum.calibration import ListingGenerator, Row, fit, listing_rows  # noqa: E402
from spectrum.command_line import OneLineParser, whole_number  # noqa: E402
from spectrum.oracle import OracleError  # noqa: E402
from spectrum.hardware import FRAME_T_STATES  # noqa: E402

TABLE_FILE = Path(__file__).resolve().parent.parent / "spectrum" / "rom_costs.py"


def rows_of(listings: int, first_seed: int, pauses: bool, table=None) -> tuple[list[Row], int]:
    rows, failed = [], 0
    for seed in range(first_seed, first_seed + listings):
        generator = ListingGenerator(seed, pauses=pauses)
        listing = generator.listing()
        try:
            rows += listing_rows(listing, generator.presses(), table)
        except OracleError:  # a line the ROM's editor refuses: the listing is left out
            failed += 1
    return rows, failed


def summary(rows: list[Row], residuals: np.ndarray) -> list[str]:
    lines = []
    for kind in ("statement", "INPUT", "interrupt"):
        chosen = [i for i, row in enumerate(rows) if row.what.split()[0] == kind
                  or (kind == "statement" and row.what[0].isdigit())]
        if not chosen:
            continue
        errors = np.abs(residuals[chosen])
        relative = errors / np.maximum([rows[i].t_states for i in chosen], 1)
        lines.append(f"{kind}s: {len(chosen):5d}, residual median {np.median(errors):7.0f} T "
                     f"({100 * np.median(relative):.2f}%), mean {np.mean(errors):7.0f} T, "
                     f"95th percentile {np.percentile(errors, 95):7.0f} T, "
                     f"{np.count_nonzero(errors > FRAME_T_STATES / 10)} off by a tenth of a frame or more")
    return lines


def write_table(table: dict[str, int], lines: list[str], listings: int) -> None:
    body = "\n".join(f"    {item!r}: {table[item]}," for item in sorted(table))
    notes = "\n".join(f"# {line}" for line in lines)
    TABLE_FILE.write_text(f'''"""T-states of the ROM's routines, item by item (see `spectrum.timing`), as measured on the
genuine ROM by ``tools/measure_costs.py`` over {listings} random listings in each of two rounds,
which wrote this table."""

{notes}
T_STATES: dict[str, int] = {{
{body}
}}
''')


def main(argv=None) -> int:
    parser = OneLineParser(prog="measure_costs", description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=whole_number(1, what="the number of listings"), default=200, metavar="N",
                        help="random listings in each round (default 200)")
    parser.add_argument("--seed", type=whole_number(0, what="the first seed"), default=0, metavar="S",
                        help="the first listing's seed (default 0)")
    parser.add_argument("--dry-run", action="store_true", help="print the fit, do not write the table")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows, failed = rows_of(args.listings, args.seed, pauses=False)
    first, _ = fit(rows)
    rows, failed_again = rows_of(args.listings, args.seed, pauses=True, table=defaultdict(int, first))
    table, residuals = fit(rows)
    lines = summary(rows, residuals)
    print("\n".join(lines))
    print(f"{len(rows)} rows from {2 * args.listings} listings ({failed + failed_again} refused by the ROM's "
          f"editor) in {time.perf_counter() - start:.0f} s; {len(table)} items")
    if not args.dry_run:
        write_table(table, lines, args.listings)
        print(f"written: {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
