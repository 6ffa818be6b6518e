"""The ROM's error reports, as Python exceptions."""


class ReportError(Exception):
    """A report the ROM would stop with, e.g. ``ReportError("5 Out of screen")``, and, when it
    is known, `where`: the line and statement it came in.

    ``str(error)`` is the report as the ROM prints it ("9 STOP statement, 1590:6"; the bare
    text when `where` is not known); ``text`` is the report without them, ``code`` its first
    character.
    """

    def __init__(self, text: str, where: tuple[int, int] | None = None):
        super().__init__(text if where is None else "%s, %d:%d" % (text, *where))
        self.text, self.code, self.where = text, text[0], where


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
