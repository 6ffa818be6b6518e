"""Every command beside zxcards itself (zxcards-tap, zxcards-udgs, replay_shuffle, the benches and fuse_compare):
--help prints its usage, and a bad argument is said in one line, with an exit code other than 0,
before any work is done."""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.patience import replay_shuffle
from spectrum import make_tap, udg_art

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "games" / "patience" / "patience.bas"
TOOL_MODULES = {
    "bench": "bench",
    "bench_games": "bench_games",
    "bench_patience": "bench_patience",
    "bench_canfield": "bench_canfield",
    "bench_spades": "bench_spades",
    "bench_opponents": "bench_opponents",
    "fuse_compare": "fuse_compare",
}


@pytest.fixture(autouse=True)
def tools_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # as `python tools/bench.py` finds its neighbours


def main_of(command: str):
    mains = {"zxcards-tap": make_tap.main, "zxcards-udgs": udg_art.main, "replay_shuffle": replay_shuffle.main}
    return mains.get(command) or importlib.import_module(TOOL_MODULES[command]).main


def outcome(command: str, argv: list[str], capsys) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of one command line."""
    try:
        code = main_of(command)(argv)
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["zxcards-tap", "zxcards-udgs", "replay_shuffle", *TOOL_MODULES])
def test_help_prints_the_usage_and_does_nothing_else(command, capsys):
    code, out, err = outcome(command, ["--help"], capsys)
    assert code == 0 and out.startswith(f"usage: {command} ") and not err


def bad_files(tmp_path) -> dict[str, Path]:
    binary, empty = tmp_path / "picture.bas", tmp_path / "empty.bas"
    binary.write_bytes(bytes(range(256)))
    empty.write_text("\n")
    return {"binary": binary, "empty": empty, "folder": tmp_path, "missing": tmp_path / "missing.bas"}


@pytest.mark.parametrize(
    "command, argv, said",
    [
        ("zxcards-tap", ["{missing}"], "there is no file"),
        ("zxcards-tap", ["{folder}"], "is a folder, not a file"),
        ("zxcards-tap", [str(LISTING), "-o", "{folder}"], "is a folder: name a file in it"),
        ("zxcards-tap", [str(LISTING), "-o", "{missing}/x.tap"], "there is no folder"),
        ("zxcards-tap", ["{binary}", "--name", "élan"], "printable ASCII"),
        ("zxcards-udgs", ["{missing}"], "there is no file"),
        ("zxcards-udgs", [str(LISTING), "--png", "{folder}"], "is a folder: name a file in it"),
        ("zxcards-udgs", [str(LISTING), "--count", "22"], "1-21"),
        ("zxcards-udgs", [str(LISTING), "--png", "{folder}/udgs.gif"], "must end in .png"),
        ("replay_shuffle", ["--seed", "1", "--scale", "0"], "from 1 up"),
        ("bench", ["printing", "nosuch"], "no section 'nosuch'"),
        ("bench", ["--x"], "unrecognized arguments: --x"),
        ("bench_games", ["-1"], "above 0"),
        ("bench_games", ["five"], "above 0"),
        ("bench_patience", ["now"], "unrecognized arguments: now"),
        ("bench_canfield", ["--deals", "0"], "1-65535"),
        ("bench_canfield", ["--seconds", "nan"], "above 0"),
        ("bench_canfield", ["--levels", "0"], "1-65535"),
        ("bench_canfield", ["--finding", "0"], "1-1000"),
        ("bench_spades", ["--hands", "-4"], "from 0 up"),
        ("bench_spades", ["--games-log", "{folder}"], "is a folder: name a file in it"),
        ("bench_opponents", ["--levels", "rules,nosuch"], "no level 'nosuch'"),
        ("bench_opponents", ["--games", "-1"], "from 0 up"),
        ("bench_opponents", ["--against", "counter,nosuch"], "no opponent 'nosuch'"),
        ("fuse_compare", ["{missing}"], "there is no file"),
        ("fuse_compare", ["{empty}", "--movie", "{folder}/fuse.mov"], "must end in .fmf"),
        ("fuse_compare", ["{empty}", "--pictures", "{empty}"], "is a file, not a folder"),
    ],
)
def test_a_bad_argument_is_said_in_one_line_before_any_work(tmp_path, capsys, command, argv, said):
    files = bad_files(tmp_path)
    code, out, err = outcome(command, [arg.format(**files) for arg in argv], capsys)
    assert code == 2 and not out
    assert err.startswith(f"{command}: ") and said in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "command, content, said",
    [
        ("zxcards-tap", "binary", "not text"),
        ("zxcards-tap", "empty", "the listing has no lines"),
        ("zxcards-udgs", "binary", "not text"),
        ("zxcards-udgs", "empty", "the listing has no lines"),
    ],
)
def test_a_listing_that_is_no_listing_is_said_in_one_line_and_nothing_is_written(
    tmp_path, capsys, command, content, said
):
    listing = bad_files(tmp_path)[content]
    written = tmp_path / ("out.tap" if command == "zxcards-tap" else "out.png")
    code, out, err = outcome(
        command, [str(listing), "-o" if command == "zxcards-tap" else "--png", str(written)], capsys
    )
    assert code == 1 and not out and not written.exists()
    assert err == f"{command}: {listing}: {said}\n"


@pytest.mark.rom
def test_a_listing_that_leaves_no_program_makes_no_tape(tmp_path, capsys):
    listing = tmp_path / "deletes.bas"
    listing.write_text("10 REM gone\n10\n")  # typed in, then deleted
    code, out, err = outcome("zxcards-tap", [str(listing)], capsys)
    assert code == 1 and not out and "no line is left in the program" in err and err.count("\n") == 1
    assert not (tmp_path / "deletes.tap").exists()


def test_the_tape_is_never_written_over_its_listing(tmp_path, capsys):
    listing = tmp_path / "game.tap"  # a listing, named as its tape would be
    listing.write_text('10 PRINT "hello"\n')
    code, out, err = outcome("zxcards-tap", [str(listing)], capsys)
    assert code == 2 and "over the listing" in err and listing.read_text() == '10 PRINT "hello"\n'


def test_a_file_name_that_cannot_be_a_tape_name_asks_for_one(tmp_path, capsys):
    listing = tmp_path / "pâté.bas"
    listing.write_text('10 PRINT "hello"\n')
    code, out, err = outcome("zxcards-tap", [str(listing)], capsys)
    assert code == 2 and "give --name" in err and not (tmp_path / "pâté.tap").exists()


def test_the_shuffle_s_window_without_a_display_says_what_to_do_instead():
    environment = {
        key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    done = subprocess.run(
        [sys.executable, "-m", "games.patience.replay_shuffle", "--seed", "1", "--window"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 1 and done.stdout == ""  # not even pygame's greeting
    assert done.stderr.count("\n") == 1 and "leave out --window" in done.stderr


def test_the_opponents_bench_sets_each_level_beside_players_that_see_every_hand_against_that_opponent():
    import bench_opponents

    lines = bench_opponents.report(hands=4, games=0, levels=("rules",), against=("counter",))
    assert [line.split(" vs 3 ")[0].strip() for line in lines[:3]] == ["rules", "seeing, exact", "knowing, 3-level"]
    assert all("vs 3 counter " in line for line in lines[1:3])
    seen = {line.split(" vs 3 ")[0].strip(): float(line.split("tricks ")[1].split()[0]) for line in lines[1:3]}
    best = max(seen, key=seen.get)
    assert f"vs 3 counter, the edge of the best seeing player ({best}: " in lines[3]
    edge = float(lines[3].split(f"{best}: ")[1].split()[0])
    assert edge == pytest.approx(seen[best] - 13 / 4, abs=0.006)
    assert ("recovered: rules " in lines[3]) == (edge > 0) != lines[3].endswith("none, no share to recover")


def test_the_canfield_levels_bench_counts_each_deal_once_by_its_verdict_and_the_rule_player_s_game():
    import bench_canfield
    from games.canfield import player
    from games.canfield.deals import deck_for
    from games.canfield.difficulty import level_of
    from games.canfield.finder import judge_deal
    from games.canfield.rules import Canfield

    lines = bench_canfield.levels_report(6, first=3)
    verdicts = [judge_deal(number) for number in range(3, 9)]
    won = [verdict for verdict in verdicts if verdict.outcome.value == "won"]
    assert f"the solver wins {len(won)}/6" in lines[1]
    for level in ("easy", "medium", "hard"):
        assert f"{level} {sum(level_of(verdict) == level for verdict in won)}/{len(won)}" in lines[1]
    rule_wins = sum(player.play(Canfield(deck_for(number)).position)[0].cards_home == 52 for number in range(3, 9))
    assert lines[3].endswith(f"in all {rule_wins}/6 ({rule_wins / 6:.0%})")
    homes = [player.play(Canfield(deck_for(number)).position)[0].cards_home for number in range(3, 9)]
    assert f"the rule player {sum(5 * home - 50 for home in homes) / 6:+.2f}" in lines[4]


def test_the_canfield_bench_counts_a_deal_that_failed_to_run_as_undecided(monkeypatch):
    """A deal whose process failed (an import error, a crash) is not decided: of a list of two
    among deals 1-10, one won and one failed leaves 9 of 10 decided."""
    import bench_canfield
    from games.canfield.solver import is_compiled

    def solved(number, seconds):
        if number == 7:
            return {"deal": 7, "outcome": "failed", "nodes": 0, "seconds": 0.0, "peak_mib": 0.0, "replayed": None}
        return {"deal": number, "outcome": "won", "nodes": 5, "seconds": 0.1, "peak_mib": 50.0, "replayed": True}

    monkeypatch.setattr(bench_canfield, "solve_in_fresh_process", solved)
    lines = bench_canfield.report(deals=10, seconds=1, workers=1, numbers=[3, 7])
    assert lines[1] == "  the solver " + (
        "compiled by mypyc (setup.py)" if is_compiled() else "run as Python (not compiled)"
    )
    assert "of them won 1, proved lost 0, undecided 0; deals 1-10 decided 90.00%" in lines[2]
    assert any(line == "  1 deals failed to run: 7" for line in lines)
