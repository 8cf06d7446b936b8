"""Request bodies: JSON read by the project's one bounded parser.

Every route of the application parses its JSON body with
:func:`~cascadia.replays.format.loads_bounded` (at most ``MAX_DEPTH`` levels, valid
UTF-8, no ``RecursionError``) instead of Starlette's plain ``json.loads``; a body it
refuses is a 400 ``bad-request`` problem saying why (server/API.md).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from cascadia.replays.format import loads_bounded
from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute


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
