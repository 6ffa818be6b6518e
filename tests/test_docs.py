"""The README is a front page a newcomer reads in two minutes, and every page of the guide is one
click from it, with no link to nowhere."""

import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "games").glob("*/README.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def links(page: Path) -> list[str]:
    """The targets of the Markdown links of `page` that point into the project (not the web, not
    an anchor of the page itself)."""
    return [
        target.split("#")[0]
        for target in LINK.findall(page.read_text(encoding="utf-8"))
        if not re.match(r"(https?:|mailto:|#)", target)
    ]


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 150, f"the README is {len(lines)} lines: details belong in docs/"
    long = [number for number, line in enumerate(lines, 1) if len(line) > 110]
    assert not long, f"lines over 110 characters: {long}"


@pytest.mark.parametrize("page", sorted((ROOT / "docs").glob("*.md")), ids=lambda page: page.name)
def test_the_guide_s_prose_is_wrapped(page):
    """Lines of at most 110 characters, but for a table's rows, an image and a code block's lines."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    long = [line[:40] for line in text.split("\n") if len(line) > 110 and not line.startswith(("|", "!["))]
    assert not long, f"{page.name}: lines over 110 characters: {long}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    missing = [target for target in links(page) if not (page.parent / target).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to what is not there: {missing}"
    to_headings = [
        target for target in LINK.findall(page.read_text(encoding="utf-8")) if re.fullmatch(r"[^:#]*\.md#[^#]+", target)
    ]
    astray = [
        target for target in to_headings if target.split("#")[1] not in headings(page.parent / target.split("#")[0])
    ]
    assert not astray, f"{page.relative_to(ROOT)} links to headings that are not there: {astray}"


def headings(page: Path) -> set[str]:
    """The anchors of `page`'s headings, as GitHub makes them: lower case, punctuation dropped,
    spaces as hyphens."""
    return {
        re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        for title in re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)
    }


def test_a_link_to_a_heading_is_checked_as_github_makes_its_anchor(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Top\n## Spades' computer players\n### The display, and printing\n")
    assert headings(page) == {"top", "spades-computer-players", "the-display-and-printing"}


def test_every_page_of_the_guide_is_one_click_from_the_readme():
    linked = {(ROOT / target).resolve() for target in links(ROOT / "README.md")}
    unlinked = [page.name for page in sorted((ROOT / "docs").glob("*.md")) if page.resolve() not in linked]
    assert not unlinked, f"pages of the guide the README does not link: {unlinked}"


def test_a_link_to_nowhere_is_found():
    assert LINK.findall("see [the guide](docs/nowhere.md) and [web](https://example.org)") == [
        "docs/nowhere.md",
        "https://example.org",
    ]


# --- the benchmarks page: its blocks are written by the benches -------------------------------------


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # as `python tools/bench.py` finds its neighbours
    import bench

    return bench


def test_every_section_of_the_bench_has_its_block_in_the_benchmarks_page(bench):
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for name in bench.SECTIONS:
        assert bench.written_into(page, name, "x").count("\nx\n") == 1, name


def test_every_game_section_s_bench_has_a_report_taking_its_quick_look_s_arguments(bench):
    """`tools/bench.py SECTION` calls the bench's `report()` (with its quick look's arguments under
    --quick): each is there and takes them (`tools/bench.py spades` once had no report to call)."""
    import importlib
    import inspect

    for module_name in bench.GAME_SECTIONS:
        module = importlib.import_module(module_name)
        assert callable(getattr(module, "report", None)), module_name
        if module_name in bench.QUICK_ARGUMENTS:
            inspect.signature(module.report).bind(**bench.QUICK_ARGUMENTS[module_name](module))


def test_writing_a_section_s_block_changes_that_block_alone(bench):
    opening, closing = bench.markers("display")
    other_opening, other_closing = bench.markers("printing")
    page = f"# top\n{opening}\nold figures\n{closing}\nbetween\n{other_opening}\nkept\n{other_closing}\nend\n"
    written = bench.written_into(page, "display", "new figures")
    assert written == page.replace("old figures", "new figures")
    assert bench.written_into(written, "display", "old figures") == page


@pytest.mark.parametrize("page", ["no markers", "{closing}\n{opening}\n", "{opening}\n{opening}\n{closing}\n"])
def test_a_page_without_a_whole_block_for_the_section_is_refused(bench, page):
    opening, closing = bench.markers("display")
    with pytest.raises(ValueError, match="no block for the section 'display'"):
        bench.written_into(page.format(opening=opening, closing=closing), "display", "figures")


def test_bench_write_docs_writes_the_run_s_figures_command_date_and_machine(bench, monkeypatch, tmp_path, capsys):
    page = tmp_path / "benchmarks.md"
    opening, closing = bench.markers("display")
    page.write_text(f"# Benchmarks\n{opening}\nstale\n{closing}\nafter\n", encoding="utf-8")
    monkeypatch.setattr(bench, "DOCS_PAGE", page)
    section = lambda: ["screen_rgb 1.000 ms", "frame_rgb 2.000 ms"]
    section.__doc__ = "A stand-in for the display section."
    monkeypatch.setitem(bench.SECTIONS, "display", section)
    assert bench.main(["display", "--write-docs"]) == 0
    written = page.read_text(encoding="utf-8")
    block = written.split(opening)[1].split(closing)[0]
    assert "stale" not in written and written.endswith(f"{closing}\nafter\n")
    assert "```text\nscreen_rgb 1.000 ms\nframe_rgb 2.000 ms\n```" in block
    assert re.search(
        r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `python tools/bench.py display` on .+, "
        rf"{os.cpu_count()} cores \(nproc\), load average [\d.]+ before and [\d.]+ after(, run at nice \d+)?; "
        "Python ",
        " ".join(block.split()),
    )
    assert all(len(line) <= 110 for line in block.splitlines())


def test_bench_write_docs_refuses_before_running_when_the_page_has_no_block(bench, monkeypatch, tmp_path, capsys):
    page = tmp_path / "benchmarks.md"
    page.write_text("# Benchmarks\n", encoding="utf-8")
    monkeypatch.setattr(bench, "DOCS_PAGE", page)
    ran = []
    monkeypatch.setitem(bench.SECTIONS, "display", lambda: ran.append(1) or [])
    with pytest.raises(SystemExit) as done:
        bench.main(["display", "--write-docs"])
    assert done.value.code == 2 and not ran and "no block for the section 'display'" in capsys.readouterr().err
    assert page.read_text(encoding="utf-8") == "# Benchmarks\n"


# --- every command shown runs as shown -------------------------------------------------------------
# The commands of the README and the guide: each line of their ```sh blocks (a line's `&&` parts
# each a command) and every `inline` command with an option. Each is parsed by the program's own
# command line (zxcards's whole parser, a tool's argparse) without running it; those that are cheap
# and need no window, browser, server or Fuse also run for real (slow-marked, as programs started
# as processes). The others are parsed only, for the reason `parsed_only` gives. Placeholders
# (FILE, URL, N...) stand for the example values of PLACEHOLDERS.

SHOWN = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "games").glob("*/README.md"))]
PROGRAM = r"(zxcards(-tap|-udgs)?|python3? (tools/\S+\.py|-m pytest)|xvfb-run -a python tools/\S+\.py)"
PLACEHOLDERS = {
    "FILE": "patience.tap",
    "X.tap": "patience.tap",
    "URL": "http://127.0.0.1:8048/",
    "N": "1",
    "SECTION": "display",
    "listing.bas": "games/patience/patience.bas",
}
SETUP = re.compile(r"(python3 -m venv \.venv|\. \.venv/bin/activate|pip install -e (\.|'\.\[(\w+)\]'))$")


def shown_commands(page: Path) -> list[tuple[str, str]]:
    """(command, its comment) for each command `page` shows."""
    text = page.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```", text, re.S | re.M):
        for line in re.sub(r"\\\n\s*", "", block).splitlines():  # a line continued by a backslash, joined
            command, _, comment = line.partition("  #")
            commands += [(part.strip(), comment.strip()) for part in command.split(" && ") if part.strip()]
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    for span in re.findall(r"`([^`]+)`", prose):
        span = " ".join(span.split())
        if re.match(PROGRAM + " ", span) and " -" in span:
            commands.append((span, ""))
    return commands


def words_of(command: str) -> list[str]:
    import shlex

    words = [PLACEHOLDERS.get(word, word) for word in shlex.split(command)]
    return words[:-1] if words[-1:] == ["&"] else words  # started in the background: the same command


def parsed_only(command: str) -> str | None:
    """Why `command` is only parsed here, or None when it also runs for real."""
    words = words_of(command)
    if words[0] == "xvfb-run":
        return "measures a window on an X server"
    if words[0] == "python" and words[1] != "-m":
        return f"{words[1]} runs for minutes, or needs Fuse, or writes into the project"
    if words[0] == "zxcards" and "--help" not in words:
        if "serve" in words:
            return "a server, until it is stopped (tests/test_serve.py runs it)"
        if "connect" in words:
            return "needs a server (tests/test_serve.py runs connect against one)"
        if "--headless" not in words:
            return "opens a window"
    return None


class Parsed(Exception):
    """Raised in place of running a command once its command line has parsed."""


def parse(command: str, monkeypatch) -> None:
    """`command` parsed as its program parses it, without running it: SystemExit (argparse's own
    exit, with its one line) or AssertionError if it would be refused."""
    import argparse
    import importlib

    words = words_of(command)
    if words[0] == "xvfb-run":
        words = words[2:]
    if words[0] == "zxcards":
        from games.host import cli

        argv = words[1:]
        assert cli.misplaced_option(argv) is None, f"an option before the program's name: {command}"
        args = cli.command_line().parse_args(argv)
        window_only = [name for name in cli.HEADLESS_ONLY if getattr(args, name)]
        assert args.headless or not window_only, f"--{window_only} without --headless: {command}"
        return
    original = argparse.ArgumentParser.parse_args

    def parse_and_stop(self, args=None, namespace=None):
        original(self, args, namespace)
        raise Parsed

    if words[:3] == ["python", "-m", "pytest"]:  # its options run below, collecting; here its markers
        from _pytest.mark.expression import Expression

        markers = {
            line.split(":")[0]
            for line in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
        }
        for option, value in zip(words[3:], words[4:]):
            if option == "-m":
                Expression.compile(value).evaluate(lambda name: name in markers or pytest.fail(f"no marker {name}"))
        return
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_and_stop)
    if words[0] in ("zxcards-tap", "zxcards-udgs"):
        main, argv = (
            importlib.import_module(
                "spectrum." + {"zxcards-tap": "make_tap", "zxcards-udgs": "udg_art"}[words[0]]
            ).main,
            words[1:],
        )
    else:
        assert words[0] == "python" and words[1].startswith("tools/"), f"not a command of the project: {command}"
        monkeypatch.syspath_prepend(str(ROOT / "tools"))
        main, argv = importlib.import_module(Path(words[1]).stem).main, words[2:]
    with pytest.raises(Parsed):
        main(argv)


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A folder as the project's root is to a reader: its games/ and tools/ at hand, and the tape
    that the commands load."""
    for folder in ("games", "tools"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    from spectrum import make_tap

    assert (
        make_tap.main(
            [
                "games/patience/patience.bas",
                "--name",
                "patience",
                "--line",
                "1760",
                "-o",
                str(tmp_path / "patience.tap"),
            ]
        )
        == 0
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


COMMANDS = sorted(
    {
        (page.relative_to(ROOT).as_posix(), command, comment)
        for page in SHOWN
        for command, comment in shown_commands(page)
    }
)
ids = [f"{page}: {command}" for page, command, _ in COMMANDS]


def test_the_commands_shown_are_found():
    found = {command for _, command, _ in COMMANDS}
    assert {
        "python -m pytest -m \"not slow\"",
        "zxcards testcard --headless --screenshot card.png --wav scale.wav",
        "zxcards canfield --help",
        "python tools/bench.py SECTION --write-docs",
    } <= found
    assert len(COMMANDS) > 40


@pytest.mark.parametrize(("page", "command", "comment"), COMMANDS, ids=ids)
def test_every_command_shown_parses(page, command, comment, workspace, monkeypatch, capsys):
    if command.startswith("pip install 'zxcards["):  # an extra of the project's, installed from PyPI's index
        extra = re.match(r"pip install 'zxcards\[(\w+)\]'$", command)
        assert (
            extra
            and extra[1] in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
        ), f"{page}: {command} names no extra of pyproject.toml"
        return
    if command.startswith("sudo "):
        return  # the computer's own setup (a database's role, a package): tests/test_cluster.py makes its own
    if command.startswith("haproxy "):  # the proxy's configuration, checked by HAProxy itself where it is
        import shutil
        import subprocess

        if shutil.which("haproxy") is None:
            pytest.skip("HAProxy is not installed here: its configuration is not checked")
        words = words_of(command)
        checked = subprocess.run(["haproxy", "-c", *words[1:]], cwd=ROOT, capture_output=True, text=True)
        assert checked.returncode == 0, f"{page}: {command}: {checked.stdout}{checked.stderr}"
        return
    if SETUP.match(command):
        extra = SETUP.match(command)[3]
        assert (
            extra is None
            or extra in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
        ), f"{page}: no extra {extra!r} in pyproject.toml"
        return  # the setup commands themselves are what .ci/run runs
    import shlex

    words = shlex.shlex(command, posix=False)
    words.whitespace_split = True
    unquoted = [word for word in words if word[0] not in "'\"" and re.search(r"[?*\[{]", word)]
    assert not unquoted, f"{page}: {command}: a shell expands {unquoted} (zsh refuses it): quote it"
    try:
        parse(command, monkeypatch)
    except SystemExit as done:
        assert done.code == 0 and "--help" in command, f"{page}: {command} is refused: {capsys.readouterr().err}"


RUN = {
    command: (page, comment)
    for page, command, comment in reversed(COMMANDS)  # each once, where first shown
    if not SETUP.match(command)
    and not command.startswith(("pip ", "sudo ", "haproxy "))
    and not parsed_only(command)
    and not re.search(r" -n \d", command)
}  # -n: pytest-xdist, measured, not installed


@pytest.mark.parametrize(
    ("page", "command", "comment"),
    [(page, command, comment) for command, (page, comment) in sorted(RUN.items())],
    ids=sorted(RUN),
)
def test_every_cheap_command_shown_runs_as_shown(page, command, comment, workspace):
    import subprocess
    import sys

    words = words_of(command)
    program = [str(Path(sys.executable).parent / words[0])] if words[0].startswith("zxcards") else [sys.executable]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    if words[:3] == ["python", "-m", "pytest"]:  # the suite itself: its options taken, one module collected
        words, workspace = words + ["--collect-only", "-q", "-p", "no:cacheprovider", "tests/test_docs.py"], ROOT
    done = subprocess.run(program + words[1:], cwd=workspace, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page}: {command} ended {done.returncode}: {done.stderr}"
    if comment.startswith("prints: "):
        assert comment.removeprefix("prints: ") in done.stdout, f"{page}: {command} printed {done.stdout!r}"
    for option in ("--screenshot", "--wav", "-o", "--png"):
        if option in words:
            written = workspace / words[words.index(option) + 1]
            assert written.is_file() and written.stat().st_size > 0, f"{page}: {command} wrote no {written.name}"


def test_a_wrong_command_is_found(monkeypatch, capsys):
    with pytest.raises(AssertionError, match="a shell expands"):
        test_every_command_shown_parses(
            "page", "zxcards connect http://h:1/patience?seed=5", "", None, monkeypatch, capsys
        )
    with pytest.raises(SystemExit):
        parse("zxcards patience --seed", monkeypatch)
    with pytest.raises(AssertionError, match="an option before the program's name"):
        parse("zxcards --seed 1 patience", monkeypatch)
    with pytest.raises(AssertionError, match="without --headless"):
        parse("zxcards testcard --screenshot card.png", monkeypatch)
    with pytest.raises(SystemExit):
        parse("python tools/bench.py nosuch", monkeypatch)
    with pytest.raises(SystemExit):
        parse("zxcards-tap games/patience/patience.bas --name", monkeypatch)
    assert parsed_only("zxcards patience --rom") == "opens a window"
    assert parsed_only("zxcards testcard --headless --screenshot card.png") is None
