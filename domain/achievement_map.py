"""The achievement map (RULES.md 8.1): a campaign across many games, as an aggregate.

"One achievement map holds the progress of up to 5 players, each on a path of their own
with their name on it." Players join the map; after a game played for achievements its
winners mark what they achieved, and "each marked achievement fills the leftmost empty
cell of the player's path".

Marking is a player's decision, so it is a command, checked against the rules before
anything is recorded (a typed :class:`MarkError` subclass per rule, the map unchanged):

- the game is finished;
- it was played for achievements, in the mode the mark is for: a *standard game* lets a
  winner mark "at most one standard achievement that they met in this game and have not
  marked before"; a *rule-restriction game* lets a winner mark "the achievement of that
  restriction (each restriction once per player)"; only multiplayer games without the
  balanced bag count (RULES.md 8);
- the player won it ("in a shared victory every winner may mark", our ruling);
- the achievement was met in that game (the caller passes the game's facts, computed by
  the achievements projection from the stored game or its log: see :class:`GameFacts`);
- the player has not marked it before, and marks at most once per game.

The map knows nothing of how a game is stored: the facts of a game are values handed to
:meth:`AchievementMap.mark`, so the same rules run live and in an audit of a map file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar
from uuid import UUID

from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import DomainEvent
from cascadia.domain.options import RESTRICTIONS

MAX_MAP_PLAYERS = 5
"""RULES.md 8.1: "one achievement map holds the progress of up to 5 players"."""

PATH_LENGTH = 50
"""RULES.md 8.1: 25 standard + 10 restriction + 15 scenario achievements = 50 cells."""

MILESTONES: dict[int, str] = {
    8: "river explorer",
    16: "wetland explorer",
    24: "forest explorer",
    32: "mountain explorer",
    40: "prairie explorer",
    50: "Cascadia biologist",
}
"""RULES.md 8.1: the milestones on a path, by the number of cells filled."""

STANDARD_MODE = "standard"
ACHIEVEMENT_MODES: tuple[str, ...] = (STANDARD_MODE, *RESTRICTIONS)
"""The modes a game can be played for (RULES.md 8.1; scenarios are not covered, 9)."""

MAX_NAME_LENGTH = 24


class AchievementMapError(CascadiaError):
    """A map command that the rules of RULES.md 8.1 do not allow; the map is unchanged."""

    rule = "RULES.md 8.1"


class MapPlayerError(AchievementMapError):
    """Joining a full map, a name taken or malformed, or a player who is not on the map."""


class MarkError(AchievementMapError):
    """A mark that is not allowed."""


class GameNotFinishedError(MarkError):
    """Only a finished game can be marked."""


class WrongModeError(MarkError):
    """The game was not played for achievements, or not in the mode the mark is for."""


class NotAWinnerError(MarkError):
    """Only a winner of the game may mark it."""


class AchievementNotMetError(MarkError):
    """The achievement was not met by this player in that game."""


class AlreadyMarkedError(MarkError):
    """The player has marked this achievement before."""


class GameAlreadyMarkedError(MarkError):
    """The player has already marked an achievement for this game."""


class RecordError(AchievementMapError):
    """A game that cannot be recorded as played for the map."""


# -- events ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MapEvent(DomainEvent):
    """Base of the achievement map's events: which map, and the position in it."""


@dataclass(frozen=True)
class MapCreated(MapEvent):
    """A new achievement map."""

    name: str


@dataclass(frozen=True)
class PlayerJoined(MapEvent):
    """A player takes the next free path of the map (paths 0-4, in joining order)."""

    player: str
    path: int


@dataclass(frozen=True)
class AchievementMarked(MapEvent):
    """RULES.md 8.1: ``player`` marks ``achievement``, met in game ``game_id`` played in
    ``mode``; it fills cell ``cell`` (1-based) of their path."""

    player: str
    achievement: str
    game_id: str
    mode: str
    cell: int


@dataclass(frozen=True)
class GameRecorded(MapEvent):
    """A finished game the table played for this map, in ``mode``, with the map's
    players ``seated`` at it (so a campaign counts its games, marked or not)."""

    game_id: str
    mode: str
    seated: list[str]


MAP_EVENTS: tuple[type[MapEvent], ...] = (MapCreated, PlayerJoined, AchievementMarked, GameRecorded)


# -- the facts of a game that a mark is checked against ---------------------------------


