"""What an INPUT entry stands for: the ROM's SCANNING ($24FB) on the typed line.

INPUT checks the line's syntax first (IN-ASSIGN with FLAGS bit 7 reset); a fault leaves the line
in the editor with the flashing '?' where the check stopped (X_PTR). Then the line is evaluated
and assigned; an error then is the report the program stops with. Both passes follow SCANNING's
own steps (its priorities, the type test of each operation, where CH_ADD stands when it gives
up), for string and number literals (BIN too), variables, numeric arrays and DIM'd string
arrays (STK-VAR: subscripts, the strings' fixed length, a slice of an element), ``+ - * /``,
``^``, comparisons, AND, OR, NOT, unary minus, brackets, slices of strings, PI, RND, INKEY$, FN
(the program's DEF FNs), POINT, SCREEN$, ATTR and the functions VAL$, CODE, VAL, LEN, SIN, COS,
TAN, ASN, ACS, ATN, LN, EXP, INT, SQR, SGN, ABS, PEEK, IN (the keyboard's half-rows), USR of a
string (a UDG's address), STR$ and CHR$ (the series functions and ``^`` from `series`).

Everything else SCANNING accepts (USR of a number, INKEY#) is checked
as the ROM checks it but not evaluated by the layer: it is refused like a syntax fault, at the
point where it starts.
"""

from dataclasses import dataclass
from typing import NoReturn

from . import fp, series, sysvars
from .errors import (
    INTEGER_OUT_OF_RANGE,
    INVALID_ARGUMENT,
    STOP_IN_INPUT,
    SUBSCRIPT_WRONG,
    VARIABLE_NOT_FOUND,
    ReportError,
)
from .hardware import pixel_address
from .numbers import print_fp
from .rom import (
    ENTER,
    TOKEN_ATTR,
    TOKEN_BIN,
    TOKEN_CODE,
    TOKEN_FN,
    TOKEN_INKEY,
    TOKEN_NOT,
    TOKEN_PI,
    TOKEN_POINT,
    TOKEN_RND,
    TOKEN_SCREEN,
    TOKEN_STOP,
    TOKEN_TO,
    TOKEN_VAL_STRING,
)

QUOTE = ord('"')
FN_WITHOUT_DEF, PARAMETER_ERROR = "P FN without DEF", "Q Parameter error"
SCREEN_CHARACTERS = 96  # SCREEN$ matches the character set from space to the copyright sign
LOWEST_POINT_ROW = 175  # PIXEL-ADD: y runs 0-175 up from the bottom of the upper screen
PI = bytes((0x82, 0x49, 0x0F, 0xDA, 0xA2))  # stk-pi/2 with its exponent raised by one, as S-PI does

# Operator characters and tokens: (calculator code with the result and operand type bits, priority)
OPERATORS = {
    ord("+"): (0xCF, 6),
    ord("-"): (0xC3, 6),
    ord("*"): (0xC4, 8),
    ord("/"): (0xC5, 8),
    ord("^"): (0xC6, 10),
    ord("="): (0xCE, 5),
    ord(">"): (0xCC, 5),
    ord("<"): (0xCD, 5),
    0xC7: (0xC9, 5),
    0xC8: (0xCA, 5),
    0xC9: (0xCB, 5),  # <=, >=, <>
    0xC5: (0xC7, 2),
    0xC6: (0xC8, 3),  # OR, AND
}
NUMERIC_RESULT, NUMERIC_OPERAND = 0x80, 0x40
NEGATE, NOT, VAL_STRING = 0xDB, 0xF0, 0x18
USR_NUMBER, USR_STRING = 0xED, 0x99  # USR with a number runs machine code; with a string, a UDG's address
UDG_FIRST, UDG_COUNT = 0x90, 21
STRING_ADD, STRING_AND = 0x17, 0x10
RELATIONS = {0x09: "<=", 0x0A: ">=", 0x0B: "<>", 0x0C: ">", 0x0D: "<", 0x0E: "="}
# What the syntax check is charged, by what a run would be: checking takes other routines' time
SYNTAX_ITEMS = {
    "scanning": "scanning",
    "operand-quote": "operand-quote",
    "quote-code": "quote-code",
    "operand-number": "operand-number",
    "operand-point-number": "operand-number",
    "number-code": "number-code",
    "operand-number-variable": "operand",
    "operand-string-variable": "operand",
    "operand-bracket": "operand",
}
# each binary operator by name (its place in the table of operators sets the time INDEXER takes)
POWER = 0x06
OPERATOR_NAMES = {
    0x03: "-",
    0x04: "*",
    0x05: "/",
    0x06: "^",
    0x07: "or",
    0x08: "and",
    0x0F: "+",
    0x10: "string-and",
    0x17: "concatenate",
    **RELATIONS,
}
# The calculator codes of the functions CODE ($1C) to CHR$ ($2F) that the layer evaluates
CODE, VAL, LEN, INT, SGN, ABS, PEEK, IN, STR, CHR = 0x1C, 0x1D, 0x1E, 0x27, 0x29, 0x2A, 0x2B, 0x2C, 0x2E, 0x2F
USR_UDG = USR_STRING & 0x3F
EVALUATED_FUNCTIONS = {VAL_STRING, USR_UDG, CODE, VAL, LEN, INT, SGN, ABS, PEEK, IN, STR, CHR}
FUNCTION_NAMES = {
    VAL_STRING: "val-string",
    USR_UDG: "usr-string",
    CODE: "code",
    VAL: "val",
    LEN: "len",
    INT: "int",
    SGN: "sgn",
    ABS: "abs",
    PEEK: "peek",
    IN: "in",
    STR: "str",
    CHR: "chr",
}
SERIES_FUNCTIONS = {
    0x1F: series.sin,
    0x20: series.cos,
    0x21: series.tan,
    0x22: series.asn,
    0x23: series.acs,
    0x24: series.atn,
    0x25: series.ln,
    0x26: series.exp,
    0x28: series.sqr,
}


