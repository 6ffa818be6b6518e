"""The .tap file format: a BASIC program as the ROM's SAVE writes it (header block, data block)."""

HEADER_FLAG, DATA_FLAG = 0x00, 0xFF
PROGRAM = 0
NO_AUTOSTART = 0x8000


def block(flag: int, data: bytes) -> bytes:
    """One tape block: its length, the flag byte, the data and the XOR checksum."""
    checksum = flag
    for byte in data:
        checksum ^= byte
    return (len(data) + 2).to_bytes(2, "little") + bytes([flag]) + data + bytes([checksum])


def program_tap(name: str, program: bytes, autostart: int | None = None, variables: bytes = b"") -> bytes:
    """A .tap holding a BASIC program (as stored from PROG) saved with SAVE name LINE autostart."""
    if not 1 <= len(name) <= 10 or not name.isascii() or not name.isprintable():
        raise ValueError(f"a tape name is 1 to 10 printable ASCII characters, not {name!r}")
    data = program + variables
    header = (bytes([PROGRAM]) + name.ljust(10).encode("ascii") + len(data).to_bytes(2, "little")
              + (NO_AUTOSTART if autostart is None else autostart).to_bytes(2, "little")
              + len(program).to_bytes(2, "little"))
    return block(HEADER_FLAG, header) + block(DATA_FLAG, data)
