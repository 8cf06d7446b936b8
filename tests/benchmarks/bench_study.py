"""Benchmark: a study end to end, as a user runs it (issue 21 figures).

Runs ``cascadia study DIR ...`` (played, written as shards and Parquet, ready to query),
then ``cascadia stats cards`` and one SQL aggregate over the result, and prints the wall
time of each, the study's size on disk (shards, Parquet) and the peak memory of the
whole process tree (the command and its worker processes, summed, sampled every 0.2 s).

Run: python tests/benchmarks/bench_study.py --games 100000 --workers 2 [--bot random]
     [--folder DIR] [--shard-size 1000] [--keep] [--cluster-workers N]
--cluster-workers N plays on a local Dask cluster of N worker processes instead.
With --cpu it instead prints the CPU time per game of each stage of playing one shard in
this process (play, score, record for the shard, analytics rows, shard encoding, Parquet,
and the garbage collector's passes: at each chunk of rows and at the end of the shard).

``--cpu --baseline DIR [--shards 10] [--games 200]``: instead, the CPU per game of each
stage for the same shards (``--shards`` of ``--games`` games each) played by this checkout
and by the checkout in ``DIR`` (another worktree), each in a process of its own, shard by
shard in turn (who goes first alternates), so that both see the machine alike; prints the
stages of both, their ratios, and whether the shard and Parquet bytes of every shard are
the same in both (they must be).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CASCADIA = str(Path(sys.executable).with_name("cascadia"))
AGGREGATE = (
    "SELECT players, count(*) AS games, avg(winning_score) AS mean_winning_score, "
    "max(winning_score) AS best FROM games GROUP BY players"
)


def tree_rss(root: int) -> int:
    """The resident memory of ``root`` and all its descendants, in bytes (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields["PPid"]), []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def timed(args: list[str]) -> tuple[float, int, str]:
    """Run a command; its wall time, the peak memory of its process tree, and its output.
    Prints the CPU time of the tree (user + system of the command and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    started = time.perf_counter()
    sampler.start()
    output, _ = process.communicate()
    elapsed = time.perf_counter() - started
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"  ({args[1]}: CPU {cpu:,.1f} s in all, load average {os.getloadavg()[0]:.1f} at the end)")
    if process.returncode:
        raise SystemExit(f"{' '.join(args)} failed with exit code {process.returncode}")
    return elapsed, peak[0], output


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def end_to_end(args: argparse.Namespace) -> None:
    folder = Path(args.folder or tempfile.mkdtemp(prefix="cascadia-study-"))
    command = [CASCADIA, "study", str(folder), "-n", str(args.games), "--bot", args.bot]
    command += ["--shard-size", str(args.shard_size)]
    if args.cluster_workers:
        seconds, peak = on_local_cluster(command, args.cluster_workers)
    else:
        seconds, peak, _ = timed([*command, "--workers", str(args.workers)])
    shards, parquet = size(folder / "shards"), size(folder / "analytics")
    where = f"a local Dask cluster of {args.cluster_workers}" if args.cluster_workers else args.workers
    print(f"study: {args.games:,} {args.bot} 4-player games, {where} worker(s)")
    print(
        f"  wall {seconds:,.1f} s ({args.games / seconds:,.0f} games/s); peak memory {peak / 2**20:,.0f} MiB"
    )
    print(
        f"  disk: shards {shards / 2**20:,.1f} MiB ({shards / args.games:,.0f} B/game), "
        f"Parquet {parquet / 2**20:,.1f} MiB ({parquet / args.games:,.0f} B/game), "
        f"total {(shards + parquet) / 2**30:,.2f} GiB"
    )
    for label, query in (("stats cards", ["stats", "cards"]), ("SQL aggregate", ["sql", AGGREGATE])):
        seconds, peak, _ = timed([CASCADIA, *query, "--home", str(folder)])
        print(f"  {label}: {seconds:.2f} s (peak memory {peak / 2**20:,.0f} MiB)")
    if not args.keep and not args.folder:
        shutil.rmtree(folder)


def on_local_cluster(command: list[str], workers: int) -> tuple[float, int]:
    """Run the study on a local Dask cluster of ``workers`` one-thread worker processes
    (started first, not timed); the peak memory is the command's alone."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster:
        seconds, peak, _ = timed([*command, "--cluster", cluster.scheduler_address])
    return seconds, peak


