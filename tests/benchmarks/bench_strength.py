"""Benchmark: a bot's strength (mean score with a 95% interval) and its time per move.

Run: python tests/benchmarks/bench_strength.py --bot greedy [--games 100] [--players 4]
     [--cards all-a] [--no-majority] [--first-seed 0] [--workers 1] [--games-file FILE]
     [--out FILE]

Every seat plays the named bot (``name`` or ``name@budget`` for the search bot), on
the seeds ``first-seed ..``, each game in one of ``--workers`` processes. Two intervals
are printed: the normal approximation over the per-player totals (seats of one game
are correlated a little, so it is slightly optimistic) and over the per-game means of
the seats (the honest one when the seats of a game are not independent). Time per move
is the bot's own time (wall clock of ``play_turn``, and the process's CPU time, which a
machine shared with other jobs inflates less): the mean over every move and the 95th
percentile of the CPU time of one move.

``--games-file FILE``: each finished game is appended to FILE as one line (its seed,
totals and per-move CPU times); run again with the same file, the games it already holds
are read back instead of played, so an interrupted run resumes. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cascadia.bots.registry import make_bots
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state


def play_one(seed: int, names: list[str], options: GameOptions) -> dict:
    """Play the game of ``seed`` with a bot per seat; its totals and each move's times."""
    bots = make_bots(names, seed)
    game = Game.start(seed, names, options)
    wall: list[float] = []
    cpu: list[float] = []
    while not game.finished:
        started, cpu_started = time.perf_counter(), time.process_time()
        bots[game.current_player].play_turn(game)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    totals = [p.total for p in score_state(game.state).players]
    return {"seed": seed, "totals": totals, "wall": wall, "cpu": cpu}


def _interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean - half:.1f}-{mean + half:.1f}"


def summary(label: str, games: list[dict]) -> str:
    """One line: mean seat score, both intervals, time a move (mean wall, mean and p95 CPU)."""
    totals = [t for g in games for t in g["totals"]]
    per_game = [statistics.fmean(g["totals"]) for g in games]
    cpu = sorted(c for g in games for c in g["cpu"])
    wall = [w for g in games for w in g["wall"]]
    p95 = cpu[min(len(cpu) - 1, math.ceil(0.95 * len(cpu)) - 1)]
    sd = statistics.stdev(totals) if len(totals) > 1 else 0.0
    return (
        f"{label}: mean {statistics.fmean(totals):.2f} (95% CI {_interval(totals)} over "
        f"n={len(totals)} seats, sd {sd:.1f}; {_interval(per_game)} over {len(games)} "
        f"games); a move {statistics.fmean(wall) * 1000:.1f} ms wall, CPU mean "
        f"{statistics.fmean(cpu) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", default="all-a")
    parser.add_argument("--no-majority", action="store_true")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games-file", type=Path, help="one line a game; resumes from it")
    parser.add_argument("--out", help="append the result line to this file too")
    args = parser.parse_args()
    options = GameOptions(cards=args.cards, majority_bonus=not args.no_majority)
    names = [args.bot] * args.players
    seeds = range(args.first_seed, args.first_seed + args.games)
    done: dict[int, dict] = {}
    if args.games_file and args.games_file.exists():
        for line in args.games_file.read_text().splitlines():
            game = json.loads(line)
            if game["seed"] in seeds:
                done[game["seed"]] = game
    todo = [seed for seed in seeds if seed not in done]
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play_one, seed, names, options) for seed in todo]
        for future in futures:
            game = future.result()
            done[game["seed"]] = game
            if args.games_file:
                with args.games_file.open("a") as out:
                    out.write(json.dumps(game) + "\n")
            print(f"seed {game['seed']}: {game['totals']} ({len(done)}/{len(seeds)})", flush=True)
    label = (
        f"{args.bot}, {args.players}p, cards {args.cards}, majority "
        f"{'off' if args.no_majority else 'on'}, {args.games} games from seed {args.first_seed}"
    )
    line = summary(label, [done[seed] for seed in seeds])
    print(line)
    if args.out:
        with open(args.out, "a") as out:
            out.write(line + "\n")


if __name__ == "__main__":
    main()
