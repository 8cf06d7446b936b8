"""Benchmark: ``stats cards`` over a large dataset, this checkout against a baseline.

Run: python tests/benchmarks/bench_card_stats.py --folder DIR [--scale-up K --into NEW]
         [--baseline CHECKOUT] [--rounds 3]

``--folder DIR``: a study folder or data home with a dataset (``cascadia study DIR -n N``
makes one). ``--scale-up K --into NEW`` first makes NEW, a dataset of the ``games`` and
``players`` tables (what ``stats cards`` reads) of DIR, K times over: each committed batch
as it is and K-1 copies of it under fresh game ids (``uuid5`` of the id and the copy),
written through the dataset's own writer; then times NEW. 10,000 played games scaled up
100 times are a million games, each one a real game's rows (the rates are those of the
10,000). ``--baseline CHECKOUT``: also time the ``card_stats`` of another checkout (say,
a worktree of the commit before), in turn with this one, each run in a fresh process;
prints the wall time and the peak memory of each run and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq
from cascadia.analytics.storage import COMPRESSION, AnalyticsStore, EncodedBatch
from checkouts import CHECKOUT, checkout_environment

TABLES = ("games", "players")
"""What ``stats cards`` reads, and all that ``--scale-up`` writes."""

MARKER = "card-stats-run: "
RUN = f"""
import json, resource, sys, time
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.stats import card_stats
started = time.perf_counter()
with AnalyticsDB(sys.argv[1]) as db:
    rows = card_stats(db)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_SELF)
games = sum(r["games"] for r in rows) // 5
print("{MARKER}" + json.dumps([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, games]))
"""


def scale_up(folder: Path, into: Path, times: int) -> None:
    """Write into ``into`` the ``games`` and ``players`` rows of every committed batch of
    ``folder``'s dataset ``times`` over: the batch itself, then copies ``<batch>-copy<k>``
    with each game under a fresh id."""
    source, target = AnalyticsStore(folder), AnalyticsStore(into)
    with target.writing():
        for batch in source.committed_batches():
            marker = json.loads((source.root / "_commits" / f"{batch}.json").read_text())
            tables = {p: pq.read_table(source.root / p) for p in marker["files"] if p.split("/")[0] in TABLES}
            for k in range(times):
                name = batch if k == 0 else f"{batch}-copy{k}"
                files, rows = {}, {}
                for path, table in tables.items():
                    if k:
                        ids = [str(uuid.uuid5(uuid.UUID(i), str(k))) for i in table["game_id"].to_pylist()]
                        table = table.set_column(
                            table.schema.get_field_index("game_id"), "game_id", pa.array(ids)
                        )
                        batches = pa.array([name] * table.num_rows)
                        table = table.set_column(table.schema.get_field_index("batch"), "batch", batches)
                    sink = pa.BufferOutputStream()
                    pq.write_table(table, sink, compression=COMPRESSION)
                    copy = str(Path(path).with_name(f"{name}.parquet"))
                    files[copy], rows[copy] = sink.getvalue().to_pybytes(), table.num_rows
                target.write_encoded(EncodedBatch(name, marker["source"], files, rows))
    print(f"{into}: the games and players of {folder}, {times} times over", flush=True)


class Run(NamedTuple):
    """One ``card_stats`` in a fresh process."""

    wall: float
    cpu: float
    """seconds of CPU, all of DuckDB's threads (less disturbed than the wall time by
    other work on the machine)"""
    peak: int
    """bytes"""
    games: int


def timed_run(checkout: Path, folder: Path, scratch: Path) -> Run:
    """One ``card_stats`` by ``checkout`` over ``folder``, in a process of its own."""
    env = checkout_environment(checkout, scratch) if checkout != CHECKOUT else None
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(folder)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    # after the marker: an older checkout lets DuckDB draw its progress bar on stdout
    return Run(*json.loads(done.stdout.rsplit(MARKER, 1)[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--scale-up", type=int, default=0)
    parser.add_argument("--into", type=Path)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.scale_up:
        if args.into is None:
            parser.error("--scale-up needs --into NEW (the folder of the scaled-up dataset)")
        scale_up(args.folder, args.into, args.scale_up)
        args.folder = args.into
    checkouts = {"this checkout": CHECKOUT}
    if args.baseline:
        checkouts[f"baseline {args.baseline}"] = args.baseline.resolve()
    samples: dict[str, list[Run]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(args.rounds):
            order = list(checkouts) if r % 2 == 0 else list(reversed(checkouts))
            for name in order:
                samples[name].append(
                    timed_run(checkouts[name], args.folder, Path(scratch, f"{r}-{len(name)}"))
                )
    for name, runs in samples.items():
        walls = ", ".join(f"{run.wall:.2f}" for run in runs)
        cpus = ", ".join(f"{run.cpu:.2f}" for run in runs)
        peak = max(run.peak for run in runs) / 2**20
        print(f"{name}: stats cards over {runs[0].games:,} games")
        print(f"  wall {walls} s; CPU {cpus} s; peak {peak:,.0f} MiB")
    if args.baseline:
        for measure in ("wall", "cpu"):
            this, base = (statistics.median(getattr(r, measure) for r in runs) for runs in samples.values())
            print(f"ratio of the medians of the {measure} time (this / baseline): {this / base:.3f}")


if __name__ == "__main__":
    main()
