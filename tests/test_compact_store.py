"""The compact event stores (one row per save; the keyed layout, and the compact layout
before it): every event type round-trips, reads agree with the library's recorder on
the same games, notifications keep their contract, optimistic concurrency holds, old
stores stay readable and migrate, and a game saved a command at a time stays small. On
SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from functools import cache
from itertools import zip_longest
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
from cascadia.application.compact_codec import (
    DEFLATE,
    FLAT,
    FLAT_DEFLATE,
    PLAIN,
    decode_payload,
    encode_payload,
)
from cascadia.application.compact_postgres import CompactPostgresRecorder
from cascadia.application.compact_recorder import ROW_BITS
from cascadia.application.compact_sqlite import CompactSQLiteRecorder
from cascadia.application.database import DATABASE_URL_VAR
from cascadia.application.event_codes import BY_CODE, CURRENT, EVENT_CODES
from cascadia.application.keyed_postgres import KeyedPostgresRecorder
from cascadia.application.keyed_sqlite import KeyedSQLiteRecorder
from cascadia.application.migrate import migrate_games
from cascadia.application.settings import APP_NAME
from cascadia.application.store import RECORDER_TOPIC, GameConflictError, GameStore
from cascadia.application.store_layouts import SQLITE_LAYOUTS, postgres_layouts
from cascadia.bots.registry import make_bots, play_game, recorded_bots
from cascadia.domain.achievement_map import (
    MAP_EVENTS,
    AchievementMarked,
    GameRecorded,
    MapCreated,
    PlayerJoined,
)
from cascadia.domain.events import EVENT_TYPES, DomainEvent, GameEnded, GameEvent, GameStarted, TurnEnded
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.server.store import SeatHandedToBot, SeatLinkReplaced, ServerGameOpened, StreamTicketUsed
from eventsourcing.persistence import IntegrityError, Notification, StoredEvent
from eventsourcing.utils import get_topic

pytest_plugins = ["store_backends"]

LAYOUTS = {
    "sqlite": {layout.name: layout for layout in SQLITE_LAYOUTS},
    "postgres": {layout.name: layout for layout in postgres_layouts(APP_NAME)},
}
KEYED = {"sqlite": KeyedSQLiteRecorder, "postgres": KeyedPostgresRecorder}
COMPACT = {"sqlite": CompactSQLiteRecorder, "postgres": CompactPostgresRecorder}
FOUR = ["random"] * 4
TARGET_BYTES = 20_000
"""Issue 21: the most a finished 4-player game may take in the store."""
PAGE_PRAGMAS = ("page_count", "freelist_count", "page_size")


@dataclasses.dataclass(frozen=True)
class UncodedEvent(DomainEvent):
    """An event type without a code: stored with its full topic."""

    note: str
    extra: list[int]


# -- games and events --------------------------------------------------------------------


@cache
def finished_games() -> tuple[tuple[GameEvent, ...], ...]:
    """Finished games that hold every game event type between them."""
    games = [play_game(seed, FOUR) for seed in range(3)]
    variants = GameOptions(no_starter=True, secret_cards=True, two_card_sets=True)
    games += [play_game(seed, ["random"], variants) for seed in range(2)]
    return tuple(tuple(game.collect_events()) for game in games)


def other_events() -> list[Any]:
    """One event of each type that is not a game's: the map's, the server's, one without code."""
    map_id, game_id, *records = (UUID(int=n) for n in range(1, 7))
    return [
        MapCreated(map_id, 1, name="campaign"),
        PlayerJoined(map_id, 2, player="ann", path=0),
        AchievementMarked(
            map_id, 3, player="ann", achievement="A1", game_id=str(game_id), mode="standard", cell=1
        ),
        GameRecorded(map_id, 4, game_id=str(game_id), mode="standard", seated=["ann", "bob"]),
        ServerGameOpened(
            records[0], 1, game_id, ["human", "random"], ["ab" * 32, None], "c0ffee", "5a17", map_id
        ),
        ServerGameOpened(records[1], 1, game_id, ["random"], [None], "c0ffee", "5a17", turn_seconds=60),
        SeatLinkReplaced(records[0], 2, game_id, 0, "cd" * 32),
        SeatHandedToBot(records[0], 3, game_id, 0, "greedy", "time-limit"),
        StreamTicketUsed(records[2], 1, game_id, 1),
        UncodedEvent(records[3], 1, note="no code", extra=[1, -2]),
    ]


