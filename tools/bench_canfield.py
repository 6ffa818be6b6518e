"""The Canfield solver over numbered deals: how many it wins, proves lost, or leaves undecided
within its time, the time and memory each deal takes, and a published solver's figures beside them.

    python tools/bench_canfield.py                          # deals 1-1000, 20 s each
    python tools/bench_canfield.py --deals 100 --seconds 2  # a quick look
    python tools/bench_canfield.py --deals 10000 --only tools/canfield_hard_deals.txt --workers 1
                                                            # the listed deals alone, one at a time
    python tools/bench_canfield.py --levels 600 [--first F]  # the difficulty levels and the rule player
    python tools/bench_canfield.py --finding 20             # how long a winnable deal takes to find

Each deal is solved in a fresh process (so its peak memory is its own), two at a time (`--workers`),
at low priority; times are processor seconds (the machine is shared). Every win is replayed key by key
through the rules and must bring all 52 cards home.

`--levels N` judges deals F to F+N-1 as the game judges them (the record's budget of positions, one
process, at low priority) and says how the solver's wins fall into the difficulty levels, where
the bounds that would split them in thirds lie, how often the benches' rule player wins at each
level, and what a deal is worth at the casino's terms ($50 a deck, $5 a card) to the rule player
and to a perfect player.

`--finding N` finds N winnable deals of each kind (any level, then each level) as the game's finder
does, on this thread, and says the processor time each took to find: the time a player would
wait if none were found ahead.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from games.canfield import player
from games.canfield.deals import LAST_DEAL, deck_for
from games.canfield.difficulty import EASY_UP_TO, LEVELS, MEDIUM_UP_TO, budget_for, level_of
from games.canfield.finder import FIND_BUDGET, judge_deal
from games.canfield.rules import CARD_PAYS, DECK_PRICE, DECK_SIZE, Canfield
from games.canfield.solver import Solved, is_compiled, solve
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
    return {
        "deal": number,
        "outcome": verdict.outcome.value,
        "nodes": verdict.nodes,
        "seconds": spent,
        "peak_mib": peak,
        "replayed": replayed,
    }


def solve_in_fresh_process(number: int, seconds: float) -> dict:
    command = [sys.executable, __file__, "--one", str(number), "--seconds", str(seconds)]
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    if finished.returncode:
        return {
            "deal": number,
            "outcome": "failed",
            "nodes": 0,
            "seconds": 0.0,
            "peak_mib": 0.0,
            "replayed": None,
            "error": finished.stderr.strip().splitlines()[-1:],
        }
    return json.loads(finished.stdout)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def report(
    deals: int = DEALS, seconds: float = SECONDS, workers: int = WORKERS, numbers: list[int] | None = None
) -> list[str]:
    """Deals 1 to `deals` solved, or only `numbers` when given (the others counted as decided)."""
    started = time.perf_counter()
    chosen = list(range(1, deals + 1)) if numbers is None else [number for number in numbers if number <= deals]
    with ThreadPoolExecutor(workers) as pool:
        results = []
        for result in pool.map(lambda number: solve_in_fresh_process(number, seconds), chosen):
            results.append(result)
            if not len(results) % PROGRESS_EVERY:
                print(f"  {len(results)} deals done", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    count = {
        outcome: sum(result["outcome"] == outcome for result in results)
        for outcome in ("won", "lost", "unknown", "failed")
    }
    times = [result["seconds"] for result in results if result["outcome"] != "failed"]
    peaks = [result["peak_mib"] for result in results if result["outcome"] != "failed"]
    replay_failures = [result["deal"] for result in results if result["replayed"] is False]
    undecided = [result["deal"] for result in results if result["outcome"] == "unknown"]
    lines = [
        f"Canfield solver, deals 1-{deals}, {seconds:g} s of processor time per deal "
        f"(a fresh process each, {workers} at a time, {wall:.0f} s in all)",
        f"  won {count['won'] / deals:.1%}, proved lost {count['lost'] / deals:.1%}, "
        f"undecided {count['unknown'] / deals:.1%}  ({count['won']} / {count['lost']} / {count['unknown']})",
    ]
    lines.insert(
        1, "  the solver " + ("compiled by mypyc (setup.py)" if is_compiled() else "run as Python (not compiled)")
    )
    if numbers is not None:
        lines[0] = (
            f"Canfield solver, the {len(chosen)} deals of the list among 1-{deals}, {seconds:g} s of processor time "
            f"per deal (a fresh process each, {workers} at a time, {wall:.0f} s in all)"
        )
        lines[2] = (
            f"  of them won {count['won']}, proved lost {count['lost']}, undecided {count['unknown']}; "
            f"deals 1-{deals} decided {1 - (count['unknown'] + count['failed']) / deals:.2%}, counting every deal "
            "off the list as decided (and a deal that failed to run as undecided)"
        )
    if times:
        lines.append(
            f"  time per deal: median {_duration(statistics.median(times))}, "
            f"90th percentile {_duration(_percentile(times, 0.9))}, max {_duration(max(times))}"
        )
        lines.append(
            f"  peak memory per deal (whole process): median {statistics.median(peaks):.0f} MiB, "
            f"max {max(peaks):.0f} MiB"
        )
    lines.append(
        "  every win replayed to 52 cards home: " + ("yes" if not replay_failures else f"NO, deals {replay_failures}")
    )
    if count["failed"]:
        lines.append(
            f"  {count['failed']} deals failed to run: "
            + ", ".join(str(result["deal"]) for result in results if result["outcome"] == "failed")
        )
    if undecided:
        lines.append(f"  undecided: deals {', '.join(map(str, undecided))}")
    lines.append(f"  beside it, {ANCHOR}")
    return lines


def judge_and_play(number: int) -> dict:
    """Deal `number` judged with the record's budget, and played by the rule player."""
    verdict = judge_deal(number)
    end, _ = player.play(Canfield(deck_for(number)).position)
    return {
        "deal": number,
        "outcome": verdict.outcome.value,
        "nodes": verdict.nodes,
        "level": level_of(verdict),
        "best_home": verdict.best_home,
        "rule_home": end.cards_home,
    }


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "0/0"


