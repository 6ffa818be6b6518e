"""Spades computer players and the exact solver, measured.

The ladder: each level against three of the level below (the strongest levels against three rule
players); the ceiling: players that see every hand and know the rule players' habits, against three
rule players — upper bounds no honest player reaches; beside the one- and two-level ceiling, the
solver level's search as many turns deep, guessing the hands (no exact endgame), and what seeing
them is worth, deal by deal. Every deal is played four times, the player
under test in each seat in turn. Rows give the hands counted, mean tricks with a 95% interval
(clustered by deal), win share (ties shared), and the median and largest CPU time of a decision with
a choice in it.

Where the gap is: for the rule player, the solver level and the player that sees one card ahead,
the tricks each card gave away against the best card, both valued exactly on the true deal,
leading and following. Then the full game: a partnership of the solver level (bidding from sampled
play) against a partnership of rule players, games to 500, blind nil allowed: games won, points a
hand, nil bids made.
Last, the solver alone: positions searched per second and the time to solve a deal from trick 1, 5
and 9, against the worst case (every other seat choosing against the side) and against the rule
players' habits.

    python tools/bench_spades.py [--hands N] [--other-hands N] [--given-away-hands N] [--games N]
                                 [--first-game N] [--games-log FILE] [--solver-deals N] [--skip-solver]

`--hands` is the hands of the strongest level against rule players (rounded up to whole deals of
four; 0 leaves the row out), default 4000; `--other-hands` the hands of every other row (default the
same); `--given-away-hands` the hands of each row of tricks given away, default 100; `--games` full
games, default 500, numbered from `--first-game` (default 0; each number its own deals and seats).
`--games-log FILE` appends each full game's result to FILE as it ends and sums every game in FILE, so
the games can be played in parts (`--games 0 --games-log FILE` only sums them).
"""

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing import Pool
from pathlib import Path

from games.cards import NAMES
from games.spades.rules import PLAYERS
from games.spades.full_rules import BLIND_NIL, FullMatch, choose_bid, gambles_blind_nil, partner_of, team_of
from games.spades.players.bidding import sampled_bid
from games.spades.players.habits import Deal, model_for, rule_model
from games.spades.players.information_set import SolverPlayer
from spades_opponents import make_opponent
from games.spades.players import make_player, play_seed_hand
from spades_seeing import KnowingPlayer, SeeingPlayer, dealt_hands
from games.spades.players.views import full_view
from games.spades.rules import seat_of
from games.spades.players.solver import BIT, Budget, OutOfWork, Solver, mask_of
from spectrum.command_line import OneLineParser, new_file, whole_number

LADDER = (("random", "random"), ("rules", "random"), ("mcts", "rules"), ("solver", "rules"))
CEILING = (1, 2, None)  # lookahead levels of the seeing player; None = solved exactly
GUESSING = (1, 2)  # the same lookahead by the solver level's search, guessing the hands
GIVEN_AWAY = ("rules", "solver", 1)  # levels whose tricks given away are shown (1: seeing one card ahead)
WORKERS = 2
SOLVE_LIMIT = 20_000_000  # positions searched before a solve (from the worst case) is given up


def deck_of(number: int) -> list[str]:
    deck = list(NAMES)
    random.Random(number).shuffle(deck)
    return deck


@dataclass(frozen=True)
class Guessing:
    """The solver level's search `levels` turns of its own deep, the rest played out by the habits
    in each guess (no exact endgame): the honest twin of the seeing player of as many levels."""

    levels: int


@dataclass(frozen=True)
class Knowing:
    """For measuring only: a player that sees the deal and knows the others' own play, trying its
    cards `levels` turns deep (`seeing.KnowingPlayer`)."""

    levels: int


