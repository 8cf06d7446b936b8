"""Decoding finished games into the columns of the analytics tables.

A :class:`BatchColumns` collects the rows of many games as plain Python lists, one list
per column, and turns them into Arrow tables once per batch (no row-by-row inserts).
The score of each player comes from the scoring projection
(:func:`cascadia.projections.game_scores.score_state`, the sheet a log's trailer holds),
and the achievements each player met (RULES.md 8) from the achievements projection, both
from one scoring of the final state; nothing is scored here.

Event payload fields are mapped to the typed columns of ``events`` by name (``seat`` is
stored as ``player``) when their declared type matches the column; every other field of
an event goes into its ``extra`` JSON text, so a new event type or field is stored
without changing this module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, cast

import pyarrow as pa
from cascadia.analytics import schema
from cascadia.analytics.contests import DERIVED_COLUMNS
from cascadia.domain import events as ev
from cascadia.domain.achievement_map import MILESTONES, MapState
from cascadia.domain.components import HABITATS, TILES, WILDLIFE
from cascadia.domain.errors import CascadiaError
from cascadia.domain.game import Game
from cascadia.domain.state import GameState
from cascadia.projections.achievements import player_achievements
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import ScoreSheet

_ALIASES = {"seat": "player"}
"""Payload fields stored under another column name."""

_ANNOTATIONS: dict[pa.DataType, str] = {
    pa.int8(): "int",
    pa.int16(): "int",
    pa.string(): "str",
    pa.bool_(): "bool",
    pa.list_(pa.int8()): "list[int]",
    pa.list_(pa.string()): "list[str]",
    pa.list_(schema.FILL_TYPE): "list[list[Any]]",
}
"""The declared payload type that each typed column accepts."""

Sheet = dict[str, Any]
"""A final score sheet as plain data (``ScoreSheet.to_dict()``)."""


class UnfinishedGameError(CascadiaError):
    """A game that has not ended: only finished games are analysed."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """How one event type's payload maps to columns."""

    name: str
    typed: tuple[tuple[str, str], ...]
    """``(payload field, column)`` pairs stored in typed columns."""
    extra: tuple[str, ...]
    """Payload fields stored in the ``extra`` JSON text."""


_PLANS: dict[type, _Plan] = {}

_INDEXED = (schema.EVENTS, schema.PLACEMENTS)
"""Tables whose ``game_id`` column is collected as game indexes (see ``_add_event_rows``)."""
_FILLED_LATER = ("batch", *DERIVED_COLUMNS)
"""Columns not collected game by game: the batch's name (:meth:`BatchColumns.tables`
fills it in), and those of ``games`` computed from the batch's ``players`` table when
the batch is encoded (:func:`~cascadia.analytics.storage.encode_batch`,
:mod:`cascadia.analytics.contests`)."""

_TURN_EVENTS = (ev.FirstPlayerChosen, ev.TurnEnded, ev.GameEnded)
"""The events that move the turn counter (``turn`` column)."""


def _plan(cls: type[ev.GameEvent]) -> _Plan:
    """The column mapping of an event type, worked out once from its dataclass fields."""
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    typed, extra = [], []
    for f in fields(cls)[2:]:
        column = _ALIASES.get(f.name, f.name)
        kind = schema.EVENT_COLUMN_TYPES.get(column)
        annotation = str(f.type).replace(" ", "")
        expected = "int" if column == "turn" else _ANNOTATIONS.get(kind) if kind is not None else None
        if annotation == expected:
            typed.append((f.name, column))
        else:
            extra.append(f.name)
    plan = _PLANS[cls] = _Plan(cls.__name__, tuple(typed), tuple(extra))
    return plan


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True, default=str)


