"""`zxcards serve`'s page in a real browser: Debian's headless Chromium driven by Playwright's sync
API, against the real server in-process (tests/served.py).

The page must show what the headless front end shows after the same keys, sound as the WAV front
end renders, send the keys the window's map gives, free its machine when its tab is closed, and
say when it can't connect. A served Spectrum runs in real time (50 frames a second), so the long
scripts (Patience deals 17 s after the key: the pack made and shuffled, then dealt) play side by
side: one module fixture opens every page at once and steps a generator for each in turn, each typing its keys as the headless front end does,
when the program waits for one.

Skipped, with the reason, when Chromium (/usr/bin/chromium) or the playwright package is missing.
"""

from __future__ import annotations

import base64
import os
import re
import threading
import time
import urllib.request
import wave
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from served import running_server

from games.host import PROGRAMS, cli, load, menu, session
from spectrum import Spectrum, render
from spectrum.frontends import HeadlessFrontend, Press, ScriptExhausted
from spectrum.hardware import FRAME_SECONDS
from spectrum.frontends.served import ServedFrontend
from spectrum.sound import SAMPLE_RATE, frame_start_sample

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra not installed
    sync_playwright = None

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1000, "height": 820}  # the picture shown at 3x: 960 x 720
SHOWN_SCALE = 3
HOLD_FRAMES = 4  # a key held this many of the server's frames (the headless front end holds 2)
GAP_FRAMES = 6  # then all keys up at least this long (the headless front end: 4)
SETTLED_SECONDS = 1.5  # the page awaits a key and its screen has not changed for this long
HEADLESS_SETTLED_FRAMES = 25  # the headless run, its script used up, idles until its picture is this still
WAIT_SECONDS = 60.0  # the longest any one condition may take (Patience deals 17 s after the key)
DOCS_SCREENSHOT = "ZXCARDS_DOCS_SCREENSHOT"  # set to a path: the Patience page's screenshot is saved there too

# Before the page's own script: every frame message noted (its frame, whether SCREEN$ or the
# border changed) without touching what the page does with it.
WATCH_FRAMES = """
(() => {
  const Base = window.WebSocket;
  const watch = window.zxcardsWatch = {firstFrame: null, changedAt: -1, border: null};
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", event => {
        if (typeof event.data === "string") return;
        const view = new DataView(event.data), now = performance.now();
        if (watch.firstFrame === null) watch.firstFrame = view.getUint32(1, true);
        if (view.getUint16(7, true) > 0 || view.getUint8(6) !== watch.border) watch.changedAt = now;
        watch.border = view.getUint8(6);
      });
    }
  };
})();
"""
STATE = "() => ({awaiting: zxcards.awaitingKey, frame: zxcards.frame, now: performance.now(), ...window.zxcardsWatch, ended: zxcards.ended})"
READ_CANVAS = """() => {
  const canvas = document.getElementById("screen");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let text = "";
  for (let at = 0; at < data.length; at += 0x8000) text += String.fromCharCode.apply(null, data.subarray(at, at + 0x8000));
  return {width: canvas.width, height: canvas.height, flash: zxcards.flashPhase, frame: zxcards.frame, pixels: btoa(text)};
}"""
READ_RECORDED = """() => {
  const bytes = new Uint8Array(zxcards.recorded.reduce((total, chunk) => total + chunk.length, 0) * 2);
  let at = 0;
  for (const chunk of zxcards.recorded) { bytes.set(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length * 2), at); at += chunk.length * 2; }
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return {frame: zxcards.frame, samples: btoa(text)};
}"""

# Playwright's key names, and the Spectrum keys the headless script presses for each.
SPECTRUM_KEYS = {
    "Space": {"SPACE"},
    "Enter": {"ENTER"},
    "ArrowRight": {"CAPS", "8"},
    **{str(digit): {str(digit)} for digit in range(10)},
    **{letter: {letter} for letter in "abcdefghijklmnopqrstuvwxyz"},
}


@dataclass(frozen=True)
class Case:
    """A page, the program and options it names, and the keys typed there."""

    path: str
    program: str | None  # None: the menu
    options: dict = field(default_factory=dict)
    keys: tuple[str, ...] = ()

    def presses(self) -> list[Press]:
        return [Press(frozenset(SPECTRUM_KEYS[key])) for key in self.keys]


CASES = {
    "menu": Case("/", None, {}, ("4",)),  # the menu, then the test card from it
    "patience": Case("/patience?seed=5#record", "patience", {"seed": 5}, ("Space", "1", "4", "Enter")),  # A + 10
    "canfield": Case("/canfield?practice&deal=7", "canfield", {"practice": True, "deal": 7}, ("p", "h")),
    "spades": Case("/spades?seed=3&level=rules", "spades", {"seed": 3, "level": "rules"}, ("Enter", "ArrowRight")),
    "patience-rom": Case("/patience?rom&seed=1", "patience", {"seed": 1, "rom": True}, ("Space", "3", "6", "Enter")),
}


