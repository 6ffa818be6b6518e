"""Every program played by taps alone on a phone: Debian's headless Chromium with touch emulation on
a phone-sized viewport (390 x 844, has_touch, is_mobile), against the real server in-process.

Each game is tapped as a person taps: a tap (or a finger dragged, by the touch events Chromium is
sent) when the page shows the program waiting for a key and its screen still. The page's SCREEN$ is
then compared with the same game typed headless: the keys the server typed for the taps, at the
frames it typed them, replayed on a headless machine, give the same screen byte for byte (and for
Patience, whose waits are the keys', the game typed as a script). The layout is checked too: the
picture as wide as the phone, nothing scrolls, the keyboard only where a prompt wants letters.

Skipped, with the reason, when Chromium (/usr/bin/chromium) or the playwright package is missing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from served import running_server
from games.canfield import play as canfield_play
from games.canfield.deals import deck_for
from games.canfield.rules import Canfield
from games.canfield.solver import Solved, solve
from games import patience
from games.host.menu import run_program
from games.patience import rules as patience_rules
from games.patience import shuffled_pack
from games.spades import run as run_spades
from spectrum import ReportError, Spectrum
from spectrum.compare import screen_of
from spectrum.frontends import HeadlessFrontend, Press, ScriptExhausted
from spectrum.frontends.served import ServedFrontend

sys.path.insert(0, str(Path(__file__).parent))
from test_tapped_games import canfield_taps  # noqa: E402

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sync_playwright = None

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
STILL_SECONDS = 0.6  # the page awaits a key and its SCREEN$ has not changed for this long
WAIT_SECONDS = 90.0
SCREEN_DOCS = "ZXCARDS_TAP_SCREENSHOT"  # set to a folder: the phone's screenshots are saved there too
# Before the page's script: when SCREEN$ last changed, from the frame messages
WATCH = """
(() => {
  const Base = window.WebSocket;
  const watch = window.zxcardsWatch = {changedAt: performance.now()};
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", event => {
        if (typeof event.data !== "string" && new DataView(event.data).getUint16(7, true) > 0) {
          watch.changedAt = performance.now();
        }
      });
    }
  };
})();
"""
STILL = f"""() => window.zxcards && zxcards.awaitingKey && zxcards.targets
  && performance.now() - zxcardsWatch.changedAt > {STILL_SECONDS * 1000}"""


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium) for the browser tests")
    if sync_playwright is None:
        pytest.skip("the playwright package is not installed (pip install -e '.[test]') for the browser tests")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The server, and the keys each served machine was given: (frame, keys) as each press began."""
    pressed: dict[ServedFrontend, list] = {}
    present = ServedFrontend.present

    def presenting(frontend, machine):
        before = bool(machine.keys_held)
        present(frontend, machine)
        if machine.keys_held and not before:
            pressed.setdefault(frontend, []).append(Press(frozenset(machine.keys_held), at=machine.frame_count))

    ServedFrontend.present = presenting
    try:
        with running_server(data_dir=tmp_path_factory.mktemp("served-taps")) as (base, server):
            yield base, server, pressed
    finally:
        ServedFrontend.present = present


