"""The HTTP application (FastAPI): the routes of ``server/API.md``.

:func:`create_app` builds it on a :class:`~cascadia.server.store.ServerStore`; the
routes are thin: they validate the request (pydantic models), find the viewer (a seat's
bearer token, a stream ticket, or a spectator) and call :class:`GameService`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

from cascadia.application.documents import document
from cascadia.application.setup import MAX_PLAYERS, setup_choices
from cascadia.domain.achievement_map import MAX_MAP_PLAYERS, STANDARD_MODE
from cascadia.domain.components import TILES
from cascadia.domain.options import RESTRICTIONS
from cascadia.projections.card_texts import all_cards
from cascadia.server import health, metrics, problems
from cascadia.server.access_log import AccessLog, configure_logging
from cascadia.server.bodies import BoundedJSONRoute
from cascadia.server.draining import on_stop_signal
from cascadia.server.games import GameService, SeatSpec, not_found
from cascadia.server.hub import FALLBACK_SECONDS, Hub, wait_for
from cascadia.server.maps import MapService, parse_map_id
from cascadia.server.numbers import MAX_NUMBER, client_number, parse_id, parse_number
from cascadia.server.problems import Problem
from cascadia.server.store import ServerStore
from cascadia.server.tokens import TICKET_SECONDS, new_ticket, seat_of_ticket, seat_of_token, token_digest
from fastapi import BackgroundTasks, FastAPI, Header, Query, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
KEEP_ALIVE_SECONDS = 15.0
STATIC_DIR = Path(__file__).parent / "static"
SETTINGS_VAR = "CASCADIA_SERVE_SETTINGS"
"""The environment variable through which ``cascadia serve`` hands its settings to each
worker process (JSON: ``home``, ``poll_interval``, ``cors_origins``)."""
RETRY_MS = 1000
"""How long a client whose stream the server closed on shutdown waits to reconnect."""
Authorization = Annotated[str | None, Header()]
"""The ``Authorization`` header (a seat's ``Bearer`` token), if sent."""
NumberQuery = Annotated[str | None, Query(max_length=40)]
"""A query parameter holding a number: taken as text, parsed by :func:`client_number`."""


@dataclass
class ServerConfig:
    """How the application runs: its store, the stream poll interval, CORS origins."""

    home: str | None = None
    env: dict[str, str] | None = None
    poll_interval: float = 0.02
    cors_origins: list[str] = field(default_factory=list)
    static_dir: Path = STATIC_DIR

    def to_env(self) -> dict[str, str]:
        """The settings a worker process reads back with :meth:`from_env`."""
        settings = {"home": self.home, "poll_interval": self.poll_interval, "cors_origins": self.cors_origins}
        return {SETTINGS_VAR: json.dumps(settings)}

    @classmethod
    def from_env(cls, environ: dict[str, str]) -> ServerConfig:
        """The settings :meth:`to_env` wrote (the defaults without them)."""
        settings = json.loads(environ.get(SETTINGS_VAR, "{}"))
        return cls(
            home=settings.get("home"),
            poll_interval=settings.get("poll_interval", 0.02),
            cors_origins=settings.get("cors_origins", []),
        )


# -- request bodies ---------------------------------------------------------------------


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr | None = Field(None, min_length=1, max_length=24)
    bot: StrictStr | None = Field(None, min_length=1, max_length=40)


class OptionsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: StrictStr = Field("random", max_length=40)
    balanced_bag: StrictBool = False
    salmon_runs: StrictStr = Field("strict", max_length=20)
    elk_rings: StrictStr = Field("arc", max_length=20)
    majority_bonus: StrictBool = True
    rules: list[StrictStr] = Field(default_factory=list, max_length=len(RESTRICTIONS))
    achievement_mode: StrictStr | None = Field(None, max_length=40)


class CreateGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_PLAYERS)
    options: OptionsIn = Field(default_factory=OptionsIn)
    map_id: StrictStr | None = Field(None, max_length=40)


class CreateMapIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(min_length=1, max_length=60)
    players: list[StrictStr] = Field(default_factory=list, max_length=MAX_MAP_PLAYERS)


class MarkIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    achievement: StrictStr = Field(min_length=1, max_length=40)
    seat: StrictInt | None = Field(None, ge=0, le=MAX_NUMBER)
    expected_version: StrictInt | None = Field(None, ge=0, le=MAX_NUMBER)


class CommandIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    command: dict[str, Any]
    expected_version: StrictInt = Field(ge=0, le=MAX_NUMBER)


