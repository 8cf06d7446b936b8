"""Instructions per command of the game server in one process, counted by callgrind: the
workload of ``bench_requests.py`` (two-seat games with a stream open per seat, each
command waited for until both streams have delivered it, the seat's view read after
it), a figure that the other jobs on a shared machine do not move (CPU time does, by
tens of per cent).

Run under valgrind, instrumentation off until the application is built and warm::

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/dev/null \\
        python tests/benchmarks/count_requests.py --games 10 --commands 100

It plays ``--commands`` commands to warm up, switches instrumentation on
(``callgrind_control -i on``), plays ``--commands`` more and leaves without the
interpreter's teardown, so valgrind's ``Collected`` line is the counted commands'
instructions, every thread's (divide by ``--commands``). The games' seeds come from a
seeded generator instead of :mod:`secrets`, so a run is repeatable up to the order in
which threads interleave. What runs on a clock is slowed down or left out, because
under valgrind a command takes about a hundred times longer and those would be counted
a hundred times over: the stream poller (it only finds other processes' writes; none
here) polls once an hour, the turn-time check runs once an hour and a stream's
fallback look every hour. To count another checkout's code, put a folder linking its
packages first on ``PYTHONPATH`` (``checkouts.import_path``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_requests import play, serving

HOUR = 3600.0


def _slow_clocks() -> None:
    """The turn-time check and the streams' fallback look once an hour (see the module
    docstring); the games' seeds drawn from a seeded generator."""
    from cascadia.server import app, streams

    app.TURN_CHECK_SECONDS = HOUR  # type: ignore[misc]
    streams.FALLBACK_SECONDS = HOUR  # type: ignore[misc]
    secrets.randbits = random.Random(26).getrandbits  # type: ignore[assignment]


def _instrument(control: str | None, state: str) -> None:
    """Switch callgrind's instrumentation of this process ``on`` or ``off``."""
    if control is not None:
        subprocess.run([control, "-i", state, str(os.getpid())], check=True, capture_output=True)


async def _run(games: int, commands: int, control: str | None) -> None:
    from cascadia.server import access_log
    from cascadia.server.app import ServerConfig, create_app

    print(Path(access_log.__file__).resolve().parents[1], file=sys.stderr)
    _slow_clocks()
    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - the access log's lines go there
    try:
        access_log.configure_logging()  # as ``cascadia serve`` logs: a line per request
        with tempfile.TemporaryDirectory(prefix="count-requests-") as home:
            config = ServerConfig(home=home, static_dir=Path(home) / "none", poll_interval=HOUR)
            app = create_app(config)
            async with serving(app):
                for counted in (False, True):
                    rng = [random.Random(1000 * counted + i) for i in range(games)]
                    budget = [commands]  # shared by the games
                    if counted:
                        _instrument(control, "on")
                    await asyncio.gather(*(play(app, r, budget) for r in rng))
                    if counted:
                        _instrument(control, "off")
    finally:
        sys.stderr = stderr


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--commands", type=int, default=100, help="commands counted (and as many to warm up)")
    args = parser.parse_args()
    control = shutil.which("callgrind_control")
    if control is None:
        print("callgrind_control not found: nothing will be counted", file=sys.stderr)
    asyncio.run(_run(args.games, args.commands, control))
    sys.stdout.flush()
    os._exit(0)  # no teardown: valgrind's count is the commands'


if __name__ == "__main__":
    main()