def levels_report(deals: int, first: int = 1) -> list[str]:
    started = time.process_time()
    results = []
    for number in range(first, first + deals):
        results.append(judge_and_play(number))
        if not len(results) % PROGRESS_EVERY:
            print(f"  {len(results)} deals done", file=sys.stderr, flush=True)
    spent = time.process_time() - started
    won = [result for result in results if result["outcome"] == "won"]
    nodes = sorted(result["nodes"] for result in won)
    lines = [
        f"Canfield difficulty, deals {first}-{first + deals - 1}, judged with {FIND_BUDGET:,} positions each "
        f"({spent:.0f} s of processor time in all)",
        f"  the solver wins {_share(len(won), deals)}: "
        + ", ".join(f"{level} {_share(sum(r['level'] == level for r in won), len(won))}" for level in LEVELS)
        + f" (bounds {EASY_UP_TO} and {MEDIUM_UP_TO} positions)",
    ]
    if nodes:
        lines.append(
            f"  bounds that split these wins in thirds: {nodes[len(nodes) // 3 - 1]} and "
            f"{nodes[2 * len(nodes) // 3 - 1]} positions"
        )
    groups = [(level, [r for r in won if r["level"] == level]) for level in LEVELS] + [
        (name, [r for r in results if r["outcome"] == outcome])
        for name, outcome in (("can't be won", "lost"), ("undecided", "unknown"))
    ]
    lines.append(
        "  the rule player wins: "
        + ", ".join(
            f"{name} {_share(sum(r['rule_home'] == DECK_SIZE for r in group), len(group))}" for name, group in groups
        )
        + f"; in all {_share(sum(r['rule_home'] == DECK_SIZE for r in results), deals)}"
    )

    def money(home: float) -> float:
        return CARD_PAYS * home - DECK_PRICE

    rule = statistics.mean(money(r["rule_home"]) for r in results)
    perfect = statistics.mean(
        money(DECK_SIZE if r["outcome"] == "won" else max(r["best_home"], r["rule_home"])) for r in results
    )
    lines.append(
        f"  money a deal at ${DECK_PRICE} a deck and ${CARD_PAYS} a card: the rule player {rule:+.2f}; "
        f"a perfect player at least {perfect:+.2f} (every win, and the most cards home the solver or the "
        "rule player reached on the others)"
    )
    return lines


