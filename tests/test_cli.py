"""The zxcards command: per-program options, menu, headless scripts, screenshots, sound, BREAK,
the window's options, no display, and bad command lines said in one line."""

import inspect
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pygame
import pytest

from games.host import PROGRAMS, cli, load, menu, session, testcard
from games.drawing import SUIT_UDGS, poke_udgs
from spectrum import ReportError, Spectrum, render, sysvars
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.render import FRAME_HEIGHT, FRAME_WIDTH

MODULES = [load(name) for name in PROGRAMS]
TESTCARD_KEY = str(list(PROGRAMS).index("testcard") + 1)


def one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    return captured.err


# --keys


def test_key_scripts_mix_text_and_named_keys():
    assert [press.keys for press in cli.script_presses("1a{ENTER}{CAPS+5}")] == [
        frozenset({"1"}),
        frozenset({"a"}),
        frozenset({"ENTER"}),
        frozenset({"CAPS", "5"}),
    ]


def test_braces_and_backslash_are_typed_in_extended_mode_after_a_backslash():
    extend = frozenset({"CAPS", "SYMBOL"})
    assert [press.keys for press in cli.script_presses(r"\{\}\\x")] == [
        extend,
        frozenset({"SYMBOL", "f"}),
        extend,
        frozenset({"SYMBOL", "g"}),
        extend,
        frozenset({"SYMBOL", "d"}),
        frozenset({"x"}),
    ]


def test_a_script_times_presses_by_frame_and_holds_them_for_frames():
    presses = cli.script_presses("{@30}x{+5}{ENTER*40}a{y*3}")
    assert [(press.keys, press.at, press.after, press.hold) for press in presses] == [
        (frozenset({"x"}), 30, None, None),
        (frozenset({"ENTER"}), None, 5, 40),
        (frozenset({"a"}), None, None, None),
        (frozenset({"y"}), None, None, 3),
    ]
    assert [press.timed for press in presses] == [True, True, False, False]


def test_braces_and_backslash_reach_input_as_typed(monkeypatch):
    entries = []
    monkeypatch.setattr(testcard, "run", lambda machine: entries.append(machine.input()))
    assert cli.main(["--headless", "--keys", r'\{a\\b\}{ENTER}', "testcard"]) == 0
    assert entries == ["{a\\b}"]


@pytest.mark.parametrize(
    "script, complaint",
    [
        ("ab{ENTER", "{ at character 3 is not closed"),
        ("a}", "} at character 2 closes nothing"),
        ("\\n", "escapes only"),
        ("x\\", "escapes only"),
        ("{RETURN}", "RETURN"),
        ("{CAPS+}", "''"),
        ("é", "no Spectrum key"),
        ("a{@3}", "a timing is for the press after it"),
        ("{x*0}", "from *1 on"),
    ],
)
def test_a_bad_key_script_is_said_in_one_line_before_anything_runs(capsys, script, complaint):
    assert cli.main(["--headless", "--keys", script, "testcard"]) == 2
    error = one_line_error(capsys)
    assert "--keys" in error and complaint in error


# Per-program command lines


def test_each_program_lists_only_its_own_options(capsys):
    own = {
        "canfield": {"--practice", "--deal", "--data-dir"},
        "spades": {"--level", "--full", "--seed", "--data-dir"},
        "patience": {"--seed"},
        "testcard": set(),
    }
    everyones = set().union(*own.values())
    for name, options in own.items():
        assert cli.main([name, "--help"]) == 0
        shown = capsys.readouterr().out
        assert all(option in shown for option in options), name
        assert not any(option in shown for option in everyones - options), name
        assert all(option in shown for option in ("--headless", "--keys", "--screenshot", "--wav", "--scale"))
    assert cli.main(["--help"]) == 0
    shown = capsys.readouterr().out
    assert "--deal" not in shown and "--level" not in shown and all(name in shown for name in PROGRAMS)


