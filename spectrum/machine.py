"""One ZX Spectrum 48K as a BASIC program sees it.

The machine is put together from its parts, each in its own module: memory and PEEK/POKE
(`memory`), the screen and PRINT (`screen`), the keyboard interrupt, PAUSE and INKEY$ (`keys`),
INPUT's editor (`editor`) and the beeper (`sound`). Here are power-on, the clock and RND.

The clock counts 50 Hz frames of 69,888 T-states and the T-states into the current one. Waiting
(PAUSE, INPUT, a key) and BEEP always take their time. With `timing` set (a `spectrum.timing.
Timing`), everything else takes the ROM's time too — the layer's routines charge it, and so does
the `interpreter` a port of a BASIC program runs its statements through; without it, the rest
is instant. At each frame the front end shows the display and collects the keys held, then
the ROM's interrupt counts FRAMES and scans the keyboard (unless interrupts are off, as in BEEP).
"""

from contextlib import contextmanager

from . import fp, sysvars
from .colours import WHITE
from .editor import Editor
from .errors import BREAK_INTO_PROGRAM, ReportError
from .hardware import COLUMNS, FRAME_T_STATES
from .keys import BREAK_KEYS, Keys
from .memory import Memory, find_word
from .render import flash_phase
from .rom import FONT_ADDRESS
from .screen import POWER_ON_ATTRIBUTE, Screen, codes_of
from .sound import Speaker
from .sysvars import Flags, Flags2


