"""The server store's per-process cache of game states: a caller's game is its own."""

from __future__ import annotations

from pathlib import Path

from cascadia.projections.player_view import EVERYTHING
from cascadia.projections.position import format_position
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


def test_a_game_this_process_stored_is_kept_with_its_events_for_a_stream(tmp_path: Path) -> None:
    store = ServerStore(tmp_path)
    try:
        game_id = GameService(store).create([SeatSpec(name="ann"), SeatSpec(name="bob")], {}).game_id
        start = store.game(game_id).version
        assert store.recent(game_id, start) is not None  # nothing after it: nothing to say
        game = store.game(game_id)
        game.execute(game.legal_commands()[0])
        events = game.collect_events()
        store.save_events(events)
        behind, none = store.recent(game_id, start)  # type: ignore[misc]
        assert (behind.version, none) == (start, [])  # stored, but not handed to the cache: behind
        store.stored(game, events)
        game.execute(game.legal_commands()[0])  # the caller's game is its own
        cached, recent = store.recent(game_id, start)  # type: ignore[misc]
        assert cached.version == start + len(events) == store.game(game_id).version
        assert recent == events == store.events(game_id, after=start)
        assert store.recent(game_id, start - len(events) - 200) is None  # not all kept
        assert store.recent(game_id, cached.version + 1) is None  # later than the cache
    finally:
        store.close()


def test_a_game_read_with_its_new_events_is_the_game_as_stored(tmp_path: Path) -> None:
    store, other = ServerStore(tmp_path), ServerStore(tmp_path)  # two processes' stores
    try:
        game_id = GameService(store).create([SeatSpec(name="ann"), SeatSpec(name="bob")], {}).game_id
        seen = store.game(game_id).version
        game = other.game(game_id)
        for _ in range(3):
            game.execute(game.legal_commands()[0])
        other.save_events(game.collect_events())
        events = store.events(game_id, after=seen)
        read = store.game_after(game_id, seen, events)
        assert read.version == game.version == store.game(game_id).version
        assert format_position(read.state, EVERYTHING) == format_position(game.state, EVERYTHING)
        _, recent = store.recent(game_id, seen)  # type: ignore[misc]
        assert recent == events
    finally:
        store.close()
        other.close()
