"""Write a BASIC listing (text with zmakebas escapes) as a .tap that autostarts on any Spectrum.

The listing is typed into the genuine ROM under SkoolKit, so the program on tape is exactly what
the ROM stores, hidden numbers included.

    zxcards-tap games/patience/patience.bas --name patience --line 1760 -o patience.tap
"""

import argparse
import sys
from pathlib import Path

from .basic import ListingError
from .command_line import OneLineParser, whole_number
from .oracle import Oracle, OracleError
from .tape import check_tape_name, program_tap


def tape_name(text: str) -> str:
    refusal = check_tape_name(text)
    if refusal:
        raise argparse.ArgumentTypeError(refusal)
    return text


def listing_tap(listing: str, name: str, autostart: int | None = None) -> tuple[bytes, int]:
    """The .tap of `listing` saved as `name` (LINE `autostart`), and the program's length in bytes."""
    program = Oracle().program_bytes(listing)
    return program_tap(name, program, autostart), len(program)


def main(argv=None) -> int:
    parser = OneLineParser(prog="zxcards-tap", description=__doc__.splitlines()[0])
    parser.add_argument("listing", type=Path, help="the BASIC listing as text")
    parser.add_argument("-o", "--output", type=Path, help="the .tap to write (default: beside the listing)")
    parser.add_argument("--name", type=tape_name, help="the name on tape, up to 10 characters (default: the file name)")
    parser.add_argument("--line", type=whole_number(0, 9999, "the autostart line"),
                        help="the line to autostart at, 0-9999 (default: none)")
    args = parser.parse_args(argv)
    name = args.name or args.listing.stem[:10]
    output = args.output or args.listing.with_suffix(".tap")
    try:
        tap, length = listing_tap(args.listing.read_text(), name, args.line)
        output.write_bytes(tap)
    except (OSError, ListingError, OracleError, ValueError) as error:
        print(f"zxcards-tap: {error}", file=sys.stderr)
        return 1
    print(f"{output}: {name!r}, {length} bytes of program"
          + (f", autostart at line {args.line}" if args.line is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
