"""What a seat or a spectator may see of a game: the server's one place for it.

States go through the project's player view
(:func:`~cascadia.projections.player_view.player_view`): no seed, no draw position, no
secret card of another seat that is not revealed yet (RULES.md 7.10), nor anything that
depends on one. Events are masked the same way: ``GameStarted`` without its seed (with
the card choice masked as the player view masks it), ``ScoringCardsDrawn`` with the
hidden species' letters masked, ``SecretCardsDealt`` with the other seats' cards as
``None``. The seed decides every future draw, so hiding it hides the order of the stack
and of the bag. A viewer is a seat number, or ``None`` for a spectator. Once the game has
ended everything is public.

Each event carries its sentence (``text``) from the project's one describer
(:func:`~cascadia.projections.describe.describe_event`), written from the event as masked
for its viewer: it says no more than the masked payload does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from cascadia.domain.commands import Command
from cascadia.domain.events import GameEvent, GameStarted, ScoringCardsDrawn, SecretCardsDealt
from cascadia.domain.state import GameState
from cascadia.projections.describe import describe_event
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, player_view
from cascadia.projections.position import format_position

LEGAL_ENTRIES = 8192
"""The legal commands' JSON entries kept (every placement of a tile next to a board of
40 tiles is about 1,500)."""
Masks = dict[str, Any] | None
"""What to put in place of the hidden parts of a game's events for one viewer (``None``:
nothing is hidden any more)."""


def _viewer(viewer: int | None) -> int | str:
    return SPECTATOR if viewer is None else viewer


def state_for(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The state as ``viewer`` may see it (everything, the seed included, after the end),
    with its ``position`` in the position notation (docs/POSITION.md)."""
    shown = EVERYTHING if state.finished else _viewer(viewer)
    view = player_view(state, shown)
    return {**view, "position": format_position(state, shown, view)}


def json_text(value: Any) -> str:
    """``value`` as JSON, as the server's answers are encoded (Starlette's
    ``JSONResponse``: UTF-8 text as it is, no NaN, no spaces)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


@functools.lru_cache(maxsize=LEGAL_ENTRIES)
def _legal_entry(command: Command) -> str:
    return json_text({"command": command.to_dict(), "text": str(command)})


def legal_json(commands: Sequence[Command]) -> str:
    """The JSON of a view's legal commands, ``[{"command": plain data, "text":
    notation}, ...]``, each entry encoded once per command value and kept (a view lists
    tens of commands, a few hundred while a tile is placed, mostly the same from one
    view to the next)."""
    return "[" + ",".join([_legal_entry(command) for command in commands]) + "]"


def masks_for(state: GameState, viewer: int | None) -> Masks:
    """The masks of a game's events for ``viewer``, from the game as it stands now."""
    if state.finished:
        return None
    if not state.options.secret_cards:
        return {}
    view = player_view(state, _viewer(viewer))
    return {key: view[key] for key in ("options", "cards", "second_cards", "secret_cards")}


def event_for(event: GameEvent, masks: Masks, names: Sequence[str], rounds: int) -> dict[str, Any]:
    """One event as the viewer of ``masks`` may see it: ``{"version", "type", "payload",
    "text"}``, its sentence naming the seats by the game's ``names`` (``state.names``) and
    counting its ``rounds`` (``game_round(state).of``)."""
    payload = event.payload()
    if masks is not None:
        if isinstance(event, GameStarted):
            payload["seed"] = None
            payload["options"] = masks.get("options", payload["options"])
        elif isinstance(event, ScoringCardsDrawn) and masks:
            payload["cards"] = masks["cards"]
            payload["second_cards"] = masks["second_cards"]
        elif isinstance(event, SecretCardsDealt) and masks:
            payload["species"] = masks["secret_cards"]
    text = describe_event(event, names, _seen(event, payload, masks), rounds)
    return {"version": event.originator_version, "type": event.type, "payload": payload, "text": text}


def _seen(event: GameEvent, payload: dict[str, Any], masks: Masks) -> Mapping[str, Any] | None:
    """What the describer reads of the viewer's view of the game: nothing while everything
    is public (``None``); else no seed, and the scoring cards as masked in ``payload``."""
    if masks is None:
        return None
    if isinstance(event, ScoringCardsDrawn):
        return {"cards": payload["cards"], "second_cards": payload["second_cards"]}
    return {}