def live_saves(seed: int) -> list[list[GameEvent]]:
    """A 4-player game played one bot command at a time: the events of each save."""
    game = Game.start(seed, FOUR, None, bots=recorded_bots(FOUR))
    bots = make_bots(FOUR, seed)
    saves = [game.collect_events()]
    while not game.finished:
        game.execute(bots[game.current_player].choose(game))
        saves.append(game.collect_events())
    return saves


# -- stores on each backend --------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def open_store(backend: str, tmp_path: Path) -> Iterator[Callable[..., GameStore]]:
    """Opens stores on fresh databases of the backend: ``open_store()`` in the layout of
    a new store (keyed), ``open_store("compact")`` or ``open_store("legacy")`` in an
    earlier one, ``open_store(url=...)`` again."""
    from store_backends import postgres_schema, require_postgres  # loaded by pytest_plugins

    with ExitStack() as stack:

        def fresh_url() -> str:
            if backend == "sqlite":
                return f"sqlite:{tmp_path / uuid4().hex / 'events.sqlite'}"
            return stack.enter_context(postgres_schema(require_postgres()))

        def open_(layout: str | None = None, url: str | None = None) -> GameStore:
            env = {DATABASE_URL_VAR: url or fresh_url()} | (
                {RECORDER_TOPIC: LAYOUTS[backend][layout].recorder} if layout else {}
            )
            return stack.enter_context(GameStore(env=env))

        yield open_


def url_of(store: GameStore) -> str:
    return store.env[DATABASE_URL_VAR]


def fill(store: GameStore) -> list[list[Any]]:
    """Store the finished games whole (in one transaction), one game command by command,
    and the other aggregates' events; returns the saves' events."""
    games = [list(events) for events in finished_games()]
    assert store.save_new_games(games) == [True] * len(games)
    saves = live_saves(7)
    for events in saves:
        if events:
            store.save_events(events)
    others = other_events()
    for event in others:
        store.save_events([event])
    return [*games, *saves, *[[event] for event in others]]


def event_key(event: StoredEvent) -> tuple[Any, ...]:
    return (event.originator_id, event.originator_version, event.topic, event.state)


# -- the codes table ---------------------------------------------------------------------


def test_every_stored_event_type_has_a_code_with_its_own_fields():
    server = [ServerGameOpened, SeatLinkReplaced, SeatHandedToBot, StreamTicketUsed]
    types = [*EVENT_TYPES.values(), *MAP_EVENTS, *server]
    for cls in types:
        code = CURRENT[get_topic(cls)]
        assert code.fields == tuple(f.name for f in dataclasses.fields(cls))[2:], cls
    assert len(CURRENT) == len(types)


def test_codes_are_unique_and_never_reused():
    assert len(BY_CODE) == len(EVENT_CODES)
    assert all(0 < entry.code < 128 for entry in EVENT_CODES)  # one byte each in msgpack


@pytest.mark.parametrize("flat", [False, True])
def test_a_state_that_does_not_match_its_code_keeps_its_bytes(flat):
    odd = [
        (get_topic(TurnEnded), b"\x82\xa4turn\x01\xa6player\x00"),  # fields in another order
        (get_topic(GameEnded), b"not msgpack \xc1"),
        (get_topic(GameEnded), b"\x81\xa5turns\xca\x3f\x80\x00\x00"),  # a float32: packs back longer
        ("tests.somewhere:Other", b"\x80"),
    ]
    assert [tuple(entry) for entry in decode_payload(encode_payload(odd, flat=flat))] == [
        (CURRENT[get_topic(TurnEnded)].code, odd[0][1]),
        (CURRENT[get_topic(GameEnded)].code, odd[1][1]),
        (CURRENT[get_topic(GameEnded)].code, odd[2][1]),
        odd[3],
    ]


