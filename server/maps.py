"""The server's use cases on achievement maps (RULES.md 8.1): list, read and create maps,
check a game created for a map, record a finished game on its map, and the marks of its
winners (a human seat by its token, a bot by :func:`~cascadia.bots.marking.bot_mark`).

A map lives in the same event store as the games (:mod:`cascadia.application.maps`);
which map a server game is for is kept in the game's server record
(:class:`~cascadia.server.store.ServerGameOpened`), never in the game's own events, so a
game's log is the same whether it was played for a map or not. Recording and the bots'
marks are idempotent: any request that finds a finished game not yet settled on its map
settles it, and a process that loses a race to another finds the work done.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from cascadia.application.campaign import open_standard
from cascadia.application.maps import (
    MapNotFoundError,
    create_map,
    list_maps,
    load_map,
    mark_achievement,
    record_game,
)
from cascadia.bots.base import Bot
from cascadia.bots.hunter_bot import HunterBot
from cascadia.bots.marking import bot_mark
from cascadia.bots.registry import bot_for_turn
from cascadia.domain.achievement_map import AchievementMapError, GameFacts, MapPlayerError
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.achievement_progress import achievement_label, game_facts, map_progress
from cascadia.projections.map_svg import map_svg
from cascadia.server.games import HUMAN, GameService
from cascadia.server.numbers import parse_id
from cascadia.server.problems import Problem
from cascadia.server.store import GameConflictError

log = logging.getLogger("cascadia.server")
RULE = "RULES.md 8.1"


def map_not_found(map_id: object) -> Problem:
    return Problem(404, "map-not-found", "Map not found", f"no map {str(map_id)[:64]}")


def parse_map_id(text: str) -> UUID:
    """A map id in canonical form (:func:`~cascadia.server.numbers.parse_id`); 404 otherwise."""
    map_id = parse_id(text)
    if map_id is None:
        raise map_not_found(text)
    return map_id


def refused(error: AchievementMapError) -> Problem:
    """A mark the map refuses: 422 naming the map's typed error and the rule."""
    return Problem(422, "mark-refused", "Mark refused", str(error), error=type(error).__name__, rule=RULE)


def _stale(error: GameConflictError) -> Problem:
    return Problem(409, "stale-version", "Stale version", f"{error}; reload the map and try again")


