"""Use cases on achievement maps (RULES.md 8.1), kept in the same event store as games.

A map is an aggregate of its own (:class:`~cascadia.domain.achievement_map.AchievementMap`)
whose events are appended beside the games' with the same optimistic concurrency. A
mark names a stored game: the game is loaded and its facts (winners, mode, the
achievements each winner met) come from the achievements projection, never from the
caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from uuid import UUID, uuid4

from cascadia.application.store import GameConflictError, GameNotFoundError, GameStore
from cascadia.domain.achievement_map import (
    AchievementMap,
    AchievementMapError,
    GameFacts,
    MapCreated,
    MapEvent,
)
from cascadia.domain.errors import CascadiaError
from cascadia.projections.achievement_progress import game_facts
from cascadia.replays.map_file import FactsSource
from eventsourcing.application import AggregateNotFoundError

DEFAULT_ATTEMPTS = 3


class MapNotFoundError(CascadiaError, LookupError):
    """No map with that name or id is stored."""


class MapConflictError(GameConflictError):
    """The map changed under a change to it (another writer saved first): nothing was saved."""


class StaleMapError(MapConflictError):
    """The map is no longer at the version the caller expected: nothing was saved."""


@dataclass(frozen=True)
class MapSummary:
    map_id: UUID
    name: str


def create_map(
    store: GameStore, name: str, map_id: UUID | None = None, players: Sequence[str] = ()
) -> AchievementMap:
    """A new map, empty or with ``players`` on its first paths, saved in one write (a
    refused player name saves nothing). Names need not be unique; ids are."""
    achievement_map = AchievementMap.create(map_id or uuid4(), name)
    for player in players:
        achievement_map.join(player)
    store.save_events(achievement_map.collect_events())
    return achievement_map


def load_map(store: GameStore, map_id: UUID, version: int | None = None) -> AchievementMap:
    """The map rebuilt from its stored events (up to ``version``)."""
    try:
        found = store.repository.get(map_id, version=version, projector_func=AchievementMap.project)
    except AggregateNotFoundError:
        raise MapNotFoundError(f"no map {map_id} in {store.location}") from None
    if not isinstance(found, AchievementMap):
        raise MapNotFoundError(f"{map_id} is not a map in {store.location}")
    return found


def map_events(store: GameStore, map_id: UUID) -> list[MapEvent]:
    """The stored events of one map, in order."""
    events = list(store.events.get(map_id))
    if not events or not isinstance(events[0], MapCreated):
        raise MapNotFoundError(f"no map {map_id} in {store.location}")
    return events  # type: ignore[return-value]


def list_maps(store: GameStore) -> Iterator[MapSummary]:
    """Every stored map, in the order they were created."""
    for notification in store.notifications_of(MapCreated):
        event = store.mapper.to_domain_event(notification)
        yield MapSummary(event.originator_id, event.name)  # type: ignore[attr-defined]


def find_map(store: GameStore, text: str) -> UUID:
    """The map named ``text``, or whose id is or starts with it (at least 4 characters)."""
    wanted = text.strip()
    maps = list(list_maps(store))
    named = [m.map_id for m in maps if m.name == wanted]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise MapNotFoundError(f"{len(named)} maps are named {wanted!r}; give the id")
    prefix = wanted.lower()
    matches = [m.map_id for m in maps if len(prefix) >= 4 and str(m.map_id).startswith(prefix)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise MapNotFoundError(f"{len(matches)} maps start with {text!r}; give more of the id")
    raise MapNotFoundError(f"no map named or starting with {text!r} in {store.location}")


def stored_game_facts(store: GameStore, game_id: UUID) -> GameFacts:
    """The facts a mark is checked against, from the stored game."""
    return game_facts(store.game(game_id).state)


def stored_facts_source(store: GameStore) -> FactsSource:
    """The facts of stored games by id, for the audit of a map file against the store."""

    def facts_of(game_id: str) -> GameFacts:
        try:
            return stored_game_facts(store, UUID(game_id))
        except (ValueError, GameNotFoundError):
            raise AchievementMapError(f"game {game_id} is not stored in {store.location}") from None

    return facts_of


def join_map(store: GameStore, map_id: UUID, players: list[str]) -> AchievementMap:
    """Players take the next free paths (all or none of them join)."""

    def join(achievement_map: AchievementMap) -> None:
        for player in players:
            achievement_map.join(player)

    return _change(store, map_id, join)


def mark_achievement(
    store: GameStore,
    map_id: UUID,
    player: str,
    game_id: UUID,
    achievement: str,
    expected_version: int | None = None,
    facts: GameFacts | None = None,
) -> AchievementMap:
    """``player`` marks ``achievement`` for the stored game ``game_id`` (RULES.md 8.1);
    a refusal is the map's typed :class:`~cascadia.domain.achievement_map.MarkError`.
    With ``expected_version``, a map that has moved on is :class:`StaleMapError`.
    ``facts``: the game's facts as :func:`stored_game_facts` gives them, if the caller
    has them already."""
    facts = facts or stored_game_facts(store, game_id)
    return _change(
        store,
        map_id,
        lambda achievement_map: achievement_map.mark(player, facts, achievement),
        expected_version,
    )


def record_game(
    store: GameStore, map_id: UUID, game_id: UUID, facts: GameFacts | None = None
) -> AchievementMap:
    """Record the stored game ``game_id`` as played for the map (RULES.md 8.1); ``facts``
    as :func:`mark_achievement` takes them."""
    facts = facts or stored_game_facts(store, game_id)
    return _change(store, map_id, lambda achievement_map: achievement_map.record_game(facts))


def _change(
    store: GameStore,
    map_id: UUID,
    change: Callable[[AchievementMap], None],
    expected_version: int | None = None,
) -> AchievementMap:
    """Load, change, save; on a version conflict reload and change again (unless the
    caller expected a version: then the conflict is theirs, :class:`StaleMapError`)."""
    for _ in range(DEFAULT_ATTEMPTS):
        achievement_map = load_map(store, map_id)
        if expected_version is not None and achievement_map.version != expected_version:
            raise StaleMapError(
                f"map {map_id} is at version {achievement_map.version}, not {expected_version}"
            )
        change(achievement_map)
        events = achievement_map.collect_events()
        try:
            if events:
                store.save_events(events)
        except GameConflictError:
            if expected_version is not None:
                raise StaleMapError(f"map {map_id} changed meanwhile; nothing was saved") from None
            continue
        return achievement_map
    raise MapConflictError(f"map {map_id} kept changing under {DEFAULT_ATTEMPTS} attempts; nothing was saved")