# --- the browser, the server ------------------------------------------------------------------------


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
def server(tmp_path_factory):
    """The real server, its players' data in a folder of the test's own."""
    with running_server(data_dir=tmp_path_factory.mktemp("served-data")) as running:
        yield running


def new_page(browser, url: str | None = None):
    page = browser.new_context(bypass_csp=True, viewport=VIEWPORT).new_page()
    page.add_init_script(WATCH_FRAMES)
    if url:
        page.goto(url)
    return page


def session_of(server, known: set, what: str):
    """The one session that is new since `known`, once it is there."""
    deadline = time.monotonic() + 10
    while not (new := set(server.sessions) - known):
        assert time.monotonic() < deadline, f"no session started for {what}"
        time.sleep(0.01)
    assert len(new) == 1
    return new.pop()


def wait_for(condition, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)
    return value


# --- typing on pages side by side ------------------------------------------------------------------


def until(condition, what: str, timeout: float = WAIT_SECONDS):
    """A generator step: yields (the runner goes on with the other pages) until `condition()`."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        yield


class Receipts:
    """When each served front end took each of its terminal's messages: how many frames it had
    read the keys for then (ServedFrontend.present and receive wrapped). A message taken when the
    keys of frame N were read last is held from frame N + 1 on, and what the program did about
    it is sent with frame N + 2."""

    def __init__(self, monkeypatch):
        self.read: dict[ServedFrontend, int] = {}  # frames whose keys were read
        self.taken: dict[ServedFrontend, list[int]] = {}
        receive, present = ServedFrontend.receive, ServedFrontend.present

        def receiving(frontend, message):
            self.taken.setdefault(frontend, []).append(self.read.get(frontend, 0))
            receive(frontend, message)

        def presenting(frontend, machine):
            present(frontend, machine)
            self.read[frontend] = frontend.frames_presented

        monkeypatch.setattr(ServedFrontend, "receive", receiving)
        monkeypatch.setattr(ServedFrontend, "present", presenting)

    def of(self, frontend) -> list[int]:
        return self.taken.get(frontend, [])


def type_keys(page, session, receipts: Receipts, keys, *, at_first_wait=None):
    """Type `keys` as the headless front end does: each when the page says the program waits for
    a key, held HOLD_FRAMES of the server's frames from when the server took it, then let go for
    GAP_FRAMES at least; at the end, the page awaiting a key again with its screen still for
    SETTLED_SECONDS. Returns the canvas as read then. `at_first_wait` (a generator function) runs
    when the program first waits.

    The page hears of a key wait only with a frame that changed something (or the FLASH phase):
    its awaitingKey is believed once it comes with a frame from after the program had the last
    key (`Receipts`)."""
    frontend = session.frontend
    frames = lambda: receipts.read.get(frontend, 0)
    fresh_from = 0  # the first frame whose message tells of the program after the last key

    def awaiting() -> bool:
        now = page.evaluate(STATE)
        if now["ended"]:
            raise AssertionError(f"the session ended: {now['ended']}")
        return now["awaiting"] and now["frame"] >= fresh_from

    def taken(action: str, key: str):
        """The server's frame count when it took the message `action` sent."""
        before = len(receipts.of(frontend))
        getattr(page.keyboard, action)(key)
        yield from until(lambda: len(receipts.of(frontend)) > before, f"the server to take key {action} {key}", 10)
        return receipts.of(frontend)[before]

    for number, key in enumerate(keys):
        yield from until(awaiting, f"the program to wait for key {number + 1} ({key}) at {page.url}")
        if number == 0 and at_first_wait:
            yield from at_first_wait()
        down = yield from taken("down", key)
        fresh_from = down + 2
        yield from until(lambda: frames() >= down + HOLD_FRAMES, "frames with the key held")
        up = yield from taken("up", key)
        yield from until(lambda: frames() >= up + GAP_FRAMES, "frames with the keys up")

    def settled() -> bool:
        if not awaiting():
            return False
        now = page.evaluate(STATE)
        return now["now"] - now["changedAt"] >= SETTLED_SECONDS * 1000

    yield from until(settled, f"the screen to settle at {page.url}")
    return page.evaluate(READ_CANVAS)


def run_side_by_side(jobs: dict):
    """Step every generator in turn until each has returned: {name: its value, or its exception}."""
    results, running = {}, dict(jobs)
    while running:
        for name, job in list(running.items()):
            try:
                next(job)
            except StopIteration as done:
                results[name] = done.value
                del running[name]
            except Exception as error:  # noqa: BLE001 - the case's own test reports it
                results[name] = error
                del running[name]
        time.sleep(0.01)
    return results


