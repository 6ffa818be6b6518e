"""What the project's commands share: a bad command line said in one line, and ranged numbers."""

import argparse


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that says what is wrong with a command line in one line (exit code 2)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def whole_number(low: int, high: int | None = None, what: str = "a number"):
    """An argparse type: a whole number from `low` to `high` (no limit when None)."""
    span = f"from {low} up" if high is None else f"{low}-{high}"

    def checked(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is None or number < low or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"{what} is a whole number {span}, not {text!r}")
        return number

    checked.__name__ = what
    return checked
