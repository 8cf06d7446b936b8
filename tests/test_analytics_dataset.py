"""The analytics dataset (analytics/SCHEMA.md, "Files"): DuckDB, pyarrow and polars read the
same rows and types from it, an interrupted batch is invisible by the documented rule,
a batch written again is replaced, the bytes are reproducible, an unknown schema version
is refused, and the first layout's files are still read."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from cascadia.analytics import schema, storage
from cascadia.analytics.dataset import DatasetVersionError
from cascadia.analytics.ingest import ingest_games
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.rows import BatchColumns
from cascadia.analytics.stats import bot_stats
from cascadia.analytics.storage import AnalyticsStore
from cascadia.bots.registry import play_game
from cascadia.cli.app import app
from cascadia.cli.common import run_app
from cascadia.domain.game import Game

STUDY = "study-a"
STUDY_BATCH = "study-a-000001"


def _games(seeds: range, players: int) -> list[Game]:
    return [play_game(seed, ["random"] * players) for seed in seeds]


def _tables(games: list[Game], batch: str) -> dict[str, pa.Table]:
    """A batch's tables, as a study builds them."""
    columns = BatchColumns()
    for game in games:
        columns.add_game(game.collect_events(), game.state)
    return columns.tables(batch)


def _write(home: Path, tables: dict[str, pa.Table], batch: str, source: str = STUDY) -> None:
    store = AnalyticsStore(home)
    with store.writing():
        store.write_batch(tables, batch, source=source)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two ingest batches (one of 1 to 4 players, one of 2) and a study's batch of 3 players."""
    home = tmp_path_factory.mktemp("dataset")
    ingest_games(home, [game for n in (1, 2, 3, 4) for game in _games(range(2), n)])
    ingest_games(home, _games(range(10, 12), 2))
    _write(home, _tables(_games(range(20, 23), 3), STUDY_BATCH), STUDY_BATCH)
    return home


# -- the three readers, each as SCHEMA.md shows it ---------------------------------------------

KEYS_DUCKDB = "{'players': TINYINT, 'source': VARCHAR}"
KEYS_PYARROW = ds.partitioning(pa.schema([("players", pa.int8()), ("source", pa.string())]), flavor="hive")
KEYS_POLARS = {"players": pl.Int8, "source": pl.String}


def _committed(root: Path) -> list[str]:
    return [path.stem for path in (root / "_commits").glob("*.json")]


def read_duckdb(root: Path, table: str, typed: bool = True) -> pl.DataFrame:
    types = f", hive_types = {KEYS_DUCKDB}" if typed else ""
    relation = duckdb.sql(
        f"""SELECT * FROM read_parquet('{root}/{table}/**/*.parquet', hive_partitioning = true,
                                       union_by_name = true{types})
            WHERE batch IN (SELECT parse_filename(file, true) FROM glob('{root}/_commits/*.json'))"""
    )
    return pl.from_arrow(relation.to_arrow_table())  # type: ignore[return-value]


def read_pyarrow(root: Path, table: str, typed: bool = True) -> pl.DataFrame:
    dataset = ds.dataset(root / table, format="parquet", partitioning=KEYS_PYARROW if typed else "hive")
    return pl.from_arrow(dataset.to_table(filter=ds.field("batch").isin(_committed(root))))  # type: ignore[return-value]


def read_polars(root: Path, table: str, typed: bool = True) -> pl.DataFrame:
    frame = pl.scan_parquet(
        f"{root}/{table}/**/*.parquet", hive_partitioning=True, hive_schema=KEYS_POLARS if typed else None
    )
    return frame.filter(pl.col("batch").is_in(_committed(root))).collect()


READERS: dict[str, Callable[..., pl.DataFrame]] = {
    "duckdb": read_duckdb,
    "pyarrow": read_pyarrow,
    "polars": read_polars,
}