def canvas_rgb(read: dict) -> np.ndarray:
    pixels = np.frombuffer(base64.b64decode(read["pixels"]), np.uint8).reshape(read["height"], read["width"], 4)
    assert (pixels[..., 3] == 255).all(), "the canvas has pixels that are not opaque"
    return pixels[..., :3]


@dataclass
class Played:
    """What a page showed (and, for Patience, the sound it recorded before its first key)."""

    canvas: dict | None = None
    error: Exception | None = None
    sound: dict | None = None
    screenshot: Path | None = None


def cases_wanted(request) -> set[str]:
    """The cases the selected tests need (a -m 'not rom' run plays no ROM)."""
    wanted = set()
    for item in request.session.items:
        if item.module is request.module and hasattr(item, "callspec") and "case" in item.callspec.params:
            wanted.add(item.callspec.params["case"])
        elif item.module is request.module and item.originalname in (
            "test_the_page_sounds_as_the_wav_front_end",
            "test_a_screenshot_of_the_page_shows_the_picture",
        ):
            wanted.add("patience")
    return wanted


@pytest.fixture(scope="module")
def played(request, browser, server, tmp_path_factory):
    """Every page wanted, played side by side: {case: Played}."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        return play_side_by_side(request, browser, server, tmp_path_factory, Receipts(monkeypatch))


def play_side_by_side(request, browser, server, tmp_path_factory, receipts: Receipts) -> dict:
    base, live = server
    folder = tmp_path_factory.mktemp("played")
    pages, jobs, sessions, results = {}, {}, [], {name: Played() for name in CASES}
    for name in [name for name in CASES if name in cases_wanted(request)]:
        case = CASES[name]
        known = set(live.sessions)
        page = pages[name] = new_page(browser, base + case.path.lstrip("/"))
        session = session_of(live, known, case.path)
        assert session.target.program == case.program
        sessions.append(session)

        def sound_snapshot(page=page, result=results[name]):
            result.sound = page.evaluate(READ_RECORDED)
            result.sound["firstFrame"] = page.evaluate("zxcardsWatch.firstFrame")
            yield

        jobs[name] = type_keys(
            page, session, receipts, case.keys, at_first_wait=sound_snapshot if "#record" in case.path else None
        )
    for name, outcome in run_side_by_side(jobs).items():
        if isinstance(outcome, Exception):
            results[name].error = outcome
        else:
            results[name].canvas = outcome
    if "patience" in pages and results["patience"].canvas:
        shot = results["patience"].screenshot = folder / "patience-page.png"
        pages["patience"].screenshot(path=str(shot))
        if os.environ.get(DOCS_SCREENSHOT):  # as a desktop shows it: the on-screen keys hidden (see below)
            pages["patience"].add_style_tag(content="#keyboard[hidden] { display: none; }")
            pages["patience"].screenshot(path=os.environ[DOCS_SCREENSHOT])
    for page in pages.values():
        page.context.close()
    wait_for(lambda: not set(sessions) & live.sessions, "the played pages' sessions to end")
    return results


# --- the headless front end's picture --------------------------------------------------------------


class SettlingHeadless(HeadlessFrontend):
    """The headless front end, except that when its script is used up at a key wait the program
    idles on in real time, no key held, until its picture has been still for
    HEADLESS_SETTLED_FRAMES frames (what Canfield's background search finds comes to the screen
    so) before ScriptExhausted ends it. The page's picture is read when it is as still."""

    def __init__(self, presses):
        super().__init__(presses)
        self._idle_picture, self._still = None, 0

    def present(self, machine) -> None:
        if self.presses or self.pressing or not machine.awaiting_key:
            super().present(machine)
            return
        self.frames_presented += 1
        self.shown = machine
        machine.keys_held = set()
        picture = render.picture(machine)[:2]  # SCREEN$ and the border: not the FLASH phase
        if picture != self._idle_picture:
            self._idle_picture, self._still = picture, 0
        self._still += 1
        if self._still >= HEADLESS_SETTLED_FRAMES:
            raise ScriptExhausted("the script is used up and the picture is still")
        time.sleep(FRAME_SECONDS)


def headless_screen(case: Case):
    """The machine the headless front end showed last after the case's keys (none of the cases
    keeps a player's data: Canfield's practice, Spades' seed game)."""
    frontend = SettlingHeadless(case.presses())
    machine = Spectrum(frontend)
    session.start_frames_from_host_clock(machine)
    try:
        if case.program is None:
            menu.run(machine, [load(name) for name in PROGRAMS])
        else:
            menu.run_program(machine, load(case.program), **case.options)
    except ScriptExhausted:
        pass
    else:
        pytest.fail(f"{case.path}: the program ended before its script was used up")
    return frontend.shown


