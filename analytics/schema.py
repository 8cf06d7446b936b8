"""The analytics tables: their names, columns and Arrow types (documented in SCHEMA.md).

Four tables are stored as a Hive-partitioned Parquet dataset (:mod:`cascadia.analytics.dataset`),
one file per table, partition and batch:

- ``games``: one row per game (setup, cards, options, length, winning score);
- ``players``: one row per seat (score sheet parts, nature tokens, rank, won);
- ``events``: one row per event, the common payload fields as typed columns;
- ``placements``: one row per habitat tile placed in a turn, with the wildlife token
  placed on that tile in the same turn (or null).

Column lists are built from the domain's own vocabularies (``WILDLIFE``, ``HABITATS``,
the fields of ``GameOptions``), so a new option becomes a new column without editing
this module; the DuckDB views read the files with ``union_by_name`` so that batches
written before such a change stay readable (the new column reads as null there).

The partition keys (:data:`PARTITION_KEYS`) are columns of every table that the files
do not store: their values are in the files' paths. A change to the tables that a reader
of the previous version would misread (a column renamed, retyped or dropped, a key
changed) raises :data:`SCHEMA_VERSION`; adding a column does not.
"""

from __future__ import annotations

import hashlib
from dataclasses import MISSING, fields

import pyarrow as pa
from cascadia.analytics.contests import CONTEST_COLUMNS, CONTEST_TYPE, SEAT_WON
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.options import GameOptions

GAMES = "games"
PLAYERS = "players"
EVENTS = "events"
PLACEMENTS = "placements"
TABLES: tuple[str, ...] = (EVENTS, PLACEMENTS, PLAYERS, GAMES)
"""Stored tables, in the order a batch's files are written (its marker commits it last)."""


def card_column(species: str, card_set: int = 1) -> str:
    """``bear_card`` for the (first) set of cards, ``bear_card_2`` for the second set."""
    return f"{species}_card" if card_set == 1 else f"{species}_card_{card_set}"


def _option_fields() -> list[pa.Field]:
    """One typed column per game option (bool or string, from the option's default)."""
    result = []
    for option in fields(GameOptions):
        default = option.default if option.default is not MISSING else ""
        result.append(pa.field(option.name, pa.bool_() if isinstance(default, bool) else pa.string()))
    return result


OPTION_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(GameOptions))
"""The game options, each a column of ``games`` named after the option."""

GAMES_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("seed", pa.uint64()),
        pa.field("players", pa.int8()),
        pa.field("names", pa.list_(pa.string())),
        pa.field("first_player", pa.int8()),
        *(pa.field(card_column(s), pa.string()) for s in WILDLIFE),
        *(pa.field(card_column(s, 2), pa.string()) for s in WILDLIFE),
        *_option_fields(),
        pa.field("rules_version", pa.string()),
        pa.field("turns", pa.int16()),
        pa.field("events", pa.int32()),
        pa.field("winning_score", pa.int16()),
        pa.field("winners", pa.int8()),
        pa.field(SEAT_WON, pa.list_(pa.bool_())),
        *(pa.field(c, CONTEST_TYPE) for c in CONTEST_COLUMNS),
        pa.field("batch", pa.string()),
    ]
)

SPECIES_POINTS: tuple[str, ...] = tuple(f"{s}_points" for s in WILDLIFE)
SPECIES_TOKENS: tuple[str, ...] = tuple(f"{s}_tokens" for s in WILDLIFE)
CORRIDOR_SIZES: tuple[str, ...] = tuple(f"{h}_corridor" for h in HABITATS)
CORRIDOR_POINTS: tuple[str, ...] = tuple(f"{h}_points" for h in HABITATS)
HABITAT_BONUSES: tuple[str, ...] = tuple(f"{h}_bonus" for h in HABITATS)

PLAYERS_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("seat", pa.int8()),
        pa.field("turn_position", pa.int8()),
        pa.field("name", pa.string()),
        pa.field("bot", pa.string()),
        pa.field("bot_version", pa.int16()),
        pa.field("bot_budget", pa.int32()),
        *(pa.field(c, pa.int16()) for c in SPECIES_POINTS),
        *(pa.field(c, pa.int8()) for c in SPECIES_TOKENS),
        *(pa.field(c, pa.int16()) for c in CORRIDOR_SIZES),
        *(pa.field(c, pa.int16()) for c in CORRIDOR_POINTS),
        *(pa.field(c, pa.int16()) for c in HABITAT_BONUSES),
        pa.field("nature_earned", pa.int16()),
        pa.field("nature_spent", pa.int16()),
        pa.field("nature_left", pa.int16()),
        pa.field("wildlife_total", pa.int16()),
        pa.field("corridor_total", pa.int16()),
        pa.field("bonus_total", pa.int16()),
        pa.field("habitat_total", pa.int16()),
        pa.field("total", pa.int16()),
        pa.field("rank", pa.int8()),
        pa.field("won", pa.bool_()),
        pa.field("achievements", pa.list_(pa.string())),
        pa.field("batch", pa.string()),
    ]
)

