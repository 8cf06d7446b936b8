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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from cascadia.application.recent import Recent
from cascadia.domain.commands import Command
from cascadia.domain.events import GameEvent, GameStarted, ScoringCardsDrawn, SecretCardsDealt
from cascadia.domain.state import GameState
from cascadia.projections.describe import describe_event
from cascadia.projections.player_view import (
    EVERYTHING,
    SPECTATOR,
    Viewer,
    environment_view,
    player_view,
    scores_view,
)
from cascadia.projections.position import board_field, format_position

if TYPE_CHECKING:  # the types only
    from cascadia.domain.environment import Environment
    from cascadia.domain.hexgrid import Hex

LEGAL_ENTRIES = 8192
"""The legal commands' JSON entries kept (every placement of a tile next to a board of
40 tiles is about 1,500)."""
EVENTS_KEPT = 4096
"""How many rendered events a process keeps (a game in play needs its last few)."""
SHEETS_KEPT = 2000
"""How many games' last score sheets a process keeps as text (a game in play: one)."""
_BOARD_TEXT = "view text"
"""The name of a board's written parts of a view in its derived data."""
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


_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
"""Starlette's ``JSONResponse`` encoding, made once (``json.dumps`` with these arguments
makes an encoder at every call)."""


def json_text(value: Any) -> str:
    """``value`` as JSON, as the server's answers are encoded (Starlette's
    ``JSONResponse``: UTF-8 text as it is, no NaN, no spaces)."""
    return _ENCODER.encode(value)


def state_text(state: GameState, viewer: int | None, sheets: SheetTexts) -> str:
    """``json_text(state_for(state, viewer))``, written from pieces kept between versions:
    each board's hexes and position field (:func:`_board_text`: a command changes one
    board at most) and the score sheet (``sheets``: a command that changes no board, such
    as a take, leaves it as it was)."""
    shown = EVERYTHING if state.finished else _viewer(viewer)
    view = player_view(state, shown, scores=False, environments=False)
    boards = [_board_text(player.environment) for player in state.players]
    position = format_position(state, shown, view, boards=[board.position for board in boards])
    players = [
        _json_with(player, {"environment": board.environment})
        for player, board in zip(view["players"], boards, strict=True)
    ]
    texts = {"players": f"[{','.join(players)}]", "scores": sheets.text(state, shown, view["options"])}
    return _json_with({**view, "position": position}, texts)


def _json_with(mapping: Mapping[str, Any], texts: Mapping[str, str]) -> str:
    """``json_text(mapping)``, the value of each key of ``texts`` written as the JSON text
    given there."""
    members, plain = [], {}
    for key, value in mapping.items():
        if key in texts:
            if plain:
                members.append(json_text(plain)[1:-1])
                plain = {}
            members.append(f"{json_text(key)}:{texts[key]}")
        else:
            plain[key] = value
    if plain:
        members.append(json_text(plain)[1:-1])
    return "{" + ",".join(members) + "}"


@dataclass(frozen=True, slots=True)
class _BoardText:
    """A board's parts of a view, written: its hexes as JSON (:func:`environment_view`)
    and its field of the position notation, kept in its derived data
    (``Environment.derived``) with the tiles and tokens they were written for."""

    tiles: dict[Hex, tuple[int, int]]
    wildlife: dict[Hex, str]
    environment: str
    position: str

    def copy(self) -> _BoardText:
        return self  # never changed: a copy of the board shares it


def _board_text(environment: Environment) -> _BoardText:
    """The board's :class:`_BoardText`, written again only when its tiles or tokens
    differ from the ones last written (the boards a command leaves as they were keep
    theirs from one version of the game to the next)."""
    tiles, wildlife = environment.tiles, environment.wildlife
    kept = environment.derived.get(_BOARD_TEXT)
    if isinstance(kept, _BoardText) and kept.tiles == tiles and kept.wildlife == wildlife:
        return kept
    hexes = environment_view(environment)
    kept = _BoardText(dict(tiles), dict(wildlife), json_text(hexes), board_field(hexes))
    environment.derived[_BOARD_TEXT] = kept
    return kept


@dataclass(frozen=True)
class _Sheet:
    """A score sheet's text (a view's ``scores``) with what it was written from: each
    board's tiles and tokens, and the rest (:meth:`SheetTexts.inputs`)."""

    boards: tuple[tuple[dict[Any, Any], dict[Any, Any]], ...]
    inputs: tuple[Any, ...]
    text: str


class SheetTexts:
    """The last score sheet written as text for each of the ``size`` games most recently
    viewed (:func:`state_text`): the running scores change only when a board or a nature
    token count does, about every other command."""

    def __init__(self, size: int = SHEETS_KEPT) -> None:
        self._sheets: Recent[UUID, _Sheet] = Recent(size)

    @staticmethod
    def inputs(state: GameState, viewer: Viewer, options: dict[str, Any]) -> tuple[Any, ...]:
        """What a sheet is written from besides the boards: the viewer's options (its
        card choice masked) and hidden cards, the cards, nature tokens, names, rules
        version and whether the game is over (then the sheet is final)."""
        second = state.second_cards
        return (
            tuple(options.items()),
            viewer if state.secret_cards else None,  # which cards are hidden depends on the viewer
            tuple(state.secret_cards),
            tuple(state.secret_revealed),
            tuple(state.cards.items()),
            None if second is None else tuple(second.items()),
            tuple(player.nature_tokens for player in state.players),
            tuple(state.names),
            state.rules_version,
            state.finished,
        )

    def text(self, state: GameState, viewer: Viewer, options: dict[str, Any]) -> str:
        """``json_text(scores_view(state, viewer, options))``, kept for the game."""
        inputs = self.inputs(state, viewer, options)
        boards = [(player.environment.tiles, player.environment.wildlife) for player in state.players]
        kept = self._sheets.get(state.game_id)
        if kept is not None and kept.inputs == inputs and list(kept.boards) == boards:
            return kept.text
        sheet = _Sheet(
            tuple((dict(tiles), dict(wildlife)) for tiles, wildlife in boards),
            inputs,
            json_text(scores_view(state, viewer, options)),
        )
        self._sheets.put(state.game_id, sheet)
        return sheet.text


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


class RenderedEvents:
    """The events rendered lately (:func:`event_for`), each with the masks, names and
    rounds it was rendered under: a command's answer and every stream of its game show
    each new event, alike for the viewers whose masks are the same (every viewer of a
    game without secret cards, and of any game once it is over), so it is rendered once
    for them. The events handed out are shared: to read only."""

    def __init__(self, size: int = EVENTS_KEPT) -> None:
        self._events: Recent[tuple[UUID, int], tuple[Masks, tuple[str, ...], int, dict[str, Any]]] = Recent(
            size
        )

    def render(self, event: GameEvent, masks: Masks, names: Sequence[str], rounds: int) -> dict[str, Any]:
        """``event_for(event, masks, names, rounds)``, kept (an event is known by its
        game and version: a game's stored events never change)."""
        key = (event.originator_id, event.originator_version)
        seats = tuple(names)
        kept = self._events.get(key)
        if kept is not None and kept[0] == masks and kept[1] == seats and kept[2] == rounds:
            return kept[3]
        rendered = event_for(event, masks, seats, rounds)
        self._events.put(key, (masks, seats, rounds, rendered))
        return rendered