def expected_frame(shown, flash_phase: bool) -> np.ndarray:
    return render.frame_rgb(shown.memory, flash_phase, shown.border)


# --- 1. the picture ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", [name if name != "patience-rom" else pytest.param(name, marks=pytest.mark.rom) for name in CASES]
)
def test_the_canvas_shows_what_the_headless_front_end_does_after_the_same_keys(played, case, tmp_path):
    result = played[case]
    if result.error:
        raise result.error
    canvas = canvas_rgb(result.canvas)
    assert canvas.shape == (render.FRAME_HEIGHT, render.FRAME_WIDTH, 3)
    shown = headless_screen(CASES[case])
    expected = expected_frame(shown, result.canvas["flash"])
    differ = np.argwhere((canvas != expected).any(axis=2))
    if len(differ):
        render.write_png(tmp_path / "page.png", canvas)
        render.write_png(tmp_path / "headless.png", expected)
    assert not len(differ), (
        f"{len(differ)} pixels differ, the first at (y, x) {tuple(differ[0])}: see {tmp_path}/page.png and headless.png"
    )
    assert len(np.unique(canvas.reshape(-1, 3), axis=0)) >= 3  # a picture, not a blank


# --- 2. the sound -----------------------------------------------------------------------------------


def wav_samples(path: Path) -> np.ndarray:
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, SAMPLE_RATE)
        return np.frombuffer(wav.readframes(wav.getnframes()), "<i2").astype(np.int32)


def recorded_samples(sound: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(sound["samples"]), "<i2").astype(np.int32)


def assert_sounds_alike(recorded: np.ndarray, wav: np.ndarray, last_frame: int) -> dict:
    """The page's recording (int16 at 44.1 kHz from frame 0, to the end of frame `last_frame` - 2,
    the frame the page had when it was read less SOUND_LATENCY) and the WAV (from frame 0 to its
    last sound): sample for sample within 1 (rounding: Math.round against numpy's round)."""
    assert len(recorded) == frame_start_sample(last_frame - 1), "the page renders every frame to the last but one"
    assert len(wav) <= len(recorded), "the page has not recorded all of the WAV's sound"
    difference = np.abs(recorded[: len(wav)] - wav)
    assert difference.max() <= 1, f"sample {int(difference.argmax())} differs by {int(difference.max())}"
    assert not recorded[len(wav) :].any(), "the page's recording goes on sounding after the WAV ends"
    return {"compared": len(wav), "differing": int((difference > 0).sum()), "max": int(difference.max())}


def test_the_page_sounds_as_the_wav_front_end(played, tmp_path):
    """Patience's title types itself with a tick a character before its first key wait: the page
    (sound off, #record) renders the speaker's steps from frame 0 as the WAV front end does."""
    result = played["patience"]
    if result.sound is None:
        raise result.error or AssertionError("the Patience page was not played")
    wav_path = tmp_path / "patience.wav"
    assert cli.main(["patience", "--seed", "5", "--headless", "--wav", str(wav_path)]) == 0
    wav = wav_samples(wav_path)
    assert result.sound["firstFrame"] == 1  # the first frame sent is frame 1: the machine counts from 0
    assert wav.any() and len(wav) > 18 * SAMPLE_RATE  # the ticks go on for 19 s
    compared = assert_sounds_alike(recorded_samples(result.sound), wav, result.sound["frame"])
    # the page had only just been told of the key wait: silence from the WAV's end to that frame
    assert frame_start_sample(result.sound["frame"] - 1) - len(wav) < frame_start_sample(20), compared


def test_a_beep_before_the_first_frame_is_heard_from_frame_0(browser, server, tmp_path):
    """The test card plays its scale from frame 0, before the first frame is sent: the page
    records it from its first sample, as the WAV has it."""
    base, live = server
    page = new_page(browser, base + "testcard#record")
    try:
        page.wait_for_function("zxcards.awaitingKey && zxcards.frame >= 82", timeout=20_000)
        sound = page.evaluate(READ_RECORDED)
    finally:
        page.context.close()
    wav_path = tmp_path / "testcard.wav"
    assert cli.main(["testcard", "--headless", "--wav", str(wav_path)]) == 0
    wav = wav_samples(wav_path)
    assert wav[:100].any(), "the test card's scale starts at once"
    assert_sounds_alike(recorded_samples(sound), wav, sound["frame"])


