"""The ROM's error reports, as Python exceptions."""


class ReportError(Exception):
    """A report the ROM would stop with, e.g. ``ReportError("5 Out of screen")``.

    ``str(error)`` is the report text as the ROM prints it; ``code`` is its first character.
    """

    def __init__(self, text: str):
        super().__init__(text)
        self.code = text[0]


OUT_OF_SCREEN = "5 Out of screen"
INVALID_COLOUR = "K Invalid colour"
INTEGER_OUT_OF_RANGE = "B Integer out of range"
INVALID_ARGUMENT = "A Invalid argument"
BREAK_INTO_PROGRAM = "L BREAK into program"
STOP_STATEMENT = "9 STOP statement"
BREAK_CONT_REPEATS = "D BREAK - CONT repeats"
STOP_IN_INPUT = "H STOP in INPUT"
VARIABLE_NOT_FOUND = "2 Variable not found"
SUBSCRIPT_WRONG = "3 Subscript wrong"
