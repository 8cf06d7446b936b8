"""The HTTP API's routes (server/API.md), one router per resource.

Routes adapt HTTP to the services: they take what :mod:`cascadia.server.dependencies`
finds in the request and a body of :mod:`cascadia.server.schemas`, call a service, and
answer JSON; they raise :class:`~cascadia.server.problems.Problem` for a refusal and
name no rule of the game (nothing here imports ``cascadia.domain``).
"""

from __future__ import annotations

from typing import Any

from cascadia.server.bodies import BoundedJSONRoute
from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response


def router() -> APIRouter:
    """A router whose routes read their JSON bodies with the bounded parser."""
    return APIRouter(route_class=BoundedJSONRoute)


def answer_text(text: str) -> Response:
    """A JSON answer already encoded as :func:`answer` encodes (the same bytes and
    headers)."""
    return Response(text.encode("utf-8"), media_type=JSONResponse.media_type)


def answer(data: Any, status: int = 200) -> JSONResponse:
    """A JSON answer, encoded directly (FastAPI's generic encoder costs several times more
    on the larger views)."""
    return JSONResponse(data, status_code=status)
