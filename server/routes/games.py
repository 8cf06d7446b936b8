"""Games: create and list them; a game's view, commands, events, event stream, stream
tickets, and once it is over its score, log and fairness record.

The routes a game in play calls for every command (its view, a command, its events) are
``async`` and run their work in the server's worker threads
(:mod:`cascadia.server.threads`); the view and the command are answered without
FastAPI's dependency solving (:mod:`cascadia.server.direct_routes`). The others are
sync routes, which FastAPI runs in anyio's."""

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
    ServerServices,
    Services,
    StreamRequest,
    parse_game_id,
    services_of,
)
from cascadia.server.direct_routes import CallerRoute, CommandRoute
from cascadia.server.games import CreatedGame, SeatSpec
from cascadia.server.maps import parse_map_id
from cascadia.server.numbers import client_number
from cascadia.server.routes import answer, answer_text, router
from cascadia.server.schemas import CommandIn, CreateGameIn, join_link
from cascadia.server.store import LISTED_GAMES
from cascadia.server.streams import event_stream, sse_response
from cascadia.server.tokens import TICKET_SECONDS, new_ticket
from fastapi import BackgroundTasks, Request, Response
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


async def read_game(caller: Caller, background: BackgroundTasks) -> Response:
    return await caller.services.threads.run(_read_game, caller, background)


# the routes a game in play calls most are answered without FastAPI's dependency solving
routes.add_api_route("/api/games/{game_id}", read_game, methods=["GET"], route_class_override=CallerRoute)


def _read_game(caller: GameCaller, background: BackgroundTasks) -> Response:
    """The caller's view of the game (in a worker thread)."""
    seat = caller.seat()
    view, bot_to_move = caller.games.view_text(caller.game_id, seat, caller.record_now())
    if bot_to_move:  # e.g. a process died between a command and its bots' turn
        background.add_task(caller.services.take_bot_turns, caller.game_id)
    return answer_text(view)


async def post_command(
    game_id: str,
    body: CommandIn,
    request: Request,
    background: BackgroundTasks,
    authorization: Authorization = None,
) -> JSONResponse:
    services = services_of(request)
    return await services.threads.run(_post_command, services, game_id, body, background, authorization)


routes.add_api_route(
    "/api/games/{game_id}/commands", post_command, methods=["POST"], route_class_override=CommandRoute
)


def _post_command(
    services: ServerServices,
    game_id: str,
    body: CommandIn,
    background: BackgroundTasks,
    authorization: str | None,
) -> JSONResponse:
    """Play the command of the token's seat (in a worker thread)."""
    # the game and the seat are found inside the timer (and after the body is checked):
    # a command refused for its id or its token is counted and timed as refused
    with metrics.command_timer():
        gid = parse_game_id(game_id)
        seat = GameCaller(services, gid, authorization).player()
        played = services.games.play(gid, seat, body.command, body.expected_version)
    services.hub.poke(gid, played.version)
    if played.follow_up:
        background.add_task(services.take_bot_turns, gid)
    return answer({"version": played.version, "events": played.events})


@routes.get("/api/games/{game_id}/events")
async def read_events(caller: Caller, start: EventsAfter) -> JSONResponse:
    return await caller.services.threads.run(_read_events, caller, start)


def _read_events(caller: GameCaller, start: int) -> JSONResponse:
    """The game's events after ``start`` as the caller sees them (in a worker thread)."""
    version, events, _ = caller.games.events(caller.game_id, caller.seat(), start)
    return answer({"version": version, "events": events})


@routes.post("/api/games/{game_id}/stream-tickets")
def stream_ticket(caller: Caller) -> JSONResponse:
    seat = caller.player()
    digest = caller.games.seat_hashes(caller.game_id)[0][seat]
    assert digest is not None
    return answer({"ticket": new_ticket(caller.game_id, seat, digest), "expires_in": TICKET_SECONDS})


@routes.get("/api/games/{game_id}/stream")
async def stream(game_id: GameId, asked: StreamRequest, services: Services) -> StreamingResponse:
    return sse_response(event_stream(services.games, services.hub, game_id, asked.seat, asked.after))


@routes.get("/api/games/{game_id}/score")
def score(caller: Caller) -> JSONResponse:
    caller.seat()  # a token, if sent, must be a seat's
    return answer(caller.games.score(caller.game_id))


@routes.get("/api/games/{game_id}/log")
def download_log(caller: Caller) -> Response:
    caller.seat()  # a token, if sent, must be a seat's
    return Response(
        caller.games.log_bytes(caller.game_id),
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{caller.game_id}.cascadia"'},
    )


@routes.get("/api/games/{game_id}/fairness")
def fairness(caller: Caller) -> JSONResponse:
    caller.seat()  # a token, if sent, must be a seat's
    return answer(caller.games.fairness(caller.game_id))
