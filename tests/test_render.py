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
    palette.update(
        {"BRIGHT_" + name: tuple(int(v) for v in render.PALETTE[8 + n]) for n, name in enumerate(names) if n}
    )

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
    np.testing.assert_array_equal(frame[top : top + 192, left : left + 256], render.screen_rgb(memory, True))
    border = np.ones((240, 320), bool)
    border[top : top + 192, left : left + 256] = False
    assert (frame[border] == (0xD7, 0, 0)).all()


def test_border_uses_low_three_bits_and_is_never_bright():
    memory = np.zeros(65536, np.uint8)
    assert tuple(render.frame_rgb(memory, False, 7)[0, 0]) == (0xD7, 0xD7, 0xD7)
    assert tuple(render.frame_rgb(memory, False, 8 + 1)[0, 0]) == (0, 0, 0xD7)


# The 48K ULA's timings written out, so that a wrong constant in render fails these: the display's
# first line 14,336 T-states after the interrupt, a line every 224 T, two pixels a T-state, the
# border colour taken every 4 T-states; the visible picture 24 lines and 32 pixels (16 T) beyond it.
TOP_LEFT_T = 14336 - 24 * 224 - 16


BORDER_AREA = np.ones((240, 320), bool)
BORDER_AREA[24 : 24 + 192, 32 : 32 + 256] = False


def border_pixels(border) -> np.ndarray:
    """The colour number (0-7) of each pixel of the visible picture, (240, 320), as frame_rgb draws
    `border` around a screen of black paper."""
    rgb = render.frame_rgb(np.zeros(65536, np.uint8), False, border).astype(int)
    return rgb[:, :, 0] // 0xD7 * 2 + rgb[:, :, 1] // 0xD7 * 4 + rgb[:, :, 2] // 0xD7


def reference_border(colour: int, changes: list[tuple[int, int]]) -> np.ndarray:
    """The border worked out pixel by pixel: the beam draws a pixel's cell of 8 at the moment
    TOP_LEFT_T + 224 * line + 4 * (pixel // 8), with the colour last written in a 4 T-state step
    that begins at or before that moment."""
    out = np.zeros((240, 320), np.uint8)
    for y in range(240):
        for x in range(320):
            moment = TOP_LEFT_T + 224 * y + 4 * (x // 8)
            out[y, x] = [
                colour,
                *(changed for t_state, changed in changes if t_state - (t_state - TOP_LEFT_T) % 4 <= moment),
            ][-1]
    return out


def test_a_border_change_shows_from_the_cell_of_8_pixels_the_beam_draws_when_it_comes():
    """A change in the middle of a line shows from the cell the beam is in (the start of the
    4 T-states in which the port is written); one in the line's hidden part from the next line's
    first pixel; one before the first visible line from the first pixel; one after the last visible
    line not in this frame; two in one cell: the later."""
    middle = TOP_LEFT_T + 30 * 224 + 4 * 17 + 3  # line 30, the cell from pixel 136 (its last T-state)
    pixels = border_pixels(render.border_runs(7, [(middle, 2)]))
    assert (pixels[30, :32] == 7).all() and (pixels[30, 288:] == 2).all() and (pixels[:30][BORDER_AREA[:30]] == 7).all()
    assert (pixels[31:][BORDER_AREA[31:]] == 2).all()
    assert (
        border_pixels(render.border_runs(7, [(TOP_LEFT_T + 10 * 224 + 4 * 17 + 3, 2)]))[10, 135:137] == (7, 2)
    ).all()
    hidden = TOP_LEFT_T + 40 * 224 + 160  # past the line's 320 visible pixels
    pixels = border_pixels(render.border_runs(1, [(hidden, 6)]))
    assert (pixels[40][BORDER_AREA[40]] == 1).all() and (pixels[41][BORDER_AREA[41]] == 6).all()
    assert render.border_runs(3, [(100, 4)]) == ((0, 4),)  # before the first visible line
    assert render.border_runs(3, [(TOP_LEFT_T + 240 * 224, 4)]) == ((0, 3),)  # after the last
    assert render.border_runs(3, [(middle - 3, 4), (middle, 5)]) == ((0, 3), (30 * 40 + 17, 5))  # one cell
    assert render.border_runs(3, [(middle, 4), (middle + 40, 3)]) == ((0, 3), (30 * 40 + 17, 4), (30 * 40 + 27, 3))


def test_border_runs_draw_as_the_border_worked_out_pixel_by_pixel():
    rng = np.random.default_rng(3)
    times = np.sort(rng.integers(0, 69888, 60))
    changes = [(int(t), int(c)) for t, c in zip(times, rng.integers(0, 8, 60))]
    drawn, worked_out = border_pixels(render.border_runs(5, changes)), reference_border(5, changes)
    np.testing.assert_array_equal(drawn[BORDER_AREA], worked_out[BORDER_AREA])


def test_a_frame_draws_the_border_runs_around_the_screen():
    memory = random_memory(6)
    runs = tuple((cell, cell // 37 % 8) for cell in range(0, 240 * 40, 37))
    frame = render.frame_rgb(memory, False, runs)
    cells = np.repeat(np.array([colour for _, colour in runs]), 37)[: 240 * 40].reshape(240, 40)
    expected = np.repeat(render.PALETTE[cells], 8, axis=1)
    assert (frame[BORDER_AREA] == expected[BORDER_AREA]).all()
    top, left = render.BORDER_TOP, render.BORDER_LEFT
    np.testing.assert_array_equal(frame[top : top + 192, left : left + 256], render.screen_rgb(memory, False))


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