def player_under_test(level, deck: list[str], rng: random.Random, below: str):
    """The player of `level` (a name or `Guessing`), or for a lookahead (`None`: exact) a player
    that sees `deck`, or (`Knowing`) one that also knows the play of the `below` it sits with."""
    if level is None or isinstance(level, int):
        return SeeingPlayer(deck, level)
    if isinstance(level, Knowing):
        return KnowingPlayer(deck, make_opponent(below), level.levels)
    if isinstance(level, Guessing):
        return SolverPlayer(depth=level.levels, exact_within=0, rng=random.Random(rng.random()))
    return make_player(level, random.Random(rng.random()))


def level_name(level) -> str:
    if isinstance(level, (Guessing, Knowing)):
        return f"{type(level).__name__.lower()}, {level.levels}-level"
    return level if isinstance(level, str) else ("seeing, exact" if level is None else f"seeing, {level}-level")


def rotated_deal(job) -> list[tuple[int, float, list[float]]]:
    """Deal `number` played four times, `level` in each seat in turn: (tricks, win share, times) each."""
    level, below, number = job
    deck = deck_of(number)
    rng = random.Random(number)
    results = []
    for seat in range(4):
        players = [make_opponent(below, random.Random(rng.random())) for _ in range(4)]
        players[seat] = player_under_test(level, deck, rng, below)
        tricks, times = play_seed_hand(deck, players)
        best = max(tricks)
        share = 1 / tricks.count(best) if tricks[seat] == best else 0.0
        results.append((tricks[seat], share, times[seat]))
    return results


def interval_95(values: list[float]) -> float:
    """Half the width of a 95% interval for the mean of `values`."""
    return 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("nan")


def row(level, below: str, deals: int, pool) -> tuple[str, list[float]]:
    """The row of `level` against three `below` on deals 0 to `deals` - 1, and its mean tricks on
    each deal in turn."""
    started = time.time()
    by_deal = list(pool.imap(rotated_deal, [(level, below, n) for n in range(deals)]))
    hands = [hand for deal in by_deal for hand in deal]
    tricks = statistics.mean(tricks for tricks, _, _ in hands)
    deal_means = [statistics.mean(tricks for tricks, _, _ in deal) for deal in by_deal]
    interval = interval_95(deal_means)
    share = statistics.mean(share for _, share, _ in hands)
    times = [seconds for _, _, decisions in hands for seconds in decisions]
    line = (
        f"{level_name(level):>17} vs 3 {below:<8} {len(hands):5d} hands: tricks {tricks:5.2f} ± {interval:4.2f}  "
        f"win share {share:6.1%}  decision median {statistics.median(times) * 1e3:7.2f} ms, "
        f"max {max(times) * 1e3:6.0f} ms  [{time.time() - started:.0f} s wall]"
    )
    return line, deal_means


def seeing_worth_line(levels: int, seeing: list[float], guessing: list[float]) -> str:
    """What seeing the hands adds to a search `levels` deep, paired deal by deal."""
    differences = [seen - guessed for seen, guessed in zip(seeing, guessing)]
    return (
        f"{'':>17} seeing the hands, {levels}-level, is worth {statistics.mean(differences):+.2f} ± "
        f"{interval_95(differences):.2f} tricks a hand ({len(differences)} deals, each the same for both)"
    )


def given_away(job) -> list[tuple[int, bool, int]]:
    """Deal `number` played four times, `level` in each seat in turn against three rule players: at
    each of its decisions with a choice, what its card gave away against the best card, both valued
    exactly on the true deal (it playing perfectly from there, the others by their habits), as
    (trick 1-13, leading?, tricks given away)."""
    level, number = job
    deck = deck_of(number)
    dealt = dealt_hands(deck)
    rng = random.Random(number)
    losses = []
    for seat in range(4):
        players = [make_player("rules") for _ in range(4)]
        players[seat] = player_under_test(level, deck, rng, "rules")

        def watch(watched, view, card):
            if watched == seat:
                played = mask_of(view.played)
                hands = [hand & ~played for hand in dealt]
                trick = view.trick_bits()
                values = Solver({seat}, model_for(view)).card_values(hands, trick, seat, view.spades_closed)
                losses.append((14 - len(view.hand), not trick, max(values.values()) - values[BIT[card]]))

        play_seed_hand(deck, players, watch)
    return losses


