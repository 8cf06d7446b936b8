"""The keyed event store on SQLite: the compact store (:mod:`cascadia.application.compact_sqlite`)
with each aggregate named by a small integer key in its rows.

Two tables:

- ``stored_aggregates``: ``aggregate_key INTEGER PRIMARY KEY`` and the aggregate's id
  (a 16-byte ``BLOB``, a text id as ``TEXT``), unique; a row is added by the first save
  of an aggregate, in the save's transaction;
- ``stored_saves``: ``id INTEGER PRIMARY KEY`` (the rowid: one writer at a time, rows
  never deleted, so ids increase in commit order and are never reused), the
  ``aggregate_key``, the first version, the number of events and the payload (flat:
  :mod:`cascadia.application.compact_codec`); and a unique index on
  ``(aggregate_key, first_version)``.

A save's row and index entry hold a key of one or two bytes where the compact layout
holds the 16-byte id twice.
"""

from __future__ import annotations

from typing import Any

from cascadia.application.compact_recorder import EventRow
from cascadia.application.compact_sqlite import CompactSQLiteRecorder
from cascadia.application.store_layouts import SQLITE_AGGREGATES, SQLITE_SAVES
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore


class KeyedSQLiteRecorder(CompactSQLiteRecorder):
    """Rows of several events keyed by their aggregate's integer key."""

    flat_payloads = True

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = SQLITE_SAVES) -> None:
        super().__init__(datastore, events_table_name)
        self._add_aggregate = f"INSERT OR IGNORE INTO {SQLITE_AGGREGATES} (originator_id) VALUES (?)"
        self._aggregate_key = f"SELECT aggregate_key FROM {SQLITE_AGGREGATES} WHERE originator_id = ?"

    def _source(self) -> str:
        return f"{self.events_table_name} JOIN {SQLITE_AGGREGATES} USING (aggregate_key)"

    def _insert_sql(self) -> str:
        table = self.events_table_name
        return (
            f"INSERT INTO {table} (aggregate_key, first_version, count, payload) "
            "SELECT :key, :first, :count, :payload WHERE NOT EXISTS ("
            f"  SELECT 1 FROM (SELECT first_version, count FROM {table}"
            "   WHERE aggregate_key = :key AND first_version <= :last"
            "   ORDER BY first_version DESC LIMIT 1) AS before"
            "  WHERE before.first_version + before.count > :first) "
            "RETURNING id"
        )

    def _insert_params(self, cursor: SQLiteCursor, row: EventRow) -> dict[str, Any]:
        """The row's values and its aggregate's key (the aggregate is added if new)."""
        params = super()._insert_params(cursor, row)
        cursor.execute(self._add_aggregate, [params["id"]])
        cursor.execute(self._aggregate_key, [params["id"]])
        (key,) = cursor.fetchone()
        return {**params, "key": key}

    def construct_create_table_statements(self) -> list[str]:
        table = self.events_table_name
        return [
            f"CREATE TABLE IF NOT EXISTS {SQLITE_AGGREGATES} ("
            "aggregate_key INTEGER PRIMARY KEY, originator_id BLOB NOT NULL UNIQUE)",
            f"CREATE TABLE IF NOT EXISTS {table} ("
            "id INTEGER PRIMARY KEY, aggregate_key INTEGER NOT NULL, first_version INTEGER NOT NULL, "
            "count INTEGER NOT NULL, payload BLOB NOT NULL)",
            f"CREATE UNIQUE INDEX IF NOT EXISTS {table}_aggregate ON {table} (aggregate_key, first_version)",
        ]
