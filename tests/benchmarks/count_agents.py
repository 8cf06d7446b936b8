"""Instructions of one workload of bench_agents.py, counted by callgrind: a figure that the
other jobs on a shared machine do not move (wall and CPU time do, by tens of percent).

Run under valgrind, instrumentation off until the imports are done::

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \\
        python tests/benchmarks/count_agents.py gym --players 2 --games 4

The script switches instrumentation on (``callgrind_control -i on``) once its imports and
the decisions of the uniform random games are ready, plays the workload and leaves
without the interpreter's teardown, so valgrind's ``Collected`` line is the workload's
instructions. Workloads (those of bench_agents.py, seeds 0 to ``games - 1``): ``engine``
(``play_game`` with ``random`` bots), ``gym`` (the Gymnasium environment against them),
``random`` (the engine's uniform random games), ``aec`` (PettingZoo playing their
decisions), ``openspiel`` (OpenSpiel playing them). To count another checkout's code, put
a folder linking its packages first on ``PYTHONPATH`` (``checkouts.import_path``).
Instruction counts weigh Python's work well, and the arrays copied or cleared *more* than
the CPU does: glibc's ``memcpy``/``memset`` of a few kB or more (``rep movsb``/``rep stosb``)
count one instruction per byte under callgrind (docs/AGENTS.md, "Figures").
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

from bench_agents import aec_game, gym_game, openspiel_game, random_game
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.bots.registry import play_game

WORKLOADS = ("engine", "gym", "random", "aec", "openspiel")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workload", choices=WORKLOADS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    seeds = range(args.games)
    bots = ["random"] * args.players
    decisions = {seed: random_game(seed, args.players, []) for seed in seeds}
    gym, aec = CascadiaEnv(bots[1:]), CascadiaAECEnv(args.players)
    pyspiel = None
    if args.workload == "openspiel":
        import cascadia.bots.agents.openspiel_game  # noqa: F401  # registers python_cascadia
        import pyspiel
    control = shutil.which("callgrind_control")
    if control is None:
        print("callgrind_control not found: nothing will be counted", file=sys.stderr)
    else:
        subprocess.run([control, "-i", "on", str(os.getpid())], check=False, capture_output=True)
    for seed in seeds:
        if args.workload == "engine":
            play_game(seed, bots, decisions=[])
        elif args.workload == "gym":
            gym_game(gym, seed)
        elif args.workload == "random":
            random_game(seed, args.players, [])
        elif args.workload == "aec":
            aec_game(aec, seed, decisions[seed])
        else:
            openspiel_game(pyspiel, args.players, seed, decisions[seed])
    sys.stdout.flush()
    os._exit(0)  # no teardown to count


if __name__ == "__main__":
    main()