def given_away_line(level, deals: int, pool) -> str:
    started = time.time()
    losses = [loss for deal in pool.imap_unordered(given_away, [(level, n) for n in range(deals)]) for loss in deal]
    hands = 4 * deals

    def per_hand(keep) -> float:
        return sum(loss for trick, leading, loss in losses if keep(trick, leading)) / hands

    by_tricks = " ".join(
        f"{per_hand(lambda trick, leading: leading and first <= trick < first + 3):.2f}" for first in (1, 4, 7, 10)
    )
    return (
        f"{level_name(level):>17} vs 3 rules  {hands:5d} hands: gives away "
        f"{per_hand(lambda *_: True):.2f} tricks a hand, "
        f"{per_hand(lambda _, leading: leading):.2f} leading ({by_tricks} at tricks 1-3, 4-6, 7-9, 10-13), "
        f"{per_hand(lambda _, leading: not leading):.2f} following  [{time.time() - started:.0f} s wall]"
    )


def position(number: int, trick: int) -> Deal:
    """Deal `number` played by the rule players' habits up to the start of `trick` (1-13)."""
    deal = Deal(dealt_hands(deck_of(number)), [], 0, [0] * 4, False, rule_model())
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
                solver = Solver({deal.to_play}, policy, budget=Budget(SOLVE_LIMIT))
                started = time.process_time()
                try:
                    solver.value(deal.hands, [], deal.to_play)
                except OutOfWork:
                    unsolved += 1
                    continue
                seconds.append(time.process_time() - started)
                nodes += solver.nodes
            if not seconds:
                lines.append(
                    f"solve from trick {trick:2d} against the {against:<11}: none of {deals} deals "
                    f"solved within {SOLVE_LIMIT:,} positions"
                )
                continue
            lines.append(
                f"solve from trick {trick:2d} against the {against:<11}: {len(seconds)} of {deals} deals, "
                f"median {statistics.median(seconds) * 1e3:9.1f} ms, max {max(seconds) * 1e3:9.1f} ms, "
                f"{nodes / sum(seconds):8.0f} positions/s"
                + (f"; {unsolved} not solved within {SOLVE_LIMIT:,} positions" if unsolved else "")
            )
    return lines


MOST_HANDS_IN_A_GAME = 200


def play_out(hand, players: list, timed: int, times: list[float]) -> None:
    """A hand of the full game played to its end, each seat's player choosing from its own view; the
    seconds of each decision with a choice of the partnership of seats `timed` and `timed` + 2 added to
    `times`."""
    while not hand.finished:
        player = hand.to_play
        view = full_view(hand, player)
        started = time.process_time()
        card = players[seat_of(player)].choose(view)
        if seat_of(player) % 2 == timed and len(view.legal()) > 1:
            times.append(time.process_time() - started)
        accepted, refusal = hand.play_card(player, NAMES[card])
        if not accepted:
            raise RuntimeError(f"a computer player chose a card the rules refuse: {refusal}")


def level_bid(level: str, hand: list[str], seat: int, leader: int, partner_bid: int | None, rng: random.Random) -> int:
    """A level's bid, as the tables' computers bid: the solver from sampled play, the others by estimate."""
    if level == "solver":
        return sampled_bid(hand, seat, leader, partner_bid, rng)
    return choose_bid(hand, partner_bid)


MIXED = "+"