class Phone:
    """A page on a phone, tapped."""

    def __init__(self, browser, url: str):
        self.context = browser.new_context(
            viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True, device_scale_factor=2
        )
        self.page = self.context.new_page()
        self.page.add_init_script(WATCH)
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(url)
        self.touch = self.context.new_cdp_session(self.page)

    def close(self):
        self.context.close()

    def still(self, what: str = "the program to wait, its screen still") -> None:
        self.page.wait_for_function(STILL, timeout=WAIT_SECONDS * 1000)
        assert not self.errors, self.errors

    def targets(self) -> dict:
        return {target["name"]: target for target in self.page.evaluate("zxcards.targets.targets")}

    def wait_for_target(self, name: str) -> dict:
        self.page.wait_for_function(
            f"""() => window.zxcards && zxcards.targets
            && zxcards.targets.targets.some(target => target.name === {name!r})""",
            timeout=WAIT_SECONDS * 1000,
        )
        return self.targets()[name]

    def point(self, row: int, col: int) -> tuple[float, float]:
        box = self.page.locator("#screen").bounding_box()
        x = box["x"] + (32 + 8 * col + 4) * box["width"] / 320
        y = box["y"] + (24 + 8 * row + 4) * box["height"] / 240
        assert 0 <= x < PHONE["width"] and 0 <= y < PHONE["height"], (row, col, x, y)
        return x, y

    def middle(self, target: dict) -> tuple[int, int]:
        return target["row"] + target["rows"] // 2, target["col"] + target["cols"] // 2

    def tap(self, name_or_cell) -> None:
        """A tap on a target by name (on the screen, or its button beside it) or on a cell."""
        if isinstance(name_or_cell, str):
            target = self.wait_for_target(name_or_cell)
            if "row" not in target:
                self.page.locator("#choices button", has_text=name_or_cell).first.tap()
                return
            name_or_cell = self.middle(target)
        self.page.touchscreen.tap(*self.point(*name_or_cell))

    def drag(self, start: str, end: str) -> None:
        """A finger put on one target and lifted on another."""
        first, last = self.point(*self.middle(self.targets()[start])), self.point(*self.middle(self.targets()[end]))
        self.touch.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": first[0], "y": first[1]}]}
        )
        for step in range(1, 6):
            x, y = (first[0] + (last[0] - first[0]) * step / 5, first[1] + (last[1] - first[1]) * step / 5)
            self.touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        self.touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def screen(self) -> bytes:
        return bytes(self.page.evaluate("Array.from(zxcards.screen)"))

    def shot(self, name: str) -> None:
        import os

        if os.environ.get(SCREEN_DOCS):
            self.page.screenshot(path=str(Path(os.environ[SCREEN_DOCS]) / f"{name}.png"))


def session_frontend(server, known: set):
    deadline = time.monotonic() + 10
    while not (new := set(server.sessions) - known):
        assert time.monotonic() < deadline, "no session started"
        time.sleep(0.01)
    return new.pop().frontend


def replayed(program, presses) -> bytes:
    """SCREEN$ after the same keys typed at the same frames on a headless machine."""
    machine = Spectrum(HeadlessFrontend(presses))
    try:
        program(machine)
    except (ScriptExhausted, ReportError):  # the end of the keys; a program's STOP, shown as served
        pass
    return screen_of(machine)


def assert_layout(phone: Phone) -> None:
    """The picture as wide as the phone, nothing to scroll, no keyboard where no letters are wanted."""
    page = phone.page
    box = page.locator("#picture").bounding_box()
    assert box["x"] == 0 and box["width"] == PHONE["width"], box
    assert page.evaluate("document.documentElement.scrollHeight") <= PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#keyboard").is_hidden()


def test_patience_by_taps_alone_to_its_end_on_a_phone(browser, served):
    base, server, pressed = served
    seed = 1
    line = patience_rules.winning_line(shuffled_pack(seed).decode("latin-1"))
    known = set(server.sessions)
    phone = Phone(browser, f"{base}patience?seed={seed}&fast")
    try:
        frontend = session_frontend(server, known)
        phone.wait_for_target("deal")
        phone.still()
        assert_layout(phone)
        phone.tap((12, 16))  # anywhere: "Press any key to deal"
        for number, entry in enumerate(line):
            phone.wait_for_target("new")
            phone.still()
            if number == 3:
                phone.shot("patience-phone")
            cards = {"9": ["new"], "0": ["resign"]}.get(entry, list(entry))
            for card in cards:
                phone.tap(card)
        phone.wait_for_target("No more")
        phone.still()
        phone.tap("No more")
        phone.page.wait_for_function("zxcards.targets.targets.length === 0", timeout=WAIT_SECONDS * 1000)
        phone.still()  # "Thanks for playing.", and the STOP report under it
        tapped = phone.screen()
    finally:
        phone.close()
    game = lambda machine: run_program(machine, patience, seed=seed, fast=True)  # noqa: E731
    typed = ["ENTER", *(key for entry in line for key in (*entry, "ENTER")), "n"]
    assert [sorted(press.keys) for press in pressed[frontend]] == [[key] for key in typed]
    assert tapped == replayed(game, typed) == replayed(game, pressed[frontend])


