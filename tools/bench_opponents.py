"""Spades levels against opponents of habits other than ours (tools/spades_opponents.py).

The seed's game: each level in one seat against three of one opponent, every deal played four
times (the level in each seat in turn): mean tricks with a 95% interval clustered by deal (the nil
buster and the sandbagger are left out there: with no bids, they play as the rule player and the
card counter); on the same deals, two players that see every hand: one solves exactly, judging the
others by the rule player's habits, the other knows the opponents' own play and tries its cards
KNOWING_LEVELS turns deep; and the share of the better one's edge over one of the three (who take
13/4 a hand among four of their kind) that each level recovers. The full
game: a partnership of each level against a partnership of one opponent (or of two, one a seat:
mixed tables), games to 500, blind nil allowed: games won, nils bid and made, blind nils made,
contracts (a partnership's bids other than nil) made, bags a hand, the other side's nils set, and
the level's decision times. Every figure is from this one run.

    python tools/bench_opponents.py [--hands N] [--games N] [--seeing-hands N] [--levels random,rules,mcts,solver]
                                    [--against rules,buster,...,counter+sandbagger]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_spades  # noqa: E402  (beside this file)
from games.spades.full_rules import MOST_TRICKS  # noqa: E402
from spades_opponents import OPPONENTS, NilBuster, Sandbagger  # noqa: E402
from games.spades.players import LEVELS  # noqa: E402
from spectrum.command_line import OneLineParser, whole_number  # noqa: E402

AGAINST = ("rules", *OPPONENTS)  # our rule player first, as the row everyone knows
# with no bids the nil buster plays as the rule player, and the sandbagger as the card counter
SEED_AGAINST = tuple(name for name in AGAINST if name not in (NilBuster.name, Sandbagger.name))
MIXED_PAIRS = tuple(
    bench_spades.MIXED.join(pair) for pair in (("buster", "greedy"), ("cautious", "rules"), ("counter", "sandbagger"))
)
HANDS, GAMES = 400, 20
QUICK_HANDS, QUICK_GAMES = 40, 2  # tools/bench.py --quick
KNOWING_LEVELS = 3  # the seeing player that knows the others' own play tries its cards this many turns deep


def full_game_line(level: str, opponent: str, games: int, pool) -> str:
    started = time.time()
    results = list(pool.imap_unordered(partial(bench_spades.full_game, level, opponent), range(games)))
    total = {key: sum(result[key] for result in results) for key in results[0] if key not in ("decisions", "points")}
    hands = total["hands"]
    decisions = [seconds for result in results for seconds in result["decisions"]]
    return (
        f"full game {level:>7} pair vs {opponent:<19} pair: won {total['won']}/{games} ({total['won'] / games:.0%}); "
        f"nils bid {total['nil_bids']} in {hands} hands ({total['nil_bids'] / (2 * hands):.1%} of bids), made "
        f"{total['nils_made']} ({total['nils_made'] / max(1, total['nil_bids']):.0%}); blind nils "
        f"{total['blind_nils_made']}/{total['blind_nil_bids']} made; contracts made "
        f"{total['contracts_made']}/{total['contracts']} ({total['contracts_made'] / max(1, total['contracts']):.0%}); "
        f"bags {total['bags'] / hands:.2f} a hand; their nils set {total['their_nils_set']}/{total['their_nil_bids']}; "
        f"decision median {statistics.median(decisions) * 1e3:.1f} ms, max {max(decisions) * 1e3:.0f} ms  "
        f"[{time.time() - started:.0f} s wall]"
    )


def edge_line(opponent: str, tricks: dict[str, float], seeing: str, seen: float) -> str:
    """The share of the edge over one `opponent` that the player `seeing` every hand has (`seen`
    tricks; four players of one kind take 13/4 each) which each level's `tricks` recover."""
    fair_share = MOST_TRICKS / 4
    edge = seen - fair_share
    said = f"{'':>17} vs 3 {opponent}, the edge of the best seeing player ({seeing}: {edge:+.2f} tricks a hand)"
    if edge <= 0:
        return f"{said}: none, no share to recover"
    return f"{said} recovered: " + ", ".join(
        f"{level} {(mean - fair_share) / edge:.0%}" for level, mean in tricks.items()
    )


def report(
    hands: int = HANDS,
    games: int = GAMES,
    levels: tuple[str, ...] = tuple(LEVELS),
    show=None,
    seeing_hands: int | None = None,
    against: tuple[str, ...] = (*AGAINST, *MIXED_PAIRS),
) -> list[str]:
    """Every row of `levels` against the opponents `against`; `show(line)`, if given, is told each as
    it is measured. The seeing players' rows have `seeing_hands` (default `hands`; 0 leaves them out)."""
    lines, measured = bench_spades.noting(show)
    deals = -(-hands // 4)
    seeing_deals = deals if seeing_hands is None else -(-seeing_hands // 4)
    with Pool(bench_spades.WORKERS) as pool:
        for opponent in [name for name in SEED_AGAINST if name in against] if deals else ():
            tricks = {}
            for level in levels:
                line, deal_means = bench_spades.row(level, opponent, deals, pool)
                measured(line)
                tricks[level] = statistics.mean(deal_means)
            if seeing_deals:
                ceilings = {}
                for seeing in (None, bench_spades.Knowing(KNOWING_LEVELS)):
                    line, deal_means = bench_spades.row(seeing, opponent, seeing_deals, pool)
                    measured(line)
                    ceilings[bench_spades.level_name(seeing)] = statistics.mean(deal_means)
                measured(edge_line(opponent, tricks, *max(ceilings.items(), key=lambda ceiling: ceiling[1])))
        for opponent in against if games else ():
            for level in levels:
                measured(full_game_line(level, opponent, games, pool))
    return lines


def names_from(choices: tuple[str, ...], what: str):
    """An argument type: names by commas, each one of `choices`."""

    def names(text: str) -> tuple[str, ...]:
        chosen = tuple(name for name in text.split(",") if name)
        unknown = [name for name in chosen if name not in choices]
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(
                f"no {what} {unknown[0] if unknown else text!r}: choose from {', '.join(choices)}"
            )
        return chosen

    return names


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_opponents", description=__doc__.splitlines()[0])
    count = whole_number(0, what="a count")
    parser.add_argument("--hands", type=count, default=HANDS, help=f"hands of each seed-game row (default {HANDS})")
    parser.add_argument("--games", type=count, default=GAMES, help=f"full games of each pairing (default {GAMES})")
    parser.add_argument(
        "--seeing-hands",
        type=count,
        default=None,
        help="hands of the rows of the players that see every hand (default: --hands; 0 leaves them out)",
    )
    parser.add_argument(
        "--levels",
        type=names_from(tuple(LEVELS), "level"),
        default=tuple(LEVELS),
        help=f"the levels measured, by commas (default {','.join(LEVELS)})",
    )
    opponents = (*AGAINST, *MIXED_PAIRS)
    parser.add_argument(
        "--against",
        type=names_from(opponents, "opponent"),
        default=opponents,
        help=f"the opponents, by commas (default {','.join(opponents)}; the seed's game leaves out "
        f"{NilBuster.name} and {Sandbagger.name})",
    )
    options = parser.parse_args(argv)
    report(
        options.hands,
        options.games,
        options.levels,
        show=partial(print, flush=True),
        seeing_hands=options.seeing_hands,
        against=options.against,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
