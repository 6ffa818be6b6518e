"""The Canfield solver over numbered deals: how many it wins, proves lost, or gives up on within
its node budget, and the time it takes per deal.

    python tools/bench_canfield.py [deals] [budget]    # default deals 1-1000, budget 20,000 positions
"""

import statistics
import sys
import time
from multiprocessing import Pool

from games.canfield.deals import deck_for
from games.canfield.rules import Canfield
from games.canfield.solver import DEFAULT_BUDGET, solve

DEALS = 1000
WORKERS = 2


def solve_deal(job: tuple[int, int]) -> tuple[str, int, float]:
    """Deal `number` solved from the layout: (outcome, positions expanded, CPU seconds). CPU time,
    not wall time: the machines running this are shared."""
    number, budget = job
    position = Canfield(deck_for(number)).position
    started = time.process_time()
    verdict = solve(position, budget)
    return verdict.outcome, verdict.nodes, time.process_time() - started


def report(deals: int = DEALS, budget: int = DEFAULT_BUDGET) -> list[str]:
    started = time.perf_counter()
    with Pool(WORKERS) as pool:
        results = pool.map(solve_deal, [(number, budget) for number in range(1, deals + 1)], chunksize=8)
    wall = time.perf_counter() - started
    count = {outcome: sum(result[0] == outcome for result in results) for outcome in ("won", "lost", "unknown")}
    seconds = sorted(result[2] for result in results)
    won_seconds = [result[2] for result in results if result[0] == "won"]
    return [f"Canfield solver, deals 1-{deals}, budget {budget:,} positions per deal ({WORKERS} processes, "
            f"{wall:.0f} s in all)",
            f"  solve rate {count['won'] / deals:.1%} won, {count['lost'] / deals:.1%} proved lost, "
            f"{count['unknown'] / deals:.1%} undecided within the budget",
            f"  CPU time per deal: median {statistics.median(seconds) * 1e3:.0f} ms, mean "
            f"{statistics.mean(seconds) * 1e3:.0f} ms, 90th percentile {seconds[int(0.9 * len(seconds))] * 1e3:.0f} ms, "
            f"max {seconds[-1]:.2f} s",
            f"  median CPU time to a win {statistics.median(won_seconds) * 1e3:.0f} ms" if won_seconds else "  no win found"]


if __name__ == "__main__":
    arguments = [int(argument) for argument in sys.argv[1:3]]
    print("\n".join(report(*arguments)))
