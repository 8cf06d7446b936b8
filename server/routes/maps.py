"""Achievement maps (RULES.md 8.1): list and create them, a map's progress, its stream
of progress and its picture."""

from __future__ import annotations

from typing import Annotated

from cascadia.server import streams
from cascadia.server.dependencies import KnownMap, MapId, Maps, NumberQuery, Streams, StreamStart
from cascadia.server.numbers import client_number
from cascadia.server.routes import answer, router
from cascadia.server.schemas import CreateMapIn
from fastapi import Depends, Response
from fastapi.responses import JSONResponse, StreamingResponse

routes = router()


@routes.get("/api/maps")
def read_maps(maps: Maps) -> JSONResponse:
    return answer({"maps": maps.maps()})


@routes.post("/api/maps", status_code=201)
def create_map(body: CreateMapIn, maps: Maps) -> JSONResponse:
    return answer(maps.create(body.name, body.players), status=201)


@routes.get("/api/maps/{map_id}")
def read_map(map_id: MapId, maps: Maps) -> JSONResponse:
    return answer(maps.progress(map_id))


@routes.get("/api/maps/{map_id}/stream")
async def map_stream(map_id: KnownMap, start: StreamStart, maps: Maps, hub: Streams) -> StreamingResponse:
    return streams.sse_response(streams.map_stream(maps, hub, map_id, start))


async def _svg_columns(columns: NumberQuery = None) -> int:
    return 2 if columns is None else client_number(columns, "columns", 1, 2)


SvgColumns = Annotated[int, Depends(_svg_columns)]
"""How many columns of achievements the picture has (1 or 2; 2 unless asked)."""


@routes.get("/api/maps/{map_id}/svg")
def map_picture(columns: SvgColumns, map_id: MapId, maps: Maps) -> Response:
    return Response(
        maps.svg(map_id, columns), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )
