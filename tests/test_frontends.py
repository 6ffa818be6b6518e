import os
import subprocess
import sys
import time
import wave
from types import SimpleNamespace

import numpy as np
import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402

from spectrum import hardware, render  # noqa: E402
from spectrum.frontends import HeadlessFrontend, Leave, NoDisplay, Quit, ScriptExhausted, presses_from  # noqa: E402


def stand_in_machine(seed: int = 0, border: int = 1) -> SimpleNamespace:
    """The attributes of a Spectrum that a front end reads and writes."""
    memory = np.random.default_rng(seed).integers(0, 256, 65536, dtype=np.uint8)
    return SimpleNamespace(memory=memory, border=border, flash_phase=False, frame_count=0, keys_held=set())


def load_png(path) -> np.ndarray:
    return pygame.surfarray.array3d(pygame.image.load(str(path))).transpose(1, 0, 2)


# Headless


def test_presses_from_names_characters_and_chords():
    assert presses_from(["ENTER", "q", '"', ("CAPS", "5"), "A", " "]) == [
        frozenset({"ENTER"}),
        frozenset({"q"}),
        frozenset({"SYMBOL", "p"}),
        frozenset({"CAPS", "5"}),
        frozenset({"CAPS", "a"}),
        frozenset({"SPACE"}),
    ]
    with pytest.raises(ValueError):
        presses_from(["RETURN"])
    with pytest.raises(ValueError):
        presses_from([("CAPS", "F1")])


def test_presses_begin_only_while_the_program_waits_for_a_key():
    frontend = HeadlessFrontend(presses_from(["a", "a", ("SYMBOL", "p")]), hold_frames=3, gap_frames=4)
    machine = stand_in_machine()
    machine.awaiting_key = False
    seen = []
    for awaiting in [False] * 3 + [True] * 15 + [False] * 3 + [True] * 3:
        machine.awaiting_key = awaiting
        frontend.present(machine)
        seen.append(frozenset(machine.keys_held))
    a, quote, up = frozenset({"a"}), frozenset({"SYMBOL", "p"}), frozenset()
    press = lambda keys: [keys] * 3 + [up] * 4
    assert seen == [up] * 3 + press(a) + press(a) + press(quote)  # the last press ends while not awaited
    machine.awaiting_key = True
    with pytest.raises(ScriptExhausted):
        frontend.present(machine)


def test_script_frames_must_let_the_keyboard_scan_see_each_press():
    with pytest.raises(ValueError):
        HeadlessFrontend([{"a"}], hold_frames=1)
    with pytest.raises(ValueError):
        HeadlessFrontend([{"a"}], gap_frames=3)
    with pytest.raises(ValueError):
        HeadlessFrontend(["RETURN"])


def test_script_takes_presses_or_what_presses_from_takes():
    assert [press.keys for press in HeadlessFrontend(["ENTER", frozenset({"CAPS", "5"}), "?"]).presses] == [
        frozenset({"ENTER"}),
        frozenset({"CAPS", "5"}),
        frozenset({"SYMBOL", "c"}),
    ]


def test_headless_never_sleeps(monkeypatch):
    def no_sleep(*args):
        raise AssertionError("headless front end slept")

    monkeypatch.setattr(time, "sleep", no_sleep)
    monkeypatch.setattr(pygame.time, "delay", no_sleep)
    monkeypatch.setattr(pygame.time, "wait", no_sleep)
    frontend = HeadlessFrontend(presses_from("abc"))
    machine = stand_in_machine()
    machine.awaiting_key = True
    with pytest.raises(ScriptExhausted):
        while True:
            frontend.present(machine)
    assert frontend.frames_presented == 3 * (2 + 4) + 1


def test_sound_is_placed_by_frame_count(tmp_path):
    frontend = HeadlessFrontend()
    machine = stand_in_machine()
    machine.frame_count = 10
    frontend.play(machine, np.full(1000, 30000, np.int16))
    machine.frame_count = 11
    frontend.play(machine, np.full(1000, 5000, np.int16))
    audio = frontend.audio()
    frame_10, frame_11 = 10 * 69888 * 44100 // 3_500_000, 11 * 69888 * 44100 // 3_500_000  # 8805, 9686
    assert len(audio) == frame_11 + 1000
    assert (audio[:frame_10] == 0).all()
    assert (audio[frame_10:frame_11] == 30000).all()
    assert (audio[frame_11 : frame_10 + 1000] == 32767).all()  # the overlap is mixed and clipped
    assert (audio[frame_10 + 1000 :] == 5000).all()

    path = tmp_path / "all.wav"
    frontend.save_wav(path)
    with wave.open(str(path)) as wav:
        assert wav.getframerate() == 44100
        np.testing.assert_array_equal(np.frombuffer(wav.readframes(wav.getnframes()), "<i2"), audio)


def test_no_sound_gives_an_empty_track():
    assert HeadlessFrontend().audio().size == 0


def test_screenshot_is_the_scaled_frame(tmp_path):
    machine = stand_in_machine(seed=4, border=5)
    machine.flash_phase = True
    path = tmp_path / "shot.png"
    HeadlessFrontend().screenshot(path, machine, scale=2)
    picture = load_png(path)
    assert picture.shape == (480, 640, 3)
    np.testing.assert_array_equal(picture[::2, ::2], render.frame_rgb(machine.memory, True, 5))
    np.testing.assert_array_equal(picture[1::2, 1::2], picture[::2, ::2])


# red and cyan stripes 387 cells of 8 pixels long (9.7 lines of 40), each stepping mid-line: a pilot tone's
STRIPES = tuple((cell, 2 + 3 * (number % 2)) for number, cell in enumerate(range(0, render.BORDER_CELLS, 387)))


def border_columns(picture: np.ndarray) -> np.ndarray:
    """The colour of the first pixel of each cell of 8 of the top border's lines, (24, 40) RGB."""
    return picture[: render.BORDER_TOP, ::8]


def stripes_rgb(stripes=STRIPES) -> np.ndarray:
    """The top border's cells in the stripes' colours, as the runs say."""
    return render.PALETTE[render.border_cells(stripes)[: render.BORDER_TOP]]


def test_screenshot_draws_the_border_changing_mid_line_when_the_machine_keeps_its_runs(tmp_path):
    machine = stand_in_machine(seed=4, border=5)
    machine.border_runs = STRIPES
    path = tmp_path / "stripes.png"
    HeadlessFrontend().screenshot(path, machine, scale=1)
    assert (border_columns(load_png(path)) == stripes_rgb()).all()
    assert (load_png(path)[9, 27 * 8 - 1 : 27 * 8 + 1] == render.PALETTE[[2, 5]]).all()  # cell 387: line 9, column 27


def test_importing_the_package_loads_no_window_code():
    probe = (
        "import sys, spectrum.frontends as f\n"
        "assert 'spectrum.frontends.window' not in sys.modules\n"
        "assert 'pygame' not in sys.modules\n"
        "assert f.WindowFrontend.__module__ == 'spectrum.frontends.window'\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run([sys.executable, "-c", probe], check=True, cwd=root)


# Window, on SDL's dummy video and audio drivers


@pytest.fixture
def window():
    from spectrum.frontends import WindowFrontend

    frontend = WindowFrontend(scale=2, title="test")
    pygame.event.clear()
    yield frontend
    frontend.close()


def key_event(kind, key, text=""):
    pygame.event.post(pygame.event.Event(kind, key=key, unicode=text, mod=0, scancode=0))


def window_pixels() -> np.ndarray:
    return pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)


def test_window_shows_the_frame(window):
    machine = stand_in_machine(seed=9, border=6)
    window.present(machine)
    picture = render.scale_nearest(render.frame_rgb(machine.memory, False, 6), 2)
    np.testing.assert_array_equal(window_pixels()[: len(picture)], picture)


def test_window_shows_the_border_changing_mid_line_and_draws_again_when_only_the_stripes_move(window):
    machine = stand_in_machine(seed=9, border=6)
    machine.border_runs = STRIPES
    window.present(machine)
    np.testing.assert_array_equal(border_columns(window_pixels()[::2, ::2]), stripes_rgb())
    # the next frame's stripes, a little further on, the last colour the same
    machine.border_runs = tuple((cell and cell + 100, colour) for cell, colour in STRIPES)
    window.present(machine)
    np.testing.assert_array_equal(border_columns(window_pixels()[::2, ::2]), stripes_rgb(machine.border_runs))


def test_window_says_the_status_under_the_picture(window):
    from spectrum.frontends.window import STATUS_HEIGHT, STATUS_INK, STATUS_PAPER

    machine = stand_in_machine(seed=9, border=6)
    window.present(machine)
    strip_top = 2 * render.FRAME_HEIGHT
    assert window_pixels().shape[0] == strip_top + 2 * STATUS_HEIGHT
    assert (window_pixels()[strip_top:] == STATUS_PAPER).all()  # nothing said yet
    window.status = "Esc: back to the menu"
    window.present(machine)
    strip = window_pixels()[strip_top:]
    assert (strip == STATUS_INK).all(axis=2).sum() > 100  # the letters
    picture = render.scale_nearest(render.frame_rgb(machine.memory, False, 6), 2)
    np.testing.assert_array_equal(window_pixels()[:strip_top], picture)  # the Spectrum's own untouched
    window.status = "Esc: leave zxcards"
    window.present(machine)
    assert not np.array_equal(window_pixels()[strip_top:], strip)


