"""Benchmark: the game server's CPU per command in one process, without sockets or an
HTTP client (issue 26, part 3). A script, not a test.

Run: python tests/benchmarks/bench_requests.py [--games 10] [--commands 600] [--rounds 3] [--postgres]
         [--baseline DIR] [--profile FILE]

It builds the application of ``cascadia serve`` (:func:`~cascadia.server.app.create_app`)
on a fresh SQLite store (with ``--postgres``: a fresh schema of ``--postgres-url``'s
PostgreSQL, dropped afterwards) and calls it as uvicorn does, one ASGI call per request,
with the messages built in memory: ``--games`` two-seat games with a stream open per
seat, played as ``bench_server.py``'s seats play them (the seat to move reads its view
and posts one of its legal commands drawn at random; at the end of a turn the other seat
reads its view), each command waited for until both streams have delivered it. What is
left out beside ``bench_server.py``: the sockets, uvicorn's parsing of HTTP, and the load
generator's own CPU (here only building the messages and parsing the answers' JSON, a
small part), so the figure moves much less with other jobs on the machine. It prints
the CPU time (all threads) per command of the process serving, the best of ``--rounds``
rounds of ``--commands`` commands after a warm-up round. Each checkout is served by a
process of its own (``checkouts.LineWorker``): this one, and with ``--baseline DIR``
another checkout's code, their rounds interleaved, for before and after side by side.
``--profile FILE`` writes a cProfile (CPU time of the event loop's thread) of this
checkout's last round.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from checkouts import CHECKOUT, LineWorker

Message = dict[str, Any]
ASGI = Callable[
    [Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def asgi_scope(
    method: str, path: str, token: str | None, body: bytes, kind: str | None = None, query: bytes = b""
) -> Message:
    """The ASGI scope of a request as uvicorn makes it (``kind``: the body's content type,
    sent with its length; none without)."""
    headers = [(b"host", b"127.0.0.1"), (b"accept", b"*/*")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if kind is not None:
        headers += [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode())]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


async def call(app: ASGI, method: str, path: str, token: str | None = None, data: Any = None) -> Any:
    """One request answered by ``app``: its JSON (an error answer raises)."""
    body = b"" if data is None else json.dumps(data).encode()
    sent = False
    status, chunks = 0, []

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # a client that stays: never disconnects
        raise AssertionError

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(asgi_scope(method, path, token, body, "application/json" if body else None), receive, send)
    if status >= 400:
        raise RuntimeError(f"{method} {path}: {status} {b''.join(chunks)[:200]!r}")
    return json.loads(b"".join(chunks))


class Stream:
    """A viewer's event stream (``token`` None: a spectator's), open: the versions it
    delivered, and an event per arrival."""

    def __init__(self, app: ASGI, game_id: str, token: str | None) -> None:
        self.version = 0
        self.arrived = asyncio.Event()
        self.turn_ended = asyncio.Event()
        self.closed = asyncio.Event()
        request = asgi_scope("GET", f"/api/games/{game_id}/stream", token, b"")
        self.task = asyncio.create_task(self._run(app, request))

    async def _run(self, app: ASGI, scope: Message) -> None:
        opened = False

        async def receive() -> Message:
            nonlocal opened
            if not opened:
                opened = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await self.closed.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            self.received(message)

        with suppress(asyncio.CancelledError):
            await app(scope, receive, send)

    def received(self, message: Message) -> None:
        """Take in one message of the stream's response: the versions and turn ends its
        body tells."""
        if message["type"] != "http.response.body":
            return
        for line in message.get("body", b"").decode().splitlines():
            if line.startswith("id: "):
                self.version = int(line[4:])
                self.arrived.set()
            elif line.startswith("data: ") and '"type":"TurnEnded"' in line:
                self.turn_ended.set()

    async def until(self, version: int) -> None:
        while self.version < version:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 30)

    async def close(self) -> None:
        self.closed.set()
        with suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.task, 5)


async def play(app: ASGI, rng: random.Random, budget: list[int]) -> None:
    """Play games, one after another, while ``budget[0]`` commands are left to play."""
    while budget[0] > 0:
        created = await call(app, "POST", "/api/games", data={"seats": [{"name": "ann"}, {"name": "bob"}]})
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        streams = [Stream(app, gid, token) for token in tokens]
        try:
            view = await call(app, "GET", f"/api/games/{gid}", tokens[0])
            while budget[0] > 0 and not view["finished"]:
                if not view["your_turn"]:  # the first turn is the other seat's
                    view = await call(app, "GET", f"/api/games/{gid}", tokens[1 - view["seat"]])
                    continue
                seat = view["seat"]
                command = rng.choice(view["legal_commands"])["command"]
                body = {"command": command, "expected_version": view["version"]}
                played = await call(app, "POST", f"/api/games/{gid}/commands", tokens[seat], body)
                budget[0] -= 1
                for stream in streams:
                    await stream.until(played["version"])
                ended = streams[1 - seat].turn_ended.is_set()
                for stream in streams:
                    stream.turn_ended.clear()
                # the seat reads its view after its command; the other one when a turn ends
                view = await call(app, "GET", f"/api/games/{gid}", tokens[1 - seat if ended else seat])
        finally:
            for stream in streams:
                await stream.close()


@asynccontextmanager
async def serving(app: ASGI) -> AsyncIterator[None]:
    """The application's lifespan: started before the block, ended after it."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    started = await outbox.get()
    assert started["type"] == "lifespan.startup.complete", started
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await outbox.get()
        await task