KEY_COLUMNS = {
    schema.GAMES: ["game_id", "seed", "winning_score", "names"],
    schema.PLAYERS: ["game_id", "seat", "total", "achievements"],
    schema.EVENTS: ["game_id", "sequence", "type", "fills"],
    schema.PLACEMENTS: ["game_id", "turn", "player", "tile", "wildlife"],
}
"""Columns compared value by value (with the partition keys), sorted by the first ones."""


def _per_partition(frame: pl.DataFrame) -> dict[tuple[int, str], int]:
    counts = frame.group_by("players", "source").len().rows()
    return {(int(players), str(source)): n for players, source, n in counts}


def _values(frame: pl.DataFrame, table: str) -> list[tuple[Any, ...]]:
    columns = [*KEY_COLUMNS[table], "players", "source"]
    rows = frame.select(columns).with_columns(pl.col("players").cast(pl.Int64)).rows()
    return sorted(rows, key=lambda row: tuple(str(v) for v in row))


def _sql_frame(home: Path, table: str) -> pl.DataFrame:
    """``table`` as ``cascadia sql`` sees it."""
    with AnalyticsDB(home) as db:
        return pl.from_arrow(db.con.sql(f"SELECT * FROM {table}").to_arrow_table())  # type: ignore[return-value]


@pytest.mark.parametrize("table", schema.TABLES)
def test_three_readers_read_the_same_rows_and_types(home: Path, table: str) -> None:
    root = home / "analytics"
    frames = {name: read(root, table) for name, read in READERS.items()}
    frames["cascadia sql"] = _sql_frame(home, table)
    expected = pl.from_arrow(schema.dataset_schema(table).empty_table()).schema
    for name, frame in frames.items():
        assert frame.schema == expected, name
    counts = {name: _per_partition(frame) for name, frame in frames.items()}
    assert counts["duckdb"] == counts["pyarrow"] == counts["polars"] == counts["cascadia sql"]
    assert set(counts["duckdb"]) == {
        (1, "ingest"),
        (2, "ingest"),
        (3, "ingest"),
        (4, "ingest"),
        (3, STUDY),
    }
    values = {name: _values(frame, table) for name, frame in frames.items()}
    assert values["duckdb"] == values["pyarrow"] == values["polars"] == values["cascadia sql"]


@pytest.mark.parametrize("table", schema.TABLES)
def test_inferred_partition_types_give_the_same_rows(home: Path, table: str) -> None:
    """Without the declared key types each reader picks its own integer type for ``players``
    (SCHEMA.md says which); the rows and values are the same."""
    root = home / "analytics"
    frames = [read(root, table, typed=False) for read in READERS.values()]
    assert len({frame.height for frame in frames}) == 1
    assert _values(frames[0], table) == _values(frames[1], table) == _values(frames[2], table)


def test_files_store_the_schema_version_and_not_the_keys(home: Path) -> None:
    root = home / "analytics"
    description = json.loads((root / "dataset.json").read_text())
    assert description["schema_version"] == schema.SCHEMA_VERSION
    assert [key["name"] for key in description["partition_keys"]] == schema.PARTITION_KEYS.names
    files = list(root.glob("*/players=*/source=*/*.parquet"))
    assert len(files) == 4 * (4 + 1 + 1)  # 4 tables: 4 partitions, then 1, then the study's 1
    for path in files:
        metadata = pq.read_metadata(path)
        assert metadata.metadata[b"cascadia.schema"] == str(schema.SCHEMA_VERSION).encode()
        assert not set(schema.PARTITION_KEYS.names) & set(metadata.schema.names)
    marker = json.loads((root / "_commits" / f"{STUDY_BATCH}.json").read_text())
    assert marker["source"] == STUDY and sum(marker["files"].values()) > 0
    assert all((root / name).is_file() for name in marker["files"])


