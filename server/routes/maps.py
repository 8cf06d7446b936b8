"""Achievement maps (RULES.md 8.1): list and create them, a map's progress, its stream
of progress and its picture."""

from __future__ import annotations

from typing import Annotated

from cascadia.server import streams
from cascadia.server.dependencies import LastEventId, MapId, NumberQuery, Services, resume_at
from cascadia.server.numbers import client_number
from cascadia.server.routes import answer, router
from cascadia.server.schemas import CreateMapIn
from fastapi import Depends, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

routes = router()


@routes.get("/api/maps")
def read_maps(services: Services) -> JSONResponse:
    return answer({"maps": services.maps.maps()})


@routes.post("/api/maps", status_code=201)
def create_map(body: CreateMapIn, services: Services) -> JSONResponse:
    return answer(services.maps.create(body.name, body.players), status=201)


@routes.get("/api/maps/{map_id}")
def read_map(map_id: MapId, services: Services) -> JSONResponse:
    return answer(services.maps.progress(map_id))


@routes.get("/api/maps/{map_id}/stream")
async def map_stream(
    map_id: MapId, services: Services, after: NumberQuery = None, last_event_id: LastEventId = None
) -> StreamingResponse:
    await run_in_threadpool(services.maps.progress, map_id)  # 404 for an unknown map, before streaming
    start = resume_at(after, last_event_id)
    return streams.sse_response(streams.map_stream(services.maps, services.hub, map_id, start))


async def _svg_columns(columns: NumberQuery = None) -> int:
    return 2 if columns is None else client_number(columns, "columns", 1, 2)


SvgColumns = Annotated[int, Depends(_svg_columns)]
"""How many columns of achievements the picture has (1 or 2; 2 unless asked)."""


@routes.get("/api/maps/{map_id}/svg")
def map_picture(columns: SvgColumns, map_id: MapId, services: Services) -> Response:
    return Response(
        services.maps.svg(map_id, columns), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )
