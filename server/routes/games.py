"""Games: create and list them; a game's view, commands, events, event stream, stream
tickets, and once it is over its score, log and fairness record."""

from __future__ import annotations

from typing import Any

from cascadia.server import metrics
from cascadia.server.dependencies import (
    Authorization,
    Caller,
    EventsAfter,
    GameCaller,
    GameId,
    NumberQuery,
    Services,
    StreamRequest,
    parse_game_id,
)
from cascadia.server.games import CreatedGame, SeatSpec
from cascadia.server.maps import parse_map_id
from cascadia.server.numbers import client_number
from cascadia.server.routes import answer, router
from cascadia.server.schemas import CommandIn, CreateGameIn, join_link
from cascadia.server.store import LISTED_GAMES
from cascadia.server.streams import event_stream, sse_response
from cascadia.server.tokens import TICKET_SECONDS, new_ticket
from fastapi import BackgroundTasks, Response
from fastapi.responses import JSONResponse, StreamingResponse

routes = router()


@routes.post("/api/games", status_code=201)
def create_game(body: CreateGameIn, services: Services, background: BackgroundTasks) -> JSONResponse:
    map_id = None if body.map_id is None else parse_map_id(body.map_id)
    options = body.options_for(map_id)
    check = None if map_id is None else lambda names, opts: services.maps.check_game(map_id, names, opts)
    seats = [SeatSpec(name=s.name, bot=s.bot) for s in body.seats]
    created = services.games.create(seats, options, check, map_id, body.turn_seconds)
    if created.has_bots:
        background.add_task(services.take_bot_turns, created.game_id)
    return answer(_created(created, body.map_id and str(map_id), options["achievement_mode"]), status=201)


def _created(created: CreatedGame, map_id: str | None, mode: str | None) -> dict[str, Any]:
    """The answer to a game created: its id, commitment, seats with their tokens and
    links, and the creator's token and link."""
    gid = created.game_id
    return {
        "game_id": str(gid),
        "commitment": created.record.commitment,
        "version": created.version,
        "seats": [
            {
                "seat": seat,
                "name": name,
                "kind": "bot" if token is None else "human",
                "token": token,
                "join_link": None if token is None else join_link(gid, seat, token),
            }
            for seat, (name, token) in enumerate(zip(created.names, created.tokens, strict=True))
        ],
        "spectate_link": f"/spectate.html?game={gid}",
        "creator_token": created.creator_token,
        "creator_link": f"/spectate.html?game={gid}#creator={created.creator_token}",
        "map_id": map_id,
        "achievement_mode": mode,
        "turn_seconds": created.record.turn_seconds,
    }


@routes.get("/api/games")
def list_games(services: Services, limit: NumberQuery = None) -> JSONResponse:
    count = 50 if limit is None else client_number(limit, "limit", 1, LISTED_GAMES)
    games, total = services.games.games(count)
    return answer({"games": games, "total": total})


@routes.get("/api/games/{game_id}")
def read_game(
    game_id: GameId, caller: Caller, services: Services, background: BackgroundTasks
) -> JSONResponse:
    seat = caller.seat()
    view = services.games.view(game_id, seat, caller.record_now())
    if view["bot_to_move"]:  # e.g. a process died between a command and its bots' turn
        background.add_task(services.take_bot_turns, game_id)
    return answer(view)


@routes.post("/api/games/{game_id}/commands")
def post_command(
    game_id: str,
    body: CommandIn,
    services: Services,
    background: BackgroundTasks,
    authorization: Authorization = None,
) -> JSONResponse:
    # the game and the seat are found inside the timer (and after the body is checked):
    # a command refused for its id or its token is counted and timed as refused
    with metrics.command_timer():
        gid = parse_game_id(game_id)
        seat = GameCaller(services.games, gid, authorization).player()
        played = services.games.play(gid, seat, body.command, body.expected_version)
    services.hub.poke(gid, played.version)
    if played.follow_up:
        background.add_task(services.take_bot_turns, gid)
    return answer({"version": played.version, "events": played.events})


@routes.get("/api/games/{game_id}/events")
def read_events(game_id: GameId, start: EventsAfter, caller: Caller, services: Services) -> JSONResponse:
    version, events, _ = services.games.events(game_id, caller.seat(), start)
    return answer({"version": version, "events": events})


@routes.post("/api/games/{game_id}/stream-tickets")
def stream_ticket(game_id: GameId, caller: Caller, services: Services) -> JSONResponse:
    seat = caller.player()
    digest = services.games.seat_hashes(game_id)[0][seat]
    assert digest is not None
    return answer({"ticket": new_ticket(game_id, seat, digest), "expires_in": TICKET_SECONDS})


@routes.get("/api/games/{game_id}/stream")
async def stream(game_id: GameId, asked: StreamRequest, services: Services) -> StreamingResponse:
    return sse_response(event_stream(services.games, services.hub, game_id, asked.seat, asked.after))


@routes.get("/api/games/{game_id}/score")
def score(game_id: GameId, caller: Caller, services: Services) -> JSONResponse:
    caller.seat()  # a token, if sent, must be a seat's
    return answer(services.games.score(game_id))


@routes.get("/api/games/{game_id}/log")
def download_log(game_id: GameId, caller: Caller, services: Services) -> Response:
    caller.seat()  # a token, if sent, must be a seat's
    return Response(
        services.games.log_bytes(game_id),
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.cascadia"'},
    )


@routes.get("/api/games/{game_id}/fairness")
def fairness(game_id: GameId, caller: Caller, services: Services) -> JSONResponse:
    caller.seat()  # a token, if sent, must be a seat's
    return answer(services.games.fairness(game_id))