@pytest.mark.parametrize(
    "argv, complaint",
    [
        (["--headless", "--deal", "3"], "no option --deal before a program's name"),
        (["--deal=3", "canfield"], "no option --deal before a program's name"),
        (["--headless", "patience", "--deal", "3"], "unrecognized arguments: --deal 3"),
        (["--headless", "spades", "--practice"], "unrecognized arguments: --practice"),
        (["--headless", "canfield", "--deal", "70000"], "numbered 1 to 65535"),
        (["--headless", "canfield", "--deal", "0"], "numbered 1 to 65535"),
        (["--headless", "patience", "--seed", "0"], "1-65535"),
        (["--headless", "chess"], "invalid choice: 'chess'"),
        (["--scale", "0"], "from 1 up"),
    ],
)
def test_an_option_a_program_does_not_take_is_refused_in_one_line(capsys, argv, complaint):
    assert cli.main(argv) == 2
    assert complaint in one_line_error(capsys)


def record_runs(monkeypatch) -> list:
    runs = []
    for module in MODULES:
        monkeypatch.setattr(
            module, "run", lambda machine, _name=module.__name__, **options: runs.append((_name, options))
        )
    return runs


def test_a_programs_options_are_the_keywords_of_its_run(monkeypatch):
    keywords = {
        module.__name__: set(inspect.signature(module.run).parameters)
        - {"machine", *getattr(module, "SERVED_ONLY", ())}
        for module in MODULES
    }
    runs = record_runs(monkeypatch)
    for name in PROGRAMS:
        assert cli.main(["--headless", name]) == 0
    assert {program: set(options) for program, options in runs} == keywords


def test_options_reach_the_program_before_or_after_its_name(monkeypatch):
    runs = record_runs(monkeypatch)
    assert cli.main(["--headless", "canfield", "--deal", "7", "--practice"]) == 0
    assert cli.main(["canfield", "--headless", "--deal", "7"]) == 0
    plain = {"winnable": False, "difficulty": None, "data_dir": None}
    assert runs == [
        ("games.canfield", {"deal": 7, "practice": True, **plain}),
        ("games.canfield", {"deal": 7, "practice": False, **plain}),
    ]


def test_a_report_other_than_break_is_said_on_stderr(monkeypatch, capsys):
    def stops(machine):
        raise ReportError("B Integer out of range")

    monkeypatch.setattr(testcard, "run", stops)
    assert cli.main(["--headless", "testcard"]) == 1
    assert "testcard stopped with report B Integer out of range" in one_line_error(capsys)


RESIGN_AND_LEAVE = " 0{ENTER}n"  # Patience: a key for the title, resign, no other game


def test_patience_ends_as_its_listing_does_and_its_goodbye_stays_until_a_key(monkeypatch):
    """Line 1590: "Thanks for playing." and STOP, whose report the ROM shows under it while it waits
    at its command line; a window closed at once after N, before the goodbye could be read."""
    machine = Spectrum(HeadlessFrontend(cli.script_presses(RESIGN_AND_LEAVE + "x")))
    with pytest.raises(ReportError, match="^9 STOP statement, 1590:6$"):
        menu.run_program(machine, load("patience"), seed=5)
    assert screen_text(machine).split("\n")[10].strip() == "Thanks for playing."
    assert screen_text(machine).split("\n")[23] == "9 STOP statement, 1590:6"  # as the ROM shows it
    assert not machine.frontend.presses  # the x was taken by the wait for a key


def test_patience_s_stop_is_its_end_not_news(capsys, tmp_path):
    scr = tmp_path / "goodbye.scr"
    argv = ["patience", "--seed", "5", "--headless", "--keys", RESIGN_AND_LEAVE, "--screenshot", str(scr)]
    assert cli.main(argv) == 0
    assert capsys.readouterr().err == ""
    machine = Spectrum()
    machine.memory[16384 : 16384 + 6912] = np.frombuffer(scr.read_bytes(), np.uint8)
    assert "Thanks for playing." in screen_text(machine) and "9 STOP statement" in screen_text(machine)


