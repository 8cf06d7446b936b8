"""DuckDB over the analytics Parquet files: views, free SQL and ``--where`` filters.

:class:`AnalyticsDB` opens an in-memory DuckDB (embedded, no server, no network) and
defines one view per stored table over the Parquet files of the committed batches (one
``read_parquet([...], union_by_name = true)`` per partition, with the partition keys as
columns, and the files of the legacy layout, :mod:`cascadia.analytics.legacy`), plus two
small helpers: the view ``game_cards`` (one row per game and species) and the table
``tiles`` (the habitat tile catalogue). Then it locks the connection down: file access
is limited to the analytics folder, external access and extension loading are off, and
the configuration is locked, so the user's SQL can read the tables and nothing else.
Only single ``SELECT`` statements (which include ``WITH``, ``DESCRIBE``, ``SHOW`` and
``SUMMARIZE``) are run.
"""

from __future__ import annotations

import os
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
from cascadia.analytics import legacy, schema
from cascadia.analytics.dataset import Partition
from cascadia.analytics.storage import AnalyticsStore
from cascadia.domain.components import FIRST_STARTER_ID, TILES, WILDLIFE
from cascadia.domain.errors import CascadiaError

ALLOWED_STATEMENTS = (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN)


class SqlError(CascadiaError):
    """A query that is not allowed or that DuckDB rejects (the message is one line)."""


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Column names and rows of a query."""

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def one_line(error: BaseException) -> str:
    """DuckDB's (often multi-line) message reduced to its first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def check_select(sql: str) -> str:
    """``sql`` if it is exactly one SELECT (or EXPLAIN) statement; else :class:`SqlError`."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as error:
        raise SqlError(f"SQL: {one_line(error)}") from None
    if len(statements) != 1:
        raise SqlError(f"give exactly one SELECT statement, not {len(statements)}")
    kind = statements[0].type
    if kind not in ALLOWED_STATEMENTS:
        raise SqlError(f"only SELECT queries are allowed, not {kind.name}")
    return sql


def _sql_literal(value: object) -> str:
    """``value`` as an SQL literal: an integer as it is, anything else as quoted text."""
    return str(value) if isinstance(value, int) else "'" + str(value).replace("'", "''") + "'"


def _read_parquet(files: list[Path], by_name: bool = True) -> str:
    """A ``read_parquet`` of ``files`` (absolute paths) that parses no partition from their
    paths; columns matched ``by_name`` across files whose columns may differ (every footer
    read first)."""
    listing = ", ".join(_sql_literal(f) for f in files)
    return f"read_parquet([{listing}], union_by_name = {str(by_name).lower()}, hive_partitioning = false)"


_SQL_TYPES = {pa.int8(): "TINYINT", pa.string(): "VARCHAR"}
"""The DuckDB type of each partition key's Arrow type."""


def _tiles_table() -> pa.Table:
    """The tile catalogue: id, habitats, wildlife symbols, keystone, starter hex."""
    tiles = list(TILES)
    return pa.table(
        {
            "tile": pa.array([t.id for t in tiles], pa.int16()),
            "habitat_a": [t.habitats[0] for t in tiles],
            "habitat_b": [t.habitats[1] if len(t.habitats) > 1 else None for t in tiles],
            "wildlife": pa.array([list(t.wildlife) for t in tiles], pa.list_(pa.string())),
            "keystone": [t.keystone for t in tiles],
            "starter": [t.id >= FIRST_STARTER_ID for t in tiles],
        }
    )


