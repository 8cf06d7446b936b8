"""Request bodies: at most :data:`MAX_BODY` bytes, JSON read by the project's one
bounded parser.

:class:`BodyLimit` refuses a larger body with 413 (declared or streamed). Every route
of the application parses its JSON body with
:func:`~cascadia.replays.format.loads_bounded` (at most ``MAX_DEPTH`` levels, valid
UTF-8, no ``RecursionError``) instead of Starlette's plain ``json.loads``; a body it
refuses is a 400 ``bad-request`` problem saying why (server/API.md).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from cascadia.replays.format import loads_bounded
from cascadia.server import problems
from cascadia.server.numbers import parse_number
from cascadia.server.problems import Problem
from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024


class BoundedRequest(Request):
    """A request whose :meth:`json` is :func:`loads_bounded`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = loads_bounded(await self.body())
            except ValueError as error:
                raise HTTPException(400, f"the body is not valid JSON: {error}") from None
        return self._json


class BoundedJSONRoute(APIRoute):
    """A route that reads its body as a :class:`BoundedRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            return await handler(BoundedRequest(request.scope, request.receive))

        return bounded


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
