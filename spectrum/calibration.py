"""Measuring what the ROM's routines cost: random BASIC listings run on the genuine ROM and through
the layer's interpreter, statement by statement, and the table of T-states (`spectrum.rom_costs`)
that explains the ROM's times best.

Each statement the ROM runs takes a time (`statement_times`); the layer, running the same
listing with the same keys, charges items for it (`timing`): so many LOOK-VARS passes, so many
bytes moved, a PRINT-OUT of a character... The cost of each item is then the least-squares fit,
none below zero, of the items to the times over thousands of statements: the table is measured,
not fitted to any one program. INPUT is measured in its parts, between the editor's waits for a
key; the frame interrupt by the keys and key slots it finds.

`ListingGenerator` writes the listings: every statement and function of the kind the layer's
interpreter keeps, on variables of every kind, strings up to a few hundred codes, loops, GO SUB,
DATA, PRINT at random places, BEEP and INPUT.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from . import fp, interpreter as basic, sysvars
from .errors import ReportError
from .frontends import HeadlessFrontend, ScriptExhausted, presses_from
from .interpreter import Interpreter
from .machine import Spectrum
from .oracle import WAIT_KEY
from .program import Program
from .rom_machine import RomSpectrum
from .statement_times import Interrupt, StatementTracer, statement_costs
from .timing import Timing
from .z80 import PC, T

UNTIMED = "untimed"  # the time the layer takes that no item accounts for: sound, waits


# --- the ROM's side -------------------------------------------------------------------------------


@dataclass
class RomRun:
    statements: list  # StatementStart, the program's own (not the RUN typed)
    interrupts: list[Interrupt]
    editor_ready: list[int]  # T-states at which the editor came to wait for a key
    origin: int  # where frame 0 begins: RUN typed, its ENTER taken a frame before
    editor_waiting: list[int] = field(default_factory=list)  # ...with its lines shown (TV_FLAG bit 3 clear)


class _EditorWatch(StatementTracer):
    """The tracer, also noting each time the ROM's run stops at WAIT-KEY (the editor ready)."""

    def __init__(self, z80, ports):
        super().__init__(z80, ports)
        self.editor_ready: list[int] = []
        self.editor_waiting: list[int] = []

    def run(self, *, stop=None, until, interrupts=True):
        super().run(stop=stop, until=until, interrupts=interrupts)
        if self.z80.registers[PC] == WAIT_KEY and stop == WAIT_KEY:
            self.editor_ready.append(self.z80.registers[T])
            if not self.z80.memory[sysvars.TV_FLAG] & 0x08:  # ED-COPY done: the wait a key press meets
                self.editor_waiting.append(self.z80.registers[T])


def rom_run(listing: str, presses=()) -> RomRun:
    """`listing` RUN on the genuine ROM with `presses` typed when it waits for a key."""
    frontend = HeadlessFrontend(presses)
    rom = RomSpectrum.running(frontend, listing)
    watch = _EditorWatch(rom.sim, rom.ports)
    rom.sim = watch  # type: ignore[assignment]  # the tracer stands in for the simulator, running it
    try:
        rom.run()
    except ScriptExhausted:
        pass
    return RomRun(
        [s for s in watch.statements if s.line < 10000],
        watch.interrupts,
        watch.editor_ready,
        rom._origin,
        watch.editor_waiting,
    )


# --- the layer's side ----------------------------------------------------------------------------


@dataclass
class LayerStatement:
    line: int
    statement: int
    items: Counter
    untimed: int
    parts: list[tuple[Counter, int]] = field(default_factory=list)  # INPUT: between the editor's waits


class Driver:
    """A listing run on a `Spectrum` through its interpreter, following the listing's own flow and
    doing what its statements show and sound (PRINT, CLS, colours, BEEP, POKE, RANDOMIZE, INPUT)
    on the layer, with every item counted. (The ports of BASIC programs do the showing themselves.)"""

    def __init__(self, listing: str, presses=(), table=None):
        self.machine = Spectrum(HeadlessFrontend(presses))
        self.machine.timing = Timing(self.machine, defaultdict(int) if table is None else table, counting=True)
        self.program = Program(listing)
        self.interpreter = self.machine.interpreter = Interpreter(self.machine, self.program)
        self._marks: list[tuple[Counter, int]] = []
        self.report: ReportError | None = None  # the report the program stopped with, if it did
        self._watch_editor()

    def _watch_editor(self) -> None:
        machine, wait_key, copy_line = self.machine, self.machine.wait_key, self.machine.copy_line

        def marked_wait_key():
            self._mark()
            code = wait_key()
            self._mark()
            return code

        def marked_copy_line(*args):
            self._mark()
            copy_line(*args)

        machine.wait_key, machine.copy_line = marked_wait_key, marked_copy_line  # type: ignore[method-assign]

    def _mark(self) -> None:
        assert self.machine.timing is not None  # the layer's side keeps the ROM's time
        self._marks.append((Counter(self.machine.timing.counts), self.machine.t_states))

    def run(self, limit: int = 100_000) -> list[LayerStatement]:
        machine, interp = self.machine, self.interpreter
        interp.run_program()
        done: list[LayerStatement] = []
        try:
            while interp.flow.next and len(done) < limit:
                line, number = interp.flow.next
                codes = self.program.line(line).statements[number - 1].codes
                self._marks = []
                self._mark()
                if codes and codes[0] == basic.INPUT:
                    interp.input(line, number, lambda: machine.input(_prompt(codes)))
                else:
                    interp.statement(line, number)
                    self.perform(codes[0] if codes else 0)
                interp.settle()
                self._mark()
                done.append(self._statement(line, number))
        except ScriptExhausted:
            pass
        except ReportError as report:
            self.report = report
        return done

    def _statement(self, line: int, number: int) -> LayerStatement:
        marks = self._marks
        (first, t_first), (last, t_last) = marks[0], marks[-1]
        parts = [
            (later - counts, t_later - t - _timed(later - counts, self.machine))
            for (counts, t), (later, t_later) in zip(marks, marks[1:])
        ]
        return LayerStatement(
            line,
            number,
            last - first,
            t_last - t_first - _timed(last - first, self.machine),
            parts if len(marks) > 2 else [],
        )

    def perform(self, command: int) -> None:
        machine, values = self.machine, [fp.to_float(v.number) for v in self.interpreter.arguments]
        if command == basic.PRINT:
            machine.print_codes(bytes(self.interpreter.printed))
        elif command == basic.CLS:
            machine.cls()
        elif command == basic.BORDER:
            machine.set_border(values[0])
        elif command == basic.INK:
            machine.colour(ink=values[0])
        elif command == basic.PAPER:
            machine.colour(paper=values[0])
        elif command == basic.RANDOMIZE:
            machine.randomize(values[0] if values else 0)
        elif command == basic.POKE:
            machine.poke(values[0], values[1])
        elif command == basic.BEEP:
            machine.beep(values[0], values[1])
        elif command == basic.PAUSE:
            machine.pause(values[0] if values else 0)


def _prompt(codes: bytes) -> str:
    """The prompt of `INPUT "text";a$`."""
    start = codes.index(b'"') + 1
    return codes[start : codes.index(b'"', start)].decode("latin-1")


def _timed(items: Counter, machine) -> int:
    return sum(machine.timing.table.get(item, 0) * count for item, count in items.items())


# --- rows to fit ---------------------------------------------------------------------------------


@dataclass
class Row:
    """Items the layer charged and the T-states the ROM took for them (less the untimed part)."""

    items: Counter
    t_states: int
    what: str


def listing_rows(listing: str, presses=(), table=None) -> list[Row]:
    """One row a statement, with INPUT cut at the editor's waits (the waits left out), and one a
    frame interrupt; statements stop where the layer's and the ROM's paths through the listing
    part. With `table`, the layer keeps that time as it runs."""
    rom = rom_run(listing, presses)
    return [run_row(rom)] + statement_rows(listing, presses, rom, table) + interrupt_rows(rom.interrupts)


def run_row(rom: RomRun) -> Row:
    """RUN: from frame 0 (RUN typed, its ENTER taken in the frame before) to the program's
    first statement, without the interrupts between."""
    first = rom.statements[0].t
    interrupted = sum(i.cost for i in rom.interrupts if rom.origin <= i.t < first)
    return Row(Counter({"run": 1}), first - rom.origin - interrupted, "RUN")


def statement_rows(listing: str, presses, rom: RomRun, table=None) -> list[Row]:
    layer = Driver(listing, presses, table).run(limit=len(rom.statements))
    costs = statement_costs(rom.statements, rom.interrupts)
    rows = []
    for index, ((line, number, cost), done) in enumerate(zip(costs, layer)):
        if (line, number) != (done.line, done.statement):
            break
        if done.parts:
            rows += _input_rows(rom, index, done)
        else:
            rows.append(Row(_without_interrupts(done.items), cost - done.untimed, f"{line}:{number}"))
    else:
        rows += _stop_row(rom, layer)
    return rows


