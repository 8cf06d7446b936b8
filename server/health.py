"""Liveness and readiness, for a load balancer or an orchestrator.

``GET /healthz``: 200 while the process serves at all (liveness: restart it if not).
``GET /readyz``: 200 when the event store answers a trivial read; 503 (a problem) when
it does not, or while the process is shutting down (readiness: send it no traffic).
"""

from __future__ import annotations

import logging

from cascadia.server.hub import Hub
from cascadia.server.problems import Problem
from cascadia.server.store import ServerStore
from fastapi import FastAPI
from fastapi.responses import JSONResponse

log = logging.getLogger("cascadia.server")


def _not_ready(detail: str) -> Problem:
    return Problem(503, "not-ready", "Not ready", detail, headers={"Retry-After": "1"})


def install(app: FastAPI, store: ServerStore, hub: Hub) -> None:
    """Add ``/healthz`` and ``/readyz`` to ``app``."""

    @app.get("/healthz", tags=["operations"])
    def healthz() -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @app.get("/readyz", tags=["operations"])
    def readyz() -> JSONResponse:
        if hub.draining:
            raise _not_ready("the server is shutting down")
        try:
            store.ping()
        except Exception as error:  # any failure of the store means: not ready
            log.warning("readiness: the event store did not answer (%s)", type(error).__name__)
            raise _not_ready("the event store does not answer") from None
        return JSONResponse({"status": "ready"})
