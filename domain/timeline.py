"""Points in a game's event stream: "after setup" and "after turn N".

Each point lies just before the first decision (:func:`~cascadia.domain.decisions.is_decision`)
after setup or after a turn's ``TurnEnded``, so a turn's automatic events (the refill, a
four-of-a-kind wipe, the end of the game) belong to it. ``show --turn``, ``score --turn``,
``replay`` and the HTML viewer all count turns with :class:`TurnPoints`.
"""

from __future__ import annotations

from collections.abc import Sequence

from cascadia.domain.decisions import is_decision
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent, TurnEnded


class TurnPoints:
    """Follows a game's events one at a time and says where the points are."""

    def __init__(self) -> None:
        self.completed = 0
        """Turns ended so far (counted from 1 over all players)."""
        self.due = True
        """Whether the point after :attr:`completed` turns is still ahead (it is reached
        at the next decision, or at the end of the events)."""
        self._previous: GameEvent | None = None

    def before(self, event: GameEvent) -> int | None:
        """Call with each event before applying it: the turn count of the point that lies
        just before ``event`` (0: after setup), or ``None``."""
        point = None
        if self.due and is_decision(event, self._previous):
            point, self.due = self.completed, False
        if isinstance(event, TurnEnded):
            self.completed, self.due = event.turn, True
        self._previous = event
        return point


def through_turn(events: Sequence[GameEvent], turn: int) -> Sequence[GameEvent]:
    """The events up to the point after ``turn`` (counted from 1 over all players); turn
    0 is the end of setup, just before the first decision."""
    if turn < 0:
        raise InvalidOptionError(f"turns count from 0 (the end of setup), not {turn}")
    points = TurnPoints()
    for index, event in enumerate(events):
        if points.before(event) == turn:
            return events[:index]
    if points.completed == turn and points.due:
        return events
    played = points.completed
    raise InvalidOptionError(f"the game has {played} completed turn(s); there is no turn {turn}")
