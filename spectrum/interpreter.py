"""The ROM's interpreter walking a program statement by statement: its variables and its time.

A port of a BASIC program drives the flow itself — which statement comes next is the port's
business, as are the screen, the sound, POKEs and RND — and tells the interpreter each statement
it runs (`Interpreter.statement`). The interpreter then does what the ROM does with the
program's variables (LET, FOR, NEXT, READ, DIM and INPUT's assignment, in `machine.variables`,
laid out as the ROM lays them out) and, when the machine keeps the ROM's time, charges its clock
with what the ROM's routines take for the statement, from STMT-L-1 ($1B29) to the next
statement's: the command, SCANNING every expression (`spectrum.expression`), LOOK-VARS, LET
making and reclaiming room, and the way to the next statement (LINE-ADDR from the start of the
program, EACH-STMT along a line). A statement the listing would not run next is refused
(`FlowError`): a port cannot leave the listing's path unnoticed.

What a statement's output takes (PRINT-OUT's codes, CLS, BEEP, PAUSE, the editor) is charged
by the layer, where it happens.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

from . import fp
from .errors import ReportError
from .expression import Scanner, Value, charge_print_fp
from .numbers import print_fp
from .program import COLON, QUOTE, Line, Program
from .rom import ENTER, KEYWORDS, NUMBER_MARKER, PRINT_COMMA, TOKEN_RUN, TOKEN_THEN
from .variables import Kind, Loop, Variables

RUN_LINE = bytes((TOKEN_RUN, ENTER, 0x80))  # E_LINE while a program runs: the RUN typed, ENTER, the end marker
STACKED = 5  # bytes a value takes on the calculator stack
LOOKS_KEPT = 4096  # LOOK-VARS' charges remembered (past this they are worked out afresh)
HIDDEN_NUMBER = 6


def _token(keyword: str) -> int:
    return 0xA5 + KEYWORDS.index(keyword)


LET, FOR, NEXT, IF, GO_TO, GO_SUB, RETURN, STOP, REM = map(
    _token, ("LET", "FOR", "NEXT", "IF", "GO TO", "GO SUB", "RETURN", "STOP", "REM")
)
PRINT, INPUT, BEEP, PAUSE, CLS, BORDER, INK, PAPER = map(
    _token, ("PRINT", "INPUT", "BEEP", "PAUSE", "CLS", "BORDER", "INK", "PAPER")
)
RANDOMIZE, POKE, DIM, READ, RESTORE, DATA, DEF_FN = map(
    _token, ("RANDOMIZE", "POKE", "DIM", "READ", "RESTORE", "DATA", "DEF FN")
)
TO, STEP, AT, TAB = map(_token, ("TO", "STEP", "AT", "TAB"))
COLOUR_ITEMS = tuple(map(_token, ("INK", "PAPER", "FLASH", "BRIGHT", "INVERSE", "OVER")))
# commands with one number (or none: 0): what they are charged as
ONE_NUMBER = {
    BORDER: "border",
    PAUSE: "pause",
    GO_TO: "go-to",
    GO_SUB: "go-sub",
    RESTORE: "restore",
    RANDOMIZE: "randomize",
    INK: "colour",
    PAPER: "colour",
}
TWO_NUMBERS = {POKE: "poke"}
# the pointers after VARS that POINTERS ($1664) moves when room is made or reclaimed before them
MOVED_POINTERS = ("dest", "e_line", "k_cur", "worksp", "stkbot", "stkend")


class FlowError(RuntimeError):
    """The port ran a statement the listing would not have run next, or one the interpreter
    does not keep."""


@dataclass
class Layout:
    """Where the areas from VARS on lie, as the ROM's pointers give them: the variables, then
    E_LINE (the RUN that started the program), the work space and the calculator stack, whose
    use grows while a statement is interpreted (SET-WORK empties both before each one)."""

    program: Program
    variables: Variables
    workspace: int = 0
    stack: int = 0
    dest: int = 0

    def address(self, pointer: str) -> int:
        if pointer == "dest":
            return self.dest
        e_line = self.program.end + self.variables.area_size()
        if pointer == "e_line":
            return e_line
        if pointer == "k_cur":
            return e_line + 1
        worksp = e_line + len(RUN_LINE)
        offset = {"worksp": 0, "stkbot": self.workspace, "stkend": self.workspace + self.stack}[pointer]
        return worksp + offset

    def variable_address(self, name: str) -> int:
        return self.program.end + self.variables.offset(name)


@dataclass
class Flow:
    """Where the listing goes next, and what it keeps to come back: the GO SUB stack, the next
    DATA item (line index, statement index, item index) and the line RESTORE named."""

    next: tuple[int, int] | None = None
    returns: list[tuple[int, int]] = field(default_factory=list)
    data: tuple[int, int | None, int] | None = None
    restore_line: int = 0


@dataclass(frozen=True)
class Jump:
    """To statement `statement` of line `line` (0: the line's first) by NEWPPC and NSPPC."""

    line: int
    statement: int


NEXT_LINE, THEN, STOPPED = "next line", "then", "stopped"
COMMAND_LINE = (-2, 0)  # where a GO SUB typed as a command returns: back to the editor


@dataclass
class Target:
    """A variable in assignment (DEST): its name, and for an array element its subscripts,
    for a slice its first and last positions."""

    name: str
    place: tuple[int, ...] | None = None
    slice: tuple[int, int] | None = None


class Interpreter:
    """The BASIC of `program` on `machine`, statement by statement, as a port runs it."""

    def __init__(self, machine, program: Program):
        self.machine = machine
        self.program = program
        self.flow = Flow()
        self.at: tuple[int, int] | None = None  # the line and statement begun last, where a report comes
        self.layout = Layout(program, Variables())
        self._edit = None
        self._entry = ""
        self._transition: list[tuple[str, int]] = []  # the way to the next statement, charged when it starts
        self._pending: list[tuple[str, int]] | None = None
        self.printed = bytearray()  # what the last PRINT sent to PRINT-OUT, for a front end that shows it
        self.arguments: list[Value] = []  # the numbers the last statement's command took
        self._looks: dict[tuple, tuple[tuple[str, int], ...]] = {}  # LOOK-VARS' charges by the area's layout

    def charge(self, item: str, count: int = 1) -> None:
        if self.machine.timing is None:
            return
        if self._pending is not None:
            self._pending.append((item, count))
        else:
            self.machine.timing.charge(item, count)

    def settle(self) -> None:
        """Charge the way from the last statement to the next: it comes after what the port did
        for the statement (its PRINT, its BEEP, its PAUSE)."""
        transition, self._transition = self._transition, []
        for item, count in transition:
            self.charge(item, count)

    # --- RUN --------------------------------------------------------------------------------

    def run_program(self) -> None:
        """RUN: the variables cleared, DATA restored, the first line next; the program's DEF
        FNs are what INPUT expressions may call."""
        self.layout.variables = self.machine.variables = Variables()
        self.machine.functions = self.program_functions()
        self.flow = Flow(next=(self.program.lines[0].number, 1))
        self.charge("run")

    def copied(self, machine) -> Interpreter:
        """The same program, at the same place with the same variables, on another machine
        (which takes the copy as its interpreter, and the variables and functions)."""
        copy = Interpreter(machine, self.program)
        copy.flow, copy.at = deepcopy(self.flow), self.at
        copy._transition = list(self._transition)
        copy.layout.variables = machine.variables = deepcopy(self.machine.variables)
        machine.functions = dict(self.machine.functions)
        machine.interpreter = copy
        return copy

    def go_to(self, line: int) -> None:
        """GO TO line typed as a command: the program goes on from that line."""
        self.settle()
        self.flow.next = (line, 1)

    def go_sub(self, line: int) -> None:
        """GO SUB line typed as a command: the subroutine's RETURN ends the program's run."""
        self.settle()
        self.flow.returns.append(COMMAND_LINE)
        self.flow.next = (line, 1)

    def program_functions(self) -> dict[str, tuple[tuple[str, ...], bytes]]:
        """The program's DEF FNs: name → (parameter names, the expression's codes)."""
        functions: dict[str, tuple[tuple[str, ...], bytes]] = {}
        for line in self.program.lines:
            for statement in line.statements:
                if statement.command == DEF_FN:
                    name, parameters, body = _definition(statement.codes)
                    functions.setdefault(name, (parameters, body))
        return functions

    # --- statements ---------------------------------------------------------------------------

    def run(self, line: int, first: int = 1, last: int | None = None) -> None:
        """Statements `first` to `last` (to the end of the line) of line `line`, in turn."""
        count = len(self.program.line(line).statements)
        for number in range(first, (last or count) + 1):
            self.statement(line, number)

    def statement(self, line: int, number: int) -> None:
        """Statement `number` of line `line`: its effect on the variables and its time."""
        if (line, number) != self.flow.next:
            going = "nowhere: the program has stopped" if self.flow.next is None else "%d:%d" % self.flow.next
            raise FlowError(f"the port ran {line}:{number} where the listing goes to {going}")
        self.settle()
        self.at = (line, number)
        if self.machine.timeline is not None:
            self.machine.timeline.append((self.machine.t_states, line, number))
        program_line = self.program.line(line)
        codes = program_line.statements[number - 1].codes
        self.layout.workspace = self.layout.stack = 0  # SET-WORK
        self.printed, self.arguments = bytearray(), []
        outcome = self.execute(
            codes[0] if codes else ENTER, Scanner(codes, True, self.machine, of_program=True), program_line, number
        )
        self._pending = []
        try:
            self.go_on(program_line, number, outcome)
        finally:
            self._transition, self._pending = self._pending, None

    def placed(self, report: ReportError) -> ReportError:
        """`report` as the ROM gives it: with the line and statement it came in (the one begun
        last, whose PRINT, BEEP or PAUSE the port was doing), unless it has them already."""
        if report.where is not None or self.at is None:
            return report
        return ReportError(report.text, self.at)

    def input(self, line: int, number: int, edit) -> str:
        """An INPUT statement: a prompt of print items and a string variable. `edit()` is the
        layer's INPUT — the prompt shown, the line edited and checked — and gives the entry,
        which the variable takes."""
        self._edit = edit
        try:
            self.statement(line, number)
        finally:
            self._edit = None
        return self._entry

    def go_on(self, line: Line, number: int, outcome) -> None:
        """Where the statement leads, and the ROM's time to get there: the next statement after
        ':' (or THEN), the next line (LINE-END), or a jump (LINE-NEW)."""
        if outcome == STOPPED:
            self.flow.next = None
        elif isinstance(outcome, Jump):
            self.jump(outcome.line, outcome.statement)
        elif outcome == THEN:
            self.flow.next = (line.number, number + 1)
        elif outcome != NEXT_LINE and number < len(line.statements):
            self.charge("next-statement")
            self.flow.next = (line.number, number + 1)
        else:
            self.charge("next-line")
            following = self.program.following(line.number)
            self.flow.next = (following.number, 1) if following else None

    def jump(self, number: int, statement: int) -> None:
        """LINE-NEW: LINE-ADDR from the start of the program to line `number` (or the first
        after), then EACH-STMT along it to `statement`."""
        self.charge("jump")
        self.line_addr(number)
        passed = self.program.position(number)
        if passed == len(self.program.lines):
            self.flow.next = None  # 0 OK: past the end of the program
            return
        target = self.program.lines[passed]
        if target.number != number or statement == 0:
            statement = 1
        if statement > len(target.statements):  # just past the last: EACH-STMT finds the line's end
            self.charge("statement-search")
            self.each_statement(target, len(target.stored) + 1)
            self.charge("next-line")
            following = self.program.following(target.number)
            self.flow.next = (following.number, 1) if following else None
            return
        if statement > 1:
            self.charge("statement-search")
            self.each_statement(target, target.statements[statement - 1].offset)
        self.flow.next = (target.number, statement)

    def line_addr(self, number: int) -> None:
        """LINE-ADDR ($196E): CP-LINES on each line before line `number`, which returns early
        when the high bytes of the line numbers differ."""
        passed, same_high = self.program.lines_passed(number)
        self.charge("line-passed", passed - same_high)
        self.charge("line-passed-same-high", same_high)

    def each_statement(self, line: Line, offset: int, start: int = 0) -> None:
        """EACH-STMT's walk along a line's stored codes, from `start` (its start) up to `offset`
        (the same walk each time: what it passes is counted once and remembered)."""
        key = (line.stored, offset, start)
        passed = _WALKS.get(key)
        if passed is None:
            if len(_WALKS) >= WALKS_KEPT:
                _WALKS.clear()
            passed = _WALKS[key] = _each_statement_walk(line.stored, offset, start)
        for item, count in passed:
            self.charge(item, count)

    # --- commands ---------------------------------------------------------------------------

    def execute(self, command: int, scanner: Scanner, line: Line, number: int):
        """The command's routine; its outcome: None to go on, NEXT_LINE, THEN, STOPPED or a Jump."""
        if command == REM:
            self.charge("command-rem")
            return NEXT_LINE
        if command in (DATA, DEF_FN):  # PASS-BY: EACH-STMT from the command to the statement's end
            self.charge("command-pass-by")
            following = line.statements[number].offset if number < len(line.statements) else len(line.stored) + 1
            self.each_statement(line, following, start=line.statements[number - 1].offset)
            return None
        scanner.next_char()
        if command == LET:
            self.charge("command-let")
            target = self.target(scanner)
            scanner.step_past("=")
            self.let(target, scanner.scanning())
            return None
        if command == IF:
            self.charge("command-if")
            if fp.is_zero(scanner.numeric_expression().number):
                self.charge("if-false")
                return NEXT_LINE
            return THEN
        if command == FOR:
            return self.for_loop(scanner, line, number)
        if command == NEXT:
            return self.next_loop(scanner)
        if command == PRINT:
            self.charge("command-print")
            self.print_items(scanner)
            return None
        if command == INPUT:
            return self.input_items(scanner)
        if command in (CLS, BEEP):  # their routines the layer charges, as it runs them
            self.numbers(scanner, 2 if command == BEEP else 0)
            return None
        if command == STOP:
            self.charge("command-stop")
            return STOPPED
        if command == RETURN:
            self.charge("command-return")
            if not self.flow.returns:
                raise ReportError("7 RETURN without GO SUB")
            back = self.flow.returns.pop()
            return STOPPED if back == COMMAND_LINE else Jump(*back)
        if command == DIM:
            return self.dim(scanner)
        if command == READ:
            return self.read(scanner)
        if command in TWO_NUMBERS:
            self.charge(f"command-{TWO_NUMBERS[command]}")
            self.numbers(scanner, 2)
            return None
        if command in ONE_NUMBER:
            return self.one_number(command, scanner, line, number)
        raise FlowError(
            f"line {line.number}:{number}: "
            f"{KEYWORDS[command - 0xA5] if command >= 0xA5 else repr(chr(command))} is not kept"
        )

    def numbers(self, scanner: Scanner, count: int) -> list[Value]:
        """Numeric expressions separated by commas (EXPT-1NUM, EXPT-2NUM)."""
        values = []
        for index in range(count):
            if index:
                scanner.step_past(",")
            values.append(scanner.numeric_expression())
        self.arguments += values
        return values

    def one_number(self, command: int, scanner: Scanner, line: Line, number: int):
        """A command with one number, or none for 0 (RESTORE, RANDOMIZE)."""
        self.charge(f"command-{ONE_NUMBER[command]}")
        if scanner.get_char() in (ENTER, COLON):
            self.charge("no-number")
            value = 0
        else:
            value = fp.find_int2(self.numbers(scanner, 1)[0].number)
        if command == GO_TO:
            return Jump(value, 0)
        if command == GO_SUB:
            self.flow.returns.append((line.number, number + 1))
            return Jump(value, 0)
        if command == RESTORE:
            self.line_addr(value)
            self.flow.data, self.flow.restore_line = None, value
        return None

    # --- assignments --------------------------------------------------------------------------

    def target(self, scanner: Scanner) -> Target:
        """CLASS-01: the variable in assignment found by LOOK-VARS, with the subscripts of an
        array element (STK-VAR) or a string's slice."""
        name = scanner.name()
        variables = self.machine.variables
        self.look_vars(name)
        if scanner.get_char() != ord("("):
            self.layout.dest = self.layout.variable_address(name) if name in variables else 0
            return Target(name)
        if name in variables.arrays:
            place, code = scanner.element_place(variables[name], name.endswith("$"))
            if code != ord(")"):
                raise FlowError("a slice of an array element in assignment is not kept")
            scanner.next_char()
            return Target(name, place=place)
        whole = Value(False, text=_text(variables[name]))
        first, last = scanner.slice_bounds(whole)
        scanner.next_char()
        return Target(name, slice=(first, last))

    def let(self, target: Target, value: Value) -> None:
        """LET ($2AFF): a number over the old one, or a new variable at the end of the area; a
        whole string made anew at the end and the old one reclaimed; an element or a slice of
        a string filled in where it is."""
        variables, layout, name = self.machine.variables, self.layout, target.name
        if target.place is not None or target.slice is not None:
            self.let_in_place(target, value)
            return
        if not name.endswith("$"):
            if name in variables:
                self.charge("let-number")
            else:
                self.charge("let-new-number")
                self.charge("let-name-code", len(name) - 1)
                self.make_room(layout.address("e_line") - 1)
            variables[name] = _whole(fp.to_float(value.number))
            return
        text = value.text.decode("latin-1")
        self.charge("let-string")
        self.make_room(layout.address("e_line") - 1)
        self.charge("move-byte", len(text) + 1)  # the LDDR that copies it in
        if name in variables:
            old = layout.variable_address(name)
            stkend = layout.address("stkend") + 3 + len(text)  # with the new string in
            self.charge("let-string-reclaim")
            self.reclaim(old, stkend)
        variables[name] = text

    def let_in_place(self, target: Target, value: Value) -> None:
        """An array element, or a string's slice, takes the value: a number copied over; a
        string copied into room in the work space filled with spaces (cut or padded to the
        length in assignment), then over the old one."""
        variables, name = self.machine.variables, target.name
        if not name.endswith("$"):
            self.charge("let-number")
            variables.assign_element(name, target.place, _whole(fp.to_float(value.number)))
            return
        if target.slice is not None:
            first, last = target.slice
            length = max(0, last - first + 1)
        else:
            assert target.place is not None  # an element, there being no slice
            length = len(_element(variables[name], target.place))
        self.charge("let-string-in-place")
        if not length:
            return
        self.bc_spaces(length)
        self.charge("move-byte", 2 * length + min(length, len(value.text)))
        new = value.text[:length].decode("latin-1").ljust(length)
        if target.slice is not None:
            whole = _text(variables[name]).decode("latin-1")
            variables[name] = whole[: first - 1] + new + whole[last:]
        else:
            variables.assign_element(name, target.place, new)

    def for_loop(self, scanner: Scanner, line: Line, number: int):
        """FOR: the variable takes its first value (as LET), then the limit and the step (1
        without STEP); a simple number becomes a FOR variable in place (13 more bytes), and
        NEXT-LOOP tests that the loop runs at all."""
        self.charge("command-for")
        variables, layout = self.machine.variables, self.layout
        name = scanner.name()
        self.look_vars(name)
        scanner.step_past("=")
        start = scanner.numeric_expression()
        scanner.step_past_code(TO)
        limit = scanner.numeric_expression()
        step = fp.ONE
        if scanner.get_char() == STEP:
            scanner.next_char()
            step = scanner.numeric_expression().number
            self.charge("for-step")
        if name in variables.loops:
            self.charge("let-number")
        else:
            if name in variables:
                self.charge("let-number")
            else:
                self.charge("let-new-number")
                self.make_room(layout.address("e_line") - 1)
                variables[name] = 0  # made at the end, as a number first
            self.charge("for-new-loop")
            self.make_room(layout.variable_address(name) + len(name) + 5 - 1)
        value = _whole(fp.to_float(start.number))
        loop = Loop(fp.to_float(limit.number), fp.to_float(step), line.number, number + 1)
        variables.for_loop(name, value, loop)
        if not _loop_goes_on(value, loop):
            return self.past_next(line, number, name)
        return None

    def past_next(self, line: Line, number: int, name: str) -> Jump:
        """A FOR that makes no pass: LOOK-PROG from it for NEXT with its variable, then on from
        the statement after that NEXT."""
        self.charge("for-no-pass")
        lines = self.program.lines
        position = lines.index(line)
        first = number  # the statements after the FOR, then whole lines
        while position < len(lines):
            searched = lines[position]
            for index in range(first, len(searched.statements)):
                codes = searched.statements[index].codes
                if codes and codes[0] == NEXT and Scanner(codes[1:], True).name() == name:
                    self.each_statement(searched, searched.statements[index].offset)
                    return Jump(searched.number, index + 2)
            self.charge("data-search-line")
            self.each_statement(searched, len(searched.stored) + 1)
            position, first = position + 1, 0
        raise ReportError("I FOR without NEXT")

    def next_loop(self, scanner: Scanner):
        """NEXT: the step added to the variable, NEXT-LOOP's test against the limit, and back
        to the statement after its FOR (as GO TO goes) while the loop goes on."""
        self.charge("command-next")
        name = scanner.name()
        self.look_vars(name)
        variables = self.machine.variables
        loop = variables.loops.get(name)
        if loop is None:
            raise ReportError("1 NEXT without FOR")
        value = _whole(fp.to_float(fp.add(fp.from_float(variables[name]), fp.from_float(loop.step))))
        variables.for_loop(name, value, loop)
        if _loop_goes_on(value, loop):
            self.charge("next-loops")
            return Jump(loop.line, loop.statement)
        return None

    def dim(self, scanner: Scanner):
        """DIM: an array of the name reclaimed, then the new one made at the end of the area
        and cleared (zeros, or spaces in a string array)."""
        self.charge("command-dim")
        variables, layout = self.machine.variables, self.layout
        name = scanner.name()
        self.look_vars(name)
        if name in variables:
            self.charge("dim-reclaim")
            self.reclaim(layout.variable_address(name), layout.address("stkend"))
            variables.pop(name)
        sizes = []
        while True:
            scanner.next_char()
            sizes.append(scanner.whole_number(limit=0xFFFF)[0])
            self.charge("dim-dimension")
            if scanner.get_char() != ord(","):
                break
        scanner.next_char()
        string = name.endswith("$")
        elements = 1
        for size in sizes:
            elements *= size
        self.make_room(layout.address("e_line") - 1)
        self.charge("move-byte", elements * (1 if string else 5) + 1)
        variables.dim(name, _new_array(sizes, string))
        return None

    def read(self, scanner: Scanner):
        """READ: each variable takes the next DATA item, as LET takes a value; LOOK-PROG finds
        the next DATA statement when the last item of one has been read."""
        self.charge("command-read")
        while True:
            target = self.target(scanner)
            self.let(target, self.next_data_item())
            if scanner.get_char() != ord(","):
                return None
            scanner.next_char()
            self.charge("read-next")

    def next_data_item(self) -> Value:
        lines = self.program.lines
        if self.flow.data is None:
            self.flow.data = (self.program.position(self.flow.restore_line), None, 0)
        position, statement, item = self.flow.data
        while statement is None or item >= len(_data_items(lines[position].statements[statement].codes)):
            self.charge("data-search")
            statement = None if statement is None else statement + 1
            position, statement = self.next_data_statement(position, statement)
            item = 0
        codes = lines[position].statements[statement].codes
        scanner = Scanner(codes, True, self.machine, of_program=True)
        scanner.position = _data_items(codes)[item]
        value = scanner.scanning()
        self.flow.data = (position, statement, item + 1)
        return value

    def next_data_statement(self, position: int, statement: int | None) -> tuple[int, int]:
        """LOOK-PROG for DATA from a statement of a line (None: the line's start) on."""
        lines = self.program.lines
        while position < len(lines):
            line = lines[position]
            for index in range(statement or 0, len(line.statements)):
                if line.statements[index].command == DATA:
                    self.each_statement(line, line.statements[index].offset)
                    return position, index
            self.charge("data-search-line")
            self.each_statement(line, len(line.stored) + 1)
            position, statement = position + 1, None
        raise ReportError("E Out of DATA")

    # --- PRINT and INPUT items ----------------------------------------------------------------

    def print_items(self, scanner: Scanner) -> None:
        """PRINT's items (PRINT-2, PR-ITEM-1): AT and TAB with their numbers, colour items,
        strings (their codes handed to PRINT-OUT one by one), numbers (PRINT-FP) and the
        separators; a carriage return unless a separator ends the statement."""
        separator = False
        while scanner.get_char() not in (ENTER, COLON):
            code = scanner.get_char()
            separator = code in (ord(";"), ord(","), ord("'"))
            if separator:
                self.charge({ord(";"): "print-semicolon", ord(","): "print-comma", ord("'"): "print-apostrophe"}[code])
                self.printed += {ord(";"): b"", ord(","): bytes((PRINT_COMMA,)), ord("'"): bytes((ENTER,))}[code]
                scanner.next_char()
            elif code in (AT, TAB):
                self.charge("print-at" if code == AT else "print-tab")
                scanner.next_char()
                values = self.numbers(scanner, 2 if code == AT else 1)
                self.printed += bytes((22 if code == AT else 23,)) + bytes(fp.find_int1(v.number) for v in values)
                if code == TAB:
                    self.printed.append(0)
            elif code in COLOUR_ITEMS:
                self.charge("print-colour")
                scanner.next_char()
                self.printed += bytes((16 + COLOUR_ITEMS.index(code), fp.find_int1(self.numbers(scanner, 1)[0].number)))
            else:
                self.printed += self.print_expression(scanner)
        if not separator:
            self.charge("print-newline")
            self.printed += bytes((ENTER,))

    def print_expression(self, scanner: Scanner) -> bytes:
        """A print item's expression; the codes it prints."""
        self.charge("print-expression")
        value = scanner.scanning()
        if value.numeric:
            charge_print_fp(self.charge, value.number)
            return print_fp(value.number).encode("ascii")
        self.charge("print-string-code", len(value.text))
        return value.text

    def input_items(self, scanner: Scanner):
        """INPUT: the items before the variable are the prompt (printed by the layer's INPUT,
        which edits and checks the entry); then the variable takes the entry (IN-ASSIGN)."""
        self.charge("command-input")
        if self._edit is None:
            raise FlowError("an INPUT statement is run with Interpreter.input")
        while True:
            code = scanner.get_char()
            if code == ord(";"):
                self.charge("print-semicolon")
                scanner.next_char()
            elif code == QUOTE:
                self.print_expression(scanner)
            else:
                break
        target = self.target(scanner)
        if not target.name.endswith("$") or scanner.get_char() not in (ENTER, COLON):
            raise FlowError("only INPUT of one string variable after a prompt is kept")
        self._entry = self._edit()
        self.charge("input-assign")
        self.layout.workspace = len(self._entry) + 3  # the entry's line, quotes and ENTER
        self.let(target, Value(False, text=self._entry.encode("latin-1")))
        return None

    # --- the variables area -----------------------------------------------------------------------

    def look_vars(self, name: str) -> None:
        """LOOK-VARS ($28B2): each variable before `name` is passed (how depends on its kind:
        NEXT-ONE), then the name matched; a new name passes them all."""
        variables = self.machine.variables
        # the time depends only on the name and the area's names in order and their kinds
        layout = (name, variables.shape())
        charges = self._looks.get(layout)
        if charges is None:
            if len(self._looks) >= LOOKS_KEPT:
                self._looks.clear()
            charges = self._looks[layout] = self._look_vars_charges(name, variables)
        for item, count in charges:
            self.charge(item, count)

    def _look_vars_charges(self, name: str, variables: Variables) -> tuple[tuple[str, int], ...]:
        """What LOOK-VARS for `name` is charged with, in the area as it is."""
        wanted = _discriminator(name, name in variables.arrays)
        passes: dict[str, int] = {"look-vars-name-code": len(name.rstrip("$")) - 1}
        # passes are charged together: the time is the same in any order
        found = False
        for other in variables:
            if other == name:
                found = True
                break
            kind = variables.kind(other)
            if kind is Kind.LONG_NUMBER:
                if _discriminator_of(other, kind) == wanted:
                    passes["look-vars-long-compare"] = passes.get("look-vars-long-compare", 0) + 1
                passes["look-vars-pass-long-name-code"] = (
                    passes.get("look-vars-pass-long-name-code", 0) + len(other) - 1
                )
            item = _PASS_ITEMS[kind]
            passes[item] = passes.get(item, 0) + 1
        return (*passes.items(), ("look-vars-found" if found else "look-vars-none", 1))

    def find_definition(self, name: str) -> None:
        """S-FN-SBRN's search: LOOK-PROG for each DEF FN from the start of the program until the
        one with the name (each line passed EACH-STMT by EACH-STMT)."""
        for line in self.program.lines:
            self.charge("fn-search-line")
            for statement in line.statements:
                if statement.command == DEF_FN:
                    self.charge("fn-search-definition")
                    if _definition(statement.codes)[0] == name:
                        self.each_statement(line, statement.offset + 1)
                        return
            self.each_statement(line, len(line.stored) + 1)

    def make_room(self, position: int) -> None:
        """MAKE-ROOM ($1655) after `position`: TEST-ROOM, POINTERS, and the LDDR that moves
        everything from there to STKEND up."""
        self.charge("make-room")
        self.charge("pointer-moved", sum(self.layout.address(pointer) > position for pointer in MOVED_POINTERS))
        self.charge("move-byte", self.layout.address("stkend") - position + 1)

    def reclaim(self, start: int, stkend: int) -> None:
        """RECLAIM-2 ($19E8) from `start`: everything after it to STKEND (then `stkend`)
        moves down."""
        self.charge("reclaim")
        self.charge("pointer-moved", sum(self.layout.address(pointer) > start for pointer in MOVED_POINTERS))
        self.charge("move-byte", stkend - start + 1)

    def bc_spaces(self, count: int) -> None:
        """BC-SPACES (RST 30): `count` bytes made at the end of the work space, the calculator
        stack moved up."""
        self.charge("bc-spaces")
        self.charge("move-byte", self.layout.stack + 1)
        self.layout.workspace += count


def _loop_goes_on(value: float, loop: Loop) -> bool:
    return value <= loop.limit if loop.step >= 0 else value >= loop.limit


def _whole(value: float):
    """A whole number as int, as the port's variables hold them."""
    return int(value) if value == int(value) else value


def _text(value) -> bytes:
    return value.encode("latin-1") if isinstance(value, str) else bytes(value)


WALKS_KEPT = 4096  # EACH-STMT walks remembered
_WALKS: dict[tuple[bytes, int, int], tuple[tuple[str, int], ...]] = {}


def _each_statement_walk(stored: bytes, offset: int, start: int) -> tuple[tuple[str, int], ...]:
    """What EACH-STMT passes from `start` up to `offset` in a line's stored codes: hidden numbers,
    statements' ends (a colon or THEN outside quotes) and other codes, as (item, count)."""
    numbers = statements = codes = 0
    index, quoted = start, False
    while index < offset - 1:
        code = stored[index]
        if not quoted and code == NUMBER_MARKER:
            numbers += 1
            index += HIDDEN_NUMBER
            continue
        if code == QUOTE:
            quoted = not quoted
        if not quoted and code in (COLON, TOKEN_THEN):
            statements += 1
        else:
            codes += 1
        index += 1
    return tuple(
        (item, count)
        for item, count in (
            ("each-statement-number", numbers),
            ("each-statement-statement", statements),
            ("each-statement-code", codes),
        )
        if count
    )


_PASS_ITEMS = {kind: "look-vars-pass-" + kind.name.lower().replace("_", "-") for kind in Kind}


def _discriminator(name: str, array: bool) -> int:
    """LOOK-VARS's C: the letter with the kind's bits 5 and 6 (bits 0-6 are compared)."""
    letter = ord(name[0]) & 0x1F
    if name.endswith("$"):
        return letter | 0x40
    if array:
        return letter
    return letter | (0x20 if len(name) > 1 else 0x60)


def _discriminator_of(name: str, kind: Kind) -> int:
    return (ord(name[0]) & 0x1F) | ((kind.value << 5) & 0x7F)


def _element(array, place: tuple[int, ...]):
    item = array
    for index in place:
        item = item[index - 1]
    return item


def _new_array(sizes: list[int], string: bool):
    """DIM's new array: zeros, or strings of spaces (the last size is their length)."""
    if string and len(sizes) == 1:
        return " " * sizes[0]
    if string and len(sizes) == 2:
        return [" " * sizes[1] for _ in range(sizes[0])]
    if len(sizes) == 1:
        return [0] * sizes[0]
    return [_new_array(sizes[1:], string) for _ in range(sizes[0])]


def _data_items(codes: bytes) -> list[int]:
    """Where each item of a DATA statement starts."""
    starts, quoted = [1], False
    for index, code in enumerate(codes[1:], 1):
        if code == QUOTE:
            quoted = not quoted
        elif code == ord(",") and not quoted:
            starts.append(index + 1)
    return starts


def _definition(codes: bytes) -> tuple[str, tuple[str, ...], bytes]:
    """DEF FN name(parameters)=expression: the name, the parameters, the expression's codes."""
    text = codes[1:]
    open_bracket, close_bracket = text.index(ord("(")), text.index(ord(")"))
    name = text[:open_bracket].decode("latin-1").replace(" ", "").lower()
    parameters = tuple(
        part.strip().lower()
        for part in text[open_bracket + 1 : close_bracket].decode("latin-1").split(",")
        if part.strip()
    )
    return name, parameters, bytes(text[text.index(ord("="), close_bracket) + 1 :])