class SyntaxFault(Exception):
    """The syntax check stopped at `position` (an index into the entry, or its length for the
    end): the editor shows its flashing '?' there and the entry stays to be put right."""

    def __init__(self, position: int):
        super().__init__(position)
        self.position = position


@dataclass
class Value:
    """A result on the calculator stack: a 5-byte number, or the bytes of a string."""

    numeric: bool
    number: bytes = fp.ZERO
    text: bytes = b""


def check(entry: bytes, numeric: bool, machine=None) -> None:
    """The first IN-ASSIGN: raise SyntaxFault unless the entry is a string (or, `numeric`, a
    number) expression and nothing else, or starts with STOP. (`machine` only to be charged
    the check's time, if it keeps the ROM's.)"""
    Scanner(entry, running=False, machine=machine).assignment(numeric)


def evaluate(entry: bytes, numeric: bool, machine) -> bytes:
    """The second IN-ASSIGN on a checked entry: the 5-byte number or the string it stands for.

    `machine` gives what the entry may read: its memory (PEEK, ATTR, SCREEN$, POINT), the
    keys held (INKEY$, IN), RND (which moves SEED on), the program's DEF FNs in
    `machine.functions` (name, with ``$`` for a string function → (parameter names, the body's
    codes)) and its variables in `machine.variables`, which maps BASIC names (lower case, no
    spaces, strings with ``$``) to numbers, strings (str of Spectrum codes, or bytes) and
    arrays: a numeric array is a list (of lists) of numbers, a DIM'd string array a list (of
    lists) of its fixed-length strings (one of one dimension is simply its string). A name holds
    one of them. Raises the ROM's report: H STOP in INPUT, 2 Variable not found, 6 Number too big,
    B Integer out of range, C Nonsense in BASIC (inside VAL)…
    """
    value = Scanner(entry, running=True, machine=machine).assignment(numeric)
    return value.number if numeric else value.text


class _Unsupported(Exception):
    """Something SCANNING accepts that the layer does not evaluate, at `position`."""

    def __init__(self, position: int):
        super().__init__(position)
        self.position = position


