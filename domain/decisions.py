"""From a game's events back to its decisions: the one rule of which event starts a
decision (:func:`is_decision`), and the command each decision was (:func:`commands_of`).

A decision's events begin with the event :func:`is_decision` names and run to the next
one; everything else a command emits (draws, refills, a four-of-a-kind wipe, the end of
a turn) follows it. Executing :func:`commands_of` ``(events)`` on a fresh game with the
same seed, seats and options gives the same events again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cascadia.domain import events as ev
from cascadia.domain.commands import (
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)

T = TypeVar("T")

_STARTS = (ev.PairTaken, ev.TilePlaced, ev.WildlifePlaced, ev.WildlifeReturned, ev.SecretCardRevealed)


def is_decision(event: ev.GameEvent, previous: ev.GameEvent | None = None) -> bool:
    """Whether ``event`` (following ``previous``) is the first event of a player's decision.

    A take, a placement, a return, an optional three-of-a-kind wipe (an
    ``OverpopulationWiped`` that is not ``mandatory``, RULES.md 4.1) and a nature-token
    spend (RULES.md 4.2), except that with ``secret_cards`` the first spend of a player
    is announced by ``SecretCardRevealed`` (RULES.md 7.10), which then starts the
    decision and the ``NatureTokenSpent`` after it does not."""
    if isinstance(event, ev.NatureTokenSpent):
        return not isinstance(previous, ev.SecretCardRevealed)
    if isinstance(event, ev.OverpopulationWiped):
        return event.mandatory is False
    return isinstance(event, _STARTS)


def command_at(event: ev.GameEvent, ahead: Callable[[int], ev.GameEvent | None]) -> Command | None:
    """The command of the decision that ``event`` starts (``None``: it starts none).

    ``ahead(i)`` is the event ``i + 1`` places after ``event`` (or ``None``): a wipe's
    slots are in the ``WildlifeReplaced`` after its ``NatureTokenSpent``, which follows a
    ``SecretCardRevealed``; the look-ahead is at most two events."""
    skip = 0
    if isinstance(event, ev.SecretCardRevealed):
        spent = ahead(0)
        if not isinstance(spent, ev.NatureTokenSpent):
            return None
        event, skip = spent, 1
    e: Any = event
    if isinstance(event, ev.PairTaken):
        return Take(e.tile_slot, e.wildlife_slot)
    if isinstance(event, ev.TilePlaced):
        return PlaceTile(e.q, e.r, e.rotation)
    if isinstance(event, ev.WildlifePlaced):
        return PlaceWildlife(e.q, e.r)
    if isinstance(event, ev.WildlifeReturned):
        return ReturnWildlife()
    if isinstance(event, ev.OverpopulationWiped) and e.mandatory is False:
        return WipeThree()
    if isinstance(event, ev.NatureTokenSpent):
        if e.action == "free_choice":
            return NatureFreeChoice()
        replaced = ahead(skip)
        return NatureWipe(tuple(replaced.slots) if isinstance(replaced, ev.WildlifeReplaced) else ())
    return None


class Lookahead(Generic[T]):
    """An iterator that can look a few items ahead without taking them."""

    def __init__(self, items: Iterable[T]) -> None:
        self._items = iter(items)
        self._ahead: deque[T] = deque()

    def next(self) -> T | None:
        """The next item, taken (``None`` at the end)."""
        if self._ahead:
            return self._ahead.popleft()
        return next(self._items, None)

    def peek(self, index: int = 0) -> T | None:
        """The item ``index + 1`` places after the last one taken, not taken."""
        while len(self._ahead) <= index:
            item = next(self._items, None)
            if item is None:
                return None
            self._ahead.append(item)
        return self._ahead[index]


@dataclass(frozen=True)
class Decision:
    """One decision of a game: the sequence number of its first event, the seat that
    made it, and the command it was."""

    seq: int
    player: int
    command: Command

    def to_dict(self) -> dict[str, Any]:
        """``{"seq", "player", "command": {...}, "text": "take 2"}``."""
        command = self.command
        return {"seq": self.seq, "player": self.player, "command": command.to_dict(), "text": str(command)}


def with_decisions(events: Iterable[ev.GameEvent]) -> Iterator[tuple[ev.GameEvent, Decision | None]]:
    """Each event with the decision it starts (``None``: it starts none), streaming:
    two events of look-ahead at most."""
    stream = Lookahead(events)
    previous = None
    while (event := stream.next()) is not None:
        command = command_at(event, stream.peek) if is_decision(event, previous) else None
        if command is None:
            yield event, None
        else:  # every event that starts a decision names its player
            yield event, Decision(event.originator_version, event.player, command)  # type: ignore[attr-defined]
        previous = event


def decisions_of(events: Iterable[ev.GameEvent]) -> Iterator[Decision]:
    """The decisions of a game's events, in order, streaming."""
    return (decision for _, decision in with_decisions(events) if decision is not None)


def commands_of(events: Iterable[ev.GameEvent]) -> list[Command]:
    """The commands of a game's events, in order (see :func:`decisions_of`)."""
    return [decision.command for decision in decisions_of(events)]
