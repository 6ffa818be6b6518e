"""Write a BASIC listing (text with zmakebas escapes) as a .tap that autostarts on any Spectrum.

The listing is typed into the genuine ROM under SkoolKit, so the program on tape is exactly what
the ROM stores, hidden numbers included.

    python tools/make_tap.py games/patience/patience.bas --name patience --line 1760 -o patience.tap
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spectrum.basic import ListingError  # noqa: E402
from spectrum.oracle import Oracle, OracleError  # noqa: E402
from spectrum.tape import program_tap  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listing", type=Path, help="the BASIC listing as text")
    parser.add_argument("-o", "--output", type=Path, help="the .tap to write (default: beside the listing)")
    parser.add_argument("--name", help="the name on tape, up to 10 characters (default: the file name)")
    parser.add_argument("--line", type=int, help="the line to autostart at (default: none)")
    args = parser.parse_args(argv)
    name = args.name or args.listing.stem[:10]
    output = args.output or args.listing.with_suffix(".tap")
    try:
        program = Oracle().program_bytes(args.listing.read_text())
        output.write_bytes(program_tap(name, program, args.line))
    except (OSError, ListingError, OracleError, ValueError) as error:
        print(f"make_tap: {error}", file=sys.stderr)
        return 1
    print(f"{output}: {name!r}, {len(program)} bytes of program"
          + (f", autostart at line {args.line}" if args.line else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
