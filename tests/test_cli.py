"""The zxcards command: menu, programs, headless scripts, screenshots, sound, BREAK, no display."""

import os
import subprocess
import sys
import wave

import numpy as np
import pygame
import pytest

from games import cli, testcard
from games.cardfaces import SUIT_UDGS, poke_udgs
from spectrum import Spectrum
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.render import FRAME_HEIGHT, FRAME_WIDTH


def test_key_scripts_mix_text_and_named_keys():
    assert cli.script_presses("1a{ENTER}{CAPS+5}") == ["1", "a", frozenset({"ENTER"}), frozenset({"CAPS", "5"})]


def test_testcard_headless_writes_its_screen_and_its_scale(tmp_path):
    png, wav = tmp_path / "card.png", tmp_path / "scale.wav"
    assert cli.main(["--headless", "--screenshot", str(png), "--wav", str(wav), "testcard"]) == 0
    picture = pygame.image.load(str(png))
    assert picture.get_size() == (2 * FRAME_WIDTH, 2 * FRAME_HEIGHT)
    expected = Spectrum()
    poke_udgs(expected, SUIT_UDGS)
    testcard.draw(expected)
    shown = pygame.surfarray.array3d(picture)
    assert len(np.unique(shown.reshape(-1, 3), axis=0)) >= 15  # all 15 distinct Spectrum colours
    with wave.open(str(wav)) as sound:
        seconds = sound.getnframes() / sound.getframerate()
    assert abs(seconds - 0.2 * len(testcard.SCALE)) < 0.05


def run_menu(keys: str) -> Spectrum:
    machine = Spectrum(HeadlessFrontend(cli.script_presses(keys)))
    with pytest.raises(ScriptExhausted):
        cli.play(machine, None)
    return machine


TESTCARD_KEY = str(list(cli.PROGRAMS).index("testcard") + 1)


def test_menu_starts_the_chosen_program():
    machine = run_menu(TESTCARD_KEY)
    assert machine.screen_char(0, 8) == "Z"  # " ZX CARDS TEST CARD " is showing
    assert machine.border == 1


def test_break_in_a_program_goes_back_to_the_menu_and_break_in_the_menu_leaves():
    machine = run_menu(TESTCARD_KEY + "{CAPS+SPACE}")
    assert machine.screen_char(1, 11) == "Z" and machine.screen_char(0, 8) == " "  # the menu again
    machine = Spectrum(HeadlessFrontend(cli.script_presses("{CAPS+SPACE}")))
    cli.play(machine, None)  # returns: BREAK in the menu leaves


def test_other_keys_in_the_menu_are_ignored():
    machine = run_menu("x9 0")
    assert machine.screen_char(1, 11) == "Z"


def test_window_opens_shows_the_menu_and_closes_on_quit(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert cli.main(["--scale", "1"]) == 0


def test_without_a_display_it_says_so_in_one_line():
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    done = subprocess.run([sys.executable, "-m", "games"], capture_output=True, text=True, env=environment,
                          timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "--headless" in done.stderr


def test_program_options_reach_only_the_program_that_takes_them(capsys):
    assert cli.main(["--headless", "--deal", "3"]) == 1
    assert "name it" in capsys.readouterr().err
    assert cli.main(["--headless", "patience", "--deal", "3"]) == 1
    assert "patience has no --deal option" in capsys.readouterr().err
    assert cli.main(["--headless", "spades", "--practice"]) == 1
    assert cli.main(["--headless", "canfield", "--deal", "70000"]) == 1
    assert "numbered 1 to 65535" in capsys.readouterr().err
    parser_args = type("Args", (), {"seed": None, "deal": 7, "data_dir": None, "practice": True,
                                    "level": None, "full": False})()
    assert cli.program_options("canfield", parser_args) == {"deal": 7, "practice": True}


def test_a_report_other_than_break_is_said_on_stderr(capsys):
    assert cli.main(["--headless", "patience", "--seed", "70000", "--keys", "{ENTER}" * 4]) == 1
    assert "B Integer out of range" in capsys.readouterr().err


def test_the_key_that_picks_a_program_is_not_also_the_programs_first_key():
    from spectrum import sysvars

    machine = Spectrum(HeadlessFrontend(cli.script_presses("3")))
    chosen = cli.menu(machine, [cli.load(name) for name in cli.PROGRAMS])
    assert chosen is cli.load("spades")
    assert not machine.keys_held and not machine.peek(sysvars.FLAGS) & 0x20
