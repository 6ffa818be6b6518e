"""The hardware facts (`hardware`), the system variables' bits (`sysvars`) and the control codes
(`rom`) agree with each other and with the genuine ROM."""

import pytest

from rom_routines import Speaker
from spectrum import hardware, keyboard, rom, sysvars
from spectrum.rom import ROM
from spectrum.z80 import B, C, H, L, PC, SP, IYh, IYl, Z80

PIXEL_ADD = 0x22AA  # B = y (0 at the foot of the upper screen), C = x: HL the byte, A the bit
CL_ADDR = 0x0E9B  # B = 24 - row: HL the display-file address of the row's top pixel line
PO_ATTR = 0x0BDB  # HL a display-file address: its cell's attribute set from ATTR_T, HL its address
SENTINEL, STACK = 0xF100, 0xFE00
IY = sysvars.ERR_NR  # the ROM keeps IY at ERR_NR and reaches its flags as (IY+d)


def test_the_clock_and_the_frame_agree():
    assert hardware.FRAME_SECONDS == hardware.FRAME_T_STATES / hardware.T_STATES_PER_SECOND
    assert hardware.FRAME_T_STATES == 312 * hardware.LINE_T_STATES  # 312 lines a frame
    assert round(1 / hardware.FRAME_SECONDS, 2) == 50.08
    assert hardware.INTERRUPT_T_STATES < hardware.LINE_T_STATES


def test_the_display_sizes_agree():
    assert (hardware.PIXEL_WIDTH, hardware.PIXEL_HEIGHT) == (256, 192)
    assert hardware.ATTRIBUTES == 0x5800 and hardware.ATTRIBUTES_END - hardware.DISPLAY_FILE == hardware.SCREEN_BYTES
    assert hardware.SCREEN_BYTES == 6912  # SCREEN$ as SAVE saves it
    addresses = {
        hardware.pixel_address(line, column)
        for line in range(hardware.PIXEL_HEIGHT)
        for column in range(hardware.COLUMNS)
    }
    assert addresses == set(range(hardware.DISPLAY_FILE, hardware.ATTRIBUTES))  # each byte once


def call(routine: int, **registers: int) -> list[int]:
    """The registers after the ROM's `routine` returns, given `registers` (B=…, H=…)."""
    memory = bytearray(ROM) + bytearray(0x10000 - len(ROM))
    memory[STACK : STACK + 2] = SENTINEL.to_bytes(2, "little")
    z80 = Z80(memory)
    z80.set_tracer(Speaker())  # no key held; the speaker's edges noted, unread
    for name, value in registers.items():
        z80.registers[{"B": B, "C": C, "H": H, "L": L}[name]] = value
    z80.registers[IYh], z80.registers[IYl] = IY >> 8, IY & 0xFF
    z80.registers[SP], z80.registers[PC] = STACK, routine
    z80.run(stop=SENTINEL, until=10_000, interrupts=False)
    assert z80.registers[PC] == SENTINEL
    return z80.registers


@pytest.mark.parametrize("line", [0, 1, 7, 8, 63, 64, 100, 127, 128, 175])
def test_a_pixel_s_address_is_the_one_pixel_add_works_out(line):
    for x in (0, 9, 128, 255):
        registers = call(PIXEL_ADD, B=hardware.PIXEL_HEIGHT - 17 - line, C=x)  # y counts up from line 175
        assert registers[H] << 8 | registers[L] == hardware.pixel_address(line, x >> 3)


@pytest.mark.parametrize("row", range(hardware.ROWS))
def test_a_cell_s_addresses_are_the_ones_cl_addr_and_po_attr_work_out(row):
    registers = call(CL_ADDR, B=hardware.ROWS - row)
    assert registers[H] << 8 | registers[L] == hardware.cell_address(row, 0)
    for column in (0, 5, 31):
        address = hardware.cell_address(row, column) + 256 * 7  # any of the cell's lines
        registers = call(PO_ATTR, H=address >> 8, L=address & 0xFF)
        assert registers[H] << 8 | registers[L] == hardware.attribute_address(row, column)


def _touches(variable: int, bit: int) -> bool:
    """Whether the ROM tests, sets or resets `bit` of the system variable as (IY+d)."""
    offset = variable - IY
    return any(bytes((0xFD, 0xCB, offset, base + 8 * bit)) in ROM for base in (0x46, 0x86, 0xC6))


@pytest.mark.parametrize(
    "flags, variable",
    [
        (sysvars.Flags, sysvars.FLAGS),
        (sysvars.Flags2, sysvars.FLAGS2),
        (sysvars.TvFlag, sysvars.TV_FLAG),
        (sysvars.FlagX, sysvars.FLAGX),
    ],
)
def test_each_named_bit_is_one_the_rom_uses(flags, variable):
    assert sysvars.bits(flags)
    for name, value in sysvars.bits(flags).items():
        assert value.bit_count() == 1, name
        assert _touches(variable, value.bit_length() - 1), name


def test_the_keyboard_interrupt_sets_new_key():
    assert bytes((0xFD, 0xCB, sysvars.FLAGS - IY, 0xC6 + 8 * (sysvars.Flags.NEW_KEY.bit_length() - 1))) in ROM


def test_the_keys_type_the_control_codes():
    assert keyboard.decode(frozenset({"ENTER"})) == rom.ENTER
    assert (
        keyboard.decode(frozenset({"CAPS", "5"})) == rom.CURSOR_LEFT
        and keyboard.decode(frozenset({"CAPS", "8"})) == rom.CURSOR_RIGHT
    )
    assert (
        keyboard.decode(frozenset({"CAPS", "6"})) == rom.CURSOR_DOWN
        and keyboard.decode(frozenset({"CAPS", "7"})) == rom.CURSOR_UP
    )
    assert (
        keyboard.decode(frozenset({"CAPS", "0"})) == rom.DELETE
        and keyboard.decode(frozenset({"CAPS", "1"})) == rom.EDIT
    )
    assert (
        keyboard.decode(frozenset({"CAPS", "2"})) == rom.CAPS_LOCK
        and keyboard.decode(frozenset({"CAPS", "9"})) == rom.GRAPHICS
    )


def test_the_tokens_come_from_the_rom_s_table():
    assert len(rom.KEYWORDS) == 256 - rom.FIRST_TOKEN and rom.KEYWORDS[-1] == "COPY"
    assert (rom.TOKEN_RND, rom.TOKEN_THEN, rom.TOKEN_STOP, rom.TOKEN_RUN) == (0xA5, 0xCB, 0xE2, 0xF7)
