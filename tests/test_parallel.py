"""Parallel and sharded simulation: ``--workers K`` stores exactly what one worker
stores, and the shards of a seed range, stored apart and combined, equal one run
over the whole range (event stores, exported logs and analytics tables alike)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cascadia.application.simulation import store_games
from cascadia.application.store import GameStore
from cascadia.application.transcoder import MsgpackTranscoder
from cascadia.bots.registry import bot_game_id, play_game
from cascadia.bots.simulation import Shard, final_state_and_sheet, parse_seed_range, simulate_games
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state
from eventsourcing.persistence import Mapper

pytest_plugins = ["store_backends"]

NAMES = ["random", "random"]


def msgpack_mapper() -> Mapper:
    """A mapper like a default store's, but not any store's own."""
    return Mapper(transcoder=MsgpackTranscoder())


@pytest.mark.parametrize("count", [1, 2, 3, 7])
@pytest.mark.parametrize(("start", "stop"), [(0, 20), (5, 23), (1000, 1001)])
def test_shards_split_a_range_exactly(start, stop, count):
    parts = [list(Shard(index, count).seeds(start, stop)) for index in range(count)]
    assert sorted(seed for part in parts for seed in part) == list(range(start, stop))
    for index, part in enumerate(parts):
        assert all(seed % count == index for seed in part)


@pytest.mark.parametrize("text", ["1", "a/2", "2/2", "0/0", "-1/3", "1/2/3"])
def test_a_bad_shard_is_refused(text):
    with pytest.raises(InvalidOptionError):
        Shard.parse(text)


def test_seed_ranges():
    assert parse_seed_range("0:1000000") == (0, 1_000_000)
    for text in ("5", "5:5", "7:3", "a:b", "-1:4"):
        with pytest.raises(InvalidOptionError):
            parse_seed_range(text)


def test_workers_yield_the_same_games_in_seed_order():
    seeds = [3, 1, 4, 15, 9, 2, 6, 5, 35, 8]
    skipped = {bot_game_id(4, NAMES, GameOptions()), bot_game_id(35, NAMES, GameOptions())}
    common = {"skip": skipped.__contains__, "summarize": final_state_and_sheet, "mapper": msgpack_mapper()}
    one = list(simulate_games(seeds, NAMES, GameOptions(), workers=1, **common))
    two = list(simulate_games(seeds, NAMES, GameOptions(), workers=2, batch=3, **common))
    assert [r.seed for r in two] == seeds
    assert [r.skipped for r in two] == [s in (4, 35) for s in seeds]
    assert one == two  # same ids, same events byte for byte, same summaries, same order
    game = play_game(15, NAMES)
    played = next(r for r in two if r.seed == 15)
    assert played.events() == game.collect_events()
    assert played.summary == (game.state, score_state(game.state))


def stored_games(store: GameStore) -> dict[str, list]:
    """Every game of ``store`` as its id and list of events."""
    return {str(gid): store.game_events(gid) for gid, _ in store.started_games()}


def test_simulate_with_two_workers_stores_what_one_worker_stores(cascadia, tmp_path):
    args = ("simulate", "--seeds", "10:18", "-p", "2", "--json")
    code, one, _ = cascadia(*args, "--home", str(tmp_path / "one"))
    assert code == 0
    code, two, _ = cascadia(*args, "--workers", "2", "--home", str(tmp_path / "two"))
    assert code == 0 and one == two
    assert [json.loads(line)["seed"] for line in two.splitlines()] == list(range(10, 18))
    first, second = GameStore(tmp_path / "one"), GameStore(tmp_path / "two")
    assert list(stored_games(first).items()) == list(stored_games(second).items())  # same order too
    more = ("simulate", "--seeds", "10:20", "-p", "2", "-w", "2", "--home", str(tmp_path / "two"))
    code, out, _ = cascadia(*more)
    assert out.strip().startswith("2 game(s) stored, 8 already stored")
    code, out, err = cascadia(*more, "--seed", "3")
    assert code == 1 and err.startswith("error: give either --seeds")


def run_shards(cascadia, tmp_path: Path, count: int, seeds: str) -> list[Path]:
    homes = []
    for index in range(count):
        home = tmp_path / f"shard{index}"
        code, out, err = cascadia(
            "simulate", "--seeds", seeds, "--shard", f"{index}/{count}", "-p", "2", "--home", str(home)
        )
        assert code == 0, err
        assert f"[shard {index}/{count}]" in out
        homes.append(home)
    return homes


def analytics_tables(cascadia, home: Path) -> dict[str, list]:
    """The rows of the analytics tables (without the batch they were ingested in), sorted."""
    tables = {}
    for table, order in (("games", "game_id"), ("players", "game_id, seat"), ("events", "game_id, sequence")):
        code, out, err = cascadia(
            "sql", f"SELECT * EXCLUDE (batch) FROM {table} ORDER BY {order}", "--json", "--home", str(home)
        )
        assert code == 0, err
        tables[table] = [json.loads(line) for line in out.splitlines()]
    return tables


def test_shards_combined_equal_one_run_over_the_range(cascadia, tmp_path):
    seeds = "0:10"
    code, _, err = cascadia("simulate", "--seeds", seeds, "-p", "2", "--home", str(tmp_path / "full"))
    assert code == 0, err
    homes = run_shards(cascadia, tmp_path, 3, seeds)
    full = stored_games(GameStore(tmp_path / "full"))
    union: dict[str, list] = {}
    for home in homes:
        union.update(stored_games(GameStore(home)))
    assert union == full and sum(len(stored_games(GameStore(h))) for h in homes) == len(full)

    # analytics: each shard's store ingested into one place, twice (the second adds nothing)
    combined = tmp_path / "combined"
    for home in [*homes, homes[0]]:
        code, out, err = cascadia(
            "ingest", "--from-store", "--home", str(combined), env={"CASCADIA_DATABASE_URL": f"sqlite:{home}"}
        )
        assert code == 0, err
    assert "0 game(s) ingested" in out
    code, out, err = cascadia("ingest", "--from-store", "--home", str(tmp_path / "full"))
    assert code == 0, err
    reference = analytics_tables(cascadia, tmp_path / "full")
    assert len(reference["games"]) == 10
    assert analytics_tables(cascadia, combined) == reference

    # logs: every shard exported into one folder (one file per game id), ingested together
    logs = tmp_path / "logs"
    for home in homes:
        code, _, err = cascadia("export", "--all", "-o", str(logs), "--home", str(home))
        assert code == 0, err
    assert len(list(logs.iterdir())) == 10
    code, out, err = cascadia("ingest", str(logs), "--home", str(tmp_path / "from_logs"))
    assert code == 0, err
    assert analytics_tables(cascadia, tmp_path / "from_logs") == reference


def test_stored_in_batches_in_seed_order(tmp_path):
    results = list(simulate_games(range(7), NAMES, GameOptions(), mapper=msgpack_mapper()))
    with GameStore(tmp_path) as store:
        store.save_new_game(results[2].events())
        outcome = list(store_games(store, iter(results), batch=3))  # records of another mapper: re-encoded
        assert [(r.seed, saved) for r, saved in outcome] == [(s, s != 2) for s in range(7)]
        assert [p["seed"] for _, p in store.started_games()] == [2, 0, 1, 3, 4, 5, 6]
        assert all(store.game_events(r.game_id) == r.events() for r in results)
