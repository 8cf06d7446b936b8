"""Server-sent event streams: a game's events as a viewer sees them, a map's progress.

A stream sends what is stored after the version its client names, then each change as
it is stored (woken by the :class:`~cascadia.server.hub.Hub`), keep-alive lines while
nothing happens, and :data:`CLOSING` when the process shuts down.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from cascadia.server import metrics
from cascadia.server.dependencies import revoked_token
from cascadia.server.games import GameService
from cascadia.server.hub import FALLBACK_SECONDS, Hub, wait_for
from cascadia.server.maps import MapService
from cascadia.server.store import LINK_REPLACED, SeatHandedToBot
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

KEEP_ALIVE_SECONDS = 15.0
RETRY_MS = 1000
"""How long a client whose stream the server closed on shutdown waits to reconnect."""
SSE_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def sse_response(stream: AsyncIterator[str]) -> StreamingResponse:
    """The answer that sends ``stream`` as ``text/event-stream``."""
    return StreamingResponse(stream, media_type="text/event-stream", headers=SSE_HEADERS)


_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""A message's data encoding, made once (``json.dumps`` with these arguments makes an
encoder at every call)."""


def _sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {_ENCODER.encode(data)}\n\n"


CLOSING = f"retry: {RETRY_MS}\n" + _sse("server-closing", {"retry_ms": RETRY_MS})
"""The last message of a stream the server ends because it is shutting down: reconnect
(with ``Last-Event-ID``) after ``retry_ms``, to another process or this one restarted."""


class _Following:
    """What one stream waits on: news of its game or map (by id) from the hub, a look
    every :data:`FALLBACK_SECONDS` anyway, a keep-alive line after
    :data:`KEEP_ALIVE_SECONDS` of silence, and the end of the process (the hub drains).
    Counted in :data:`~cascadia.server.metrics.OPEN_STREAMS` while open."""

    def __init__(self, hub: Hub, key: UUID) -> None:
        self.hub, self.key = hub, key
        self.wake = hub.subscribe(key)
        self.nudged = hub.nudges(key)
        metrics.OPEN_STREAMS.inc()
        self.quiet = 0.0
        self.looked = time.monotonic()

    def look_due(self) -> bool:
        """Whether the stream should look at the whole record now, not only at the news the
        hub brought: the record changed since its last look (a nudge), or it is time to
        look anyway (:data:`FALLBACK_SECONDS`)."""
        return self.hub.nudges(self.key) > self.nudged or time.monotonic() - self.looked >= FALLBACK_SECONDS

    def looked_now(self, sent: bool, nudged: int) -> None:
        """The stream has just read what is stored (and ``sent`` something new), having
        seen the record changes up to ``nudged`` (what :meth:`Hub.nudges` said as the
        look began: a nudge during the look brings another)."""
        self.looked = time.monotonic()
        self.nudged = nudged
        if sent:
            self.quiet = 0.0

    def sent_now(self) -> None:
        """The stream has just sent news without a whole look (no keep-alive is due)."""
        self.quiet = 0.0

    async def until_news(self, last: int) -> AsyncIterator[str]:
        """Keep-alive lines while nothing is stored after version ``last`` (and it is not
        time to look anyway); returns when the stream should read again, or end (the hub
        drains)."""
        while not self.hub.draining:
            if self.quiet >= KEEP_ALIVE_SECONDS:
                yield ": keep-alive\n\n"
                self.quiet = 0.0
            started = time.monotonic()
            await wait_for(self.wake, FALLBACK_SECONDS)
            self.quiet += time.monotonic() - started
            if self.hub.latest(self.key) > last or self.look_due():
                return

    def close(self) -> None:
        self.hub.unsubscribe(self.key, self.wake)
        metrics.OPEN_STREAMS.dec()