# Headless output


def test_testcard_headless_writes_its_screen_and_its_scale(tmp_path):
    png, wav = tmp_path / "card.png", tmp_path / "scale.wav"
    assert cli.main(["--headless", "--screenshot", str(png), "--wav", str(wav), "testcard"]) == 0
    shown = pygame.surfarray.array3d(pygame.image.load(str(png))).transpose(1, 0, 2)
    expected = Spectrum()
    poke_udgs(expected, SUIT_UDGS)
    testcard.draw(expected)
    assert any(
        np.array_equal(shown, render.scale_nearest(render.frame_rgb(expected.memory, phase, expected.border), 2))
        for phase in (False, True)
    )  # whichever FLASH phase the card was left in
    with wave.open(str(wav)) as sound:
        seconds = sound.getnframes() / sound.getframerate()
    assert abs(seconds - 0.2 * len(testcard.SCALE)) < 0.05


@pytest.mark.parametrize(
    "option, path, complaint",
    [
        ("--screenshot", "missing/shot.png", "no folder"),
        ("--screenshot", ".", "is a folder"),
        ("--screenshot", "", "needs a file name"),
        ("--wav", ".", "is a folder"),
        ("--wav", "sub/", "is a folder"),
        ("--screenshot", "shot.jpg", "must end in .png or .scr"),
        ("--wav", "sound.mp3", "must end in .wav"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_run(
    tmp_path, monkeypatch, capsys, option, path, complaint
):
    monkeypatch.chdir(tmp_path)
    runs = record_runs(monkeypatch)
    assert cli.main(["--headless", option, path, "testcard"]) == 2
    assert option in one_line_error(capsys) and not runs
    assert list(tmp_path.iterdir()) == []


def test_an_output_lost_at_the_end_is_said_in_one_line(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "shots"
    folder.mkdir()
    monkeypatch.setattr(testcard, "run", lambda machine: folder.rmdir())
    assert cli.main(["--headless", "--screenshot", str(folder / "a.png"), "testcard"]) == 1
    assert "cannot write" in one_line_error(capsys)


@pytest.mark.parametrize(
    "argv, said",
    [
        (["spades", "--full", "--data-dir", "{file}"], "{file} is a file, not a folder"),
        (
            ["spades", "--full", "--data-dir", "{file}/games"],
            "{file}/games can't be made: {file} is a file, not a folder",
        ),
        (["canfield", "--data-dir", "{file}"], "{file} is a file, not a folder"),
        (["spades", "--data-dir", "{folder}"], "--data-dir is where the full game is kept: add --full"),
        (["canfield", "--practice", "--data-dir", "{folder}"], "--data-dir is where the accounts are kept"),
        (["canfield", "--deal", "5", "--data-dir", "{folder}"], "--data-dir is where the accounts are kept"),
    ],
)
def test_a_data_folder_that_cannot_be_used_is_refused_in_one_line_before_anything_is_played(
    tmp_path, capsys, monkeypatch, argv, said
):
    file = tmp_path / "mine"
    file.write_text("kept")
    names = {"file": file, "folder": tmp_path}

    def started(frontend, machine):
        raise AssertionError("the program started")

    monkeypatch.setattr(HeadlessFrontend, "present", started)
    assert cli.main([arg.format(**names) for arg in argv] + ["--headless"]) == 1
    assert one_line_error(capsys).startswith(f"zxcards {argv[0]}: {said.format(**names)}")
    assert file.read_text() == "kept"


@pytest.mark.parametrize("program, extra", [("canfield", []), ("spades", ["--full"])])
def test_an_empty_data_folder_name_is_refused_not_taken_for_the_current_folder(capsys, program, extra):
    assert cli.main([program, *extra, "--data-dir", "", "--headless"]) == 2
    assert "--data-dir: needs a folder's name" in one_line_error(capsys)


# The menu


def run_menu(keys: str) -> Spectrum:
    machine = Spectrum(HeadlessFrontend(cli.script_presses(keys)))
    with pytest.raises(ScriptExhausted):
        menu.run(machine, MODULES)
    return machine


def test_menu_starts_the_chosen_program():
    machine = run_menu(TESTCARD_KEY)
    assert machine.screen_char(0, 8) == "Z"  # " ZX CARDS TEST CARD " is showing
    assert machine.border == 1


def test_break_in_a_program_goes_back_to_the_menu_and_break_in_the_menu_leaves():
    machine = run_menu(TESTCARD_KEY + "{CAPS+SPACE}")
    assert machine.screen_char(1, 11) == "Z" and machine.screen_char(0, 8) == " "  # the menu again
    machine = Spectrum(HeadlessFrontend(cli.script_presses("{CAPS+SPACE}")))
    menu.run(machine, MODULES)  # returns: BREAK in the menu leaves


@pytest.mark.parametrize("program", PROGRAMS)
def test_while_a_program_runs_the_window_says_that_esc_goes_back_to_the_menu(program, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # where Canfield keeps its accounts
    key = str(list(PROGRAMS).index(program) + 1)
    assert run_menu(key).frontend.status == menu.BACK_TO_MENU  # at the program's first key wait
    assert run_menu(key + "{ESC}").frontend.status == menu.LEAVE_ZXCARDS  # the menu again


def test_each_program_from_the_menu_starts_with_no_basic_variables(monkeypatch):
    seen = []

    def program(machine):
        seen.append((dict(machine.variables), dict(machine.functions)))
        machine.variables["a"], machine.functions["f"] = 1, (("x",), b"x")

    monkeypatch.setattr(testcard, "run", program)
    run_menu(TESTCARD_KEY + TESTCARD_KEY)
    assert seen == [({}, {}), ({}, {})]


def test_a_program_started_on_its_own_says_that_esc_leaves(monkeypatch):
    said = []
    monkeypatch.setattr(testcard, "run", lambda machine: said.append(machine.frontend.status))
    assert cli.main(["--headless", "testcard"]) == 0
    assert said == [menu.LEAVE_ZXCARDS]


def screen_text(machine: Spectrum) -> str:
    return "\n".join("".join(machine.screen_char(row, col) or "?" for col in range(32)).rstrip() for row in range(24))


def without_spaces(text: str) -> str:
    return "".join(text.split())


def test_a_program_that_cannot_start_says_why_on_the_screen_and_the_menu_comes_back(tmp_path, monkeypatch):
    """Canfield with its data folder under a file: the reason on the Spectrum's screen, a key, the
    menu again, and the others still play; the file is left as it was."""
    in_the_way = tmp_path / "data"
    in_the_way.write_text("mine")
    monkeypatch.setenv("XDG_DATA_HOME", str(in_the_way))
    canfield = str(list(PROGRAMS).index("canfield") + 1)
    refused = screen_text(run_menu(canfield))
    said = f"{in_the_way}/zxcards can't be made: {in_the_way} is a file, not a folder"
    assert "Canfield can't play:" in refused and without_spaces(said) in without_spaces(refused)  # wrapped
    back = run_menu(canfield + "x")
    assert back.screen_char(1, 11) == "Z"  # the menu
    assert run_menu(canfield + "x" + TESTCARD_KEY).screen_char(0, 8) == "Z"  # and the test card plays
    assert in_the_way.read_text() == "mine"


def test_no_home_folder_to_keep_the_accounts_in_is_said_too(monkeypatch):
    def unknown():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setattr(Path, "home", unknown)
    refused = screen_text(run_menu(str(list(PROGRAMS).index("canfield") + 1)))
    assert "Canfield can't play:" in refused and without_spaces("there is no home folder") in without_spaces(refused)


def test_accounts_that_fail_in_the_middle_of_a_game_are_said_on_the_screen_too(tmp_path, monkeypatch):
    from games.canfield import bank

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    def disk_full(self, *args, **kwargs):
        raise bank.DataUnusable("canfield.sqlite3 can't grow: the disk is full")

    monkeypatch.setattr(bank.Bank, "record", disk_full)
    canfield = str(list(PROGRAMS).index("canfield") + 1)
    refused = screen_text(run_menu(canfield + "Anna{ENTER}p"))  # P turns the pack: a move to save
    assert "Canfield can't play:" in refused and "the disk is full" in refused


def test_other_keys_in_the_menu_are_ignored():
    machine = run_menu("x9 0")
    assert machine.screen_char(1, 11) == "Z"


def test_the_key_that_picks_a_program_is_not_also_the_programs_first_key():
    machine = Spectrum(HeadlessFrontend(cli.script_presses("3")))
    chosen = menu.choose(machine, MODULES)
    assert chosen is load("spades")
    assert not machine.keys_held and not machine.peek(sysvars.FLAGS) & sysvars.Flags.NEW_KEY


# FRAMES


def frames_at_start(monkeypatch, clock_ns: int) -> int:
    seen = []
    monkeypatch.setattr(
        testcard,
        "run",
        lambda machine: seen.append(machine.peek(sysvars.FRAMES) + 256 * machine.peek(sysvars.FRAMES + 1)),
    )
    monkeypatch.setattr(session.time, "time_ns", lambda: clock_ns)
    assert cli.main(["--headless", "testcard"]) == 0
    return seen[0]


def test_each_launch_starts_frames_from_the_host_clock(monkeypatch):
    assert frames_at_start(monkeypatch, 1_000_000_000) == 50
    assert frames_at_start(monkeypatch, 61_000_000_000) == 3054  # 50.08 frames a second, as the ULA counts them
    assert Spectrum().peek(sysvars.FRAMES) == 0  # a machine made in a test starts where it always does


def test_a_seed_repeats_the_game_whatever_the_clock(tmp_path, monkeypatch):
    shots = []
    for launch, clock_ns in enumerate((10**18, 2 * 10**18 + 7 * 10**15)):
        monkeypatch.setattr(session.time, "time_ns", lambda: clock_ns)
        shots.append(tmp_path / f"{launch}.png")
        assert (
            cli.main(["--headless", "--keys", "{ENTER}", "--screenshot", str(shots[-1]), "patience", "--seed", "1984"])
            == 0
        )
    assert shots[0].read_bytes() == shots[1].read_bytes()


# The window


@pytest.fixture
def dummy_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    yield pygame.display.Info()
    pygame.display.quit()


def test_window_opens_shows_the_menu_and_closes_on_quit(dummy_display, capsys):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert cli.main(["--scale", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_a_scale_larger_than_the_display_is_reduced_with_a_note(dummy_display, monkeypatch, capsys):
    from spectrum.frontends.window import STATUS_HEIGHT

    fits = min(dummy_display.current_w // FRAME_WIDTH, dummy_display.current_h // (FRAME_HEIGHT + STATUS_HEIGHT))
    sizes = []
    monkeypatch.setattr(testcard, "run", lambda machine: sizes.append(pygame.display.get_surface().get_size()))
    assert cli.main(["--scale", str(fits + 5), "testcard"]) == 0
    assert sizes == [(fits * FRAME_WIDTH, fits * (FRAME_HEIGHT + STATUS_HEIGHT))]  # the picture and the strip
    assert f"{fits + 5} times life size is larger than the display: the window is {fits} times" in one_line_error(
        capsys
    )


@pytest.mark.parametrize("argv", [["--keys", "1"], ["--screenshot", "a.png"], ["testcard", "--wav", "a.wav"]])
def test_headless_options_without_headless_are_refused_in_one_line(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    assert "--headless" in one_line_error(capsys)
    assert not pygame.display.get_init() and list(tmp_path.iterdir()) == []


def test_without_a_display_it_says_so_in_one_line():
    environment = {
        key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    done = subprocess.run([sys.executable, "-m", "games"], capture_output=True, text=True, env=environment, timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--headless" in done.stderr


def test_the_readme_menu_example_saves_the_menu(tmp_path):
    png = tmp_path / "menu.png"
    assert cli.main(["--headless", "--screenshot", str(png)]) == 0
    shown = pygame.surfarray.array3d(pygame.image.load(str(png))).transpose(1, 0, 2)
    expected = run_menu("")
    assert np.array_equal(shown, render.scale_nearest(render.frame_rgb(expected.memory, False, expected.border), 2))


def test_ctrl_c_leaves_quietly_and_still_saves_the_screen(tmp_path, monkeypatch, capsys):
    def interrupted(machine):
        raise KeyboardInterrupt

    monkeypatch.setattr(testcard, "run", interrupted)
    png = tmp_path / "last.png"
    assert cli.main(["--headless", "--screenshot", str(png), "testcard"]) == 130
    assert capsys.readouterr().err == "" and png.exists()


@pytest.mark.parametrize(
    "argv, size",
    [([], (640, 480)), (["--scale", "1"], (320, 240)), (["--scale", "3"], (960, 720)), (["--scale", "4"], (1280, 960))],
)
def test_a_headless_screenshot_is_as_large_as_scale_asks(tmp_path, argv, size):
    png = tmp_path / "card.png"
    assert cli.main(["testcard", *argv, "--headless", "--screenshot", str(png)]) == 0
    assert pygame.image.load(str(png)).get_size() == size


def test_a_window_reduced_to_life_size_says_life_size(dummy_display, monkeypatch, capsys):
    from spectrum.frontends import window

    monkeypatch.setattr(window, "display_size", lambda: (400, 400))
    monkeypatch.setattr(testcard, "run", lambda machine: 0)
    assert cli.main(["--scale", "3", "testcard"]) == 0
    err = one_line_error(capsys)
    assert err.endswith("the window is life size\n") and "1 times" not in err


# Output closed early (| head -1) and Ctrl-C: every command ends as a Unix tool does, no traceback

BIN = Path(sys.executable).parent
LISTING = Path(__file__).resolve().parent.parent / "games" / "patience" / "patience.bas"


def run_with_output_closed(argv: list[str], tmp_path: Path, *, stream: str = "stdout") -> subprocess.CompletedProcess:
    """`argv` with its stdout (or stderr) a pipe whose reader has gone, the other captured."""
    reader, writer = os.pipe()
    os.close(reader)  # every write now fails: EPIPE
    environment = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    try:
        closed, captured = ("stdout", "stderr") if stream == "stdout" else ("stderr", "stdout")
        done = subprocess.run(
            argv,
            **{closed: writer, captured: subprocess.PIPE},
            stdin=subprocess.DEVNULL,
            env=environment,
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        os.close(writer)
    return done


CLOSED = 141  # 128 + SIGPIPE, as a shell reports a Unix tool whose reader went away


@pytest.mark.parametrize(
    "argv, stream, statuses",
    [
        ([str(BIN / "zxcards-udgs"), str(LISTING)], "stdout", {CLOSED}),
        ([str(BIN / "zxcards-tap"), str(LISTING), "-o", "p.tap"], "stdout", {CLOSED}),
        ([str(BIN / "zxcards"), "--help"], "stdout", {0, CLOSED}),  # argparse itself drops a help it can't write
        ([str(BIN / "zxcards"), "patience", "--help"], "stdout", {0, CLOSED}),
        ([sys.executable, "-m", "games", "--help"], "stdout", {0, CLOSED}),
        ([sys.executable, "-m", "games", "testcard", "--headless"], "stdout", {0}),  # says nothing: nothing to fail
        ([str(BIN / "zxcards"), "patience", "--seed", "99999"], "stderr", {2}),  # argparse's own status for its error
        ([str(BIN / "zxcards"), "--headless", "--no-such"], "stderr", {CLOSED}),
        ([str(BIN / "zxcards-udgs"), "no-such-listing.bas"], "stderr", {2}),
        ([str(BIN / "zxcards-tap"), "no-such-listing.bas"], "stderr", {2}),
        ([str(BIN / "zxcards"), "load", "no-such-listing.bas", "--headless"], "stderr", {CLOSED}),
        ([sys.executable, "-m", "games.patience.replay_shuffle", "--seed", "5"], "stdout", {CLOSED}),
        ([str(BIN / "zxcards"), "serve", "--port", "0"], "stdout", {CLOSED}),  # its address could not be said
    ],
)
def test_a_command_whose_output_is_closed_early_ends_quietly(tmp_path, argv, stream, statuses):
    done = run_with_output_closed(argv, tmp_path, stream=stream)
    said = (done.stderr if stream == "stdout" else done.stdout) or b""
    assert b"Traceback" not in said and b"BrokenPipeError" not in said and b"Exception ignored" not in said, said
    assert done.returncode in statuses, said


def test_ctrl_c_in_a_tool_is_status_130_without_a_traceback(monkeypatch, capsys):
    from spectrum import udg_art

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(udg_art, "listing_text", interrupted)
    assert udg_art.main([str(LISTING)]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_a_data_folder_given_that_cannot_be_used_asks_for_another_not_for_data_dir(tmp_path, capsys, monkeypatch):
    file = tmp_path / "mine"
    file.write_text("kept")
    assert cli.main(["canfield", "--data-dir", str(file), "--headless"]) == 1
    assert one_line_error(capsys).endswith(
        f"{file} is a file, not a folder: move it away, or give --data-dir another folder\n"
    )
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the data folder by default is a file: tmp_path/zxcards
    (tmp_path / "zxcards").write_text("kept")
    assert cli.main(["canfield", "--headless"]) == 1
    assert one_line_error(capsys).endswith("is a file, not a folder: move it away, or give --data-dir\n")


def test_patience_says_it_shuffles_outside_the_screen_for_as_long_as_its_help_and_the_readme_say(capsys):
    """The pack is made and shuffled with the title's prompt still up (faithful): the status line
    says so meanwhile, and the time it takes on the Spectrum's clock, from the key, is the one
    `patience --help` and the README give."""
    from games.patience import play
    from spectrum.frontends.pacing import FRAME_SECONDS

    seen = []

    class Recording(HeadlessFrontend):
        def present(self, machine):
            super().present(machine)
            seen.append((machine.frame_count, self.status, bool(machine.keys_held)))

    frontend = Recording(cli.script_presses(" "))
    frontend.status = menu.BACK_TO_MENU
    machine = Spectrum(frontend)
    with pytest.raises(ScriptExhausted):  # at the first move's prompt
        load("patience").run(machine, seed=5)
    key = next(frame for frame, _, held in seen if held)
    shuffling = [frame for frame, status, _ in seen if status == f"{play.SHUFFLING}  ·  {menu.BACK_TO_MENU}"]
    assert shuffling and shuffling == list(range(shuffling[0], shuffling[-1] + 1))  # one stretch, after the key
    assert key < shuffling[0] and seen[-1][1] == menu.BACK_TO_MENU  # the host's own status back afterwards
    seconds = round((shuffling[-1] - key) * FRAME_SECONDS)
    assert seconds == 12
    with pytest.raises(SystemExit):
        cli.command_line().parse_args(["patience", "--help"])
    assert f"not the Spectrum's {seconds} seconds" in " ".join(capsys.readouterr().out.split())
    docs = Path(__file__).resolve().parent.parent / "docs"
    guide = " ".join(" ".join((docs / page).read_text().split()) for page in ("patience.md", "original.md"))
    assert guide.count(f"made and shuffled in {seconds} s") == 2 and "17 s" not in guide.replace("0.17 s", "")


def test_ctrl_c_in_a_connected_terminal_is_status_130_as_in_a_local_run(monkeypatch, capsys):
    from games.host import connect

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(connect, "run", interrupted)
    assert cli.main(["connect", "http://127.0.0.1:8048/patience", "--headless"]) == 130
    assert capsys.readouterr().err == ""