def test_sql_and_stats_over_the_dataset(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with AnalyticsDB(home) as db:
        assert db.run("SELECT source, count(*) FROM games GROUP BY ALL ORDER BY ALL").rows == [
            ("ingest", 10),
            (STUDY, 3),
        ]
        assert {r["players"] for r in bot_stats(db, "source = 'ingest'")} == {1, 2, 3, 4}
    for command in (["sql", "SELECT players, count(*) AS n FROM players GROUP BY ALL"], ["stats", "seats"]):
        monkeypatch.setattr(sys, "argv", ["cascadia", *command, "--home", str(home)])
        assert run_app(app) == 0
        assert capsys.readouterr().err == ""


# -- commits, replacement, reproducible bytes ------------------------------------------------------


@pytest.mark.parametrize("renames", [3, 8], ids=["halfway-through-the-renames", "before-the-marker"])
def test_an_interrupted_batch_is_invisible_then_cleared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renames: int
) -> None:
    ingest_games(tmp_path, _games(range(2), 2))
    root = tmp_path / "analytics"
    real_replace = os.replace
    done = 0

    def crash(source: Any, target: Any) -> None:
        nonlocal done
        if done == renames:
            raise OSError("disk gone")
        done += 1
        real_replace(source, target)

    monkeypatch.setattr(storage.os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):  # 8 files (2 partitions), then the marker
        _write(tmp_path, _tables(_games(range(8, 10), 3) + _games(range(8, 9), 1), "broken"), "broken")
    monkeypatch.setattr(storage.os, "replace", real_replace)

    with AnalyticsDB(tmp_path) as db:
        assert db.run("SELECT count(*), count(DISTINCT batch) FROM players").rows == [(4, 1)]
        committed = sum(db.run(f"SELECT count(*) FROM {table}").rows[0][0] for table in schema.TABLES)
    for name, read in READERS.items():
        frames = [read(root, table) for table in schema.TABLES]
        assert all(set(frame["players"]) == {2} for frame in frames), name
        assert sum(frame.height for frame in frames) == committed, name
    raw = duckdb.sql(f"SELECT count(*) FROM read_parquet('{root}/*/**/*.parquet', union_by_name = true)")
    assert raw.fetchall()[0][0] > committed  # a raw glob sees the uncommitted files (SCHEMA.md)
    store = AnalyticsStore(tmp_path)
    assert len(store.ingested_game_ids()) == 2 and len(store.committed_batches()) == 1

    report = ingest_games(tmp_path, _games(range(8, 10), 3))  # the next writer clears the leftovers
    assert (report.ingested, report.already) == (2, 0)
    left = [p.name for p in root.rglob("*") if p.is_file()]
    assert not any(name.startswith("broken") or name.endswith(".tmp") for name in left)


def test_writing_a_batch_again_replaces_it(tmp_path: Path) -> None:
    _write(tmp_path, _tables(_games(range(3), 3), "s-000001"), "s-000001", "s")
    _write(tmp_path, _tables(_games(range(3, 5), 2) + _games(range(3, 4), 4), "s-000001"), "s-000001", "s")
    root = tmp_path / "analytics"
    with AnalyticsDB(tmp_path) as db:
        assert db.run("SELECT players, count(*) FROM games GROUP BY ALL ORDER BY ALL").rows == [
            (2, 2),
            (4, 1),
        ]
    assert sorted(p.parent.parent.name for p in root.glob("games/*/*/*.parquet")) == [
        "players=2",
        "players=4",
    ]
    marker = json.loads((root / "_commits" / "s-000001.json").read_text())
    assert sorted(marker["files"]) == sorted(
        p.relative_to(root).as_posix() for p in root.glob("*/*/*/*.parquet")
    )


def test_the_same_rows_and_batch_id_give_the_same_bytes(tmp_path: Path) -> None:
    games = [_games(range(2), 2) + _games(range(2), 3) for _ in range(2)]  # the same games, played twice
    for name, played in zip(("a", "b"), games, strict=True):
        _write(tmp_path / name, _tables(played, "s-000007"), "s-000007", "s")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) > 8
    for path in files:
        assert (tmp_path / "a" / path).read_bytes() == (tmp_path / "b" / path).read_bytes(), path


