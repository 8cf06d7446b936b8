"""Benchmark: complete random games, in memory and stored in SQLite (issue 2 figures).

Run: python tests/benchmarks/bench_engine.py [--games 200] [--players 4]
Prints the median (and quartiles) of the wall time of one complete random game.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game


def _quartiles(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"median {median * 1000:.2f} ms (quartiles {q1 * 1000:.2f}-{q3 * 1000:.2f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    bots = ["random"] * args.players

    in_memory = []
    events = 0
    for seed in range(args.games):
        started = time.perf_counter()
        game = play_game(seed, bots)
        in_memory.append(time.perf_counter() - started)
        events += len(game.collect_events())
    print(f"in memory, {args.players} players, {args.games} games: {_quartiles(in_memory)}")
    print(f"  {events / args.games:.0f} events per game")

    with tempfile.TemporaryDirectory() as home:
        store = GameStore(home)
        stored = []
        for seed in range(args.games):
            started = time.perf_counter()
            store.save_game(play_game(seed, bots))
            stored.append(time.perf_counter() - started)
        print(f"played and stored in SQLite, {args.games} games: {_quartiles(stored)}")


if __name__ == "__main__":
    main()
