"""The build's one step beyond pyproject.toml: Canfield's solver compiled to C with mypyc.

The solver (games/canfield/solver.py) is plain Python, typed; mypyc turns it into an extension
module that Python imports in its place, about twice as fast (docs/canfield-solver.md). Where it
cannot be built (no C compiler, or ZXCARDS_PURE=1 in the environment) the install goes on without
it, saying so, and the same module runs as Python.
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = ["games/canfield/solver.py"]


class OptionalBuildExt(build_ext):
    """build_ext that warns and goes on when the C compiler fails: the pure module stays."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any failure to compile leaves the pure module
            self._fallback(error)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            self._fallback(error)

    def _fallback(self, error: Exception) -> None:
        print(f"zxcards: the solver was not compiled ({error}); it runs as Python, about half as fast", file=sys.stderr)


def extensions() -> list:
    if os.environ.get("ZXCARDS_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify

        # the modules it imports are read for their types only (the build has none of the packages
        # they need installed, numpy or pygame)
        return mypycify(["--follow-imports=silent", *COMPILED], opt_level="3")
    except (Exception, SystemExit) as error:  # noqa: BLE001 - mypyc missing or the module not compilable: the pure module
        print(f"zxcards: the solver was not compiled ({error}); it runs as Python, about half as fast", file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
