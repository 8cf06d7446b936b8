"""``cascadia migrate``: games moved between event stores (SQLite <-> PostgreSQL), each
verified in the target; games already there are skipped, conflicts reported."""

from __future__ import annotations

import json

import pytest
from cascadia.application.migrate import MigrationError, MigrationVerifyError, migrate_games, verify
from cascadia.application.store import GameStore
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game

pytest_plugins = ["store_backends"]

BOTS = ["random", "random"]


@pytest.fixture
def source(tmp_path):
    """A SQLite store with three finished games and one half-played game."""
    with GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{tmp_path}/source/"}) as store:
        for seed in (1, 2, 3):
            store.save_game(play_game(seed, BOTS))
        unfinished = Game.start(4, 2)
        bots = [RandomBot(4, seat) for seat in range(2)]
        for _ in range(6):
            bots[unfinished.current_player].play_turn(unfinished)
        store.save_game(unfinished)
        yield store


def outcomes(results) -> list[str]:
    return [result.outcome for result in results]


def test_games_are_copied_verified_and_skipped_the_second_time(source, game_store):
    first = list(migrate_games(source, game_store))
    assert outcomes(first) == ["copied"] * 4
    for game_id, _ in source.started_games():
        assert game_store.game_events(game_id) == source.game_events(game_id)
        assert game_store.game(game_id).state == source.game(game_id).state
    assert sum(r.written for r in first) == sum(len(source.game_events(g)) for g, _ in source.started_games())
    assert outcomes(migrate_games(source, game_store)) == ["identical"] * 4
    assert [gid for gid, _ in game_store.started_games()] == [gid for gid, _ in source.started_games()]


def test_a_game_that_went_on_is_extended_and_a_different_one_is_a_conflict(source, game_store):
    list(migrate_games(source, game_store))
    ids = [gid for gid, _ in source.started_games()]
    unfinished = source.game(ids[3])
    bots = [RandomBot(5, seat) for seat in range(2)]
    for _ in range(3):
        bots[unfinished.current_player].play_turn(unfinished)
    source.save_game(unfinished)
    rival = game_store.game(ids[3])  # the target's copy goes another way
    for _ in range(2):
        RandomBot(9, rival.current_player).play_turn(rival)
    game_store.save_game(rival)
    source.save_game(Game.start(50, 3))
    results = list(migrate_games(source, game_store))
    assert outcomes(results) == ["identical", "identical", "identical", "conflict", "copied"]
    conflict = results[3]
    assert conflict.written == 0 and conflict.detail.startswith("differs at event ")
    assert game_store.game(ids[3]).state == rival.state  # left alone

    # and a game that only went on in the source is extended
    with GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{source.env['SQLITE_DBNAME']}.copy"}) as other:
        head = source.game_events(ids[3])[:20]
        other.save_events(head)
        (result,) = migrate_games(source, other, [ids[3]])
        assert (result.outcome, result.written) == ("extended", len(source.game_events(ids[3])) - 20)


def test_verification_catches_a_target_that_differs(source, tmp_path):
    game_id = next(gid for gid, _ in source.started_games())
    events = source.game_events(game_id)
    with GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{tmp_path}/t.db"}) as target:
        target.save_events(events[:-1])
        with pytest.raises(MigrationVerifyError, match="differs from the source"):
            verify(target, game_id, events)


def test_source_and_target_must_differ(source):
    same = GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{source.env['SQLITE_DBNAME']}"})
    with pytest.raises(MigrationError, match="same store"):
        list(migrate_games(source, same))


def test_the_migrate_command(cascadia, source, database_url, tmp_path):
    origin = f"sqlite:{source.env['SQLITE_DBNAME']}"
    code, out, err = cascadia("migrate", "--from", origin, "--to", database_url)
    assert code == 0, err
    assert out.startswith("4 game(s): 4 copied, 0 extended, 0 already there, 0 conflict(s)")
    code, out, err = cascadia("migrate", "--from", origin, "--to", database_url, "--json")
    summary = json.loads(out)
    assert (summary["identical"], summary["copied"], summary["conflicts"]) == (4, 0, [])
    # back again, from the store the environment configures into a new SQLite directory
    code, out, err = cascadia(
        "migrate", "--to", f"sqlite:{tmp_path}/back/", env={"CASCADIA_DATABASE_URL": database_url}
    )
    assert code == 0 and "4 copied" in out, err
    # a conflict: exit 1, a line on stderr for the game
    with GameStore(env={"CASCADIA_DATABASE_URL": database_url}) as target:
        extra = Game.start(60, 2)
        target.save_game(extra)
    rival = Game.start(60, 3, game_id=extra.id)
    with GameStore(env={"CASCADIA_DATABASE_URL": f"sqlite:{tmp_path}/rival.db"}) as rival_store:
        rival_store.save_game(rival)
    code, out, err = cascadia("migrate", "--from", f"sqlite:{tmp_path}/rival.db", "--to", database_url)
    assert code == 1
    assert err.splitlines()[0].startswith(f"conflict: game {extra.id} differs at event 1")
    assert err.splitlines()[-1] == "error: 1 game(s) differ in the target and were not migrated"
    code, out, err = cascadia("migrate", "--from", origin, "--to", origin)
    assert code == 1 and err.startswith("error: source and target are the same store")
    code, out, err = cascadia("migrate", "--to", "oracle://x")
    assert code == 1 and "not supported" in err