class AnalyticsDB:
    """A read-only DuckDB view of the analytics tables of one data directory."""

    def __init__(self, home: str | os.PathLike[str]) -> None:
        # resolved once: the files' paths, given to DuckDB, are absolute and under the root
        # that :meth:`_lock_down` allows
        self.storage = AnalyticsStore(Path(home).resolve())
        self.storage.check_dataset()
        self.con = duckdb.connect(":memory:")
        self._define_views()
        self._lock_down()

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> AnalyticsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _define_views(self) -> None:
        con = self.con
        listing = self.storage.listing()
        self.all_current = not self._legacy_selects(schema.GAMES) and all(
            f.stem in listing.current for files in listing.partitions[schema.GAMES].values() for f in files
        )
        """Whether every game was written with the columns this cascadia writes (its card
        contests among them: :mod:`cascadia.analytics.contests`), so none needs them
        worked out from its players."""
        for table in schema.SCHEMAS:
            # every column of the schema, typed, even where no file has it yet (the files
            # of older batches lack the columns added since: they read as null)
            con.register(f"_{table}_empty", schema.dataset_schema(table).empty_table())
            con.execute(f"CREATE TABLE _{table}_columns AS SELECT * FROM _{table}_empty")
            con.unregister(f"_{table}_empty")
            parts = [
                f"SELECT * FROM _{table}_columns",
                *self._partition_selects(listing.partitions[table], listing.current),
                *self._legacy_selects(table),
            ]
            con.execute(f"CREATE VIEW {table} AS " + " UNION ALL BY NAME ".join(parts))
        if self.storage.marks_file.is_file():
            marks = _sql_literal(self.storage.marks_file)
            con.execute(f"CREATE VIEW {schema.MARKS} AS SELECT * FROM read_parquet({marks})")
        else:
            con.register("_marks_empty", schema.MARKS_SCHEMA.empty_table())
            con.execute(f"CREATE TABLE {schema.MARKS} AS SELECT * FROM _marks_empty")
            con.unregister("_marks_empty")
        species = ", ".join(f"'{s}'" for s in WILDLIFE)
        cards = ", ".join(schema.card_column(s) for s in WILDLIFE)
        con.execute(
            "CREATE VIEW game_cards AS "
            f"SELECT game_id, unnest([{species}]) AS species, unnest([{cards}]) AS card FROM games"
        )
        con.register("_tiles", _tiles_table())
        con.execute("CREATE TABLE tiles AS SELECT * FROM _tiles")
        con.unregister("_tiles")

    def _partition_selects(self, partitions: dict[Partition, list[Path]], current: set[str]) -> list[str]:
        """``SELECT``s of a table's committed files (``partitions``), one per partition and
        kind of batch, with the partition keys as typed constants (taken from the partition,
        not parsed from the paths, so a ``key=value`` folder above the data directory cannot
        add a column). The files of ``current`` batches (the columns this cascadia writes)
        are read as one schema; the others by name, each file's footer compared."""
        selects = []
        for partition, files in partitions.items():
            keys = ", ".join(
                f"CAST({_sql_literal(value)} AS {_SQL_TYPES[field.type]}) AS {field.name}"
                for field, value in zip(schema.PARTITION_KEYS, astuple(partition), strict=True)
            )
            same = [f for f in files if f.stem in current]
            older = [f for f in files if f.stem not in current]
            for group, by_name in ((same, False), (older, True)):
                if group:
                    selects.append(f"SELECT *, {keys} FROM {_read_parquet(group, by_name)}")
        return selects

    def _legacy_selects(self, table: str) -> list[str]:
        """The committed files of the legacy layout, in the columns of the dataset: ``games``
        stores ``players``; a row of another table takes it from its game."""
        files = self.storage.legacy_files(table)
        if not files:
            return []
        source = f"CAST({_sql_literal(legacy.SOURCE)} AS VARCHAR) AS source"
        if table == schema.GAMES:
            return [f"SELECT * EXCLUDE (players), players, {source} FROM {_read_parquet(files)}"]
        games = _read_parquet(self.storage.legacy_files(schema.GAMES))
        return [
            f"SELECT t.*, g.players, {source} FROM {_read_parquet(files)} t "
            f"JOIN (SELECT game_id, players FROM {games}) g USING (game_id)"
        ]

    def _lock_down(self) -> None:
        root = _sql_literal(str(self.storage.root) + os.sep)
        self.con.execute(f"SET allowed_directories = [{root}]")
        self.con.execute("SET enable_external_access = false")
        self.con.execute("SET autoinstall_known_extensions = false")
        self.con.execute("SET autoload_known_extensions = false")
        # DuckDB draws a progress bar on stdout for a long query, into `--json` output too
        self.con.execute("SET enable_progress_bar = false")
        # each query of a view reads the footers of its files: once is enough
        self.con.execute("SET parquet_metadata_cache = true")
        self.con.execute("SET lock_configuration = true")

    # -- queries -----------------------------------------------------------------------

    def run(self, sql: str, params: list[Any] | None = None) -> QueryResult:
        """Run trusted SQL (the standard statistics); DuckDB errors become :class:`SqlError`."""
        try:
            cursor = self.con.execute(sql, params or [])
            columns = [d[0] for d in cursor.description or []]
            return QueryResult(columns, cursor.fetchall())
        except duckdb.Error as error:
            raise SqlError(f"SQL: {one_line(error)}") from None

    def records(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        return self.run(sql, params).records()

    def user_query(self, sql: str) -> QueryResult:
        """Run the user's query: one SELECT statement, reported as one line on error."""
        return self.run(check_select(sql))

    def games_where(self, where: str | None) -> str:
        """A ``SELECT`` of the games matching ``where`` (SQL on the ``games`` columns), for
        use as a common table expression; checked to be one plain condition."""
        if where is None or not where.strip():
            return "SELECT * FROM games"
        query = f"SELECT * FROM games WHERE {where}"
        check_select(query)
        self.run(f"SELECT count(*) FROM ({query})")  # report a bad filter as such, at once
        return query
