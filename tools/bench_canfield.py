"""The Canfield solver over numbered deals: how many it wins, proves lost, or leaves undecided
within its time, the time and memory each deal takes, and a published solver's figures beside them.

    python tools/bench_canfield.py                          # deals 1-1000, 20 s each
    python tools/bench_canfield.py --deals 100 --seconds 2  # a quick look

Each deal is solved in a fresh process (so its peak memory is its own), two at a time, at low
priority; times are processor seconds (the machine is shared). Every win is replayed key by key
through the rules and must bring all 52 cards home.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from games.canfield.deals import LAST_DEAL, deck_for
from games.canfield.rules import Canfield
from games.canfield.solver import Solved, solve
from games.protocol import MoveRefused
from spectrum.command_line import OneLineParser, positive_number, whole_number

DEALS = 1000
SECONDS = 20.0
WORKERS = 2
NICENESS = 10
PROGRESS_EVERY = 100  # deals between progress lines (on stderr)
# Solvitaire (Blake & Gent), canfield-strict, on random deals under our rules, 20 s per deal
ANCHOR = "Solvitaire: 69.5% won, 27.3% proved lost, 3.25% undecided at 20 s; median < 10 ms; peak 1.5 GiB"


def wins(deck: list[str], line: tuple[str, ...]) -> bool:
    """Whether pressing the line's keys, every one taken, brings all 52 cards home."""
    game = Canfield(deck)
    try:
        for key in "".join(line):
            game.press(key)
    except MoveRefused:
        return False
    return game.won


def solve_deal(number: int, seconds: float) -> dict:
    """Deal `number` solved from the layout in this process: the verdict, processor seconds, peak
    memory (MiB) and, for a win, whether its keys win the deal when pressed."""
    deck = deck_for(number)
    started = time.thread_time()
    verdict = solve(Canfield(deck).position, seconds=seconds)
    spent = time.thread_time() - started
    replayed = wins(deck, verdict.line) if verdict.outcome is Solved.WON else None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    return {"deal": number, "outcome": verdict.outcome.value, "nodes": verdict.nodes, "seconds": spent,
            "peak_mib": peak, "replayed": replayed}


def solve_in_fresh_process(number: int, seconds: float) -> dict:
    command = [sys.executable, __file__, "--one", str(number), "--seconds", str(seconds)]
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    if finished.returncode:
        return {"deal": number, "outcome": "failed", "nodes": 0, "seconds": 0.0, "peak_mib": 0.0,
                "replayed": None, "error": finished.stderr.strip().splitlines()[-1:]}
    return json.loads(finished.stdout)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def report(deals: int = DEALS, seconds: float = SECONDS) -> list[str]:
    started = time.perf_counter()
    with ThreadPoolExecutor(WORKERS) as pool:
        results = []
        for result in pool.map(lambda number: solve_in_fresh_process(number, seconds), range(1, deals + 1)):
            results.append(result)
            if not len(results) % PROGRESS_EVERY:
                print(f"  {len(results)} deals done", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    count = {outcome: sum(result["outcome"] == outcome for result in results)
             for outcome in ("won", "lost", "unknown", "failed")}
    times = [result["seconds"] for result in results if result["outcome"] != "failed"]
    peaks = [result["peak_mib"] for result in results if result["outcome"] != "failed"]
    replay_failures = [result["deal"] for result in results if result["replayed"] is False]
    undecided = [result["deal"] for result in results if result["outcome"] == "unknown"]
    lines = [f"Canfield solver, deals 1-{deals}, {seconds:g} s of processor time per deal "
             f"(a fresh process each, {WORKERS} at a time, {wall:.0f} s in all)",
             f"  won {count['won'] / deals:.1%}, proved lost {count['lost'] / deals:.1%}, "
             f"undecided {count['unknown'] / deals:.1%}  ({count['won']} / {count['lost']} / {count['unknown']})"]
    if times:
        lines.append(f"  time per deal: median {_duration(statistics.median(times))}, "
                     f"90th percentile {_duration(_percentile(times, 0.9))}, max {_duration(max(times))}")
        lines.append(f"  peak memory per deal (whole process): median {statistics.median(peaks):.0f} MiB, "
                     f"max {max(peaks):.0f} MiB")
    lines.append("  every win replayed to 52 cards home: "
                 + ("yes" if not replay_failures else f"NO, deals {replay_failures}"))
    if count["failed"]:
        lines.append(f"  {count['failed']} deals failed to run: "
                     + ", ".join(str(result["deal"]) for result in results if result["outcome"] == "failed"))
    if undecided:
        lines.append(f"  undecided: deals {', '.join(map(str, undecided))}")
    lines.append(f"  beside it, {ANCHOR}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_canfield", description="The Canfield solver over numbered deals.")
    parser.add_argument("--deals", type=whole_number(1, LAST_DEAL, "--deals"), default=DEALS,
                        help="solve deals 1 to N (default %(default)s)")
    parser.add_argument("--seconds", type=positive_number("--seconds"), default=SECONDS,
                        help="processor seconds per deal (default %(default)s)")
    parser.add_argument("--one", type=int, metavar="NUMBER", help=argparse.SUPPRESS)  # a child's one deal
    options = parser.parse_args(argv)
    if options.one is not None:
        print(json.dumps(solve_deal(options.one, options.seconds)))
        return 0
    os.nice(NICENESS)  # the children inherit it
    print("\n".join(report(options.deals, options.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