class BatchColumns:
    """The rows of one ingest batch, column by column, for the four tables."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            table: {name: [] for name in s.names if name not in _FILLED_LATER}
            for table, s in schema.SCHEMAS.items()
        }
        self.game_ids: list[str] = []

    def __len__(self) -> int:
        return len(self.game_ids)

    def add_game(
        self, events: Sequence[ev.GameEvent], state: GameState | None = None, scored: ScoreSheet | None = None
    ) -> None:
        """Add one finished game from its events (``state``: its final state, and ``scored``
        its score sheet, if at hand).

        Raises :class:`UnfinishedGameError` for a game that has not ended, and the
        domain's ``CorruptEventError`` for events that do not replay."""
        if state is None:
            state = Game.replay(events).state
        if not state.finished:
            raise UnfinishedGameError(f"game {state.game_id} has not ended ({len(events)} events)")
        scored = scored or score_state(state)
        sheet = cast(Sheet, scored.to_dict())
        game_id = str(state.game_id)
        self._add_game_row(game_id, state, sheet, len(events))
        achievements = [player_achievements(state, scored, seat) for seat in range(len(state.players))]
        started = events[0]
        bots = started.bots if isinstance(started, ev.GameStarted) else None
        self._add_player_rows(game_id, state, sheet, achievements, bots or [None] * len(state.players))
        self._add_event_rows(len(self.game_ids), events)
        self.game_ids.append(game_id)

    def _add_game_row(self, game_id: str, state: GameState, sheet: Sheet, event_count: int) -> None:
        winners = [p["total"] for p in sheet["players"] if p["won"]]
        options = state.options.to_dict()
        row: dict[str, Any] = {
            "game_id": game_id,
            "seed": state.seed,
            "players": len(state.players),
            "names": list(state.names),
            "first_player": state.first_player,
            "rules_version": state.rules_version,
            "turns": state.turn,
            "events": event_count,
            "winning_score": max(winners),
            "winners": len(winners),
        }
        for species in WILDLIFE:
            row[schema.card_column(species)] = state.cards.get(species)
            second = state.second_cards or {}
            row[schema.card_column(species, 2)] = second.get(species)
        for option in schema.OPTION_COLUMNS:
            row[option] = options.get(option)
        columns = self.columns[schema.GAMES]
        for name, values in columns.items():
            values.append(row[name])

    def _add_player_rows(
        self,
        game_id: str,
        state: GameState,
        sheet: Sheet,
        achievements: list[list[str]],
        bots: Sequence[dict[str, Any] | None],
    ) -> None:
        """One row per seat; ``bots``: each seat's recorded bot (``GameStarted.bots``)."""
        columns = self.columns[schema.PLAYERS]
        count = len(state.players)
        for seat, (player, score) in enumerate(zip(state.players, sheet["players"], strict=True)):
            placed = list(player.environment.wildlife.values())
            bot = bots[seat] or {}
            row: dict[str, Any] = {
                "game_id": game_id,
                "seat": seat,
                "turn_position": (seat - state.first_player) % count,
                "name": player.name,
                "bot": bot.get("name"),
                "bot_version": bot.get("version"),
                "bot_budget": bot.get("budget"),
                "nature_earned": player.nature_earned,
                "nature_spent": player.nature_spent,
                "nature_left": score["nature_tokens"],
                "wildlife_total": score["wildlife_total"],
                "corridor_total": score["habitat_total"],
                "bonus_total": score["bonus_total"],
                "habitat_total": score["habitat_total"] + score["bonus_total"],
                "total": score["total"],
                "rank": score["rank"],
                "won": score["won"],
                "achievements": achievements[seat],
            }
            for species in WILDLIFE:
                row[f"{species}_points"] = score["wildlife"][species]
                row[f"{species}_tokens"] = placed.count(species)
            for habitat in HABITATS:
                row[f"{habitat}_corridor"] = score["corridors"][habitat]
                row[f"{habitat}_points"] = score["habitat_points"][habitat]
                row[f"{habitat}_bonus"] = score["habitat_bonuses"][habitat]
            for name, values in columns.items():
                values.append(row.get(name))

    def _add_event_rows(self, game: int, events: Sequence[ev.GameEvent]) -> None:
        """Rows of ``events`` and ``placements``; their ``game_id`` column holds the game's
        index in the batch until :meth:`tables` (many rows per game: ints are cheaper).

        Built column by column: the rows of each event type together, then the turn
        column and the placements from the few events that move the turn or place."""
        columns = self.columns[schema.EVENTS]
        base = len(columns["sequence"])
        count = len(events)
        classes = [event.__class__ for event in events]
        rows_of: dict[type, list[int]] = {}
        for row, cls in enumerate(classes, base):
            rows_of.setdefault(cls, []).append(row)
        columns["game_id"].extend([game] * count)
        columns["sequence"].extend([event.originator_version for event in events])
        columns["type"].extend([cls.__name__ for cls in classes])
        turns = _turns(events, rows_of, base)
        columns["turn"].extend(turns)
        self._add_placements(game, events, rows_of, base, turns)
        for name in (*schema.EVENT_COLUMN_TYPES, "extra"):
            columns[name].extend([None] * count)
        for cls, rows in rows_of.items():
            self._add_payload_cells(_plan(cls), [events[row - base] for row in rows], rows)

    def _add_payload_cells(self, plan: _Plan, events: list[ev.GameEvent], rows: list[int]) -> None:
        """The payload cells of ``events`` (all of one type, whose columns ``plan`` maps)
        at rows ``rows`` of ``events``: typed columns, then the ``extra`` JSON text."""
        columns = self.columns[schema.EVENTS]
        for field, column in plan.typed:
            target = columns[column]
            values = map(attrgetter(field), events)
            if column == "fills":
                values = ([tuple(fill) for fill in fills] for fills in values)
            for row, value in zip(rows, values, strict=True):
                target[row] = value
        if plan.extra:
            extra = columns["extra"]
            for row, event in zip(rows, events, strict=True):
                extra[row] = _json({field: getattr(event, field) for field in plan.extra})

    def _add_placements(
        self,
        game: int,
        events: Sequence[ev.GameEvent],
        rows_of: dict[type, list[int]],
        base: int,
        turns: list[int],
    ) -> None:
        """The ``placements`` rows of ``events`` (``rows_of``: the rows of each event type,
        from ``base``; ``turns``: their turns): one per tile placed, with the token placed
        on it later in the same turn, if any."""
        placements = self.columns[schema.PLACEMENTS]
        tile_rows = rows_of.get(ev.TilePlaced, [])
        placed = [cast(ev.TilePlaced, events[row - base]) for row in tile_rows]
        placed_turns = [turns[row - base] for row in tile_rows]
        placements["game_id"].extend([game] * len(placed))
        placements["player"].extend([e.player for e in placed])
        placements["turn"].extend(placed_turns)
        placements["tile"].extend([e.tile for e in placed])
        placements["q"].extend([e.q for e in placed])
        placements["r"].extend([e.r for e in placed])
        placements["rotation"].extend([e.rotation for e in placed])
        placements["keystone"].extend([TILES[e.tile].keystone for e in placed])
        wildlife: list[str | None] = [None] * len(placed)
        tile_at = {
            (turn, e.player, e.q, e.r): (i, row)
            for i, (turn, e, row) in enumerate(zip(placed_turns, placed, tile_rows, strict=True))
        }
        for row in rows_of.get(ev.WildlifePlaced, ()):
            w = cast(ev.WildlifePlaced, events[row - base])
            found = tile_at.get((turns[row - base], w.player, w.q, w.r))
            if found is not None and found[1] < row:
                wildlife[found[0]] = w.wildlife
        placements["wildlife"].extend(wildlife)

    def tables(self, batch: str) -> dict[str, pa.Table]:
        """The batch as one Arrow table per stored table, with ``batch`` filled in (the
        card contests of ``games`` are left null: the batch's encoding works them out)."""
        result = {}
        game_ids = pa.array(self.game_ids, type=pa.string())
        for table, table_schema in schema.SCHEMAS.items():
            columns = self.columns[table]
            length = len(next(iter(columns.values())))
            arrays = [
                pa.array([batch] * length, type=pa.string())
                if name == "batch"
                else pa.nulls(length, table_schema.field(name).type)
                if name in _FILLED_LATER
                else pa.array(columns[name], type=table_schema.field(name).type)
                if name != "game_id" or table not in _INDEXED
                else game_ids.take(pa.array(columns[name], type=pa.int32()))
                for name in table_schema.names
            ]
            result[table] = pa.Table.from_arrays(arrays, schema=table_schema)
        return result


