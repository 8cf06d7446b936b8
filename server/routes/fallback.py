"""Whatever no route of the API answers: 405 on a path of the API with the methods it
allows (``Allow``), else 404. The application includes its router after every other."""

from __future__ import annotations

from collections.abc import Sequence

from cascadia.server.problems import Problem
from cascadia.server.routes import router
from fastapi import APIRouter, Request
from fastapi.routing import APIRoute

ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def allowed_methods(routers: Sequence[APIRouter], path: str) -> list[str]:
    """The methods the routes of ``routers`` answer on ``path``, sorted."""
    return sorted(
        {
            method
            for api in routers
            for route in api.routes
            if isinstance(route, APIRoute) and route.path_regex.match(path)
            for method in route.methods
        }
    )


def unknown_api(routers: Sequence[APIRouter]) -> APIRouter:
    """The router of every ``/api/`` path and method that no route of ``routers`` answers."""
    routes = router()

    @routes.api_route("/api/{rest:path}", methods=ANY_METHOD, include_in_schema=False)
    def unknown_api(request: Request) -> None:
        path = request.url.path
        allowed = allowed_methods(routers, path)
        if allowed:
            detail = f"{path} answers {', '.join(allowed)} only"
            raise Problem(
                405, "method-not-allowed", "Method not allowed", detail, headers={"Allow": ", ".join(allowed)}
            )
        raise Problem(404, "not-found", "Not found", "no such API path")

    return routes
