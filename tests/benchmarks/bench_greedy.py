"""Benchmark: the greedy bot's strength and speed (issue 3 figures).

Run: python tests/benchmarks/bench_greedy.py [--games 100] [--players 4] [--cards all-a] [--no-wipes]
Prints the mean score per seat over the seeded games with a 95% confidence interval
(normal approximation over per-player totals, Student t would differ by < 1%), and the
median wall time of one complete greedy game, greedy games per second, and the median
CPU time of a game (what a machine shared with other jobs inflates less).
``--no-wipes``: the greedy without its wipe decisions (it never wipes; the games differ),
the figure comparable with a greedy run without its refresh decision.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from cascadia.bots.base import Bot
from cascadia.bots.decisions import Decision
from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.registry import continue_game, make_bots
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state


class GreedyWithoutWipes(GreedyBot):
    """The greedy that never decides a wipe: only its best move each turn."""

    def decide(self, game: Game, wipes: bool = True) -> Decision:
        return super().decide(game, wipes=False)


def play(seed: int, players: int, options: GameOptions, wipes: bool) -> Game:
    bots: list[Bot] = (
        make_bots(["greedy"] * players, seed)
        if wipes
        else [GreedyWithoutWipes(seed, seat) for seat in range(players)]
    )
    return continue_game(Game.start(seed, ["greedy"] * players, options), bots)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", default="all-a")
    parser.add_argument("--no-wipes", action="store_true", help="the greedy without its wipe decisions")
    args = parser.parse_args()
    options = GameOptions(cards=args.cards)
    totals: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    for seed in range(args.games):
        started, cpu_started = time.perf_counter(), time.process_time()
        game = play(seed, args.players, options, wipes=not args.no_wipes)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        totals.extend(p.total for p in score_state(game.state).players)
    mean = statistics.fmean(totals)
    half = 1.96 * statistics.stdev(totals) / math.sqrt(len(totals))
    bot = "greedy without wipes" if args.no_wipes else "greedy"
    print(
        f"{bot}, {args.players} players, cards {args.cards}, seeds 0..{args.games - 1}: "
        f"mean score {mean:.1f} (95% CI {mean - half:.1f}-{mean + half:.1f}, n={len(totals)} player totals, "
        f"sd {statistics.stdev(totals):.1f})"
    )
    median = statistics.median(times)
    print(
        f"median greedy game {median * 1000:.0f} ms ({median * 1000 / (20 * args.players):.2f} ms per turn), "
        f"{args.games / sum(times):.1f} games/s; median CPU {statistics.median(cpu) * 1000:.0f} ms a game"
    )


if __name__ == "__main__":
    main()
