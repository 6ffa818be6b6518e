"""The real 48K ROM under SkoolKit's Z80 core: a referee for the layer and the games.

An :class:`Oracle` boots the genuine ROM, types a listing into its editor line by line (so the
ROM itself tokenizes it and stores its own hidden numbers), RUNs it with scripted INPUT lines and
held keys, and reports what the machine shows: display file, variables, report, beeper edges.
"""

from dataclasses import dataclass, field

from . import sysvars
from .basic import ListingError, decode_escapes, listing_lines, lowercase_keyword, parse_listing, run_together_keyword
from .fp import to_float
from .hardware import (
    COLUMNS,
    DISPLAY_FILE,
    FRAME_T_STATES,
    SCREEN_BYTES,
    T_STATES_PER_SECOND,
    attribute_address,
    cell_address,
)
from .keyboard import read_port
from .rom import ENTER, ROM, TOKEN_GO_TO, TOKEN_RUN, report_text
from .sysvars import Flags, FlagX, TvFlag
from .z80 import PC, SP, T, Z80

WAIT_KEY = 0x15DE  # every key wait in the editor passes here
EDITOR = 0x0F3B  # WAIT-KEY's caller when the editor (command line or INPUT) wants a key
SCROLL_QUESTION = 0x0CB6  # WAIT-KEY's caller when PRINT asks "scroll?"
PAUSE_LOOP = range(0x1F3A, 0x1F54)  # the PAUSE routine's HALT loop
KEY_CLICK_WINDOW = 20_000  # T-states after a fed key in which the ROM sounds its click
EDITOR_IDLE_FRAMES = 500
KEY_SLOT_INTERRUPTS = 6  # a released key's slot counts down from 5, one an interrupt (KEYBOARD)
FREE_SLOT = 0xFF  # KSTATE: a slot not holding a key
TYPED_CLICK_FRAMES = 3  # frames after a key goes down on the matrix in which the editor clicks
KEY_CLICK_LENGTH = 2_000
ERR_NR_OK = 0xFF  # ERR_NR when no report is due
OUT_OF_MEMORY = 4
ROOM_MARGIN = 80  # TEST-ROOM: MAKE-ROOM leaves 80 bytes between the calculator's stack and the machine stack
STORED_LINE_OVERHEAD = 5  # a program line: its number and its length (two bytes each) and ENTER
_booted: tuple[bytes, list[int]] | None = None
_typed: dict[str, tuple[bytes, list[int]]] = {}


class OracleError(RuntimeError):
    """The ROM did something the script did not expect (a rejected line, a timeout, …)."""


@dataclass(frozen=True)
class Press:
    """Hold `keys` (Spectrum key names) for `hold` frames, then none for `gap` frames.

    With ``at_pause`` the press waits until the program is inside PAUSE, with ``at_scroll``
    until it asks "scroll?".
    """

    keys: frozenset[str]
    hold: int = 5
    gap: int = 5
    at_pause: bool = False
    at_scroll: bool = False


@dataclass(frozen=True)
class Unfinished:
    """Type `text` at the INPUT prompt without ENTER, and stop there to look at the screen."""

    text: str


@dataclass(frozen=True)
class TypedKeys:
    """Type at the next INPUT prompt on the key matrix: each press (a set of Spectrum key names)
    held for `hold` frames, then no key for `gap` frames, so that the ROM's keyboard scan, modes
    and editor take them as they take a person's typing. Add ENTER to finish the line."""

    presses: tuple[frozenset[str], ...]
    hold: int = 2
    gap: int = 5


@dataclass(frozen=True)
class Wait:
    """Let `frames` frames pass with no key held."""

    frames: int


@dataclass
class Result:
    """What the machine shows when the run stops."""

    memory: bytes
    report: str  # e.g. "0 OK, 30:1"
    edges: list[tuple[int, int]]  # (T-state, speaker level) of each beeper edge, key clicks removed
    border: int
    input_prompts: int  # INPUT lines answered
    t_states: int = 0  # the machine's clock when the run stopped
    started_t: int = 0  # …and when RUN was typed
    variables: dict = field(default_factory=dict)
    # (line number of the INPUT statement, display rows 0-21) each time an INPUT line was typed
    input_screens: list[tuple[int, bytes]] = field(default_factory=list)
    # the BASIC variables (as `read_variables` gives them) at each of those INPUTs
    input_variables: list[dict] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """Spectrum time from RUN to the stop (typing the listing in not counted)."""
        return (self.t_states - self.started_t) / T_STATES_PER_SECOND

    @property
    def display(self) -> bytes:
        """The display file and attributes, SCREEN$'s 6912 bytes from 16384."""
        return self.memory[DISPLAY_FILE : DISPLAY_FILE + SCREEN_BYTES]

    def rows(self, first: int = 0, last: int = 21) -> bytes:
        """Display-file bytes and attributes of character rows first..last."""
        return rows_of(self.memory, first, last)


