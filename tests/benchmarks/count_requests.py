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

``--target`` says what serves the workload:

- ``cascadia`` (the default): the application of ``cascadia serve``;
- ``minimal``: the minimal FastAPI endpoint of ``minimal_server.py``, the baseline of
  ``bench_server.py``, through the same ASGI calls (its count over ``cascadia``'s is
  that benchmark's *x min* without sockets, HTTP parsing or the machine's noise);
- ``services``: the server's own work alone, with no HTTP, ASGI, thread or stream: the
  same games played by calling :class:`~cascadia.server.games.GameService` in this
  thread as the routes call it (the seat's record read, the command played, its answer
  and each seat's new events encoded, the views rendered), and the views' JSON parsed
  as the client does, one game after another (``--games`` does not apply). What no
  HTTP layer can take away.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bench_requests import ASGI, play, serving

if TYPE_CHECKING:
    from cascadia.server.games import GameService

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


async def _run(target: str, games: int, commands: int, control: str | None) -> None:
    from cascadia.server import access_log

    print(Path(access_log.__file__).resolve().parents[1], file=sys.stderr)
    _slow_clocks()
    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - the access log's lines go there
    try:
        access_log.configure_logging()  # as ``cascadia serve`` logs: a line per request
        with tempfile.TemporaryDirectory(prefix="count-requests-") as home:
            if target == "services":
                service = _service(home)
                _count(lambda rng, budget: _play_services(service, rng, budget), commands, control)
                return
            app = _cascadia_app(home) if target == "cascadia" else _minimal_app(home)
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


def _cascadia_app(home: str) -> ASGI:
    from cascadia.server.app import ServerConfig, create_app

    return create_app(ServerConfig(home=home, static_dir=Path(home) / "none", poll_interval=HOUR))


def _minimal_app(home: str) -> ASGI:
    from minimal_server import create_app

    return create_app(str(Path(home) / "minimal.db"))


def _count(
    play_games: Callable[[random.Random, list[int]], None], commands: int, control: str | None
) -> None:
    """Play ``commands`` commands to warm up, then ``commands`` more counted (one
    thread: one game after another, each to its end or the budget's)."""
    for counted in (False, True):
        if counted:
            _instrument(control, "on")
        play_games(random.Random(1000 * counted), [commands])
        if counted:
            _instrument(control, "off")


def _service(home: str) -> GameService:
    """The server's game service on a store in ``home``, as ``cascadia serve`` makes it."""
    from cascadia.server.games import GameService
    from cascadia.server.store import ServerStore

    return GameService(ServerStore(home, None))


def _play_services(service: GameService, rng: random.Random, budget: list[int]) -> None:
    """The games of :func:`bench_requests.play` played through the server's
    :class:`~cascadia.server.games.GameService` alone, as the routes call it."""
    from cascadia.application.setup import SeatSpec
    from cascadia.server.schemas import CreateGameIn

    body = CreateGameIn(seats=[{"name": "ann"}, {"name": "bob"}])
    while budget[0] > 0:
        created = service.create([SeatSpec(name=s.name) for s in body.seats], body.options_for(None))
        gid = created.game_id
        seen = [0, 0]  # each seat's stream: the version it delivered, first from the store
        for viewer in (0, 1):
            seen[viewer], events, _ = service.events(gid, viewer, 0)
            json.dumps(events, separators=(",", ":"))
        view = json.loads(service.view_text(gid, 0)[0])
        while budget[0] > 0 and not view["finished"]:
            if not view["your_turn"]:  # the first turn is the other seat's
                view = json.loads(service.view_text(gid, 1 - view["seat"])[0])
                continue
            seat = view["seat"]
            command = rng.choice(view["legal_commands"])["command"]
            service.record_now(gid)  # the seat's token is checked against it
            played = service.play(gid, seat, command, view["version"])
            json.dumps({"version": played.version, "events": played.events})
            budget[0] -= 1
            ended = False
            for viewer in (0, 1):
                recent = service.recent_events(gid, viewer, seen[viewer], played.version)
                assert recent is not None, "the events of a command are kept in memory"
                events, _ = recent
                for event in events:
                    json.dumps(event, separators=(",", ":"))
                    ended = ended or event["type"] == "TurnEnded"
                seen[viewer] = played.version
            # the seat reads its view after its command; the other one when a turn ends
            view = json.loads(service.view_text(gid, 1 - seat if ended else seat)[0])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--commands", type=int, default=100, help="commands counted (and as many to warm up)")
    parser.add_argument("--target", choices=("cascadia", "minimal", "services"), default="cascadia")
    args = parser.parse_args()
    control = shutil.which("callgrind_control")
    if control is None:
        print("callgrind_control not found: nothing will be counted", file=sys.stderr)
    asyncio.run(_run(args.target, args.games, args.commands, control))
    sys.stdout.flush()
    os._exit(0)  # no teardown: valgrind's count is the commands'


if __name__ == "__main__":
    main()
