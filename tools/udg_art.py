"""Show the UDGs a BASIC listing defines: its DATA bytes poked into UDG A onwards, as a PNG and as text art.

    python tools/udg_art.py games/patience/patience.bas --png udgs.png
    python tools/udg_art.py some.bas --line 9000 --count 4     # DATA from line 9000 on, 4 UDGs

Any listing in text form (keywords in capitals, zmakebas escapes) will do: the numbers of its DATA
statements, in program order, are read as RESTORE and READ would read them (literals as the ROM
stores them, BIN numbers too), 8 bytes to a UDG, and POKEd as POKE does.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spectrum import ReportError, Spectrum  # noqa: E402
from spectrum.basic import FIRST_TOKEN, ListingError, parse_listing  # noqa: E402
from spectrum.frontends import HeadlessFrontend  # noqa: E402
from spectrum.numbers import parse_number  # noqa: E402
from spectrum.rom import KEYWORDS  # noqa: E402

DATA = FIRST_TOKEN + KEYWORDS.index("DATA")
BIN = FIRST_TOKEN + KEYWORDS.index("BIN")
REM = FIRST_TOKEN + KEYWORDS.index("REM")
UDG_COUNT = 21  # A to U on a 48K
PER_ROW = 6  # UDGs drawn four times life size, 6 across, in bands of 5 character rows
UDG_LETTERS = "ABCDEFGHIJKLMNOPQRSTU"


def split_outside_strings(codes: bytes, separator: int) -> list[bytes]:
    """`codes` cut at each `separator` that is not inside a string literal."""
    parts, current, quoted = [], bytearray(), False
    for code in codes:
        if code == ord('"'):
            quoted = not quoted
        if code == separator and not quoted:
            parts.append(bytes(current))
            current = bytearray()
        else:
            current.append(code)
    parts.append(bytes(current))
    return parts


def data_item_value(item: bytes, line: int) -> float:
    """One DATA item: a number literal, possibly negative, or BIN with binary digits."""
    text = item.strip(b" ")
    negative = text.startswith(b"-")
    if negative:
        text = text[1:].strip(b" ")
    try:
        if text[:1] == bytes([BIN]):
            digits = text[1:].decode("ascii").strip()
            if digits.strip("01"):
                raise ValueError
            value = float(int(digits or "0", 2))
        else:
            value = parse_number(text.decode("ascii"))
    except (ValueError, UnicodeDecodeError, IndexError):
        raise ListingError(f"line {line}: DATA item {item.decode('latin-1')!r} is not a number") from None
    return -value if negative else value


def data_values(listing: str, from_line: int | None = None) -> list[float]:
    """The numbers of the listing's DATA statements in program order, from line `from_line` on."""
    values = []
    for number, body in sorted(parse_listing(listing), key=lambda line: line[0]):
        if from_line is not None and number < from_line:
            continue
        for statement in split_outside_strings(body, ord(":")):
            statement = statement.lstrip(b" ")
            if statement[:1] == bytes([REM]):
                break
            if statement[:1] == bytes([DATA]):
                values += [data_item_value(item, number) for item in split_outside_strings(statement[1:], ord(","))]
    return values


def poke_udgs(machine: Spectrum, values: list[float], count: int) -> None:
    """POKE USR "a"+i for the first 8 × `count` values (POKE's own range check and rounding)."""
    for offset, value in enumerate(values[:8 * count]):
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listing", type=Path, help="a BASIC listing as text")
    parser.add_argument("--line", type=int, help="read DATA from this line on (as RESTORE line)")
    parser.add_argument("--count", type=int,
                        help=f"how many UDGs (default: as many as the DATA fills, up to {UDG_COUNT})")
    parser.add_argument("--png", type=Path, help="write the UDGs as a PNG here")
    parser.add_argument("--scale", type=int, default=3, help="PNG scale (default 3)")
    args = parser.parse_args(argv)
    try:
        values = data_values(args.listing.read_text(), args.line)
        count = min(UDG_COUNT, args.count if args.count is not None else len(values) // 8)
        if count < 1 or len(values) < 8 * count:
            raise ListingError(f"{len(values)} DATA numbers: not enough for {max(count, 1)} UDG(s) of 8 bytes")
        machine = Spectrum(HeadlessFrontend())
        poke_udgs(machine, values, count)
    except (OSError, ListingError, ReportError) as error:
        print(f"udg_art: {error}", file=sys.stderr)
        return 1
    print(text_art(machine, count))
    if args.png:
        draw(machine, count)
        HeadlessFrontend.screenshot(args.png, machine, scale=args.scale)
        print(f"\n{args.png}: {count} UDGs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
