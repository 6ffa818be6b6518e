"""What the project's commands share: a bad command line said in one line, ranged numbers, and
the files a command reads or writes, checked before any work is done."""

import argparse
import functools
import os
import sys
from pathlib import Path

CLOSED_OUTPUT_STATUS = 141  # 128 + SIGPIPE: what a shell reports for a Unix tool whose reader went away
INTERRUPTED_STATUS = 130  # 128 + SIGINT: Ctrl-C


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that says what is wrong with a command line in one line (exit code 2)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def ends_quietly(main):
    """A command's `main`, ending as a Unix tool does when its output is closed early (`| head -1`:
    status 141, no traceback) or it is interrupted (Ctrl-C: status 130). What is left unwritten is
    dropped: the output goes nowhere from then on, so nothing fails again as Python exits."""

    @functools.wraps(main)
    def quiet(*args, **kwargs):
        try:
            status = main(*args, **kwargs)
            sys.stdout.flush()  # here, not as Python exits, where a closed pipe is said with a traceback
            return status
        except BrokenPipeError:
            _output_to_nowhere()
            return CLOSED_OUTPUT_STATUS
        except KeyboardInterrupt:
            _output_to_nowhere(stderr=False)
            return INTERRUPTED_STATUS

    return quiet


def _output_to_nowhere(stderr: bool = True) -> None:
    """stdout (and stderr) to the null device, for whatever is still written before Python exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr) if stderr else (sys.stdout,):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # no file descriptor behind it (a test's capture)
            pass
    os.close(devnull)


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


def positive_number(what: str = "a number"):
    """An argparse type: a number above 0 (a fraction will do)."""

    def checked(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            number = None
        if number is None or not 0 < number < float("inf"):
            raise argparse.ArgumentTypeError(f"{what} is a number above 0, not {text!r}")
        return number

    checked.__name__ = what
    return checked


def existing_file(text: str) -> Path:
    """An argparse type: a file that is there to be read."""
    path = Path(text)
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a file name")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not path.exists():
        raise argparse.ArgumentTypeError(f"there is no file {text!r}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be read: no permission")
    return path


def new_file(text: str) -> Path:
    """An argparse type: a file to write at the end of the run, in a folder that is there now (so
    that a long run is not made for nothing)."""
    path = Path(text)
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a file name")
    if text.endswith(("/", os.sep)) or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder: name a file in it")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"there is no folder {str(folder)!r} to write {path.name!r} in")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written: no permission")
    return path


def new_file_ending(*endings: str):
    """An argparse type: a `new_file` whose name ends in one of `endings` (".png"), the kinds of
    file written, so that a PNG is never written under the name of another kind."""

    def checked(text: str) -> Path:
        path = new_file(text)
        if not text.lower().endswith(endings):
            raise argparse.ArgumentTypeError(f"{text!r}: the name must end in {' or '.join(endings)}")
        return path

    checked.__name__ = "a file"
    return checked
