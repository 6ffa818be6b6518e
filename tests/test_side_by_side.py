"""The port and the ROM in one window: keys pressed in the window reach both machines, differing
cells are outlined on both pictures, and the status line says how the comparison stands."""

import os

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame  # noqa: E402

from games.patience import original, play, replay_shuffle  # noqa: E402
from spectrum import Spectrum, render  # noqa: E402
from spectrum.frontends import side_by_side  # noqa: E402
from spectrum.frontends.side_by_side import OUTLINE, SideBySideWindow  # noqa: E402

pytestmark = pytest.mark.rom  # the right-hand machine runs the genuine ROM
SEED = 1
ROW, COLUMN = 13, 20  # a cell of card 7 on seed 1's deal


class NoWaiting:
    def wait(self):
        return 0


class Enough(Exception):
    """The frames to look at have been played."""


class Played:
    """The window's frames with host keys pressed at given frames, a byte of the port's screen
    changed at another, until the ROM has run `frames` frames."""

    def __init__(self, window, keys, frames, flaw_at=None):
        self.window, self.frame, self.frames, self.flaw_at = window, 0, frames, flaw_at
        self.events = {}
        for number, key in enumerate(keys):
            self.events[100 + 8 * number] = pygame.KEYDOWN, key
            self.events[102 + 8 * number] = pygame.KEYUP, key
        self.present = window.present

    def __call__(self, machine):
        self.frame += 1
        if self.frame in self.events:
            kind, key = self.events[self.frame]
            pygame.event.post(pygame.event.Event(kind, key=key, unicode=chr(key)))
        if self.frame == self.flaw_at:
            machine.memory[0x4000 + ((ROW & 0x18) << 8) + ((ROW & 7) << 5) + COLUMN + 256 * 3] ^= 0xFF
        self.present(machine)
        if self.window.rom.frame_count >= self.frames:
            raise Enough


@pytest.fixture
def window(monkeypatch):
    monkeypatch.setattr(side_by_side, "display_size", lambda: (1280, 1024))  # twice life size fits
    window = SideBySideWindow(scale=2)
    monkeypatch.setattr(window, "_clock", NoWaiting())
    yield window
    window.close()


def play_frames(window, keys, frames, flaw_at=None) -> Spectrum:
    window.attach(original.rom_machine(window.rom_keys, SEED))
    window.present = Played(window, keys, frames, flaw_at)
    port = Spectrum(window)
    with pytest.raises(Enough):
        original.run_port(
            port, lambda machine: play.run(machine, SEED), window.port_keys
        )  # waits with the window's frames
    return port


def test_keys_in_the_window_reach_both_and_the_screens_agree(window):
    port = play_frames(window, [pygame.K_SPACE, ord("1")], 2200)
    text, cells = window.comparison(port)
    assert text.startswith("port (left) and ROM (right): identical so far (3 waits for a key compared)")
    assert text.endswith("both wait for a key") and cells == []
    assert window.rom_keys.waits[-1].screen == window.port_keys.waits[-1].screen  # "1" typed on both


def test_a_cell_that_differs_is_outlined_on_both_pictures(window):
    port = play_frames(window, [pygame.K_SPACE], 2000, flaw_at=1900)  # both wait for a move from frame 1782
    text, cells = window.comparison(port)
    assert cells == [(ROW, COLUMN)] and "1 cell differ" in text
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    width = render.FRAME_WIDTH * 2
    for left in (0, width):
        x, y = left + (render.BORDER_LEFT + 8 * COLUMN) * 2, (render.BORDER_TOP + 8 * ROW) * 2
        assert (shown[y, x : x + 16] == OUTLINE).all() and (shown[y + 15, x : x + 16] == OUTLINE).all()
    assert (shown[:, :width] == OUTLINE).all(axis=2).sum() == 16 * 16 - 12 * 12  # that cell's frame, 2 wide
    title_line = (render.BORDER_TOP + 4) * 2  # the title, alike on both (but for the line parting them)
    assert np.array_equal(shown[title_line, 1 : width - 1], shown[title_line, width + 1 : 2 * width - 1])


def test_the_roms_border_is_drawn_changing_mid_line_when_it_changes_within_a_frame(window, monkeypatch):
    port = play_frames(window, [], 3)
    # the loader's red and cyan, 387 cells of 8 pixels each (9.7 lines of 40)
    stripes = tuple((cell, 2 + 3 * (number % 2)) for number, cell in enumerate(range(0, render.BORDER_CELLS, 387)))
    monkeypatch.setattr(window.rom, "run_frame", lambda: setattr(window.rom, "border_runs", stripes))
    SideBySideWindow.present(window, port)  # the window's own (play_frames put a counting one in its place)
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    width, height = render.FRAME_WIDTH * 2, render.FRAME_HEIGHT * 2
    top_border = shown[: render.BORDER_TOP * 2 : 2, width + 2 : 2 * width : 16]  # each cell's second pixel
    assert (top_border == render.PALETTE[render.border_cells(stripes)[: render.BORDER_TOP]]).all()
    assert (shown[:height, 0] == shown[0, 0]).all()  # the port's border: one colour


def test_the_shuffle_replay_in_a_window_deals_the_same_table_on_both(window, monkeypatch):
    monkeypatch.setattr(original, "side_by_side_window", lambda scale, title, command: window)
    monkeypatch.setattr(window, "present", Played(window, [], frames=1100))
    with pytest.raises(Enough):  # the window closes when it is told to; here, after 1100 frames
        replay_shuffle.main(["--seed", "1984", "--window"])
    assert len(window.port_keys.waits) == len(window.rom_keys.waits) == 1  # both at the first move
    assert window.rom_keys.waits[0].screen == window.port_keys.waits[0].screen
    assert 800 < window.rom_keys.waits[0].frame < 1000  # the ROM: 12 s of shuffling, 5 of dealing
    # the port keeps the ROM's time, within 1% here: the harness's line 1 on the ROM pokes the UDGs
    # and calls the routines from the top of the listing, the port goes there as typed commands do
    assert (
        abs(window.port_keys.waits[0].frame - window.rom_keys.waits[0].frame) <= 0.01 * window.rom_keys.waits[0].frame
    )
