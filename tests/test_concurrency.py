"""Several processes writing to one event store at once (real processes, ``spawn``).

Two writers on the same game: exactly one of two simultaneous appends wins, the other
gets :class:`GameConflictError`, reloads and retries, and in the end every turn either
of them saved is stored exactly once, in order. Writers on different games: all land.
Both on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import multiprocessing
from typing import Any
from uuid import UUID

from cascadia.application.store import GameConflictError, GameStore
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game

pytest_plugins = ["store_backends"]

SPAWN = multiprocessing.get_context("spawn")
TIMEOUT = 60


def turn_writer(
    env: dict[str, str], game_id: UUID, writer: int, turns: int, barrier: Any, results: Any
) -> None:
    """Play ``turns`` turns of the stored game, each loaded fresh and saved at once; on a
    conflict, reload and play the turn again. The first save waits at ``barrier`` so that
    both writers append from the same version. Reports the batches it saved and how
    many conflicts it met."""
    saved: list[list[tuple[int, str, dict[str, Any]]]] = []
    conflicts = 0
    try:
        with GameStore(env=env) as store:
            for turn in range(turns):
                attempt = 0
                while True:
                    game = store.game(game_id)
                    RandomBot(1000 * writer + 10 * turn + attempt, game.current_player).play_turn(game)
                    if turn == 0 and attempt == 0:
                        barrier.wait(TIMEOUT)
                    events = game.collect_events()
                    try:
                        store.save_events(events)
                    except GameConflictError:
                        conflicts += 1
                        attempt += 1
                        continue
                    saved.append([(e.originator_version, e.type, e.payload()) for e in events])
                    break
        results.put((writer, saved, conflicts, None))
    except Exception as error:  # reported to the test, which fails on it
        results.put((writer, saved, conflicts, f"{type(error).__name__}: {error}"))


def game_writer(env: dict[str, str], seeds: list[int], barrier: Any, results: Any) -> None:
    """Play and store one game per seed, all starting together with the other writers."""
    try:
        games = [play_game(seed, ["random", "random"]) for seed in seeds]
        with GameStore(env=env) as store:
            barrier.wait(TIMEOUT)
            for game in games:
                store.save_game(game)
        results.put((seeds, None))
    except Exception as error:
        results.put((seeds, f"{type(error).__name__}: {error}"))


def run_processes(target: Any, arguments: list[tuple[Any, ...]], results: Any) -> list[Any]:
    """Start one process per argument tuple, collect one result from each, join them all."""
    processes = [SPAWN.Process(target=target, args=args) for args in arguments]
    for process in processes:
        process.start()
    try:
        outcomes = [results.get(timeout=TIMEOUT) for _ in processes]
    finally:
        for process in processes:
            process.join(TIMEOUT)
            if process.is_alive():
                process.kill()
    assert all(p.exitcode == 0 for p in processes)
    return outcomes


def test_two_writers_on_one_game_one_wins_the_other_retries(game_store, store_env):
    game = Game.start(31, 2)
    game_store.save_game(game)
    setup = game.version
    turns = 3
    barrier, results = SPAWN.Barrier(2), SPAWN.Queue()
    outcomes = run_processes(
        turn_writer, [(store_env, game.id, writer, turns, barrier, results) for writer in (1, 2)], results
    )
    assert [error for *_, error in outcomes] == [None, None]
    conflicts = {writer: count for writer, _, count, _ in outcomes}
    assert sum(conflicts.values()) >= 1  # the first, simultaneous, append: only one won
    batches = sorted(batch for _, saved, _, _ in outcomes for batch in saved)
    assert len(batches) == 2 * turns  # every turn of both writers was saved in the end

    stored = game_store.game_events(game.id)
    assert [e.originator_version for e in stored] == list(range(1, len(stored) + 1))
    written = [(e.originator_version, e.type, e.payload()) for e in stored[setup:]]
    assert written == [event for batch in batches for event in batch]  # none lost, none twice
    final = game_store.game(game.id)
    assert final.state.turn == game.state.turn + 2 * turns
    assert Game.replay(stored).state == final.state


def test_writers_of_different_games_all_land(game_store, store_env):
    seeds = [list(range(start, 40, 4)) for start in range(4)]
    barrier, results = SPAWN.Barrier(len(seeds)), SPAWN.Queue()
    outcomes = run_processes(game_writer, [(store_env, part, barrier, results) for part in seeds], results)
    assert [error for _, error in outcomes] == [None] * len(seeds)
    stored = dict(game_store.started_games())
    assert sorted(payload["seed"] for payload in stored.values()) == list(range(40))
    for seed in (0, 17, 39):
        expected = play_game(seed, ["random", "random"])
        assert game_store.game(expected.id).state == expected.state
    total = sum(len(game_store.game_events(game_id)) for game_id in stored)
    notifications = game_store.recorder.select_notifications(1, total + 10)
    assert len(notifications) == total
