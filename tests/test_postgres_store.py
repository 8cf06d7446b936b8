"""The event store chosen by environment variables: SQLite by default, PostgreSQL by
``CASCADIA_DATABASE_URL``, and every store operation and CLI command the same on both."""

from __future__ import annotations

import json
import sys

import pytest
from cascadia.application.database import (
    DatabaseConfigError,
    DatabaseUrlError,
    database_settings,
    describe,
    store_env,
)
from cascadia.application.settings import resolve_settings
from cascadia.application.store import GameConflictError, GameNotFoundError, GameStore
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game

pytest_plugins = ["store_backends"]

BOTS = ["random", "random"]


# -- the URL and the settings it stands for (no database needed) -------------------------


def test_a_postgres_url_maps_onto_the_library_settings():
    assert database_settings("postgresql://ann:s%40cret@db.example:6543/games?schema=lab") == {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_USER": "ann",
        "POSTGRES_PASSWORD": "s@cret",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "6543",
        "POSTGRES_DBNAME": "games",
        "POSTGRES_SCHEMA": "lab",
    }
    short = database_settings("postgres://bob@localhost/test?connect_timeout=3")
    assert (short["POSTGRES_PORT"], short["POSTGRES_PASSWORD"], short["POSTGRES_CONNECT_TIMEOUT"]) == (
        "5432",
        "",
        "3",
    )
    assert "POSTGRES_SCHEMA" not in short


def test_a_sqlite_url_names_a_file_or_a_data_directory(tmp_path):
    assert database_settings(f"sqlite:{tmp_path}/x.db")["SQLITE_DBNAME"] == f"{tmp_path}/x.db"
    assert database_settings(f"sqlite:{tmp_path}")["SQLITE_DBNAME"] == f"{tmp_path}/events.sqlite"
    assert database_settings(f"sqlite:{tmp_path}/new/")["SQLITE_DBNAME"] == f"{tmp_path}/new/events.sqlite"
    assert database_settings(f"sqlite://{tmp_path}/y.db")["SQLITE_DBNAME"] == f"{tmp_path}/y.db"


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("db.example/games", "no scheme"),
        ("mysql://root@localhost/test", "not supported"),
        ("postgresql://localhost/test", "no user"),
        ("postgresql://ann@/test", "no host"),
        ("postgresql://ann@localhost", "no database name"),
        ("postgresql://ann@localhost:99999/test", "bad port"),
        ("postgresql://ann@localhost:port/test", "bad port"),
        ("postgresql://ann@localhost/a/b", "may not contain"),
        ("postgresql://ann@localhost/test?pool=3", "unknown parameter 'pool'"),
        ("postgresql://ann@localhost/test?schema=a-b", "not a plain identifier"),
        ("postgresql://ann@localhost/test?connect_timeout=soon", "whole seconds"),
        ("postgresql://ann@localhost/test#x", "fragment"),
        ("sqlite:", "names no file"),
    ],
)
def test_a_malformed_url_raises_a_clear_error(url, complaint):
    with pytest.raises(DatabaseUrlError, match=complaint):
        database_settings(url)


def test_messages_never_show_the_password():
    with pytest.raises(DatabaseUrlError) as raised:
        database_settings("postgresql://ann:hunter2@localhost:0x/test")
    assert "hunter2" not in str(raised.value)
    settings = database_settings("postgresql://ann:hunter2@localhost/test?schema=s")
    assert describe(settings) == "postgresql://ann@localhost:5432/test?schema=s"


def test_sqlite_in_the_data_directory_stays_the_default(isolated_env, tmp_path):
    store = GameStore(tmp_path)
    assert store.location == f"sqlite:{tmp_path}/events.sqlite"


def test_the_url_wins_over_the_library_variables_it_sets(isolated_env, tmp_path):
    isolated_env.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    isolated_env.setenv("POSTGRES_SCHEMA", "from_env")
    isolated_env.setenv("CASCADIA_POSTGRES_DBNAME", "prefixed")
    isolated_env.setenv("CASCADIA_DATABASE_URL", "postgresql://ann@h/db")
    settings = resolve_settings(tmp_path)
    assert settings["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert settings["POSTGRES_DBNAME"] == "db" and "CASCADIA_POSTGRES_DBNAME" not in settings
    assert settings["POSTGRES_SCHEMA"] == "from_env"  # not set by the URL: kept
    # an explicit env beats the environment's URL
    assert resolve_settings(tmp_path, {"CASCADIA_DATABASE_URL": f"sqlite:{tmp_path}/"})[
        "SQLITE_DBNAME"
    ] == str(tmp_path / "events.sqlite")


def test_postgres_named_by_the_environment(isolated_env):
    with pytest.raises(DatabaseUrlError, match="neither CASCADIA_DATABASE_URL"):
        store_env("postgres")
    assert store_env("postgres", {"CASCADIA_DATABASE_URL": "postgresql://a@h/d"}) == {
        "CASCADIA_DATABASE_URL": "postgresql://a@h/d"
    }
    assert store_env("postgresql", {"POSTGRES_DBNAME": "d"}) == {
        "CASCADIA_DATABASE_URL": "",
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
    }


def test_no_driver_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)
    with pytest.raises(DatabaseConfigError, match=r"pip install 'cascadia\[postgres\]'"):
        GameStore(env={"CASCADIA_DATABASE_URL": "postgresql://ann@localhost/test"})


