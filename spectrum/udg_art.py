"""Show the UDGs a BASIC listing defines: its DATA bytes poked into UDG A onwards, as a PNG and as text art.

    zxcards-udgs games/patience/patience.bas --png udgs.png
    zxcards-udgs some.bas --line 9000 --count 4     # DATA from line 9000 on, 4 UDGs

Any listing in text form (keywords in capitals, zmakebas escapes) will do: the numbers of its DATA
statements, in program order, are read as RESTORE and READ would read them (literals as the ROM
stores them, BIN numbers too), 8 bytes to a UDG, and POKEd as POKE does.
"""

import sys

from . import ReportError, Spectrum
from .basic import ListingError, data_values, listing_text
from .command_line import OneLineParser, ends_quietly, existing_file, new_file_ending, whole_number
from .frontends import HeadlessFrontend

UDG_COUNT = 21  # A to U on a 48K
PER_ROW = 6  # UDGs drawn four times life size, 6 across, in bands of 5 character rows
UDG_LETTERS = "ABCDEFGHIJKLMNOPQRSTU"


def poke_udgs(machine: Spectrum, values: list[float], count: int) -> None:
    """POKE USR "a"+i for the first 8 × `count` values (POKE's own range check and rounding)."""
    for offset, value in enumerate(values[: 8 * count]):
        machine.poke(machine.usr("a") + offset, value)


def udg_rows(machine: Spectrum, index: int) -> list[int]:
    address = machine.usr("a") + 8 * index
    return [machine.peek(address + line) for line in range(8)]


def magnified(rows: list[int]) -> list[bytes]:
    """An 8x8 UDG as 4 rows of 4 block graphics: every pixel becomes one quadrant (4x the size)."""
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        cells = bytearray()
        for pair in range(4):
            shift = 6 - 2 * pair
            left_top, right_top = (top >> (shift + 1)) & 1, (top >> shift) & 1
            left_bottom, right_bottom = (bottom >> (shift + 1)) & 1, (bottom >> shift) & 1
            cells.append(128 + right_top + 2 * left_top + 4 * right_bottom + 8 * left_bottom)
        lines.append(bytes(cells))
    return lines


def draw(machine: Spectrum, count: int) -> None:
    """Each UDG with its letter, life size and four times life size, black on white."""
    machine.set_border(7)
    machine.colour(ink=0, paper=7, bright=0, flash=0, inverse=0, over=0)
    machine.cls()
    for index in range(count):
        band, place = divmod(index, PER_ROW)
        row, col = 5 * band, 5 * place + 1
        machine.print_at(row, col, f"{UDG_LETTERS[index]} " + chr(144 + index), ink=1)
        for line, cells in enumerate(magnified(udg_rows(machine, index)), 1):
            machine.print_at(row + line, col, cells)


def text_art(machine: Spectrum, count: int) -> str:
    """Each UDG as 8 lines of '#' and '.', with its letter and its bytes."""
    blocks = []
    for index in range(count):
        rows = udg_rows(machine, index)
        art = [f"{row:08b}".replace("1", "#").replace("0", ".") + f"  {row:3d}" for row in rows]
        blocks.append(f"UDG {UDG_LETTERS[index]}\n" + "\n".join(art))
    return "\n\n".join(blocks)


@ends_quietly
def main(argv=None) -> int:
    parser = OneLineParser(prog="zxcards-udgs", description=__doc__.splitlines()[0])
    parser.add_argument("listing", type=existing_file, help="a BASIC listing as text")
    parser.add_argument(
        "--line", type=whole_number(1, 9999, "a line number"), help="read DATA from this line on (as RESTORE line)"
    )
    parser.add_argument(
        "--count",
        type=whole_number(1, UDG_COUNT, "the count"),
        help=f"how many UDGs (default: as many as the DATA fills, up to {UDG_COUNT})",
    )
    parser.add_argument("--png", type=new_file_ending(".png"), help="write the UDGs as a PNG here")
    parser.add_argument("--scale", type=whole_number(1, 16, "the scale"), default=3, help="PNG scale (default 3)")
    args = parser.parse_args(argv)
    try:
        values = data_values(listing_text(args.listing.read_bytes()), args.line)
        count = args.count or min(UDG_COUNT, len(values) // 8)
        if count < 1 or len(values) < 8 * count:
            raise ListingError(f"{len(values)} DATA numbers: not enough for {max(count, 1)} UDG(s) of 8 bytes")
        machine = Spectrum(HeadlessFrontend())
        poke_udgs(machine, values, count)
    except (OSError, ListingError, ReportError) as error:
        print(f"zxcards-udgs: {args.listing}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
        return 1
    if args.png:  # before the art is printed, so that a PNG that can't be written is all that is said
        draw(machine, count)
        try:
            HeadlessFrontend.screenshot(args.png, machine, scale=args.scale)
        except OSError as error:
            print(f"zxcards-udgs: cannot write {args.png}: {error.strerror or error}", file=sys.stderr)
            return 1
    print(text_art(machine, count))
    if args.png:
        print(f"\n{args.png}: {count} UDGs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
