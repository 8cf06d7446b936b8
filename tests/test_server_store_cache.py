"""The server store's per-process cache of game states: a caller's game is its own."""

from __future__ import annotations

from pathlib import Path

from cascadia.server.games import GameService, SeatSpec
from cascadia.server.store import ServerStore


def test_a_game_played_on_after_it_is_stored_leaves_the_cache_at_what_is_stored(tmp_path: Path) -> None:
    store = ServerStore(tmp_path)
    try:
        game_id = GameService(store).create([SeatSpec(name="ann"), SeatSpec(name="bob")], {}).game_id
        game = store.game(game_id)
        game.execute(game.legal_commands()[0])
        store.save_events(game.collect_events())
        stored = game.version
        game.execute(game.legal_commands()[0])  # played on, never stored (say, a lost race)
        again = store.game(game_id)
        assert (again.version, again.state.version) == (stored, stored)
        assert [e.originator_version for e in store.events(game_id)][-1] == stored
    finally:
        store.close()


def test_reading_a_game_twice_gives_two_games_to_play_on(tmp_path: Path) -> None:
    store = ServerStore(tmp_path)
    try:
        game_id = GameService(store).create([SeatSpec(name="ann"), SeatSpec(name="bob")], {}).game_id
        first, second = store.game(game_id), store.game(game_id)
        first.execute(first.legal_commands()[0])
        assert second.version == store.game(game_id).version < first.version
    finally:
        store.close()
