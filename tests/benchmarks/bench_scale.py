"""Benchmark: storage and simulation at scale (issue 7 figures). A script, not a test.

Run: python tests/benchmarks/bench_scale.py [--counts 1000 10000] [--players 4]
         [--backends sqlite postgres] [--workers 1 2] [--postgres-url URL]

For each game count N it measures:

- **simulation**: games per second played by ``simulate_games`` with each worker count
  (nothing stored);
- **storage**, per backend (a fresh SQLite file, or a fresh PostgreSQL schema dropped
  afterwards): events appended and games stored per second, with one game per
  transaction (a game server saving as games end) and with 64 (``cascadia simulate``).
  Only the writes are timed: the games are played beforehand, in chunks of ``--chunk``
  games. "last chunk" is the rate over the final chunk, to show whether appending slows
  down as the store grows;
- **end to end**: ``cascadia simulate``'s loop (play in workers, skip check, store in
  seed order) on SQLite, with each worker count.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from cascadia.application.simulation import simulate_and_store
from cascadia.application.store import GameStore
from cascadia.application.transcoder import MsgpackTranscoder
from cascadia.bots.simulation import simulate_games
from cascadia.domain.events import GameEvent
from cascadia.domain.options import GameOptions
from eventsourcing.persistence import Mapper

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@contextmanager
def fresh_store(backend: str, postgres_url: str) -> Iterator[GameStore]:
    """An empty store on ``backend``, removed afterwards."""
    if backend == "sqlite":
        with (
            tempfile.TemporaryDirectory() as home,
            GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{home}/"}) as store,
        ):
            yield store
        return
    import psycopg

    schema = f"cascadia_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        with GameStore(env={"CASCADIA_DATABASE_URL": f"{postgres_url}?schema={schema}"}) as store:
            yield store
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


MAPPER = Mapper(transcoder=MsgpackTranscoder())
"""Encodes the simulated games as a store with default settings would."""


def chunks(count: int, size: int, names: list[str], workers: int) -> Iterator[list[list[GameEvent]]]:
    """The events of games ``0 .. count-1``, ``size`` games at a time."""
    for start in range(0, count, size):
        seeds = range(start, min(count, start + size))
        yield [
            g.events() for g in simulate_games(seeds, names, GameOptions(), mapper=MAPPER, workers=workers)
        ]


def bench_simulation(count: int, names: list[str], workers: int) -> float:
    started = time.perf_counter()
    for _ in simulate_games(range(count), names, GameOptions(), mapper=MAPPER, workers=workers):
        pass
    return count / (time.perf_counter() - started)


def bench_storage(count: int, names: list[str], backend: str, batch: int, args: argparse.Namespace) -> str:
    """Store ``count`` games, ``batch`` games per transaction; only the writes are timed."""
    saving = last = 0.0
    events = last_games = 0
    with fresh_store(backend, args.postgres_url) as store:
        for chunk in chunks(count, args.chunk, names, max(args.workers)):
            started = time.perf_counter()
            for start in range(0, len(chunk), batch):
                store.save_new_games(chunk[start : start + batch])
            last = time.perf_counter() - started
            saving += last
            last_games = len(chunk)
            events += sum(len(game) for game in chunk)
    return (
        f"{events / saving:9.0f} events/s  {count / saving:7.1f} games/s  "
        f"(last chunk {last_games / last:6.1f} games/s; {events / count:.0f} events/game)"
    )


def bench_end_to_end(count: int, names: list[str], workers: int) -> float:
    """``cascadia simulate``'s loop on a fresh SQLite store: games per second."""
    with fresh_store("sqlite", "") as store:
        started = time.perf_counter()
        for _ in simulate_and_store(store, range(count), names, GameOptions(), workers=workers):
            pass
        return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--backends", nargs="+", default=["sqlite", "postgres"], choices=["sqlite", "postgres"]
    )
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--chunk", type=int, default=1000, help="games played before each timed storage run")
    parser.add_argument(
        "--postgres-url", default=os.environ.get("CASCADIA_TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    args = parser.parse_args()
    names = ["random"] * args.players
    print(f"{args.players} random players; {os.cpu_count()} CPUs")
    for count in args.counts:
        print(f"\n{count} games")
        for workers in args.workers:
            rate = bench_simulation(count, names, workers)
            print(f"  simulate only, {workers} worker(s): {rate:7.1f} games/s")
        for backend in args.backends:
            for batch in (1, 64):
                rate = bench_storage(count, names, backend, batch, args)
                print(f"  store, {backend:8}, {batch:2} game(s)/transaction: {rate}")
        for workers in args.workers:
            rate = bench_end_to_end(count, names, workers)
            print(f"  simulate + store (SQLite), {workers} worker(s): {rate:7.1f} games/s")


if __name__ == "__main__":
    main()
