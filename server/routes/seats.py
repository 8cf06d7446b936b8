"""A game's seats: a seat's view, its link re-issued by the game's creator, and on a
game for an achievement map, what the seat may mark and its marks."""

from __future__ import annotations

from cascadia.server.dependencies import (
    AskedSeat,
    Authorization,
    Caller,
    GameId,
    Services,
    bearer_token,
)
from cascadia.server.problems import Problem
from cascadia.server.routes import answer, router
from cascadia.server.schemas import MarkIn, join_link
from fastapi.responses import JSONResponse

routes = router()


@routes.get("/api/games/{game_id}/seats/{seat}")
def read_seat(game_id: GameId, seat: AskedSeat, caller: Caller, services: Services) -> JSONResponse:
    return answer(services.games.view(game_id, caller.player(seat)))


@routes.post("/api/games/{game_id}/seats/{seat}/link")
def reissue_link(
    game_id: GameId, seat: AskedSeat, services: Services, authorization: Authorization = None
) -> JSONResponse:
    creator = bearer_token(authorization)
    if creator is None:
        raise Problem(401, "token-required", "Token required", "this needs the creator's bearer token")
    token = services.games.reissue(game_id, seat, creator)
    return answer({"seat": seat, "token": token, "join_link": join_link(game_id, seat, token)})


@routes.get("/api/games/{game_id}/seats/{seat}/markable")
def markable(game_id: GameId, seat: AskedSeat, caller: Caller, services: Services) -> JSONResponse:
    return answer(services.maps.markable(game_id, caller.player(seat)))


@routes.post("/api/games/{game_id}/marks")
def mark(game_id: GameId, body: MarkIn, caller: Caller, services: Services) -> JSONResponse:
    mine = caller.player(body.seat)
    return answer(services.maps.mark(game_id, mine, body.achievement, body.expected_version))