def test_bad_url_or_unreachable_server_in_the_cli_is_one_line(cascadia):
    code, out, err = cascadia("games", env={"CASCADIA_DATABASE_URL": "postgresql://nobody@/x"})
    assert code == 1 and err.startswith("error: database URL") and err.count("\n") == 1
    url = "postgresql://postgres@127.0.0.1:1/test?connect_timeout=2"
    code, out, err = cascadia("games", env={"CASCADIA_DATABASE_URL": url})
    assert code == 1 and err.startswith("error: event store: postgresql://postgres@127.0.0.1:1/test")
    assert "Traceback" not in out + err


# -- the same store operations on SQLite and PostgreSQL ----------------------------------


def test_save_and_load_a_game(game_store):
    game = Game.start(21, 3)
    setup = game.version
    assert game_store.save_game(game) == setup
    bots = [RandomBot(21, seat) for seat in range(3)]
    for _ in range(5):
        bots[game.current_player].play_turn(game)
    assert game_store.save_game(game) == game.version - setup
    loaded = game_store.game(game.id)
    assert loaded.state == game.state
    assert (
        game_store.game(game.id, version=setup).state
        == Game.replay(game_store.game_events(game.id, up_to=setup)).state
    )
    assert [e.originator_version for e in game_store.game_events(game.id)] == list(range(1, game.version + 1))
    assert game_store.has_game(game.id)
    assert game_store.find_game(str(game.id)[:8]) == game.id


def test_games_are_listed_in_the_order_stored(game_store):
    games = [play_game(seed, BOTS) for seed in (5, 3, 9)]
    for game in games:
        assert game_store.save_new_game(game.collect_events())
    assert [gid for gid, _ in game_store.started_games(batch=2)] == [g.id for g in games]
    with pytest.raises(GameNotFoundError):
        game_store.game_events(Game.start(77, 2).id)


def test_a_stale_writer_gets_a_conflict_and_nothing_of_its_save(game_store, store_env):
    game = Game.start(4, 2)
    game_store.save_game(game)
    with GameStore(env=store_env) as other:
        mine, theirs = game_store.game(game.id), other.game(game.id)
        RandomBot(1, 0).play_turn(mine)
        RandomBot(2, 0).play_turn(theirs)
        assert other.save_game(theirs) > 0
        with pytest.raises(GameConflictError, match="reload it and try again"):
            game_store.save_game(mine)
        assert game_store.game(game.id).state == theirs.state
        retry = game_store.game(game.id)
        RandomBot(3, 1).play_turn(retry)
        assert game_store.save_game(retry) > 0
        assert other.game(game.id).state == retry.state


def test_storing_the_same_new_game_twice_keeps_one_copy(game_store):
    events = play_game(12, BOTS).collect_events()
    assert game_store.save_new_game(events) is True
    assert game_store.save_new_game(events) is False
    assert game_store.game_events(events[0].originator_id) == events


def test_every_cli_command_on_the_configured_store(cascadia, database_url, tmp_path):
    env = {"CASCADIA_DATABASE_URL": database_url}
    # logs made elsewhere (the default SQLite store of a data directory) ...
    elsewhere, logs = str(tmp_path / "elsewhere"), tmp_path / "logs"
    assert cascadia("simulate", "-n", "2", "-p", "2", "--seed", "40", "--home", elsewhere)[0] == 0
    assert cascadia("export", "--all", "-o", str(logs), "--home", elsewhere)[0] == 0
    # ... imported into the configured store, then simulated on: the same games
    code, out, err = cascadia("import", str(logs), env=env)
    assert code == 0, err
    code, out, _ = cascadia("simulate", "-n", "3", "-p", "2", "--seed", "40", env=env)
    assert code == 0 and out.strip().startswith("1 game(s) stored, 2 already stored")
    assert f"store: {GameStore(env=env).location}" in out.strip().splitlines()
    code, out, _ = cascadia("games", "--json", env=env)
    listed = [json.loads(line) for line in out.splitlines()]
    assert sorted(row["seed"] for row in listed) == [40, 41, 42]
    first = listed[0]["id"]
    code, out, _ = cascadia("show", first[:8], "--json", env=env)
    assert code == 0 and json.loads(out)["game_id"] == first
    again = tmp_path / "again"
    code, out, err = cascadia("export", "--all", "-o", str(again), env=env)
    assert code == 0, err
    assert len(list(again.iterdir())) == 3
    for log in logs.iterdir():  # what went in comes out byte for byte
        assert (again / log.name).read_bytes() == log.read_bytes()
    code, out, err = cascadia("audit", str(again), env=env)
    assert code == 0, err
    home = str(tmp_path / "home")
    code, out, err = cascadia("ingest", "--from-store", "--home", home, env=env)
    assert code == 0 and out.strip().startswith("3 game(s) ingested"), out + err
    code, out, err = cascadia("sql", "SELECT count(*) AS n FROM games", "--json", "--home", home, env=env)
    assert json.loads(out) == {"n": 3}


def test_new_games_in_one_transaction_fall_back_one_by_one_on_a_conflict(game_store):
    games = [play_game(seed, BOTS).collect_events() for seed in (1, 2, 3)]
    assert game_store.save_new_game(games[1])
    assert game_store.save_new_games(games) == [True, False, True]
    assert [gid for gid, _ in game_store.started_games()] == [games[i][0].originator_id for i in (1, 0, 2)]
    assert all(game_store.game_events(g[0].originator_id) == g for g in games)
    assert game_store.save_new_games([]) == []
