"""The compact event store on SQLite (see :mod:`cascadia.application.compact_recorder`): the
compact layout, which stores written before the keyed layout
(:mod:`cascadia.application.keyed_sqlite`) keep.

One table, ``stored_event_rows``: ``id INTEGER PRIMARY KEY`` (the rowid: rows are
inserted by one writer at a time, so ids increase in commit order; rows are never
deleted, so an id is never reused), the aggregate's id as a 16-byte ``BLOB`` (a text id
as ``TEXT``), the first version, the number of events and the payload; and a unique
index on ``(originator_id, first_version)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from cascadia.application.compact_recorder import CompactRecorder, EventRow
from cascadia.application.store_layouts import SQLITE_ROWS
from eventsourcing.persistence import IntegrityError
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteDatastore


def _db_id(originator_id: UUID | str) -> bytes | str:
    return originator_id.bytes if isinstance(originator_id, UUID) else originator_id


class CompactSQLiteRecorder(CompactRecorder, SQLiteApplicationRecorder):
    """Rows of several events in one SQLite table."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = SQLITE_ROWS) -> None:
        super().__init__(datastore, events_table_name)
        columns = f"SELECT id, originator_id, first_version, count, payload FROM {self._source()}"
        self._insert_statement = self._insert_sql()
        self._aggregate_statement = f"{columns} WHERE originator_id = ?"
        self._rows_statement = f"{columns} WHERE id >= ?"
        self._last_statement = f"{columns} ORDER BY id DESC LIMIT 1"

    def _source(self) -> str:
        """What rows are selected from: a table or join with the columns ``id``,
        ``originator_id``, ``first_version``, ``count`` and ``payload``."""
        return self.events_table_name

    def _insert_sql(self) -> str:
        """The insert of one row, returning its id: nothing when it overlaps a stored row."""
        table = self.events_table_name
        return (
            f"INSERT INTO {table} (originator_id, first_version, count, payload) "
            "SELECT :id, :first, :count, :payload WHERE NOT EXISTS ("
            f"  SELECT 1 FROM (SELECT first_version, count FROM {table}"
            "   WHERE originator_id = :id AND first_version <= :last"
            "   ORDER BY first_version DESC LIMIT 1) AS before"
            "  WHERE before.first_version + before.count > :first) "
            "RETURNING id"
        )

    def _insert_params(self, cursor: SQLiteCursor, row: EventRow) -> dict[str, Any]:
        """The parameters of :meth:`_insert_sql` for ``row`` (``cursor``: of the insert's transaction)."""
        return {
            "id": _db_id(row.originator_id),
            "first": row.first_version,
            "count": row.count,
            "last": row.last_version,
            "payload": row.payload,
        }

    def construct_create_table_statements(self) -> list[str]:
        table = self.events_table_name
        return [
            f"CREATE TABLE IF NOT EXISTS {table} ("
            "id INTEGER PRIMARY KEY, originator_id BLOB NOT NULL, first_version INTEGER NOT NULL, "
            "count INTEGER NOT NULL, payload BLOB NOT NULL)",
            f"CREATE UNIQUE INDEX IF NOT EXISTS {table}_aggregate ON {table} (originator_id, first_version)",
        ]

    def _insert_rows(self, rows: Sequence[EventRow]) -> list[int]:
        ids: list[int] = []
        with self.datastore.transaction(commit=True) as cursor:
            for row in rows:
                cursor.execute(self._insert_statement, self._insert_params(cursor, row))
                inserted = cursor.fetchone()
                if inserted is None:
                    raise IntegrityError(
                        f"events of {row.originator_id} from version {row.first_version} overlap stored ones"
                    )
                ids.append(inserted[0])
        return ids

    def _select_aggregate_rows(
        self, originator_id: UUID | str, gt: int | None, lte: int | None, desc: bool, limit: int | None
    ) -> list[EventRow]:
        statement = self._aggregate_statement
        params: list[Any] = [_db_id(originator_id)]
        if gt is not None:
            statement += " AND first_version + count - 1 > ?"
            params.append(gt)
        if lte is not None:
            statement += " AND first_version <= ?"
            params.append(lte)
        statement += " ORDER BY first_version DESC" if desc else " ORDER BY first_version"
        if limit is not None:
            statement += " LIMIT ?"
            params.append(limit)
        return self._rows(statement, params)

    def _select_rows_from(self, first_row: int, last_row: int | None, limit: int) -> list[EventRow]:
        statement = self._rows_statement
        params: list[Any] = [first_row]
        if last_row is not None:
            statement += " AND id <= ?"
            params.append(last_row)
        params.append(limit)
        return self._rows(statement + " ORDER BY id LIMIT ?", params)

    def _last_row(self) -> EventRow | None:
        rows = self._rows(self._last_statement, [])
        return rows[0] if rows else None

    def _rows(self, statement: str, params: Sequence[Any]) -> list[EventRow]:
        """The rows one ``SELECT`` finds. Outside an explicit transaction: the connections
        are in autocommit mode, where SQLite reads one statement in a read transaction
        of its own (a consistent snapshot), so a ``BEGIN`` and a ``ROLLBACK`` around it
        (two more statements per read) would add nothing."""
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params)
            found = cursor.fetchall()
        return [
            EventRow(
                UUID(bytes=originator_id) if isinstance(originator_id, bytes) else originator_id,
                first_version,
                count,
                payload,
                row_id,
            )
            for row_id, originator_id, first_version, count, payload in found
        ]