async def serve(games: int, commands: int, seed: int, profile: Path | None) -> None:
    """The ``--serve`` mode: print where the code comes from, then play a round of
    ``commands`` commands (a third for round 0, the warm-up) for each round number read
    from stdin, and print its CPU milliseconds per command (a cProfile of each counted
    round to ``profile`` if given)."""
    from cascadia.server import access_log
    from cascadia.server.app import ServerConfig, create_app

    print(Path(access_log.__file__).resolve().parents[1], flush=True)
    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - the access log's lines go there
    try:
        access_log.configure_logging()  # as ``cascadia serve`` logs: a line per request
    finally:
        sys.stderr = stderr
    _as_served()
    with tempfile.TemporaryDirectory(prefix="bench-requests-") as home:
        await _serve_rounds(
            create_app(ServerConfig(home=home, static_dir=Path(home) / "none")),
            games,
            commands,
            seed,
            profile,
        )


def _as_served() -> None:
    """The memory allocator set as ``cascadia serve`` sets it in each process
    (:func:`~cascadia.server.memory.keep_freed_memory`; a checkout from before it has
    none)."""
    try:
        from cascadia.server.memory import keep_freed_memory
    except ImportError:
        return
    keep_freed_memory()


async def _serve_rounds(app: ASGI, games: int, commands: int, seed: int, profile: Path | None) -> None:
    """The rounds of :func:`serve` on ``app``."""
    async with serving(app):
        while line := await asyncio.to_thread(sys.stdin.readline):
            n = int(line)
            rng = [random.Random(seed * 1000 + n * 100 + i) for i in range(games)]
            budget = [commands if n else commands // 3]
            profiler = cProfile.Profile(time.thread_time) if profile is not None and n else None
            started = time.process_time()
            if profiler is not None:
                profiler.enable()
            await asyncio.gather(*(play(app, r, budget) for r in rng))
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            print(json.dumps((time.process_time() - started) * 1000 / commands), flush=True)


def _postgres_env(url: str) -> tuple[dict[str, str], Callable[[], None]]:
    """The environment of a fresh schema at ``url``, and how to drop it."""
    import psycopg

    schema = f"bench_requests_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    return {"CASCADIA_DATABASE_URL": f"{url}?schema={schema}"}, drop


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--commands", type=int, default=600, help="commands per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--postgres", action="store_true", help="on PostgreSQL (--postgres-url), in a fresh schema"
    )
    parser.add_argument(
        "--postgres-url", default=os.environ.get("CASCADIA_TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR")
    parser.add_argument("--profile", type=Path, default=None, metavar="FILE")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # a worker (checkouts.py)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.games, args.commands, args.seed, args.profile))
        return
    saved = dict(os.environ)
    for name in [k for k in os.environ if k.startswith("CASCADIA_")]:
        del os.environ[name]  # the workers' stores are their own
    drop = None
    if args.postgres:
        extra, drop = _postgres_env(args.postgres_url)
        os.environ.update(extra)
    same = ["--games", str(args.games), "--commands", str(args.commands), "--seed", str(args.seed)]
    try:
        with tempfile.TemporaryDirectory() as scratch:
            checkouts = {"this": CHECKOUT}
            if args.baseline is not None:
                checkouts = {"baseline": args.baseline.resolve(), **checkouts}
            workers = {}
            for name, checkout in checkouts.items():
                profile = ["--profile", str(args.profile)] if args.profile and name == "this" else []
                workers[name] = LineWorker(__file__, [*same, *profile], checkout, Path(scratch, name))
            figures: dict[str, list[float]] = {name: [] for name in workers}
            for n in range(args.rounds + 1):  # round 0 warms up, and is not counted
                order = list(workers) if n % 2 else list(reversed(workers))
                for name in order:
                    figure = float(workers[name].ask(n))
                    if n:
                        figures[name].append(figure)
            for worker in workers.values():
                worker.close()
    finally:
        if drop is not None:
            drop()
        os.environ.clear()
        os.environ.update(saved)
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    store = "PostgreSQL" if args.postgres else "SQLite"
    print(f"{args.games} games, {args.commands} commands a round, {store}, load average {load}")
    for name, each in figures.items():
        rounds = " ".join(f"{f:.2f}" for f in each)
        print(f"{name:8} {workers[name].runs}: CPU ms per command, best {min(each):.2f} (rounds: {rounds})")
    if "baseline" in figures:
        ratio = min(figures["this"]) / min(figures["baseline"])
        print(f"this / baseline, best against best: {ratio:.2f}")


if __name__ == "__main__":
    main()