class Spectrum(Memory, Screen, Keys, Editor, Speaker):
    """A 48K Spectrum after power-on, driven from Python as a BASIC program drives it.

    `variables` is where a program lets expressions typed at INPUT see its BASIC variables,
    by name ("a", "score", "p$"): numbers, strings or arrays, kept up to date by the program;
    `functions` holds its DEF FNs (see `expression.evaluate`).
    """

    def __init__(self, frontend=None):
        if frontend is None:
            from .frontends import HeadlessFrontend

            frontend = HeadlessFrontend()
        Memory.__init__(self)
        Speaker.__init__(self)
        self.frontend = frontend
        self.border = WHITE
        self.flash_phase = False
        self.frame_count = 0
        self.t_state = 0  # T-states into the current frame
        self.timing = None  # a spectrum.timing.Timing: the ROM's time for everything, not only waits
        self.interpreter = None  # a port's spectrum.interpreter.Interpreter, when it has one
        self.timeline = None  # if a list: (T-state, line, statement) of each statement the port runs
        self.keys_held: set[str] = set()
        self.awaiting_key = False
        self.targets: object = None  # what the program's cells mean at its wait for a key (`spectrum.pointing`)
        self.keyboard_read = False  # the program read the keys itself (INKEY$, IN) in this frame
        self.variables: dict[str, float | str | list] = {}
        self.functions: dict[str, tuple[tuple[str, ...], bytes]] = {}
        self._init_screen()
        self._power_on()

    def _power_on(self) -> None:
        """The system variables the layer uses, as the ROM's START/NEW leave them."""
        self._poke_word(sysvars.CHARS, FONT_ADDRESS - 256)
        self._poke_word(sysvars.UDG, sysvars.UDG_AREA)
        udgs = self.memory[FONT_ADDRESS + 8 * (ord("A") - 32) :][: 21 * 8]
        self.memory[sysvars.UDG_AREA : sysvars.UDG_AREA + 21 * 8] = udgs
        for address, value in (
            (sysvars.ATTR_P, POWER_ON_ATTRIBUTE),
            (sysvars.MASK_P, 0),
            (sysvars.BORDCR, POWER_ON_ATTRIBUTE),
            (sysvars.P_FLAG, 0),
            (sysvars.DF_SZ, 2),
            (sysvars.REPDEL, 35),
            (sysvars.REPPER, 5),
            (sysvars.FLAGS, Flags.PRINT_L_MODE | Flags.L_MODE),
            (sysvars.FLAGS2, Flags2.CHANNEL_K),
            (sysvars.MODE, 0),
        ):
            self.memory[address] = value
        self.memory[sysvars.KSTATE : sysvars.KSTATE + 8] = [0xFF, 0, 0, 0, 0xFF, 0, 0, 0]
        self.cls()

    # --- random numbers ---------------------------------------------------------------------

    def randomize(self, n: float = 0) -> None:
        """RANDOMIZE n: SEED := n rounded; 0 takes the low 16 bits of FRAMES."""
        seed = find_word(n)
        if seed == 0:
            seed = self._peek_word(sysvars.FRAMES)
        self._poke_word(sysvars.SEED, seed)

    def rnd(self) -> float:
        """RND: SEED := (75 * (SEED + 1)) mod 65537 - 1, and the result is SEED / 65536, on the
        ROM's calculator as S-RND works it out."""
        seed, number = fp.random_number(self._peek_word(sysvars.SEED))
        self._poke_word(sysvars.SEED, seed)
        return fp.to_float(number)

    # --- time -------------------------------------------------------------------------------

    def charge(self, item: str, count: int = 1) -> None:
        """The ROM's time for a routine of the layer's, when the machine keeps it (`timing`)."""
        if self.timing is not None:
            self.timing.charge(item, count)

    @property
    def t_states(self) -> int:
        """The clock: T-states since frame 0 began."""
        return self.frame_count * FRAME_T_STATES + self.t_state

    def spend(self, t_states: int, *, interrupts: bool = True) -> None:
        """Let `t_states` pass; at each frame that begins meanwhile the front end shows the display
        and the interrupt is taken (unless `interrupts` is off: BEEP's DI)."""
        self.t_state += t_states
        while self.t_state >= FRAME_T_STATES:
            self.t_state -= FRAME_T_STATES
            self._frame_begins(interrupts=interrupts)

    def wait_frame(self, *, interrupts: bool = True, awaiting_key: bool = False, breakable: bool = True) -> None:
        """Wait for the next frame (HALT): the front end shows it and reads keys, then (unless
        interrupts are off) the ROM's interrupt counts FRAMES and scans keys. BREAK (CAPS SHIFT
        + SPACE) held then stops the program with "L BREAK into program", as the ROM does
        between statements, unless `breakable` is off (as in INPUT, where it is a space).

        `awaiting_key` tells the front end that the program is waiting for a key (a loop on
        INKEY$, say), which is when a scripted key press is typed.
        """
        self.t_state = 0
        self._frame_begins(interrupts=interrupts, awaiting_key=awaiting_key, breakable=breakable)

    def wait_frames_for_key(self, most: int) -> int:
        """Wait for the next frame, as `wait_frame(awaiting_key=True)`, after letting as many as
        `most` - 1 frames go by first while nothing happens: a front end that can (a served one)
        sleeps through frames in which no key comes, nothing is to be shown and `wake` is not
        called, and those frames pass unseen, each counted by the interrupt as it would have been.
        How many frames passed (1 with any other front end)."""
        unseen = self.frontend.doze(self, most - 1) if most > 1 else 0
        for _ in range(unseen):
            self._frame_begins(interrupts=True, awaiting_key=True, shown=False)
        self.wait_frame(awaiting_key=True)
        return unseen + 1

    def wake(self) -> None:
        """From any thread: a front end sleeping through frames (`wait_frames_for_key`) stops, as
        something the program waits on besides a key has happened."""
        self.frontend.wake()

    @contextmanager
    def saying(self, text: str):
        """While the block runs, `text` is said outside the Spectrum's screen, on the front end's
        status line (a window's strip, a page's), before what that says already: for a long step
        whose screen looks like a missed key (a shuffle with the prompt still up). SCREEN$ is not
        touched; a front end with no status line says nothing."""
        frontend = self.frontend
        before = getattr(frontend, "status", None)
        if before is None:
            yield
            return
        frontend.status = f"{text}  ·  {before}" if before else text
        try:
            yield
        finally:
            frontend.status = before

    def _frame_begins(
        self, *, interrupts: bool, awaiting_key: bool = False, breakable: bool = True, shown: bool = True
    ) -> None:
        # a program that reads the keys itself waits for one, as the ROM machine takes it
        self.awaiting_key, self.keyboard_read = awaiting_key or self.keyboard_read, False
        self._play_frame_audio()
        self.frame_count += 1
        self.flash_phase = flash_phase(self.frame_count)
        if shown:
            self.frontend.present(self)
        if interrupts and breakable and BREAK_KEYS <= self.keys_held:
            raise ReportError(BREAK_INTO_PROGRAM)
        if interrupts:
            ram = self.ram  # FRAMES counted on, a byte at a time as the interrupt's INC does
            for address in range(sysvars.FRAMES, sysvars.FRAMES + 3):
                ram[address] = (ram[address] + 1) & 0xFF
                if ram[address]:
                    break
            self._keyboard_interrupt()

    def show_report(self, error: ReportError) -> None:
        """The report line at the foot of the screen, as the ROM shows it when a program stops;
        it stays while BREAK is held, so that the BREAK that stopped one program stops no other."""
        self.cls_lower()
        self.print_out(codes_of(str(error))[:COLUMNS])
        self.wait_frame(breakable=False)
        while BREAK_KEYS <= self.keys_held:
            self.wait_frame(breakable=False)
