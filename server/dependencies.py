"""What the routes take from a request besides its body (FastAPI dependencies).

:data:`Services`: the services the application was built on (``app.state``).
:data:`GameId`, :data:`MapId`: the game or map the path names (404 for an id not in
canonical form). :data:`AskedSeat`, :data:`EventsAfter`, :data:`StreamStart`: numbers
the client sends (400). :data:`Caller`: who calls on the game the path names (404 for
an id not in canonical form), with the services, whose ``seat()`` (a spectator:
``None``) or ``player(asked)`` (401 without a seat's token, 403 for another seat's
request) a route asks for; :data:`StreamRequest`: the viewer of a stream (its ticket's
seat, else its token's) and its start. Each is a type to annotate a route's parameter
with, e.g. ``def read(caller: Caller, seat: AskedSeat)``.

FastAPI solves a route's dependencies in the order its parameters declare them, and
before it checks the shape of the route's own query parameters and body: a route lists
them in the order their problems take precedence, and a request with a malformed body
(or an over-long query parameter) and also an id not in canonical form gets the 404.
Those that only parse are ``async`` (solved in the event loop, nothing to wait for);
the ones that read the store run in the thread pool once, the caller's seat in the
route's own thread. FastAPI solves every dependency anew on each request (with six, a
third of the event loop's CPU for a view read from the cache, in cProfile): a route on a
game takes :data:`Caller`, which names the game and brings the services, rather than
:data:`GameId` and :data:`Services` beside it. The view and the command routes, called
for every command played, skip that solving: their route classes
(:mod:`cascadia.server.direct_routes`) call :data:`CALLER_OF_GAME` and
:data:`AUTHORIZATION_HEADER` themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any
from uuid import UUID

from cascadia.server.games import GameService, not_found
from cascadia.server.hub import Hub
from cascadia.server.maps import MapService, parse_map_id
from cascadia.server.numbers import client_number, parse_id
from cascadia.server.problems import Problem
from cascadia.server.store import LINK_REPLACED, SEAT_HANDED, RecordState, ServerStore
from cascadia.server.threads import WorkerThreads
from cascadia.server.tokens import seat_of_ticket, seat_of_token, token_digest
from fastapi import Depends, Header, Query, Request
from fastapi.security import HTTPBearer
from starlette.requests import HTTPConnection


class _AuthorizationHeader(HTTPBearer):
    """The ``Authorization`` header as sent (``None`` without it), documented in the
    OpenAPI description as a bearer token; :func:`bearer_token` checks its form. Read
    from the request directly: a ``Header()`` parameter costs each request a pydantic
    validation (about a third of the cost of routing it)."""

    async def __call__(self, request: HTTPConnection) -> str | None:  # type: ignore[override]
        return request.headers.get("authorization")


BEARER_SCHEME: dict[str, Any] = {
    "scheme_name": "token",
    "description": "a seat's token, or the game's creator's (server/API.md)",
    "auto_error": False,
}
"""How the OpenAPI description shows the bearer token of :data:`Authorization` and
:data:`Caller` (one scheme)."""
AUTHORIZATION_HEADER = _AuthorizationHeader(**BEARER_SCHEME)
"""The dependency of :data:`Authorization` (:class:`~cascadia.server.direct_routes.CommandRoute`
calls it itself)."""
Authorization = Annotated[str | None, Depends(AUTHORIZATION_HEADER)]
"""The ``Authorization`` header (a seat's ``Bearer`` token), if sent."""
NumberQuery = Annotated[str | None, Query(max_length=40)]
"""A query parameter holding a number: taken as text, parsed by :func:`client_number`."""
LastEventId = Annotated[str | None, Header()]
"""The ``Last-Event-ID`` header a reconnecting ``EventSource`` sends."""


# -- the services -----------------------------------------------------------------------


@dataclass(frozen=True)
class ServerServices:
    """What the routes call: the games, the maps, the hub (news of games and maps for
    this process's streams), the store and the worker threads of the routes a game in
    play calls, as :func:`~cascadia.server.app.create_app` put them in ``app.state``."""

    games: GameService
    maps: MapService
    hub: Hub
    store: ServerStore
    threads: WorkerThreads

    def take_bot_turns(self, game_id: UUID) -> None:
        """Let the bots of ``game_id`` move (a route runs this after its answer is sent),
        wake this process's streams, and settle a game that is over on its map
        (recorded, the bots' marks)."""
        version = self.games.run_bots(game_id, self.maps.bot_for_turn)
        if version is not None:
            self.hub.poke(game_id, version)
        self.maps.settle(game_id)

    def hand_over_expired(self) -> None:
        """Hand each seat whose turn time ran out to a bot
        (:meth:`~cascadia.server.games.GameService.expire_turns`), wake the game's
        streams and let the bots play (the app runs this every second)."""
        for game_id in self.games.expire_turns():
            self.hub.nudge(game_id)
            self.take_bot_turns(game_id)


def services_of(request: Request) -> ServerServices:
    """The services of the application answering ``request``: for the route a game in
    play asks for most (a command), which takes the request (FastAPI passes it as it
    is) rather than one more dependency to solve."""
    return request.app.state.services  # type: ignore[no-any-return]


async def _services(request: Request) -> ServerServices:
    return services_of(request)


Services = Annotated[ServerServices, Depends(_services)]
"""The services, one dependency for all (FastAPI solves each dependency of a route on
every request, even one whose value it cached): the other dependencies take what they
need from ``request.app.state`` themselves."""


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


async def _asked_seat(seat: str) -> int:
    return client_number(seat, "seat")


GameId = Annotated[UUID, Depends(_game_in_path)]
"""The game the path names (``{game_id}``): 404 unless an id in canonical form (whether
the game exists, the service tells when it loads the game)."""
MapId = Annotated[UUID, Depends(_map_in_path)]
"""The map the path names (``{map_id}``): 404 unless an id in canonical form."""
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


def revoked_token(why: str) -> Problem:
    """The problem of a seat's revoked token: the creator re-issued the seat's link
    (``link-replaced``), or a bot plays the seat now (``seat-handed-to-bot``)."""
    if why == SEAT_HANDED:
        return Problem(
            401,
            SEAT_HANDED,
            "Seat handed to a bot",
            "a bot plays this seat now (its turn time ran out, or the game's creator handed it over)",
        )
    return Problem(
        401,
        LINK_REPLACED,
        "Link replaced",
        "this seat's link was replaced by the game's creator: ask them for the new one",
    )


@dataclass
class GameCaller:
    """Who calls on a game: the seat of the request's bearer token, or a spectator.

    The seat is looked up when a route asks (the game's record is read then, once a
    request: :meth:`record_now`), in the route's own thread: a dependency that read the
    store would cost each request a second trip to the thread pool, and its problems
    would take precedence over the route's own checks of its query and body."""

    services: ServerServices
    """the services (a route on a game needs no other dependency for them)"""
    game_id: UUID
    authorization: str | None
    _now: RecordState | None = field(default=None, init=False)

    @property
    def games(self) -> GameService:
        """The game service (``services.games``)."""
        return self.services.games

    def record_now(self) -> RecordState:
        """The game's record as stored now, read once for the request (the token is
        checked against it, and a route may pass it on to the service)."""
        if self._now is None:
            self._now = self.games.record_now(self.game_id)
        return self._now

    def seat(self) -> int | None:
        """The token's seat (``None``: no token, a spectator); 401 for a token that is no
        seat's of this game (``link-replaced`` for a seat's replaced token)."""
        token = bearer_token(self.authorization)
        if token is None:
            return None
        now = self.record_now()
        seat = seat_of_token(token, now.record.token_hashes)
        if seat is None:
            why = now.revoked.get(token_digest(token))
            if why is not None:
                raise revoked_token(why)
            raise Problem(401, "invalid-token", "Invalid token", "this token is not a seat of this game")
        return seat

    def player(self, asked: int | None = None) -> int:
        """The token's seat: 401 without a token, 403 when the request names another
        seat (``asked``)."""
        seat = self.seat()
        if seat is None:
            raise Problem(401, "token-required", "Token required", "this needs a seat's bearer token")
        if asked is not None and asked != seat:
            raise Problem(403, "not-your-seat", "Not your seat", "this token is another seat's")
        return seat


class _CallerOfGame(_AuthorizationHeader):
    """The :class:`GameCaller` of a request on the game its path names, the bearer token
    read as :data:`Authorization` reads it. One dependency, and a bearer-token scheme
    for the OpenAPI description as :data:`Authorization` is: FastAPI solves each
    dependency anew on every request, the header's own would be a second one."""

    async def __call__(self, request: Request, game_id: str) -> GameCaller:  # type: ignore[override]
        authorization = await super().__call__(request)
        return GameCaller(services_of(request), parse_game_id(game_id), authorization)


CALLER_OF_GAME = _CallerOfGame(**BEARER_SCHEME)
"""The dependency of :data:`Caller` (:class:`~cascadia.server.direct_routes.CallerRoute`
calls it itself)."""
Caller = Annotated[GameCaller, Depends(CALLER_OF_GAME)]
"""Who calls on the game the path names (:class:`GameCaller`; 404 unless the id is in
canonical form, as :data:`GameId`)."""


@dataclass(frozen=True)
class StreamOpening:
    """What a request to open a game's stream asks for: the viewer and the version the
    stream starts after."""

    seat: int | None
    after: int


def _stream_opening(
    request: Request,
    after: StreamStart,
    caller: Caller,
    ticket: Annotated[str | None, Query(max_length=200)] = None,
) -> StreamOpening:
    """The viewer of a stream: a ``?ticket=`` (which ``EventSource`` sends instead of a
    header) stands for its seat once, and must agree with a token sent beside it. Its
    start is checked first, so that a request that is bad anyway spends no ticket."""
    seat = caller.seat()
    if ticket is None:
        return StreamOpening(seat, after)
    current, _ = caller.games.seat_hashes(caller.game_id)
    ticket_seat = seat_of_ticket(ticket, caller.game_id, current)
    if ticket_seat is None or (seat is not None and seat != ticket_seat):
        raise Problem(401, "invalid-token", "Invalid ticket", "the stream ticket is not valid (or expired)")
    if not request.app.state.store.use_ticket(ticket, caller.game_id, ticket_seat):
        raise Problem(
            401, "invalid-token", "Invalid ticket", "the stream ticket was used already (get another)"
        )
    return StreamOpening(ticket_seat, after)


StreamRequest = Annotated[StreamOpening, Depends(_stream_opening)]
"""A request to open a game's stream: its viewer (its ticket's seat, else its token's,
else a spectator: read in one trip to the thread pool) and its start."""
