"""The build's one step beyond pyproject.toml: Canfield's solver compiled to C with mypyc.

The solver (games/canfield/solver.py) is plain Python, typed; mypyc turns it into an extension
module that Python imports in its place, running the same search two to three times as fast
(games/canfield/README.md). Where it cannot be built (no C compiler, or ZXCARDS_PURE=1 in the
environment) the install goes on without it, saying so, and the same module runs as Python.
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = ["games/canfield/solver.py"]


def not_compiled(error: BaseException) -> None:
    print(f"zxcards: the solver was not compiled ({error}); it runs as Python, half as fast", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that goes on when the C compiler fails, saying so: the module stays Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any failure to compile leaves the Python module
            not_compiled(error)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            not_compiled(error)


def extensions() -> list:
    if os.environ.get("ZXCARDS_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify

        # the modules it imports are read for their types only (the build has none of the packages
        # they need installed, numpy or pygame)
        return mypycify(["--follow-imports=silent", *COMPILED], opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc missing, or the module not compilable (mypy exits)
        not_compiled(error)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