def rows_of(memory, first: int = 0, last: int = 21) -> bytes:
    """Bitmap bytes (8 pixel lines each) and attribute bytes of character rows first..last."""
    out = bytearray()
    for row in range(first, last + 1):
        base = cell_address(row, 0)
        for line in range(8):
            out += bytes(memory[base + 256 * line : base + 256 * line + COLUMNS])
        attributes = attribute_address(row, 0)
        out += bytes(memory[attributes : attributes + COLUMNS])
    return bytes(out)


class Ports:
    """The tracer: the keyboard matrix (the keys in `held`) for IN, the speaker and border for OUT."""

    def __init__(self):
        self.border = 7
        self.held: frozenset[str] = frozenset()
        self.edges: list[tuple[int, int]] = []
        self.speaker = 0

    def read_port(self, registers, port):
        return read_port(port, self.held)

    def write_port(self, registers, port, value, *rest):
        if port & 1:
            return
        self.border = value & 7
        level = (value >> 4) & 1
        if level != self.speaker:
            self.speaker = level
            self.edges.append((registers[T], level))


class Oracle:
    """One real 48K Spectrum. Every :meth:`run` starts from power-on with the listing typed in."""

    def __init__(self, max_seconds: float = 600.0):
        self.max_seconds = max_seconds

    def run(
        self, listing: str, script=(), *, inputs=(), goto: int | None = None, max_seconds: float | None = None
    ) -> Result:
        """Type `listing`, RUN it (or GO TO `goto`), play `script` and return the final state.

        `script` holds INPUT lines (str: typed at the next INPUT prompt, ENTER added),
        :class:`TypedKeys` (typed on the key matrix at the next INPUT prompt) and
        :class:`Press`/:class:`Wait` items (a Press also answers "scroll?"), used in order, and
        may end with an :class:`Unfinished` line, where the run stops at the INPUT prompt (or
        end at "scroll?", where the run stops too); `inputs` is a shortcut for a script of
        INPUT lines only. The run ends when the program stops with a report, or raises
        :class:`OracleError` when it waits for INPUT with the script used up or runs out of time.
        """
        machine = Z80Spectrum(*self.typed(listing))
        command = bytes([TOKEN_RUN]) if goto is None else bytes([TOKEN_GO_TO]) + str(goto).encode()
        for code in command:
            machine.feed(code)
        machine.start_enter()
        budget = (max_seconds or self.max_seconds) * T_STATES_PER_SECOND
        return machine.play(list(script) + list(inputs), budget)

    @staticmethod
    def typed(listing: str) -> tuple[bytes, list[int]]:
        """Memory and registers of a machine with `listing` typed in (cached per listing)."""
        if listing not in _typed:
            machine = Z80Spectrum(*booted())
            check_room(listing, machine.room())
            for number, body in parse_listing(listing):
                try:
                    machine.type_line(str(number).encode() + body, reject_check=number)
                except OracleError as refused:
                    meant, joined = lowercase_keyword(body), run_together_keyword(body)
                    hint = (
                        f" (a keyword is typed in capitals: {meant.upper()}, not {meant})"
                        if meant
                        else f" (the keyword is {joined[1]}, with its space, not {joined[0]})"
                        if joined
                        else ""
                    )
                    raise OracleError(f"{refused}{hint}") from None
            _typed[listing] = machine.snapshot()
        return _typed[listing]

    def program_bytes(self, listing: str) -> bytes:
        """The program as the ROM stores it (PROG to VARS), hidden numbers included."""
        memory = self.typed(listing)[0]
        return memory[_word(memory, sysvars.PROG) : _word(memory, sysvars.VARS)]


