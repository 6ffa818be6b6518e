"""The README is a front page a newcomer reads in two minutes, and every page of the guide is one
click from it, with no link to nowhere."""

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
