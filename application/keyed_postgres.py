"""The keyed event store on PostgreSQL: the compact store (:mod:`cascadia.application.compact_postgres`)
with each aggregate named by a small integer key, and no B-tree over the saves.

A finished game saved a command at a time is some 256 rows, so what a row costs beyond
its payload decides the size: a heap tuple has 28 bytes of header and line pointer
whatever it holds, and a B-tree entry 20 bytes or more in pages that interleaved games
leave 60-70% full. Three tables in the configured schema:

- ``<app>_aggregates`` (``cascadia_aggregates``): ``aggregate_key integer`` (an
  identity, the primary key) and the aggregate's id (``uuid``, or ``text`` with the
  library's ``ORIGINATOR_ID_TYPE=text``), unique; a row is added by the first save of an
  aggregate, in the save's transaction;
- ``<app>_saves``: ``id bigint``, ``aggregate_key integer``, ``first_version integer``,
  ``count smallint`` and ``payload bytea`` (flat: :mod:`cascadia.application.compact_codec`),
  with two GIN indexes (``fastupdate`` off, so that entries go straight into the index),
  on ``ARRAY[aggregate_key]`` and on ``ARRAY[id >> 6]`` (the row's *bucket*). A GIN
  index keeps one entry per key and the rows' addresses in a compressed list, about a
  byte or two a row;
- ``<app>_saves_head``: one row, ``last_id``, the id of the last row.

**Inserts.** An insert takes the saves table's ``EXCLUSIVE`` lock first, as the
library's recorder does (readers are not blocked), then in one statement keys the
aggregates that have no key yet, moves ``last_id`` on by the number of new rows, and
inserts the rows with the ids after the old ``last_id``; a row only if none of its
aggregate's rows holds one of its versions (``WHERE NOT EXISTS``, under the lock).
Otherwise the library's ``IntegrityError`` is raised and nothing of the transaction is
written (its new keys and ``last_id`` included).

**Ids** are so dense (1, 2, 3, ...), increase in commit order, and are never reused
(rows are never deleted). The rows with ids ``a`` to ``b`` are exactly those of the
buckets ``a >> 6`` to ``b >> 6`` with such ids, and the last row is the one ``last_id``
names; each row read by id has its aggregate's id looked up by its key.

**An aggregate's rows**: its key by its id, then its rows by the key's GIN entry,
sorted by first version in the query (a game has a few hundred).
"""

from __future__ import annotations

from collections.abc import Sequence

from cascadia.application.compact_postgres import CompactPostgresRecorder, retrying
from cascadia.application.compact_recorder import EventRow
from cascadia.application.store_layouts import postgres_table
from eventsourcing.persistence import IntegrityError
from psycopg.sql import SQL, Identifier

BUCKET_BITS = 6
"""A row's bucket is its id shifted right by this many bits: 64 rows a bucket."""


