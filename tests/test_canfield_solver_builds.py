"""Canfield's solver as it is installed (compiled by mypyc where it could be, setup.py) against the
same source run as Python: the same verdicts, lines and counts of positions, deal after deal."""

import importlib.util
import os
import pathlib
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import games.canfield.solver as installed
from games.canfield.deals import deck_for
from games.canfield.rules import Canfield
from test_canfield_solver import end_games

SOURCE = pathlib.Path(installed.__file__).with_name("solver.py")
COMPILED = installed.is_compiled()


def load_pure():
    """solver.py read as Python, beside whatever `games.canfield.solver` is."""
    spec = importlib.util.spec_from_file_location("games.canfield._solver_as_python", SOURCE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (a dataclass looks its module up there)
    spec.loader.exec_module(module)
    return module


pure = load_pure()


def outcome(module, position, **limits):
    verdict = module.solve(position, **limits)
    return verdict.outcome.value, verdict.line, verdict.nodes, verdict.best_home


needs_compiled = pytest.mark.skipif(
    not COMPILED and os.environ.get("ZXCARDS_SOLVER") != "compiled",
    reason="the solver is installed as Python (no C compiler at install, or ZXCARDS_PURE=1): nothing to compare",
)


def test_ci_gets_the_compiled_solver_it_asks_for():
    """.ci/run asks for the compiled solver (ZXCARDS_SOLVER=compiled): a build that fell back to
    Python fails here rather than running the suite on the module players would not get."""
    if os.environ.get("ZXCARDS_SOLVER") != "compiled":
        pytest.skip("ZXCARDS_SOLVER=compiled is not set: either module is fine")
    assert COMPILED, f"games.canfield.solver is {installed.__file__}, not the compiled module"


def test_the_module_knows_whether_it_runs_compiled():
    assert installed.is_compiled() is (pathlib.Path(installed.__file__).suffix == ".so")
    assert pure.is_compiled() is False


@needs_compiled
def test_the_compiled_module_is_built_from_the_source_as_it_is_now():
    """In a work tree, an edit to solver.py after `pip install -e .` would leave the old compiled
    module in its place: the install is to be run again."""
    assert pathlib.Path(installed.__file__).stat().st_mtime >= SOURCE.stat().st_mtime, (
        "games/canfield/solver.py changed after it was compiled: run `pip install -e .` again "
        "(or remove games/canfield/solver*.so to run it as Python)"
    )


@needs_compiled
@pytest.mark.parametrize("numbers", [range(1, 21), range(600, 606)])
def test_compiled_and_pure_search_deals_alike(numbers):
    for number in numbers:
        position = Canfield(deck_for(number)).position
        assert outcome(installed, position, budget=30_000) == outcome(pure, position, budget=30_000), number


@needs_compiled
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(end_games())
def test_compiled_and_pure_search_end_games_alike(position):
    assert outcome(installed, position, budget=100_000) == outcome(pure, position, budget=100_000)


@pytest.mark.parametrize("module", [installed, pure], ids=["installed", "as-python"])
def test_the_search_lets_other_threads_run_every_few_hundred_positions(module, monkeypatch):
    """Compiled, the search would hold the GIL from start to end (a window froze while a verdict
    was worked out on its thread): it sleeps for no time every CLOCK_CHECKS positions."""
    import time

    slept = []
    monkeypatch.setattr(time, "sleep", lambda seconds: slept.append(seconds))
    verdict = module.solve(Canfield(deck_for(495)).position, budget=20_000)
    assert verdict.nodes >= 10_000
    assert len(slept) >= verdict.nodes // module.CLOCK_CHECKS - 1
    assert set(slept) == {0}


def test_a_thread_runs_while_the_installed_search_runs_on_another():
    """The window's case: the main thread wakes every millisecond while a search runs for 2 s on a
    thread of its own; held out by a search that keeps the GIL, it wakes a handful of times."""
    import threading
    import time

    position = Canfield(deck_for(495)).position
    search = threading.Thread(target=lambda: installed.solve(position, seconds=2), daemon=True)
    search.start()
    woken = 0
    while search.is_alive():
        time.sleep(0.001)
        woken += 1
    assert woken >= 50
