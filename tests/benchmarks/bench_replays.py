"""Benchmark of the replay tools (issue 4 figures), on 4-player random-bot games.

Run: python tests/benchmarks/bench_replays.py [--logs 1000] [--samples 50] [--players 4]

Prints the bytes per game (the msgpack log, and the same events as compact JSON), the
median time to replay, audit and rerun one game, and audits per second over a folder
of ``--logs`` log files (one process, files read from disk).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cascadia.bots.registry import play_game
from cascadia.domain.state import GameState, evolve
from cascadia.replays.audit import audit_file
from cascadia.replays.format import LogHeader, open_log, write_log
from cascadia.replays.replay import replay_log
from cascadia.replays.rerun import rerun
from cascadia.replays.scores import final_score_sheet


def _median_ms(samples: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"median {median * 1000:.2f} ms (quartiles {q1 * 1000:.2f}-{q3 * 1000:.2f} ms)"


def _timed(function: Callable[[Path], object], paths: list[Path]) -> list[float]:
    samples = []
    for path in paths:
        started = time.perf_counter()
        function(path)
        samples.append(time.perf_counter() - started)
    return samples


def _fold(path: Path) -> GameState:
    """Replay without audit: read the log and fold every event into the final state."""
    with open_log(path) as reader:
        state = GameState(reader.header.game_id)
        for record in reader.records():
            evolve(state, record.to_event(reader.header.game_id))
    return state


def _replay_turns(path: Path) -> int:
    """What ``cascadia replay`` does: audit, then the state and running scores per turn."""
    _, snapshots = replay_log(path)
    return sum(1 for _ in snapshots)


def write_games(folder: Path, count: int, players: int) -> tuple[list[Path], list[int], list[int]]:
    """``count`` finished games as logs; their sizes as logs and as JSON."""
    paths, log_sizes, json_sizes = [], [], []
    for seed in range(count):
        game = play_game(seed, ["random"] * players)
        events = game.collect_events()
        path = folder / f"{seed:06d}.cascadia"
        log_sizes.append(
            write_log(path, LogHeader.from_events(events), events, final_score_sheet(game.state))
        )
        as_json = [{"seq": e.originator_version, "type": e.type, "payload": e.payload()} for e in events]
        json_sizes.append(len(json.dumps(as_json, separators=(",", ":")).encode()))
        paths.append(path)
    return paths, log_sizes, json_sizes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--logs", type=int, default=1000, help="logs in the folder to audit (default 1000)")
    parser.add_argument("--samples", type=int, default=50, help="games timed for the per-game medians")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        paths, log_sizes, json_sizes = write_games(folder, max(args.logs, args.samples), args.players)
        print(f"wrote {len(paths)} {args.players}-player logs in {time.perf_counter() - started:.1f} s")
        print(
            f"bytes per game: log {statistics.mean(log_sizes):,.0f} (msgpack, hash chain included), "
            f"events as compact JSON {statistics.mean(json_sizes):,.0f} "
            f"(log/JSON = {statistics.mean(log_sizes) / statistics.mean(json_sizes):.2f})"
        )
        sample = paths[: args.samples]
        print(f"replay, fold to the final state: {_median_ms(_timed(_fold, sample))}")
        print(f"replay, audit + every turn with running scores: {_median_ms(_timed(_replay_turns, sample))}")
        print(f"audit: {_median_ms(_timed(audit_file, sample))}")
        out = folder / "rerun.cascadia"
        print(f"rerun (to a new file): {_median_ms(_timed(lambda p: rerun(p, out), sample))}")

        folder_paths = paths[: args.logs]
        started = time.perf_counter()
        results = [audit_file(path) for path in folder_paths]
        elapsed = time.perf_counter() - started
        assert all(r.valid for r in results), [r.message for r in results if not r.valid][:3]
        print(
            f"audit of a folder of {len(folder_paths)} logs: {elapsed:.2f} s, "
            f"{len(folder_paths) / elapsed:.0f} audits/s (one process)"
        )


if __name__ == "__main__":
    main()
