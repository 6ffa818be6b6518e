"""The README is a front page a newcomer reads in two minutes, and every page of the guide is one
click from it, with no link to nowhere."""

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "games").glob("*/README.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def links(page: Path) -> list[str]:
    """The targets of the Markdown links of `page` that point into the project (not the web, not
    an anchor of the page itself)."""
    return [target.split("#")[0] for target in LINK.findall(page.read_text(encoding="utf-8"))
            if not re.match(r"(https?:|mailto:|#)", target)]


def test_the_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 150, f"the README is {len(lines)} lines: details belong in docs/"
    long = [number for number, line in enumerate(lines, 1) if len(line) > 110]
    assert not long, f"lines over 110 characters: {long}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    missing = [target for target in links(page) if not (page.parent / target).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to what is not there: {missing}"


def test_every_page_of_the_guide_is_one_click_from_the_readme():
    linked = {(ROOT / target).resolve() for target in links(ROOT / "README.md")}
    unlinked = [page.name for page in sorted((ROOT / "docs").glob("*.md")) if page.resolve() not in linked]
    assert not unlinked, f"pages of the guide the README does not link: {unlinked}"


def test_a_link_to_nowhere_is_found():
    assert LINK.findall("see [the guide](docs/nowhere.md) and [web](https://example.org)") == [
        "docs/nowhere.md", "https://example.org"]


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
    assert re.search(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC by `python tools/bench.py display` on .+, "
                     rf"{os.cpu_count()} cores \(nproc\), load average [\d.]+ before and [\d.]+ after; Python ", block)


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