STRIPES = """() => {
  const cells = zxcards.borderCells;
  // a frame of the pilot tone's stripes: red and cyan, many times over, one stepping mid-line in the border
  if (!cells || !cells.includes(2) || cells.filter((colour, at) => at && colour !== cells[at - 1]).length < 10) return null;
  const inBorder = (y, x) => y < 24 || y >= 216 || x < 4 || x >= 36;
  let steps = false;
  for (let at = 1; at < cells.length; at++) {
    const y = Math.floor(at / 40), x = at % 40;
    steps = steps || (x > 0 && cells[at] !== cells[at - 1] && inBorder(y, x) && inBorder(y, x - 1));
  }
  if (!steps) return null;
  const canvas = document.getElementById("screen");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  return {picture: Array.from(data), cells: Array.from(cells)};
}"""


def test_the_page_draws_the_tape_loaders_stripes_where_the_beam_was(browser, server):
    """Patience on the ROM loads from its tape: in the pilot tone the page's border is striped red
    and cyan, each cell of 8 pixels in the colour the frame gave it, stepping mid-line."""
    base, _ = server
    page = new_page(browser, base + "patience?rom")
    try:
        read = page.wait_for_function(STRIPES, timeout=20_000).json_value()
    finally:
        page.context.close()
    cells = np.array(read["cells"], np.uint8).reshape(render.FRAME_HEIGHT, render.BORDER_COLUMNS)
    assert set(cells.flat) == {2, 5}
    picture = np.array(read["picture"], np.uint8).reshape(render.FRAME_HEIGHT, render.FRAME_WIDTH, 4)[:, :, :3]
    border = np.ones((render.FRAME_HEIGHT, render.FRAME_WIDTH), bool)
    border[render.BORDER_TOP : -render.BORDER_BOTTOM, render.BORDER_LEFT : -render.BORDER_RIGHT] = False
    assert (picture[border] == np.repeat(render.PALETTE[cells], 8, axis=1)[border]).all()
    in_border = border[:, ::8]
    assert any(len(set(line[shown])) == 2 for line, shown in zip(cells, in_border))  # the step mid-line


# --- 3. the keys ------------------------------------------------------------------------------------


@pytest.fixture
def received(monkeypatch):
    """Every message the served front ends take from their terminals: (front end, message)."""
    taken = []
    take = ServedFrontend.receive

    def noting(self, message):
        taken.append((self, message))
        take(self, message)

    monkeypatch.setattr(ServedFrontend, "receive", noting)
    return taken


def window_keys(pygame_key: str, text: str) -> frozenset[str]:
    """What the window holds for a host key that types `text`."""
    import pygame

    from spectrum.frontends.window import spectrum_keys

    return spectrum_keys(getattr(pygame, pygame_key), text)[0]