STAGES = ("play", "score", "record", "rows", "encode", "parquet", "collect")


def shard_stages(bot: str, index: int, shard_size: int) -> tuple[dict[str, float], str]:
    """Play shard ``index`` (of ``shard_size`` games) of a study of 4 ``bot`` seats as a
    study worker does, in this process: the CPU seconds of each stage (:data:`STAGES`)
    and the SHA-256 of the shard's bytes and Parquet files together."""
    from cascadia.application.study import StudySpec
    from cascadia.domain.options import GameOptions

    spec = StudySpec((bot,) * 4, GameOptions(), 0, shard_size * (index + 1), shard_size)
    from cascadia.application import study

    try:  # the garbage collector as a study worker runs it
        from cascadia.analytics.collector import collector_paused
    except ImportError:  # a checkout before it: its way, or Python's
        try:
            from cascadia.analytics.collector import young_collections_rarer as collector_paused
        except ImportError:
            collector_paused = contextlib.nullcontext
    collect_young = getattr(study, "collect_young", _no_collection)  # a checkout that made them
    with collector_paused():
        spent, digest = _timed_stages(spec, index, collect_young)
        t0 = time.process_time()
    spent["collect"] += time.process_time() - t0  # the collection at the end of the pause
    return spent, digest


def _no_collection() -> None:
    """The young collection at each chunk of rows, in a checkout that does not make one."""


def _timed_stages(spec: Any, index: int, collect_young: Callable[[], None]) -> tuple[dict[str, float], str]:
    """:func:`shard_stages` for ``spec`` (a ``StudySpec``), its rows turned into Arrow (and
    ``collect_young`` called) every ``ROWS_CHUNK`` games as
    :func:`~cascadia.application.study.play_shard` does."""
    import pyarrow as pa
    from cascadia.analytics.rows import BatchColumns
    from cascadia.analytics.storage import encode_batch
    from cascadia.application import study
    from cascadia.bots.registry import bot_game_id, play_game
    from cascadia.projections.game_scores import score_state
    from cascadia.replays.shard import encode_shard
    from cascadia.replays.shard_games import record_game

    clock = time.process_time
    spent = dict.fromkeys(STAGES, 0.0)
    columns, games, chunks = BatchColumns(), [], []
    for seed in spec.shard_seeds(index):
        if len(columns) == getattr(study, "ROWS_CHUNK", None):  # as play_shard: rows into Arrow
            t0 = clock()
            chunks.append(columns.tables(spec.batch(index)))
            columns = BatchColumns()
            t1 = clock()
            collect_young()
            spent["rows"] += t1 - t0
            spent["collect"] += clock() - t1
        t0 = clock()
        decisions: list = []
        game = play_game(
            seed, spec.names, spec.options, bot_game_id(seed, spec.names, spec.options), decisions=decisions
        )
        events = game.collect_events()
        t1 = clock()
        scored = score_state(game.state)
        t2 = clock()
        games.append(record_game(game, events, scored.to_dict(), decisions))
        t3 = clock()
        columns.add_game(events, game.state, scored)
        t4 = clock()
        for stage, seconds in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=False):
            spent[stage] += seconds
    t0 = clock()
    shard = encode_shard(spec.id, index, spec.setup, games)
    t1 = clock()
    chunks.append(columns.tables(spec.batch(index)))
    tables = {name: pa.concat_tables([chunk[name] for chunk in chunks]) for name in chunks[0]}
    batch = encode_batch(tables, spec.batch(index), spec.source)
    spent["encode"], spent["parquet"] = t1 - t0, clock() - t1
    digest = hashlib.sha256(shard)
    for path, data in sorted(batch.files.items()):
        digest.update(path.encode() + data)
    return spent, digest.hexdigest()