class Scanner:
    """SCANNING on a line's codes from CH_ADD (`position`) on: `running` evaluates (as a line
    is run), else only checks (as the syntax check does). With a machine that keeps the ROM's
    time (`machine.timing`), each step charges what the ROM's routines take for it, and the
    machine's interpreter, if it has one, the variables area's part (LOOK-VARS, work space)."""

    def __init__(self, entry: bytes, running: bool, machine=None, variables=None, *, of_program: bool = False):
        self.codes = bytes(entry) + bytes((ENTER,))
        self.of_program = of_program  # a statement of a port's program, whose RND the port draws
        self.position = 0  # CH_ADD
        self.running = running
        self.machine = machine
        self.variables = machine.variables if variables is None and machine else variables or {}
        self.timing = getattr(machine, "timing", None)
        if self.timing is not None and running:  # charged straight to the clock: tens of times a statement
            self.charge = self.timing.charge  # type: ignore[method-assign]
        self.interpreter = getattr(machine, "interpreter", None)
        self.seed: int | None = (
            None  # RND's SEED as this scanning moves it on (the program's own RND moves the machine's)
        )
        self.parameters: tuple[str, ...] = ()  # a DEF FN's, while its expression is evaluated

    def charge(self, item: str, count: int = 1) -> None:
        """The ROM's time for a step of SCANNING: its run-time routine, or in the syntax check
        its checking one."""
        if self.timing is not None:
            self.timing.charge(item if self.running else "syntax-" + SYNTAX_ITEMS.get(item, "step"), count)

    def workspace(self, count: int) -> None:
        """BC-SPACES: `count` bytes made in the work space for a string."""
        if self.timing is None:
            return
        if self.interpreter is not None and self.running:
            self.interpreter.bc_spaces(count)
        else:
            self.charge("bc-spaces")

    # --- CH_ADD ---------------------------------------------------------------------------------

    def get_char(self) -> int:
        """GET-CHAR with SKIP-OVER: spaces and control codes (with their parameters) are passed."""
        while True:
            code = self.codes[self.position]
            if code >= 0x21 or code == ENTER:
                return code
            if 0x10 <= code < 0x18:
                self.position += 2 if code < 0x16 else 3
            else:
                self.position += 1

    def next_char(self) -> int:
        self.position += 1
        return self.get_char()

    def step_past(self, char: str) -> None:
        """Past `char` where CH_ADD stands, or REPORT-C there."""
        self.step_past_code(ord(char))

    def step_past_code(self, code: int) -> None:
        """Past the code (a character or a token) where CH_ADD stands, or REPORT-C there."""
        if self.get_char() != code:
            self.fault()
        self.next_char()

    def name(self) -> str:
        """The variable name at CH_ADD, as `variables` keys it (lower case, no spaces, '$' for a
        string); CH_ADD is left after it."""
        name = chr(self.get_char()).lower()
        code = self.next_char()
        if code == ord("$"):
            self.next_char()
            return name + "$"
        while chr(code).isascii() and chr(code).isalnum():
            name += chr(code).lower()
            code = self.next_char()
        return name

    def element_place(self, array, string: bool) -> tuple[tuple[int, ...], int]:
        """STK-VAR on an array named in an assignment: the subscripts from the '(' at CH_ADD
        (a string array's all but the last dimension), and the code after the last one."""
        self.charge("assigned-element")
        place, element = [], array
        while True:
            element, code = self.subscripted(element)
            place.append(self.subscript_value)
            if not isinstance(element, list) or (string and isinstance(element, str)):
                return tuple(place), code
            if code != ord(","):
                raise ReportError(SUBSCRIPT_WRONG)

    def fault(self) -> NoReturn:
        """REPORT-C where CH_ADD stands (in the syntax pass, the '?' goes there)."""
        if self.running:
            raise ReportError(fp.NONSENSE_IN_BASIC)
        raise SyntaxFault(self.position)

    def unsupported(self, position: int) -> NoReturn:
        raise _Unsupported(position)

    # --- IN-ASSIGN ------------------------------------------------------------------------------

    def assignment(self, numeric: bool) -> Value:
        try:
            if self.get_char() == TOKEN_STOP:
                if self.running:
                    raise ReportError(STOP_IN_INPUT)
                return Value(numeric)
            value = self.scanning()
            if value.numeric != numeric:  # VAL-FET-2
                self.fault()
            if self.get_char() != ENTER:
                self.fault()
            return value
        except _Unsupported as unsupported:
            raise SyntaxFault(unsupported.position) from None

    # --- SCANNING -------------------------------------------------------------------------------

    def scanning(self) -> Value:
        """SCANNING: operands and operators juggled by priority, as S-LOOP does."""
        stack: list[tuple[int, int, int]] = [(0, 0, self.position)]  # (priority, operation, where)
        values: list[Value] = []
        self.charge("scanning")
        code = self.get_char()
        while True:
            # S-LOOP-1: prefix operations, then one operand
            while True:
                if code == ord("+"):  # S-U-PLUS: a plus sign in front is passed over
                    self.charge("unary-plus")
                    code = self.next_char()
                    continue
                prefix = self.prefix(code)
                if prefix is None:
                    break
                stack.append(prefix)
                code = self.next_char()
            values.append(self.operand(code))
            code = self.get_char()  # S-CONT-2
            while code == ord("(") and not values[-1].numeric:  # a string can be sliced, again and again
                values[-1] = self.slicing(values[-1])
                code = self.next_char()
            operation, priority = OPERATORS.get(code, (0, 0))
            while True:  # S-LOOP
                last_priority, last_operation, where = stack.pop()
                if last_priority < priority:  # S-TIGHTER
                    stack.append((last_priority, last_operation, where))
                    if not values[-1].numeric:
                        operation = self.string_operation(operation)
                    stack.append((priority, operation, self.position))
                    code = self.next_char()
                    break
                if last_priority == 0:
                    return values.pop()
                self.perform(last_operation, values, where)

    def prefix(self, code: int) -> tuple[int, int, int] | None:
        """S-NEGATE and the one-argument functions: (priority, operation, where), or None."""
        if code == ord("-"):
            return 9, NEGATE, self.position
        if code == TOKEN_VAL_STRING:
            return 0x10, VAL_STRING, self.position
        if TOKEN_CODE <= code <= TOKEN_NOT:
            if code == TOKEN_NOT:
                return 4, NOT, self.position
            operation = code - TOKEN_CODE + 0xDC
            if operation < 0xDF:  # CODE, VAL, LEN take a string
                operation &= ~NUMERIC_OPERAND
            if operation >= 0xEE:  # STR$ and CHR$ give one
                operation &= ~NUMERIC_RESULT
            return 0x10, operation, self.position
        return None

    def operand(self, code: int) -> Value:
        if code == QUOTE:
            return self.string_literal()
        if code == ord("("):
            self.charge("operand-bracket")
            self.next_char()
            value = self.scanning()
            self.step_past(")")
            return value
        if code == ord(".") or ord("0") <= code <= ord("9"):
            return self.number_literal(point_first=code == ord("."))
        if code == TOKEN_BIN:
            return self.binary_literal()
        if code == TOKEN_PI:
            self.charge("operand-pi")
            self.next_char()
            return Value(True, PI)
        if code == TOKEN_RND:
            self.charge("operand-rnd")
            self.next_char()
            return Value(True, fp.from_float(self.random()) if self.running else fp.ZERO)
        if code == TOKEN_INKEY:
            self.charge("operand-inkey")
            start = self.position
            if self.next_char() == ord("#"):  # INKEY# reads a stream, which the layer has not
                self.unsupported(start)
            return Value(False, text=self.machine.inkey().encode("latin-1") if self.running else b"")
        if code == TOKEN_FN:
            return self.function_call()
        if code in (TOKEN_POINT, TOKEN_SCREEN, TOKEN_ATTR):
            self.charge("operand-screen")
            return self.screen_function(code)
        if chr(code).isascii() and chr(code).isalpha():
            return self.variable()
        self.fault()

    def random(self) -> float:
        """RND: the machine's own, or — scanning a port's program, whose port draws RND itself —
        the value the machine's next RND will give, without moving SEED."""
        with fp.counting() as passes:
            if self.of_program:
                if self.seed is None:
                    self.seed = self.machine.peek(sysvars.SEED) + 256 * self.machine.peek(sysvars.SEED + 1)
                self.seed, number = fp.random_number(self.seed)
                value = fp.to_float(number)
            else:
                value = self.machine.rnd()
        for name, times in passes.items():
            self.charge("calculator-" + name, times)
        return value

    def string_literal(self) -> Value:
        """S-QUOTE: up to the closing quote, a doubled quote standing for one."""
        text = bytearray()
        self.charge("operand-quote")
        while True:
            self.position += 1
            code = self.codes[self.position]
            self.charge("quote-code")
            if code == ENTER:
                self.fault()
            if code == QUOTE:
                self.position += 1
                if self.codes[self.position] != QUOTE:
                    if self.running:
                        self.workspace(len(text) + 1)
                    return Value(False, text=bytes(text))
            text.append(code)

    def number_literal(self, point_first: bool = False) -> Value:
        """S-DECIMAL: DEC-TO-FP from CH_ADD on. A literal read once is known by where it is (its
        statement's codes and its place in them): its value and its end are the same each time."""
        start = self.position
        known = _LITERALS.get((self.codes, start))
        if known is None:
            cursor = _LiteralCursor(self)
            try:
                number = fp.decimal_literal(cursor)
            except ReportError:
                self.position = cursor.position
                if self.running:
                    raise
                raise SyntaxFault(self.position) from None
            if len(_LITERALS) >= LITERALS_KEPT:
                _LITERALS.clear()
            known = _LITERALS[self.codes, start] = number, cursor.position
        number, self.position = known
        self.charge("operand-point-number" if point_first else "operand-number")
        self.charge("number-code", self.position - start)
        self.get_char()
        return Value(True, number)

    def binary_literal(self) -> Value:
        """DEC-TO-FP on BIN: binary digits up to the first other code (spaces passed), as a
        whole number; a 17th significant digit is 6 Number too big."""
        value = 0
        while self.next_char() in (ord("0"), ord("1")):
            value = value << 1 | (self.codes[self.position] - ord("0"))
            if value > 0xFFFF:
                if self.running:
                    raise ReportError(fp.NUMBER_TOO_BIG)
                raise SyntaxFault(self.position)
        return Value(True, fp.stack_bc(value))

    def screen_function(self, code: int) -> Value:
        """S-POINT, S-SCREEN$ and S-ATTR: two numbers in brackets (S-2-COORD), each 0-255 by
        FP-TO-A (its sign dropped), then the screen memory read as the ROM reads it."""
        self.next_char()
        self.step_past("(")
        first = self.numeric_expression()
        self.step_past(",")
        second = self.numeric_expression()
        self.step_past(")")
        if not self.running:
            return Value(code != TOKEN_SCREEN)
        b, c = _byte(second.number), _byte(first.number)  # STK-TO-BC: the second to B, the first to C
        memory = self.machine.memory
        if code == TOKEN_POINT:
            return Value(True, fp.stack_bc(_point(memory, x=c, y=b)))
        rotated = ((c >> 3) | (c << 5)) & 0xFF
        low = (rotated & 0xE0) ^ b
        if code == TOKEN_ATTR:
            return Value(True, fp.stack_bc(int(memory[((rotated & 0x03) ^ 0x58) << 8 | low])))
        return Value(False, text=_screen_character(memory, ((c & 0x18) ^ 0x40) << 8 | low))

    def numeric_expression(self) -> Value:
        """EXPT-1NUM: SCANNING, which must give a number."""
        value = self.scanning()
        if not value.numeric:
            self.fault()
        return value

    def function_call(self) -> Value:
        """S-FN: FN, a letter (and '$' for a string function), then arguments in brackets,
        separated by commas. Running, the DEF FN's parameters take the arguments in turn (P FN
        without DEF if there is none, Q Parameter error for one too many or too few, or of the
        wrong type, C Nonsense in BASIC for none at all) and its expression is evaluated with
        them in place of variables."""
        letter = self.next_char()
        if not (chr(letter).isascii() and chr(letter).isalpha()):
            self.fault()
        name = chr(letter).lower()
        code = self.next_char()
        if code == ord("$"):
            name += "$"
            code = self.next_char()
        if code != ord("("):
            self.fault()
        definition = None
        self.charge("operand-fn")
        if self.running:
            definition = self.machine.functions.get(name)
            if self.interpreter is not None and self.timing is not None:
                self.interpreter.find_definition(name)
            if definition is None:
                raise ReportError(FN_WITHOUT_DEF)
        parameters, arguments = list(definition[0]) if definition else [], {}
        if self.next_char() == ord(")") and parameters:  # FN f() for DEF FN f(x)
            self.fault()
        if self.get_char() != ord(")"):
            while True:
                if self.running and not parameters:
                    raise ReportError(PARAMETER_ERROR)
                value = self.scanning()
                self.charge("fn-argument")
                if self.running:
                    parameter = parameters.pop(0)
                    if value.numeric == parameter.endswith("$"):
                        raise ReportError(PARAMETER_ERROR)
                    arguments[parameter] = fp.to_float(value.number) if value.numeric else value.text
                if self.get_char() == ord(")"):
                    break
                self.step_past(",")
        self.next_char()
        if not self.running:
            return Value(not name.endswith("$"))
        if parameters:
            raise ReportError(PARAMETER_ERROR)
        assert definition is not None  # running, it was found above
        body = Scanner(
            definition[1],
            running=True,
            machine=self.machine,
            variables={**self.variables, **arguments},
            of_program=self.of_program,
        )
        body.parameters = definition[0]
        return body.scanning()

    def variable(self) -> Value:
        """LOOK-VARS: a letter, then '$' for a string, or letters and digits for a long name."""
        name = chr(self.codes[self.position]).lower()
        code = self.next_char()
        if code == ord("$"):
            name += "$"
            code = self.next_char()
        elif code == ord("("):  # only a one-letter name can be an array's
            return self.array_element(name)
        else:
            while chr(code).isascii() and chr(code).isalnum():
                name += chr(code).lower()
                code = self.next_char()
            if code == ord("(") and not self.running:
                # STK-VAR's syntax check on a long name: one numeric subscript, then a fault
                self.next_char()
                self.whole_number(limit=0)
                self.fault()
        if code == ord("(") and name.endswith("$") and not self.running:
            self.string_subscripts()
        self.look_vars(name)
        if not self.running:
            return Value(not name.endswith("$"))
        if name not in self.variables:
            raise ReportError(VARIABLE_NOT_FOUND)
        value = self.variables[name]
        if not name.endswith("$"):
            if isinstance(value, list):  # only the array has this name
                raise ReportError(VARIABLE_NOT_FOUND)
            self.charge("operand-number-variable")
            return Value(True, fp.from_float(value))
        self.charge("operand-string-variable")
        if isinstance(value, list):
            return self.string_array_element(value)
        return Value(False, text=_text(value))

    def look_vars(self, name: str) -> None:
        """LOOK-VARS for `name` — in a DEF FN's expression, STK-F-ARG first looks through its
        parameters."""
        if self.timing is None:
            return
        if name in self.parameters:
            self.charge("fn-parameter")
            self.charge("fn-parameter-passed", self.parameters.index(name))
        elif self.interpreter is not None and self.running:
            self.interpreter.look_vars(name)
        else:
            self.charge("look-vars-found")

    def array_element(self, name: str) -> Value:
        """STK-VAR on a numeric array: one numeric subscript a dimension, separated by commas,
        up to ')'; the array is a list (of lists) in `variables`, its subscripts counting from 1.
        Running, a subscript outside its dimension, or one too many or too few, is 3 Subscript
        wrong the moment it is met."""
        if not self.running:
            while True:
                self.next_char()
                self.whole_number(limit=0)
                code = self.get_char()
                if code == ord(")"):
                    self.next_char()
                    return Value(True)
                if code != ord(","):
                    self.fault()
        self.look_vars(name)
        array = self.variables.get(name)
        if not isinstance(array, list):
            raise ReportError(VARIABLE_NOT_FOUND)
        self.charge("operand-number-array")
        element, code = self.element_of(array)
        if code != ord(")"):
            raise ReportError(SUBSCRIPT_WRONG)
        self.next_char()
        return Value(True, fp.from_float(element))

    def element_of(self, array: list):
        """A subscript for each dimension of `array`, separated by commas, down to one element: the
        element and the character after its last subscript."""
        element = array
        while True:
            element, code = self.subscripted(element)
            if not isinstance(element, list):
                return element, code
            if code != ord(","):
                raise ReportError(SUBSCRIPT_WRONG)

    def string_array_element(self, array: list) -> Value:
        """STK-VAR on a DIM'd string array (running): a subscript for every dimension but the
        last (the strings' fixed length), then ')' for the whole string or ',' and a slice of
        it, as `r$(2)`, `r$(2,3)` or `r$(2,2 TO 4)`; CH_ADD is left after the ')'."""
        if self.get_char() != ord("("):
            raise ReportError(SUBSCRIPT_WRONG)
        element, code = self.element_of(array)
        value = Value(False, text=_text(element))
        if code == ord(","):
            value = self.slicing(value)
        elif code != ord(")"):
            raise ReportError(SUBSCRIPT_WRONG)
        self.next_char()
        return value

    def subscripted(self, element: list):
        """SV-MULT: the subscript after CH_ADD's '(' or ',' (3 Subscript wrong outside 1 to the
        dimension) picks an item of `element`; that item and the code after the subscript."""
        self.next_char()
        subscript, outside = self.whole_number(limit=len(element))
        self.charge("subscript")
        if outside:
            raise ReportError(SUBSCRIPT_WRONG)
        self.subscript_value = subscript
        return element[subscript - 1], self.get_char()

    def string_subscripts(self) -> None:
        """STK-VAR's syntax check after a string variable's '(': numeric subscripts separated by
        commas (for a string array), each place open to a last slice from TO, up to ')'."""
        code = self.next_char()
        while True:
            if code not in (ord(")"), TOKEN_TO):
                self.whole_number(limit=0)
                code = self.get_char()
                if code == ord(","):
                    code = self.next_char()
                    continue
            if code == TOKEN_TO:
                code = self.next_char()
                if code != ord(")"):  # an open end, (n TO ) or ( TO ), is allowed
                    self.whole_number(limit=0)
                    code = self.get_char()
            if code != ord(")"):
                self.fault()
            self.next_char()
            return

    def slicing(self, value: Value) -> Value:
        """SLICING: (), (n), (n TO m), (n TO), (TO m); a start past the end gives "", a position
        outside the string otherwise 3 Subscript wrong. CH_ADD is left at the ')'."""
        first, last = self.slice_bounds(value)
        if not self.running or first > last:
            return Value(False)
        return Value(False, text=value.text[first - 1 : last])

    def slice_bounds(self, value: Value) -> tuple[int, int]:
        """SLICING's first and last positions of a slice of `value` (running, a position outside
        the string that leaves the slice not empty is 3 Subscript wrong); CH_ADD at the ')'."""
        code = self.next_char()
        self.charge("slicing")
        length, first, last, outside = len(value.text), 1, len(value.text), False
        if code == ord(")"):
            return first, last
        if code != TOKEN_TO:
            first, outside = self.whole_number(limit=length)
            code = self.get_char()
            if code != TOKEN_TO:
                if code != ord(")"):
                    self.fault()
                last = first
        if code == TOKEN_TO and self.next_char() != ord(")"):
            last, beyond = self.whole_number(limit=length)
            outside = outside or beyond
            if self.get_char() != ord(")"):
                self.fault()
        if self.running and outside and first <= last:
            raise ReportError(SUBSCRIPT_WRONG)
        return first, last

    def whole_number(self, limit: int) -> tuple[int, bool]:
        """INT-EXP: a numeric expression as a whole number 0-65535 (else B Integer out of range),
        and whether it is 0 or past `limit`."""
        value = self.scanning()
        if not value.numeric:
            self.fault()
        if not self.running:
            return 0, False
        self.charge("int-exp")
        number = fp.find_int2(value.number)
        return number, number == 0 or number > limit

    def string_operation(self, operation: int) -> int:
        """S-TIGHTER after a string: comparisons and + take strings, AND a string and a number."""
        operation = (operation & 0x3F) + 8
        if operation == STRING_AND:
            return operation | NUMERIC_OPERAND
        if operation < STRING_AND:
            self.fault()  # e.g. a$ * b$
        if operation == STRING_ADD:
            return operation
        return operation | NUMERIC_RESULT

    def perform(self, operation: int, values: list[Value], where: int) -> None:
        """S-SYNTEST's type test, or (running) the calculator's operation on the stacked values."""
        if operation == USR_NUMBER and not values[-1].numeric:
            operation = USR_STRING  # S-LOOP: USR of a string is usr-$
        if bool(operation & NUMERIC_OPERAND) != values[-1].numeric:
            self.fault()
        literal = operation & 0x3F
        unary = operation in (NEGATE, NOT) or literal >= 0x18
        second = None if unary else values.pop()
        if not self.running:
            values[-1] = Value(bool(operation & NUMERIC_RESULT))
        elif unary:
            values[-1] = self.function(operation, values[-1], where)
        else:
            assert second is not None  # popped above, the operation not being unary
            values[-1] = self.binary(literal, values[-1], second)

    def binary(self, literal: int, first: Value, second: Value) -> Value:
        self.charge_operation(literal, first, second)
        if self.timing is None:
            return self.calculate(literal, first, second)
        with fp.counting() as passes:
            result = self.calculate(literal, first, second)
        for name, times in passes.items():
            self.charge("calculator-" + name, times)
        return result

    def calculate(self, literal: int, first: Value, second: Value) -> Value:
        if literal == STRING_ADD:
            self.workspace(len(first.text) + len(second.text))
            self.charge("move-byte", len(first.text) + len(second.text))
            return Value(False, text=first.text + second.text)
        if literal == STRING_AND:
            return Value(False, text=first.text if not fp.is_zero(second.number) else b"")
        if literal >= 0x11:  # string comparisons
            relation = RELATIONS[literal - 8]
            return _truth(_compare_strings(first.text, relation, second.text))
        a, b = first.number, second.number
        if literal == 0x03:
            return Value(True, fp.subtract(a, b))
        if literal == 0x04:
            return Value(True, fp.multiply(a, b))
        if literal == 0x05:
            return Value(True, fp.divide(a, b))
        if literal == 0x07:  # OR: 1 when the second is true, else the first
            return Value(True, a if fp.is_zero(b) else fp.ONE)
        if literal == 0x08:  # AND: the first when the second is true, else 0
            return Value(True, a if not fp.is_zero(b) else fp.ZERO)
        if literal == 0x0F:
            return Value(True, fp.add(a, b))
        if literal in RELATIONS:
            return _truth(fp.compare(a, RELATIONS[literal], b))
        return Value(True, series.to_power(a, b))  # ^, the one operation left

    def charge_operation(self, literal: int, first: Value, second: Value) -> None:
        """The time for a two-operand operation before the calculator's own loops (counted as they
        run, in `binary`); strings compared code by code."""
        if literal not in OPERATOR_NAMES:  # a string comparison
            self.charge(f"operator-string-{RELATIONS[literal - 8]}")
            self.charge("string-compare-code", _common_length(first.text, second.text))
        elif literal == POWER and fp.is_zero(first.number):  # to-power's XIS0: no LN, no EXP
            self.charge("operator-^-of-zero")
        else:
            self.charge(f"operator-{OPERATOR_NAMES[literal]}")

    def function(self, operation: int, value: Value, where: int) -> Value:
        literal = operation & 0x3F
        name = FUNCTION_NAMES.get(literal, "negate" if operation == NEGATE else "not" if operation == NOT else "other")
        self.charge(f"function-{name}")
        if self.timing is None:
            return self.evaluate_function(operation, value, where)
        with fp.counting() as passes:
            result = self.evaluate_function(operation, value, where)
        for name, times in passes.items():
            self.charge("calculator-" + name, times)
        return result

    def evaluate_function(self, operation: int, value: Value, where: int) -> Value:
        literal = operation & 0x3F
        if operation == NEGATE:
            return Value(True, fp.negate(value.number))
        if operation == NOT:
            return _truth(fp.is_zero(value.number))
        if literal in SERIES_FUNCTIONS:
            return Value(True, SERIES_FUNCTIONS[literal](value.number))
        if literal not in EVALUATED_FUNCTIONS:
            self.unsupported(where)
        if literal == CODE:
            return Value(True, fp.stack_bc(value.text[0] if value.text else 0))
        if literal == USR_UDG:
            return Value(True, fp.stack_bc(self.udg_address(value.text)))
        if literal == PEEK:
            return Value(True, fp.stack_bc(int(self.machine.memory[fp.find_int2(value.number)])))
        if literal == IN:
            return Value(True, fp.stack_bc(self.machine.read_port(fp.find_int2(value.number))))
        if literal == LEN:
            return Value(True, fp.stack_bc(len(value.text)))
        if literal in (VAL, VAL_STRING):
            return self.val(value.text, numeric=literal == VAL)
        if literal == STR:
            text = print_fp(value.number).encode("ascii")
            charge_print_fp(self.charge, value.number)
            self.charge("str-code", len(text))
            return Value(False, text=text)
        if literal == CHR:
            self.workspace(1)
            return Value(False, text=bytes((fp.find_int1(value.number),)))
        if literal == INT:
            return Value(True, fp.integer(value.number))
        if literal == ABS:
            return Value(True, fp.absolute(value.number))
        if fp.is_zero(value.number):  # SGN
            return Value(True, fp.ZERO)
        return Value(True, fp.negate(fp.ONE) if fp.less_than_zero(value.number) else fp.ONE)

    def udg_address(self, text: bytes) -> int:
        """usr-$ $34BC: the address of the UDG a one-character string names, by its letter
        (A-U, either case) or the graphic itself; A Invalid argument for anything else."""
        if len(text) != 1:
            raise ReportError(INVALID_ARGUMENT)
        code = text[0]
        if not (chr(code).isascii() and chr(code).isalpha()):
            if not UDG_FIRST <= code < UDG_FIRST + UDG_COUNT:
                raise ReportError(INVALID_ARGUMENT)
            code -= UDG_FIRST - 1
        offset = (code - 1) * 8 & 0xFF  # the letter's low bits, eight bytes a UDG
        if offset >= UDG_COUNT * 8:
            raise ReportError(INVALID_ARGUMENT)
        memory = self.machine.memory
        return (int(memory[sysvars.UDG]) | int(memory[sysvars.UDG + 1]) << 8) + offset & 0xFFFF

    def val(self, text: bytes, numeric: bool = True) -> Value:
        """VAL (VAL$ when not `numeric`): the string checked as a numeric (string) expression,
        else C Nonsense in BASIC, then evaluated with the same variables."""
        self.workspace(len(text) + 1)
        checker = Scanner(text, running=False, machine=self.machine)
        try:
            if checker.scanning().numeric != numeric or checker.get_char() != ENTER:
                raise ReportError(fp.NONSENSE_IN_BASIC)
        except (SyntaxFault, _Unsupported):
            raise ReportError(fp.NONSENSE_IN_BASIC) from None
        return Scanner(
            text, running=True, machine=self.machine, variables=self.variables, of_program=self.of_program
        ).scanning()