# -- middleware -------------------------------------------------------------------------


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and parse_number(declared.decode("latin-1"), high=self.limit) is None:
            await self._refuse(send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:  # raised where the route reads its body: a 413 problem
                    raise StarletteHTTPException(413, f"a body has at most {self.limit} bytes")
            return message

        await self.app(scope, counting_receive, send)

    async def _refuse(self, send: Send) -> None:
        problem = Problem(
            413, "body-too-large", "Request body too large", f"a body has at most {self.limit} bytes"
        )
        await problems.problem_response(problem)({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


# -- the application --------------------------------------------------------------------


def answer(data: Any, status: int = 200) -> JSONResponse:
    """A JSON answer, encoded directly (FastAPI's generic encoder costs several times more
    on the larger views)."""
    return JSONResponse(data, status_code=status)


def parse_game_id(text: str) -> UUID:
    """A game id in canonical form (:func:`~cascadia.server.numbers.parse_id`); 404 otherwise."""
    game_id = parse_id(text)
    if game_id is None:
        raise not_found(text)
    return game_id


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header (``None`` without the header)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401, "invalid-token", "Invalid token", "send the seat's token as 'Authorization: Bearer <token>'"
        )
    return token.strip()


def _invalid_token() -> Problem:
    return Problem(401, "invalid-token", "Invalid token", "this token is not a seat of this game")


def _link_replaced() -> Problem:
    return Problem(
        401,
        "link-replaced",
        "Link replaced",
        "this seat's link was replaced by the game's creator: ask them for the new one",
    )


def join_link(game_id: UUID, seat: int, token: str) -> str:
    """A seat's join link: its token in the fragment, which browsers never send."""
    return f"/play.html?game={game_id}&seat={seat}#token={token}"


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    store = ServerStore(config.home, config.env)
    service = GameService(store)
    maps = MapService(service)
    hub = Hub(store, config.poll_interval)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        poller = asyncio.create_task(hub.run())
        on_stop_signal(hub.drain)
        try:
            yield
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            store.close()
            metrics.process_exited()

    app = FastAPI(
        title="cascadia game server",
        version="1",
        description="Play Cascadia over HTTP: see server/API.md.",
        lifespan=lifespan,
    )
    app.router.route_class = BoundedJSONRoute
    app.state.service = service
    app.state.maps = maps
    app.state.hub = hub
    page = config.static_dir / "not-found.html"
    problems.install(app, page if page.is_file() else None)
    health.install(app, store, hub)

    @app.get("/metrics", tags=["operations"])
    def read_metrics() -> Response:
        return Response(metrics.exposition(store.games_in_play()), media_type=metrics.CONTENT_TYPE)

    def seat_of(game_id: UUID, authorization: str | None) -> int | None:
        """The seat of the request's token in this game (``None``: a spectator)."""
        token = bearer_token(authorization)
        if token is None:
            return None
        current, replaced = service.seat_hashes(game_id)
        seat = seat_of_token(token, current)
        if seat is None:
            raise _link_replaced() if token_digest(token) in replaced else _invalid_token()
        return seat

    def required_seat(game_id: UUID, authorization: str | None, asked: int | None = None) -> int:
        """The seat of the request's token (401 without one); 403 when the request names
        another seat (``asked``) than the token's."""
        seat = seat_of(game_id, authorization)
        if seat is None:
            raise Problem(401, "token-required", "Token required", "this needs a seat's bearer token")
        if asked is not None and asked != seat:
            raise Problem(403, "not-your-seat", "Not your seat", "this token is another seat's")
        return seat

    def move_bots(game_id: UUID) -> None:
        """Let the bots move (after the answer is sent); wake this process's streams;
        once the game is over, settle it on its map (recorded, the bots' marks)."""
        version = service.run_bots(game_id, maps.bot_for_turn)
        if version is not None:
            hub.poke(game_id, version)
        maps.settle(game_id)

    @app.get("/rules.md", include_in_schema=False)
    def rules_text() -> Response:
        """The full rules (docs/RULES.md, as ``cascadia rules --full`` prints them), as
        plain text: the how-to-play page links here."""
        return Response(document("rules"), media_type="text/plain; charset=utf-8")

    @app.get("/api/health")
    def api_health() -> JSONResponse:
        return answer({"status": "ok"})

    @app.get("/api/options")
    def options() -> JSONResponse:
        """What a new game may have and how the choices combine (the application's
        :func:`~cascadia.application.setup.setup_choices`), and the tile catalogue."""
        tiles = [{"id": t.id, "habitats": list(t.habitats), "wildlife": list(t.wildlife)} for t in TILES]
        return answer({**setup_choices(), "tiles": tiles})

    @app.get("/api/cards")
    def read_cards() -> JSONResponse:
        return answer({"cards": all_cards()})

    @app.post("/api/games", status_code=201)
    def create_game(body: CreateGameIn, background: BackgroundTasks) -> JSONResponse:
        options = body.options.model_dump()
        map_id = None if body.map_id is None else parse_map_id(body.map_id)
        if map_id is None and options["achievement_mode"] is not None:
            raise Problem(
                422,
                "invalid-options",
                "Invalid game",
                "a game is played for achievements on a map: give map_id",
            )
        if map_id is not None and options["achievement_mode"] is None:
            options["achievement_mode"] = STANDARD_MODE
        check = None if map_id is None else lambda names, opts: maps.check_game(map_id, names, opts)
        created = service.create(
            [SeatSpec(name=s.name, bot=s.bot) for s in body.seats], options, check, map_id
        )
        gid = created.game_id
        if created.has_bots:
            background.add_task(move_bots, gid)
        return answer(
            {
                "game_id": str(gid),
                "commitment": created.record.commitment,
                "version": created.version,
                "seats": [
                    {
                        "seat": seat,
                        "name": name,
                        "kind": "bot" if token is None else "human",
                        "token": token,
                        "join_link": None if token is None else join_link(gid, seat, token),
                    }
                    for seat, (name, token) in enumerate(zip(created.names, created.tokens, strict=True))
                ],
                "spectate_link": f"/spectate.html?game={gid}",
                "creator_token": created.creator_token,
                "creator_link": f"/spectate.html?game={gid}#creator={created.creator_token}",
                "map_id": body.map_id and str(map_id),
                "achievement_mode": options["achievement_mode"],
            },
            status=201,
        )

    @app.get("/api/games")
    def list_games(limit: NumberQuery = None) -> JSONResponse:
        count = 50 if limit is None else client_number(limit, "limit", 1, 200)
        return answer({"games": service.games(count)})

    @app.get("/api/games/{game_id}")
    def read_game(
        game_id: str, background: BackgroundTasks, authorization: Authorization = None
    ) -> JSONResponse:
        gid = parse_game_id(game_id)
        view = service.view(gid, seat_of(gid, authorization))
        if view["bot_to_move"]:  # e.g. a process died between a command and its bots' turn
            background.add_task(move_bots, gid)
        return answer(view)

    @app.get("/api/games/{game_id}/seats/{seat}")
    def read_seat(game_id: str, seat: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        asked = client_number(seat, "seat")
        return answer(service.view(gid, required_seat(gid, authorization, asked)))

    @app.post("/api/games/{game_id}/seats/{seat}/link")
    def reissue_link(game_id: str, seat: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        asked = client_number(seat, "seat")
        creator = bearer_token(authorization)
        if creator is None:
            raise Problem(401, "token-required", "Token required", "this needs the creator's bearer token")
        token = service.reissue(gid, asked, creator)
        return answer({"seat": asked, "token": token, "join_link": join_link(gid, asked, token)})

    @app.post("/api/games/{game_id}/commands")
    def post_command(
        game_id: str, body: CommandIn, background: BackgroundTasks, authorization: Authorization = None
    ) -> JSONResponse:
        with metrics.command_timer():
            gid = parse_game_id(game_id)
            seat = required_seat(gid, authorization)
            played = service.play(gid, seat, body.command, body.expected_version)
        hub.poke(gid, played.version)
        if played.follow_up:
            background.add_task(move_bots, gid)
        return answer({"version": played.version, "events": played.events})

    @app.get("/api/games/{game_id}/events")
    def read_events(
        game_id: str, after: NumberQuery = None, authorization: Authorization = None
    ) -> JSONResponse:
        gid = parse_game_id(game_id)
        start = _resume_at(after, None)
        version, events, _ = service.events(gid, seat_of(gid, authorization), start)
        return answer({"version": version, "events": events})

    @app.post("/api/games/{game_id}/stream-tickets")
    def stream_ticket(game_id: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        seat = required_seat(gid, authorization)
        digest = service.seat_hashes(gid)[0][seat]
        assert digest is not None
        return answer({"ticket": new_ticket(gid, seat, digest), "expires_in": TICKET_SECONDS})

    @app.get("/api/games/{game_id}/stream")
    async def stream(
        game_id: str,
        after: NumberQuery = None,
        ticket: Annotated[str | None, Query(max_length=200)] = None,
        authorization: Authorization = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        gid = parse_game_id(game_id)
        start = _resume_at(after, last_event_id)  # checked first: a bad request spends no ticket
        seat = await run_in_threadpool(seat_of, gid, authorization)
        if ticket is not None:
            current, _ = await run_in_threadpool(service.seat_hashes, gid)
            ticket_seat = seat_of_ticket(ticket, gid, current)
            if ticket_seat is None or (seat is not None and seat != ticket_seat):
                raise Problem(
                    401, "invalid-token", "Invalid ticket", "the stream ticket is not valid (or expired)"
                )
            if not await run_in_threadpool(service.store.use_ticket, ticket, gid, ticket_seat):
                raise Problem(
                    401, "invalid-token", "Invalid ticket", "the stream ticket was used already (get another)"
                )
            seat = ticket_seat
        return _sse_response(_event_stream(service, hub, gid, seat, start))

    @app.get("/api/games/{game_id}/score")
    def score(game_id: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        seat_of(gid, authorization)
        return answer(service.score(gid))

    @app.get("/api/games/{game_id}/log")
    def download_log(game_id: str, authorization: Authorization = None) -> Response:
        gid = parse_game_id(game_id)
        seat_of(gid, authorization)
        return Response(
            service.log_bytes(gid),
            media_type="application/octet-stream",
            headers={"Content-Disposition": f'attachment; filename="{gid}.cascadia"'},
        )

    @app.get("/api/games/{game_id}/fairness")
    def fairness(game_id: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        seat_of(gid, authorization)
        return answer(service.fairness(gid))

    # -- achievement maps (RULES.md 8.1) --------------------------------------------------

    @app.get("/api/maps")
    def read_maps() -> JSONResponse:
        return answer({"maps": maps.maps()})

    @app.post("/api/maps", status_code=201)
    def create_map(body: CreateMapIn) -> JSONResponse:
        return answer(maps.create(body.name, body.players), status=201)

    @app.get("/api/maps/{map_id}")
    def read_map(map_id: str) -> JSONResponse:
        return answer(maps.progress(parse_map_id(map_id)))

    @app.get("/api/maps/{map_id}/stream")
    async def map_stream(
        map_id: str,
        after: NumberQuery = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        mid = parse_map_id(map_id)
        await run_in_threadpool(maps.progress, mid)  # 404 for an unknown map, before streaming
        return _sse_response(_map_stream(maps, hub, mid, _resume_at(after, last_event_id)))

    @app.get("/api/maps/{map_id}/svg")
    def map_picture(map_id: str, columns: NumberQuery = None) -> Response:
        count = 2 if columns is None else client_number(columns, "columns", 1, 2)
        return Response(
            maps.svg(parse_map_id(map_id), count),
            media_type="image/svg+xml",
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/api/games/{game_id}/seats/{seat}/markable")
    def markable(game_id: str, seat: str, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        asked = client_number(seat, "seat")
        return answer(maps.markable(gid, required_seat(gid, authorization, asked)))

    @app.post("/api/games/{game_id}/marks")
    def mark(game_id: str, body: MarkIn, authorization: Authorization = None) -> JSONResponse:
        gid = parse_game_id(game_id)
        mine = required_seat(gid, authorization, body.seat)
        return answer(maps.mark(gid, mine, body.achievement, body.expected_version))

    @app.api_route("/api/{rest:path}", methods=ANY_METHOD, include_in_schema=False)
    def unknown_api(request: Request) -> None:
        """Whatever no route answers: 405 on a path of the API with the methods it allows
        (``Allow``), else 404."""
        path = request.url.path
        allowed = sorted(
            {
                method
                for route in app.routes
                if isinstance(route, APIRoute)
                and route.path != "/api/{rest:path}"
                and route.path_regex.match(path)
                for method in route.methods
            }
        )
        if allowed:
            detail = f"{path} answers {', '.join(allowed)} only"
            raise Problem(
                405, "method-not-allowed", "Method not allowed", detail, headers={"Allow": ", ".join(allowed)}
            )
        raise Problem(404, "not-found", "Not found", "no such API path")

    if config.static_dir.is_dir():
        app.mount("/", StaticFiles(directory=config.static_dir, html=True), name="static")
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=config.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID"],
        )
    app.add_middleware(BodyLimit)
    app.add_middleware(AccessLog)
    return app


def app_from_env() -> FastAPI:
    """The application of one ``cascadia serve`` process (a uvicorn factory: each worker
    calls it), configured by :data:`SETTINGS_VAR`; it also sets up the process's logging."""
    configure_logging()
    return create_app(ServerConfig.from_env(dict(os.environ)))


def _resume_at(after: str | None, last_event_id: str | None) -> int:
    """The version a stream (or ``/events``) starts after: ``Last-Event-ID`` (as a
    reconnecting browser sends it), else ``?after=N``, else 0 (from the start); each a
    strict number (:func:`~cascadia.server.numbers.client_number`)."""
    if last_event_id is not None:
        return client_number(last_event_id, "Last-Event-ID")
    return 0 if after is None else client_number(after, "after")


SSE_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def _sse_response(stream: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(stream, media_type="text/event-stream", headers=SSE_HEADERS)


def _sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


CLOSING = f"retry: {RETRY_MS}\n" + _sse("server-closing", {"retry_ms": RETRY_MS})
"""The last message of a stream the server ends because it is shutting down: reconnect
(with ``Last-Event-ID``) after ``retry_ms``, to another process or this one restarted."""


class _Following:
    """What one stream waits on: news of its game or map (by id) from the hub, a look
    every :data:`FALLBACK_SECONDS` anyway, a keep-alive line after
    :data:`KEEP_ALIVE_SECONDS` of silence, and the end of the process (the hub drains).
    Counted in :data:`~cascadia.server.metrics.OPEN_STREAMS` while open."""

    def __init__(self, hub: Hub, key: UUID) -> None:
        self.hub, self.key = hub, key
        self.wake = hub.subscribe(key)
        metrics.OPEN_STREAMS.inc()
        self.quiet = 0.0
        self.looked = time.monotonic()

    def looked_now(self, sent: bool) -> None:
        """The stream has just read what is stored (and ``sent`` something new)."""
        self.looked = time.monotonic()
        if sent:
            self.quiet = 0.0

    async def until_news(self, last: int) -> AsyncIterator[str]:
        """Keep-alive lines while nothing is stored after version ``last`` (and it is not
        time to look anyway); returns when the stream should read again, or end (the hub
        drains)."""
        while not self.hub.draining:
            if self.quiet >= KEEP_ALIVE_SECONDS:
                yield ": keep-alive\n\n"
                self.quiet = 0.0
            started = time.monotonic()
            await wait_for(self.wake, FALLBACK_SECONDS)
            self.quiet += time.monotonic() - started
            if self.hub.latest(self.key) > last or time.monotonic() - self.looked >= FALLBACK_SECONDS:
                return

    def close(self) -> None:
        self.hub.unsubscribe(self.key, self.wake)
        metrics.OPEN_STREAMS.dec()


async def _event_stream(
    service: GameService, hub: Hub, game_id: UUID, seat: int | None, after: int
) -> AsyncIterator[str]:
    """The game's events after version ``after`` as the viewer sees them, then each new
    one as it is stored; ``game-over`` after the last (:data:`CLOSING` if the process
    stops first; ``link-replaced`` when the seat's link is re-issued meanwhile)."""
    following = _Following(hub, game_id)
    last = after
    digest = None if seat is None else (await run_in_threadpool(service.seat_hashes, game_id))[0][seat]
    try:
        while True:
            if digest is not None:
                current, _ = await run_in_threadpool(service.seat_hashes, game_id)
                if current[seat] != digest:  # type: ignore[index]
                    yield _sse("link-replaced", _link_replaced().body())
                    return
            _, events, finished = await run_in_threadpool(service.events, game_id, seat, last)
            following.looked_now(bool(events))
            for event in events:
                yield _sse("game-event", event, event["version"])
                last = event["version"]
            if finished:
                yield _sse("game-over", {"version": last})
                return
            async for line in following.until_news(last):
                yield line
            if hub.draining:
                yield CLOSING
                return
    finally:
        following.close()


async def _map_stream(maps: MapService, hub: Hub, map_id: UUID, after: int) -> AsyncIterator[str]:
    """The map's progress (as ``GET /api/maps/{id}`` answers it) whenever its version
    passes ``after``: at once if it has, then after each change, by any process (until
    :data:`CLOSING` when the process stops)."""
    following = _Following(hub, map_id)
    last = after
    try:
        while True:
            progress = await run_in_threadpool(maps.progress, map_id)
            changed = progress["version"] > last
            following.looked_now(changed)
            if changed:
                last = progress["version"]
                yield _sse("map", progress, last)
            async for line in following.until_news(last):
                yield line
            if hub.draining:
                yield CLOSING
                return
    finally:
        following.close()
