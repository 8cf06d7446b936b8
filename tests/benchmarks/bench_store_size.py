"""Benchmark: bytes per stored game in the event store (issue 21). A script, not a test.

Run: python tests/benchmarks/bench_store_size.py [--games 100] [--live-games 20]
         [--backends sqlite postgres] [--layouts legacy compact keyed] [--breakdown]
         [--postgres-url URL]

For each backend and layout (:mod:`cascadia.application.store_layouts`: ``legacy``, the
library's recorder, one row per event; ``compact``, one row per save keyed by the
game's id, the layout before; ``keyed``, one row per save keyed by a small integer,
what a new store gets) it stores random 4-player games, each in a fresh store, in two
ways:

- **whole**: ``simulate_and_store`` (what ``cascadia simulate`` does): a game is one save;
- **live**: ``--live-games`` games played side by side, one bot command at a time, each
  command saved on its own (``save_game`` after every ``execute``), as a server does.

and prints the bytes per game the store grew by (its size minus the size of the same
store empty):

- SQLite: the pages in use (page count minus free pages, after a WAL checkpoint), and
  the file size after ``VACUUM`` (indexes rebuilt full: a lower bound);
- PostgreSQL: the main fork of every table of the store's schema, of their TOAST tables
  and of all their indexes (``pg_relation_size``), as written (no ``VACUUM``: its
  free-space and visibility maps are fixed costs, not per game).

``--breakdown`` adds the bytes per game of each table and index (SQLite: the ``dbstat``
pages of each; PostgreSQL: each relation's main fork, TOAST tables named ``toast``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cascadia.application.settings import APP_NAME
from cascadia.application.simulation import simulate_and_store
from cascadia.application.store import RECORDER_TOPIC, GameStore
from cascadia.application.store_layouts import SQLITE_LAYOUTS, postgres_layouts
from cascadia.bots.registry import make_bots, recorded_bots
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
NAMES = ["random"] * 4
RECORDERS = {
    "sqlite": {layout.name: layout.recorder for layout in SQLITE_LAYOUTS},
    "postgres": {layout.name: layout.recorder for layout in postgres_layouts(APP_NAME)},
}
Sizer = Callable[[], dict[str, int]]
"""Bytes by measure: the totals, and ``table:NAME`` for each table or index."""


@contextmanager
def fresh_store(backend: str, layout: str, postgres_url: str) -> Iterator[tuple[GameStore, Sizer]]:
    """An empty store of ``layout`` on ``backend`` and a function measuring it, removed afterwards."""
    env = {RECORDER_TOPIC: RECORDERS[backend][layout]}
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as home:
            path = Path(home) / "events.sqlite"
            with GameStore(env={**env, "CASCADIA_DATABASE_URL": f"sqlite:{path}"}) as store:
                yield store, lambda: sqlite_sizes(path)
        return
    import psycopg

    schema = f"cascadia_size_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        with GameStore(env={**env, "CASCADIA_DATABASE_URL": f"{postgres_url}?schema={schema}"}) as store:
            yield store, lambda: postgres_sizes(postgres_url, schema)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def sqlite_sizes(path: Path) -> dict[str, int]:
    """Bytes in use, bytes after ``VACUUM`` (of a copy: the store stays as written), and
    the pages of each table and index."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size, pages, free = (
            conn.execute(f"PRAGMA {pragma}").fetchone()[0]
            for pragma in ("page_size", "page_count", "freelist_count")
        )
        tables = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
        copy = path.with_name("vacuumed.sqlite")
        copy.unlink(missing_ok=True)
        conn.execute("VACUUM INTO ?", [str(copy)])
    vacuumed = copy.stat().st_size
    copy.unlink()
    return {"in use": (pages - free) * page_size, "vacuumed": vacuumed} | {
        f"table:{name}": size for name, size in tables
    }


def postgres_sizes(url: str, schema: str) -> dict[str, int]:
    """The main forks of the schema's tables, their TOAST tables and all their indexes:
    in all, and each."""
    import psycopg

    query = """
        SELECT CASE WHEN n.nspname = %(schema)s THEN c.relname ELSE 'toast' END, pg_relation_size(c.oid)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = %(schema)s AND c.relkind IN ('r', 'i')
           OR c.oid IN (SELECT reltoastrelid FROM pg_class t JOIN pg_namespace tn ON tn.oid = t.relnamespace
                        WHERE tn.nspname = %(schema)s)
           OR c.oid IN (SELECT i.indexrelid FROM pg_index i JOIN pg_class t ON t.reltoastrelid = i.indrelid
                        JOIN pg_namespace tn ON tn.oid = t.relnamespace WHERE tn.nspname = %(schema)s)
    """
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(query, {"schema": schema}).fetchall()
    tables: dict[str, int] = {}
    for name, size in rows:
        tables[f"table:{name}"] = tables.get(f"table:{name}", 0) + size
    return {"as written": sum(size for _, size in rows)} | tables


def store_whole(store: GameStore, games: int) -> int:
    """``games`` games as ``cascadia simulate`` stores them (each game one run of events,
    64 games per transaction); returns how many runs were saved."""
    return sum(stored for _, stored in simulate_and_store(store, range(games), NAMES, GameOptions()))


def store_live(store: GameStore, games: int) -> int:
    """``games`` games played side by side, each bot command saved on its own; returns
    how many saves wrote events."""
    saves = 0
    tables = []
    for seed in range(games):
        game = Game.start(seed, NAMES, None, bots=recorded_bots(NAMES))
        saves += bool(store.save_game(game))
        tables.append((game, make_bots(NAMES, seed)))
    while tables:
        for game, bots in tables:
            game.execute(bots[game.current_player].choose(game))
            saves += bool(store.save_game(game))
        tables = [(game, bots) for game, bots in tables if not game.finished]
    return saves


def measure(backend: str, layout: str, mode: str, games: int, postgres_url: str) -> dict[str, float]:
    """Bytes per game by each of the backend's measures (and of each table), and saves per game."""
    with fresh_store(backend, layout, postgres_url) as (store, sizes):
        empty = sizes()
        saves = (store_whole if mode == "whole" else store_live)(store, games)
        full = sizes()
    return {"saves": saves / games} | {name: (full[name] - empty.get(name, 0)) / games for name in full}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games stored whole")
    parser.add_argument("--live-games", type=int, default=20, help="games stored one command per save")
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--layouts", nargs="+", default=["legacy", "compact", "keyed"])
    parser.add_argument("--breakdown", action="store_true", help="the bytes of each table and index")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    args = parser.parse_args()
    print("random 4-player games; bytes per game the store grew by")
    for backend in args.backends:
        for layout in args.layouts:
            for mode, games in (("whole", args.games), ("live", args.live_games)):
                figures = measure(backend, layout, mode, games, args.postgres_url)
                saves = figures.pop("saves")
                tables = {name[6:]: value for name, value in figures.items() if name.startswith("table:")}
                shown = ", ".join(
                    f"{name} {value:,.0f} B"
                    for name, value in figures.items()
                    if not name.startswith("table:")
                )
                what = f"{backend:8} {layout:7} {mode:5} ({games} games, {saves:.0f} saves/game)"
                print(f"{what}: {shown}", flush=True)
                if args.breakdown:
                    for name, value in sorted(tables.items(), key=lambda item: -item[1]):
                        print(f"    {name:40} {value:9,.0f} B", flush=True)


if __name__ == "__main__":
    main()
