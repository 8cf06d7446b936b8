"""Games: create and list them; a game's view, commands, events, event stream, stream
tickets, and once it is over its score, log and fairness record."""

from __future__ import annotations

from typing import Any

from cascadia.server import metrics
from cascadia.server.dependencies import (
    TOKEN_CHECKED,
    Authorization,
    Bots,
    EventsAfter,
    GameId,
    Games,
    Maps,
    NumberQuery,
    Player,
    Streams,
    StreamStart,
    StreamViewer,
    Viewer,
    parse_game_id,
    seat_of,
    seat_required,
)
from cascadia.server.games import CreatedGame, SeatSpec
from cascadia.server.maps import parse_map_id
from cascadia.server.numbers import client_number
from cascadia.server.routes import answer, router
from cascadia.server.schemas import CommandIn, CreateGameIn, join_link
from cascadia.server.streams import event_stream, sse_response
from cascadia.server.tokens import TICKET_SECONDS, new_ticket
from fastapi import Response
from fastapi.responses import JSONResponse, StreamingResponse

routes = router()


@routes.post("/api/games", status_code=201)
def create_game(body: CreateGameIn, games: Games, maps: Maps, bots: Bots) -> JSONResponse:
    map_id = None if body.map_id is None else parse_map_id(body.map_id)
    options = body.options_for(map_id)
    check = None if map_id is None else lambda names, opts: maps.check_game(map_id, names, opts)
    created = games.create([SeatSpec(name=s.name, bot=s.bot) for s in body.seats], options, check, map_id)
    if created.has_bots:
        bots.after_answer(created.game_id)
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
    }


@routes.get("/api/games")
def list_games(games: Games, limit: NumberQuery = None) -> JSONResponse:
    count = 50 if limit is None else client_number(limit, "limit", 1, 200)
    return answer({"games": games.games(count)})


@routes.get("/api/games/{game_id}")
def read_game(game_id: GameId, seat: Viewer, games: Games, bots: Bots) -> JSONResponse:
    view = games.view(game_id, seat)
    if view["bot_to_move"]:  # e.g. a process died between a command and its bots' turn
        bots.after_answer(game_id)
    return answer(view)


@routes.post("/api/games/{game_id}/commands")
def post_command(
    game_id: str, body: CommandIn, games: Games, hub: Streams, bots: Bots, authorization: Authorization = None
) -> JSONResponse:
    # the game and the seat are found inside the timer: a command refused for its id or
    # its token is counted and timed as refused
    with metrics.command_timer():
        gid = parse_game_id(game_id)
        seat = seat_required(seat_of(games, gid, authorization))
        played = games.play(gid, seat, body.command, body.expected_version)
    hub.poke(gid, played.version)
    if played.follow_up:
        bots.after_answer(gid)
    return answer({"version": played.version, "events": played.events})


@routes.get("/api/games/{game_id}/events")
def read_events(game_id: GameId, start: EventsAfter, seat: Viewer, games: Games) -> JSONResponse:
    version, events, _ = games.events(game_id, seat, start)
    return answer({"version": version, "events": events})


@routes.post("/api/games/{game_id}/stream-tickets")
def stream_ticket(game_id: GameId, seat: Player, games: Games) -> JSONResponse:
    digest = games.seat_hashes(game_id)[0][seat]
    assert digest is not None
    return answer({"ticket": new_ticket(game_id, seat, digest), "expires_in": TICKET_SECONDS})


@routes.get("/api/games/{game_id}/stream")
async def stream(
    game_id: GameId, start: StreamStart, seat: StreamViewer, games: Games, hub: Streams
) -> StreamingResponse:
    return sse_response(event_stream(games, hub, game_id, seat, start))


@routes.get("/api/games/{game_id}/score", dependencies=TOKEN_CHECKED)
def score(game_id: GameId, games: Games) -> JSONResponse:
    return answer(games.score(game_id))


@routes.get("/api/games/{game_id}/log", dependencies=TOKEN_CHECKED)
def download_log(game_id: GameId, games: Games) -> Response:
    return Response(
        games.log_bytes(game_id),
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{game_id}.cascadia"'},
    )


@routes.get("/api/games/{game_id}/fairness", dependencies=TOKEN_CHECKED)
def fairness(game_id: GameId, games: Games) -> JSONResponse:
    return answer(games.fairness(game_id))