def full_game(level: str, opponent: str, number: int) -> dict:
    """Game `number` of the full game to 500, blind nil allowed: `level` as one partnership (you and
    north in even games, west and east in odd ones), `opponent` (a level, or one of
    `opponents.OPPONENTS`, bidding its own way and never blind nil; or two of them joined by MIXED,
    one a seat) as the other. Its hands and points; the nils, blind nils, contracts (bids other than
    nil) and bags of `level`'s side, and the other side's nils and how many it set."""
    rng = random.Random(number)
    ours = number % 2
    partners = opponent.split(MIXED)  # "buster+greedy": a partnership of two kinds, seat by seat
    kinds = [level if seat % 2 == ours else partners[seat // 2 % len(partners)] for seat in range(4)]
    players = [
        make_player(level, random.Random(rng.random()))
        if seat % 2 == ours
        else make_opponent(kinds[seat], random.Random(rng.random()))
        for seat in range(4)
    ]
    match = FullMatch(blind_nil=True)
    counts = {
        "nil_bids": 0,
        "nils_made": 0,
        "blind_nil_bids": 0,
        "blind_nils_made": 0,
        "contracts": 0,
        "contracts_made": 0,
        "bags": 0,
        "their_nil_bids": 0,
        "their_nils_set": 0,
        "decisions": [],
    }
    while match.winner is None and len(match.history) < MOST_HANDS_IN_A_GAME:
        hand = match.new_hand(deck_of(rng.getrandbits(64)))
        leader = (seat_of(match.dealer) + 1) % 4
        while hand.bidding:
            player = hand.to_play
            seat = seat_of(player)
            partner_bid = hand.bids[partner_of(player)]
            cards = hand.hand(player)
            computer = seat % 2 == ours or not hasattr(players[seat], "bid")  # bids as the tables' computers
            if (
                computer
                and hand.may_bid_blind_nil(player)
                and gambles_blind_nil(match.scores, team_of(player), partner_bid)
            ):
                bid = BLIND_NIL
            elif computer:
                bid = level_bid(kinds[seat], cards, seat, leader, partner_bid, rng)
            else:
                bid = players[seat].bid(cards, partner_bid)
            hand.bid(player, bid)
        play_out(hand, players, ours, counts["decisions"])
        taken = hand.scores()
        side = [player for player in PLAYERS if seat_of(player) % 2 == ours]
        for player in PLAYERS:
            if hand.bids[player] == 0 and player not in side:
                counts["their_nil_bids"] += 1
                counts["their_nils_set"] += taken[player] > 0
            elif hand.bids[player] == 0:
                kind = "blind_nil" if player in hand.blind else "nil"
                counts[f"{kind}_bids"] += 1
                counts[f"{kind}s_made"] += taken[player] == 0
        contract = sum(hand.bids[player] for player in side if hand.bids[player])
        if contract:
            counts["contracts"] += 1
            counts["contracts_made"] += sum(taken[player] for player in side if hand.bids[player]) >= contract
        counts["bags"] += hand.points()[ours][1]
        match.score(hand)
    return {
        "game": number,
        "hands": len(match.history),
        "points": [match.scores[ours], match.scores[1 - ours]],
        "won": match.winner == ours,
        **counts,
    }


def full_game_results(first: int, games: int, pool, log: Path | None) -> list[dict]:
    """Full games `first` to `first + games - 1`. With a `log`, each game's result is appended to it
    as a line of JSON as soon as the game ends, and the results are every game in the log (a game
    played twice counted once): a long run can go in parts, and be summed again without playing."""
    played = pool.imap_unordered(partial(full_game, "solver", "rules"), range(first, first + games))
    if log is None:
        return list(played)
    for result in played:
        with log.open("a", encoding="utf-8") as file:
            file.write(json.dumps(result) + "\n")
    by_number = {}
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    for line_number, line in enumerate(lines, 1):
        try:
            result = json.loads(line)
            by_number[result["game"]] = result
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"{log}, line {line_number}: not a game's result") from None
    if not by_number:
        raise SystemExit(f"no games in {log}")
    return [by_number[number] for number in sorted(by_number)]


def full_game_line(results: list[dict], wall_seconds: float) -> str:
    hands = sum(result["hands"] for result in results)
    ours = sum(result["points"][0] for result in results) / hands
    theirs = sum(result["points"][1] for result in results) / hands
    won = sum(result["won"] for result in results)
    nil_bids = sum(result["nil_bids"] for result in results)
    nils_made = sum(result["nils_made"] for result in results)
    numbers = sorted(result["game"] for result in results)
    named = (
        f"games {numbers[0]}-{numbers[-1]}"
        if numbers == list(range(numbers[0], numbers[-1] + 1))
        else f"games numbered {numbers[0]} to {numbers[-1]}, some missing"
    )
    return (
        f"full game, solver partnership vs rules partnership: {len(results)} games to 500 ({named}, "
        f"{hands} hands): won {won}; points a hand {ours:.1f} vs {theirs:.1f}; nil bids {nil_bids}, "
        f"made {nils_made}  [{wall_seconds:.0f} s wall]"
    )


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="bench_spades", description=__doc__.splitlines()[0])
    count = whole_number(0, what="a count")
    parser.add_argument(
        "--hands",
        type=count,
        default=4000,
        help="hands of the strongest level against rule players (whole deals of four)",
    )
    parser.add_argument(
        "--other-hands",
        type=count,
        default=None,
        help="hands in each other row of the ladder and the ceiling (default: --hands)",
    )
    parser.add_argument(
        "--given-away-hands",
        type=count,
        default=100,
        help="hands per level in the rows of tricks given away (whole deals of four)",
    )
    parser.add_argument("--solver-deals", type=count, default=5, help="deals per solver row")
    parser.add_argument("--skip-solver", action="store_true", help="leave out the solver's own rows")
    parser.add_argument("--games", type=count, default=500, help="games of the full game to 500 (0: none)")
    parser.add_argument(
        "--first-game",
        type=count,
        default=0,
        help="number of the first full game (to go on from an earlier run's games)",
    )
    parser.add_argument(
        "--games-log", type=new_file, help="append each full game's result to this file and sum every game in it"
    )
    options = parser.parse_args(argv)
    report(
        options.hands,
        options.other_hands,
        options.given_away_hands,
        options.solver_deals,
        options.skip_solver,
        options.games,
        first_game=options.first_game,
        games_log=options.games_log,
        show=lambda line: print(line, flush=True),
    )
    return 0