@pytest.mark.parametrize(
    "display, wanted, single, pair",
    [
        ((1280, 1024), 3, 3, 2),  # the pair at twice life size is 1,280 pixels wide
        ((1280, 1024), 2, 2, 2),
        ((1920, 1080), 5, 4, 3),
        ((1024, 768), 3, 3, 1),
        ((600, 400), 3, 1, 1),  # never less than life size
        (None, 3, 3, 3),
    ],
)  # the host does not say
def test_the_window_and_the_pair_are_as_large_as_asked_as_the_display_allows(display, wanted, single, pair):
    from spectrum.frontends.side_by_side import pair_scale
    from spectrum.frontends.window import STATUS_HEIGHT, largest_scale

    assert largest_scale(display, render.FRAME_WIDTH, render.FRAME_HEIGHT + STATUS_HEIGHT, wanted) == single
    assert pair_scale(display, wanted) == pair


@pytest.mark.parametrize(
    "display, asked, note",
    [
        ((1280, 1024), 2, ""),
        (
            (1280, 1024),
            3,
            "replay_shuffle: 3 times life size is larger than the display: the window is 2 times life size\n",
        ),
    ],
)
def test_the_pair_of_pictures_fits_the_display_and_says_when_it_is_smaller_than_asked(
    monkeypatch, capsys, display, asked, note
):
    from games.patience import original
    from spectrum.frontends import side_by_side, window

    for module in (window, side_by_side):
        monkeypatch.setattr(module, "display_size", lambda: display)
    pair = original.side_by_side_window(asked, "the port and the ROM", "replay_shuffle")
    try:
        assert pair.scale == 2 and pygame.display.get_surface().get_size() == (1280, 2 * (240 + 24))
    finally:
        pair.close()
    assert capsys.readouterr().err == note


def test_the_strip_sets_each_letter_by_its_own_advance():
    """No pair of letters is pushed apart ("zxcards" read "z xcards"): "zx" is z, then x where z's
    advance ends."""
    from spectrum.frontends.window import STATUS_PAPER, draw_status_text, status_font

    font = status_font(3)
    together, apart = pygame.Surface((100, 40)), pygame.Surface((100, 40))
    together.fill(STATUS_PAPER)
    apart.fill(STATUS_PAPER)
    draw_status_text(together, font, "zx", 0, 0, 40)
    draw_status_text(apart, font, "z", 0, 0, 40)
    draw_status_text(apart, font, "x", round(font.get_metrics("z")[0][4]), 0, 40)
    assert np.array_equal(pygame.surfarray.array3d(together), pygame.surfarray.array3d(apart))


def test_a_character_no_spectrum_key_types_is_said_in_the_strip_for_a_while(window, monkeypatch):
    from spectrum.frontends.window import NOTE_FRAMES

    monkeypatch.setattr(window, "_clock", SimpleNamespace(wait=lambda: None))  # frames, not time
    machine = stand_in_machine(seed=9, border=6)
    window.status = "Esc: back to the menu"
    window.present(machine)
    strip_top = 2 * render.FRAME_HEIGHT
    status_strip = window_pixels()[strip_top:].copy()
    key_event(pygame.KEYDOWN, 233, "é")
    window.present(machine)
    assert machine.keys_held == set() and not np.array_equal(window_pixels()[strip_top:], status_strip)
    for _ in range(NOTE_FRAMES):
        window.present(machine)
    np.testing.assert_array_equal(window_pixels()[strip_top:], status_strip)  # the status again


def test_window_keeps_to_the_spectrums_frame_rate():
    """Each frame is shown one frame's time (69,888 T-states at 3.5 MHz) after the last, on a clock
    of the test's own: not sooner, and not later."""
    from spectrum.frontends import WindowFrontend
    from spectrum.frontends.pacing import Pacer

    now, shown = [100.0], []
    pacer = Pacer(clock=lambda: now[0], sleep=lambda seconds: now.__setitem__(0, now[0] + seconds))
    window = WindowFrontend(scale=1, title="test", pacer=pacer)
    try:
        machine = stand_in_machine()
        for _ in range(11):
            window.present(machine)
            shown.append(now[0])
            now[0] += 0.004  # the frame's own work takes a little of its time
    finally:
        window.close()
    gaps = [later - earlier for earlier, later in zip(shown, shown[1:])]
    assert gaps == pytest.approx([69888 / 3_500_000] * 10, abs=1e-9)


