"""What the routes take from a request besides its body (FastAPI dependencies).

The services the application was built on (``app.state``), the game or map a path
names (404 for an id not in canonical form), the numbers a client sends (400), and the
viewer: the seat of a bearer token (401 for a token of no seat, 403 for another seat's
request), of a stream ticket, or a spectator. Each is a type to annotate a route's
parameter with, e.g. ``def read(game_id: GameId, seat: Viewer)``; FastAPI solves them in
the order the parameters are declared, so a route lists them in the order their
problems take precedence. FastAPI checks the shape of a route's own query parameters
and body after its dependencies: a request with a malformed body (or an over-long query
parameter) *and* a game or map id not in canonical form, or a bad or missing token,
gets the 404 or 401. The commands route
finds its game and seat itself, inside the metrics timer (server/API.md orders its
checks).

Those that only parse are ``async`` (solved in the event loop); those that read the
store are plain functions (FastAPI runs them in its thread pool), except the viewer,
which goes to the thread pool only when there is a token to look up.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from cascadia.server.games import GameService, not_found
from cascadia.server.hub import Hub
from cascadia.server.maps import MapService, parse_map_id
from cascadia.server.numbers import client_number, parse_id
from cascadia.server.problems import Problem
from cascadia.server.store import ServerStore
from cascadia.server.tokens import seat_of_ticket, seat_of_token, token_digest
from fastapi import BackgroundTasks, Depends, Header, Query, Request
from starlette.concurrency import run_in_threadpool

Authorization = Annotated[str | None, Header()]
"""The ``Authorization`` header (a seat's ``Bearer`` token), if sent."""
NumberQuery = Annotated[str | None, Query(max_length=40)]
"""A query parameter holding a number: taken as text, parsed by :func:`client_number`."""
LastEventId = Annotated[str | None, Header()]
"""The ``Last-Event-ID`` header a reconnecting ``EventSource`` sends."""


# -- the services -----------------------------------------------------------------------


async def _games(request: Request) -> GameService:
    return request.app.state.service


async def _maps(request: Request) -> MapService:
    return request.app.state.maps


async def _hub(request: Request) -> Hub:
    return request.app.state.hub


async def _store(request: Request) -> ServerStore:
    return request.app.state.store


Games = Annotated[GameService, Depends(_games)]
Maps = Annotated[MapService, Depends(_maps)]
Streams = Annotated[Hub, Depends(_hub)]
"""The hub: news of games and maps for this process's streams."""
Store = Annotated[ServerStore, Depends(_store)]
"""Each service is one dependency of the route that calls it; the other dependencies
take the services from ``request.app.state`` themselves (each dependency costs
FastAPI a solve per request, even when its value is cached)."""


class BotTurns:
    """The bots' turns of a game, taken after the answer is sent: then this process's
    streams wake, and a game that is over is settled on its map (recorded, the bots'
    marks)."""

    def __init__(self, games: GameService, maps: MapService, hub: Hub, background: BackgroundTasks) -> None:
        self.games, self.maps, self.hub, self.background = games, maps, hub, background

    def after_answer(self, game_id: UUID) -> None:
        """Take the bots' turns of ``game_id`` once the answer is sent."""
        self.background.add_task(self.take, game_id)

    def take(self, game_id: UUID) -> None:
        """Let the bots move, wake the streams, settle a finished game on its map."""
        version = self.games.run_bots(game_id, self.maps.bot_for_turn)
        if version is not None:
            self.hub.poke(game_id, version)
        self.maps.settle(game_id)


async def _bot_turns(request: Request, background: BackgroundTasks) -> BotTurns:
    state = request.app.state
    return BotTurns(state.service, state.maps, state.hub, background)


Bots = Annotated[BotTurns, Depends(_bot_turns)]


# -- ids and numbers --------------------------------------------------------------------


def parse_game_id(text: str) -> UUID:
    """A game id in canonical form (:func:`~cascadia.server.numbers.parse_id`); 404 otherwise."""
    game_id = parse_id(text)
    if game_id is None:
        raise not_found(text)
    return game_id


async def _game_in_path(game_id: str) -> UUID:
    return parse_game_id(game_id)


async def _map_in_path(map_id: str) -> UUID:
    return parse_map_id(map_id)


def _known_map(request: Request, map_id: Annotated[UUID, Depends(_map_in_path)]) -> UUID:
    request.app.state.maps.progress(map_id)  # 404 for an unknown map
    return map_id


async def _asked_seat(seat: str) -> int:
    return client_number(seat, "seat")


GameId = Annotated[UUID, Depends(_game_in_path)]
"""The game the path names (``{game_id}``): 404 unless an id in canonical form (whether
the game exists, the service tells when it loads the game)."""
MapId = Annotated[UUID, Depends(_map_in_path)]
"""The map the path names (``{map_id}``): 404 unless an id in canonical form."""
KnownMap = Annotated[UUID, Depends(_known_map)]
"""The map the path names, read once: 404 unless it exists."""
AskedSeat = Annotated[int, Depends(_asked_seat)]
"""The seat the path names (``{seat}``): 400 unless a number."""


def resume_at(after: str | None, last_event_id: str | None) -> int:
    """The version a stream (or ``/events``) starts after: ``Last-Event-ID`` (as a
    reconnecting browser sends it), else ``?after=N``, else 0 (from the start); each a
    strict number (:func:`~cascadia.server.numbers.client_number`)."""
    if last_event_id is not None:
        return client_number(last_event_id, "Last-Event-ID")
    return 0 if after is None else client_number(after, "after")


async def _events_after(after: NumberQuery = None) -> int:
    return resume_at(after, None)


async def _stream_start(after: NumberQuery = None, last_event_id: LastEventId = None) -> int:
    return resume_at(after, last_event_id)


EventsAfter = Annotated[int, Depends(_events_after)]
"""The version ``/events`` answers after (``?after=N``, else 0)."""
StreamStart = Annotated[int, Depends(_stream_start)]
"""The version a stream starts after (:func:`resume_at`)."""


# -- the viewer -------------------------------------------------------------------------


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header (``None`` without the header)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401, "invalid-token", "Invalid token", "send the seat's token as 'Authorization: Bearer <token>'"
        )
    return token.strip()


