"""The routes a game in play calls most, answered without FastAPI's dependency solving.

FastAPI solves a route's parameters anew on every request through its generic
machinery (each parameter's source looked up, validated, the results gathered): for a
view read from the cache, a third of the event loop's CPU (cProfile). A view is read
about once for every command played, and a command posted once: their routes take
their few parameters here, as FastAPI would give them, and call the endpoint directly.
The OpenAPI description is FastAPI's, from the same endpoints. Each class refuses, when
its route is added, an endpoint whose parameters are not the ones it knows.

- :class:`CallerRoute`: ``async def endpoint(caller: Caller, background:
  BackgroundTasks) -> Response``; the caller is built by the dependency's own code (the
  same checks, in the same order, the same problems).
- :class:`CommandRoute`: ``async def endpoint(game_id: str, body: Model, request:
  Request, background: BackgroundTasks, authorization: Authorization = None) ->
  Response``. Only the plain case is taken here: a body sent as ``application/json``,
  read, parsed and valid. Anything else (another or no content type, an empty body, a
  body that does not validate) goes to FastAPI's own handler with the request as read
  so far, which answers it as it always has (a body that cannot be read at all: its
  own 400; a body over the limit: the 413 problem, let through as FastAPI does).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from cascadia.server.bodies import BoundedJSONRoute, BoundedRequest
from cascadia.server.dependencies import AUTHORIZATION_HEADER, CALLER_OF_GAME
from fastapi import BackgroundTasks, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.body_limit import MAX_BODY_SIZE_SCOPE_KEY

JSON = "application/json"

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


def _with_background(response: Response, background: BackgroundTasks) -> Response:
    """``response`` with the route's ``background`` tasks, as FastAPI hands them to an
    endpoint's answer (unless it has tasks of its own)."""
    if response.background is None:
        response.background = background
    return response


def _refuse(path: str, shape: str) -> TypeError:
    return TypeError(f"{path}: the endpoint's parameters are not {shape}")


def _others(dependant: Dependant, *, path: bool) -> bool:
    """Whether the route has parameters of kinds its class does not take."""
    kinds = [dependant.query_params, dependant.header_params, dependant.cookie_params]
    return any(kinds) or (path and bool(dependant.path_params))


class CallerRoute(APIRoute):
    """A route whose ``async`` endpoint takes a :data:`~cascadia.server.dependencies.Caller`
    and ``BackgroundTasks``, nothing else, and answers a ``Response``: called directly."""

    def get_route_handler(self) -> Handler:
        dependant = self.dependant
        callers = [d.name for d in dependant.dependencies if d.call is CALLER_OF_GAME]
        background_name = dependant.background_tasks_param_name
        if (
            len(dependant.dependencies) != 1
            or not callers
            or background_name is None
            or dependant.body_params
            or _others(dependant, path=True)
        ):
            raise _refuse(self.path, "a Caller and BackgroundTasks")
        endpoint: Callable[..., Awaitable[Response]] = self.endpoint
        caller_name = callers[0]

        async def answer(request: Request) -> Response:
            caller = await CALLER_OF_GAME(request, request.path_params["game_id"])
            background = BackgroundTasks()
            return _with_background(
                await endpoint(**{caller_name: caller, background_name: background}), background
            )

        return answer


class CommandRoute(BoundedJSONRoute):
    """A route whose ``async`` endpoint takes the game's id (the path's ``game_id``), a
    JSON body of one pydantic model, the request, ``BackgroundTasks`` and
    :data:`~cascadia.server.dependencies.Authorization`, and answers a ``Response``:
    called directly when the body is plain valid JSON (see the module docstring)."""

    def get_route_handler(self) -> Handler:
        dependant = self.dependant
        bodies = dependant.body_params
        authorizations = [d.name for d in dependant.dependencies if d.call is AUTHORIZATION_HEADER]
        names = (dependant.request_param_name, dependant.background_tasks_param_name)
        model = bodies[0].field_info.annotation if len(bodies) == 1 else None
        if (
            [p.name for p in dependant.path_params] != ["game_id"]
            or not (isinstance(model, type) and issubclass(model, BaseModel))
            or len(dependant.dependencies) != 1
            or not authorizations
            or None in names
            or _others(dependant, path=False)
        ):
            raise _refuse(
                self.path, "the game's id, a JSON body, the request, BackgroundTasks and Authorization"
            )
        general = APIRoute.get_route_handler(self)  # FastAPI's, on a request as given
        endpoint: Callable[..., Awaitable[Response]] = self.endpoint
        request_name, background_name = names
        body_name, authorization_name = bodies[0].name, authorizations[0]

        async def answer(request: Request) -> Response:
            bounded = BoundedRequest(request.scope, request.receive)
            if request.headers.get("content-type") != JSON or MAX_BODY_SIZE_SCOPE_KEY in request.scope:
                return await general(bounded)
            try:
                body = await bounded.body()
            except HTTPException:
                raise  # the body over the limit: FastAPI lets it through the same
            except Exception:
                return await general(bounded)  # it cannot read the body again either: its 400
            if not body:
                return await general(bounded)
            data = await bounded.json()  # a 400 problem if it is no JSON, as FastAPI's handler gets
            try:
                value = model.model_validate(data)
            except ValidationError:
                return await general(bounded)  # the body and its JSON read: its 400 with the errors
            background = BackgroundTasks()
            arguments = {
                "game_id": request.path_params["game_id"],
                body_name: value,
                request_name: bounded,
                background_name: background,
                authorization_name: await AUTHORIZATION_HEADER(bounded),
            }
            return _with_background(await endpoint(**arguments), background)

        return answer
