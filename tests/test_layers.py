"""The layers import one way and cost only what they use: the rules of every game, the card core
and the game-state protocol come without the machine, numpy or pygame; the menu's program list
loads no program's play."""

import subprocess
import sys

import pytest

PURE = ["games.canfield.rules", "games.spades.rules", "games.patience.rules", "games.cards", "games.protocol"]
HEAVY = ["numpy", "pygame", "spectrum.machine"]


@pytest.mark.parametrize("module", PURE)
def test_rules_import_without_the_machine_numpy_or_pygame(module):
    probe = (f"import sys\nimport {module}\n"
             f"loaded = [name for name in {HEAVY!r} if name in sys.modules]\n"
             "print(' '.join(loaded))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], f"importing {module} loads {done.stdout.strip()}"


def test_every_program_package_is_light_and_keeps_the_contract():
    probe = ("import sys\nfrom games import PROGRAMS, load\n"
             "for name in PROGRAMS:\n"
             "    program = load(name)\n"
             "    assert program.TITLE and callable(program.add_options) and callable(program.run), name\n"
             f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules))\n"
             "print(' '.join(name for name in sys.modules if name.startswith('games.')\n"
             "               and name.endswith(('.play', '.full_play', '.screen'))))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    heavy, plays = done.stdout.split("\n")[:2]
    assert heavy == "" and plays == ""