@dataclass(frozen=True)
class GameFacts:
    """What a mark needs to know of one game, computed from the stored game or its log.

    ``winners``: the seat names of the winners; ``met``: for each winner, the ids of the
    standard achievements (RULES.md 8) they met in this game; ``seat_names``: every seat,
    so that a name that sits twice at the table can be refused as ambiguous."""

    game_id: str
    finished: bool
    mode: str | None
    players: int
    balanced_bag: bool
    seat_names: tuple[str, ...]
    winners: tuple[str, ...] = ()
    met: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def eligible(self) -> bool:
        """RULES.md 8: "after a multiplayer game (2-4 players) without the balanced bag"."""
        return 2 <= self.players <= 4 and not self.balanced_bag


# -- state -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """One filled cell of a path."""

    cell: int
    achievement: str
    game_id: str
    mode: str
    games: int = 0
    """How many recorded games the player had sat at when marking (0: none recorded)."""


@dataclass
class PlayerPath:
    """One player's path on the map: the cells filled, in order."""

    player: str
    path: int
    marks: list[Mark] = field(default_factory=list)
    games: int = 0
    """How many of the games recorded for the map this player sat at."""

    def marked(self, achievement: str) -> bool:
        return any(mark.achievement == achievement for mark in self.marks)

    def marked_game(self, game_id: str) -> bool:
        return any(mark.game_id == game_id for mark in self.marks)


@dataclass
class MapState:
    """The state of an achievement map: a fold of its events."""

    map_id: UUID
    name: str = ""
    version: int = 0
    paths: dict[str, PlayerPath] = field(default_factory=dict)
    games: list[str] = field(default_factory=list)
    """The ids of the games recorded as played for the map, in order."""


def evolve_map(state: MapState, event: MapEvent) -> MapState:
    """Apply one event; the only code that changes a map's state."""
    if event.originator_version != state.version + 1:
        raise AchievementMapError(
            f"map event {event.originator_version} follows version {state.version}: the stream is corrupt"
        )
    if isinstance(event, MapCreated):
        state.name = event.name
    elif isinstance(event, PlayerJoined):
        state.paths[event.player] = PlayerPath(event.player, event.path)
    elif isinstance(event, AchievementMarked):
        path = state.paths[event.player]
        path.marks.append(Mark(event.cell, event.achievement, event.game_id, event.mode, path.games))
    elif isinstance(event, GameRecorded):
        state.games.append(event.game_id)
        for player in event.seated:
            state.paths[player].games += 1
    else:  # pragma: no cover - every map event is handled above
        raise AchievementMapError(f"unknown map event {type(event).__name__}")
    state.version = event.originator_version
    return state


# -- the aggregate ---------------------------------------------------------------------


