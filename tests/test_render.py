import io
import os

import numpy as np
import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from spectrum import render  # noqa: E402


def random_memory(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, 65536, dtype=np.uint8)


def reference_colour(colour: int, bright: bool) -> tuple[int, int, int]:
    level = 0xFF if bright else 0xD7
    return (level if colour & 2 else 0, level if colour & 4 else 0, level if colour & 1 else 0)


def reference_screen(memory: np.ndarray, flash_phase: bool) -> np.ndarray:
    """The screen worked out one pixel at a time from the documented memory layout."""
    out = np.zeros((192, 256, 3), np.uint8)
    for y in range(192):
        line = 0x4000 + ((y & 0xC0) << 5) + ((y & 7) << 8) + ((y & 0x38) << 2)
        for x in range(256):
            byte = int(memory[line + x // 8])
            attribute = int(memory[22528 + (y // 8) * 32 + x // 8])
            ink, paper = attribute & 7, (attribute >> 3) & 7
            if attribute & 0x80 and flash_phase:
                ink, paper = paper, ink
            lit = (byte >> (7 - x % 8)) & 1
            out[y, x] = reference_colour(ink if lit else paper, bool(attribute & 0x40))
    return out


def test_palette_values():
    assert render.PALETTE.shape == (16, 3)
    assert render.PALETTE.dtype == np.uint8
    assert tuple(render.PALETTE[0]) == (0, 0, 0)
    assert tuple(render.PALETTE[8]) == (0, 0, 0)  # BRIGHT black is black
    assert tuple(render.PALETTE[1]) == (0, 0, 0xD7)  # blue
    assert tuple(render.PALETTE[2]) == (0xD7, 0, 0)  # red
    assert tuple(render.PALETTE[4]) == (0, 0xD7, 0)  # green
    assert tuple(render.PALETTE[6]) == (0xD7, 0xD7, 0)  # yellow
    assert tuple(render.PALETTE[7]) == (0xD7, 0xD7, 0xD7)
    assert tuple(render.PALETTE[13]) == (0, 0xFF, 0xFF)  # bright cyan
    assert tuple(render.PALETTE[15]) == (0xFF, 0xFF, 0xFF)


@pytest.mark.parametrize("flash_phase", [False, True])
def test_screen_matches_per_pixel_reference(flash_phase):
    memory = random_memory(7)
    got = render.screen_rgb(memory, flash_phase)
    assert got.shape == (192, 256, 3) and got.dtype == np.uint8
    np.testing.assert_array_equal(got, reference_screen(memory, flash_phase))


def test_flash_phases_differ_only_in_flashing_cells():
    memory = random_memory(11)
    steady, inverted = render.screen_rgb(memory, False), render.screen_rgb(memory, True)
    attributes = memory[22528:23296].reshape(24, 32)
    changed = (steady != inverted).any(axis=2).reshape(24, 8, 32, 8).any(axis=(1, 3))
    # A flashing cell changes unless its ink equals its paper or all its pixels agree.
    assert not (changed & (attributes < 0x80)).any()
    assert changed.sum() > 300


def test_single_pixel_lands_where_the_layout_says():
    memory = np.zeros(65536, np.uint8)
    memory[22528:23296] = 0x38  # black ink on white paper
    y, x = 77, 141
    memory[0x4000 + ((y & 0xC0) << 5) + ((y & 7) << 8) + ((y & 0x38) << 2) + x // 8] = 0x80 >> (x % 8)
    screen = render.screen_rgb(memory, False)
    ink = (screen == 0).all(axis=2)
    assert list(zip(*np.nonzero(ink))) == [(y, x)]


def test_skoolkit_renders_the_same_screen():
    pygame = pytest.importorskip("pygame")
    from skoolkit.graphics import Frame, scr_udgs
    from skoolkit.image import ImageWriter

    memory = random_memory(3)
    defaults = dict(ImageWriter().get_default_colours())
    names = ["BLACK", "BLUE", "RED", "MAGENTA", "GREEN", "CYAN", "YELLOW", "WHITE"]
    # SkoolKit's own colours are a little different in level but must light the same guns.
    for number, name in enumerate(names):
        for bright in (0, 1):
            key = name if not bright or number == 0 else "BRIGHT_" + name
            assert [v > 0 for v in defaults[key]] == [v > 0 for v in render.PALETTE[8 * bright + number]]
    palette = {name: tuple(int(v) for v in render.PALETTE[n]) for n, name in enumerate(names)}
    palette.update({"BRIGHT_" + name: tuple(int(v) for v in render.PALETTE[8 + n])
                    for n, name in enumerate(names) if n})

    writer = ImageWriter(config={"PNGEnableAnimation": 0}, palette=palette)
    png = io.BytesIO()
    writer.write_image([Frame(scr_udgs(memory.tolist(), 0, 0, 32, 24), 1)], png)
    png.seek(0)
    surface = pygame.image.load(png, "screen.png")
    theirs = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    np.testing.assert_array_equal(render.screen_rgb(memory, False), theirs)


def test_frame_puts_the_screen_inside_the_border():
    memory = random_memory(5)
    frame = render.frame_rgb(memory, True, 2)
    assert frame.shape == (render.FRAME_HEIGHT, render.FRAME_WIDTH, 3) == (240, 320, 3)
    top, left = render.BORDER_TOP, render.BORDER_LEFT
    np.testing.assert_array_equal(frame[top:top + 192, left:left + 256], render.screen_rgb(memory, True))
    border = np.ones((240, 320), bool)
    border[top:top + 192, left:left + 256] = False
    assert (frame[border] == (0xD7, 0, 0)).all()


def test_border_uses_low_three_bits_and_is_never_bright():
    memory = np.zeros(65536, np.uint8)
    assert tuple(render.frame_rgb(memory, False, 7)[0, 0]) == (0xD7, 0xD7, 0xD7)
    assert tuple(render.frame_rgb(memory, False, 8 + 1)[0, 0]) == (0, 0, 0xD7)


def test_a_border_change_shows_from_the_first_line_the_ula_begins_after_it():
    """The ULA begins the display's first line 14,336 T-states after the interrupt, a line every
    224 T, two pixels a T-state: the visible 32 pixels of its border 16 T before."""
    first = 14336 - 16  # the 25th visible line, after 24 of the top border
    lines = render.border_lines(7, [(first, 2), (first + 10 * 224 + 1, 8 + 5)])
    assert lines == (7,) * 24 + (2,) * 11 + (5,) * (240 - 24 - 11)
    last = first + (239 - 24) * 224  # where the last visible line begins
    assert render.border_lines(3, [(last, 1)])[-2:] == (3, 1)
    assert render.border_lines(3, [(last + 1, 4)]) == (3,) * 240


def test_a_frame_draws_a_colour_for_each_border_line():
    memory = random_memory(6)
    lines = tuple(line % 8 for line in range(render.FRAME_HEIGHT))
    frame = render.frame_rgb(memory, False, lines)
    assert (frame[:, 0] == render.PALETTE[list(lines)]).all() and (frame[:, -1] == frame[:, 0]).all()
    top, left = render.BORDER_TOP, render.BORDER_LEFT
    np.testing.assert_array_equal(frame[top:top + 192, left:left + 256], render.screen_rgb(memory, False))


def test_png_round_trip(tmp_path):
    pygame = pytest.importorskip("pygame")
    rgb = np.random.default_rng(1).integers(0, 256, (30, 41, 3), dtype=np.uint8)
    path = tmp_path / "x.png"
    render.write_png(path, rgb)
    loaded = pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2)
    np.testing.assert_array_equal(loaded, rgb)


def test_scale_nearest_makes_solid_blocks():
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    big = render.scale_nearest(rgb, 3)
    assert big.shape == (6, 9, 3)
    np.testing.assert_array_equal(big[3:6, 6:9], np.broadcast_to(rgb[1, 2], (3, 3, 3)))
