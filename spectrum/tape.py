"""The .tap file format: a BASIC program as the ROM's SAVE writes it (header block, data block),
and the blocks of any .tap read back."""

HEADER_FLAG, DATA_FLAG = 0x00, 0xFF
PROGRAM = 0
NO_AUTOSTART = 0x8000


def xor_of(data: bytes) -> int:
    """The XOR of all the bytes: a block's checksum makes it 0 over flag, data and checksum."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def block(flag: int, data: bytes) -> bytes:
    """One tape block: its length, the flag byte, the data and the XOR checksum."""
    return (len(data) + 2).to_bytes(2, "little") + bytes([flag]) + data + bytes([xor_of(bytes([flag]) + data)])


def check_tape_name(name: str) -> str | None:
    """Why `name` cannot be a name on tape, or None when it can."""
    if not 1 <= len(name) <= 10 or not name.isascii() or not name.isprintable():
        return f"a tape name is 1 to 10 printable ASCII characters, not {name!r}"
    return None


def program_tap(name: str, program: bytes, autostart: int | None = None, variables: bytes = b"") -> bytes:
    """A .tap holding a BASIC program (as stored from PROG) saved with SAVE name LINE autostart
    (0-9999; None for no autostart)."""
    refusal = check_tape_name(name)
    if refusal:
        raise ValueError(refusal)
    if autostart is not None and not 0 <= autostart <= 9999:
        raise ValueError(f"a program autostarts at a line 0-9999, not {autostart!r}")
    data = program + variables
    header = (
        bytes([PROGRAM])
        + name.ljust(10).encode("ascii")
        + len(data).to_bytes(2, "little")
        + (NO_AUTOSTART if autostart is None else autostart).to_bytes(2, "little")
        + len(program).to_bytes(2, "little")
    )
    return block(HEADER_FLAG, header) + block(DATA_FLAG, data)


class TapeError(ValueError):
    """Bytes that are not a .tap file."""


def recorded_blocks(tap: bytes) -> list[bytes]:
    """The blocks of a .tap as they are recorded on tape, flag, data and checksum each, in order,
    checksums unchecked (the ROM's loader checks them); TapeError unless every block is whole."""
    blocks: list[bytes] = []
    offset = 0
    while offset < len(tap):
        if offset + 2 > len(tap):
            raise TapeError(f"not a .tap file: a stray byte at the end (offset {offset})")
        length = int.from_bytes(tap[offset : offset + 2], "little")
        body = tap[offset + 2 : offset + 2 + length]
        if length < 2 or len(body) < length:
            raise TapeError(f"not a .tap file: block {len(blocks) + 1} at offset {offset} is cut short")
        blocks.append(bytes(body))
        offset += 2 + length
    if not blocks:
        raise TapeError("not a .tap file: it is empty")
    return blocks


def read_blocks(tap: bytes) -> list[tuple[int, bytes]]:
    """The blocks of a .tap, (flag, data) each in order; TapeError unless every block is whole
    and its checksum right."""
    blocks, offset = [], 0
    for number, recorded in enumerate(recorded_blocks(tap), 1):
        if xor_of(recorded):
            raise TapeError(f"not a .tap file: block {number} at offset {offset} fails its checksum")
        blocks.append((recorded[0], recorded[1:-1]))
        offset += 2 + len(recorded)
    return blocks
