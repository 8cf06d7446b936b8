"""The latest states of recently used games, kept by a long-running process (the
server) so that loading a game reads only the events stored after its cached state.

A game loaded through :class:`GameCache` is a private copy the caller may play on, or,
for a reader (a view), the cached state itself (:meth:`GameCache.latest`), never to be
changed. Events stored by any writer (this process or another) are read at the next
load and projected onto a copy, which is then kept; a writer of this process may hand
over the game it just stored (:meth:`GameCache.stored`), which is kept without a read.
The last :data:`RECENT_EVENTS` events that led to a cached state are kept beside it, so
that a reader who knows which version it needs (a server's event stream, told by its
hub) can take the events after its last one without reading the store
(:meth:`GameCache.recent`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

from cascadia.application.recent import Recent
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.projections.habitats import CorridorIndex

CACHED_GAMES = 2000
"""How many games' states a process keeps between requests (a few tens of kB each)."""
RECENT_EVENTS = 64
"""How many of a cached game's last events are kept beside it (a turn is 2 to 10)."""


@dataclass(frozen=True)
class _Cached:
    game: Game
    """The state, never changed once kept (a reader takes a copy to play on)."""
    recent: tuple[GameEvent, ...]
    """The last events that led to it, in order, up to its version (maybe none)."""

    def order(self) -> tuple[int, int]:
        """Which of two kept for a game is the later: another thread may keep a later
        state, or the same one with more of its events."""
        return self.game.version, len(self.recent)


def _kept_copy(game: Game) -> Game:
    """A copy of ``game`` to keep (:func:`_indexed`)."""
    return _indexed(Game(game.state.copy()))


def _indexed(game: Game) -> Game:
    """``game``, to keep, its boards' corridor indexes brought up to date on it
    (:meth:`CorridorIndex.of <cascadia.projections.habitats.CorridorIndex.of>`): every
    copy handed out then carries them, so that scoring a board (a view scores every
    board) takes in the tiles placed since rather than indexing the board afresh."""
    for player in game.state.players:
        CorridorIndex.of(player.environment)
    return game


class GameCache:
    """Loads games through ``load`` (the whole stream) the first time, and through
    ``events_after`` (the events after a version) later; keeps at most ``size``."""

    def __init__(
        self,
        load: Callable[[UUID], Game],
        events_after: Callable[[UUID, int], Sequence[GameEvent]],
        size: int = CACHED_GAMES,
    ) -> None:
        self._load = load
        self._events_after = events_after
        self._games: Recent[UUID, _Cached] = Recent(size, order=_Cached.order)
        """The latest state of recently used games."""

    def game(self, game_id: UUID) -> Game:
        """The game as stored now: a private copy (``GameNotFoundError`` from ``load``)."""
        return Game(self.latest(game_id).state.copy())

    def latest(self, game_id: UUID) -> Game:
        """The game as stored now, to read only: the kept state itself, never to be
        changed (no copy; :meth:`game` for one to play on)."""
        cached = self._games.get(game_id)
        if cached is None:
            game = _indexed(self._load(game_id))
            self._keep(_Cached(game, ()))
            return game
        return self._after(cached, self._events_after(game_id, cached.game.version))

    def game_after(self, game_id: UUID, after: int, events: Sequence[GameEvent]) -> Game:
        """The game as stored now, given ``events``: every event stored after version
        ``after``, just read by the caller (the store is read again only if the cached
        state is older than ``after``, or none is cached); a private copy."""
        cached = self._games.get(game_id)
        if cached is None or cached.game.version < after:
            return self.game(game_id)
        later = [e for e in events if e.originator_version > cached.game.version]
        return Game(self._after(cached, later).state.copy())

    def _after(self, cached: _Cached, later: Sequence[GameEvent]) -> Game:
        """The cached game with ``later`` (the events stored after it) projected on a
        copy, kept as the latest and returned (to read only)."""
        if not later:
            self._keep(cached)
            return cached.game
        game = Game(cached.game.state.copy())
        Game.project(game, later)
        self._keep(_Cached(_indexed(game), (*cached.recent, *later)[-RECENT_EVENTS:]))
        return game

    def stored(self, game: Game, events: Sequence[GameEvent]) -> None:
        """This process has just stored ``events``, which leave the game as ``game`` (not
        changed here: a copy is kept)."""
        if not events:
            return
        cached = self._games.get(game.id)
        follows = cached is not None and cached.game.version == events[0].originator_version - 1
        recent = (*cached.recent, *events) if follows else tuple(events)  # type: ignore[union-attr]
        self._keep(_Cached(_kept_copy(game), recent[-RECENT_EVENTS:]))

    def recent(self, game_id: UUID, after: int) -> tuple[Game, list[GameEvent]] | None:
        """The cached game (to read, never to change) and its events after version
        ``after``, if the cache holds them all (``None`` otherwise). The cached state may
        be behind the store: the caller knows which version it needs."""
        cached = self._games.get(game_id)
        if cached is None or cached.game.version < after:
            return None
        events = [e for e in cached.recent if e.originator_version > after]
        if cached.game.version - after != len(events):  # some are no longer kept
            return None
        return cached.game, events

    def cached(self, game_id: UUID) -> Game | None:
        """The game's cached state, not to be changed (``None``: not cached): for what
        never changes in a game, such as its options."""
        cached = self._games.get(game_id)
        return None if cached is None else cached.game

    def _keep(self, cached: _Cached) -> None:
        self._games.put(cached.game.id, cached)