# -- round trips and reads against the library's recorder --------------------------------


@pytest.mark.parametrize("layout", [None, "compact"])
def test_a_new_store_is_keyed_and_every_event_type_round_trips(open_store, backend, layout):
    store = open_store(layout)
    assert type(store.recorder) is (COMPACT if layout else KEYED)[backend]
    saves = fill(store)
    encoded = store.mapper.to_stored_event
    for events in saves:
        first = events[0]
        stored = store.recorder.select_events(first.originator_id, gt=first.originator_version - 1)
        assert [event_key(e) for e in stored[: len(events)]] == [event_key(encoded(e)) for e in events]
        assert (
            list(store.events.get(first.originator_id, gt=first.originator_version - 1))[: len(events)]
            == events
        )
    for events in finished_games():
        assert store.game(events[0].originator_id).state == Game.replay(list(events)).state


@pytest.mark.parametrize("layout", [None, "compact"])
def test_a_whole_game_is_one_row_and_far_smaller_than_its_events(open_store, layout):
    store = open_store(layout)
    events = list(finished_games()[0])
    store.save_events(events)
    assert store.recorder.max_notification_id() == (1 << ROW_BITS) + len(events) - 1
    rows = store.recorder._select_rows_from(0, None, 10)  # type: ignore[attr-defined]
    assert [(row.originator_id, row.first_version, row.count) for row in rows] == [
        (events[0].originator_id, 1, len(events))
    ]
    assert len(rows[0].payload) * 4 < sum(len(record.state) for record in store.encode(events))


@pytest.fixture(params=[None, "compact"])
def twin_stores(open_store, request: pytest.FixtureRequest) -> tuple[GameStore, GameStore]:
    """The same saves in a store in the library's layout and in a compact one (keyed, or
    the compact layout before it)."""
    legacy, compact = open_store("legacy"), open_store(request.param)
    fill(legacy)
    fill(compact)
    return legacy, compact


def test_select_events_agrees_with_the_librarys_recorder(twin_stores):
    legacy, compact = twin_stores
    ids = [events[0].originator_id for events in finished_games()[:2]]
    ids += [live_saves(7)[0][0].originator_id, uuid4()]
    for originator_id in ids:
        for gt in (None, 0, 5, 17, 300):
            for lte in (None, 1, 6, 18, 301, 1000):
                for desc in (False, True):
                    for limit in (None, 1, 4, 50):
                        query = {"gt": gt, "lte": lte, "desc": desc, "limit": limit}
                        theirs = legacy.recorder.select_events(originator_id, **query)
                        ours = compact.recorder.select_events(originator_id, **query)
                        assert [event_key(e) for e in ours] == [event_key(e) for e in theirs], query


def all_notifications(store: GameStore, limit: int, topics: Sequence[str] = ()) -> list[Notification]:
    """Every notification, read in pages of ``limit`` the way readers page."""
    found: list[Notification] = []
    start: int | None = None
    while True:
        page = store.recorder.select_notifications(start, limit, topics=topics, inclusive_of_start=False)
        found += page
        if len(page) < limit:
            return found
        start = page[-1].id


def test_notifications_are_the_librarys_in_order_with_increasing_ids(twin_stores):
    legacy, compact = twin_stores
    for topics in [(), (get_topic(GameStarted),), (get_topic(GameEnded), get_topic(MapCreated))]:
        for limit in (1, 7, 1000):
            theirs = all_notifications(legacy, limit, topics)
            ours = all_notifications(compact, limit, topics)
            assert [event_key(n) for n in ours] == [event_key(n) for n in theirs], (topics, limit)
            ids = [n.id for n in ours]
            assert ids == sorted(set(ids))
    assert compact.recorder.max_notification_id() == all_notifications(compact, 1000)[-1].id