LITERALS_KEPT = 4096  # number literals remembered (a listing has hundreds)
_LITERALS: dict[tuple[bytes, int], tuple[bytes, int]] = {}  # (codes, where) -> (value, where it ends)


class _LiteralCursor(fp.LiteralCursor):
    """DEC-TO-FP's view of the entry: GET-CHAR passes control codes as well as spaces."""

    def __init__(self, scanner: Scanner):
        super().__init__(scanner.codes[:-1].decode("latin-1"))
        self.position = scanner.position
        self.scanner = scanner

    def get_char(self) -> str:
        self.scanner.position = self.position
        self.scanner.get_char()
        self.position = self.scanner.position
        return self.char


def _byte(number: bytes) -> int:
    """STK-TO-A: FP-TO-A's 0-255 (B Integer out of range past it); the sign is dropped."""
    converted = fp.fp_to_a(number)
    if converted is None:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    return converted[0]


def _point(memory, x: int, y: int) -> int:
    """POINT-SUB with PIXEL-ADD: the pixel's bit in the display file (y above 175 is B
    Integer out of range)."""
    if y > LOWEST_POINT_ROW:
        raise ReportError(INTEGER_OUT_OF_RANGE)
    line = LOWEST_POINT_ROW - y
    address = pixel_address(line, x >> 3)
    return int(memory[address]) >> (7 - (x & 7)) & 1