def test_window_maps_host_keys(window):
    machine = stand_in_machine()

    def keys_after(*events):
        for kind, *details in events:
            if kind == pygame.WINDOWFOCUSLOST:
                pygame.event.post(pygame.event.Event(kind))
            else:
                key_event(kind, *details)
        window.present(machine)
        return machine.keys_held

    assert keys_after((pygame.KEYDOWN, pygame.K_a, "a")) == {"a"}
    assert keys_after((pygame.KEYDOWN, pygame.K_7, "7")) == {"a", "7"}
    assert keys_after((pygame.KEYUP, pygame.K_a), (pygame.KEYUP, pygame.K_7)) == set()
    assert keys_after((pygame.KEYDOWN, pygame.K_RETURN, "\r")) == {"ENTER"}
    assert keys_after((pygame.KEYUP, pygame.K_RETURN), (pygame.KEYDOWN, pygame.K_BACKSPACE, "\b")) == {"CAPS", "0"}
    assert keys_after((pygame.KEYUP, pygame.K_BACKSPACE), (pygame.KEYDOWN, pygame.K_UP)) == {"CAPS", "7"}
    with pytest.raises(Leave):  # Escape is the host's leave key, not BREAK
        keys_after((pygame.KEYUP, pygame.K_UP), (pygame.KEYDOWN, pygame.K_ESCAPE, "\x1b"))
    assert keys_after((pygame.KEYDOWN, pygame.K_LSHIFT), (pygame.KEYDOWN, pygame.K_SPACE, " ")) == {"CAPS", "SPACE"}
    assert keys_after(
        (pygame.KEYUP, pygame.K_SPACE),
        (pygame.KEYUP, pygame.K_LSHIFT),
        (pygame.KEYDOWN, pygame.K_LCTRL),
        (pygame.KEYDOWN, pygame.K_p, "\x10"),
    ) == {"SYMBOL", "p"}
    assert keys_after(
        (pygame.KEYUP, pygame.K_p), (pygame.KEYUP, pygame.K_LCTRL), (pygame.KEYDOWN, pygame.K_KP3, "3")
    ) == {"3"}
    # Shift+' types '"': SYMBOL+p on the Spectrum, without the CAPS that Shift alone would give.
    assert keys_after((pygame.KEYUP, pygame.K_KP3), (pygame.KEYDOWN, pygame.K_LSHIFT)) == {"CAPS"}
    assert keys_after((pygame.KEYDOWN, pygame.K_QUOTE, '"')) == {"SYMBOL", "p"}
    assert keys_after((pygame.KEYUP, pygame.K_QUOTE)) == {"CAPS"}
    assert keys_after((pygame.KEYDOWN, pygame.K_g, "G")) == {"CAPS", "g"}
    # Keys let go in another window send no KEYUP: losing focus lets everything go.
    keys_after((pygame.WINDOWFOCUSLOST,))
    assert keys_after() == set()


def test_a_tap_within_one_frame_is_seen_for_a_frame(window):
    machine = stand_in_machine()
    key_event(pygame.KEYDOWN, pygame.K_q, "q")
    key_event(pygame.KEYUP, pygame.K_q)
    window.present(machine)
    assert machine.keys_held == {"q"}
    window.present(machine)
    assert machine.keys_held == set()


def test_closing_the_window_raises_quit(window):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(Quit) as raised:
        window.present(stand_in_machine())
    assert isinstance(raised.value, SystemExit)


def test_window_plays_each_frames_sound_after_the_last(window):
    # The first piece lasts ten seconds, so that it is still playing when the second comes.
    first, second = (np.arange(441_000) % 2000).astype(np.int16), np.full(441, -7, np.int16)
    window.play(stand_in_machine(), first)  # the dummy audio driver takes it
    window.play(stand_in_machine(), second)
    channel = pygame.mixer.Channel(0)
    assert channel.get_sound().get_raw() == first.tobytes()
    assert channel.get_queue().get_raw() == second.tobytes()