def test_notifications_between_start_and_stop(twin_stores):
    compact = twin_stores[1].recorder
    every = compact.select_notifications(None, 100_000)
    middle = every[500:1300]
    start, stop = middle[0].id, middle[-1].id
    assert compact.select_notifications(start, 100_000, stop) == middle
    assert compact.select_notifications(start, 100_000, stop, inclusive_of_start=False) == middle[1:]
    assert compact.select_notifications(start, 3) == middle[:3]
    assert compact.select_notifications(stop + 1, 2) == every[1300:1302]
    assert compact.select_notifications(every[-1].id, 5, inclusive_of_start=False) == []


def test_an_empty_store_has_no_notifications(open_store):
    recorder = open_store().recorder
    assert recorder.max_notification_id() is None
    assert recorder.select_notifications(None, 10) == []


# -- optimistic concurrency --------------------------------------------------------------


@pytest.mark.parametrize("layout", [None, "compact"])
def test_a_save_at_a_taken_first_version_fails_and_writes_nothing(open_store, layout):
    store = open_store(layout)
    saves = live_saves(3)
    store.save_events(saves[0])
    store.save_events(saves[1])
    before = store.recorder.max_notification_id()
    with pytest.raises(GameConflictError):
        store.save_events(saves[1])
    other = list(finished_games()[0])
    with pytest.raises(IntegrityError):  # the new game of the same transaction is not written either
        store.recorder.insert_events(store.encode([*other, *saves[1]]))
    assert store.recorder.max_notification_id() == before
    assert not store.has_game(other[0].originator_id)


@pytest.mark.parametrize("layout", [None, "compact"])
def test_a_save_starting_inside_a_stored_row_fails(open_store, layout):
    store = open_store(layout)
    events = list(finished_games()[0])
    store.save_events(events[:10])
    for start in (1, 5, 9):  # inside the stored row [1, 10], not at its first version only
        with pytest.raises(GameConflictError):
            store.save_events(events[start:12])
    store.save_events(events[10:])
    assert store.game_events(events[0].originator_id) == events


@pytest.mark.parametrize("layout", [None, "compact"])
def test_overlapping_runs_of_one_insert_are_refused(open_store, layout):
    store = open_store(layout)
    records = store.encode(list(finished_games()[0])[:8])
    with pytest.raises(IntegrityError):
        store.recorder.insert_events([*records[:5], *records[3:]])
    assert store.recorder.max_notification_id() is None


# -- old stores --------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["legacy", "compact"])
def test_an_old_store_is_read_in_its_layout_and_migrated(open_store, backend, layout):
    old = open_store(layout)
    saves = fill(old)
    reopened = open_store(url=url_of(old))  # no setting: the layout is found in the database
    assert type(reopened.recorder).__name__ == LAYOUTS[backend][layout].recorder.split(":")[1]
    game_ids = [events[0].originator_id for events in finished_games()]
    for game_id in game_ids:
        assert reopened.game_events(game_id) == old.game_events(game_id)
    more = list(finished_games()[0])  # it is written in its layout too
    assert not reopened.save_new_game(more)

    new = open_store()
    results = list(migrate_games(reopened, new))
    assert [r.outcome for r in results] == ["copied"] * (len(game_ids) + 1)
    assert type(new.recorder) is KEYED[backend]
    for game_id in [*game_ids, saves[len(game_ids)][0].originator_id]:
        assert new.game_events(game_id) == old.game_events(game_id)
    assert type(open_store(url=url_of(new)).recorder) is KEYED[backend]


def test_a_compact_store_keeps_nested_rows_that_earlier_versions_read(open_store):
    store = open_store("compact")
    store.save_events(list(finished_games()[0]))
    (row,) = store.recorder._select_rows_from(0, None, 10)  # type: ignore[attr-defined]
    assert row.payload[0] in (PLAIN, DEFLATE)
    keyed = open_store()
    keyed.save_events(list(finished_games()[0]))
    (row,) = keyed.recorder._select_rows_from(0, None, 10)  # type: ignore[attr-defined]
    assert row.payload[0] in (FLAT, FLAT_DEFLATE)