class KeyedPostgresRecorder(CompactPostgresRecorder):
    """Rows of several events keyed by their aggregate's integer key."""

    table_kind = "saves"
    flat_payloads = True

    def _prepare_statements(self, app_name: str) -> None:
        saves_name = self.events_table_name
        saves = self._table(saves_name)
        aggregates = self._table(postgres_table(app_name, "aggregates"))
        head = self._table(postgres_table(app_name, "saves_head"))
        names = {"saves": saves, "aggregates": aggregates, "head": head}
        id_type = Identifier(self.datastore.originator_id_type)
        self.sql_create_statements = [
            SQL(
                "CREATE TABLE IF NOT EXISTS {aggregates} ("
                "aggregate_key integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                "originator_id {id_type} NOT NULL UNIQUE)"
            ).format(id_type=id_type, **names),
            SQL(
                "CREATE TABLE IF NOT EXISTS {saves} (id bigint NOT NULL, aggregate_key integer NOT NULL, "
                "first_version integer NOT NULL, count smallint NOT NULL, payload bytea NOT NULL)"
            ).format(**names),
            SQL(
                "CREATE INDEX IF NOT EXISTS {index} ON {saves} USING gin ((ARRAY[aggregate_key])) "
                "WITH (fastupdate = off)"
            ).format(index=Identifier(f"{saves_name}_aggregate"), **names),
            SQL(
                "CREATE INDEX IF NOT EXISTS {index} ON {saves} USING gin ((ARRAY[id >> {bits}])) "
                "WITH (fastupdate = off)"
            ).format(index=Identifier(f"{saves_name}_bucket"), bits=BUCKET_BITS, **names),
            SQL("CREATE TABLE IF NOT EXISTS {head} (last_id bigint NOT NULL)").format(**names),
            SQL("INSERT INTO {head} (last_id) SELECT 0 WHERE NOT EXISTS (SELECT FROM {head})").format(
                **names
            ),
        ]
        self._insert_statement = SQL(
            "WITH r AS (SELECT * FROM unnest(%b::{id_type}[], %b::integer[], %b::smallint[], %b::bytea[])"
            "    WITH ORDINALITY AS r(originator_id, first_version, count, payload, n)), "
            "added AS (INSERT INTO {aggregates} (originator_id) SELECT DISTINCT r.originator_id FROM r"
            "    WHERE NOT EXISTS (SELECT FROM {aggregates} AS a WHERE a.originator_id = r.originator_id)"
            "    RETURNING aggregate_key, originator_id), "
            "keys AS (SELECT aggregate_key, originator_id FROM added UNION ALL"
            "    SELECT aggregate_key, originator_id FROM {aggregates}"
            "    WHERE originator_id IN (SELECT originator_id FROM r)), "
            "head AS (UPDATE {head} SET last_id = last_id + %s RETURNING last_id - %s AS base) "
            "INSERT INTO {saves} (id, aggregate_key, first_version, count, payload) "
            "SELECT head.base + r.n, k.aggregate_key, r.first_version, r.count, r.payload "
            "FROM r JOIN keys AS k ON k.originator_id = r.originator_id CROSS JOIN head "
            "WHERE NOT EXISTS ("
            "  SELECT FROM {saves} AS e WHERE ARRAY[e.aggregate_key] @> ARRAY[k.aggregate_key]"
            "    AND e.first_version < r.first_version + r.count"
            "    AND e.first_version + e.count > r.first_version) "
            "RETURNING id, id - (SELECT base FROM head) AS n"
        ).format(id_type=id_type, **names)
        columns = SQL("SELECT s.id, a.originator_id, s.first_version, s.count, s.payload")
        self._aggregate_statement = columns + SQL(
            " FROM {aggregates} AS a JOIN {saves} AS s ON ARRAY[s.aggregate_key] @> ARRAY[a.aggregate_key]"
            " WHERE a.originator_id = %s"
        ).format(**names)
        by_key = SQL(  # a lookup per row returned, whatever the planner would make of a join
            "(SELECT a.originator_id FROM {aggregates} AS a WHERE a.aggregate_key = s.aggregate_key)"
        ).format(**names)
        rows = SQL(
            "SELECT s.id, {by_key} AS originator_id, s.first_version, s.count, s.payload FROM {saves} AS s"
        ).format(by_key=by_key, **names)
        self._rows_statement = rows + SQL(
            " WHERE ARRAY[s.id >> {bits}] && %s::bigint[] AND s.id BETWEEN %s AND %s ORDER BY s.id"
        ).format(bits=BUCKET_BITS)
        self._last_statement = rows + SQL(
            " WHERE ARRAY[s.id >> {bits}] @> ARRAY[(SELECT last_id >> {bits} FROM {head})]"
            " AND s.id = (SELECT last_id FROM {head})"
        ).format(bits=BUCKET_BITS, **names)

    @retrying
    def _insert_rows(self, rows: Sequence[EventRow]) -> list[int]:
        with self.datastore.transaction(commit=True) as cursor:
            self._lock_table(cursor)
            self._notify_channel(cursor)
            params = [
                [row.originator_id for row in rows],
                [row.first_version for row in rows],
                [row.count for row in rows],
                [row.payload for row in rows],
                len(rows),
                len(rows),
            ]
            cursor.execute(self._insert_statement, params)
            inserted = {new["n"]: new["id"] for new in cursor.fetchall()}
            for n, row in enumerate(rows, start=1):
                if n not in inserted:
                    raise IntegrityError(
                        f"events of {row.originator_id} from version {row.first_version} overlap stored ones"
                    )
        return [inserted[n] for n in range(1, len(rows) + 1)]

    def _select_rows_from(self, first_row: int, last_row: int | None, limit: int) -> list[EventRow]:
        """The rows from ``first_row`` up to ``last_row``, ``limit`` at most: as ids are
        dense from 1, those with ids up to ``first_row + limit - 1``, found by bucket."""
        first = max(first_row, 1)
        last = first + limit - 1 if last_row is None else min(last_row, first + limit - 1)
        buckets = list(range(first >> BUCKET_BITS, (last >> BUCKET_BITS) + 1))
        return self._rows(self._rows_statement, [buckets, first, last])