def cpu_per_stage(args: argparse.Namespace) -> None:
    spent, _ = shard_stages(args.bot, 0, args.games)
    total = sum(spent.values())
    print(f"CPU per {args.bot} 4-player game, {args.games} games in this process:")
    for stage, seconds in spent.items():
        print(f"  {stage:<7} {seconds / args.games * 1000:6.2f} ms")
    print(f"  {'total':<7} {total / args.games * 1000:6.2f} ms")


def _serve(bot: str, shard_size: int) -> None:
    """Worker of ``--baseline``: say which checkout's code it runs, then play the shard of
    each index read from stdin, one a line, and answer with :func:`shard_stages` as JSON."""
    from cascadia.application import study

    print(Path(study.__file__).resolve().parents[1], flush=True)
    for line in sys.stdin:
        spent, digest = shard_stages(bot, int(line), shard_size)
        print(json.dumps({"spent": spent, "digest": digest}), flush=True)


def compare(args: argparse.Namespace) -> None:
    """The CPU per game and stage of the same shards here and in ``args.baseline``,
    shard by shard in turn (module docstring)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from checkouts import CHECKOUT, LineWorker

    serve = ["--bot", args.bot, "--games", str(args.games)]
    with tempfile.TemporaryDirectory() as home:
        workers = {
            "this": LineWorker(__file__, serve, CHECKOUT, Path(home, "this")),
            "baseline": LineWorker(__file__, serve, args.baseline.resolve(), Path(home, "baseline")),
        }
        spent = {name: dict.fromkeys(STAGES, 0.0) for name in workers}
        differ = []
        order = list(workers)
        for index in range(args.shards):
            answers = {}
            for name in order if index % 2 else reversed(order):
                answers[name] = json.loads(workers[name].ask(index))
                for stage, seconds in answers[name]["spent"].items():
                    spent[name][stage] += seconds
            if answers["this"]["digest"] != answers["baseline"]["digest"]:
                differ.append(index)
        for worker in workers.values():
            worker.close()
    games = args.shards * args.games
    print(
        f"CPU per {args.bot} 4-player game, {args.shards} shards of {args.games} games each, "
        f"alternating (load average {os.getloadavg()[0]:.1f} at the end):"
    )
    for name, worker in workers.items():
        print(f"  {name}: {worker.runs}")
    print(f"  {'stage':<8}{'this':>9}{'baseline':>10}{'ratio':>8}")
    for stage in (*STAGES, "total"):
        this, base = (
            (sum(spent[name].values()) if stage == "total" else spent[name][stage]) for name in workers
        )
        print(f"  {stage:<8}{this / games * 1000:7.2f} ms{base / games * 1000:7.2f} ms{this / base:8.3f}")
    if differ:
        raise SystemExit(f"the shard or Parquet bytes differ from the baseline's in shards {differ}")
    print("  shard and Parquet bytes: identical in every shard")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--shard-size", type=int, default=1000)
    parser.add_argument("--folder", help="Where to write the study (kept); default a temporary folder.")
    parser.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    parser.add_argument(
        "--cluster-workers", type=int, default=0, help="Play on a local Dask cluster of this many workers."
    )
    parser.add_argument("--cpu", action="store_true", help="CPU time per game and stage, in this process.")
    parser.add_argument("--baseline", type=Path, help="with --cpu: another checkout to compare with")
    parser.add_argument("--shards", type=int, default=10, help="with --baseline: shards of --games each")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.bot, args.games)
    elif args.cpu and args.baseline is not None:
        compare(args)
    elif args.cpu:
        cpu_per_stage(args)
    else:
        end_to_end(args)


if __name__ == "__main__":
    main()
