"""A route on a game called with its caller directly, without FastAPI's dependency solving.

FastAPI solves a route's dependencies anew on every request through its generic
machinery (each parameter's source looked up, validated, the results gathered): for a
view read from the cache, a third of the event loop's CPU (cProfile). A view is read
about once for every command played, and its route takes nothing but
:data:`~cascadia.server.dependencies.Caller` and the response's ``BackgroundTasks``:
:class:`CallerRoute` answers it by building those two itself, as the dependency builds
the caller (the same checks, in the same order, the same problems), and hands the tasks
to the response as FastAPI does. The OpenAPI description is FastAPI's, from the same
endpoint. A route whose parameters are anything else is refused when it is added.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from cascadia.server.dependencies import CALLER_OF_GAME
from fastapi import BackgroundTasks, Request, Response
from fastapi.routing import APIRoute


class CallerRoute(APIRoute):
    """A route whose ``async`` endpoint takes a :data:`~cascadia.server.dependencies.Caller`
    and ``BackgroundTasks``, nothing else, and answers a ``Response``: called directly."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        dependant = self.dependant
        others = (
            dependant.path_params,
            dependant.query_params,
            dependant.header_params,
            dependant.cookie_params,
            dependant.body_params,
        )
        callers = [d.name for d in dependant.dependencies if d.call is CALLER_OF_GAME]
        background_name = dependant.background_tasks_param_name
        if len(dependant.dependencies) != 1 or not callers or background_name is None or any(others):
            raise TypeError(f"{self.path}: a CallerRoute's endpoint takes a Caller and BackgroundTasks only")
        endpoint: Callable[..., Awaitable[Response]] = self.endpoint
        caller_name = callers[0]

        async def answer(request: Request) -> Response:
            caller = await CALLER_OF_GAME(request, request.path_params["game_id"])
            background = BackgroundTasks()
            response = await endpoint(**{caller_name: caller, background_name: background})
            if response.background is None:  # as FastAPI hands a route's tasks to its answer
                response.background = background
            return response

        return answer
