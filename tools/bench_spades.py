"""Spades computer players, each level against three of the level below.

Every deal is played four times, the player under test in each seat in turn, the other seats by the
level below. Reports mean tricks, win share (ties shared), and the median time of a decision with a
choice in it (a lone legal card is played at once).

    python tools/bench_spades.py [deals]      # default 1000 deals = 4000 hands per pairing

The search pairing dominates: about 16 minutes for 1000 deals on two cores.
"""

import random
import statistics
import sys
import time
from multiprocessing import Pool

from games.spades.cards import DECK
from games.spades.players import make_player, play_seed_hand

PAIRINGS = (("random", "random"), ("rules", "random"), ("mcts", "rules"))
DEALS = 1000
WORKERS = 2


def rotated_deal(job: tuple[str, str, int]) -> list[tuple[int, float, list[float]]]:
    """Deal number `number`, played with `level` in each seat in turn: (tricks, win share, times) each."""
    level, below, number = job
    rng = random.Random(number)
    deck = list(DECK)
    rng.shuffle(deck)
    results = []
    for seat in range(4):
        players = [make_player(below, random.Random(rng.random())) for _ in range(4)]
        players[seat] = make_player(level, random.Random(rng.random()))
        tricks, times = play_seed_hand(deck, players)
        best = max(tricks)
        share = 1 / tricks.count(best) if tricks[seat] == best else 0.0
        results.append((tricks[seat], share, times[seat]))
    return results


def pairing_line(level: str, below: str, deals: int, pool) -> str:
    started = time.perf_counter()
    hands = [hand for deal in pool.imap_unordered(rotated_deal, [(level, below, n) for n in range(deals)], 4)
             for hand in deal]
    tricks = statistics.mean(tricks for tricks, _, _ in hands)
    share = statistics.mean(share for _, share, _ in hands)
    times = [seconds for _, _, decisions in hands for seconds in decisions]
    return (f"{level:>6} vs 3 {below:<6}  {len(hands)} hands: mean tricks {tricks:5.2f}  win share {share:6.1%}  "
            f"median decision {statistics.median(times) * 1e3:7.3f} ms (max {max(times) * 1e3:.0f} ms)  "
            f"[{time.perf_counter() - started:.0f} s on {WORKERS} processes]")


def report(deals: int = DEALS) -> list[str]:
    """One line per pairing (a random player averages 3.25 tricks and wins 25% against random)."""
    with Pool(WORKERS) as pool:
        return [pairing_line(level, below, deals, pool) for level, below in PAIRINGS]


if __name__ == "__main__":
    for line in report(int(sys.argv[1]) if len(sys.argv) > 1 else DEALS):
        print(line)