def link_replaced() -> Problem:
    """The problem of a seat's token after the creator re-issued the seat's link."""
    return Problem(
        401,
        "link-replaced",
        "Link replaced",
        "this seat's link was replaced by the game's creator: ask them for the new one",
    )


def seat_of(games: GameService, game_id: UUID, authorization: str | None) -> int | None:
    """The seat of the request's token in this game (``None``: a spectator)."""
    token = bearer_token(authorization)
    if token is None:
        return None
    current, replaced = games.seat_hashes(game_id)
    seat = seat_of_token(token, current)
    if seat is None:
        if token_digest(token) in replaced:
            raise link_replaced()
        raise Problem(401, "invalid-token", "Invalid token", "this token is not a seat of this game")
    return seat


def seat_required(seat: int | None) -> int:
    """The seat of the request's token (:func:`seat_of`): 401 without one."""
    if seat is None:
        raise Problem(401, "token-required", "Token required", "this needs a seat's bearer token")
    return seat


def check_own_seat(seat: int, asked: int | None) -> int:
    """``seat``, unless the request names another seat (``asked``): 403."""
    if asked is not None and asked != seat:
        raise Problem(403, "not-your-seat", "Not your seat", "this token is another seat's")
    return seat


async def _viewer(request: Request, game_id: GameId, authorization: Authorization = None) -> int | None:
    if authorization is None:  # a spectator: nothing to read from the store
        return None
    return await run_in_threadpool(seat_of, request.app.state.service, game_id, authorization)


Viewer = Annotated[int | None, Depends(_viewer)]
"""The seat of the request's bearer token, if it sent one (``None``: a spectator)."""
TOKEN_CHECKED = [Depends(_viewer)]
"""The dependencies of a route any viewer may read: a token, if sent, must be a seat's."""


async def _player(seat: Viewer) -> int:
    return seat_required(seat)


Player = Annotated[int, Depends(_player)]
"""The seat of the request's bearer token: 401 without one."""


async def _seat_in_path(game_id: GameId, asked: AskedSeat, seat: Player) -> int:
    return check_own_seat(seat, asked)


OwnSeat = Annotated[int, Depends(_seat_in_path)]
"""The seat the path names (``{seat}``), which must be the bearer token's (403)."""


def _stream_viewer(
    request: Request,
    game_id: GameId,
    start: StreamStart,
    seat: Viewer,
    ticket: Annotated[str | None, Query(max_length=200)] = None,
) -> int | None:
    """The viewer of a stream: a ``?ticket=`` (which ``EventSource`` sends instead of a
    header) stands for its seat once, and must agree with a token sent beside it. It
    depends on ``start``, so that a request that is bad anyway spends no ticket."""
    if ticket is None:
        return seat
    current, _ = request.app.state.service.seat_hashes(game_id)
    ticket_seat = seat_of_ticket(ticket, game_id, current)
    if ticket_seat is None or (seat is not None and seat != ticket_seat):
        raise Problem(401, "invalid-token", "Invalid ticket", "the stream ticket is not valid (or expired)")
    if not request.app.state.store.use_ticket(ticket, game_id, ticket_seat):
        raise Problem(
            401, "invalid-token", "Invalid ticket", "the stream ticket was used already (get another)"
        )
    return ticket_seat


StreamViewer = Annotated[int | None, Depends(_stream_viewer)]
"""The viewer of a game's stream: its ticket's seat, else its token's, else a spectator."""