@pytest.mark.parametrize("layout", ["legacy", "compact"])
def test_cascadia_migrate_converts_an_old_store(open_store, cascadia, tmp_path, layout):
    old = open_store(layout)
    games = [list(events) for events in finished_games()[:2]]
    old.save_new_games(games)
    target = f"sqlite:{tmp_path / 'new' / 'events.sqlite'}"
    code, _, err = cascadia("migrate", "--from", url_of(old), "--to", target)
    assert code == 0, err
    with GameStore(env={DATABASE_URL_VAR: target}) as new:
        assert type(new.recorder) is KeyedSQLiteRecorder
        for events in games:
            assert new.game_events(events[0].originator_id) == events


def test_a_game_is_named_by_an_integer_key_and_its_id_stored_once_as_16_bytes(open_store, backend):
    store = open_store()
    store.save_events(list(finished_games()[0]))
    with store.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
        if backend == "sqlite":
            cursor.execute("SELECT typeof(originator_id), length(originator_id) FROM stored_aggregates")
            assert [tuple(row) for row in cursor.fetchall()] == [("blob", 16)]
            cursor.execute("SELECT DISTINCT typeof(aggregate_key) FROM stored_saves")
            assert [tuple(row) for row in cursor.fetchall()] == [("integer",)]
        else:
            schema = store.recorder.datastore.schema  # type: ignore[attr-defined]
            cursor.execute(
                f'SELECT pg_typeof(originator_id)::text AS type FROM "{schema}".cascadia_aggregates'
            )
            assert [row["type"] for row in cursor.fetchall()] == ["uuid"]
            cursor.execute(
                f'SELECT DISTINCT pg_typeof(aggregate_key)::text AS type FROM "{schema}".cascadia_saves'
            )
            assert [row["type"] for row in cursor.fetchall()] == ["integer"]


# -- size --------------------------------------------------------------------------------


@cache
def side_by_side(seeds: range) -> tuple[list[GameEvent], ...]:
    """The saves of several games played a command at a time, in the order a server
    playing them side by side makes them: one command of each game in turn."""
    games = [live_saves(seed) for seed in seeds]
    return tuple(events for turn in zip_longest(*games) for events in turn if events)


def store_bytes(store: GameStore, backend: str) -> int:
    """The bytes the store takes: SQLite's pages in use; on PostgreSQL the main forks of
    its tables (with their TOAST tables) and indexes, but the one-row table of the last
    row id, whose size is fixed but for the dead versions that other sessions' snapshots
    keep for a while."""
    datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
    with datastore.transaction(commit=False) as cursor:
        if backend == "sqlite":
            sizes = []
            for pragma in PAGE_PRAGMAS:
                cursor.execute(f"PRAGMA {pragma}")
                sizes.append(cursor.fetchone()[0])
            return (sizes[0] - sizes[1]) * sizes[2]
        cursor.execute(
            "SELECT sum(pg_relation_size(c.oid)) + coalesce(sum(pg_relation_size(c.reltoastrelid)), 0) "
            "AS size "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'i') AND c.relname <> 'cascadia_saves_head'",
            [datastore.schema],
        )
        return int(cursor.fetchone()["size"])


def test_a_game_saved_a_command_at_a_time_adds_under_20_kB(open_store, backend):
    """Issue 21's target, as a server or ``play`` saves (one save per command): the bytes
    that finished 4-player games add to a store holding one game already (so that every
    table and index has its first pages), per game. Deterministic: the same saves in a
    fresh store make the same pages."""
    store = open_store()
    for events in side_by_side(range(1)):
        store.save_events(events)
    before = store_bytes(store, backend)
    games = range(1, 11)
    for events in side_by_side(games):
        store.save_events(events)
    assert (store_bytes(store, backend) - before) / len(games) < TARGET_BYTES