def noting(show=None) -> tuple[list[str], Callable[[str], None]]:
    """A report's lines, and what notes one as it is measured (telling `show(line)` too, if given)."""
    lines: list[str] = []

    def measured(line: str) -> None:
        lines.append(line)
        if show:
            show(line)

    return lines, measured


QUICK_HANDS, QUICK_GIVEN_AWAY_HANDS, QUICK_SOLVER_DEALS, QUICK_GAMES = 200, 20, 1, 4  # tools/bench.py --quick


def report(
    hands: int = 4000,
    other_hands: int | None = None,
    given_away_hands: int = 100,
    solver_deals: int = 5,
    skip_solver: bool = False,
    games: int = 500,
    *,
    first_game: int = 0,
    games_log: Path | None = None,
    show=None,
) -> list[str]:
    """The ladder, the ceiling, the tricks given away, the full game and the solver's rows, as
    `main` prints them (its options by the same names); `show(line)`, if given, is told each line
    as it is measured."""
    lines, measured = noting(show)
    deals = -(-hands // 4)
    other_deals = deals if other_hands is None else -(-other_hands // 4)
    given_away_deals = -(-given_away_hands // 4)
    with Pool(WORKERS) as pool:
        for level, below in LADDER:
            count = deals if (level, below) == LADDER[-1] else other_deals
            if count:
                measured(row(level, below, count, pool)[0])
        if other_deals:
            seeing = {}
            for levels in CEILING:
                line, seeing[levels] = row(levels, "rules", other_deals, pool)
                measured(line)
            for levels in GUESSING:
                line, guessing = row(Guessing(levels), "rules", other_deals, pool)
                measured(line)
                measured(seeing_worth_line(levels, seeing[levels], guessing))
        if given_away_deals:
            for level in GIVEN_AWAY:
                measured(given_away_line(level, given_away_deals, pool))
        if games or games_log:
            started = time.time()
            results = full_game_results(first_game, games, pool, games_log)
            measured(full_game_line(results, time.time() - started))
    if not skip_solver:
        for line in solver_lines(solver_deals):
            measured(line)
    return lines


if __name__ == "__main__":
    sys.exit(main())
