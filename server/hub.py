"""Wakes the live streams of a game when its events are stored, by any process.

One poller per server process reads the store's notification log (every event of every
game, in order) every ``interval`` seconds, only while some stream is open, and wakes
the streams of each game that got new events. A stream that is woken takes its own
game's events after the last one it sent up to the version the hub knows is stored
(:meth:`Hub.latest`), from the process's game cache when it holds them, else from the
store, so a missed or spurious wake-up costs nothing but a look (and a stream skips it
when it has already sent the latest version the hub knows of); streams also read the
store by themselves every :data:`FALLBACK_SECONDS` in case a notification was missed.
Events stored by this process wake its streams at once (:meth:`Hub.poke`). A change of a
game's server record that stores no game event (a seat handed to a bot) nudges its
streams (:meth:`Hub.nudge`, or the poller seeing the record's notification): each then
reads the record and the events again. When the process is shutting down,
:meth:`Hub.drain` wakes every stream for the last time: each then tells its client to
reconnect and ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from cascadia.server.store import ServerStore, record_id
from starlette.concurrency import run_in_threadpool

T = TypeVar("T")

FALLBACK_SECONDS = 5.0
BATCH = 500
log = logging.getLogger("cascadia.server")


class Hub:
    def __init__(self, store: ServerStore, interval: float) -> None:
        self.store = store
        self.interval = interval
        self._waiters: dict[UUID, set[asyncio.Event]] = {}
        self._latest: dict[UUID, int] = {}
        """The highest version known stored, per game with open streams."""
        self._nudges: dict[UUID, int] = {}
        """How many times the record of a game with open streams changed, as seen here."""
        self._games_of_records: dict[UUID, UUID] = {}
        """The game of each server record id, for the games with open streams."""
        self._position: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.draining = False
        """The process is shutting down: streams end, readiness fails."""

    def subscribe(self, game_id: UUID) -> asyncio.Event:
        event = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(event)
        self._games_of_records[record_id(game_id)] = game_id
        return event

    def unsubscribe(self, game_id: UUID, event: asyncio.Event) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[game_id]
                self._latest.pop(game_id, None)
                self._nudges.pop(game_id, None)
                self._games_of_records.pop(record_id(game_id), None)

    def latest(self, game_id: UUID) -> int:
        """The highest version of the game known to be stored (0: none seen yet)."""
        return self._latest.get(game_id, 0)

    def nudges(self, game_id: UUID) -> int:
        """How many times the game's record changed while it had open streams."""
        return self._nudges.get(game_id, 0)

    def nudge(self, game_id: UUID) -> None:
        """The game's server record changed (from any thread): its streams look again."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._nudged, game_id)

    def _nudged(self, game_id: UUID) -> None:
        waiters = self._waiters.get(game_id)
        if not waiters:
            return
        self._nudges[game_id] = self._nudges.get(game_id, 0) + 1
        for event in waiters:
            event.set()

    def _wake(self, game_id: UUID, version: int) -> None:
        waiters = self._waiters.get(game_id)
        if not waiters or version <= self._latest.get(game_id, 0):
            return
        self._latest[game_id] = version
        for event in waiters:
            event.set()

    def drain(self) -> None:
        """Shutting down: mark it and wake every stream (in the event loop's thread)."""
        self.draining = True
        for waiters in self._waiters.values():
            for event in waiters:
                event.set()

    def poke(self, game_id: UUID, version: int) -> None:
        """The game is stored up to ``version``: wake its streams (from any thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake, game_id, version)

    async def run(self) -> None:
        """Poll the notification log until cancelled."""
        self._loop = asyncio.get_running_loop()
        recorder = self.store.store.recorder
        self._position = await _finishing(recorder.max_notification_id) or 0
        while True:
            await asyncio.sleep(self.interval)
            if not self._waiters:
                continue
            try:
                notifications = await _finishing(
                    recorder.select_notifications, self._position, BATCH, inclusive_of_start=False
                )
            except Exception:  # the store may be unreachable for a while; streams fall back
                log.warning("stream poller: the event store did not answer")
                continue
            for notification in notifications:
                game_id = self._games_of_records.get(notification.originator_id)  # type: ignore[arg-type]
                if game_id is not None:
                    self._nudged(game_id)
                else:
                    self._wake(notification.originator_id, notification.originator_version)  # type: ignore[arg-type]
            if notifications:
                self._position = notifications[-1].id


async def repeat(function: Callable[[], object], seconds: float) -> None:
    """Call ``function`` in a worker thread every ``seconds`` until cancelled (an error is
    logged, and the next call comes all the same)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await _finishing(function)
        except Exception:
            log.exception("a periodic task failed")


async def _finishing(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function`` in a worker thread; when cancelled, the call is still waited for, so
    that the store is never closed under a query (SQLite crashes the process then)."""
    call = asyncio.ensure_future(run_in_threadpool(function, *args, **kwargs))
    try:
        return await asyncio.shield(call)
    except asyncio.CancelledError:
        await asyncio.wait([call])
        raise


async def wait_for(event: asyncio.Event, timeout: float) -> None:
    """Wait until ``event`` is set or ``timeout`` passes, then clear it."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout)
    event.clear()