def _stop_row(rom: RomRun, layer: list[LayerStatement]) -> list[Row]:
    """STOP, when the run ends with it: from its start to the editor's wait for a key, its report
    shown."""
    last = rom.statements[-1]
    if (
        len(layer) != len(rom.statements)
        or (layer[-1].line, layer[-1].statement) != (last.line, last.statement)
        or layer[-1].items.get("command-stop") != 1
    ):
        return []
    ready = [t for t in rom.editor_ready if t > last.t]
    if not ready:
        return []
    interrupted = sum(i.cost for i in rom.interrupts if last.t <= i.t < ready[0])
    return [
        Row(
            _without_interrupts(layer[-1].items),
            ready[0] - last.t - interrupted - layer[-1].untimed,
            f"{last.line}:{last.statement}",
        )
    ]


def _input_rows(rom: RomRun, index: int, done: LayerStatement) -> list[Row]:
    """An INPUT's parts that keys do not time: up to the editor's first arrival at its wait for
    a key (the prompt shown), from there to its wait with the line shown (KEY-INPUT's ED-COPY,
    TV_FLAG bit 3 then clear: the wait a key press meets), and from the interrupt that hands it
    ENTER to the next statement (the entry checked, shown again and assigned) — each without the
    interrupts in it."""
    start, end = rom.statements[index].t, rom.statements[index + 1].t
    ready = [t for t in rom.editor_ready if start <= t < end]
    waiting = [t for t in rom.editor_waiting if start <= t < end]
    enter = None  # the first interrupt of the last press of ENTER (a press before may still be held)
    for interrupt, previous in zip(rom.interrupts[1:], rom.interrupts):
        if start <= interrupt.t < end and "ENTER" in interrupt.keys and "ENTER" not in previous.keys:
            enter = interrupt
    if not ready or enter is None:
        return []
    rows = []
    parts = [(done.parts[-1], enter.t + enter.cost, end)]
    if waiting and waiting[0] > ready[0]:  # (a frame that had found a key wait already stops at none)
        parts += [(done.parts[0], start, ready[0]), (done.parts[1], ready[0], waiting[0])]
    for (items, untimed), begin, finish in parts:
        interrupted = sum(interrupt.cost for interrupt in rom.interrupts if begin <= interrupt.t < finish)
        rows.append(
            Row(
                _without_interrupts(items),
                finish - begin - interrupted - untimed,
                f"INPUT {done.line}:{done.statement}",
            )
        )
    return rows


def _without_interrupts(items: Counter) -> Counter:
    """Items less the frame interrupt's: the ROM's times are taken without them."""
    return Counter({item: count for item, count in items.items() if not item.startswith("interrupt")})


def interrupt_rows(interrupts: list[Interrupt]) -> list[Row]:
    """A row for each frame interrupt: the layer's keyboard interrupt on the same keys and key
    slots, against the ROM's time."""
    rows = []
    machine = Spectrum()
    for interrupt in interrupts:
        machine.timing = Timing(machine, defaultdict(int), counting=True)
        machine.memory[0x5C00:0x5C08] = list(interrupt.kstate)
        machine.keys_held = set(interrupt.keys)
        machine._keyboard_interrupt()
        rows.append(Row(Counter(machine.timing.counts), interrupt.cost, "interrupt"))
    return rows


# --- the fit ---------------------------------------------------------------------------------------


def nonnegative_least_squares(a: np.ndarray, b: np.ndarray, iterations: int = 500) -> np.ndarray:
    """x >= 0 minimising |a x - b| (Lawson and Hanson's active set method)."""
    n = a.shape[1]
    x, passive = np.zeros(n), np.zeros(n, bool)
    gradient = a.T @ (b - a @ x)
    for _ in range(iterations):
        candidates = ~passive & (gradient > 1e-9 * max(1.0, np.abs(gradient).max()))
        if not candidates.any():
            break
        passive[np.argmax(np.where(candidates, gradient, -np.inf))] = True
        while True:
            z = np.zeros(n)
            z[passive] = np.linalg.lstsq(a[:, passive], b, rcond=None)[0]
            if (z[passive] > 0).all():
                x = z
                break
            blocking = passive & (z <= 0)
            step = np.min(x[blocking] / (x[blocking] - z[blocking]))
            x = x + step * (z - x)
            passive &= x > 1e-12
        gradient = a.T @ (b - a @ x)
    return x