def test_keys_typed_on_the_page_reach_the_machine_as_in_the_window(browser, server, received):
    base, live = server
    known = set(live.sessions)
    page = new_page(browser, base)  # the menu: only 1-4 and Esc do anything there
    try:
        session = session_of(live, known, "the menu")
        page.wait_for_function("zxcards.awaitingKey")
        mine = lambda: [message for frontend, message in received if frontend is session.frontend]

        def sent(*actions) -> list:
            """Each action (("down", key) or ("up", key)) and what the server took from it; then
            two frames (the keys let go of since the last frame are still held for the next: Space
            up and Backspace down within one would be CAPS+SPACE, BREAK)."""
            taken = []
            for action, key in actions:
                before = len(mine())
                getattr(page.keyboard, action)(key)
                wait_for(lambda: len(mine()) > before, f"a message for {action} {key}", 5)
                taken += [message.held for message in mine()[before:]]
                at = session.frontend.frames_presented
                wait_for(lambda: session.frontend.frames_presented >= at + 2, "two frames")
            return taken

        none = frozenset()
        caps, symbol = window_keys("K_LSHIFT", ""), window_keys("K_LCTRL", "")
        assert (caps, symbol, window_keys("K_LALT", "")) == ({"CAPS"}, {"SYMBOL"}, {"SYMBOL"})
        single = [
            ("a", "K_a", "a"),
            ("Digit7", "K_7", "7"),
            ("Enter", "K_RETURN", "\r"),
            ("Space", "K_SPACE", " "),
            ("Backspace", "K_BACKSPACE", "\b"),
            ("ArrowLeft", "K_LEFT", ""),
            ("ArrowDown", "K_DOWN", ""),
            ("ArrowUp", "K_UP", ""),
            ("ArrowRight", "K_RIGHT", ""),
            ("Control", "K_LCTRL", ""),
            ("Alt", "K_LALT", ""),
            ("Shift", "K_LSHIFT", ""),
        ]
        for key, pygame_key, text in single:
            assert sent(("down", key), ("up", key)) == [window_keys(pygame_key, text), none], key
        # Shift and a letter: CAPS and the letter; Ctrl and a letter: SYMBOL and the letter
        assert sent(("down", "Shift"), ("down", "KeyA"), ("up", "KeyA"), ("up", "Shift")) == [
            caps,
            caps | window_keys("K_a", "A"),
            caps,
            none,
        ]
        assert sent(("down", "Control"), ("down", "KeyZ"), ("up", "KeyZ"), ("up", "Control")) == [
            symbol,
            symbol | window_keys("K_z", "\x1a"),
            symbol,
            none,
        ]
        # '"' and '+' are typed the Spectrum way, and the Shift that made them is no CAPS meanwhile
        quote, plus = window_keys("K_QUOTE", '"'), window_keys("K_EQUALS", "+")
        assert (quote, plus) == ({"SYMBOL", "p"}, {"SYMBOL", "k"})
        assert sent(("down", "Shift"), ("down", "Quote"), ("up", "Quote"), ("up", "Shift")) == [caps, quote, caps, none]
        assert sent(("down", "Shift"), ("down", "Equal"), ("up", "Equal"), ("up", "Shift")) == [caps, plus, caps, none]
        # two keys held together, let go of in either order
        assert sent(("down", "KeyQ"), ("down", "KeyW"), ("up", "KeyQ"), ("up", "KeyW")) == [
            {"q"},
            {"q", "w"},
            {"w"},
            none,
        ]
        assert all(message.leave is False for message in mine())

        # keys held when the page loses the focus (another tab to the front) are let go of at once
        assert sent(("down", "Shift"), ("down", "KeyX")) == [caps, caps | {"x"}]
        page.context.new_cdp_session(page).send("Emulation.setFocusEmulationEnabled", {"enabled": False})
        before = len(mine())
        other = page.context.new_page()
        other.bring_to_front()
        wait_for(lambda: len(mine()) > before, "a message when the page loses the focus", 5)
        assert [message.held for message in mine()[before:]] == [none]
        page.keyboard.up("KeyX")
        page.keyboard.up("Shift")  # their keyups come to a page that has let them go already
        time.sleep(0.3)
        assert len(mine()) == before + 1
        other.close()
        page.bring_to_front()

        # Escape is the host's leave key: the menu ends, and with it the session
        before = len(mine())
        page.keyboard.press("Escape")
        wait_for(lambda: len(mine()) > before, "a message for Escape", 5)
        assert [(message.leave, message.held) for message in mine()[before:]] == [(True, None)]
        page.wait_for_function("zxcards.ended !== null", timeout=10_000)
        assert page.locator("#notice").is_visible()
        wait_for(lambda: session not in live.sessions, "the session to end after Escape")
    finally:
        page.context.close()


# --- 4. a tab closed --------------------------------------------------------------------------------


def test_a_tab_closed_frees_its_machine(browser, tmp_path):
    with running_server(data_dir=tmp_path) as (base, fresh):
        page = new_page(browser, base + "canfield?practice&deal=7")
        session = wait_for(lambda: next(iter(fresh.sessions), None), "a session for the page")
        page.wait_for_function("zxcards.awaitingKey")
        assert len(fresh.sessions) == 1 and session.is_alive()
        page.context.close()
        wait_for(lambda: not fresh.sessions, "the session to end once its tab is closed", 5)
        session.join(5)
        assert not session.is_alive() and session not in threading.enumerate()


# --- 5. no connection -------------------------------------------------------------------------------


def test_a_page_that_can_t_connect_says_so(browser, tmp_path):
    """The page and its files as the server sent them, then the server gone: its WebSocket
    can't connect, and the page says so where the picture would be."""
    with running_server(data_dir=tmp_path) as (base, _):
        files = {}
        for path in ("patience?seed=5", "zxcards.js", "zxcards.css"):
            with urllib.request.urlopen(base + path) as reply:
                files[path.partition("?")[0]] = (reply.headers["Content-Type"], reply.read())
    page = new_page(browser)
    try:
        page.route(
            base + "**",
            lambda route: route.fulfill(
                status=200,
                content_type=files[route.request.url[len(base) :].partition("?")[0]][0],
                body=files[route.request.url[len(base) :].partition("?")[0]][1],
            ),
        )
        page.goto(base + "patience?seed=5")
        notice = page.locator("#notice")
        notice.wait_for(state="visible", timeout=10_000)
        assert "No WebSocket connection to zxcards could be made" in notice.inner_text()
        assert page.evaluate("[zxcards.open, zxcards.framesReceived]") == [False, 0]
    finally:
        page.context.close()


# --- 6. a screenshot --------------------------------------------------------------------------------


def load_png(path: Path) -> np.ndarray:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2)


