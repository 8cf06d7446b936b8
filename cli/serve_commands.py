"""``cascadia serve``: the game server (HTTP API and browser client) on the event store."""

from __future__ import annotations

import logging
from typing import Annotated

import typer
from cascadia.cli.common import HomeOption, console


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to bind (0.0.0.0: every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=1, max=65535)] = 8000,
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
    its documentation at /docs, the browser client at /)."""
    import uvicorn  # imported here: the other commands need not load the server
    from cascadia.server.app import ServerConfig, create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = create_app(ServerConfig(home=home, cors_origins=cors_origin or [], poll_interval=poll_interval))
    console.print(f"cascadia server on http://{host}:{port}/ (API docs at /docs)", markup=False)
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="info", server_header=False)


def register(app: typer.Typer) -> None:
    app.command("serve", short_help="Serve games over HTTP (API, streams, web client).")(serve)
