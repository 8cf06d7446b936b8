"""SQLite connections that keep their prepared statements.

The ``eventsourcing`` library opens each SQLite connection of its pool with
``cached_statements=True``, which :mod:`sqlite3` takes as a cache of *one* statement:
a connection that ran any other statement since (a save runs four) prepares a read
again, and a save prepares each of its statements every time. In the game server's
workload (``tests/benchmarks/count_requests.py``) more than half the statements were
prepared anew, about 6% of all its instructions. :class:`StatementCachingPool` is the
library's pool with connections opened as the library opens them, but each keeping
:data:`CACHED_STATEMENTS`; :func:`keep_statements` puts one in place of a datastore's
pool before any connection is opened.
"""

from __future__ import annotations

import sqlite3

from eventsourcing.persistence import InterfaceError
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteDatastore,
)

CACHED_STATEMENTS = 32
"""Prepared statements each connection keeps (the store runs fewer than ten kinds)."""


class StatementCachingPool(SQLiteConnectionPool):
    """The library's SQLite connection pool, its connections keeping
    :data:`CACHED_STATEMENTS` prepared statements each."""

    def _create_connection(self) -> SQLiteConnection:
        """A connection as the library's pool opens one (autocommit mode, WAL journal
        for a file, rows as ``sqlite3.Row``), with a statement cache of
        :data:`CACHED_STATEMENTS` instead of one."""
        try:
            connection = sqlite3.connect(
                database=self.db_name,
                uri=True,
                check_same_thread=False,
                isolation_level=None,  # autocommit
                cached_statements=CACHED_STATEMENTS,
                timeout=self.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
            )
        except (sqlite3.Error, TypeError) as error:
            raise InterfaceError(error) from error
        if not self.is_sqlite_memory_mode and not self.is_journal_mode_wal:
            self._use_wal(connection)
        connection.row_factory = sqlite3.Row
        return SQLiteConnection(sqlite_conn=connection, max_age=self.max_age)

    def _use_wal(self, connection: sqlite3.Connection) -> None:
        """Put the database file in WAL mode unless it is already (once per pool)."""
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode;")
        if cursor.fetchone()[0].lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL;")
            self.journal_mode_was_changed_to_wal = True
        self.is_journal_mode_wal = True


def keep_statements(datastore: SQLiteDatastore) -> None:
    """Give ``datastore`` a :class:`StatementCachingPool` with its pool's settings, in
    place of its pool (which must not have opened a connection yet)."""
    pool = datastore.pool
    datastore.pool = StatementCachingPool(
        db_name=pool.db_name,
        lock_timeout=pool.lock_timeout,
        pool_size=pool.pool_size,
        max_overflow=pool.max_overflow,
        pool_timeout=pool.pool_timeout,
        max_age=pool.max_age,
        pre_ping=pool.pre_ping,
    )
    pool.close()
