"""The access log: one JSON object per request, on one line, that a request cannot forge.

Each line is ``json.dumps`` of ``{"time", "method", "path", "query", "status",
"duration_ms", "client"}`` with ``ensure_ascii``: every control character (CR, LF, NUL,
...) and every non-ASCII character of a decoded path or a header-derived value (the
client address a trusted proxy forwards) is escaped, so a request can never start a new
line or fake a field. Secrets are kept out: a path segment or query value that looks like
a token (:func:`redact_path`, :func:`redact_query`) and the values of ``ticket`` and
``token`` parameters are logged as ``[redacted]``; headers are never logged.
"""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import UTC, datetime
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("cascadia.server.access")
REDACTED = "[redacted]"
SECRET_PARAMETERS = frozenset({"ticket", "token", "access_token"})
TOKEN_LENGTH = 24
TOKEN_LIKE = re.compile(rf"[A-Za-z0-9_\-.]{{{TOKEN_LENGTH},}}")
"""A run of URL-safe characters as long as a token's or a ticket's (a seat token is 43)."""
CANONICAL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A game or map id as ``str(UUID)`` writes it."""


def _redact(text: str) -> str:
    """``text`` unless it looks like a secret (a long URL-safe run that is not an id)."""
    if len(text) < TOKEN_LENGTH or CANONICAL_ID.fullmatch(text):
        return text
    return REDACTED if TOKEN_LIKE.search(text) else text


def redact_path(path: str) -> str:
    """The path with each token-like segment replaced (game and map ids are kept)."""
    return "/".join(_redact(segment) for segment in path.split("/"))


def redact_query(query: str) -> str:
    """The query string with secret parameters' and token-like values replaced."""
    if not query:
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    return "&".join(
        f"{name}={REDACTED if name.lower() in SECRET_PARAMETERS else _redact(value)}" for name, value in pairs
    )


_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))
"""The lines' encoding, made once (``json.dumps`` with these arguments makes an encoder
at every call)."""


def access_line(scope: Scope, status: int, seconds: float) -> str:
    """The log line of a finished request (ASCII only, no control character)."""
    client = scope.get("client")
    return _ENCODER.encode(
        {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "method": scope["method"],
            "path": redact_path(scope["path"]),
            "query": redact_query(scope.get("query_string", b"").decode("latin-1")),
            "status": status,
            "duration_ms": round(seconds * 1000, 1),
            "client": None if not client else str(client[0]),
        }
    )


class AccessLog:
    """ASGI middleware: one :func:`access_line` per HTTP request, when it is done."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            log.info("%s", access_line(scope, status, time.perf_counter() - start))


def configure_logging() -> None:
    """A served process's logging: the access log's lines as they are (one JSON object
    each) on stderr, everything else with time and logger name."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.propagate = False