def fit(rows: list[Row]) -> tuple[dict[str, int], np.ndarray]:
    """The T-states of each item that explain the rows best (none below zero); the residuals.

    Every row counts: a fit that left out the rows it explains worst would let whole kinds of
    statement run fast or slow, and a program's time drift with them."""
    items = sorted({item for row in rows for item in row.items})
    a = np.array([[row.items.get(item, 0) for item in items] for row in rows], float)
    b = np.array([row.t_states for row in rows], float)
    x = nonnegative_least_squares(a, b)
    return {item: int(round(value)) for item, value in zip(items, x)}, b - a @ x


# --- the listings -----------------------------------------------------------------------------------

NUMBER_NAMES = list("abcdeghk")
LONG_NAMES = ["col", "res", "fa", "pq"]
STRING_NAMES = ["a$", "b$", "c$", "d$", "e$"]


class ListingGenerator:
    """Random listings that run without a report, from a seed."""

    def __init__(self, seed: int, pauses: bool = True):
        self.random = random.Random(seed)
        self.pauses = pauses  # PAUSE, whose time depends on when in its frame it starts
        self.numbers: list[str] = []
        self.strings: list[str] = []
        self.entries: list[str] = []  # what to type at each INPUT, in the order they come

    def presses(self) -> list[frozenset[str]]:
        """The keys for the listing's INPUTs: each entry, then ENTER."""
        return presses_from([key for entry in self.entries for key in (*entry, "ENTER")])

    def listing(self, lines: int = 25) -> str:
        r = self.random
        out = [
            "1 REM " + "x" * r.randrange(0, 60),
            "2 GO TO 3",
            "3 LET q$=\"\": FOR i=1 TO %d: LET q$=q$+\"A01\\b2\": NEXT i: LET i0=%d: LET i1=%d"
            % (r.randrange(1, 60), r.randrange(1, 4), r.randrange(1, 3)),
            "4 DEF FN g(x)=6*(x-4*(x>4))-15*(x=9)",
            "5 DEF FN f(x)=x*2+1",
            "6 DIM z(3): DIM r$(3,5): DIM y(2): DIM y(2,3)",
        ]
        names = (
            NUMBER_NAMES[: r.randrange(2, len(NUMBER_NAMES))]
            + STRING_NAMES[: r.randrange(1, len(STRING_NAMES))]
            + r.sample(LONG_NAMES, r.randrange(0, 3))
        )
        r.shuffle(names)
        first = []
        for name in names:
            if name.endswith("$"):
                first.append(f"LET {name}={self.string_literal()}")
                self.strings.append(name)
            else:
                first.append(f"LET {name}={self.number_literal()}")
                self.numbers.append(name)
        out.append("8 LET h=0: " + ": ".join(first))
        number = 10
        for _ in range(lines):
            kind = r.random()
            if kind < 0.1:
                variable = r.choice("ijmn")
                body = ": ".join(self.statement() for _ in range(r.randrange(1, 3)))
                out.append(f"{number} FOR {variable}=1 TO {r.randrange(1, 4)}: {body}: NEXT {variable}")
            elif kind < 0.15:
                out.append(f"{number} GO SUB 9000")
            elif kind < 0.2:
                out.append(f"{number} GO TO {number + 5}")
                number += 5
                out.append(f"{number} REM passed by")
            elif kind < 0.25:
                out.append(f"{number} READ {r.choice(NUMBER_NAMES)}: READ {r.choice(STRING_NAMES)}")
            elif kind < 0.3:
                name = r.choice(STRING_NAMES)
                out.append(
                    f'{number} INPUT "{"".join(r.choice("Your mv? ") for _ in range(r.randrange(0, 20)))}";{name}'
                )
                self.entries.append("".join(r.choice("0123456789abcXYZ ") for _ in range(r.randrange(0, 12))))
                if name not in self.strings:
                    self.strings.append(name)
            else:
                out.append(f"{number} " + ": ".join(self.statement() for _ in range(r.randrange(1, 4))))
            number += 10
        out.append(f"{number} STOP")
        items = ", ".join(f'{r.randrange(0, 1000)}, "{"q" * r.randrange(1, 6)}"' for _ in range(10))
        out += [f"8000 DATA {items}", f"8010 DATA {items}", "8500 DEF FN h(x)=x+1", "9000 LET h=h+1: RETURN"]
        return "\n".join(out) + "\n"

    def number_literal(self) -> str:
        r = self.random
        kind = r.random()
        if kind < 0.6:
            return str(r.randrange(0, 10))
        if kind < 0.8:
            return str(r.randrange(10, 1000))
        if kind < 0.9:
            return str(r.randrange(1000, 60000))
        return r.choice([".5", "1.5", "0.25", "2.75", "1E3", "3.14159"])

    def string_literal(self, shortest: int = 3, longest: int = 12) -> str:
        return (
            '"'
            + "".join(self.random.choice("abcdefXYZ 12") for _ in range(self.random.randrange(shortest, longest)))
            + '"'
        )

    def number(self, depth: int = 0) -> str:
        r = self.random
        kind = r.random()
        if depth > 2 or kind < 0.25:
            return self.number_literal()
        if kind < 0.5 and self.numbers:
            return r.choice(self.numbers)
        if kind < 0.55:
            return f"z({r.randrange(1, 4)})"
        if kind < 0.72:
            operator = r.choice(["+", "-", "*", "+", "-", "=", "<>", "<", ">", "<=", ">=", "AND", "OR"])
            operator = f" {operator} " if operator.isalpha() else operator
            return f"{self.number(depth + 1)}{operator}{self.number(depth + 1)}"
        if kind < 0.76:
            return f"{self.number(depth + 1)}/{r.choice(['2', '3', '5', '7'])}"
        if kind < 0.80:
            return f"({self.number(depth + 1)})"
        if kind < 0.83:
            return f"-{self.number(depth + 1)}"
        if kind < 0.86:
            return f"INT ({self.number(depth + 1)}/{r.choice(['2', '3', '5'])})"
        if kind < 0.89:
            return f"LEN ({self.string(depth + 1)})"
        if kind < 0.91:
            return f"CODE ({self.string(depth + 1)})"
        if kind < 0.935:
            return f"FN f({self.number(depth + 1)})"
        if kind < 0.945:
            return f"FN {r.choice('gh')}({r.randrange(1, 10)})"
        if kind < 0.955:
            return f"(NOT {self.number(depth + 1)})"
        if kind < 0.965:
            return f'USR "{r.choice("abcdeu")}"'
        if kind < 0.975:
            kind = r.random()
            if kind < 0.25:
                return f"VAL r$({r.randrange(1, 4)})(1 TO 2)"
            if kind < 0.45 and self.numbers:  # a variable inside VAL: checked, then looked up
                return f'VAL "{r.choice(self.numbers)}+1"'
            return f'VAL "{r.choice([r.randrange(0, 10), r.randrange(10, 100), r.randrange(100, 1000)])}"'
        if kind < 0.985:
            return r.choice(
                [
                    f"SGN {self.number(depth + 1)}",
                    f"ABS {self.number(depth + 1)}",
                    "PEEK 23672",
                    "IN 65278",
                    "PI",
                    f"+{self.number_literal()}",
                    f"{self.number_literal()}^2",
                    "LEN INKEY$",
                    'LEN VAL$ """ab"""',
                    f"ABS ({self.number(depth + 1)})^{r.choice(['2', '3', '.5'])}",
                ]
            )
        return f"({self.string(depth + 1)}{r.choice(['=', '<>', '<', '>', '<=', '>='])}{self.string(depth + 1)})"

    def string(self, depth: int = 0) -> str:
        r = self.random
        kind = r.random()
        if depth > 2 or kind < 0.3:
            return self.string_literal()
        if kind < 0.55 and self.strings:
            return r.choice(self.strings)
        if kind < 0.65:
            return f"{self.string(depth + 1)}+{self.string(depth + 1)}"
        if kind < 0.72:
            name = r.choice(self.strings) if self.strings else self.string_literal()
            first = r.randrange(1, 3)
            last = r.randrange(first, 4)
            if r.random() < 0.3:
                index = r.choice(["i0", "i1"])
                return r.choice(
                    [
                        f"{name}({index})",
                        f"{name}({index} TO {index}+1)",
                        f"{name}( TO {index})",
                        f"{name}({index}+1 TO )",
                    ]
                )
            return r.choice(
                [f"{name}({first} TO {last})", f"{name}({first})", f"{name}( TO {last})", f"{name}({first} TO )"]
            )
        if kind < 0.78:
            return f"r$({r.randrange(1, 4)})"
        if kind < 0.84:
            return f"STR$ {r.choice(['1', '23', '456', '7.5']) if r.random() < 0.5 else f'({self.number(depth + 1)})'}"
        if kind < 0.88:
            return f'CHR$ {r.randrange(33, 127)}+"xyz"'
        if kind < 0.93:
            condition = r.choice(["0", "1", f"({self.number(depth + 1)})", "i0/2=INT (i0/2)", "i1<>INT (i1/2)"])
            return f'({self.string(depth + 1)} AND {condition})+"abc"'
        if kind < 0.96:
            return "q$"
        return self.string_literal()

    def statement(self) -> str:
        r = self.random
        kind = r.random()
        if kind < 0.3:
            name = r.choice(NUMBER_NAMES + LONG_NAMES)
            text = f"LET {name}={self.number()}"
            if name not in self.numbers:
                self.numbers.append(name)
            return text
        if kind < 0.5:
            name = r.choice(STRING_NAMES)
            text = f"LET {name}={self.string()}"
            if name not in self.strings:
                self.strings.append(name)
            return text
        if kind < 0.55:
            return f"LET z({r.randrange(1, 4)})={self.number()}"
        if kind < 0.6:
            return f"LET r$({r.randrange(1, 4)})={self.string()}"
        if kind < 0.7:
            return f"IF {self.number()} THEN LET {r.choice(NUMBER_NAMES)}={self.number()}"
        if kind < 0.72:
            return f"RANDOMIZE {r.randrange(1, 60000)}"
        if kind < 0.74:
            start = r.randrange(1, 40)
            return r.choice(
                [
                    f'LET q$=q$( TO {start})+q$({start}+5 TO )+"X12\\c0"',
                    f"LET d$=q$({start} TO {start}+4)",
                    "LET q$=d$+q$",
                ]
            )
        if kind < 0.78:
            return r.choice(
                [
                    f"POKE 23296+{r.randrange(0, 100)},{r.randrange(0, 256)}",
                    f"POKE USR CHR$ ({r.randrange(97, 102)}+i1)+{r.randrange(0, 8)},{r.randrange(0, 256)}",
                ]
            )
        if kind < 0.8:
            return f"REM {'x' * r.randrange(0, 20)}"
        if kind < 0.84:
            return f"LET {r.choice(NUMBER_NAMES)}=RND*{r.randrange(1, 100)}"
        if kind < 0.97:
            return self.print_statement()
        if kind < 0.98:
            return (
                f"BEEP {r.choice(['.01', '.005', '.02', '0.01'])},"
                f"{r.choice(['0', '12', '24', '36', '-5', '-20', '7', '2.5', '-3.5', '48'])}"
            )
        if kind < 0.99 and self.pauses:
            return f"PAUSE {r.randrange(1, 4)}"
        return r.choice(
            [
                "BORDER 4",
                "INK 2",
                "PAPER 6",
                "CLS",
                "INK 0",
                "PAPER 7",
                "BORDER 1",
                "RANDOMIZE",
                "RESTORE",
                "RESTORE 8010",
                'LET q$(2 TO 3)="xy"',
                "LET q$(1)=\"Z\"",
                "FOR i=2 TO 1: LET h=h+1: NEXT i",
                "FOR i=3 TO 1 STEP -1: LET h=h+i: NEXT i",
                "DIM y(2,3): LET y(1,2)=5",
                "DIM w$(4): LET w$(2)=\"k\"",
            ]
        )

    def print_statement(self) -> str:
        r = self.random
        items = [f"AT {r.randrange(0, 20)},{r.randrange(0, 24)}"]
        for _ in range(r.randrange(1, 4)):
            kind = r.random()
            if kind < 0.2:
                items.append(f"AT {r.randrange(0, 20)},{r.randrange(0, 24)}")
            elif kind < 0.35:
                item = r.choice(["INK", "PAPER", "BRIGHT", "FLASH"])
                items.append(f"{item} {r.choice(['0', '1']) if item in ('BRIGHT', 'FLASH') else r.randrange(0, 8)}")
            elif kind < 0.5:
                items.append(r.choice(['"\\a\\b"', '"\\::\\.."', '"x"', '"ab cd"', '"     "']))
            elif kind < 0.65 and self.numbers:
                items.append(r.choice(self.numbers + ["5", "12", "(3+4)"]))
            elif kind < 0.8:
                items.append(self.string_literal(1, 6))
            elif kind < 0.85:
                items.append(r.choice([f"TAB {r.randrange(0, 31)}", "CHR$ 234", '"x",', "-3", "1.5"]))
            else:
                items.append(f"{r.choice(self.strings) if self.strings else self.string_literal()}(1 TO 2)")
        return "PRINT " + ";".join(items) + r.choice(["", ";"])
