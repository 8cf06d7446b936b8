"""What the lobby's list of games costs the server: ``GET /api/games?limit=20`` on a
SQLite store of many server games (two human seats each, a few finished by bots), in
process. A script, not a test.

Run: python tests/benchmarks/bench_game_list.py [--games 200 2000] [--requests 40]
         [--baseline DIR]

For each number of games it builds one store with this checkout's code, then serves it
with each checkout in turn (``--baseline DIR``: another checkout, say ``git worktree add
--detach DIR COMMIT``, run first; ``checkouts.py``) in a fresh process, and prints the
first list's time (the process reads the store's log of games and loads the games
listed) and the median of the next ``--requests`` lists (a poll of the lobby: the games
listed are cached). Each number of games starts with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from checkouts import CHECKOUT, LineWorker

LIMIT = 20
FINISHED = 5
"""Games of two bots among the stored ones, played to their end at creation."""


def build(home: str, games: int) -> None:
    """A store of ``games`` server games: the last ``FINISHED`` of two bots, the others of
    two humans."""
    from cascadia.server.app import ServerConfig, create_app
    from fastapi.testclient import TestClient

    with TestClient(create_app(ServerConfig(home=home))) as api:
        for number in range(games):
            bots = number >= games - FINISHED  # the newest: listed, with their results
            seats = [{"bot": "greedy"}, {"bot": "random"}] if bots else [{"name": "ann"}, {"name": "bob"}]
            answer = api.post("/api/games", json={"seats": seats})
            assert answer.status_code == 201, answer.text


def serve(home: str) -> None:
    """Answer each line ``N`` with the times (ms, comma-separated) of N lists of games."""
    from cascadia.server import app as server_app
    from cascadia.server.app import ServerConfig, create_app
    from fastapi.testclient import TestClient

    print(Path(server_app.__file__).resolve().parents[1], flush=True)
    with TestClient(create_app(ServerConfig(home=home))) as api:
        for line in sys.stdin:
            times = []
            for _ in range(int(line)):
                start = time.perf_counter()
                answer = api.get(f"/api/games?limit={LIMIT}")
                times.append((time.perf_counter() - start) * 1000)
                assert answer.status_code == 200 and len(answer.json()["games"]) == LIMIT
            print(",".join(f"{t:.3f}" for t in times), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--serve", metavar="HOME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    checkouts = ([("baseline", args.baseline.resolve())] if args.baseline else []) + [("this", CHECKOUT)]
    for games in args.games:
        print(f"{games} games (load average {os.getloadavg()[0]:.2f})")
        with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as scratch:
            build(home, games)
            for name, checkout in checkouts:
                worker = LineWorker(__file__, [home], checkout, Path(scratch) / name)
                assert worker.runs == checkout, f"{name} runs {worker.runs}, not {checkout}"
                first = float(worker.ask(1))
                polls = [float(t) for t in worker.ask(args.requests).split(",")]
                worker.close()
                median = statistics.median(polls)
                print(f"  {name:8} first list {first:8.1f} ms   next lists: median {median:6.1f} ms")


if __name__ == "__main__":
    main()