def check_room(listing: str, room: int) -> None:
    """OracleError, before a key is typed, for a listing that can't fit in `room` bytes: the ROM
    would report 4 Out of memory while it was typed in. The program is counted without its hidden
    numbers, as it stands after each line (a line typed again replaces the last, a bare number
    deletes it), so only a listing that can't fit is refused; the lines are read only until then,
    so that a listing of megabytes is refused at once."""
    sizes: dict[int, int] = {}
    total = 0
    for number, body in listing_lines(listing):
        total -= sizes.pop(number, 0)
        if body:
            sizes[number] = STORED_LINE_OVERHEAD + len(body)
            total += sizes[number]
        if total > room:
            raise OracleError(
                f"{report_text(OUT_OF_MEMORY)}: by line {number} the program takes at least "
                f"{total:,} bytes, and a 48K has room for {room:,}"
            )


def booted() -> tuple[bytes, list[int]]:
    """Memory and registers of a 48K just booted to its editor (cached)."""
    global _booted
    if _booted is None:
        machine = Z80Spectrum(ROM + bytes(49152), None)
        machine.run_until_key_wait(5 * T_STATES_PER_SECOND)
        _booted = machine.snapshot()
    return _booted


def _word(memory, address: int) -> int:
    return memory[address] + 256 * memory[address + 1]


class Z80Spectrum:
    """The genuine ROM on SkoolKit's Z80 core, from a snapshot: key codes fed to the editor, runs
    to the next key wait, the report; the oracle scripts it and the live machine plays it."""

    def __init__(self, memory: bytes, registers: list[int] | None):
        self.sim = Z80(memory, registers)
        self.ports = Ports()
        self.sim.set_tracer(self.ports)
        self.memory = self.sim.memory
        self.prompts = 0
        self.started_t = self.now
        self.input_screens: list[tuple[int, bytes]] = []
        self.input_variables: list[dict] = []
        self.clicks: list[tuple[int, int]] = []  # (T-state, window): a key click is due then

    def snapshot(self) -> tuple[bytes, list[int]]:
        return bytes(self.memory), list(self.sim.registers)

    @property
    def now(self) -> int:
        return self.sim.registers[T]

    def run_until_key_wait(self, t_states: float) -> bool:
        """Run until WAIT-KEY or for `t_states`; True if WAIT-KEY was reached."""
        stop = self.now + int(t_states)
        self.sim.run(stop=WAIT_KEY, until=stop)
        return self.sim.registers[PC] == WAIT_KEY

    def feed(self, code: int) -> None:
        """Give the editor one key code, as the keyboard interrupt does, and run to the next wait."""
        self.memory[sysvars.LAST_K] = code
        self.memory[sysvars.FLAGS] |= Flags.NEW_KEY
        self.clicks.append((self.now, KEY_CLICK_WINDOW))
        if not self.run_until_key_wait(10 * T_STATES_PER_SECOND):
            raise OracleError(f"no key wait after feeding code {code}")

    def start_enter(self) -> None:
        """Press ENTER and run one frame: what follows may run for long, so don't wait for it."""
        self.memory[sysvars.LAST_K] = ENTER
        self.memory[sysvars.FLAGS] |= Flags.NEW_KEY
        self.clicks.append((self.now, KEY_CLICK_WINDOW))
        self.run_until_key_wait(FRAME_T_STATES)

    def type_line(self, codes: bytes, reject_check: int | None = None) -> None:
        """Type `codes` and ENTER into the editor. With `reject_check` (the line's number),
        OracleError when the ROM does not take the line whole: a key it had no room for (it rasps
        and drops it), a report on ENTER (4 Out of memory), or a line its syntax check refuses."""
        for code in codes:
            if code < 32:
                raise ListingError(f"code {code} cannot be typed into the editor")
            length = self.edit_line_length()
            self.feed(code)
            if reject_check is not None and self.edit_line_length() == length:
                raise OracleError(f"{report_text(OUT_OF_MEMORY)}: no room to type line {reject_check}")
        self.feed(ENTER)
        if reject_check is None:
            return
        if self.memory[sysvars.ERR_NR] != ERR_NR_OK:
            raise OracleError(f"line {reject_check}: the ROM says {report_text(self.memory[sysvars.ERR_NR] + 1)}")
        if self.edit_line_length():
            raise OracleError(f"the ROM rejected line {reject_check}")

    def edit_line_length(self) -> int:
        return _word(self.memory, sysvars.WORKSP) - _word(self.memory, sysvars.E_LINE) - 2

    def room(self) -> int:
        """The bytes free for the program and its workspace, as TEST-ROOM counts them."""
        return self.sim.registers[SP] - _word(self.memory, sysvars.STKEND) - ROOM_MARGIN

    def caller(self) -> int:
        sp = self.sim.registers[SP]
        return _word(self.memory, sp)

    def at_input_prompt(self) -> bool:
        return self.caller() == EDITOR and bool(self.memory[sysvars.FLAGX] & FlagX.INPUT_MODE)

    def play(self, script: list, budget: float) -> Result:
        deadline = self.now + budget
        self.ports.edges.clear()
        self.clicks.clear()
        script = list(script)
        while True:
            if self.sim.registers[PC] == WAIT_KEY and self._at_key_wait(script):
                return self.result()
            item = script[0] if script else None
            if isinstance(item, Press):
                if item.at_pause and self.sim.registers[PC] not in PAUSE_LOOP:
                    self._run_frames(1, deadline)
                    continue
                if item.at_scroll and not (self.sim.registers[PC] == WAIT_KEY and self.caller() == SCROLL_QUESTION):
                    self._run_frames(1, deadline)
                    continue
                script.pop(0)
                answering = self.sim.registers[PC] == WAIT_KEY  # "scroll?" waits for it
                self.ports.held = item.keys
                self._run_frames(item.hold, deadline, through_key_waits=answering)
                self.ports.held = frozenset()
                self._run_frames(item.gap, deadline, through_key_waits=answering)
            elif isinstance(item, Wait):
                script.pop(0)
                self._run_frames(item.frames, deadline)
            else:
                self._run_frames(1, deadline)

    def _at_key_wait(self, script: list) -> bool:
        """Handle a stop at WAIT-KEY; True when the program has ended."""
        caller = self.caller()
        if caller == SCROLL_QUESTION:
            return not (script and isinstance(script[0], Press))
        if caller != EDITOR:
            raise OracleError(f"unexpected key wait (caller {caller:#06x}): {self.report()}")
        if not self.at_input_prompt():
            return True
        if script and isinstance(script[0], Unfinished):
            for code in decode_escapes(script.pop(0).text):
                self.feed(code)
            self._until_editor_idle()
            return True
        if script and isinstance(script[0], TypedKeys):
            self._type_keys(script.pop(0))
            return False
        if not script or not isinstance(script[0], str):
            raise OracleError(f"INPUT wanted but the script has {script[:1] or 'nothing'} next")
        line = script.pop(0)
        self.prompts += 1
        self._note_input()
        for code in decode_escapes(line):
            self.feed(code)
        self.start_enter()
        return False

    def _note_input(self) -> None:
        self.input_screens.append((_word(self.memory, sysvars.PPC), rows_of(self.memory)))
        self.input_variables.append(read_variables(self.memory))

    def _type_keys(self, typed: TypedKeys) -> None:
        """Hold each press on the key matrix in turn while the editor waits for keys."""
        self.prompts += 1
        self._note_input()
        self._until_key_slots_free()
        for keys in typed.presses:
            if not self._until_editor_idle():
                return  # the INPUT is over (an ENTER was taken, or a report stopped the program)
            self.clicks.append((self.now, TYPED_CLICK_FRAMES * FRAME_T_STATES))
            self.ports.held = frozenset(keys)
            self.sim.run(until=self.now + typed.hold * FRAME_T_STATES)
            self.ports.held = frozenset()
            self.sim.run(until=self.now + typed.gap * FRAME_T_STATES)

    def _until_key_slots_free(self) -> None:
        """Wait, as a person does between entries, until the keyboard scan has freed both key slots:
        a key let go of just before a BEEP (which stops the interrupts) keeps its slot for up to five
        interrupts after it, and the same key pressed meanwhile counts as still held, not as new."""
        for _ in range(KEY_SLOT_INTERRUPTS):
            if self.memory[sysvars.KSTATE] == FREE_SLOT and self.memory[sysvars.KSTATE + 4] == FREE_SLOT:
                return
            self.sim.run(until=self.now + FRAME_T_STATES)

    def _until_editor_idle(self) -> bool:
        """Run on to the INPUT editor's key wait with the lower screen up to date (a redraw can
        take a second when it rasps at a full lower screen, and keys pressed meanwhile are lost);
        False if the program is no longer in that INPUT."""
        line = _word(self.memory, sysvars.PPC)
        for _ in range(EDITOR_IDLE_FRAMES):
            if self.run_until_key_wait(FRAME_T_STATES):
                if not self.at_input_prompt() or _word(self.memory, sysvars.PPC) != line:
                    return False
                if not self.memory[sysvars.TV_FLAG] & TvFlag.MODE_CHANGED:
                    return True
        raise OracleError("the editor did not come back to wait for a key")

    def _run_frames(self, frames: int, deadline: float, through_key_waits: bool = False) -> None:
        """Run `frames` frames, stopping early at a key wait unless told to run through them."""
        if self.now > deadline:
            raise OracleError(f"out of time: {self.report()}")
        if through_key_waits:
            self.sim.run(until=self.now + frames * FRAME_T_STATES)
        else:
            self.run_until_key_wait(frames * FRAME_T_STATES)

    def report(self) -> str:
        number = (self.memory[sysvars.ERR_NR] + 1) & 0xFF
        line = _word(self.memory, sysvars.PPC)
        return f"{report_text(number)}, {line}:{self.memory[sysvars.SUBPPC]}"

    def result(self) -> Result:
        return Result(
            memory=bytes(self.memory),
            report=self.report(),
            edges=self._beeper_edges(),
            border=self.ports.border,
            input_prompts=self.prompts,
            t_states=self.now,
            started_t=self.started_t,
            variables=read_variables(self.memory),
            input_screens=self.input_screens,
            input_variables=self.input_variables,
        )

    def _beeper_edges(self) -> list[tuple[int, int]]:
        """Speaker edges without the ROM's key clicks (one short pulse just after each key)."""
        edges = self.ports.edges
        keep = [True] * len(edges)
        for fed, window in self.clicks:
            for i in range(len(edges) - 1):
                start, end = edges[i][0], edges[i + 1][0]
                if keep[i] and fed <= start < fed + window and end - start < KEY_CLICK_LENGTH:
                    keep[i] = keep[i + 1] = False
                    break
        return [edge for edge, kept in zip(edges, keep) if kept]


