"""A live ZX Spectrum 48K: the genuine ROM on SkoolKit's Z80 core, frame by frame, in a front end.

`RomSpectrum` shows itself to the front ends as the layer's `Spectrum` does: `memory` (the 64K as
a numpy array, live), `border`, `flash_phase`, `frame_count`, `keys_held` (set by the front end at
every frame and seen by the ROM's keyboard scan through the key matrix), `awaiting_key`, and the
calls `frontend.present(machine)` once a frame and `frontend.play(machine, samples)` with the
beeper's sound. A frame is 69,888 T-states with the ROM's interrupt at its start.

The program waits for a key (`awaiting_key`, when a scripted press is typed) while the ROM's
editor waits (INPUT or the command line), in PAUSE 0, or when the program reads the keyboard
itself (INKEY$, IN) with interrupts on.

`loading` types LOAD "" on the key matrix as a person does, for the ROM's keyboard interrupt to take
(ENTER in frame ENTER_FRAME). A tape is played to the ROM's loader at its own speed
(`spectrum.tape_signal`): LD-BYTES reads its signal from the EAR bit, the border shows the loader's
stripes (`border_runs`: the colours where the beam was when each came, as the ULA drew them) and the
tape is heard, as a Spectrum's speaker sounds the EAR signal while it loads; or, `fast`, each block is put
in memory at once when LD-BYTES asks.

Sound: the speaker's edges become samples as `spectrum.sound` renders a BEEP — the level swings
from the first edge of a sound and falls silent at its last. Whether an edge is a sound's last
is known up to a frame later, so each frame's sound reaches the front end one frame late
(`sound_latency`: a recording puts it back in its place).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from . import render, sysvars
from .render import flash_phase
from .basic import ListingError, listing_text, starts_as_a_listing
from .hardware import FRAME_T_STATES, INTERRUPT_T_STATES, T_STATES_PER_SECOND
from .oracle import EDITOR, EDITOR_IDLE_FRAMES, PAUSE_LOOP, WAIT_KEY, Oracle, OracleError, Ports, Z80Spectrum, booted
from .rom import ENTER, TOKEN_CLS, TOKEN_RUN
from .sound import SAMPLE_RATE, frame_start_sample, stepped_samples
from .sysvars import Flags, TvFlag
from .tape import DATA_FLAG, HEADER_FLAG, PROGRAM, TapeError, read_blocks, recorded_blocks
from .tape_signal import TapeRecorder, TapeSignal
from .z80 import A, B, C, D, E, F, IFF, IXh, IXl, PC, SP, T

LD_BYTES = 0x0556  # the ROM's tape loader: A the flag, IX where to, DE how many; carry set when loaded
SA_LD_RET = 0x053F  # where LD-BYTES returns through, loaded or not (it pushes it first)
EAR_BIT = 6  # of what IN reads from an even port: the tape's signal
TAPE_LOADER = range(LD_BYTES, 0x0605)  # LD-BYTES to LD-SAMPLE: with no tape left it waits for one, or BREAK
HEADER_LENGTH = 17  # type, name (10), length, autostart line, program length
TZX_SIGNATURE = b"ZXTape!\x1a"  # the other tape format emulators use, with its timings
# LOAD "" as a person types it on the key matrix: J (LOAD in K mode), SYMBOL SHIFT with P twice (the
# quotes), ENTER; each held for TYPED_HOLD frames, then no key for TYPED_GAP. The ROM's KEYBOARD takes
# a key at the first interrupt that sees it, and frees a released key's slot only after five more
# (KSTATE): the second quote, the same key, must wait for that.
LOAD_TYPED = (frozenset({"j"}), frozenset({"SYMBOL", "p"}), frozenset({"SYMBOL", "p"}), frozenset({"ENTER"}))
TYPED_HOLD, TYPED_GAP = 2, 6
ENTER_FRAME = (len(LOAD_TYPED) - 1) * (TYPED_HOLD + TYPED_GAP)  # whose interrupt takes ENTER: the LOAD begins
KEYBOARD_READS = (range(0x0296, 0x0298), range(0x34A8, 0x34AA))  # IN A,(C) of KEY-SCAN and of IN
# How far into an OUT the ULA sees the port written, as Fuse times it (port $FE uncontended, as the
# ROM addresses it): after the instruction's fetches and reads and the I/O cycle's first T-state
OUT_N_A = 0xD3  # OUT (n),A: opcode and operand, 4 + 3
BLOCK_OUTS = {0xA3, 0xAB, 0xB3, 0xBB}  # OUTI, OUTD, OTIR, OTDR after ED: 4 + 4, a T-state, (HL) read 3
OUT_N_A_WRITES, BLOCK_OUT_WRITES, OUT_C_WRITES = 8, 13, 9  # OUT (C),r: ED and its opcode, 4 + 4
INTERRUPT = 0x0038  # IM 1: where the frame interrupt enters the ROM
NEVER = 0x10000  # a stop address the program counter never reaches
SOUND_GAP = FRAME_T_STATES  # the longest half-wave of a sound (BEEP pitches from about -40 up)
# How far a copy of the machine is run to find the editor's key wait when blocks are left on the tape:
# from a frame's end (the interrupt) the idle editor is back at WAIT-KEY within about 1,100 T-states
KEY_WAIT_LOOK_AHEAD = 10_000
T_PER_SAMPLE = T_STATES_PER_SECOND / SAMPLE_RATE
# LD-EDGE gives up on a block within a few thousand T-states of its last edge: a loader still
# running a frame after the tape's last edge waits for a tape that has ended
LOADER_PATIENCE = FRAME_T_STATES


class ProgramFileError(ValueError):
    """A file that is neither a tape with a BASIC program nor a listing."""


def check_program_follows(blocks: list[tuple[int, bytes]], header_index: int) -> None:
    """TapeError unless the program's header (at `header_index`) is followed by the program, as
    long as the header says: else the ROM would stop with "R Tape loading error"."""
    header = blocks[header_index][1]
    following = blocks[header_index + 1 : header_index + 2]
    if not following or following[0][0] != DATA_FLAG:
        raise TapeError("the BASIC program's header is not followed by the program (the tape is cut short)")
    said, held = int.from_bytes(header[11:13], "little"), len(following[0][1])
    if held != said:
        raise TapeError(f"the BASIC program's header says {said:,} bytes, and its block holds {held:,}")


def typed_frames(presses) -> list[frozenset[str]]:
    """The keys held in each frame while `presses` are typed: each for TYPED_HOLD frames, with
    TYPED_GAP frames of no key between two."""
    gap: list[frozenset[str]] = [frozenset()] * TYPED_GAP
    return [keys for number, press in enumerate(presses) for keys in (gap if number else []) + [press] * TYPED_HOLD]


class LivePorts(Ports):
    """The port tracer, also noting when the program reads the keys itself (INKEY$ or IN with
    interrupts on: the interrupt's own scan has them off; BREAK checks read the port elsewhere),
    answering the EAR bit from `tape` when there is one, and noting each change of the border
    with the T-state the ULA sees it (`border_changes`); `memory` holds the OUT instructions."""

    def __init__(self, memory):
        super().__init__()
        self.memory = memory
        self.polled = False
        self.tape: TapeRecorder | None = None
        self.border_changes: list[tuple[int, int]] = []
        self._answers: dict[int, int] = {}  # port -> what IN reads, for the keys in `_answers_for`
        self._answers_for: frozenset[str] = frozenset()

    def read_port(self, registers, port):
        if registers[IFF] and any(registers[PC] in reads for reads in KEYBOARD_READS):
            self.polled = True
        if self.held != self._answers_for:  # the keys change a few times a second; IN runs 400 times
            self._answers, self._answers_for = {}, self.held
        if port not in self._answers:
            self._answers[port] = super().read_port(registers, port)
        if self.tape is not None and not port & 1:  # LD-SAMPLE reads it every 59 T-states
            return self._answers[port] | self.tape.ear(registers[T]) << EAR_BIT
        return self._answers[port]

    def _port_written_after(self, address: int) -> int:
        """The T-states from the start of the OUT at `address` to the ULA's seeing its port written."""
        if self.memory[address] == OUT_N_A:
            return OUT_N_A_WRITES
        return BLOCK_OUT_WRITES if self.memory[(address + 1) & 0xFFFF] in BLOCK_OUTS else OUT_C_WRITES

    def write_port(self, registers, port, value, *rest):
        if not port & 1 and value & 7 != self.border:
            self.border_changes.append((registers[T] + self._port_written_after(registers[PC]), value & 7))
        super().write_port(registers, port, value, *rest)


class BeeperStream:
    """Speaker edges (T-states) into samples on the stream grid, a frame at a time.

    From the first edge of a sound the level is +1, then -1, +1 … at each edge; from the last
    edge of a sound it is silent — as `edges_to_samples` renders a BEEP. A sound's last edge is
    one that no edge follows within twice the interval before it (within SOUND_GAP of a first
    edge), so BEEPs, key clicks and sounds a few milliseconds apart stay apart; but a tape's block
    sounds on to its last edge (`sounding`), where a 1,710 T-state pulse follows a sync pulse of 735.
    """

    def __init__(self, origin: int, frame_zero: int):
        self.origin = origin  # the T-state of sample 0
        self.frame_zero = frame_zero  # the T-state frame 0 began at
        self.steps: list[tuple[int, int]] | None = None  # as `Speaker.speaker_steps`, when asked for
        self.edges: list[int] = []  # edges not yet passed by the samples handed out
        self.level = 0.0  # the level at the end of the last samples handed out
        self.last_edge = 0  # the edge before it
        self.onsets: list[int] = []  # the first edge of each sound
        self.sounding = range(0)  # a tape's block: one sound from its first edge to its last, whatever their pace

    def samples(self, first: int, end: int) -> np.ndarray:
        """int16 samples `first` to `end` - 1; every edge before their end + SOUND_GAP is known."""
        start_t, end_t = self.origin + first * T_PER_SAMPLE, self.origin + end * T_PER_SAMPLE
        if not self.level and not (self.edges and self.edges[0] < end_t):
            return np.zeros(end - first, np.int16)  # silence, as most frames are
        times, levels = [start_t], [self.level]
        while self.edges and self.edges[0] < end_t:
            edge = self.edges.pop(0)
            # a sound goes on while its edges keep their pace: the next one within twice the last
            # interval (within SOUND_GAP after a sound's first edge)
            window = SOUND_GAP if not self.level else min(SOUND_GAP, 2 * (edge - self.last_edge))
            follows = edge in self.sounding or (bool(self.edges) and self.edges[0] - edge <= window)
            if not self.level and follows:
                self.onsets.append(edge)
            self.level = (-self.level or 1.0) if follows else 0.0
            self.last_edge = edge
            times.append(max(edge, start_t))
            levels.append(self.level)
            if self.steps is not None:
                self.steps.append((round(times[-1]) - self.frame_zero, int(self.level)))
        times.append(end_t)
        return stepped_samples(times, levels, start_t, end - first)


class RomSpectrum:
    """The real ROM running in real time for a front end; start it with `running` or `loading`."""

    sound_latency = 1  # frames: the sound handed on in a frame is the frame before's
    _origin: int  # frame 0's T-state, and the sound from then on: set when the first frame begins
    _beeper: BeeperStream

    def __init__(
        self,
        frontend,
        memory: bytes,
        registers: list[int],
        tape: Iterable[tuple[int, bytes]] = (),
        recorder: TapeRecorder | None = None,
    ):
        self.z80 = Z80Spectrum(memory, registers)
        self.ports = LivePorts(self.z80.memory)
        self.z80.ports = self.ports
        self.z80.sim.set_tracer(self.ports)
        self.sim = self.z80.sim
        self.memory = np.frombuffer(self.sim.memory, dtype=np.uint8)  # the simulator's own bytes, live
        self.frontend = frontend
        self._blocks = list(tape)  # blocks (flag, data) still to put in memory at once, in order
        self.recorder = self.ports.tape = recorder  # or the tape played to the ROM's loader
        self._in_loader = False  # LD-BYTES reads the recorder's tape
        self.border_changes: list[tuple[int, int]] = []  # the last frame's: (T-state from its interrupt, colour)
        self.border_runs: tuple[tuple[int, int], ...] | None = None  # the last frame's, when it changed
        self.keys_held: set[str] = set()
        self._typing: deque[frozenset[str]] = deque()  # the keys typed in each coming frame, before the front end's
        self.awaiting_key = False
        self.targets: object = (
            None  # what the cells mean at a key wait, from what reads this screen (`spectrum.pointing`)
        )
        self._at_command_line = False  # the editor waits (this frame) at the command line, not INPUT or scroll?
        self.frame_count = 0
        self.flash_phase = False
        self._copy: Z80Spectrum | None = None  # where a key wait is looked for while the tape has blocks left

    def _begin(self, origin: int | None = None) -> None:
        """Frame 0 starts at `origin`, or else the next interrupt; what was typed to get here is
        not heard."""
        self._origin = -(-self.now // FRAME_T_STATES) * FRAME_T_STATES if origin is None else origin
        self._beeper = BeeperStream(self._origin, self._origin)
        self.ports.edges.clear()

    @classmethod
    def running(cls, frontend, listing: str) -> RomSpectrum:
        """`listing` typed into the ROM's editor, then RUN."""
        machine = cls(frontend, *Oracle.typed(listing))
        # CLS first: the listing the editor showed as it was typed in is cleared, and with it
        # what the editor's ENTER would take a listing-dependent time over
        machine.z80.feed(TOKEN_CLS)
        machine.z80.start_enter()
        machine.z80.run_until_key_wait(EDITOR_IDLE_FRAMES * FRAME_T_STATES)
        machine.z80.feed(TOKEN_RUN)
        # ENTER as a key is taken: by the interrupt at the start of a frame (then frame 0 is the
        # next), so that the program's time from frame 0 on is the same whatever was typed before
        enter_frame = -(-machine.now // FRAME_T_STATES) * FRAME_T_STATES
        machine.sim.run(until=enter_frame)
        machine.memory[sysvars.LAST_K] = ENTER
        machine.memory[sysvars.FLAGS] |= Flags.NEW_KEY
        machine.sim.run(until=enter_frame + FRAME_T_STATES - INTERRUPT_T_STATES)
        machine._begin(enter_frame + FRAME_T_STATES)
        return machine

    @classmethod
    def loading(cls, frontend, tap: bytes, *, fast: bool = False) -> RomSpectrum:
        """The machine just switched on, a tape with a BASIC program in its recorder, and LOAD ""
        about to be typed on its keys (LOAD_TYPED: from frame 0, ENTER taken by the interrupt of
        ENTER_FRAME, the front end's keys not seen until then); the tape's signal read by the
        ROM's loader at the tape's speed, each block as it is recorded (one that fails its checksum
        or is cut short fails as the ROM fails it, R Tape loading error); or, `fast`, each block
        put in memory at once as LD-BYTES asks for it.

        TapeError for a file that is not such a tape, and (`fast`) for one the ROM would fail to load.
        """
        recorded = recorded_blocks(tap)
        blocks = read_blocks(tap) if fast else [(body[0], body[1:-1]) for body in recorded]
        headers = [
            index
            for index, (flag, data) in enumerate(blocks)
            if flag == HEADER_FLAG and len(data) == HEADER_LENGTH and data[0] == PROGRAM
        ]
        if not headers:
            raise TapeError("the tape holds no BASIC program")
        if fast:
            check_program_follows(blocks, headers[0])
            machine = cls(frontend, *booted(), tape=blocks)
        else:
            machine = cls(frontend, *booted(), recorder=TapeRecorder(TapeSignal(recorded)))
        machine._begin()
        machine._typing.extend(typed_frames(LOAD_TYPED))
        return machine

    @classmethod
    def from_file(cls, frontend, path: str | Path, *, fast: bool = False) -> RomSpectrum:
        """A .tap to LOAD "" from (at the tape's speed, or `fast`: see `loading`), or a BASIC
        listing in text (zmakebas escapes, as make_tap reads it) typed in and RUN.
        ProgramFileError says in one line what is wrong with the file; OSError, that it cannot be
        read."""
        path = Path(path)
        data = path.read_bytes()
        if data.startswith(TZX_SIGNATURE):
            raise ProgramFileError(f"{path}: a .tzx tape, which zxcards does not read: it loads .tap files")
        try:
            return cls.loading(frontend, data, fast=fast)
        except TapeError as not_a_tape:
            if path.suffix.lower() == ".tap":
                raise ProgramFileError(f"{path}: {not_a_tape}") from None
            why_not_a_tape = not_a_tape
        neither = f"{path}: neither a tape ({why_not_a_tape}) nor a BASIC listing"
        try:
            listing = listing_text(data)
        except ListingError as not_text:
            raise ProgramFileError(f"{neither} ({not_text})") from None
        try:
            return cls.running(frontend, listing)
        except ListingError as wrong:  # said of a listing when it begins as one
            said = f"{path}: {wrong}" if starts_as_a_listing(listing) else f"{neither} ({wrong})"
            raise ProgramFileError(said) from None
        except OracleError as refused:  # a listing, which the ROM does not take whole
            raise ProgramFileError(f"{path}: {refused}") from None

    @property
    def now(self) -> int:
        return self.z80.now

    @property
    def border(self) -> int:
        return self.ports.border

    @property
    def tape(self) -> list:
        """The blocks still on the tape: not yet put in memory, or (played) not yet played to their end."""
        return self.recorder.blocks_left(self.now) if self.recorder else self._blocks

    @property
    def speaker_steps(self) -> list[tuple[int, int]] | None:
        """(T-state from frame 0, level from then on) of each speaker edge, once the sound is handed
        on, when a front end asks for them by making this a list (`Speaker.speaker_steps`)."""
        return self._beeper.steps

    @speaker_steps.setter
    def speaker_steps(self, steps: list[tuple[int, int]] | None) -> None:
        self._beeper.steps = steps

    @property
    def sound_onsets(self) -> list[int]:
        """The T-state (from frame 0) each sound began at, as far as the sound has been handed on."""
        return [edge - self._origin for edge in self._beeper.onsets]

    @property
    def program_stopped(self) -> bool:
        """The ROM waits at its command line (a report is showing) rather than in the program."""
        return self.awaiting_key and self._at_command_line

    def run(self) -> None:
        """Frames until the front end stops them (Quit when its window closes, ScriptExhausted)."""
        while True:
            self.run_frame()

    def run_frame(self) -> None:
        """One frame: the front end shows the picture and gives the keys, then the Z80 runs."""
        self.flash_phase = flash_phase(self.frame_count)
        self.frontend.present(self)
        typing = bool(self._typing)  # the machine types LOAD "" itself: the front end's keys are not seen
        self.ports.held = self._typing.popleft() if typing else frozenset(self.keys_held)
        self.ports.polled = False
        self.awaiting_key = self._at_command_line = False
        # to just before the next frame's interrupt, which the keys the front end gives then are
        # to meet (a run to the frame's very end would take it with this frame's keys)
        frame_start = self._origin + self.frame_count * FRAME_T_STATES  # the frame's interrupt
        end = frame_start + FRAME_T_STATES - INTERRUPT_T_STATES
        border, stop = self.border, NEVER
        while self.now < end:
            stop = self._stop_address()
            self.sim.run(stop=stop, until=end)
            pc = self.sim.registers[PC]
            if pc == stop == LD_BYTES and self.recorder:
                self.recorder.loader_started(self.now)
                self._in_loader = True
            elif pc == stop == LD_BYTES:
                self._load_block()
            elif pc == stop == SA_LD_RET:
                assert self.recorder is not None  # a stop there only while a recorder plays
                self.recorder.loader_returned(self.now)
                self._in_loader = False
            elif pc == WAIT_KEY and self.now < end:
                self._note_key_wait(self.z80)
        if stop == LD_BYTES:  # the frame stopped only where the tape is read, never at WAIT-KEY
            self._look_ahead_for_key_wait()
        self.border_changes = [(t_state - frame_start, colour) for t_state, colour in self.ports.border_changes]
        self.ports.border_changes.clear()
        self.border_runs = render.border_runs(border, self.border_changes) if self.border_changes else None
        registers = self.sim.registers
        in_pause_0 = self._program_counter() in PAUSE_LOOP and registers[B] * 256 + registers[C] in (0, 0xFFFF)
        self.awaiting_key = not typing and (
            self.awaiting_key or in_pause_0 or self.ports.polled or self._waiting_for_tape()
        )
        self._hear_edges()
        # the frame before's sound, on frame 0's sample grid: each frame's samples begin where its
        # frame does, with none missed or doubled between two
        self._play(frame_start_sample(max(0, self.frame_count - 1)), frame_start_sample(self.frame_count))
        self.frame_count += 1

    def _stop_address(self) -> int:
        """Where the Z80 is to stop next: where LD-BYTES returns while it reads the recorder's tape;
        at LD-BYTES while blocks are left on the tape; else at the editor's key wait, unless the
        frame has found one already."""
        if self._in_loader:
            return SA_LD_RET
        if self.tape:
            return LD_BYTES
        return NEVER if self.awaiting_key else WAIT_KEY

    def _waiting_for_tape(self) -> bool:
        """The ROM's loader waits for a tape that has nothing left on it, as a Spectrum does until
        BREAK (a recorder's tape ended more than LD-EDGE's time-out ago)."""
        if self.tape or self._program_counter() not in TAPE_LOADER:
            return False
        return not self.recorder or self.recorder.quiet_for(self.now) > LOADER_PATIENCE

    def _note_key_wait(self, machine: Z80Spectrum) -> None:
        """`machine` (this one, or a copy of it) is at WAIT-KEY: the editor waits, once it has
        brought its lines up to date (TV_FLAG's MODE_CHANGED clear)."""
        self.awaiting_key = not machine.memory[sysvars.TV_FLAG] & TvFlag.MODE_CHANGED
        self._at_command_line = machine.caller() == EDITOR and not machine.at_input_prompt()

    def _look_ahead_for_key_wait(self) -> None:
        """Whether the editor waits for a key, while blocks the ROM has not asked for are left on
        the tape (a second program, or the program a header was refused for): the Z80 stops at one
        address only, LD-BYTES then, so a copy of the machine runs on to its next WAIT-KEY, with the
        same keys held. A copy that loads from the tape first never gets there: no key wait."""
        if self._copy is None:
            self._copy = Z80Spectrum(self.sim.memory, self.sim.registers)
        copy = self._copy  # one copy, brought up to date each frame: a new one each frame ran 5x slower
        copy.memory[:] = self.sim.memory
        copy.sim.registers[:] = self.sim.registers
        copy.ports.held, copy.ports.edges = self.ports.held, []
        if copy.run_until_key_wait(KEY_WAIT_LOOK_AHEAD):
            self._note_key_wait(copy)

    def flush_sound(self) -> None:
        """Hand over the sound still held back (when the run ends)."""
        self._hear_edges()
        self._beeper.sounding = range(0)  # a block the tape was playing is cut off here too
        self._beeper.edges.append(self.now + 2 * SOUND_GAP)  # a stand-in after the end: the last sound ends
        self._play(
            frame_start_sample(max(0, self.frame_count - 1)), int((self.now - self._beeper.origin) / T_PER_SAMPLE) + 1
        )
        self._beeper.edges.clear()

    def _program_counter(self) -> int:
        """Where the program is: a frame stops as the next one's interrupt is taken, so then the
        address the interrupt returns to."""
        registers, memory = self.sim.registers, self.sim.memory
        if registers[PC] == INTERRUPT:
            return memory[registers[SP]] + 256 * memory[(registers[SP] + 1) & 0xFFFF]
        return registers[PC]

    def _hear_edges(self) -> None:
        """The speaker's edges to the beeper, and the tape's while it plays: the EAR signal sounds
        on a Spectrum's speaker as it loads."""
        edges = [t for t, _ in self.ports.edges]
        if self.recorder:
            edges = sorted(edges + self.recorder.edges_until(self.now))
            self._beeper.sounding = self.recorder.sounding(self.now)
        self._beeper.edges += edges
        self.ports.edges.clear()

    def _play(self, first: int, end: int) -> None:
        if end > first:
            samples = self._beeper.samples(first, end)
            if samples.any():
                self.frontend.play(self, samples)

    def _load_block(self) -> None:
        """LD-BYTES with the next block from the tape, as if it came off the tape at once."""
        registers, memory = self.sim.registers, self.sim.memory
        flag, data = self._blocks.pop(0)
        loaded = flag == registers[A]
        if loaded:
            start, length = registers[IXl] + 256 * registers[IXh], registers[E] + 256 * registers[D]
            count = min(length, len(data))
            for offset in range(count):
                if start + offset >= sysvars.RAM_START:
                    memory[(start + offset) & 0xFFFF] = data[offset]
            loaded = count == length
            end, left = (start + count) & 0xFFFF, length - count
            registers[IXl], registers[IXh], registers[E], registers[D] = end & 0xFF, end >> 8, left & 0xFF, left >> 8
        registers[F] = (registers[F] & 0xFE) | int(loaded)  # carry: the block loaded
        sp = registers[SP]
        registers[PC] = memory[sp] + 256 * memory[(sp + 1) & 0xFFFF]  # RET
        registers[SP] = (sp + 2) & 0xFFFF
