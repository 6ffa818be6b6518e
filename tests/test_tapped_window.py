"""The pygame window driven by real mouse events: a program in a window on an Xvfb display of its
own, clicked and dragged with xdotool (as a person's mouse would), plays as the same keys typed
headless: its SCREEN$ afterwards is the typed game's, byte for byte (no outline in it).

Skipped, saying why, where Xvfb or xdotool is missing (Debian: xvfb xdotool).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from games.canfield import play as canfield_play
from games.patience import play as patience_play
from spectrum import Spectrum
from spectrum.compare import screen_of
from spectrum.frontends import HeadlessFrontend, ScriptExhausted

ROOT = Path(__file__).resolve().parent.parent
MISSING = [tool for tool in ("Xvfb", "xdotool") if not shutil.which(tool)]
SCALE = 2
PATIENCE = 60.0  # seconds any one step may take

# In the window's process: the program in a WindowFrontend, which writes its SCREEN$ to `screen` at
# each frame the program waits for a key and nothing is held (and `ready` once it has).
HARNESS = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from spectrum import Spectrum
    from spectrum.compare import screen_of
    from spectrum.frontends.window import WindowFrontend

    out = Path(sys.argv[1])

    class Watched(WindowFrontend):
        def present(self, machine):
            super().present(machine)
            if machine.awaiting_key and not machine.keys_held and not self.pointing.busy:
                (out / "screen.tmp").write_bytes(screen_of(machine))
                os.replace(out / "screen.tmp", out / "screen")
                (out / "frame.tmp").write_text(str(machine.frame_count))
                os.replace(out / "frame.tmp", out / "frame")

    machine = Spectrum(Watched(scale=%(scale)d, title="zxcards pointing test"))
    if sys.argv[2] == "patience":
        from games.patience import play
        play.run(machine, 5, fast=True)
    else:
        from games.canfield import play
        play.run(machine, deal=1)
""") % {"scale": SCALE}


def x_display(log) -> tuple[subprocess.Popen, str]:
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=log,
        stderr=log,
    )
    os.close(write)
    with os.fdopen(read) as said:
        number = said.readline().strip()
    if not number:
        server.kill()
        pytest.skip("Xvfb did not start here")
    return server, f":{number}"


class Window:
    """The program's window on its own X display, clicked where its cells are."""

    def __init__(self, display: str, folder: Path, process: subprocess.Popen):
        self.display, self.folder, self.process = display, folder, process
        self.window = self.wait_for(
            lambda: self.xdotool("search", "--onlyvisible", "--class", ".").split(), "the window"
        )[0]
        geometry = dict(line.split("=") for line in self.xdotool("getwindowgeometry", "--shell", self.window).split())
        self.left, self.top = int(geometry["X"]), int(geometry["Y"])

    def xdotool(self, *arguments: str) -> str:
        return subprocess.run(
            ["xdotool", *arguments],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        ).stdout

    def wait_for(self, condition, what: str):
        deadline = time.monotonic() + PATIENCE
        while not (value := condition()):
            assert self.process.poll() is None, f"the window's program ended: {self.process.stderr.read()}"
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.05)
        return value

    def point(self, row: int, col: int) -> tuple[str, str]:
        return (str(self.left + (32 + 8 * col + 4) * SCALE), str(self.top + (24 + 8 * row + 4) * SCALE))

    def settled(self) -> bytes:
        """SCREEN$ once the program has waited, untouched, for a second."""

        def still():
            frame = (self.folder / "frame").read_text() if (self.folder / "frame").exists() else ""
            time.sleep(1.0)
            now = (self.folder / "frame").read_text() if (self.folder / "frame").exists() else ""
            return frame and int(now) - int(frame) >= 40 and (self.folder / "screen").read_bytes()

        return self.wait_for(still, "the program to wait for a key")

    def click(self, row: int, col: int) -> None:
        self.xdotool("mousemove", "--sync", *self.point(row, col), "click", "1")
        time.sleep(0.5)

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        self.xdotool("mousemove", "--sync", *self.point(*start), "mousedown", "1")
        time.sleep(0.2)
        self.xdotool("mousemove", "--sync", *self.point(*end))
        time.sleep(0.2)
        self.xdotool("mouseup", "1")
        time.sleep(0.5)


def in_a_window(program: str, gestures) -> bytes:
    """SCREEN$ after `gestures(window)` on `program` in a window on an X display of its own."""
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "said", "w+") as log:
        server, display = x_display(log)
        process = subprocess.Popen(
            [sys.executable, "-c", HARNESS, folder, program],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"},
        )
        try:
            window = Window(display, Path(folder), process)
            gestures(window)
            return window.settled()
        finally:
            process.kill()
            process.wait()
            server.kill()
            server.wait()


def typed(program, keys) -> bytes:
    machine = Spectrum(HeadlessFrontend(keys))
    try:
        program(machine)
    except ScriptExhausted:
        pass
    return screen_of(machine)


@pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (Debian: xvfb xdotool)")
def test_patience_clicked_in_the_window_is_patience_typed():
    def gestures(window: Window) -> None:
        window.settled()  # "Press any key to deal"
        window.click(10, 10)
        window.settled()
        window.xdotool("mousemove", "--sync", *window.point(3, 25))  # over card 4: outlined, outside SCREEN$
        window.click(3, 25)  # card 4, the ten of diamonds: picked
        window.click(6, 8)  # card 1's number: the ace of hearts, and the move is typed
        window.settled()
        window.click(21, 24)  # "0: resign"

    clicked = in_a_window("patience", gestures)
    assert clicked == typed(
        lambda machine: patience_play.run(machine, 5, fast=True), ["ENTER", "4", "1", "ENTER", "0", "ENTER"]
    )


@pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (Debian: xvfb xdotool)")
def test_canfield_dragged_and_clicked_in_the_window_is_canfield_typed():
    def gestures(window: Window) -> None:
        window.settled()
        window.drag((7, 17), (7, 23))  # pile 2 onto pile 3, dragged
        window.settled()
        window.click(8, 2)  # the pack turned
        window.settled()

    clicked = in_a_window("canfield", gestures)
    assert clicked == typed(lambda machine: canfield_play.run(machine, deal=1), ["2", "3", "p"])
