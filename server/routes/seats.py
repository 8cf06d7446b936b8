"""A game's seats: a seat's view, its link re-issued by the game's creator, and on a
game for an achievement map, what the seat may mark and its marks."""

from __future__ import annotations

from cascadia.server.dependencies import (
    AskedSeat,
    Authorization,
    GameId,
    Games,
    Maps,
    OwnSeat,
    Player,
    bearer_token,
    check_own_seat,
)
from cascadia.server.problems import Problem
from cascadia.server.routes import answer, router
from cascadia.server.schemas import MarkIn, join_link
from fastapi.responses import JSONResponse

routes = router()


@routes.get("/api/games/{game_id}/seats/{seat}")
def read_seat(game_id: GameId, seat: OwnSeat, games: Games) -> JSONResponse:
    return answer(games.view(game_id, seat))


@routes.post("/api/games/{game_id}/seats/{seat}/link")
def reissue_link(
    game_id: GameId, seat: AskedSeat, games: Games, authorization: Authorization = None
) -> JSONResponse:
    creator = bearer_token(authorization)
    if creator is None:
        raise Problem(401, "token-required", "Token required", "this needs the creator's bearer token")
    token = games.reissue(game_id, seat, creator)
    return answer({"seat": seat, "token": token, "join_link": join_link(game_id, seat, token)})


@routes.get("/api/games/{game_id}/seats/{seat}/markable")
def markable(game_id: GameId, seat: OwnSeat, maps: Maps) -> JSONResponse:
    return answer(maps.markable(game_id, seat))


@routes.post("/api/games/{game_id}/marks")
def mark(game_id: GameId, body: MarkIn, seat: Player, maps: Maps) -> JSONResponse:
    mine = check_own_seat(seat, body.seat)
    return answer(maps.mark(game_id, mine, body.achievement, body.expected_version))
