"""The game server's output as digests, for a speed round to compare with main's code:
a seeded run in one process whose every byte must stay the same (issue 26). A script,
not a test.

Run: python tests/benchmarks/hash_responses.py [--commands 150]
     (and with ``PYTHONPATH`` a folder of ``checkouts.import_path(DIR, FOLDER)`` for DIR's
     code; the digests of both runs must be equal)

It builds the application of ``cascadia serve`` on a fresh SQLite store and calls it as
uvicorn does (``bench_requests.py``), with :mod:`secrets` and the game ids drawn from a
seeded generator. Four games (two seats; three with secret cards and two card sets; two
with secret cards and no majority bonus; four with a market of three, the nature
cost of two and a name that is not ASCII), each with a stream open per seat and one
for a spectator, each played for up to ``--commands`` commands chosen at random among
the legal ones: before each, every seat and a spectator read their view; now and then
a stale version, another seat's command, the events read by every viewer; at the start
of each game bodies that are empty, not JSON, 5,000 levels deep, over 64 kB, of the
wrong shape or of other content types, and ids and tokens that are wrong; after a
finished game its score, log and fairness record; then the list of games. It prints
the SHA-256 of every response with its status and headers (in order), of every
stream's bytes, of every stored row, and of the OpenAPI JSON among the responses.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import random
import secrets
import sqlite3
import sys
import tempfile
import uuid
from contextlib import suppress
from pathlib import Path
from typing import Any

from bench_requests import ASGI, Message, Stream, asgi_scope, serving

SEED = 2612
GAMES: list[dict[str, Any]] = [
    {"seats": [{"name": "ann"}, {"name": "bob"}]},
    {
        "seats": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}],
        "options": {"rules": ["secret_cards", "two_card_sets"], "cards": "B,C,A,D,A"},
    },
    {
        "seats": [{"name": "ann"}, {"name": "bob"}],
        "options": {"rules": ["secret_cards"], "majority_bonus": False},
    },
    {
        "seats": [{"name": "dée"}, {"name": "eve"}, {"name": "fay"}, {"name": "gus"}],
        "options": {"rules": ["market_of_three", "nature_cost_two"]},
    },
]


def _seeded() -> None:
    """Tokens, salts, seeds and game ids from one seeded generator; the clocks that
    only matter across processes slowed down (as ``count_requests.py`` does)."""
    rng = random.Random(SEED)
    secrets.randbits = rng.getrandbits  # type: ignore[assignment]
    secrets.token_bytes = lambda n=32: rng.randbytes(n)  # type: ignore[assignment]
    secrets.token_hex = lambda n=32: rng.randbytes(n).hex()  # type: ignore[assignment]
    secrets.token_urlsafe = lambda n=32: base64.urlsafe_b64encode(rng.randbytes(n)).rstrip(b"=").decode()  # type: ignore[assignment]
    from cascadia.server import app, games, streams

    games.uuid4 = lambda: uuid.UUID(int=rng.getrandbits(128), version=4)  # type: ignore[attr-defined]
    app.TURN_CHECK_SECONDS = 3600.0  # type: ignore[misc]
    streams.FALLBACK_SECONDS = 3600.0  # type: ignore[misc]


class Digests:
    """The responses' digest, added to in order, and how many."""

    def __init__(self) -> None:
        self.responses = hashlib.sha256()
        self.count = 0

    async def call(
        self,
        app: ASGI,
        method: str,
        path: str,
        token: str | None = None,
        data: Any = None,
        raw: bytes | None = None,
        kind: str = "application/json",
        query: bytes = b"",
    ) -> Any:
        """One request answered by ``app``, hashed with its status and headers: its JSON
        (``None`` if it is not JSON)."""
        body = raw if raw is not None else b"" if data is None else json.dumps(data).encode()
        sent = False
        parts: list[Any] = []

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # a client that stays
            raise AssertionError

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                parts.append((message["status"], message.get("headers", [])))
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        has_body = raw is not None or data is not None
        await app(asgi_scope(method, path, token, body, kind if has_body else None, query), receive, send)
        (status, headers), payload = parts[0], b"".join(parts[1:])
        self.responses.update(
            hashlib.sha256(repr((method, path, query, status, headers)).encode() + payload).digest()
        )
        self.count += 1
        with suppress(ValueError):
            return json.loads(payload)
        return None


class RecordedStream(Stream):
    """A viewer's event stream whose every byte is kept, with its response's status and
    headers; the end of the game counts as every version delivered."""

    def __init__(self, app: ASGI, game_id: str, token: str | None) -> None:
        self.data: list[bytes] = []
        super().__init__(app, game_id, token)

    def received(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.data.append(repr((message["status"], message.get("headers", []))).encode())
        if message["type"] != "http.response.body":
            return
        self.data.append(message.get("body", b""))
        super().received(message)
        if "event: game-over" in message.get("body", b"").decode().splitlines():
            self.version = sys.maxsize
        self.arrived.set()

    async def digest(self) -> str:
        """Close the stream: the SHA-256 of its bytes."""
        await self.close()
        return hashlib.sha256(b"".join(self.data)).hexdigest()


async def _refused(digests: Digests, app: ASGI, game_id: str, token: str) -> None:
    """Requests the server refuses, or answers with a problem."""
    commands, some = f"/api/games/{game_id}/commands", {"command": {}, "expected_version": 1}
    for raw in (b"", b"{not json", b"[" * 5000 + b"]" * 5000, b'{"pad": "' + b"x" * 70_000 + b'"}'):
        await digests.call(app, "POST", commands, token, raw=raw)
    await digests.call(app, "POST", commands, token, data={"command": "nope", "expected_version": 1})
    await digests.call(
        app, "POST", commands, token, data={"command": {"type": "bogus"}, "expected_version": 0}
    )
    for kind in ("text/plain", "application/json; charset=utf-8"):
        await digests.call(app, "POST", commands, token, raw=json.dumps(some).encode(), kind=kind)
    await digests.call(app, "POST", commands, "wrong-token", data=some)
    await digests.call(app, "POST", commands, None, data=some)
    for other in ("not-an-id", str(uuid.UUID(int=5))):
        await digests.call(app, "POST", f"/api/games/{other}/commands", token, data=some)
        await digests.call(app, "GET", f"/api/games/{other}")
    await digests.call(app, "GET", f"/api/games/{game_id}", "wrong-token")


async def _play(digests: Digests, app: ASGI, spec: dict[str, Any], commands: int, seed: int) -> list[str]:
    """One game of ``spec`` played for up to ``commands`` commands: its streams' digests."""
    rng = random.Random(seed)
    created = await digests.call(app, "POST", "/api/games", data=spec)
    game_id, tokens = created["game_id"], [seat["token"] for seat in created["seats"]]
    game = f"/api/games/{game_id}"
    streams = [RecordedStream(app, game_id, token) for token in [*tokens, None]]
    await _refused(digests, app, game_id, tokens[0])
    finished = False
    for turn in range(commands):
        views = [await digests.call(app, "GET", game, token) for token in tokens]
        await digests.call(app, "GET", game)
        if views[0]["finished"]:
            finished = True
            break
        view = next(v for v in views if v["your_turn"])
        seat, version = view["seat"], view["version"]
        command = rng.choice(view["legal_commands"])["command"]
        if turn % 17 == 5:  # a stale version
            await digests.call(
                app,
                "POST",
                f"{game}/commands",
                tokens[seat],
                {"command": command, "expected_version": version - 1},
            )
        if turn % 23 == 7:  # another seat's command
            other = tokens[(seat + 1) % len(tokens)]
            await digests.call(
                app, "POST", f"{game}/commands", other, {"command": command, "expected_version": version}
            )
        played = await digests.call(
            app, "POST", f"{game}/commands", tokens[seat], {"command": command, "expected_version": version}
        )
        for stream in streams:
            await stream.until(played["version"])
        if turn % 10 == 0:
            after = f"after={max(0, played['version'] - 12)}".encode()
            for token in [*tokens, None]:
                await digests.call(app, "GET", f"{game}/events", token, query=after)
    for token in [*tokens, None]:
        await digests.call(app, "GET", game, token)
        await digests.call(app, "GET", f"{game}/events", token)
    if finished:
        for what in ("score", "log", "fairness"):
            await digests.call(app, "GET", f"{game}/{what}")
    return [await stream.digest() for stream in streams]


def _rows(home: Path) -> str:
    """The SHA-256 of every row of every table of the stores under ``home``."""
    rows = hashlib.sha256()
    for path in sorted(home.rglob("*.sqlite")):
        connection = sqlite3.connect(path)
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for (table,) in tables.fetchall():
            for row in connection.execute(f'SELECT * FROM "{table}" ORDER BY rowid'):
                rows.update(repr(row).encode())
        connection.close()
    return rows.hexdigest()


async def run(commands: int) -> None:
    _seeded()
    from cascadia.server.app import ServerConfig, create_app

    print("code:", Path(sys.modules["cascadia.server.app"].__file__ or "").resolve().parents[1])
    digests, streams = Digests(), []
    with tempfile.TemporaryDirectory(prefix="hash-responses-") as home:
        app = create_app(ServerConfig(home=home, static_dir=Path(home) / "none", poll_interval=3600.0))
        async with serving(app):
            await digests.call(app, "GET", "/openapi.json")
            for number, spec in enumerate(GAMES):
                streams += await _play(digests, app, spec, commands, number)
            await digests.call(app, "GET", "/api/games", query=b"limit=20")
        rows = _rows(Path(home))
    print(f"responses ({digests.count}): {digests.responses.hexdigest()}")
    print(f"streams ({len(streams)}): {hashlib.sha256(''.join(streams).encode()).hexdigest()}")
    print(f"stored rows: {rows}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commands", type=int, default=150, help="commands per game at most")
    asyncio.run(run(parser.parse_args().commands))


if __name__ == "__main__":
    main()
