"""A game's seats: a seat's view, its link re-issued or the seat handed to a bot by the
game's creator, and on a game for an achievement map, what the seat may mark and its
marks."""

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
from cascadia.server.routes import answer, answer_text, router
from cascadia.server.schemas import HandToBotIn, MarkIn, join_link
from fastapi import BackgroundTasks, Response
from fastapi.responses import JSONResponse

routes = router()


@routes.get("/api/games/{game_id}/seats/{seat}")
def read_seat(caller: Caller, seat: AskedSeat) -> Response:
    mine = caller.player(seat)
    view, _ = caller.games.view_text(caller.game_id, mine, caller.record_now())
    return answer_text(view)


@routes.post("/api/games/{game_id}/seats/{seat}/link")
def reissue_link(
    game_id: GameId, seat: AskedSeat, services: Services, authorization: Authorization = None
) -> JSONResponse:
    token = services.games.reissue(game_id, seat, _creator(authorization))
    services.hub.nudge(game_id)  # the seat's open streams read the record now: its old token is revoked
    return answer({"seat": seat, "token": token, "join_link": join_link(game_id, seat, token)})


@routes.post("/api/games/{game_id}/seats/{seat}/bot")
def hand_to_bot(
    game_id: GameId,
    seat: AskedSeat,
    services: Services,
    background: BackgroundTasks,
    body: HandToBotIn | None = None,
    authorization: Authorization = None,
) -> JSONResponse:
    bot = (body or HandToBotIn()).bot
    services.games.hand_to_bot(game_id, seat, _creator(authorization), bot)
    services.hub.nudge(game_id)
    background.add_task(services.take_bot_turns, game_id)
    return answer({"seat": seat, "bot": bot, "reason": "creator"})


def _creator(authorization: str | None) -> str:
    """The creator's token the request sends (401 ``token-required`` without one)."""
    creator = bearer_token(authorization)
    if creator is None:
        raise Problem(401, "token-required", "Token required", "this needs the creator's bearer token")
    return creator


@routes.get("/api/games/{game_id}/seats/{seat}/markable")
def markable(caller: Caller, seat: AskedSeat) -> JSONResponse:
    return answer(caller.services.maps.markable(caller.game_id, caller.player(seat)))


@routes.post("/api/games/{game_id}/marks")
def mark(caller: Caller, body: MarkIn) -> JSONResponse:
    mine = caller.player(body.seat)
    return answer(caller.services.maps.mark(caller.game_id, mine, body.achievement, body.expected_version))
