"""The HTTP application (FastAPI): the routes of ``server/API.md``.

:func:`create_app` builds it on a :class:`~cascadia.server.store.ServerStore`: the
services in ``app.state``, the routers of :mod:`cascadia.server.routes` (one per
resource), errors answered as problem details (:mod:`cascadia.server.problems`), the
middleware, and the browser client's static files.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from cascadia.server import metrics, problems
from cascadia.server.access_log import AccessLog, configure_logging
from cascadia.server.bodies import BodyLimit
from cascadia.server.dependencies import ServerServices
from cascadia.server.draining import on_stop_signal
from cascadia.server.games import GameService
from cascadia.server.hub import Hub, repeat
from cascadia.server.maps import MapService
from cascadia.server.memory import keep_freed_memory
from cascadia.server.routes import fallback, games, maps, operations, reference, seats
from cascadia.server.store import ServerStore
from cascadia.server.threads import WorkerThreads
from fastapi import APIRouter, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig

STATIC_DIR = Path(__file__).parent / "static"
TURN_CHECK_SECONDS = 1.0
"""How often a process looks for turns whose time limit ran out."""
SETTINGS_VAR = "CASCADIA_SERVE_SETTINGS"
"""The environment variable through which ``cascadia serve`` hands its settings to each
worker process (JSON: ``home``, ``poll_interval``, ``cors_origins``)."""
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False, "operation_spans": False}
"""FastAPI's own OpenTelemetry hooks, off: the server's metrics are Prometheus's
(``/metrics``) and its log the access log; left on, they look up three OpenTelemetry
providers on every request and wrap every route's call, whether or not any provider
is configured (about 2% of the instructions of a command)."""
RESOURCES = (games, seats, maps, operations, reference)
"""The route modules of the API's resources (each has a router, ``routes``): the games'
first, the ones a game in play asks for all the time (a request is matched against the
routes in order; no two of these modules have paths in common)."""


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


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The application on the store ``config`` names: every route of server/API.md, the
    static files, CORS for ``config.cors_origins``, the body limit and the access log."""
    config = config or ServerConfig()
    store = ServerStore(config.home, config.env)
    service = GameService(store)
    hub = Hub(store, config.poll_interval)
    maps = MapService(service)
    threads = WorkerThreads()
    services = ServerServices(service, maps, hub, store, threads)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        tasks = [
            asyncio.create_task(hub.run()),
            asyncio.create_task(repeat(services.hand_over_expired, TURN_CHECK_SECONDS)),
        ]
        on_stop_signal(hub.drain)
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            threads.close()
            store.close()
            metrics.process_exited()

    app = FastAPI(
        title="cascadia game server",
        version="1",
        description="Play Cascadia over HTTP: see server/API.md.",
        lifespan=lifespan,
        telemetry=NO_TELEMETRY,
    )
    app.state.store = store
    app.state.service = service
    app.state.maps = maps
    app.state.services = services
    app.state.hub = hub
    page = config.static_dir / "not-found.html"
    problems.install(app, page if page.is_file() else None)
    resources = [module.routes for module in RESOURCES]
    _add_routes(app, [*resources, fallback.unknown_api(resources)])  # the fallback after every other route
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


def _add_routes(app: FastAPI, routers: list[APIRouter]) -> None:
    """Add the routes of ``routers`` to the application's own router, in order (a
    request is answered by the first route that matches it). Not ``include_router``,
    which keeps each router whole: this FastAPI then matches a request twice, against
    the included router's routes to choose it and again inside it to answer. The
    routes, their order and the OpenAPI description are the same either way."""
    for router in routers:
        app.router.routes.extend(router.routes)


def app_from_env() -> FastAPI:
    """The application of one ``cascadia serve`` process (a uvicorn factory: each worker
    calls it), configured by :data:`SETTINGS_VAR`; it also sets up the process's logging
    and its memory allocator (:func:`~cascadia.server.memory.keep_freed_memory`)."""
    configure_logging()
    keep_freed_memory()
    return create_app(ServerConfig.from_env(dict(os.environ)))