def test_write_batch_checks_its_arguments(tmp_path: Path) -> None:
    tables = _tables(_games(range(1), 2), "s-1")
    store = AnalyticsStore(tmp_path)
    with pytest.raises(RuntimeError, match="writing"):
        store.write_batch(tables, "s-1", source="s")
    with store.writing():
        for batch, source in (("../x", "s"), (".hidden", "s"), ("s-1", "Study"), ("s-1", "2025")):
            with pytest.raises(ValueError, match="invalid"):
                store.write_batch(tables, batch, source=source)
        with pytest.raises(ValueError, match="batch column"):
            store.write_batch(tables, "s-2", source="s")
    assert not (tmp_path / "analytics" / "_commits").exists()


# -- versions and the first layout -----------------------------------------------------------------


def test_an_unknown_schema_version_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ingest_games(tmp_path, _games(range(1), 2))
    description = tmp_path / "analytics" / "dataset.json"
    data = json.loads(description.read_text())
    description.write_text(json.dumps({**data, "schema_version": 99}))
    with pytest.raises(DatasetVersionError, match="schema version 99, this cascadia reads version 1"):
        AnalyticsDB(tmp_path)
    with pytest.raises(DatasetVersionError):
        ingest_games(tmp_path, _games(range(1, 2), 2))
    monkeypatch.setattr(sys, "argv", ["cascadia", "sql", "SELECT 1", "--home", str(tmp_path)])
    assert run_app(app) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "schema version 99" in err
    description.write_text(json.dumps({**data, "format": "something-else"}))
    with pytest.raises(DatasetVersionError, match="not a cascadia-analytics dataset"):
        AnalyticsDB(tmp_path)


def _write_legacy(home: Path, games: list[Game], batch: str, tables: tuple[str, ...] = schema.TABLES) -> None:
    """Files as the first layout's ingest wrote them: every column, straight under the table."""
    rows = _tables(games, batch)
    for table in tables:
        folder = home / "analytics" / table
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(rows[table], folder / f"batch-{batch}.parquet", compression="zstd")


def test_the_first_layout_is_still_read(tmp_path: Path) -> None:
    _write_legacy(tmp_path, _games(range(2), 3) + _games(range(2), 4), "20250101T000000-0000aaaa")
    _write_legacy(
        tmp_path, _games(range(5, 6), 2), "20250101T000001-0000bbbb", (schema.PLAYERS,)
    )  # interrupted
    report = ingest_games(tmp_path, _games(range(2), 3) + _games(range(2), 2))
    assert (report.ingested, report.already) == (2, 2)  # the legacy games count as ingested
    assert not list((tmp_path / "analytics" / "players").glob("batch-*bbbb.parquet"))  # cleared
    with AnalyticsDB(tmp_path) as db:
        assert db.run("SELECT players, source, count(*) FROM games GROUP BY ALL ORDER BY ALL").rows == [
            (2, "ingest", 2),
            (3, "ingest", 2),
            (4, "ingest", 2),
        ]
        counts = "SELECT players, count(*) FROM {} GROUP BY ALL ORDER BY ALL"
        assert db.run(counts.format("players")).rows == [(2, 4), (3, 6), (4, 8)]
        assert db.run(counts.format("placements")).rows == [(2, 2 * 40), (3, 2 * 60), (4, 2 * 80)]
        described = {row[0]: row[1] for row in db.run("DESCRIBE events").rows}
        assert (described["players"], described["source"]) == ("TINYINT", "VARCHAR")
        assert list(described)[-2:] == ["players", "source"]
    assert len(AnalyticsStore(tmp_path).ingested_game_ids()) == 6