def read_variables(memory) -> dict:
    """The BASIC variables from VARS to E_LINE: name → number, bytes, or a nested list for arrays.

    Names are lower case, with ``$`` for strings; FOR variables give their current value.
    """
    variables: dict[str, float | bytes | list] = {}
    address = _word(memory, sysvars.VARS)
    while memory[address] != 0x80:
        kind, letter = memory[address] >> 5, chr((memory[address] & 0x1F) | 0x60)
        if kind == 0b011:
            variables[letter] = to_float(bytes(memory[address + 1 : address + 6]))
            address += 6
        elif kind == 0b101:
            end = address + 1
            while not memory[end] & 0x80:
                end += 1
            name = letter + bytes(memory[address + 1 : end + 1]).decode("latin-1").lower()
            name = name[:-1] + chr(ord(name[-1]) & 0x7F)
            variables[name] = to_float(bytes(memory[end + 1 : end + 6]))
            address = end + 6
        elif kind == 0b111:
            variables[letter] = to_float(bytes(memory[address + 1 : address + 6]))
            address += 19
        elif kind == 0b010:
            length = _word(memory, address + 1)
            variables[letter + "$"] = bytes(memory[address + 3 : address + 3 + length])
            address += 3 + length
        else:
            length = _word(memory, address + 1)
            variables[letter + ("$" if kind == 0b110 else "")] = _array(memory, address, kind)
            address += 3 + length
    return variables


def as_read(variables: dict) -> dict:
    """A program's `machine.variables` in the form `read_variables` gives the ROM's: strings
    as bytes, numbers as float, arrays as (nested) lists of them."""

    def value_read(value):
        if isinstance(value, list):
            return [value_read(item) for item in value]
        return value.encode("latin-1") if isinstance(value, str) else float(value)

    return {name: value_read(value) for name, value in variables.items()}


def _array(memory, address: int, kind: int):
    count = memory[address + 3]
    dims = [_word(memory, address + 4 + 2 * i) for i in range(count)]
    data = address + 4 + 2 * count
    size = 1 if kind == 0b110 else 5
    flat: list = [bytes(memory[data + size * i : data + size * (i + 1)]) for i in range(_product(dims))]
    if kind != 0b110:
        flat = [to_float(item) for item in flat]
    for dim in reversed(dims[1:]):
        flat = [flat[i : i + dim] for i in range(0, len(flat), dim)]
    if kind == 0b110:
        flat = _join_strings(flat)
    return flat


def _join_strings(nested):
    """Character arrays: the last dimension becomes one bytes string."""
    if nested and isinstance(nested[0], bytes):
        return b"".join(nested)
    return [_join_strings(item) for item in nested]


def _product(values: list[int]) -> int:
    result = 1
    for value in values:
        result *= value
    return result