def _screen_character(memory, address: int) -> bytes:
    """S-SCRN$-S: the character whose 8 bytes in the character set (CHARS) are those of the
    cell at `address`, or all of them inverted; none found is the empty string."""
    memory = bytes(memory)
    chars = (memory[sysvars.CHARS] | memory[sysvars.CHARS + 1] << 8) + 256
    for index in range(SCREEN_CHARACTERS):
        glyph = chars + 8 * index
        inverted = memory[address] ^ memory[glyph]
        if inverted not in (0x00, 0xFF):
            continue
        if all(memory[address + 256 * row] ^ memory[glyph + row] == inverted for row in range(1, 8)):
            return bytes((0x20 + index,))
    return b""


def _text(value) -> bytes:
    """A string variable's codes: a str of Spectrum codes, or bytes."""
    return value.encode("latin-1") if isinstance(value, str) else bytes(value)


def charge_print_fp(charge, number: bytes) -> None:
    """PRINT-FP's ($2DE3) time on a number, by the way it goes: straight to "0"; a whole
    number (one or two bytes wide) digit by digit; any other through its exponent first, with
    the calculator's passes on the way."""
    if fp.is_zero(number):
        charge("print-fp-zero")
        return
    if fp.less_than_zero(number):
        charge("print-fp-negative")
        number = fp.absolute(number)
    with fp.counting() as passes:
        digits = sum(code.isdigit() for code in print_fp(number))
    for name, times in passes.items():
        charge("calculator-" + name, times)
    if fp.is_small(number):
        charge("print-fp-byte" if not number[3] else "print-fp-word")
        charge("print-fp-whole-digit", digits)
    else:
        charge("print-fp")
        charge("print-fp-digit", digits)


def _common_length(first: bytes, second: bytes) -> int:
    """How many codes a string comparison looks at: up to the first that differs, or the end
    of the shorter."""
    length = 0
    for a, b in zip(first, second):
        length += 1
        if a != b:
            break
    return length


def _truth(value: bool) -> Value:
    return Value(True, fp.ONE if value else fp.ZERO)


def _compare_strings(first: bytes, relation: str, second: bytes) -> bool:
    """The string comparisons: code by code, a string before any longer one it begins."""
    return {
        "<": first < second,
        "<=": first <= second,
        "=": first == second,
        "<>": first != second,
        ">=": first >= second,
        ">": first > second,
    }[relation]
