"""Spades levels against opponents of habits other than ours (games/spades/opponents.py).

The seed's game: each level in one seat against three of one opponent, every deal played four
times (the level in each seat in turn): mean tricks with a 95% interval clustered by deal (the nil
buster is left out there: with no bids, it plays as the rule player). The full
game: a partnership of each level against a partnership of one opponent, games to 500: games won,
nils bid and made, contracts (a partnership's bids other than nil) made. Every figure is from this
one run.

    python tools/bench_opponents.py [--hands N] [--games N] [--levels random,rules,mcts,solver]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_spades  # noqa: E402  (beside this file)
from games.spades.bidding import sampled_bid  # noqa: E402
from games.spades.full_rules import FullMatch, choose_bid, partner_of  # noqa: E402
from games.spades.opponents import OPPONENTS, NilBuster, make_opponent  # noqa: E402
from games.spades.players import LEVELS, make_player  # noqa: E402
from games.spades.rules import PLAYERS  # noqa: E402
from games.spades.views import seat_of  # noqa: E402
from spectrum.command_line import OneLineParser, whole_number  # noqa: E402

AGAINST = ("rules", *OPPONENTS)  # our rule player first, as the row everyone knows
SEED_AGAINST = tuple(name for name in AGAINST if name != NilBuster.name)  # with no bids it plays as the rule player
HANDS, GAMES = 400, 20
MOST_HANDS_IN_A_GAME = bench_spades.MOST_HANDS_IN_A_GAME


def level_bid(level: str, hand: list[str], seat: int, leader: int, partner_bid: int | None, rng: random.Random) -> int:
    """A level's bid, as the home table's computers bid: the solver from sampled play, the others by estimate."""
    if level == "solver":
        return sampled_bid(hand, seat, leader, partner_bid, rng)
    return choose_bid(hand, partner_bid)


def full_game(level: str, opponent: str, number: int) -> dict:
    """Game `number` to 500: `level` as one partnership (seats 0 and 2 in even games, 1 and 3 in odd),
    `opponent` as the other; who won, nils and contracts of the level's side."""
    rng = random.Random(number)
    ours = number % 2
    players = [make_player(level, random.Random(rng.random())) if seat % 2 == ours
               else make_opponent(opponent, random.Random(rng.random())) for seat in range(4)]
    match = FullMatch()
    counts = {"nil_bids": 0, "nils_made": 0, "contracts": 0, "contracts_made": 0}
    while match.winner is None and len(match.history) < MOST_HANDS_IN_A_GAME:
        hand = match.new_hand(bench_spades.deck_of(rng.getrandbits(64)))
        leader = (seat_of(match.dealer) + 1) % 4
        while hand.bidding:
            player = hand.to_play
            seat = seat_of(player)
            partner_bid = hand.bids[partner_of(player)]
            cards = hand.hand(player)
            if seat % 2 == ours or not hasattr(players[seat], "bid"):
                bid = level_bid(level if seat % 2 == ours else opponent, cards, seat, leader, partner_bid, rng)
            else:
                bid = players[seat].bid(cards, partner_bid)
            hand.bid(player, bid)
        bench_spades.play_out(hand, players)
        taken = hand.scores()
        side = [player for player in PLAYERS if seat_of(player) % 2 == ours]
        for player in side:
            if hand.bids[player] == 0:
                counts["nil_bids"] += 1
                counts["nils_made"] += taken[player] == 0
        contract = sum(hand.bids[player] for player in side if hand.bids[player])
        if contract:
            counts["contracts"] += 1
            counts["contracts_made"] += sum(taken[player] for player in side if hand.bids[player]) >= contract
        match.score(hand)
    return {"won": match.winner == ours, "hands": len(match.history), **counts}


def full_game_line(level: str, opponent: str, games: int, pool) -> str:
    started = time.time()
    results = list(pool.imap_unordered(partial(full_game, level, opponent), range(games)))
    total = {key: sum(result[key] for result in results) for key in results[0]}
    hands = total["hands"]
    return (f"full game {level:>7} pair vs {opponent:<8} pair: won {total['won']}/{games} ({total['won'] / games:.0%}); "
            f"nils bid {total['nil_bids']} in {hands} hands ({total['nil_bids'] / (2 * hands):.0%} of bids), made "
            f"{total['nils_made']}; contracts made {total['contracts_made']}/{total['contracts']}  "
            f"[{time.time() - started:.0f} s wall]")


def report(hands: int = HANDS, games: int = GAMES, levels: tuple[str, ...] = tuple(LEVELS), show=None) -> list[str]:
    """Every row; `show(line)`, if given, is told each as it is measured."""
    lines = []
    deals = -(-hands // 4)
    with Pool(bench_spades.WORKERS) as pool:
        for opponent in SEED_AGAINST:
            for level in levels:
                if deals:
                    lines.append(bench_spades.row(level, opponent, deals, pool)[0])
                    if show:
                        show(lines[-1])
        for opponent in AGAINST:
            for level in levels:
                if games:
                    lines.append(full_game_line(level, opponent, games, pool))
                    if show:
                        show(lines[-1])
    return lines


def level_list(text: str) -> tuple[str, ...]:
    names = tuple(name for name in text.split(",") if name)
    unknown = [name for name in names if name not in LEVELS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"no level {unknown[0] if unknown else text!r}: choose from {', '.join(LEVELS)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_opponents", description=__doc__.splitlines()[0])
    count = whole_number(0, what="a count")
    parser.add_argument("--hands", type=count, default=HANDS, help=f"hands of each seed-game row (default {HANDS})")
    parser.add_argument("--games", type=count, default=GAMES, help=f"full games of each pairing (default {GAMES})")
    parser.add_argument("--levels", type=level_list, default=tuple(LEVELS),
                        help=f"the levels measured, by commas (default {','.join(LEVELS)})")
    options = parser.parse_args(argv)
    report(options.hands, options.games, options.levels, show=partial(print, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
