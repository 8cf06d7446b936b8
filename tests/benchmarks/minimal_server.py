"""A minimal FastAPI + uvicorn game server: the baseline of ``bench_server.py``.

Run: python tests/benchmarks/minimal_server.py --port PORT --db FILE

It answers the requests the load generator of ``bench_server.py`` sends, with the same
paths and JSON bodies as ``cascadia serve`` (server/API.md), and does as little as such
a server can: a posted command's JSON is parsed and validated (a pydantic model of the
same shape as the real one), the seat's bearer token and the expected version are
checked, and one row is appended to SQLite (the game, the version, the command's JSON;
one transaction per command, in WAL mode like the project's store). There is no rules
engine: a game is :data:`TURNS` turns of :data:`COMMANDS_PER_TURN` commands (about the
shape of a random two-player game: 40 turns, 3.2 commands a turn), the view of a seat
whose turn it is offers a fixed list of legal commands, and each command's events are
one ``Played`` event (plus ``TurnEnded`` on a turn's last command) sent to the game's
open streams. Games live in memory; rows go to ``--db``.

The handlers are what a FastAPI developer writes by default: plain ``def`` for the
ones that touch SQLite (FastAPI runs them in its thread pool), ``async def`` for the
in-memory reads and the event stream. uvicorn runs with the settings ``cascadia serve``
uses (no access log, no server header); neither server has httptools or uvloop here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import sqlite3
import threading
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Annotated, Any

import uvicorn
from fastapi import FastAPI, Header, HTTPException
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

TURNS = 40
COMMANDS_PER_TURN = 3
LEGAL_COMMANDS = [
    {"command": {"type": "take", "tile_slot": slot, "wildlife_slot": slot}, "text": f"take {slot}"}
    for slot in range(4)
]
"""What a seat may play, always (the first decision of a real turn offers these)."""
Authorization = Annotated[str | None, Header()]


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(min_length=1, max_length=24)


class CreateGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatIn] = Field(min_length=1, max_length=4)


class CommandIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    command: dict[str, Any]
    expected_version: StrictInt = Field(ge=0)


@dataclass
class Game:
    """One game in memory: its seats' tokens, its events (version = their count), whose
    turn it is, and the open streams' wake-up events."""

    tokens: list[str]
    events: list[dict[str, Any]] = field(default_factory=list)
    commands: int = 0
    waiters: set[asyncio.Event] = field(default_factory=set)

    @property
    def current(self) -> int:
        return (self.commands // COMMANDS_PER_TURN) % len(self.tokens)

    @property
    def finished(self) -> bool:
        return self.commands >= TURNS * COMMANDS_PER_TURN

    def seat(self, authorization: str | None) -> int:
        """The seat of an ``Authorization: Bearer`` header (401 otherwise)."""
        token = (authorization or "").removeprefix("Bearer ")
        if token not in self.tokens:
            raise HTTPException(401, "not a seat of this game")
        return self.tokens.index(token)

    def play(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        """The events of one more command, appended."""
        self.commands += 1
        new = [{"version": len(self.events) + 1, "type": "Played", "payload": command}]
        if self.commands % COMMANDS_PER_TURN == 0:
            new.append({"version": len(self.events) + 2, "type": "TurnEnded", "payload": {}})
        self.events.extend(new)
        return new


def create_app(db: str) -> FastAPI:
    """The application, appending its rows to the SQLite file ``db``."""
    connection = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(
        "CREATE TABLE IF NOT EXISTS commands "
        "(game TEXT, version INTEGER, command TEXT, PRIMARY KEY (game, version))"
    )
    lock = threading.Lock()
    games: dict[str, Game] = {}
    loop: list[asyncio.AbstractEventLoop] = []
    """The event loop, in which the streams wait (the commands run in worker threads)."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        loop.append(asyncio.get_running_loop())
        yield
        connection.close()

    app = FastAPI(lifespan=lifespan)

    def game_of(game_id: str) -> Game:
        game = games.get(game_id)
        if game is None:
            raise HTTPException(404, "no such game")
        return game

    def wake(game: Game) -> None:
        for event in game.waiters:
            event.set()

    @app.get("/api/health")
    async def health() -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @app.post("/api/games", status_code=201)
    def create(body: CreateGameIn) -> JSONResponse:
        game_id = str(uuid.uuid4())
        game = Game([secrets.token_urlsafe(32) for _ in body.seats])
        with lock:
            connection.execute("INSERT INTO commands VALUES (?, 0, ?)", (game_id, body.model_dump_json()))
            games[game_id] = game
        seats = [{"seat": seat, "token": token} for seat, token in enumerate(game.tokens)]
        return JSONResponse({"game_id": game_id, "seats": seats}, status_code=201)

    @app.get("/api/games/{game_id}")
    async def view(game_id: str, authorization: Authorization = None) -> JSONResponse:
        game = game_of(game_id)
        seat = game.seat(authorization)
        mine = not game.finished and game.current == seat
        return JSONResponse(
            {
                "version": len(game.events),
                "finished": game.finished,
                "seat": seat,
                "your_turn": mine,
                "legal_commands": LEGAL_COMMANDS if mine else [],
            }
        )

    @app.post("/api/games/{game_id}/commands")
    def play(game_id: str, body: CommandIn, authorization: Authorization = None) -> JSONResponse:
        game = game_of(game_id)
        seat = game.seat(authorization)
        with lock:
            if body.expected_version != len(game.events):
                raise HTTPException(409, "stale version")
            if game.finished or game.current != seat:
                raise HTTPException(403, "not your turn")
            connection.execute(
                "INSERT INTO commands VALUES (?, ?, ?)",
                (game_id, len(game.events) + 1, json.dumps(body.command)),
            )
            events = game.play(body.command)
        loop[0].call_soon_threadsafe(wake, game)
        return JSONResponse({"version": len(game.events), "events": events})

    @app.get("/api/games/{game_id}/stream")
    async def stream(game_id: str, authorization: Authorization = None) -> StreamingResponse:
        game = game_of(game_id)
        game.seat(authorization)
        return StreamingResponse(_events(game), media_type="text/event-stream")

    return app


async def _events(game: Game) -> AsyncIterator[str]:
    """The game's events as server-sent events, each as it comes; ``game-over`` after
    the last."""
    wake = asyncio.Event()
    game.waiters.add(wake)
    sent = 0
    try:
        while True:
            for event in game.events[sent:]:
                data = json.dumps(event, separators=(",", ":"))
                yield f"id: {event['version']}\nevent: game-event\ndata: {data}\n\n"
            sent = len(game.events)
            if game.finished:
                yield f"event: game-over\ndata: {json.dumps({'version': sent})}\n\n"
                return
            await wake.wait()
            wake.clear()
    finally:
        game.waiters.discard(wake)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True, help="the SQLite file the rows go to")
    args = parser.parse_args()
    uvicorn.run(
        create_app(args.db),
        host="127.0.0.1",
        port=args.port,
        access_log=False,
        log_level="warning",
        server_header=False,
    )


if __name__ == "__main__":
    main()
