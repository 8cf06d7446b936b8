"""Instructions of one study shard, counted by callgrind: the work of a study worker
(``play_shard``: play, score, record, rows, shard and Parquet encoding, the collector's
passes), a figure that the other jobs on a shared machine do not move (its CPU time moves
by tens of per cent from one minute to the next, even side by side).

Run under valgrind, instrumentation off until the imports and a warm-up shard are done::

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \\
        python tests/benchmarks/count_study.py --games 200 [--bot random]

The script plays a warm-up shard of ``--games`` games (seeds after the counted ones, so
every cache a first game fills is filled), switches instrumentation on
(``callgrind_control -i on``), plays shard 0 of ``--games`` 4-seat games, and leaves
without the interpreter's teardown, so valgrind's ``Collected`` line is the shard's
instructions (divide by ``--games``). To count another checkout's code, put a folder
linking its packages first on ``PYTHONPATH`` (``checkouts.import_path``). Instruction
counts weigh memory effects (caches, the allocator) less than the CPU does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    from cascadia.application.study import StudySpec, play_shard
    from cascadia.domain.options import GameOptions

    names = (args.bot,) * 4
    play_shard(StudySpec(names, GameOptions(), 0, 2 * args.games, args.games), 1)  # the warm-up
    control = shutil.which("callgrind_control")
    if control is None:
        print("callgrind_control not found: nothing will be counted", file=sys.stderr)
    else:
        subprocess.run([control, "-i", "on", str(os.getpid())], check=True, capture_output=True)
    play_shard(StudySpec(names, GameOptions(), 0, args.games, args.games), 0)
    sys.stdout.flush()
    os._exit(0)  # no teardown: valgrind's count is the shard's


if __name__ == "__main__":
    main()
