"""Benchmark: analytics commands as a user runs them, each a new ``cascadia`` process
(start-up, imports, opening the dataset, the query, printing), this checkout against a
baseline.

Run: python tests/benchmarks/bench_cli_queries.py --home DIR [--baseline CHECKOUT] [--rounds 5]

``--home DIR``: a data home or study folder with a dataset (``cascadia study DIR -n N``, or
the million-game dataset of ``bench_card_stats.py --scale-up``). Times ``cascadia sql``
with one aggregate, ``cascadia stats cards`` and ``cascadia rules`` (no data: start-up
alone). ``--baseline CHECKOUT``: the same commands with another checkout's code (say, a
worktree of the commit before), in turn with this one, so both see the machine alike.
Prints the median wall and CPU seconds of each command and checkout, and the ratios.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkouts import CHECKOUT, checkout_environment

AGGREGATE = (
    "SELECT players, count(*) AS games, avg(winning_score) AS mean_winning_score, "
    "max(winning_score) AS best FROM games GROUP BY players"
)
COMMANDS = {
    "sql": ["sql", AGGREGATE],
    "stats cards": ["stats", "cards"],
    "rules": ["rules"],
}
RUN_CLI = "import sys; from cascadia.cli.app import main; sys.argv[0] = 'cascadia'; main()"


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (the child's user + system time) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN_CLI, *args], env=env, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        checkouts = {"this checkout": checkout_environment(CHECKOUT, Path(scratch, "this"))}
        if args.baseline:
            checkouts[f"baseline {args.baseline}"] = checkout_environment(
                args.baseline, Path(scratch, "base")
            )
        samples = {(name, c): ([], []) for name in COMMANDS for c in checkouts}
        order = list(checkouts)
        for round_ in range(args.rounds):
            for name, command in COMMANDS.items():
                for checkout in order if round_ % 2 else reversed(order):
                    wall, cpu = timed(
                        [*command, "--home", str(args.home)] if name != "rules" else command,
                        checkouts[checkout],
                    )
                    samples[name, checkout][0].append(wall)
                    samples[name, checkout][1].append(cpu)
    print(f"{args.rounds} rounds, {args.home}, load {os.getloadavg()[0]:.1f} at the end")
    for name in COMMANDS:
        medians = {
            c: (statistics.median(samples[name, c][0]), statistics.median(samples[name, c][1]))
            for c in checkouts
        }
        for checkout, (wall, cpu) in medians.items():
            runs = ", ".join(f"{w:.2f}" for w in samples[name, checkout][0])
            print(f"  {name:12} {checkout:40.40} wall {wall:5.2f} s  CPU {cpu:5.2f} s  (walls: {runs})")
        if len(medians) == 2:
            (this_wall, this_cpu), (base_wall, base_cpu) = medians.values()
            print(
                f"  {name:12} this/baseline: wall {this_wall / base_wall:.2f}, CPU {this_cpu / base_cpu:.2f}"
            )


if __name__ == "__main__":
    main()
