"""Benchmark: a bot's strength (mean score with a 95% interval) and its time per move.

Run: python tests/benchmarks/bench_strength.py --bot greedy [--games 100] [--players 4]
     [--cards all-a] [--no-majority] [--first-seed 0] [--out FILE]

Every seat plays the named bot (``name`` or ``name@budget`` for the search bot), on
the seeds ``first-seed ..``; the interval is the normal approximation over the
per-player totals (seats of one game are correlated a little, so it is slightly
optimistic). Time per move is the bots' own time (wall clock of ``play_turn``, and the
process's CPU time, which a machine shared with other jobs inflates less) divided by
the turns played. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from cascadia.bots.registry import make_bots
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", default="all-a")
    parser.add_argument("--no-majority", action="store_true")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", help="append the result line to this file too")
    args = parser.parse_args()
    options = GameOptions(cards=args.cards, majority_bonus=not args.no_majority)
    names = [args.bot] * args.players
    totals: list[int] = []
    seconds = 0.0
    cpu = 0.0
    turns = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        bots = make_bots(names, seed)
        game = Game.start(seed, names, options)
        while not game.finished:
            started, cpu_started = time.perf_counter(), time.process_time()
            bots[game.current_player].play_turn(game)
            seconds += time.perf_counter() - started
            cpu += time.process_time() - cpu_started
            turns += 1
        totals.extend(p.total for p in score_state(game.state).players)
    mean = statistics.fmean(totals)
    sd = statistics.stdev(totals) if len(totals) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(totals))
    line = (
        f"{args.bot}, {args.players}p, cards {args.cards}, majority {'off' if args.no_majority else 'on'}, "
        f"{args.games} games from seed {args.first_seed}: mean {mean:.1f} "
        f"(95% CI {mean - half:.1f}-{mean + half:.1f}, n={len(totals)}, sd {sd:.1f}); "
        f"{seconds / turns * 1000:.1f} ms per move ({cpu / turns * 1000:.1f} ms CPU)"
    )
    print(line)
    if args.out:
        with open(args.out, "a") as out:
            out.write(line + "\n")


if __name__ == "__main__":
    main()
