"""Addresses of the system variables and memory areas the layer uses (48K Spectrum)."""

UDG_AREA = 65368  # USR "a" after power-on on a 48K machine
RAM_START = 0x4000

KSTATE = 23552  # 8 bytes: the keyboard scan's two key slots
LAST_K = 23560
REPDEL = 23561
REPPER = 23562
BORDCR = 23624
ERR_NR = 23610
FLAGS = 23611
TV_FLAG = 23612
MODE = 23617
FLAGX = 23665
CHARS = 23606
DF_SZ = 23659
SCR_CT = 23692
RASP = 23608
PIP = 23609
S_POSN = 23688  # column then line, counted from 33 and 24 downwards
SEED = 23670
FRAMES = 23672  # 3 bytes
UDG = 23675
ATTR_P = 23693
MASK_P = 23694
ATTR_T = 23695
MASK_T = 23696
P_FLAG = 23697
FLAGS2 = 23658
PROG = 23635
VARS = 23627
E_LINE = 23641
WORKSP = 23649
STKBOT = 23651
STKEND = 23653
NEWPPC = 23618
PPC = 23621
SUBPPC = 23623


# Each system variable's bits are a class of plain ints, not an enum.IntFlag: the keyboard
# interrupt and PRINT read and write them many times a frame, and an IntFlag's every & and ~
# costs microseconds. `bits(Flags)` lists a class's bits by name.


def bits(flags: type) -> dict[str, int]:
    """A class of bits' names and values."""
    return {name: value for name, value in vars(flags).items() if name.isupper()}


class Flags:
    """FLAGS' bits, as the ROM uses them."""

    NO_LEADING_SPACE = 0x01  # PO-SPACE: no space before the next keyword printed
    PRINTER = 0x02  # channel P (the printer) in use
    PRINT_L_MODE = 0x04  # the line being printed (ED-COPY) has reached a place for L mode, not K
    L_MODE = 0x08  # the keyboard reads keys in L mode, not K
    NEW_KEY = 0x20  # the keyboard interrupt has put a new key in LAST_K
    NUMERIC = 0x40  # the last expression scanned was numeric, not a string
    RUNNING = 0x80  # a line is being run, not only checked for its syntax


class Flags2:
    """FLAGS2's bits."""

    CLEAR_SCREEN = 0x01  # the upper screen is to be cleared (after a listing)
    PRINTER_BUFFER = 0x02  # the printer buffer holds something
    IN_QUOTES = 0x04  # the line being printed is within quotes
    CAPS_LOCK = 0x08
    CHANNEL_K = 0x10  # the keyboard's channel (the lower screen) is the current one


class TvFlag:
    """TV_FLAG's bits."""

    LOWER_SCREEN = 0x01  # printing goes to the lower screen
    MODE_CHANGED = 0x08  # the editor's mode may have changed: its line is to be copied again
    AUTOMATIC_LISTING = 0x10
    CLEAR_LOWER = 0x20  # the lower screen is to be cleared


class FlagX:
    """FLAGX's bits."""

    COMPLETE_STRING = 0x01  # a complete string variable is being assigned (the old one to go)
    NEW_VARIABLE = 0x02  # the variable assigned does not exist yet
    INPUT_MODE = 0x20  # the editor is taking an INPUT, not a command
    INPUT_LINE = 0x80  # INPUT LINE
