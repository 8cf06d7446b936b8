"""The server's access to the event store: the one module of the server that imports it.

A server game is two aggregates in the same store, written in one transaction at
creation: the game's own events (exactly what the command line stores and exports), and
a :class:`ServerGameOpened` record under an id derived from the game's, holding what the
server needs and must never serve before the end: the seats' kinds, the SHA-256 of each
human seat's token (and of the creator's token), the seed commitment and its salt, the
achievement map the game is played for (if any). A seat's link re-issued by the game's
creator is a :class:`SeatLinkReplaced` event of the same record (the new token's
SHA-256 only), and a human seat handed to a bot (by the creator, or when its turn time
ran out) a :class:`SeatHandedToBot` event, so every process sees them and they survive a
restart (the game's own events do not change: the bot's moves are ordinary turns). Keeping the record
out of the game's stream keeps the game's log, audit and analytics unchanged; keeping it
in the store means every server process on the same database sees it, and the store's
optimistic concurrency (one event per position) decides races between processes.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import NAMESPACE_URL, UUID, uuid5

from cascadia.application.game_cache import CACHED_GAMES, GameCache
from cascadia.application.store import GameConflictError, GameNotFoundError, GameStore
from cascadia.domain.events import GameEnded, GameEvent
from cascadia.domain.options import GameOptions
from cascadia.server.group_commit import GroupCommit
from cascadia.server.metrics import CONFLICTS
from eventsourcing.utils import get_topic

if TYPE_CHECKING:  # the type only: the games are loaded through the application's cache
    from cascadia.domain.game import Game

__all__ = [
    "LINK_REPLACED",
    "SEAT_HANDED",
    "GameConflictError",
    "GameNotFoundError",
    "RecordState",
    "SeatHandedToBot",
    "SeatLinkReplaced",
    "ServerGameOpened",
    "ServerStore",
    "StreamTicketUsed",
]

NOTIFICATION_BATCH = 1000
"""Notifications read in one query by :meth:`ServerStore.games_in_play` and
:meth:`ServerStore.newest_games`."""
LISTED_GAMES = 200
"""The most games a list of the newest asks for (the ids a process keeps for it)."""
RECORD_NAMESPACE = uuid5(NAMESPACE_URL, "https://cascadia.invalid/server-games")
TICKET_NAMESPACE = uuid5(NAMESPACE_URL, "https://cascadia.invalid/stream-tickets")
LINK_REPLACED = "link-replaced"
"""Why a revoked seat token no longer acts: the creator re-issued the seat's link."""
SEAT_HANDED = "seat-handed-to-bot"
"""Why a revoked seat token no longer acts: a bot plays the seat now."""


@functools.lru_cache(maxsize=CACHED_GAMES)
def record_id(game_id: UUID) -> UUID:
    """The id of a server game's record (not a game id: no game is stored under it)."""
    return uuid5(RECORD_NAMESPACE, str(game_id))


@dataclass(frozen=True)
class ServerGameOpened:
    """What the server knows of one of its games beyond the game's events."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    kinds: list[str]
    """Per seat: ``human`` or the bot's name."""
    token_hashes: list[str | None]
    """Per seat: the hex SHA-256 of a human seat's token (``None`` for a bot)."""
    commitment: str
    salt: str
    """Hex; served only once the game has ended."""
    map_id: UUID | None = None
    """The achievement map the game is played for (RULES.md 8.1), if any."""
    creator_hash: str | None = None
    """The hex SHA-256 of the creator's token (``None``: a game created before creators
    had one; nobody can re-issue its links)."""
    turn_seconds: int | None = None
    """The turn time limit: a human seat to move that has not moved for this long since
    the game last moved is handed to a bot (``None``: no limit)."""


@dataclass(frozen=True)
class SeatLinkReplaced:
    """The game's creator re-issued a seat's link: from now on only the token whose
    SHA-256 this is acts for the seat (the seat's earlier tokens are refused)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: int
    token_hash: str


@dataclass(frozen=True)
class SeatHandedToBot:
    """A human seat is played by ``bot`` from now on (``reason``: ``creator``, the game's
    creator handed it over, or ``time-limit``, its turn time ran out); the seat's token
    no longer acts for it."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: int
    bot: str
    reason: str


