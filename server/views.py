"""What a seat or a spectator may see of a game: the one place the server hides things.

Until the game ends a viewer sees every event and the state as the rules make them
public, except the seed (``GameStarted``'s, the state's) and the secret cards of other
seats that are not revealed yet (RULES.md 7.10): the seed decides every future draw,
so hiding it hides the order of the stack and of the bag. ``viewer`` is a seat number,
or ``None`` for a spectator (who sees no secret card). Once the game has ended
everything is public.

(When the projections' player view lands, :func:`state_for` and :func:`event_for`
become calls to it.)
"""

from __future__ import annotations

from typing import Any

from cascadia.domain.events import GameEvent, GameStarted, SecretCardsDealt
from cascadia.domain.state import GameState
from cascadia.projections.player_view import SPECTATOR as VIEW_SPECTATOR
from cascadia.projections.player_view import player_view
from cascadia.projections.state_view import state_view

SPECTATOR = -1
"""The seat number of nobody: a spectator sees only what every seat sees."""


def state_for(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The state as ``viewer`` may see it."""
    if state.finished:
        return state_view(state)
    view = state_view(state, SPECTATOR if viewer is None else viewer)
    view["seed"] = None
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


def scores_for(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The running score sheet (the final one at the end) as ``viewer`` may see it: the
    points that depend on a secret card it may not see yet are ``None`` (RULES.md 7.10,
    :func:`~cascadia.projections.player_view.player_view`)."""
    return player_view(state, VIEW_SPECTATOR if viewer is None else viewer)["scores"]