def test_a_canfield_deal_by_taps_and_drags_on_a_phone(browser, served):
    base, server, pressed = served
    deal = 1
    line = solve(Canfield(deck_for(deal)).position, budget=5_000)
    assert line.outcome is Solved.WON
    for length in range(1, len(line.line) + 1):  # enough of the line for each kind of move
        gestures, kinds = canfield_taps(deal, list(line.line[:length]))
        if kinds["home"] >= 2 and kinds["two taps"] and kinds["drag"] and kinds["turn"]:
            break
    known = set(server.sessions)
    phone = Phone(browser, f"{base}canfield?deal={deal}")
    try:
        frontend = session_frontend(server, known)
        for number, gesture in enumerate(gestures):
            phone.wait_for_target("pack")
            phone.still()
            if number == 0:
                assert_layout(phone)
            if gesture.to is not None:
                phone.drag(gesture.at, gesture.to)
            else:
                phone.tap(gesture.at)
            if number == 1:
                phone.still()
                phone.shot("canfield-phone")
        keys = [key for step in line.line[:length] for key in step]
        deadline = time.monotonic() + WAIT_SECONDS
        while len(pressed.get(frontend, [])) < len(keys):  # the last gestures typed by the server
            assert time.monotonic() < deadline, "the server did not type every move"
            time.sleep(0.05)
        time.sleep(0.2)
        phone.still()
        tapped = phone.screen()
    finally:
        phone.close()
    game = lambda machine: canfield_play.run(machine, deal=deal)  # noqa: E731
    assert [sorted(press.keys)[0] for press in pressed[frontend]] == keys
    assert tapped == replayed(game, keys) == replayed(game, pressed[frontend])


@pytest.mark.parametrize("full", [False, True], ids=["a hand", "the full game's bid and a hand"])
def test_spades_by_taps_alone_on_a_phone(browser, served, full, tmp_path):
    base, server, pressed = served
    known = set(server.sessions)
    phone = Phone(browser, f"{base}spades?seed=3&level=rules" + ("&full&new" if full else ""))
    cards = 0
    try:
        frontend = session_frontend(server, known)
        if full:
            phone.wait_for_target("3")
            phone.still()
            assert_layout(phone)
            phone.shot("spades-bid-phone")
            phone.tap("3")
        while cards < 13:
            phone.page.wait_for_function(
                """() => zxcards.targets && zxcards.awaitingKey
                && zxcards.picked.some(name => name.length === 2)""",
                timeout=WAIT_SECONDS * 1000,
            )
            phone.still()
            raised = next(name for name in phone.page.evaluate("zxcards.picked") if len(name) == 2)
            phone.tap(raised)
            cards += 1
            phone.page.wait_for_function(
                f"""() => !zxcards.targets.targets.some(target => target.name === {raised!r})""",
                timeout=WAIT_SECONDS * 1000,
            )
        phone.wait_for_target("Next hand")
        phone.still()
        tapped = phone.screen()
    finally:
        phone.close()
    presses = pressed[frontend]
    assert len(presses) == 2 * 13 + 2 * full  # each card its rank and suit; the bid its digit and ENTER
    kept = dict(data_dir=tmp_path, new_game=True) if full else {}
    game = lambda machine: run_spades(machine, seed=3, level="rules", full_rules=full, **kept)  # noqa: E731
    assert tapped == replayed(game, presses)


def test_the_menu_is_tapped_and_the_keyboard_comes_only_for_a_name(browser, served):
    base, server, _ = served
    phone = Phone(browser, base)
    try:
        phone.wait_for_target("Canfield")
        phone.still()
        assert_layout(phone)
        phone.tap("Canfield")
        phone.page.wait_for_function("zxcards.targets && zxcards.targets.letters", timeout=WAIT_SECONDS * 1000)
        assert phone.page.locator("#keyboard").is_visible()  # "Your name?": the keys come up
        phone.page.locator("#touch").tap()
        assert phone.page.locator("#keyboard").is_hidden()  # and go when asked
        phone.page.locator("#esc").tap()  # no Escape key on a phone: its button, back to the menu
        phone.wait_for_target("Canfield")
        phone.still()
        assert phone.page.locator("#keyboard").is_hidden()
    finally:
        phone.close()