def test_a_screenshot_of_the_page_shows_the_picture(played, tmp_path):
    """Chromium's screenshot of the Patience page (for looking; set ZXCARDS_DOCS_SCREENSHOT to keep
    it): the picture at 3x, each Spectrum pixel a 3 x 3 square, as the headless front end shows it."""
    result = played["patience"]
    if result.screenshot is None:
        raise result.error or AssertionError("the Patience page was not played")
    shot = load_png(result.screenshot)
    assert shot.shape == (VIEWPORT["height"], VIEWPORT["width"], 3)
    width, height = render.FRAME_WIDTH * SHOWN_SCALE, render.FRAME_HEIGHT * SHOWN_SCALE
    left = (VIEWPORT["width"] - width) // 2
    top = 8  # the page's padding
    picture = shot[top : top + height, left : left + width]
    shown = headless_screen(CASES["patience"])
    alike = [
        np.array_equal(picture, render.scale_nearest(expected_frame(shown, flash), SHOWN_SCALE))
        for flash in (False, True)
    ]
    assert any(alike), "the screenshot's picture is not the headless front end's, at 3x, in either FLASH phase"
    around = np.concatenate([shot[:top].reshape(-1, 3), shot[top + height :].reshape(-1, 3)])
    assert len(np.unique(around, axis=0)) > 2  # the strip under the picture: the status line and buttons


def test_the_on_screen_keys_show_only_when_asked_for_with_a_mouse(browser, server):
    base, _ = server
    page = new_page(browser, base + "testcard")
    try:
        assert page.evaluate("matchMedia('(pointer: fine)').matches && !matchMedia('(pointer: coarse)').matches")
        keyboard = page.locator("#keyboard")
        assert keyboard.is_hidden()
        page.click("#touch")
        assert keyboard.is_visible() and page.get_attribute("#touch", "aria-pressed") == "true"
        page.click("#touch")
        assert keyboard.is_hidden()
    finally:
        page.context.close()


def test_the_menu_page_makes_a_new_table_and_its_page_gives_the_link_to_share(browser, server):
    url, running = server
    page = browser.new_context(viewport=VIEWPORT).new_page()  # the page's own security policy, as served
    try:
        page.goto(url)
        page.fill("#friends input[name=name]", "Anna q")
        page.keyboard.press("4")  # typed into the form, not the Spectrum: the menu stays
        page.check("#friends input[name=full]")
        page.select_option("#friends select[name=level]", "random")
        page.click("#friends button")
        page.wait_for_url("**/spades?table=*")
        code = urlsplit(page.url).query.split("&")[0].removeprefix("table=")
        assert re.fullmatch(r"[A-Z2-9]{6}", code)
        deadline = time.monotonic() + WAIT_SECONDS
        while code not in running.tables_of("spades").tables or not any(running.tables_of("spades").tables[code].seats):
            assert time.monotonic() < deadline, "the table was not made"
            time.sleep(0.05)
        table = running.tables_of("spades").tables[code]
        assert table.full and table.level == "random" and table.seats[0].name == "Anna q4"
        assert page.text_content("#share-link") == f"{url}spades?table={code}"
    finally:
        page.context.close()


def test_a_second_browser_finds_the_table_in_the_list_and_a_word_to_the_table_is_shown_as_text(browser, server):
    url, running = server
    anna, bob = (browser.new_context(viewport=VIEWPORT).new_page() for _ in range(2))
    try:
        anna.goto(url)
        anna.fill("#friends input[name=name]", "Anna")
        anna.check("#friends input[name=full]")
        anna.click("#friends details summary")
        anna.select_option("#friends select[name=game-to]", "300")
        anna.click("#friends button[type=submit]")
        anna.wait_for_url("**/spades?table=*")
        code = parse_qs(urlsplit(anna.url).query)["table"][0]
        deadline = time.monotonic() + WAIT_SECONDS
        while code not in running.tables_of("spades").tables or not any(running.tables_of("spades").tables[code].seats):
            assert time.monotonic() < deadline, "the table was not made"
            time.sleep(0.05)
        bob.goto(url)
        listed = bob.locator(f"#open-tables li:has-text('{code}')")
        assert "to 300" in listed.text_content() and "Anna (1 of 4)" in listed.text_content()
        listed.locator("input[name=name]").fill("Bob")
        listed.locator("button[type=submit]").click()
        bob.wait_for_url(f"**/spades?table={code}&name=Bob")
        while sum(seat is not None for seat in running.tables_of("spades").tables[code].seats) < 2:
            assert time.monotonic() < deadline, "Bob did not sit"
            time.sleep(0.05)
        time.sleep(0.5)  # both pages hear the table's talk from now on
        bob.fill("#talk input[name=line]", "<img src=x onerror=alert(1)>hi")
        bob.press("#talk input[name=line]", "Enter")
        anna.wait_for_selector("#talk-heard li")
        assert anna.text_content("#talk-heard li") == "Bob <img src=x onerror=alert(1)>hi"
        assert anna.locator("#talk-heard img").count() == 0  # text, never markup
        anna.click("#talk-heard li button.who")  # Anna mutes Bob
        anna.wait_for_selector("#talk-muted button")
        bob.click("#talk-phrases .phrase >> nth=1")
        time.sleep(1.0)
        assert anna.locator("#talk-heard li").count() == 1 and bob.locator("#talk-heard li").count() == 2
    finally:
        anna.context.close()
        bob.context.close()


