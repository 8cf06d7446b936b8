"""Ingest: idempotent, incremental, atomic per batch, the same tables from the store and from
exported logs, damaged logs reported and skipped, the store followed by its notification log."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from cascadia.analytics import schema
from cascadia.analytics.collector import YOUNG_COLLECTION
from cascadia.analytics.ingest import Ingest, ingest_games, ingest_logs
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.storage import AnalyticsBusyError, AnalyticsStore
from cascadia.application.game_logs import export_game
from cascadia.application.ingest import ingest_store
from cascadia.application.store import GameStore
from cascadia.bots.registry import make_bots, play_game
from cascadia.cli.app import app
from cascadia.cli.common import run_app
from cascadia.domain.game import Game
from cascadia.replays.files import log_name

SEEDS = range(6)
BOTS = ["random", "random", "random"]


def _games(seeds: range = SEEDS, bots: list[str] = BOTS) -> list[Game]:
    return [play_game(seed, bots) for seed in seeds]


def _tables(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored table without its batch column, sorted: comparable across homes."""
    with AnalyticsDB(home) as db:
        return {t: db.run(f"SELECT * EXCLUDE (batch) FROM {t} ORDER BY ALL").rows for t in schema.TABLES}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameStore, list[Game]]:
    """An event store holding the SEEDS games (finished), and their exported logs."""
    home = tmp_path_factory.mktemp("store")
    store = GameStore(home)
    games = _games()
    for game in games:
        store.save_game(game)
    logs = home / "logs"
    logs.mkdir()
    for game in games:
        export_game(store, game.id, logs / log_name(game.id))
    return home, store, games


def test_rows_of_a_game(tmp_path: Path) -> None:
    game = play_game(7, ["random", "random"])
    events = game.collect_events()
    ingest_games(tmp_path, [events])
    with AnalyticsDB(tmp_path) as db:
        g = db.records("SELECT * FROM games")[0]
        assert (g["game_id"], g["players"], g["turns"], g["events"]) == (str(game.id), 2, 40, len(events))
        assert g["first_player"] == game.state.first_player
        assert {s: g[f"{s}_card"] for s in game.state.cards} == game.state.cards
        players = db.records("SELECT * FROM players ORDER BY seat")
        for seat, (row, player) in enumerate(zip(players, game.state.players, strict=True)):
            assert row["turn_position"] == (seat - game.state.first_player) % 2
            assert row["nature_left"] == player.nature_tokens
            assert row["nature_earned"] - row["nature_spent"] == row["nature_left"]
            assert row["total"] == row["wildlife_total"] + row["habitat_total"] + row["nature_left"]
            assert row["wildlife_total"] == sum(row[c] for c in schema.SPECIES_POINTS)
            tokens = list(player.environment.wildlife.values())
            assert [row[f"{s}_tokens"] for s in ("bear", "elk", "salmon", "hawk", "fox")] == [
                tokens.count(s) for s in ("bear", "elk", "salmon", "hawk", "fox")
            ]
        assert sum(p["won"] for p in players) == g["winners"] >= 1
        counts = dict(db.run("SELECT type, count(*) FROM events GROUP BY type").rows)
        assert counts["TurnEnded"] == counts["TilePlaced"] == 40
        assert db.run("SELECT count(*) FROM placements").rows == [(40,)]
        # every token placed on the tile placed the same turn shows up in placements
        same_tile = db.run(
            """SELECT count(*) FROM events t JOIN events w
               ON t.game_id = w.game_id AND t.turn = w.turn AND t.q = w.q AND t.r = w.r
               WHERE t.type = 'TilePlaced' AND w.type = 'WildlifePlaced'"""
        ).rows[0][0]
        assert db.run("SELECT count(wildlife) FROM placements").rows == [(same_tile,)]
        mismatched = db.run(
            """SELECT count(*) FROM players p
               LEFT JOIN (SELECT player, sum(cost) AS spent FROM events
                          WHERE type = 'NatureTokenSpent' GROUP BY player) s ON s.player = p.seat
               LEFT JOIN (SELECT player, count(*) AS earned FROM events
                          WHERE type = 'NatureTokenEarned' GROUP BY player) e ON e.player = p.seat
               WHERE coalesce(s.spent, 0) <> p.nature_spent OR coalesce(e.earned, 0) <> p.nature_earned"""
        ).rows
        assert mismatched == [(0,)]
        first = db.records("SELECT * FROM events WHERE type = 'FirstPlayerChosen'")[0]
        assert (first["player"], first["turn"]) == (game.state.first_player, 0)
        assert db.run("SELECT max(turn) FROM events WHERE type = 'TurnEnded'").rows == [(40,)]
        assert db.run("SELECT extra FROM events WHERE type = 'GameEnded'").rows == [('{"turns":40}',)]