class MapService:
    """Maps beside the games of one :class:`GameService`."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store.store

    # -- maps ---------------------------------------------------------------------------

    def maps(self) -> list[dict[str, Any]]:
        return [
            {"map_id": str(m.map_id), "name": m.name, "link": f"/map.html?map={m.map_id}"}
            for m in list_maps(self.store)
        ]

    def progress(self, map_id: UUID) -> dict[str, Any]:
        """The map as plain data (:func:`map_progress`): public, a map holds no secret."""
        try:
            return map_progress(load_map(self.store, map_id).state)
        except MapNotFoundError:
            raise map_not_found(map_id) from None

    def svg(self, map_id: UUID, columns: int) -> str:
        return map_svg(self.progress(map_id), columns)

    def create(self, name: str, players: list[str]) -> dict[str, Any]:
        try:
            created = create_map(self.store, name, players=players)
        except MapPlayerError as error:
            raise Problem(422, "invalid-map", "Invalid map", str(error)) from None
        return map_progress(created.state)

    def check_game(self, map_id: UUID, names: list[str], options: GameOptions) -> None:
        """A game created for a map: the map exists, someone at the table is on it, and
        the game counts for achievements (RULES.md 8: 2-4 players, no balanced bag)."""
        players = self.progress(map_id)["players"]
        on_map = {p["player"] for p in players}
        problem = None
        if options.achievement_mode is None:
            problem = "a game for a map names its achievement_mode"
        elif not 2 <= len(names) <= 4 or options.balanced_bag:
            problem = "only a game of 2-4 players without the balanced bag counts for a map (RULES.md 8)"
        elif not on_map.intersection(names):
            problem = (
                f"nobody at the table is on the map (its players: {', '.join(sorted(on_map)) or 'none'})"
            )
        if problem is not None:
            raise Problem(422, "invalid-options", "Invalid game", problem)

    # -- a game's bots and marks --------------------------------------------------------

    def bot_for_turn(self, game_id: UUID, state: GameState) -> Bot:
        """The bot of the active seat; on a game for a map, a hunter seat pursues its map
        player's open standard achievements, as in a simulated campaign
        (:func:`~cascadia.application.campaign.open_standard`)."""
        bot = bot_for_turn(state)
        map_id = self.games.record(game_id).map_id
        if map_id is not None and isinstance(bot, HunterBot):
            path = load_map(self.store, map_id).state.paths.get(state.names[state.current])
            if path is not None:
                bot.pursue(open_standard(path))
        return bot

    def settle(self, game_id: UUID) -> None:
        """Once a map's game is over: record it on the map, then let its bot winners
        mark (each at most once; safe to call again, or from several processes)."""
        map_id = self.games.record(game_id).map_id
        if map_id is None:
            return
        facts = self._facts(game_id)
        if not facts.finished:
            return
        current = load_map(self.store, map_id)
        try:
            if str(game_id) not in current.state.games:
                current = record_game(self.store, map_id, game_id)
        except (AchievementMapError, GameConflictError) as error:
            log.warning("game %s not recorded on map %s: %s", game_id, map_id, error)
        kinds = self.games.record(game_id).kinds
        for seat, name in enumerate(facts.seat_names):
            if kinds[seat] == HUMAN or name not in facts.winners or name not in current.state.paths:
                continue
            choice = bot_mark(current.markable(name, facts))
            if choice is None:
                continue
            try:
                current = mark_achievement(self.store, map_id, name, game_id, choice)
            except (AchievementMapError, GameConflictError) as error:  # e.g. another process marked
                log.info("bot %s did not mark game %s: %s", name, game_id, error)

    def markable(self, game_id: UUID, seat: int) -> dict[str, Any]:
        """What the seat's player may mark for this game now, and what they marked."""
        map_id = self._map_of(game_id)
        self.settle(game_id)
        facts = self._facts(game_id)
        player = facts.seat_names[seat]
        current = load_map(self.store, map_id)
        path = current.state.paths.get(player)
        marked = None
        if path is not None:
            marked = next(
                (
                    {"achievement": m.achievement, "label": achievement_label(m.achievement), "cell": m.cell}
                    for m in path.marks
                    if m.game_id == facts.game_id
                ),
                None,
            )
        may = current.markable(player, facts) if path is not None else []
        return {
            "game_id": facts.game_id,
            "map_id": str(map_id),
            "map_name": current.state.name,
            "map_version": current.version,
            "mode": facts.mode,
            "seat": seat,
            "player": player,
            "finished": facts.finished,
            "on_map": path is not None,
            "winner": player in facts.winners,
            "markable": [{"achievement": a, "label": achievement_label(a)} for a in may],
            "marked": marked,
        }

    def mark(
        self, game_id: UUID, seat: int, achievement: str, expected_version: int | None
    ) -> dict[str, Any]:
        """The seat's player marks ``achievement`` for this game (RULES.md 8.1)."""
        map_id = self._map_of(game_id)
        self.settle(game_id)
        facts = self._facts(game_id)
        player = facts.seat_names[seat]
        if facts.finished and player not in facts.winners:
            raise Problem(
                403,
                "not-a-winner",
                "Not a winner",
                f"{player!r} did not win this game: only a winner marks ({RULE})",
            )
        try:
            changed = mark_achievement(self.store, map_id, player, game_id, achievement, expected_version)
        except GameConflictError as error:  # a StaleMapError, or a map that kept changing
            raise _stale(error) from None
        except AchievementMapError as error:
            raise refused(error) from None
        cell = changed.state.paths[player].marks[-1]
        return {
            "map_id": str(map_id),
            "map_version": changed.version,
            "player": player,
            "achievement": achievement,
            "label": achievement_label(achievement),
            "cell": cell.cell,
        }

    def _map_of(self, game_id: UUID) -> UUID:
        map_id = self.games.record(game_id).map_id
        if map_id is None:
            raise Problem(
                409, "not-for-a-map", "Not for a map", "this game was not played for an achievement map"
            )
        return map_id

    def _facts(self, game_id: UUID) -> GameFacts:
        return game_facts(self.games.game(game_id).state)