FILL_TYPE = pa.struct(
    [pa.field("slot", pa.int8()), pa.field("tile", pa.int16()), pa.field("wildlife", pa.string())]
)

EVENT_COLUMN_TYPES: dict[str, pa.DataType] = {
    "player": pa.int8(),
    "tile": pa.int16(),
    "wildlife": pa.string(),
    "q": pa.int16(),
    "r": pa.int16(),
    "rotation": pa.int8(),
    "tile_slot": pa.int8(),
    "wildlife_slot": pa.int8(),
    "slots": pa.list_(pa.int8()),
    "set_aside": pa.list_(pa.string()),
    "drawn": pa.list_(pa.string()),
    "fills": pa.list_(FILL_TYPE),
    "mandatory": pa.bool_(),
    "unbreakable": pa.bool_(),
    "action": pa.string(),
    "cost": pa.int8(),
}
"""The typed payload columns of ``events``; any other payload field goes into ``extra``."""

EVENTS_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("sequence", pa.int32()),
        pa.field("type", pa.string()),
        pa.field("turn", pa.int16()),
        *(pa.field(name, kind) for name, kind in EVENT_COLUMN_TYPES.items()),
        pa.field("extra", pa.string()),
        pa.field("batch", pa.string()),
    ]
)

PLACEMENTS_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("player", pa.int8()),
        pa.field("turn", pa.int16()),
        pa.field("tile", pa.int16()),
        pa.field("q", pa.int16()),
        pa.field("r", pa.int16()),
        pa.field("rotation", pa.int8()),
        pa.field("keystone", pa.bool_()),
        pa.field("wildlife", pa.string()),
        pa.field("batch", pa.string()),
    ]
)

SCHEMA_VERSION = 1
"""The version of the stored dataset's layout and columns (``dataset.json``, and each
file's Parquet key-value metadata ``cascadia.schema``); readers refuse any other."""

PARTITION_KEYS = pa.schema([pa.field("players", pa.int8()), pa.field("source", pa.string())])
"""The Hive partition keys, in path order (``players=4/source=ingest``): the game's number
of seats (the ``players`` column of ``games``) and who wrote the batch (``ingest``, or a
study's id). Every table has them as columns; no file stores them."""


MARKS = "marks"
MARKS_SCHEMA = pa.schema(
    [
        pa.field("map_id", pa.string(), nullable=False),
        pa.field("map_name", pa.string()),
        pa.field("player", pa.string()),
        pa.field("path", pa.int8()),
        pa.field("cell", pa.int8()),
        pa.field("achievement", pa.string()),
        pa.field("mode", pa.string()),
        pa.field("game_id", pa.string()),
        pa.field("games_played", pa.int32()),
        pa.field("milestone", pa.string()),
    ]
)
"""Every mark of every achievement map in the store (RULES.md 8.1), with the number of
the map's recorded games the player had sat at by then (null: none recorded) and the
milestone the cell reaches (null: none). Written whole at each ``ingest --from-store``
(maps are small and a map's history only grows)."""

SCHEMAS: dict[str, pa.Schema] = {
    GAMES: GAMES_SCHEMA,
    PLAYERS: PLAYERS_SCHEMA,
    EVENTS: EVENTS_SCHEMA,
    PLACEMENTS: PLACEMENTS_SCHEMA,
}


def stored_schema(table: str) -> pa.Schema:
    """The columns a file of ``table`` stores: the table's columns without the partition keys."""
    table_schema = SCHEMAS[table]
    for key in PARTITION_KEYS.names:
        if key in table_schema.names:
            table_schema = table_schema.remove(table_schema.get_field_index(key))
    return table_schema


def columns_digest() -> str:
    """A short digest of every table's stored columns and types. A batch's commit marker
    records it: files of batches with the same digest have the same columns, so a reader
    reads them together without comparing their footers."""
    text = "\n".join(f"{table}: {stored_schema(table)}" for table in TABLES)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dataset_schema(table: str) -> pa.Schema:
    """The columns a reader of the dataset sees: the stored ones, then the partition keys."""
    return pa.schema([*stored_schema(table), *PARTITION_KEYS])
