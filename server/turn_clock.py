"""The turn time limit's clock: when each game with a limit last moved, as this process
saw it.

A process notes a game's version whenever it reads or plays the game (:meth:`TurnClock.saw`);
the clock of a game starts again each time its version changes. It lives in memory: a
process started anew starts each game's clock again the first time it reads the game.
Several processes may watch one game; the store lets one of them hand the seat over.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from uuid import UUID

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 86_400
"""The turn time limits a game may be created with (seconds)."""
HANDOVER_BOT = "greedy"
"""The bot a seat whose turn time ran out is handed to (and the creator's default)."""


@dataclass(frozen=True)
class Watched:
    """One game on the clock: its version when the clock last started, when, and its limit."""

    version: int
    since: float
    limit: int


class TurnClock:
    """The games with a turn time limit this process knows of (thread-safe)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self._games: dict[UUID, Watched] = {}
        self._lock = threading.Lock()

    def saw(self, game_id: UUID, version: int, limit: int | None) -> float | None:
        """The game is at ``version`` now: start its clock if the version is new to it.
        Returns the seconds left of the turn (``None``: no limit)."""
        if limit is None:
            return None
        now = self.now()
        with self._lock:
            watched = self._games.get(game_id)
            if watched is None or watched.version != version:
                watched = self._games[game_id] = Watched(version, now, limit)
        return max(0.0, watched.since + watched.limit - now)

    def due(self) -> list[tuple[UUID, int]]:
        """The games (with the version their clock started at) whose time has run out."""
        now = self.now()
        with self._lock:
            return [(gid, w.version) for gid, w in self._games.items() if now - w.since >= w.limit]

    def forget(self, game_id: UUID) -> None:
        """Stop watching a game (it is over)."""
        with self._lock:
            self._games.pop(game_id, None)