# --- 7. common screens: the page fits, its end is seen, a name with accents is taken ------------------

SCREENS = [(1280, 800), (1366, 768)]
PHONE = (390, 844)
PAGE_BOTTOM = """() => {
  const bottoms = [...document.querySelectorAll("main > *")].filter(element => element.getBoundingClientRect().height)
    .map(element => element.getBoundingClientRect().bottom);
  const screen = document.getElementById("screen").getBoundingClientRect();
  return {bottom: Math.max(...bottoms), width: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight, innerWidth, innerHeight, canvas: [screen.width, screen.height]};
}"""


def sized_page(browser, url: str, size: tuple[int, int], **options):
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True, **options).new_page()
    page.goto(url)
    page.wait_for_function("zxcards.frame >= 0")
    return page


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize("path", ["", "canfield?practice", "testcard"])
def test_each_page_fits_a_common_screen_without_scrolling(browser, server, path, size):
    base, _ = server
    page = sized_page(browser, base + path, size)
    try:
        shown = page.evaluate(PAGE_BOTTOM)
        assert shown["height"] <= size[1] and shown["width"] <= size[0], shown
        assert shown["bottom"] <= size[1], shown  # the strip, and under the menu the form, whole
        assert shown["canvas"][0] >= 3 * render.FRAME_WIDTH * 0.9, shown  # the picture scaled to the screen
    finally:
        page.context.close()


def test_the_menu_page_is_usable_on_a_phone(browser, server):
    base, _ = server
    page = sized_page(browser, base, PHONE, has_touch=True, is_mobile=True)
    try:
        shown = page.evaluate(PAGE_BOTTOM)
        assert shown["width"] <= PHONE[0] and shown["bottom"] <= PHONE[1], shown
        assert page.locator("#keyboard").is_hidden()  # the menu is tapped: no keys until a prompt wants letters
        page.locator("#touch").tap()  # the Keys button brings them
        assert page.locator("#keyboard").is_visible()
        for part in ("#picture", "#friends input[name=name]", "#friends button", "#keyboard button >> nth=-1"):
            box = page.locator(part).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0], part
        assert page.locator("#picture").bounding_box()["width"] == PHONE[0]  # upright: as wide as the phone
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SCREENS)
def test_escape_ends_the_session_where_the_player_looks_with_a_way_back_in_one_tap(browser, server, size):
    base, running = server
    page = sized_page(browser, base + "canfield?practice", size)
    try:
        known = set(running.sessions)
        page.keyboard.press("Escape")
        page.wait_for_function("zxcards.ended !== null", timeout=10_000)
        notice = page.locator("#notice")
        box = notice.bounding_box()
        assert notice.is_visible() and 0 <= box["y"] and box["y"] + box["height"] <= size[1], box
        assert page.evaluate("document.documentElement.scrollHeight") <= size[1]
        assert page.text_content("#status") != menu.LEAVE_ZXCARDS
        again = page.locator("#again")
        assert again.is_visible() and page.evaluate("document.activeElement.id") == "again"
        again.click()  # a new Spectrum: the page again, from the start
        page.wait_for_function("window.zxcards && zxcards.ended === null && zxcards.frame >= 0", timeout=10_000)
        assert notice.is_hidden() and set(running.sessions) - known
    finally:
        page.context.close()


def test_a_name_with_accents_is_taken_plain_and_a_name_refused_says_why(browser, server):
    url, running = server
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()  # the page's own policy
    try:
        page.goto(url)
        name = page.locator("#friends input[name=name]")
        name.fill("李")
        assert not name.evaluate("input => input.checkValidity()")
        assert "1 to 10 of A-Z" in name.evaluate("input => input.validationMessage")  # the browser says why
        name.fill("Zoë")
        assert name.evaluate("input => input.checkValidity()")
        page.click("#friends button")
        page.wait_for_url("**/spades?table=*")
        code = urlsplit(page.url).query.split("&")[0].removeprefix("table=")
        wait_for(
            lambda: code in running.tables_of("spades").tables and running.tables_of("spades").tables[code].seats[0],
            "the table",
            WAIT_SECONDS,
        )
        assert running.tables_of("spades").tables[code].seats[0].name == "Zoe"
    finally:
        page.context.close()