def test_ingest_twice_is_ingest_once(tmp_path: Path) -> None:
    games = _games()
    events = [g.collect_events() for g in games]
    first = ingest_games(tmp_path / "a", events[:4])
    assert (first.ingested, first.already) == (4, 0)
    second = ingest_games(tmp_path / "a", events)  # 2 new, 4 known
    assert (second.ingested, second.already) == (2, 4)
    third = ingest_games(tmp_path / "a", events)
    assert (third.ingested, third.already, third.batches) == (0, 6, [])
    ingest_games(tmp_path / "b", events)
    assert _tables(tmp_path / "a") == _tables(tmp_path / "b")
    assert len(AnalyticsStore(tmp_path / "a").committed_batches()) == 2  # new games add files


def test_game_objects_and_small_batches(tmp_path: Path) -> None:
    report = ingest_games(tmp_path, _games(), batch_games=4)
    assert (report.ingested, len(report.batches)) == (6, 2)
    with pytest.raises(ValueError, match="already collected"):
        ingest_games(tmp_path / "other", [play_game(1, BOTS)] * 2)  # the second time: no events left


def test_store_and_logs_give_identical_tables(
    tmp_path: Path, stored: tuple[Path, GameStore, list[Game]]
) -> None:
    home, store, games = stored
    from_store = ingest_store(tmp_path / "store", store)
    from_logs = ingest_logs(tmp_path / "logs", [home / "logs"])
    assert from_store.ingested == from_logs.ingested == len(games)
    assert _tables(tmp_path / "store") == _tables(tmp_path / "logs")
    in_memory = ingest_games(tmp_path / "memory", _games())
    assert in_memory.ingested == len(games)
    assert _tables(tmp_path / "memory") == _tables(tmp_path / "logs")


def test_damaged_logs_are_reported_and_skipped(
    tmp_path: Path, stored: tuple[Path, GameStore, list[Game]]
) -> None:
    home, _, games = stored
    folder = tmp_path / "logs"
    folder.mkdir()
    for game in games[:3] + games[4:]:  # games[3] only as a truncated copy
        name = log_name(game.id)
        (folder / name).write_bytes((home / "logs" / name).read_bytes())
    damaged = folder / log_name(games[1].id)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0x01
    damaged.write_bytes(bytes(data))
    truncated = folder / "sub" / "truncated.cascadia"
    truncated.parent.mkdir()
    truncated.write_bytes((home / "logs" / log_name(games[3].id)).read_bytes()[:-10])
    (folder / "junk.cascadia").write_text("not a log")
    seen = []
    report = ingest_logs(tmp_path / "a", [folder], on_problem=seen.append)
    assert report.ingested == len(games) - 2
    assert sorted(Path(p.source).name for p in report.corrupt) == sorted(
        [damaged.name, truncated.name, "junk.cascadia"]
    )
    assert seen == report.problems and all("\n" not in p.reason for p in report.problems)
    assert str(games[1].id) not in {r[0] for r in _tables(tmp_path / "a")["games"]}


