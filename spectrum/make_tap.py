"""Write a BASIC listing (text with zmakebas escapes) as a .tap that autostarts on any Spectrum.

The listing is typed into the genuine ROM under SkoolKit, so the program on tape is exactly what
the ROM stores, hidden numbers included.

    zxcards-tap games/patience/patience.bas --name patience --line 1760 -o patience.tap
"""

import argparse
import sys

from .basic import ListingError, listing_text
from .command_line import OneLineParser, ends_quietly, existing_file, new_file, whole_number
from .oracle import Oracle, OracleError
from .tape import check_tape_name, program_tap


def tape_name(text: str) -> str:
    refusal = check_tape_name(text)
    if refusal:
        raise argparse.ArgumentTypeError(refusal)
    return text


def listing_tap(listing: str, name: str, autostart: int | None = None) -> tuple[bytes, int]:
    """The .tap of `listing` saved as `name` (LINE `autostart`), and the program's length in bytes;
    ListingError when no line is left in the program (its lines only delete, `10` alone)."""
    program = Oracle().program_bytes(listing)
    if not program:
        raise ListingError("no line is left in the program (a line number alone deletes its line)")
    return program_tap(name, program, autostart), len(program)


@ends_quietly
def main(argv=None) -> int:
    parser = OneLineParser(prog="zxcards-tap", description=__doc__.splitlines()[0])
    parser.add_argument("listing", type=existing_file, help="the BASIC listing as text")
    parser.add_argument("-o", "--output", type=new_file, help="the .tap to write (default: beside the listing)")
    parser.add_argument("--name", type=tape_name, help="the name on tape, up to 10 characters (default: the file name)")
    parser.add_argument(
        "--line",
        type=whole_number(0, 9999, "the autostart line"),
        help="the line to autostart at, 0-9999 (default: none)",
    )
    args = parser.parse_args(argv)
    name = args.name or args.listing.stem[:10]
    if not args.name and check_tape_name(name):
        parser.error(
            f"the file name {args.listing.stem!r} cannot be a name on tape: give --name "
            "(1 to 10 printable ASCII characters)"
        )
    output = args.output
    if output is None:
        try:
            output = new_file(str(args.listing.with_suffix(".tap")))
        except argparse.ArgumentTypeError as error:
            parser.error(f"{error} (beside the listing): give -o")
    if output.resolve() == args.listing.resolve():
        parser.error(f"the .tap would be written over the listing {str(args.listing)!r}: give -o")
    try:
        tap, length = listing_tap(listing_text(args.listing.read_bytes()), name, args.line)
    except (ListingError, OracleError) as error:
        print(f"zxcards-tap: {args.listing}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"zxcards-tap: cannot read {args.listing}: {error.strerror or error}", file=sys.stderr)
        return 1
    try:
        output.write_bytes(tap)
    except OSError as error:
        print(f"zxcards-tap: cannot write {output}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(
        f"{output}: {name!r}, {length} bytes of program"
        + (f", autostart at line {args.line}" if args.line is not None else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
