"""Measure the T-states of the ROM's routines on the genuine ROM and write spectrum/rom_costs.py.

    python tools/measure_costs.py                  # measure, print the fit, write the table
    python tools/measure_costs.py --listings 40 --dry-run
    python tools/measure_costs.py --editor 100      # only keywords' and INPUT's items, the rest kept

Random listings (`spectrum.calibration.ListingGenerator`) run on the ROM and through the layer's
interpreter with the same keys; the table is the fit of the items the layer charges to the ROM's
times, in two rounds: first without PAUSE, then everything with the layer keeping the first
round's time (a PAUSE's wait depends on where in its frame it starts, so the layer's clock must
be close to the ROM's first).

`--editor` measures only what printing a keyword takes (PO-TOKENS, and PO-SEARCH's steps over
the token table before it) and what INPUT's editor takes before its first wait for a key (INPUT's
start, KEY-INPUT's ED-COPY of the new line), on listings that PRINT keywords and take them typed
at INPUT, with every other item as the table has it; those items are written into the table.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spectrum.calibration import ListingGenerator, Row, fit, listing_rows  # noqa: E402
from spectrum.frontends import presses_from  # noqa: E402
from spectrum.rom_costs import T_STATES  # noqa: E402
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


EDITOR_ITEMS = ("print-out-token", "print-out-token-code", "input-start", "editor-copy")
# keys that type a keyword inside INPUT's quotes (SYMBOL SHIFT with a letter; not A, which is STOP)
KEYWORD_KEYS = [frozenset({"SYMBOL", key}) for key in "qwefdsgyui"]
FIRST_KEYWORD = 165


def keyword_listing(seed: int) -> tuple[str, list[frozenset[str]]]:
    """A listing that PRINTs keywords (CHR$ of any of the 91) and takes some typed at INPUT, and
    the presses for its INPUTs."""
    r = random.Random(seed)
    lines, presses = [], []
    for number in range(10, 200, 10):
        if r.random() < 0.25:
            lines.append(f'{number} INPUT "{"k" * r.randrange(0, 12)}";a$')
            entry = [r.choice(KEYWORD_KEYS + presses_from(list("8x "))) for _ in range(r.randrange(1, 6))]
            presses += entry + presses_from(["ENTER"])
        else:
            items = [
                r.choice(['"x"', '" "', '"8"']) if r.random() < 0.3 else f"CHR$ {r.randrange(FIRST_KEYWORD, 256)}"
                for _ in range(r.randrange(1, 4))
            ]
            lines.append(f"{number} PRINT AT {r.randrange(0, 19)},{r.randrange(0, 4)};" + ";".join(items))
    return "\n".join(lines + ["200 STOP"]) + "\n", presses


def editor_costs(listings: int, first_seed: int) -> tuple[dict[str, int], list[str]]:
    """The editor's and keywords' items fitted to the ROM's times of the statements and INPUTs
    that have them, less what every other item of the table takes."""
    rows, failed = [], 0
    for seed in range(first_seed, first_seed + listings):
        listing, presses = keyword_listing(seed)
        try:
            measured = listing_rows(listing, presses, defaultdict(int, T_STATES))
        except OracleError:
            failed += 1
            continue
        for row in measured:
            if any(item in row.items for item in EDITOR_ITEMS) and row.what != "interrupt":
                others = sum(
                    T_STATES.get(item, 0) * count for item, count in row.items.items() if item not in EDITOR_ITEMS
                )
                rows.append(
                    Row(Counter({item: row.items[item] for item in EDITOR_ITEMS}), row.t_states - others, row.what)
                )
    table, residuals = fit(rows)
    return table, summary(rows, residuals) + [f"{len(rows)} rows from {listings} listings ({failed} refused)"]


def write_editor_costs(table: dict[str, int], lines: list[str]) -> None:
    """The editor's and keywords' items put into the table as it is, with a note of how they
    were measured."""
    text = TABLE_FILE.read_text()
    for item in EDITOR_ITEMS:
        text = re.sub(rf"\n    {item!r}: \d+,", "", text)
    notes = "\n".join(f"# editor and keywords: {line}" for line in lines)
    text = re.sub(
        r"\nT_STATES: dict\[str, int\] = \{\n",
        lambda m: f"\n{notes}{m.group(0)}",
        re.sub(r"\n# editor and keywords: .*", "", text),
    )
    table = {**{item: value for item, value in T_STATES.items() if item not in EDITOR_ITEMS}, **table}
    body = "\n".join(f"    {item!r}: {table[item]}," for item in sorted(table))
    TABLE_FILE.write_text(
        re.sub(
            r"(T_STATES: dict\[str, int\] = \{\n)(.*?)(\n\})",
            lambda m: m.group(1) + body + m.group(3),
            text,
            flags=re.S,
        )
    )


def summary(rows: list[Row], residuals: np.ndarray) -> list[str]:
    lines = []
    for kind in ("statement", "INPUT", "interrupt"):
        chosen = [
            i
            for i, row in enumerate(rows)
            if row.what.split()[0] == kind or (kind == "statement" and row.what[0].isdigit())
        ]
        if not chosen:
            continue
        errors = np.abs(residuals[chosen])
        relative = errors / np.maximum([rows[i].t_states for i in chosen], 1)
        lines.append(
            f"{kind}s: {len(chosen):5d}, residual median {np.median(errors):7.0f} T "
            f"({100 * np.median(relative):.2f}%), mean {np.mean(errors):7.0f} T, "
            f"95th percentile {np.percentile(errors, 95):7.0f} T, "
            f"{np.count_nonzero(errors > FRAME_T_STATES / 10)} off by a tenth of a frame or more"
        )
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
    parser.add_argument(
        "--listings",
        type=whole_number(1, what="the number of listings"),
        default=200,
        metavar="N",
        help="random listings in each round (default 200)",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, what="the first seed"),
        default=0,
        metavar="S",
        help="the first listing's seed (default 0)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the fit, do not write the table")
    parser.add_argument(
        "--editor",
        type=whole_number(1, what="the number of listings"),
        metavar="N",
        help="measure only the items of printing keywords and of INPUT's editor, on N "
        "listings that print keywords and take them at INPUT; the rest kept",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.editor:
        table, lines = editor_costs(args.editor, args.seed)
        print("\n".join(lines + [f"{item}: {table.get(item, 0)} T" for item in EDITOR_ITEMS]))
        print(f"in {time.perf_counter() - start:.0f} s")
        if not args.dry_run:
            write_editor_costs(table, lines)
            print(f"written: {TABLE_FILE}")
        return 0
    rows, failed = rows_of(args.listings, args.seed, pauses=False)
    first, _ = fit(rows)
    rows, failed_again = rows_of(args.listings, args.seed, pauses=True, table=defaultdict(int, first))
    table, residuals = fit(rows)
    lines = summary(rows, residuals)
    print("\n".join(lines))
    print(
        f"{len(rows)} rows from {2 * args.listings} listings ({failed + failed_again} refused by the ROM's "
        f"editor) in {time.perf_counter() - start:.0f} s; {len(table)} items"
    )
    if not args.dry_run:
        write_table(table, lines, args.listings)
        print(f"written: {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
