"""Spades computer players and the exact solver, measured.

The ladder: each level against three of the level below (the strongest levels against three rule
players); the ceiling: players that see every hand and know the rule players' habits, against three
rule players — upper bounds no honest player reaches. Every deal is played four times, the player
under test in each seat in turn. Rows give the hands counted, mean tricks with a 95% interval
(clustered by deal), win share (ties shared), and the median and largest CPU time of a decision with
a choice in it. Then the solver alone: positions searched per second and the time to solve a deal
from trick 1, 5 and 9, against the worst case (every other seat choosing against the side) and
against the rule players' habits.

    python tools/bench_spades.py [--hands N] [--solver-deals N] [--skip-solver]

`--hands` is hands per row (rounded up to whole deals of four); default 4000.
"""

import argparse
import random
import statistics
import time
from multiprocessing import Pool

from games.cards import BY_NAME, NAMES
from games.spades.players import Deal, SeeingPlayer, make_player, play_seed_hand, rule_model
from games.spades.solver import OutOfTime, Solver, mask_of

LADDER = (("random", "random"), ("rules", "random"), ("mcts", "rules"), ("solver", "rules"))
CEILING = (1, 2, None)   # lookahead levels of the seeing player; None = solved exactly
WORKERS = 2
SOLVE_LIMIT = 60.0       # CPU seconds before a solve from the worst case is given up


def deck_of(number: int) -> list[str]:
    deck = list(NAMES)
    random.Random(number).shuffle(deck)
    return deck


def rotated_deal(job) -> list[tuple[int, float, list[float]]]:
    """Deal `number` played four times, `level` in each seat in turn: (tricks, win share, times) each."""
    level, below, number = job
    deck = deck_of(number)
    rng = random.Random(number)
    results = []
    for seat in range(4):
        players = [make_player(below, random.Random(rng.random())) for _ in range(4)]
        players[seat] = SeeingPlayer(deck, level) if isinstance(level, int) or level is None else \
            make_player(level, random.Random(rng.random()))
        tricks, times = play_seed_hand(deck, players)
        best = max(tricks)
        share = 1 / tricks.count(best) if tricks[seat] == best else 0.0
        results.append((tricks[seat], share, times[seat]))
    return results


def row(level, below: str, deals: int, pool) -> str:
    started = time.time()
    by_deal = list(pool.imap_unordered(rotated_deal, [(level, below, n) for n in range(deals)]))
    hands = [hand for deal in by_deal for hand in deal]
    tricks = statistics.mean(tricks for tricks, _, _ in hands)
    deal_means = [statistics.mean(tricks for tricks, _, _ in deal) for deal in by_deal]
    interval = 1.96 * statistics.stdev(deal_means) / len(deal_means) ** 0.5 if len(deal_means) > 1 else float("nan")
    share = statistics.mean(share for _, share, _ in hands)
    times = [seconds for _, _, decisions in hands for seconds in decisions]
    name = level if isinstance(level, str) else ("seeing, exact" if level is None else f"seeing, {level}-level")
    return (f"{name:>15} vs 3 {below:<6} {len(hands):5d} hands: tricks {tricks:5.2f} ± {interval:4.2f}  "
            f"win share {share:6.1%}  decision median {statistics.median(times) * 1e3:7.2f} ms, "
            f"max {max(times) * 1e3:6.0f} ms  [{time.time() - started:.0f} s wall]")


def position(number: int, trick: int) -> Deal:
    """Deal `number` played by the rule players' habits up to the start of `trick` (1-13)."""
    deck = deck_of(number)
    hands = [mask_of(BY_NAME[name].index for name in deck[13 * (3 - seat):13 * (4 - seat)]) for seat in range(4)]
    deal = Deal(hands, [], 0, [0] * 4, False, rule_model())
    for _ in range(4 * (trick - 1)):
        deal.play(deal.habitual_card())
    return deal


def solver_lines(deals: int) -> list[str]:
    lines = []
    for trick in (9, 5, 1):
        for against, policy in (("worst case", None), ("rule habits", rule_model())):
            seconds, nodes, unsolved = [], 0, 0
            for number in range(deals):
                deal = position(number, trick)
                solver = Solver({deal.to_play}, policy, deadline=time.process_time() + SOLVE_LIMIT)
                started = time.process_time()
                try:
                    solver.value(deal.hands, [], deal.to_play)
                except OutOfTime:
                    unsolved += 1
                    continue
                seconds.append(time.process_time() - started)
                nodes += solver.nodes
            if not seconds:
                lines.append(f"solve from trick {trick:2d} against the {against:<11}: none of {deals} deals "
                             f"solved within {SOLVE_LIMIT:.0f} s")
                continue
            lines.append(f"solve from trick {trick:2d} against the {against:<11}: {len(seconds)} of {deals} deals, "
                         f"median {statistics.median(seconds) * 1e3:9.1f} ms, max {max(seconds) * 1e3:9.1f} ms, "
                         f"{nodes / sum(seconds):8.0f} positions/s" +
                         (f"; {unsolved} not solved within {SOLVE_LIMIT:.0f} s" if unsolved else ""))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000, help="hands per row (whole deals of four)")
    parser.add_argument("--solver-deals", type=int, default=5, help="deals per solver row")
    parser.add_argument("--skip-solver", action="store_true", help="leave out the solver's own rows")
    options = parser.parse_args()
    deals = max(1, -(-options.hands // 4))
    with Pool(WORKERS) as pool:
        for level, below in LADDER:
            print(row(level, below, deals, pool), flush=True)
        for levels in CEILING:
            print(row(levels, "rules", deals, pool), flush=True)
    if not options.skip_solver:
        for line in solver_lines(options.solver_deals):
            print(line, flush=True)


if __name__ == "__main__":
    main()