def _turns(events: Sequence[ev.GameEvent], rows_of: dict[type, list[int]], base: int) -> list[int]:
    """The ``turn`` column of ``events`` (``rows_of``: the rows of each event type, from
    ``base``), from the events of :data:`_TURN_EVENTS`: 0 up to the first player's choice,
    then 1, then the next turn after each end of a turn; a game's end holds its turn
    count. A payload's own ``turn`` field later takes the place of its cell."""
    turns: list[int] = []
    turn = 0
    for row in sorted(row for cls in _TURN_EVENTS for row in rows_of.get(cls, ())):
        event = events[row - base]
        turns += [turn] * (row - base - len(turns))
        if isinstance(event, ev.GameEnded):
            turns.append(event.turns)
            continue
        turns.append(turn)
        turn = event.turn + 1 if isinstance(event, ev.TurnEnded) else 1
    turns += [turn] * (len(events) - len(turns))
    return turns


def marks_table(maps: Iterable[MapState]) -> pa.Table:
    """The ``marks`` table: every mark of every map, in map and path order (RULES.md 8.1)."""
    rows: dict[str, list[Any]] = {name: [] for name in schema.MARKS_SCHEMA.names}
    for state in maps:
        for path in sorted(state.paths.values(), key=attrgetter("path")):
            for mark in path.marks:
                row = {
                    "map_id": str(state.map_id),
                    "map_name": state.name,
                    "player": path.player,
                    "path": path.path,
                    "cell": mark.cell,
                    "achievement": mark.achievement,
                    "mode": mark.mode,
                    "game_id": mark.game_id,
                    "games_played": mark.games or None,
                    "milestone": MILESTONES.get(mark.cell),
                }
                for name, values in rows.items():
                    values.append(row[name])
    return pa.table(rows, schema=schema.MARKS_SCHEMA)
