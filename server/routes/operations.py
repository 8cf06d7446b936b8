"""What an operator or a load balancer asks: health, readiness, metrics.

``GET /healthz``: 200 while the process serves at all (liveness: restart it if not).
``GET /readyz``: 200 when the event store answers a trivial read; 503 (a problem) when
it does not, or while the process is shutting down (readiness: send it no traffic).
``GET /api/health``: 200, for the browser client and the tests. ``GET /metrics``:
Prometheus metrics (:mod:`cascadia.server.metrics`).
"""

from __future__ import annotations

import logging

from cascadia.server import metrics
from cascadia.server.dependencies import Services
from cascadia.server.problems import Problem
from cascadia.server.routes import answer, router
from fastapi import Response
from fastapi.responses import JSONResponse

log = logging.getLogger("cascadia.server")
routes = router()


def _not_ready(detail: str) -> Problem:
    return Problem(503, "not-ready", "Not ready", detail, headers={"Retry-After": "1"})


@routes.get("/healthz", tags=["operations"])
def healthz() -> JSONResponse:
    return answer({"status": "ok"})


@routes.get("/readyz", tags=["operations"])
def readyz(services: Services) -> JSONResponse:
    if services.hub.draining:
        raise _not_ready("the server is shutting down")
    try:
        services.store.ping()
    except Exception as error:  # any failure of the store means: not ready
        log.warning("readiness: the event store did not answer (%s)", type(error).__name__)
        raise _not_ready("the event store does not answer") from None
    return answer({"status": "ready"})


@routes.get("/metrics", tags=["operations"])
def read_metrics(services: Services) -> Response:
    in_play = services.store.games_in_play()
    return Response(metrics.exposition(in_play), media_type=metrics.CONTENT_TYPE)


@routes.get("/api/health")
def api_health() -> JSONResponse:
    return answer({"status": "ok"})
