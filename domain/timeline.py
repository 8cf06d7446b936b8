"""Points in a game's event stream: where a turn ends, which events are decisions."""

from __future__ import annotations

from collections.abc import Sequence

from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent, TurnEnded


def through_turn(events: Sequence[GameEvent], turn: int) -> Sequence[GameEvent]:
    """The events up to the end of ``turn`` (counted from 1 over all players); turn 0
    is the end of setup, just before the first decision."""
    if turn < 0:
        raise InvalidOptionError(f"turns count from 0 (the end of setup), not {turn}")
    for index, event in enumerate(events):
        if turn == 0 and event.kind == "decision":
            return events[:index]
        if isinstance(event, TurnEnded) and event.turn == turn:
            return events[: index + 1]
    if turn == 0:
        return events
    played = sum(1 for e in events if isinstance(e, TurnEnded))
    raise InvalidOptionError(f"the game has {played} completed turn(s); there is no turn {turn}")