class AchievementMap:
    """One achievement map: its state, and the events not yet saved."""

    kind: ClassVar[str] = "achievement map"

    def __init__(self, state: MapState) -> None:
        self.state = state
        self._pending: list[MapEvent] = []

    @property
    def id(self) -> UUID:
        return self.state.map_id

    @property
    def version(self) -> int:
        return self.state.version

    def collect_events(self) -> list[MapEvent]:
        pending, self._pending = self._pending, []
        return pending

    @classmethod
    def create(cls, map_id: UUID, name: str) -> AchievementMap:
        """A new, empty map called ``name``."""
        name = _clean_name(name, "a map's name")
        achievement_map = cls(MapState(map_id))
        achievement_map._emit(MapCreated, name=name)
        return achievement_map

    @classmethod
    def replay(cls, events: Iterable[MapEvent]) -> AchievementMap:
        iterator = iter(events)
        first = next(iterator, None)
        if not isinstance(first, MapCreated):
            raise AchievementMapError("a map's events start with MapCreated")
        state = evolve_map(MapState(first.originator_id), first)
        for event in iterator:
            evolve_map(state, event)
        return cls(state)

    @classmethod
    def project(cls, current: AchievementMap | None, events: Iterable[MapEvent]) -> AchievementMap | None:
        """The projector function for the event store's repository."""
        if current is None:
            events = list(events)
            return cls.replay(events) if events else None
        for event in events:
            evolve_map(current.state, event)
        return current

    # -- commands ------------------------------------------------------------------------

    def join(self, player: str) -> None:
        """A player takes the next free path (RULES.md 8.1: at most 5; names unique)."""
        player = _clean_name(player, "a player's name")
        if player in self.state.paths:
            raise MapPlayerError(f"{player!r} is already on the map {self.state.name!r}")
        if len(self.state.paths) >= MAX_MAP_PLAYERS:
            raise MapPlayerError(
                f"the map {self.state.name!r} already holds {MAX_MAP_PLAYERS} players (RULES.md 8.1)"
            )
        self._emit(PlayerJoined, player=player, path=len(self.state.paths))

    def mark(self, player: str, game: GameFacts, achievement: str) -> None:
        """RULES.md 8.1: ``player`` marks ``achievement`` for ``game``; refused with a
        :class:`MarkError` subclass naming the rule when it is not allowed."""
        path = self.path(player)
        self._check_game(game)
        if game.seat_names.count(player) != 1:
            where = "does not sit" if player not in game.seat_names else "sits more than once"
            raise NotAWinnerError(f"{player!r} {where} at the table of game {game.game_id}")
        if player not in game.winners:
            winners = ", ".join(game.winners) or "nobody"
            raise NotAWinnerError(
                f"{player!r} did not win game {game.game_id} (won by {winners}); "
                "only a winner marks (RULES.md 8.1)"
            )
        self._check_mode(game, achievement)
        if path.marked_game(game.game_id):
            raise GameAlreadyMarkedError(
                f"{player!r} has already marked an achievement for game {game.game_id}: "
                "at most one per game (RULES.md 8.1)"
            )
        if path.marked(achievement):
            raise AlreadyMarkedError(f"{player!r} has already marked {achievement!r} (RULES.md 8.1)")
        if game.mode == STANDARD_MODE and achievement not in game.met.get(player, ()):
            raise AchievementNotMetError(
                f"{player!r} did not meet {achievement!r} in game {game.game_id} (RULES.md 8)"
            )
        self._emit(
            AchievementMarked,
            player=player,
            achievement=achievement,
            game_id=game.game_id,
            mode=game.mode,
            cell=len(path.marks) + 1,
        )

    def record_game(self, game: GameFacts) -> None:
        """Record a finished game played for the map (before its winners mark it), so
        that the campaign counts every game: at least one seat is a player of the map."""
        self._check_game(game)
        if game.game_id in self.state.games:
            raise RecordError(f"game {game.game_id} is already recorded on the map {self.state.name!r}")
        seated = [name for name in self.state.paths if name in game.seat_names]
        if not seated:
            raise RecordError(f"nobody at the table of game {game.game_id} is on the map {self.state.name!r}")
        assert game.mode is not None
        self._emit(GameRecorded, game_id=game.game_id, mode=game.mode, seated=seated)

    # -- queries -------------------------------------------------------------------------

    def path(self, player: str) -> PlayerPath:
        try:
            return self.state.paths[player]
        except (KeyError, TypeError):
            raise MapPlayerError(f"{player!r} is not on the map {self.state.name!r}") from None

    def markable(self, player: str, game: GameFacts) -> list[str]:
        """What ``player`` may mark for ``game`` now, in the projection's order (empty when
        the game does not allow a mark by them)."""
        if game.mode is None:
            return []
        candidates = list(game.met.get(player, ())) if game.mode == STANDARD_MODE else [game.mode]
        allowed = []
        for achievement in candidates:
            trial = AchievementMap(_copy_state(self.state))
            try:
                trial.mark(player, game, achievement)
            except AchievementMapError:
                continue
            allowed.append(achievement)
        return allowed

    # -- rule checks ---------------------------------------------------------------------

    @staticmethod
    def _check_game(game: GameFacts) -> None:
        if not game.finished:
            raise GameNotFinishedError(
                f"game {game.game_id} is not finished: mark after the end (RULES.md 8.1)"
            )
        if game.mode is None:
            raise WrongModeError(
                f"game {game.game_id} was not played for achievements: the mode is chosen "
                "before the game (RULES.md 8.1)"
            )
        if not game.eligible():
            raise WrongModeError(
                f"game {game.game_id} does not count for achievements: only multiplayer games "
                "without the balanced bag do (RULES.md 8)"
            )

    @staticmethod
    def _check_mode(game: GameFacts, achievement: str) -> None:
        if game.mode == STANDARD_MODE:
            if achievement in RESTRICTIONS:
                raise WrongModeError(
                    f"{achievement!r} is marked after a {achievement} game, and game "
                    f"{game.game_id} was a standard game (RULES.md 8.1)"
                )
            return
        if achievement != game.mode:
            raise WrongModeError(
                f"game {game.game_id} was a {game.mode} game: its winner marks {game.mode!r}, "
                f"not {achievement!r} (RULES.md 8.1)"
            )

    def _emit(self, cls: type[MapEvent], **payload: Any) -> None:
        event = cls(self.state.map_id, self.state.version + 1, **payload)
        evolve_map(self.state, event)
        self._pending.append(event)


def _copy_state(state: MapState) -> MapState:
    paths = {name: PlayerPath(p.player, p.path, list(p.marks), p.games) for name, p in state.paths.items()}
    return MapState(state.map_id, state.name, state.version, paths, list(state.games))


def _clean_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise MapPlayerError(f"{what} is a non-empty text, not {name!r}")
    name = name.strip()
    if len(name) > MAX_NAME_LENGTH or any(not ch.isprintable() for ch in name):
        raise MapPlayerError(f"{what} has at most {MAX_NAME_LENGTH} printable characters: {name!r}")
    return name
