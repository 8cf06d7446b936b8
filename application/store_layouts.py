"""The layouts an event store's database can be in, and which one a database holds.

Newest first:

- **keyed** (:mod:`cascadia.application.keyed_sqlite`,
  :mod:`cascadia.application.keyed_postgres`): one row per save, its aggregate named by
  a small integer key (a table maps aggregate ids to keys), flat payloads;
- **compact** (:mod:`cascadia.application.compact_sqlite`,
  :mod:`cascadia.application.compact_postgres`): one row per save, its aggregate named
  by its 16-byte id, nested payloads;
- **legacy**: the ``eventsourcing`` library's table of one row per event.

A database is in the first layout whose tables it holds all of, and is read and
written in that layout (``cascadia migrate`` copies it into a new store); a database
holding none of them is new and gets the newest layout.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # psycopg may not be installed
    from eventsourcing.postgres import PostgresDatastore
    from eventsourcing.sqlite import SQLiteDatastore


@dataclass(frozen=True)
class Layout:
    """A layout on one backend: its name, the tables that show it, and its recorder's topic."""

    name: str
    tables: tuple[str, ...]
    recorder: str


SQLITE_AGGREGATES = "stored_aggregates"
SQLITE_SAVES = "stored_saves"
SQLITE_ROWS = "stored_event_rows"
SQLITE_EVENTS = "stored_events"
SQLITE_LAYOUTS = (
    Layout(
        "keyed",
        (SQLITE_AGGREGATES, SQLITE_SAVES),
        "cascadia.application.keyed_sqlite:KeyedSQLiteRecorder",
    ),
    Layout("compact", (SQLITE_ROWS,), "cascadia.application.compact_sqlite:CompactSQLiteRecorder"),
    Layout("legacy", (SQLITE_EVENTS,), "eventsourcing.sqlite:SQLiteApplicationRecorder"),
)


def postgres_table(app_name: str, kind: str) -> str:
    """The PostgreSQL table of ``kind`` (``events``, ``event_rows``, ``aggregates``,
    ``saves``, ``saves_head``) of the application ``app_name``."""
    return f"{app_name.lower() or 'stored'}_{kind}"


def postgres_layouts(app_name: str) -> tuple[Layout, ...]:
    """The layouts of the application ``app_name``'s tables on PostgreSQL, newest first."""
    return (
        Layout(
            "keyed",
            (postgres_table(app_name, "aggregates"), postgres_table(app_name, "saves")),
            "cascadia.application.keyed_postgres:KeyedPostgresRecorder",
        ),
        Layout(
            "compact",
            (postgres_table(app_name, "event_rows"),),
            "cascadia.application.compact_postgres:CompactPostgresRecorder",
        ),
        Layout(
            "legacy",
            (postgres_table(app_name, "events"),),
            "eventsourcing.postgres:PostgresApplicationRecorder",
        ),
    )


def layout_of(tables: Collection[str], layouts: Sequence[Layout]) -> Layout:
    """The layout of a database holding ``tables``: the first of ``layouts`` whose
    tables are all there, else (a new database) the first."""
    return next((layout for layout in layouts if set(layout.tables) <= set(tables)), layouts[0])


def sqlite_tables(datastore: SQLiteDatastore) -> set[str]:
    """The names of the SQLite database's tables."""
    with datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in cursor.fetchall()}


def postgres_tables(datastore: PostgresDatastore) -> set[str]:
    """The names of the tables in the datastore's schema."""
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", [datastore.schema]
        )
        return {row["table_name"] for row in cursor.fetchall()}
