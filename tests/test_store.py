"""The event store (SQLite file under tmp_path) and the msgpack transcoder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID, uuid4

import msgpack
import pytest
from cascadia.application.store import GameConflictError, GameNotFoundError, GameStore
from cascadia.application.transcoder import MsgpackTranscoder, pack, unpack
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game


@pytest.fixture
def store(tmp_path, clean_env):
    """A store on a fresh SQLite file, whatever the environment says."""
    return GameStore(tmp_path)


def play_turns(game: Game, turns: int) -> None:
    bots = [RandomBot(game.state.seed, seat) for seat in range(game.state.player_count)]
    for _ in range(turns):
        bots[game.current_player].play_turn(game)


def test_the_store_is_a_sqlite_file_in_the_home(store, tmp_path):
    assert store.location.startswith("sqlite")
    game = Game.start(1, 2)
    store.save_game(game)
    assert (tmp_path / "events.sqlite").exists()


def test_saved_game_loads_equal_to_the_live_state(store, tmp_path):
    game = Game.start(21, 3)
    setup = game.version
    assert store.save_game(game) == setup
    assert store.save_game(game) == 0  # nothing new
    play_turns(game, 7)
    appended = store.save_game(game)
    assert appended == game.version - setup > 0
    loaded = store.game(game.id)
    assert loaded is not game
    assert loaded.state == game.state
    assert loaded.collect_events() == []
    events = store.game_events(game.id)
    assert [e.originator_version for e in events] == list(range(1, game.version + 1))
    assert Game.replay(events).state == game.state
    # a second store on the same file sees the same game
    assert GameStore(tmp_path).game(game.id).state == game.state


def test_stored_events_are_the_events_played(store):
    game = play_game(8, ["random", "random"])
    events = game.collect_events()
    store.save_events(events)
    assert store.game_events(game.id) == events
    assert store.game(game.id).state == game.state
    assert store.game(game.id, version=10).state == Game.replay(events[:10]).state
    assert store.game_events(game.id, up_to=10) == events[:10]


def test_started_games_lists_every_game_in_order(store):
    ids = []
    for seed in range(5):
        game = Game.start(seed, 2)
        store.save_game(game)
        ids.append(game.id)
    listed = list(store.started_games())
    assert [gid for gid, _ in listed] == ids
    assert [payload["seed"] for _, payload in listed] == list(range(5))
    assert all(payload["players"] == 2 for _, payload in listed)
    assert [gid for gid, _ in store.started_games(batch=2)] == ids


def test_find_game_by_prefix(store):
    game = Game.start(4, 2)
    store.save_game(game)
    text = str(game.id)
    assert store.find_game(text) == game.id
    assert store.find_game(text[:8]) == game.id
    assert store.find_game(text[:4].upper()) == game.id
    assert store.find_game(f"  {text[:6]} ") == game.id
    for bad in ("", "abc", "zzzzzz"):
        with pytest.raises(GameNotFoundError):
            store.find_game(bad)


def test_find_game_refuses_an_ambiguous_prefix(store):
    for n in (1, 2):
        store.save_game(Game.start(n, 2, game_id=UUID(f"abcd0000-0000-4000-8000-00000000000{n}")))
    with pytest.raises(GameNotFoundError):
        store.find_game("abcd")
    assert store.find_game("abcd0000-0000-4000-8000-000000000002") == UUID(
        "abcd0000-0000-4000-8000-000000000002"
    )


def test_unknown_games(store):
    missing = uuid4()
    assert not store.has_game(missing)
    with pytest.raises(GameNotFoundError):
        store.game(missing)
    with pytest.raises(GameNotFoundError):
        store.game_events(missing)


def test_saving_the_same_events_twice_conflicts(store):
    game = Game.start(2, 2)
    events = game.collect_events()
    store.save_events(events)
    assert store.has_game(game.id)
    with pytest.raises(GameConflictError):
        store.save_events(events)
    assert store.game_events(game.id) == events
    assert store.save_new_game(events) is False
    assert store.save_new_game(Game.start(3, 2).collect_events()) is True


def test_two_writers_appending_the_second_conflicts_and_nothing_is_duplicated(store):
    game = Game.start(13, 2)
    store.save_game(game)
    first = store.game(game.id)
    second = store.game(game.id)
    assert first is not second
    play_turns(first, 1)
    play_turns(second, 2)
    assert store.save_game(first) > 0
    with pytest.raises(GameConflictError):
        store.save_game(second)
    events = store.game_events(game.id)
    assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
    assert len(events) == first.version
    assert store.game(game.id).state == first.state


# -- the msgpack transcoder ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        uuid4(),
        UUID(int=0),
        datetime(2026, 11, 30, 12, 0, 1, 123456, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-7))),
        datetime(2026, 1, 2, 3, 4, 5),
        {"id": uuid4(), "at": datetime(2020, 2, 29, tzinfo=UTC), "list": [uuid4(), 1, "x", None]},
        {"fills": [[0, 12, "bear"], [1, None, "elk"]], "cards": {"bear": "A"}, "ok": True},
        {1: "int keys", "big": 2**64 - 1, "neg": -(2**63)},
    ],
)
def test_transcoder_round_trips(value):
    assert unpack(pack(value)) == value
    transcoder = MsgpackTranscoder()
    assert transcoder.decode(transcoder.encode(value)) == value


def test_transcoder_keeps_uuid_and_datetime_types():
    gid = uuid4()
    when = datetime(2026, 5, 6, 7, 8, 9, tzinfo=UTC)
    back = unpack(pack({"gid": gid, "when": when}))
    assert isinstance(back["gid"], UUID) and back["gid"] == gid
    assert isinstance(back["when"], datetime) and back["when"] == when
    assert back["when"].utcoffset() == timedelta(0)


def test_transcoder_tuples_become_lists_and_key_order_is_kept():
    assert unpack(pack((1, (2, 3)))) == [1, [2, 3]]
    data = {"z": 1, "a": 2, "m": 3}
    assert list(unpack(pack(data))) == ["z", "a", "m"]


def test_transcoder_refuses_unknown_types_and_keeps_unknown_extensions():
    with pytest.raises(TypeError):
        pack({"x": object()})
    other = msgpack.packb(msgpack.ExtType(42, b"raw"))
    assert unpack(other) == msgpack.ExtType(42, b"raw")
