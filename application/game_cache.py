"""The latest states of recently used games, kept by a long-running process (the
server) so that loading a game reads only the events stored after its cached state.

A game loaded through :class:`GameCache` is a private copy the caller may play on; the
cached state is never handed out. Events stored by any writer (this process or another)
are read at the next load and projected onto a copy, which is then kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from uuid import UUID

from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game

CACHED_GAMES = 2000
"""How many games' states a process keeps between requests (a few tens of kB each)."""


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
        self._size = size
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        """The latest state of recently used games, least recently used first."""
        self._lock = threading.Lock()

    def game(self, game_id: UUID) -> Game:
        """The game as stored now: a private copy (``GameNotFoundError`` from ``load``)."""
        with self._lock:
            cached = self._games.get(game_id)
        if cached is None:
            game = self._load(game_id)
        else:
            game = Game(cached.state.copy())
            later = self._events_after(game_id, game.version)
            if not later:
                self._keep(cached)
                return game
            Game.project(game, later)
        self._keep(Game(game.state.copy()))
        return game

    def cached(self, game_id: UUID) -> Game | None:
        """The game's cached state, not to be changed (``None``: not cached): for what
        never changes in a game, such as its options."""
        with self._lock:
            return self._games.get(game_id)

    def _keep(self, game: Game) -> None:
        with self._lock:
            kept = self._games.get(game.id)
            if kept is None or kept.version <= game.version:  # another thread may keep a later one
                self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self._size:
                self._games.popitem(last=False)