@dataclass(frozen=True)
class RecordState:
    """A game's record as its events leave it: the opened record with each seat's current
    kind and token digest (its ``originator_version``: the record's last event), every
    digest revoked since (with why: :data:`LINK_REPLACED` or :data:`SEAT_HANDED`), and
    the seats handed to a bot, in order."""

    record: ServerGameOpened
    revoked: dict[str, str] = dataclasses.field(default_factory=dict)
    handovers: tuple[SeatHandedToBot, ...] = ()

    def after(self, event: SeatLinkReplaced | SeatHandedToBot) -> RecordState:
        hashes, kinds = list(self.record.token_hashes), list(self.record.kinds)
        old = hashes[event.seat]
        handovers = self.handovers
        if isinstance(event, SeatHandedToBot):
            hashes[event.seat], kinds[event.seat] = None, event.bot
            handovers = (*handovers, event)
            why = SEAT_HANDED
        else:
            hashes[event.seat] = event.token_hash
            why = LINK_REPLACED
        record = dataclasses.replace(
            self.record, originator_version=event.originator_version, token_hashes=hashes, kinds=kinds
        )
        revoked = {**self.revoked, old: why} if old else self.revoked
        return RecordState(record, revoked, handovers)


@dataclass(frozen=True)
class StreamTicketUsed:
    """A stream ticket opened its stream: the first and only event of an aggregate whose
    id is derived from the ticket, so that the store's optimistic concurrency lets each
    ticket open one stream, once, on any server process (the ticket itself is not kept)."""

    originator_id: UUID
    originator_version: int
    game_id: UUID
    seat: int


