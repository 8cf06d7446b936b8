"""Benchmark: complete random games, in memory and stored in SQLite (issue 2 figures).

Run: python tests/benchmarks/bench_engine.py [--games 200] [--players 4] [--baseline DIR]
Prints the median (and quartiles) of the wall time and of the CPU time of one complete
random game in memory, then the wall time of one played and stored in SQLite.

``--baseline DIR``: instead, the CPU time of the same random games played by this
checkout and by the checkout in ``DIR`` (another worktree, say of ``main``), each in a
process of its own, game by game in turn (who goes first alternates), so that both see
the machine alike; prints both and their ratio.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game
from checkouts import CHECKOUT, LineWorker


def _quartiles(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"median {median * 1000:.2f} ms (quartiles {q1 * 1000:.2f}-{q3 * 1000:.2f} ms)"


def _cpu_per_game(seed: int, players: int) -> float:
    """CPU seconds of one complete random game of ``players`` seats."""
    started = time.process_time()
    play_game(seed, ["random"] * players)
    return time.process_time() - started


def _serve(players: int) -> None:
    """Worker of ``--baseline``: say which checkout's engine it runs, then play the game
    of each seed read from stdin, one a line, and answer with its CPU seconds."""
    print(Path(inspect.getfile(play_game)).resolve().parents[1], flush=True)
    for line in sys.stdin:
        print(_cpu_per_game(int(line), players), flush=True)


def compare(baseline: Path, games: int, players: int) -> None:
    """The CPU time of the same random games here and in ``baseline``, alternately."""
    with tempfile.TemporaryDirectory() as home:
        workers = {
            "this checkout": LineWorker(__file__, ["--players", str(players)], CHECKOUT, Path(home, "this")),
            f"baseline {baseline}": LineWorker(
                __file__, ["--players", str(players)], baseline, Path(home, "baseline")
            ),
        }
        samples: dict[str, list[float]] = {name: [] for name in workers}
        order = list(workers)
        for seed in range(games):
            for name in order if seed % 2 else reversed(order):
                samples[name].append(float(workers[name].ask(seed)))
        for worker in workers.values():
            worker.close()
    print(f"CPU per random game, {players} players, {games} games each, alternating:")
    for name, cpu in samples.items():
        print(
            f"  {name} ({workers[name].runs}): {_quartiles(cpu)}, mean {statistics.fmean(cpu) * 1000:.2f} ms"
        )
    this, base = (statistics.median(cpu) for cpu in samples.values())
    print(f"  ratio of the medians (this / baseline): {this / base:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare CPU time with")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.players)
        return
    if args.baseline is not None:
        compare(args.baseline.resolve(), args.games, args.players)
        return
    bots = ["random"] * args.players

    in_memory = []
    cpu = []
    events = 0
    for seed in range(args.games):
        started, cpu_started = time.perf_counter(), time.process_time()
        game = play_game(seed, bots)
        in_memory.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        events += len(game.collect_events())
    print(f"in memory, {args.players} players, {args.games} games: {_quartiles(in_memory)}")
    print(f"  CPU: {_quartiles(cpu)}")
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