def finding_report(found: int, seed: int = 1) -> list[str]:
    lines = [
        f"Canfield winnable deals found as the game finds them ({found} of each kind, seed {seed}, "
        "processor time on one thread)"
    ]
    for level in (None, *LEVELS):
        draw = random.Random(seed)
        budget = budget_for(level, FIND_BUDGET)
        times, tried, started = [], 0, time.process_time()
        while len(times) < found:
            verdict = judge_deal(draw.randint(1, LAST_DEAL), budget)
            tried += 1
            if verdict.outcome is Solved.WON and (level is None or level_of(verdict) == level):
                now = time.process_time()
                times.append(now - started)
                started = now
        lines.append(
            f"  {level or 'any level':<9} {tried} deals judged; a deal found in median "
            f"{_duration(statistics.median(times))}, 90th percentile {_duration(_percentile(times, 0.9))}, "
            f"max {_duration(max(times))}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_canfield", description="The Canfield solver over numbered deals.")
    parser.add_argument(
        "--deals",
        type=whole_number(1, LAST_DEAL, "--deals"),
        default=DEALS,
        help="solve deals 1 to N (default %(default)s)",
    )
    parser.add_argument(
        "--seconds",
        type=positive_number("--seconds"),
        default=SECONDS,
        help="processor seconds per deal (default %(default)s)",
    )
    parser.add_argument(
        "--levels",
        type=whole_number(1, LAST_DEAL, "--levels"),
        metavar="N",
        help="judge N deals as the game does: the difficulty levels, the rule player, the money",
    )
    parser.add_argument(
        "--first",
        type=whole_number(1, LAST_DEAL, "--first"),
        default=1,
        help="with --levels, the first deal (default %(default)s)",
    )
    parser.add_argument(
        "--finding",
        type=whole_number(1, 1000, "--finding"),
        metavar="N",
        help="find N winnable deals of each kind: how long each takes",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, 64, "--workers"),
        default=WORKERS,
        help="deals solved at once, each in its own process (default %(default)s)",
    )
    parser.add_argument(
        "--only",
        metavar="FILE",
        help="solve only the deal numbers listed in FILE (the hard ones of a shorter run); the others count as decided",
    )
    parser.add_argument("--one", type=int, metavar="NUMBER", help=argparse.SUPPRESS)  # a child's one deal
    options = parser.parse_args(argv)
    if options.finding is not None:
        os.nice(NICENESS)
        print("\n".join(finding_report(options.finding)))
        return 0
    if options.levels is not None:
        os.nice(NICENESS)
        print("\n".join(levels_report(min(options.levels, LAST_DEAL - options.first + 1), options.first)))
        return 0
    if options.one is not None:
        print(json.dumps(solve_deal(options.one, options.seconds)))
        return 0
    os.nice(NICENESS)  # the children inherit it
    numbers = None
    if options.only is not None:
        with open(options.only) as listed:  # deal numbers; a "#" begins a comment
            words = [word for line in listed for word in line.split("#", 1)[0].split()]
        if not all(word.isdigit() for word in words):
            parser.error(f"{options.only}: not a deal number: {next(w for w in words if not w.isdigit())!r}")
        numbers = sorted({int(word) for word in words})
    print("\n".join(report(options.deals, options.seconds, options.workers, numbers)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
