"""``cascadia serve``: the game server (HTTP API and browser client) on the event store.

The listening socket is bound here, before anything is announced, so that a taken port
is one line of error; then uvicorn serves on it, in this process or (``--workers N``) in
N worker processes sharing it, each building the application with
:func:`cascadia.server.app.app_from_env` from the settings passed in its environment.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
from types import FrameType
from typing import Annotated

import typer
from cascadia.application.database import SQLITE_MODULE
from cascadia.application.settings import resolve_settings
from cascadia.application.store import GameStore
from cascadia.cli.common import HomeOption, console, fail

APP_FACTORY = "cascadia.server.app:app_from_env"
GRACE_SECONDS = 20
"""At most this long, after SIGTERM, for the requests in flight to finish."""


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (not yet listening), as uvicorn binds one;
    exits with one line of error when the address cannot be had (taken, unknown host)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise fail(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


def _exit_cleanly(signum: int, frame: FrameType | None) -> None:
    """SIGTERM outside uvicorn's own handling (before it starts, and the signal it raises
    again once it has shut down gracefully): exit with status 0."""
    raise SystemExit(0)


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to bind (0.0.0.0: every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=1, max=65535)] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", help="Server processes sharing the port (more than 1: PostgreSQL only).", min=1
        ),
    ] = 1,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin", help="Allow browser pages of this origin (repeatable); none by default."
        ),
    ] = None,
    poll_interval: Annotated[
        float,
        typer.Option("--poll-interval", help="Seconds between looks for other processes' events.", min=0.005),
    ] = 0.02,
    home: HomeOption = None,
) -> None:
    """Serve games over HTTP on the same event store as the other commands (API at /api,
    its documentation at /docs, the browser client at /; /healthz, /readyz, /metrics)."""
    import uvicorn  # imported here: the other commands need not load the server
    from cascadia.server.app import ServerConfig
    from cascadia.server.metrics import MULTIPROC_VAR
    from uvicorn.supervisors import Multiprocess

    if workers > 1 and resolve_settings(home).get("PERSISTENCE_MODULE") == SQLITE_MODULE:
        raise fail(
            f"--workers {workers} needs PostgreSQL (CASCADIA_DATABASE_URL): on SQLite the workers "
            "would queue on the file's single write lock; serve SQLite with one worker"
        )
    sock = bind_socket(host, port)
    with GameStore(home):  # an unusable store is one line here, not a crash in each worker
        pass
    settings = ServerConfig(home=home, cors_origins=cors_origin or [], poll_interval=poll_interval)
    os.environ.update(settings.to_env())
    metrics_dir = None  # made here for the workers' metrics (unless the operator chose one)
    if workers > 1 and not os.environ.get(MULTIPROC_VAR):
        metrics_dir = os.environ[MULTIPROC_VAR] = tempfile.mkdtemp(prefix="cascadia-metrics-")
    signal.signal(signal.SIGTERM, _exit_cleanly)
    config = uvicorn.Config(
        APP_FACTORY,
        factory=True,
        workers=workers,
        access_log=False,
        log_level="info",
        server_header=False,
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
    console.print(f"cascadia server on http://{host}:{port}/ (API docs at /docs)", markup=False)
    if workers > 1:
        try:
            Multiprocess(config, sockets=[sock]).run()
        finally:
            if metrics_dir is not None:
                shutil.rmtree(metrics_dir, ignore_errors=True)
        return
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    if not server.started:
        raise fail("the server did not start (see the log above)")


def register(app: typer.Typer) -> None:
    app.command("serve", short_help="Serve games over HTTP (API, streams, web client).")(serve)