class ServerStore:
    """Server games in an event store, with a per-process cache of their states."""

    def __init__(self, home: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.store = GameStore(home, env)
        self._games = GameCache(self.store.game, self.events)
        self._records: dict[UUID, RecordState] = {}
        self._lock = threading.Lock()
        self._writer = GroupCommit(self.store.save_events, GameConflictError)
        self._opened: deque[UUID] = deque(maxlen=LISTED_GAMES)
        """The last :data:`LISTED_GAMES` server games seen opened, oldest first, up to
        :attr:`_log_position`."""
        self._opened_count = 0
        self._in_play: set[UUID] = set()
        """The server games seen opened and not ended, up to :attr:`_log_position`."""
        self._log_position = 0
        self._log_lock = threading.Lock()

    def close(self) -> None:
        self.store.close()

    @property
    def location(self) -> str:
        return self.store.location

    # -- writing ------------------------------------------------------------------------

    def save_new_game(self, events: Sequence[object]) -> bool:
        """Store a new game's events and its record in one transaction; ``False`` (nothing
        written) if the game is stored already."""
        try:
            self._writer.append(events)  # type: ignore[arg-type]
        except GameConflictError:
            return False
        return True

    def save_events(self, events: Sequence[GameEvent]) -> None:
        """Store one game's new events (:class:`GameConflictError` if another writer was
        first: nothing is written). The next :meth:`game` reads them after the cached
        state, as it reads any other process's."""
        if not events:
            return
        try:
            self._writer.append(events)
        except GameConflictError:
            CONFLICTS.inc()
            raise

    def replace_link(self, game_id: UUID, seat: int, token_hash: str) -> None:
        """Store a seat's new token digest after the record as last read
        (:class:`GameConflictError` if another re-issue was stored first)."""
        record = self.record_state(game_id).record
        version = record.originator_version + 1
        replaced = SeatLinkReplaced(record.originator_id, version, game_id, seat, token_hash)
        self._writer.append([replaced])  # type: ignore[list-item]

    def hand_to_bot(self, game_id: UUID, seat: int, bot: str, reason: str, after: RecordState) -> None:
        """Store that ``bot`` plays ``seat`` from now on, right after the record ``after``
        (:class:`GameConflictError` if anything was stored after it first: another
        handover or re-issue, on any process)."""
        record = after.record
        handed = SeatHandedToBot(
            record.originator_id, record.originator_version + 1, game_id, seat, bot, reason
        )
        self._writer.append([handed])  # type: ignore[list-item]

    def use_ticket(self, ticket: str, game_id: UUID, seat: int) -> bool:
        """Record that ``ticket`` opens a stream now; ``False`` if it was used before."""
        used = StreamTicketUsed(uuid5(TICKET_NAMESPACE, ticket), 1, game_id, seat)
        try:
            self._writer.append([used])  # type: ignore[list-item]
        except GameConflictError:
            return False
        return True

    # -- reading ------------------------------------------------------------------------

    def record(self, game_id: UUID) -> ServerGameOpened:
        """The server record of a game as last read (:class:`GameNotFoundError` for any
        other id): all but its ``token_hashes`` and ``kinds`` never change; to check a
        token, ask :meth:`seat_hashes`, for the seats' kinds :meth:`record_state`, which
        read what is new."""
        with self._lock:
            cached = self._records.get(game_id)
        return (cached or self.record_state(game_id)).record

    def seat_hashes(self, game_id: UUID) -> tuple[list[str | None], dict[str, str]]:
        """Each seat's current token digest (``None`` for a bot) and every digest revoked
        since (a link re-issued, a seat handed to a bot), as stored now."""
        state = self.record_state(game_id)
        return state.record.token_hashes, state.revoked

    def record_state(self, game_id: UUID) -> RecordState:
        """The record, brought up to date with the events stored after the cached one
        (one read each time: a link replaced on another process counts at once)."""
        rid = record_id(game_id)
        with self._lock:
            cached = self._records.get(game_id)
        if cached is None:
            events = list(self.store.events.get(rid))
            if not events or not isinstance(events[0], ServerGameOpened):
                raise GameNotFoundError(f"no game {game_id}")
            state = RecordState(events[0])
            later = events[1:]
        else:
            state = cached
            later = list(self.store.events.get(rid, gt=state.record.originator_version))
        for event in later:
            state = state.after(event)  # type: ignore[arg-type]
        with self._lock:  # another thread may have stored a later state meanwhile
            kept = self._records.get(game_id)
            if kept is None or kept.record.originator_version < state.record.originator_version:
                self._records[game_id] = state
        return state

    def game(self, game_id: UUID) -> Game:
        """The game as stored now: a private copy the caller may play on (through the
        process's :class:`~cascadia.application.game_cache.GameCache`)."""
        return self._games.game(game_id)

    def current(self, game_id: UUID) -> Game:
        """The game as stored now, to read only: the cache's own state, not a copy
        (:meth:`GameCache.latest <cascadia.application.game_cache.GameCache.latest>`)."""
        return self._games.latest(game_id)

    def game_after(self, game_id: UUID, after: int, events: Sequence[GameEvent]) -> Game:
        """The game as stored now, given ``events``: what :meth:`events` just read after
        version ``after`` (through the cache: :meth:`GameCache.game_after
        <cascadia.application.game_cache.GameCache.game_after>`; no second read of them)."""
        return self._games.game_after(game_id, after, events)

    def stored(self, game: Game, events: Sequence[GameEvent]) -> None:
        """This process has just stored ``events`` (:meth:`save_events`), leaving the game
        as ``game``: the cache keeps it (and the events) without reading them back."""
        self._games.stored(game, events)

    def recent(self, game_id: UUID, after: int) -> tuple[Game, list[GameEvent]] | None:
        """The cached game, to read only, and its events after version ``after`` if the
        cache holds them all (``None`` otherwise); no read of the store, so the game may
        be behind it (:meth:`GameCache.recent
        <cascadia.application.game_cache.GameCache.recent>`)."""
        return self._games.recent(game_id, after)

    def options(self, game_id: UUID) -> GameOptions:
        """The game's options (they never change: read from the cached game if any)."""
        cached = self._games.cached(game_id)
        return (cached or self.game(game_id)).state.options

    def events(self, game_id: UUID, after: int = 0) -> list[GameEvent]:
        """The game's events after version ``after``, in order."""
        return list(self.store.events.get(game_id, gt=after))  # type: ignore[arg-type]

    def ping(self) -> None:
        """A trivial read of the store (the last notification's id); raises if it cannot
        be read."""
        self.store.recorder.max_notification_id()

    def games_in_play(self) -> int:
        """How many server games are stored and have not ended (by any process)."""
        with self._log_lock:
            self._read_new_games()
            return len(self._in_play)

    def newest_games(self, limit: int) -> tuple[list[UUID], int]:
        """The ids of the ``limit`` (at most :data:`LISTED_GAMES`) server games stored
        last (by any process), newest first, and how many server games are stored."""
        with self._log_lock:
            self._read_new_games()
            return list(itertools.islice(reversed(self._opened), limit)), self._opened_count

    def _read_new_games(self) -> None:
        """Read the notification log from where the last call stopped up to its end now
        (the first call reads it all), keeping the ids of the games opened, in order, and
        of those not ended. The caller holds :attr:`_log_lock`."""
        topics = [get_topic(ServerGameOpened), get_topic(GameEnded)]
        recorder = self.store.recorder
        end = recorder.max_notification_id() or 0
        while self._log_position < end:
            page = recorder.select_notifications(
                self._log_position + 1, NOTIFICATION_BATCH, stop=end, topics=topics
            )
            for notification in page:
                if notification.topic == topics[1]:  # GameEnded: its originator is the game
                    self._in_play.discard(notification.originator_id)  # type: ignore[arg-type]
                else:
                    record: Any = self.store.mapper.to_domain_event(notification)
                    self._opened.append(record.game_id)
                    self._opened_count += 1
                    self._in_play.add(record.game_id)
            self._log_position = page[-1].id if len(page) == NOTIFICATION_BATCH else end
