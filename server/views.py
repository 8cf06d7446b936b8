"""What a seat or a spectator may see of a game: the one place the server hides things.

Until the game ends a viewer sees every event and the state as the rules make them
public, except the seed (``GameStarted``'s, the state's) and the secret cards of other
seats that are not revealed yet (RULES.md 7.10): the seed decides every future draw,
so hiding it hides the order of the stack and of the bag. ``viewer`` is a seat number,
or ``None`` for a spectator (who sees no secret card). Once the game has ended
everything is public.

The state is :func:`~cascadia.projections.player_view.player_view`'s (which also hides,
with ``secret_cards``, the letters and running points of cards a viewer may not see).
"""

from __future__ import annotations

from typing import Any

from cascadia.domain.events import GameEvent, GameStarted, SecretCardsDealt
from cascadia.domain.state import GameState
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, player_view


def state_for(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The state as ``viewer`` may see it, with its running score sheet (``scores``)."""
    if state.finished:
        return player_view(state, EVERYTHING)
    view = player_view(state, SPECTATOR if viewer is None else viewer)
    view["seed"] = None
    view["draw_position"] = None
    return view


def event_for(event: GameEvent, viewer: int | None, finished: bool) -> dict[str, Any]:
    """One event as ``viewer`` may see it: ``{"version", "type", "payload"}``."""
    payload = event.payload()
    if not finished:
        if isinstance(event, GameStarted):
            payload["seed"] = None
        elif isinstance(event, SecretCardsDealt):
            payload["species"] = [card if seat == viewer else None for seat, card in enumerate(event.species)]
    return {"version": event.originator_version, "type": event.type, "payload": payload}

