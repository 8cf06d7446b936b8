"""The compact event store on PostgreSQL (see :mod:`cascadia.application.compact_recorder`):
the compact layout, which stores written before the keyed layout
(:mod:`cascadia.application.keyed_postgres`) keep.

One table, ``<app>_event_rows`` (``cascadia_event_rows``) in the configured schema:
``id bigserial PRIMARY KEY``, the aggregate's id (``uuid``, or ``text`` with the
library's ``ORIGINATOR_ID_TYPE=text``), the first version (``integer``), the number of
events (``smallint``) and the payload (``bytea``); and a unique index on
``(originator_id, first_version)``. As the library's recorder does, an insert takes the
table's ``EXCLUSIVE`` lock first (readers are not blocked): inserts are serialised, so
row ids are committed in increasing order and the overlap check of the insert cannot
race with another writer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from cascadia.application.compact_recorder import CompactRecorder, EventRow
from cascadia.application.store_layouts import postgres_table
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.sql import SQL, Composed, Identifier

retrying = retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
"""The library's recorder retries its queries so, on a connection lost or refused."""


class CompactPostgresRecorder(CompactRecorder, PostgresApplicationRecorder):
    """Rows of several events in one PostgreSQL table."""

    table_kind = "event_rows"
    """The events table of the application ``app`` is ``postgres_table(app, table_kind)``."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        app_name = events_table_name.removesuffix("_events")
        super().__init__(datastore, events_table_name=postgres_table(app_name, self.table_kind))
        self._prepare_statements(app_name)

    def _table(self, name: str) -> Composed:
        """The table ``name`` of the datastore's schema, for a statement."""
        return SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(name))

    def _prepare_statements(self, app_name: str) -> None:
        """The statements creating the tables, inserting rows and selecting them."""
        table_name = self.events_table_name
        table = self._table(table_name)
        id_type = Identifier(self.datastore.originator_id_type)
        self.sql_create_statements = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {table} (id bigserial PRIMARY KEY, "
                "originator_id {id_type} NOT NULL, first_version integer NOT NULL, "
                "count smallint NOT NULL, payload bytea NOT NULL)"
            ).format(table=table, id_type=id_type),
            SQL(
                "CREATE UNIQUE INDEX IF NOT EXISTS {index} "
                "ON {table} (originator_id, first_version) INCLUDE (count)"
            ).format(index=Identifier(f"{table_name}_aggregate"), table=table),
        ]
        self._insert_statement = SQL(
            "INSERT INTO {table} (originator_id, first_version, count, payload) "
            "SELECT r.originator_id, r.first_version, r.count, r.payload "
            "FROM unnest(%b::{id_type}[], %b::integer[], %b::smallint[], %b::bytea[]) WITH ORDINALITY "
            "  AS r(originator_id, first_version, count, payload, n) "
            "WHERE NOT EXISTS ("
            "  SELECT 1 FROM (SELECT e.first_version, e.count FROM {table} AS e"
            "    WHERE e.originator_id = r.originator_id AND e.first_version < r.first_version + r.count"
            "    ORDER BY e.first_version DESC LIMIT 1) AS before"
            "  WHERE before.first_version + before.count > r.first_version) "
            "ORDER BY r.n "
            "RETURNING id, originator_id, first_version"
        ).format(table=table, id_type=id_type)
        columns = SQL("SELECT id, originator_id, first_version, count, payload FROM {}").format(table)
        self._aggregate_statement = columns + SQL(" WHERE originator_id = %s")
        self._rows_statement = columns + SQL(" WHERE id >= %s")
        self._last_statement = columns + SQL(" ORDER BY id DESC LIMIT 1")

    @retrying
    def _insert_rows(self, rows: Sequence[EventRow]) -> list[int]:
        params = (
            [row.originator_id for row in rows],
            [row.first_version for row in rows],
            [row.count for row in rows],
            [row.payload for row in rows],
        )
        with self.datastore.transaction(commit=True) as cursor:
            self._lock_table(cursor)
            self._notify_channel(cursor)
            cursor.execute(self._insert_statement, params)
            inserted = {(new["originator_id"], new["first_version"]): new["id"] for new in cursor.fetchall()}
            missing = [row for row in rows if (row.originator_id, row.first_version) not in inserted]
            if missing:
                raise IntegrityError(
                    f"events of {missing[0].originator_id} from version {missing[0].first_version} "
                    "overlap stored ones"
                )
        return [inserted[row.originator_id, row.first_version] for row in rows]

    def _select_aggregate_rows(
        self, originator_id: UUID | str, gt: int | None, lte: int | None, desc: bool, limit: int | None
    ) -> list[EventRow]:
        statement = self._aggregate_statement
        params: list[Any] = [originator_id]
        if gt is not None:
            statement += SQL(" AND first_version + count - 1 > %s")
            params.append(gt)
        if lte is not None:
            statement += SQL(" AND first_version <= %s")
            params.append(lte)
        statement += SQL(" ORDER BY first_version DESC" if desc else " ORDER BY first_version")
        if limit is not None:
            statement += SQL(" LIMIT %s")
            params.append(limit)
        return self._rows(statement, params)

    def _select_rows_from(self, first_row: int, last_row: int | None, limit: int) -> list[EventRow]:
        statement = self._rows_statement
        params: list[Any] = [first_row]
        if last_row is not None:
            statement += SQL(" AND id <= %s")
            params.append(last_row)
        params.append(limit)
        return self._rows(statement + SQL(" ORDER BY id LIMIT %s"), params)

    def _last_row(self) -> EventRow | None:
        rows = self._rows(self._last_statement, [])
        return rows[0] if rows else None

    @retrying
    def _rows(self, statement: Composed, params: Sequence[Any]) -> list[EventRow]:
        with self.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(statement, params, prepare=True)
            return [
                EventRow(
                    row["originator_id"], row["first_version"], row["count"], bytes(row["payload"]), row["id"]
                )
                for row in cursor.fetchall()
            ]
