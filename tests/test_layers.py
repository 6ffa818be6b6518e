"""The layers import one way (tools → games.host → the games → spectrum), with no cycle anywhere,
and cost only what they use: the rules of every game, its computer players, the card core and the
state API come without the machine, numpy or pygame; the menu's program list loads no program's
play."""

import ast
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
HEAVY = ["numpy", "pygame", "spectrum.machine"]
# the modules of the games that draw or play on a machine; every other module of a game is pure
ON_THE_MACHINE = {
    "games.drawing",
    "games.patience.play",
    "games.patience.original",
    "games.patience.replay_shuffle",
    "games.canfield.play",
    "games.canfield.screen",
    "games.spades.screen",
    "games.spades.seat_play",
    "games.spades.home",
    "games.patience.targets",
    "games.canfield.targets",
    "games.spades.targets",
}


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    found = {}
    for package in ("spectrum", "games"):
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module's imports of the project's modules (imports inside functions count too)."""
    known = modules()
    graph = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                candidates = [stem] + [f"{stem}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                continue
            imported |= {candidate for candidate in candidates if candidate in known and candidate != name}
        graph[name] = imported
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of `graph` (a package importing its own modules, or they it, is no cycle:
    Python loads the package first)."""

    def counts(importer: str, imported: str) -> bool:
        return not imported.startswith(importer + ".") and not importer.startswith(imported + ".")

    found, state = [], {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for imported in sorted(graph[module]):
            if not counts(module, imported):
                continue
            if state.get(imported) == "open":
                found.append(path[path.index(imported) :] + [imported])
            elif imported not in state:
                visit(imported, path + [imported])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


def test_cycles_are_found_by_the_walk():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d.e"}, "d.e": {"d"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_no_module_of_the_project_is_in_an_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)


def test_the_layers_import_one_way():
    """spectrum imports no game; no game (nor what the games share) imports the host, which only
    `python -m games` starts."""
    wrong = [
        f"{module} imports {imported}"
        for module, imports in import_graph().items()
        for imported in imports
        if (module.startswith("spectrum") and imported.startswith("games"))
        or (not module.startswith(("games.host", "spectrum", "games.__main__")) and imported.startswith("games.host"))
    ]
    assert not wrong, "; ".join(wrong)


def pure_modules() -> list[str]:
    return sorted(
        name
        for name in modules()
        if name.startswith("games.")
        and not name.startswith("games.host")
        and name not in ON_THE_MACHINE
        and not name.endswith("__main__")
    )


def test_the_pure_list_knows_the_games():
    pure = pure_modules()
    assert {
        "games.cards",
        "games.protocol",
        "games.program",
        "games.spades.rules",
        "games.canfield.solver",
        "games.patience.rules",
    } <= set(pure)
    assert set(ON_THE_MACHINE) <= set(modules()), "a module named as drawing on the machine is gone"


def test_rules_and_players_import_without_the_machine_numpy_or_pygame():
    pure = pure_modules()
    probe = (
        f"import importlib, sys\nfor module in {pure!r}:\n    importlib.import_module(module)\n"
        f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [], f"importing the pure modules loads {done.stdout.strip()}"


def test_every_program_package_is_light_and_keeps_the_contract():
    probe = (
        "import sys\nfrom games.host import PROGRAMS, load\nfrom games.program import Needs\n"
        "for name in PROGRAMS:\n"
        "    program = load(name)\n"
        "    assert program.TITLE and callable(program.add_options) and callable(program.run), name\n"
        "    assert isinstance(program.NEEDS, Needs), name\n"
        f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules))\n"
        f"print(' '.join(name for name in sys.modules if name in {sorted(ON_THE_MACHINE)!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    heavy, plays = done.stdout.split("\n")[:2]
    assert heavy == "" and plays == ""