async def event_stream(
    service: GameService, hub: Hub, game_id: UUID, seat: int | None, after: int
) -> AsyncIterator[str]:
    """The game's events after version ``after`` as the viewer sees them, then each new
    one as it is stored; ``game-over`` after the last (:data:`CLOSING` if the process
    stops first). ``seat-handed`` (``{seat, bot, reason}``) for each seat handed to a bot
    while the stream is open; a seat's own stream ends with ``link-replaced`` or
    ``seat-handed-to-bot`` (the problem) when its token is revoked meanwhile."""
    following = _Following(hub, game_id)
    last = after
    opened = await run_in_threadpool(service.record_now, game_id)
    digest = None if seat is None else opened.record.token_hashes[seat]
    handed = len(opened.handovers)
    whole = True  # the first look reads everything
    try:
        while True:
            look = None if whole else _news(service, hub, game_id, seat, last)
            if look is None:
                nudged = hub.nudges(game_id)
                look = await run_in_threadpool(_look, service, game_id, seat, digest, last, handed)
            # what one look finds goes out in one piece (one write to the socket)
            news = [
                _sse("seat-handed", {"seat": h.seat, "bot": h.bot, "reason": h.reason})
                for h in look.handovers
            ]
            handed += len(look.handovers)
            if look.revoked is not None:
                yield "".join([*news, _sse(look.revoked, revoked_token(look.revoked).body())])
                return
            events, finished = look.events, look.finished
            if look.whole:
                following.looked_now(bool(events) or bool(news), nudged)
            elif events:
                following.sent_now()
            news += [_sse("game-event", event, event["version"]) for event in events]
            if events:
                last = events[-1]["version"]
            if finished:
                yield "".join([*news, _sse("game-over", {"version": last})])
                return
            if news:
                yield "".join(news)
            async for line in following.until_news(last):
                yield line
            if hub.draining:
                yield CLOSING
                return
            whole = following.look_due()
    finally:
        following.close()


def _news(service: GameService, hub: Hub, game_id: UUID, seat: int | None, last: int) -> _Look | None:
    """A look at only the game's events after ``last`` up to what the hub knows is stored,
    from memory (:meth:`~cascadia.server.games.GameService.recent_events`: no thread,
    no read of the store), for a stream woken by news of its game and not of its record;
    ``None`` if the process does not keep them (then the stream looks at everything)."""
    recent = service.recent_events(game_id, seat, last, hub.latest(game_id))
    return None if recent is None else _Look((), None, *recent, whole=False)


@dataclass(frozen=True)
class _Look:
    """What one look at a game finds for a stream."""

    handovers: tuple[SeatHandedToBot, ...]
    """the seats handed to a bot since the stream's last look"""
    revoked: str | None
    """why the stream's seat token no longer acts (``None``: it does, or a spectator)"""
    events: list[dict[str, Any]]
    finished: bool
    whole: bool = True
    """whether it read the record too (else only the news of the game's events)"""


def _look(
    service: GameService, game_id: UUID, seat: int | None, digest: str | None, last: int, handed: int
) -> _Look:
    """One look at the game for a stream, in one trip to a worker thread: the seats
    handed to a bot after the first ``handed``; whether the seat's token (``digest``) was
    revoked, else the events after ``last`` as the viewer sees them and whether the game
    is over."""
    state = service.record_now(game_id)
    news = state.handovers[handed:]
    if digest is not None and state.record.token_hashes[seat] != digest:  # type: ignore[index]
        return _Look(news, state.revoked.get(digest, LINK_REPLACED), [], False)
    _, events, finished = service.events(game_id, seat, last)
    return _Look(news, None, events, finished)


async def map_stream(maps: MapService, hub: Hub, map_id: UUID, after: int) -> AsyncIterator[str]:
    """The map's progress (as ``GET /api/maps/{id}`` answers it) whenever its version
    passes ``after``: at once if it has, then after each change, by any process (until
    :data:`CLOSING` when the process stops)."""
    following = _Following(hub, map_id)
    last = after
    try:
        while True:
            nudged = hub.nudges(map_id)
            progress = await run_in_threadpool(maps.progress, map_id)
            changed = progress["version"] > last
            following.looked_now(changed, nudged)
            if changed:
                last = progress["version"]
                yield _sse("map", progress, last)
            async for line in following.until_news(last):
                yield line
            if hub.draining:
                yield CLOSING
                return
    finally:
        following.close()
