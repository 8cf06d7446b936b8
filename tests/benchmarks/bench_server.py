"""Benchmark: the game server under load (issue 11 figures). A script, not a test.

Run: python tests/benchmarks/bench_server.py [--games 10 50 200] [--seconds 20]
         [--backends sqlite postgres] [--postgres-url URL] [--poll-interval 0.02]

For each backend it starts one ``cascadia serve`` process on 127.0.0.1 and a free port
(a fresh SQLite data directory, or a fresh PostgreSQL schema dropped afterwards). For each
N it keeps N two-seat games going for ``--seconds`` (a finished game is replaced by a new
one). Each seat is an HTTP client (async httpx) driven like the random bot: it keeps its
seat's event stream open; on its turn it reads its view (legal commands included), picks
one of them uniformly and posts it. Nothing else runs against the server.

It prints commands per second, the latency of a command (POST until its answer) at
p50/p95/p99, and the latency of its arrival in the other seat's stream (POST sent until
the other client reads the command's first event) at p50/p95/p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass
class Figures:
    commands: int = 0
    refused: int = 0
    command_ms: list[float] = field(default_factory=list)
    stream_ms: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """(game id, first event version of a command) -> when its POST was sent."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(backend: str, postgres_url: str, poll_interval: float) -> Iterator[str]:
    """A ``cascadia serve`` process on a fresh store; yields its URL."""
    home = Path(tempfile.mkdtemp(prefix="bench-server-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASCADIA_")}
    schema = None
    if backend == "postgres":
        import psycopg

        schema = f"bench_server_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        env["CASCADIA_DATABASE_URL"] = f"{postgres_url}?schema={schema}"
    port = free_port()
    cascadia = str(Path(sys.executable).parent / "cascadia")
    command = [
        cascadia,
        "serve",
        "--port",
        str(port),
        "--home",
        str(home),
        "--poll-interval",
        str(poll_interval),
    ]
    log = open(home / "server.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(home, ignore_errors=True)
        if schema is not None:
            import psycopg

            with psycopg.connect(postgres_url, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def follow(
    client: httpx.AsyncClient,
    gid: str,
    token: str,
    moved: asyncio.Event,
    figures: Figures,
    state: dict[str, int],
) -> None:
    """Read a seat's stream: note when each command's first event arrives, wake the seat."""
    headers = {"Authorization": f"Bearer {token}"}
    async with client.stream("GET", f"/api/games/{gid}/stream", headers=headers, timeout=None) as answer:
        async for line in answer.aiter_lines():
            if line.startswith("id: "):
                version = int(line[4:])
                state["version"] = version
                sent = figures.sent.pop((gid, version), None)
                if sent is not None:
                    figures.stream_ms.append((time.perf_counter() - sent) * 1000)
                moved.set()
            elif line.startswith("event: game-over"):
                state["over"] = 1
                moved.set()
                return


async def seat_loop(
    client: httpx.AsyncClient,
    gid: str,
    token: str,
    moved: asyncio.Event,
    figures: Figures,
    rng: random.Random,
    deadline: float,
) -> None:
    """Play one seat like the random bot until the game ends or time is up."""
    headers = {"Authorization": f"Bearer {token}"}
    while time.perf_counter() < deadline:
        moved.clear()  # before reading the view: a move after it wakes the wait below
        view = (await client.get(f"/api/games/{gid}", headers=headers)).json()
        if view["finished"]:
            return
        if not view["your_turn"]:
            with suppress(TimeoutError):
                await asyncio.wait_for(moved.wait(), 5)
            continue
        command = rng.choice(view["legal_commands"])["command"]
        started = time.perf_counter()
        figures.sent[(gid, view["version"] + 1)] = started
        answer = await client.post(
            f"/api/games/{gid}/commands",
            headers=headers,
            json={"command": command, "expected_version": view["version"]},
        )
        if answer.status_code == 200:
            figures.commands += 1
            figures.command_ms.append((time.perf_counter() - started) * 1000)
        else:
            figures.refused += 1
            figures.sent.pop((gid, view["version"] + 1), None)


async def one_game_slot(
    client: httpx.AsyncClient, figures: Figures, rng: random.Random, deadline: float
) -> None:
    """Keep one game going until the deadline: create, play, and again."""
    while time.perf_counter() < deadline:
        created = (await client.post("/api/games", json={"seats": [{"name": "ann"}, {"name": "bob"}]})).json()
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        events = [asyncio.Event() for _ in tokens]
        states: list[dict[str, int]] = [{} for _ in tokens]
        # each seat watches its own stream: the other seat's commands arrive there
        streams = [
            asyncio.create_task(follow(client, gid, t, e, figures, s))
            for t, e, s in zip(tokens, events, states, strict=True)
        ]
        await asyncio.gather(
            *(
                seat_loop(client, gid, t, e, figures, rng, deadline)
                for t, e in zip(tokens, events, strict=True)
            )
        )
        for task in streams:
            task.cancel()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def measure(url: str, games: int, seconds: float, seed: int) -> Figures:
    figures = Figures()
    limits = httpx.Limits(max_connections=games * 4 + 10, max_keepalive_connections=games * 4 + 10)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        deadline = time.perf_counter() + seconds
        rngs = [random.Random(seed * 100_003 + i) for i in range(games)]
        await asyncio.gather(*(one_game_slot(client, figures, rngs[i], deadline) for i in range(games)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument(
        "--postgres-url", default=os.environ.get("CASCADIA_TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--poll-interval", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'backend':8} {'games':>5} {'cmd/s':>7} {'refused':>7}  "
        "command ms p50/p95/p99   stream ms p50/p95/p99"
    )
    for backend in args.backends:
        with server(backend, args.postgres_url, args.poll_interval) as url:
            for games in args.games:
                started = time.perf_counter()
                figures = asyncio.run(measure(url, games, args.seconds, args.seed))
                elapsed = time.perf_counter() - started
                c, s = figures.command_ms, figures.stream_ms
                print(
                    f"{backend:8} {games:>5} {figures.commands / elapsed:>7.0f} {figures.refused:>7}  "
                    f"{percentile(c, 50):5.1f} {percentile(c, 95):6.1f} {percentile(c, 99):6.1f}     "
                    f"{percentile(s, 50):5.1f} {percentile(s, 95):6.1f} {percentile(s, 99):6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