def test_window_without_audio_is_silent(monkeypatch):
    from spectrum.frontends import WindowFrontend

    def no_audio(*args, **kwargs):
        raise pygame.error("no audio device")

    def no_sound_expected(*args, **kwargs):
        raise AssertionError("a sound was made without an audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_audio)
    monkeypatch.setattr(pygame.mixer, "Sound", no_sound_expected)
    frontend = WindowFrontend(scale=1)
    try:
        frontend.play(stand_in_machine(), np.ones(100, np.int16))
        frontend.present(stand_in_machine())
        assert pygame.mixer.get_init() is None
    finally:
        frontend.close()


def test_an_idle_window_is_drawn_only_when_its_picture_changes(window, monkeypatch):
    drawn = []
    scale = pygame.transform.scale
    monkeypatch.setattr(pygame.transform, "scale", lambda *args: drawn.append(1) or scale(*args))
    machine = stand_in_machine(seed=3)
    attributes = machine.memory[hardware.ATTRIBUTES : hardware.ATTRIBUTES_END]
    attributes &= 0x7F  # nothing flashes
    for _ in range(5):
        window.present(machine)
    assert len(drawn) == 1
    machine.flash_phase = True  # no FLASH cell: the same picture
    window.present(machine)
    assert len(drawn) == 1
    attributes[7] |= 0x80
    window.present(machine)
    machine.flash_phase = False
    window.present(machine)
    window.present(machine)
    assert len(drawn) == 3
    machine.memory[hardware.DISPLAY_FILE + 100] ^= 1
    window.present(machine)
    machine.border = 2
    window.present(machine)
    machine.memory[hardware.ATTRIBUTES_END] ^= 1  # past the screen: the printer buffer
    window.present(machine)
    assert len(drawn) == 5
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    window.present(machine)
    assert len(drawn) == 6
    picture = render.scale_nearest(render.frame_rgb(machine.memory, False, 2), 2)
    np.testing.assert_array_equal(window_pixels()[: len(picture)], picture)


def test_no_display_says_so_in_one_line(monkeypatch):
    from spectrum.frontends import WindowFrontend

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(NoDisplay) as raised:
        WindowFrontend()
    assert "no DISPLAY or WAYLAND_DISPLAY" in str(raised.value) and "\n" not in str(raised.value)


def test_failure_to_open_a_window_is_no_display(monkeypatch):
    from spectrum.frontends import WindowFrontend

    def refuse(*args, **kwargs):
        raise pygame.error("video system refused")

    monkeypatch.setattr(pygame.display, "set_mode", refuse)
    with pytest.raises(NoDisplay, match="video system refused"):
        WindowFrontend()


def test_short_beeps_follow_each_other_in_the_sound_and_take_their_time():
    from spectrum import Spectrum
    from spectrum.beeper import beep_edges
    from spectrum.sound import edges_to_samples

    frontend = HeadlessFrontend()
    machine = Spectrum(frontend)
    for _ in range(6):
        machine.beep(0.01, 12)  # half a frame each: two start within every frame
    machine.flush_sound()
    audio = frontend.audio()
    one = edges_to_samples(beep_edges(0.01, 12))
    assert np.abs(audio).max() == np.abs(one).max()  # nothing overlaps
    spans = np.flatnonzero(audio)
    assert spans[-1] - spans[0] + 1 >= 6 * len(one) - 6 * 3  # six beeps one after another
    assert machine.frame_count == 6 * beep_edges(0.01, 12)[-1] // 69888


def test_a_line_typed_into_the_strip_is_the_host_s_never_the_spectrum_s(window):
    machine = stand_in_machine(seed=9, border=6)
    window.present(machine)
    key_event(pygame.KEYDOWN, pygame.K_F2)  # not wanted: nothing opens
    window.present(machine)
    assert not window.lines and "Say:" not in window._strip_text()
    window.line_wanted = True
    assert window._strip_text().endswith("F2: say a word")
    key_event(pygame.KEYDOWN, pygame.K_F2)
    for char in "gg!":
        key_event(pygame.KEYDOWN, ord(char) if char != "!" else pygame.K_1, char)
    key_event(pygame.KEYDOWN, pygame.K_BACKSPACE)
    window.present(machine)
    assert machine.keys_held == set() and window._strip_text().startswith("Say: gg_")
    key_event(pygame.KEYDOWN, pygame.K_RETURN)
    window.present(machine)
    assert window.lines == ["gg"]
    key_event(pygame.KEYDOWN, pygame.K_F2)
    key_event(pygame.KEYDOWN, pygame.K_a, "a")
    key_event(pygame.KEYDOWN, pygame.K_ESCAPE)  # gives the line up, and leaves nothing
    window.present(machine)
    assert window.lines == ["gg"] and "Say:" not in window._strip_text()
    key_event(pygame.KEYDOWN, pygame.K_a, "a")  # the line closed: a is the Spectrum's again
    window.present(machine)
    assert machine.keys_held