def test_cli_ingest_exit_codes(
    tmp_path: Path,
    stored: tuple[Path, GameStore, list[Game]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home, _, games = stored
    folder = tmp_path / "logs"
    folder.mkdir()
    for game in games[:3]:
        (folder / log_name(game.id)).write_bytes((home / "logs" / log_name(game.id)).read_bytes())

    def cli(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["cascadia", *args, "--home", str(tmp_path / "a")])
        code = run_app(app)
        out, err = capsys.readouterr()
        return code, out, err

    code, out, err = cli("ingest", str(folder))
    assert code == 0 and "3 game(s) ingested" in out and err == ""
    (folder / "bad.cascadia").write_bytes(b"\x89CASCADIA\r\n\x1a\n\x00\x00")
    code, out, err = cli("ingest", str(folder))
    assert code == 1 and "0 game(s) ingested, 3 already ingested, 1 corrupt" in out
    assert err.count("\n") == 1 and err.startswith(f"skipped {folder / 'bad.cascadia'}: ")
    code, out, err = cli("ingest", str(tmp_path / "missing"))
    assert code == 1 and err.startswith("error: no such log file or folder")


def test_from_store_follows_the_notification_log(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    for game in _games(range(3)):
        store.save_game(game)
    unfinished = Game.start(99, BOTS)
    bots = make_bots(BOTS, 99)
    for _ in range(5):
        bots[unfinished.current_player].play_turn(unfinished)
    store.save_game(unfinished)
    analytics = AnalyticsStore(tmp_path)

    first = ingest_store(tmp_path, store)
    assert (first.ingested, first.already, first.problems) == (3, 0, [])
    position = analytics.tracking_position(store.location)
    assert position > 0
    again = ingest_store(tmp_path, store)
    assert (again.ingested, again.already) == (0, 0)  # resumed after the position: nothing to read

    for game in _games(range(3, 5)):
        store.save_game(game)
    while not unfinished.finished:
        bots[unfinished.current_player].play_turn(unfinished)
    store.save_game(unfinished)  # the unfinished game ends now
    later = ingest_store(tmp_path, store)
    assert later.ingested == 3
    assert analytics.tracking_position(store.location) > position
    with AnalyticsDB(tmp_path) as db:
        assert db.run("SELECT count(*) FROM games").rows == [(6,)]

    (tmp_path / "analytics" / "tracking.json").unlink()  # lost position: idempotent re-read
    rebuilt = ingest_store(tmp_path, store)
    assert (rebuilt.ingested, rebuilt.already) == (0, 6)


def test_an_interrupted_batch_stays_invisible(tmp_path: Path) -> None:
    ingest_games(tmp_path, [g.collect_events() for g in _games(range(2))])
    storage = AnalyticsStore(tmp_path)
    committed = storage.committed_batches()[0]
    # a batch whose games file was never renamed in: its other files must not be read
    for table in (schema.EVENTS, schema.PLAYERS):
        source = storage.files(table)[0]
        (source.parent / "batch-29990101T000000-deadbeef.parquet").write_bytes(source.read_bytes())
    (storage.table_dir(schema.GAMES) / ".batch-x.parquet.tmp").write_bytes(b"partial")
    with AnalyticsDB(tmp_path) as db:
        assert db.run("SELECT count(*), count(DISTINCT batch) FROM players").rows == [(6, 1)]
    assert storage.committed_batches() == [committed]
    report = ingest_games(tmp_path, [g.collect_events() for g in _games(range(2, 3))])
    assert report.ingested == 1
    leftovers = [p.name for t in schema.TABLES for p in storage.table_dir(t).iterdir()]
    assert not any("deadbeef" in name or name.endswith(".tmp") for name in leftovers)


def test_an_ingest_collects_young_garbage_rarely_and_puts_the_thresholds_back(tmp_path: Path) -> None:
    before = gc.get_threshold()
    with Ingest(tmp_path) as run:
        during = gc.get_threshold()
        run.add_games([play_game(1, BOTS)])
    assert during == (YOUNG_COLLECTION, *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), Ingest(tmp_path / "other"):
        raise RuntimeError("interrupted")
    assert gc.get_threshold() == before


def test_one_ingest_at_a_time(tmp_path: Path) -> None:
    with Ingest(tmp_path), pytest.raises(AnalyticsBusyError):
        ingest_games(tmp_path, [])


def test_unfinished_log_is_reported_not_corrupt(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = Game.start(5, BOTS)
    bots = make_bots(BOTS, 5)
    for _ in range(3):
        bots[game.current_player].play_turn(game)
    store.save_game(game)
    export_game(store, game.id, tmp_path / "open.cascadia")
    report = ingest_logs(tmp_path, [tmp_path / "open.cascadia"])
    assert (report.ingested, len(report.unfinished), len(report.corrupt)) == (0, 1, 0)
    assert "has not ended" in report.unfinished[0].reason
