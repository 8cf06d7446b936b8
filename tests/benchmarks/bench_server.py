"""Benchmark: the game server under load, beside a minimal FastAPI endpoint (issues 11
and 26). A script, not a test.

Run: python tests/benchmarks/bench_server.py [--games 10 50 200] [--seconds 20] [--warmup 3]
         [--servers cascadia minimal] [--backends sqlite postgres]
         [--postgres-url URL] [--poll-interval 0.02] [--py-spy DIR] [--baseline DIR]

It starts one ``cascadia serve`` process per backend on 127.0.0.1 and a free port (a
fresh SQLite data directory, or a fresh PostgreSQL schema dropped afterwards), and the
minimal server of ``minimal_server.py`` (FastAPI + uvicorn, the same paths and JSON, a
row appended to SQLite per command, no rules engine). For each N it drives each server
in turn with the same load generator, the minimal one first: N two-seat games kept
going for ``--warmup`` seconds, which are not counted (the games are created and their
streams opened then), and ``--seconds`` more (a finished game is replaced by a new
one). Each seat is an HTTP client (async httpx) driven like the random bot: it keeps its
seat's event stream open; when a turn ends there it reads its view (legal commands
included), and while it is its turn it picks one legal command uniformly, posts it and
reads its view again. Nothing else runs against the servers; the load generator runs on
the same machine (and its CPU time counts against the server's).

Per server and N it prints commands per second; the latency of a command (POST until
its answer) at p50/p95/p99; the latency of its arrival in the other seat's stream (POST
sent until the other client reads the command's first event) at p50/p99; the CPU time
of the server process per command (user + system, from ``/proc/PID/stat`` before and
after the window; it covers everything a command brings: the POST, the view reads, the
stream deliveries) and of the load generator; and the server's CPU per command over the
minimal server's at the same N ("x min", the figure least moved by other load on the
machine). Each N starts with the load average.

``--baseline DIR`` also serves each backend with another checkout's code (say ``git
worktree add --detach DIR COMMIT``; ``checkouts.py``), as the server ``baseline``,
driven just before this checkout's: before and after a change, side by side.

``--py-spy DIR`` samples each ``cascadia serve`` process with py-spy while it is
driven, warm-up included (``pip install py-spy``; root or a permissive ptrace scope),
keeps the raw samples in DIR and prints where its time goes (``stack_samples.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import stack_samples
from checkouts import checkout_environment

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
MINIMAL = Path(__file__).with_name("minimal_server.py")


@dataclass
class Figures:
    commands: int = 0
    refused: int = 0
    failed: int = 0
    """Requests that got no answer (a connection closed under load); the seat goes on."""
    command_ms: list[float] = field(default_factory=list)
    stream_ms: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """(game id, first event version of a command) -> when its POST was sent."""

    def restart(self) -> None:
        """Count from now (commands in flight are counted when they end)."""
        self.commands = self.refused = self.failed = 0
        self.command_ms.clear()
        self.stream_ms.clear()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Target:
    """A server under test: which (``cascadia`` or ``minimal``), on which store."""

    server: str
    store: str
    url: str
    pid: int


@contextmanager
def running(command: list[str], env: dict[str, str], log_path: Path) -> Iterator[tuple[str, int]]:
    """``command`` (given ``--port PORT``) running until the block ends; yields its URL
    and process id once ``/api/health`` answers."""
    port = free_port()
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [*command, "--port", str(port)], stdout=log, stderr=subprocess.STDOUT, env=env
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise RuntimeError(f"{command[0]} did not start (see {log_path})")
            yield url, process.pid
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@contextmanager
def cascadia_server(
    backend: str, postgres_url: str, poll_interval: float, baseline: Path | None = None
) -> Iterator[Target]:
    """A ``cascadia serve`` process on a fresh store, with this checkout's code or with
    ``baseline``'s (another checkout: ``checkouts.py``)."""
    home = Path(tempfile.mkdtemp(prefix="bench-server-"))
    environ = dict(os.environ) if baseline is None else checkout_environment(baseline, home / "code")
    env = {k: v for k, v in environ.items() if not k.startswith("CASCADIA_")}
    schema = None
    if backend == "postgres":
        import psycopg

        schema = f"bench_server_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        env["CASCADIA_DATABASE_URL"] = f"{postgres_url}?schema={schema}"
    cascadia = str(Path(sys.executable).parent / "cascadia")
    command = [cascadia, "serve", "--home", str(home), "--poll-interval", str(poll_interval)]
    try:
        with running(command, env, home / "server.log") as (url, pid):
            yield Target("cascadia" if baseline is None else "baseline", backend, url, pid)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        if schema is not None:
            import psycopg

            with psycopg.connect(postgres_url, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@contextmanager
def minimal_server() -> Iterator[Target]:
    """The baseline of ``minimal_server.py`` on a fresh SQLite file."""
    home = Path(tempfile.mkdtemp(prefix="bench-minimal-"))
    command = [sys.executable, str(MINIMAL), "--db", str(home / "minimal.sqlite")]
    try:
        with running(command, dict(os.environ), home / "server.log") as (url, pid):
            yield Target("minimal", "sqlite", url, pid)
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def follow(
    client: httpx.AsyncClient, gid: str, token: str, moved: asyncio.Event, figures: Figures
) -> None:
    """Read a seat's stream: note when each command's first event arrives; wake the seat
    when a turn ends (then it may be its turn: it reads its view only then)."""
    headers = {"Authorization": f"Bearer {token}"}
    with suppress(httpx.HTTPError):  # the server may close streams as the run ends
        await _follow(client, gid, headers, moved, figures)


async def _follow(
    client: httpx.AsyncClient, gid: str, headers: dict[str, str], moved: asyncio.Event, figures: Figures
) -> None:
    async with client.stream("GET", f"/api/games/{gid}/stream", headers=headers, timeout=None) as answer:
        async for line in answer.aiter_lines():
            if line.startswith("id: "):
                version = int(line[4:])
                sent = figures.sent.pop((gid, version), None)
                if sent is not None:
                    figures.stream_ms.append((time.perf_counter() - sent) * 1000)
            elif line.startswith("data: ") and '"type":"TurnEnded"' in line:
                moved.set()
            elif line.startswith("event: game-over"):
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


async def _seat(
    client: httpx.AsyncClient,
    gid: str,
    token: str,
    moved: asyncio.Event,
    figures: Figures,
    rng: random.Random,
    deadline: float,
) -> None:
    while time.perf_counter() < deadline:
        try:
            await seat_loop(client, gid, token, moved, figures, rng, deadline)
            return
        except httpx.HTTPError:
            figures.failed += 1


async def one_game_slot(
    client: httpx.AsyncClient, figures: Figures, rng: random.Random, deadline: float
) -> None:
    """Keep one game going until the deadline: create, play, and again."""
    while time.perf_counter() < deadline:
        try:
            answer = await client.post("/api/games", json={"seats": [{"name": "ann"}, {"name": "bob"}]})
        except httpx.HTTPError:
            figures.failed += 1
            continue
        created = answer.json()
        gid = created["game_id"]
        tokens = [seat["token"] for seat in created["seats"]]
        events = [asyncio.Event() for _ in tokens]
        # each seat watches its own stream: the other seat's commands arrive there
        streams = [
            asyncio.create_task(follow(client, gid, t, e, figures))
            for t, e in zip(tokens, events, strict=True)
        ]
        await asyncio.gather(
            *(_seat(client, gid, t, e, figures, rng, deadline) for t, e in zip(tokens, events, strict=True))
        )
        for task in streams:
            task.cancel()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass(frozen=True)
class Clock:
    """The time and the CPU time of the server and of this process, at one moment."""

    wall: float
    server_cpu: float
    client_cpu: float

    @classmethod
    def now(cls, pid: int) -> Clock:
        return cls(time.perf_counter(), cpu_seconds(pid), time.process_time())


async def measure(
    url: str, games: int, seconds: float, seed: int, warmup: float, start: Callable[[], Clock]
) -> tuple[Figures, Clock, Clock]:
    """Keep ``games`` games going for ``warmup`` and then ``seconds`` more, counted from
    the clock ``start`` reads when the warm-up ends (the figures of the warm-up, which
    creates the games and opens their streams, are dropped); one HTTP client (connection
    pool) per game, as separate browsers would have, which also keeps each pool small
    (httpx looks through its pool's connections for every request)."""
    figures = Figures()
    tls = ssl.create_default_context()  # one for all: a client making its own costs 50 ms of CPU
    clients = [httpx.AsyncClient(base_url=url, timeout=30, verify=tls) for _ in range(games)]
    deadline = time.perf_counter() + warmup + seconds
    begun: list[Clock] = []

    async def begin() -> None:
        await asyncio.sleep(warmup)
        begun.append(start())
        figures.restart()

    try:
        await asyncio.gather(
            begin(),
            *(
                one_game_slot(client, figures, random.Random(seed * 100_003 + i), deadline)
                for i, client in enumerate(clients)
            ),
        )
        ended = start()
    finally:
        for client in clients:
            await client.aclose()
    return figures, begun[0], ended


@dataclass(frozen=True)
class Row:
    """One server's figures at one N."""

    target: Target
    games: int
    figures: Figures
    per_second: float
    server_cpu_ms: float
    """per command"""
    client_cpu_ms: float


HEADER = (
    f"{'server':8} {'store':8} {'games':>5} {'cmd/s':>5} {'command ms':>17} {'stream ms':>11} "
    f"{'CPU ms/cmd':>13} {'x min':>5}"
)
SUBHEADER = f"{'':29} {'p50   p95   p99':>17} {'p50   p99':>11} {'server client':>13}"


def measure_row(target: Target, games: int, args: argparse.Namespace) -> Row:
    """Drive one server with ``games`` games for ``--seconds`` after ``--warmup`` (sampled
    with py-spy meanwhile, warm-up included, if asked: the cascadia servers only)."""
    sampler = None
    if args.py_spy is not None and target.server == "cascadia":
        samples = args.py_spy / f"{target.server}-{target.store}-{games}.txt"
        sampler = stack_samples.record(target.pid, args.warmup + args.seconds, samples)
    figures, begun, ended = asyncio.run(
        measure(target.url, games, args.seconds, args.seed, args.warmup, lambda: Clock.now(target.pid))
    )
    if sampler is not None:
        sampler.wait()
    done = max(figures.commands, 1)
    return Row(
        target,
        games,
        figures,
        figures.commands / (ended.wall - begun.wall),
        (ended.server_cpu - begun.server_cpu) * 1000 / done,
        (ended.client_cpu - begun.client_cpu) * 1000 / done,
    )


def row_lines(row: Row, baseline: Row | None) -> list[str]:
    """The row's line (and a note of refused or failed requests, if any)."""
    c, s = row.figures.command_ms, row.figures.stream_ms
    ratio = (
        f"{row.server_cpu_ms / baseline.server_cpu_ms:.2f}" if baseline and baseline.figures.commands else ""
    )
    lines = [
        f"{row.target.server:8} {row.target.store:8} {row.games:>5} {row.per_second:>5.0f} "
        f"{percentile(c, 50):5.0f} {percentile(c, 95):5.0f} {percentile(c, 99):5.0f} "
        f"{percentile(s, 50):5.0f} {percentile(s, 99):5.0f} "
        f"{row.server_cpu_ms:6.2f} {row.client_cpu_ms:6.2f} {ratio:>5}"
    ]
    if row.figures.refused or row.figures.failed:
        lines.append(f"  ({row.figures.refused} commands refused, {row.figures.failed} requests failed)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of load before counting")
    parser.add_argument(
        "--servers", nargs="+", choices=["cascadia", "minimal"], default=["cascadia", "minimal"]
    )
    parser.add_argument(
        "--backends", nargs="+", choices=["sqlite", "postgres"], default=["sqlite", "postgres"]
    )
    parser.add_argument(
        "--postgres-url", default=os.environ.get("CASCADIA_TEST_POSTGRES_URL", DEFAULT_POSTGRES)
    )
    parser.add_argument("--poll-interval", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--py-spy", type=Path, default=None, metavar="DIR")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR")
    args = parser.parse_args()
    if args.py_spy is not None:
        if not stack_samples.available():
            parser.error("--py-spy needs py-spy on PATH (pip install py-spy)")
        args.py_spy.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        targets = []
        if "minimal" in args.servers:
            targets.append(stack.enter_context(minimal_server()))
        if "cascadia" in args.servers:
            for backend in args.backends:
                for checkout in [None] if args.baseline is None else [args.baseline.resolve(), None]:
                    server = cascadia_server(backend, args.postgres_url, args.poll_interval, checkout)
                    targets.append(stack.enter_context(server))
        print(HEADER)
        print(SUBHEADER)
        profiles = []
        for games in args.games:
            load = " ".join(f"{value:.1f}" for value in os.getloadavg())
            print(f"-- {games} games, load average {load} ({os.cpu_count()} cores)", flush=True)
            baseline = None
            for target in targets:
                row = measure_row(target, games, args)
                if target.server == "minimal":
                    baseline = row
                print("\n".join(row_lines(row, baseline)), flush=True)
                if args.py_spy is not None and target.server == "cascadia":
                    profiles.append(args.py_spy / f"{target.server}-{target.store}-{games}.txt")
        for path in profiles:
            print("\n".join(stack_samples.report(path)))


if __name__ == "__main__":
    main()
