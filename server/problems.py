"""Errors as RFC 9457 problem details (``application/problem+json``), never a traceback;
a browser asking for a page that does not exist gets a page saying so."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("cascadia.server")
PROBLEM_BASE = "https://cascadia.invalid/problems/"
MEDIA_TYPE = "application/problem+json"


class Problem(Exception):
    """An error answer: its HTTP status, its type name (the last part of its ``type`` URI),
    a title, a detail, any response headers (``Allow`` of a 405) and any extra members."""

    def __init__(
        self,
        status: int,
        name: str,
        title: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.headers = headers or {}
        self.status = status
        self.name = name
        self.title = title
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {
            "type": PROBLEM_BASE + self.name,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            **self.extra,
        }


def problem_response(problem: Problem) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if problem.status == 401 else {}
    headers.update(problem.headers)
    return JSONResponse(problem.body(), status_code=problem.status, media_type=MEDIA_TYPE, headers=headers)


_HTTP_NAMES = {
    400: ("bad-request", "Bad request"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    413: ("body-too-large", "Request body too large"),
}


def _clean_errors(errors: Any) -> list[dict[str, Any]]:
    """pydantic's error list without the input values (they may be large, or secret)."""
    return [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type")} for e in errors
    ]


def wants_page(request: Request) -> bool:
    """A browser's request for a page (not under ``/api``, and HTML acceptable)."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get("accept", "")


def install(app: FastAPI, not_found_page: Path | None = None) -> None:
    """Answer every error of ``app`` as problem details, except an unknown page asked for
    by a browser: ``not_found_page`` (HTML), with status 404, when given.

    The one place errors become answers: a route (or a dependency, or a service) raises
    a :class:`Problem`, FastAPI's validation errors are 400 ``bad-request``, Starlette's
    HTTP errors keep their status, and anything else is a 500 without a traceback."""

    @app.exception_handler(Problem)
    async def _problem(_: Request, problem: Problem) -> JSONResponse:
        return problem_response(problem)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        return problem_response(
            Problem(
                400,
                "bad-request",
                "Bad request",
                "the request is not valid JSON of the expected shape",
                errors=_clean_errors(error.errors()),
            )
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and not_found_page is not None and wants_page(request):
            return HTMLResponse(not_found_page.read_text(encoding="utf-8"), status_code=404)
        name, title = _HTTP_NAMES.get(error.status_code, ("http-error", "HTTP error"))
        detail = error.detail if isinstance(error.detail, str) else title
        return problem_response(Problem(error.status_code, name, title, detail))

    @app.exception_handler(Exception)
    async def _bug(request: Request, error: Exception) -> JSONResponse:
        # the traceback goes to the server's log (no request data in it), not to the client
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return problem_response(Problem(500, "internal-error", "Internal error", "the server failed"))
