"""The server's achievement maps (RULES.md 8.1): list, read and create maps, check a
game created for a map, and a map game's end: recorded on its map, the marks of its
winners (a human seat by its token, a bot by its rule). An adapter: the rules are the
application layer's (:mod:`cascadia.application.maps`,
:mod:`cascadia.application.map_games`: one end-of-game policy with the command line's);
their typed errors become problems through :mod:`cascadia.server.errors`.

A map lives in the same event store as the games; which map a server game is for is
kept in the game's server record
(:class:`~cascadia.server.store.ServerGameOpened`), never in the game's own events, so a
game's log is the same whether it was played for a map or not. Recording and the bots'
marks are idempotent: any request that finds a finished game not yet settled on its map
settles it, and a process that loses a race to another finds the work done.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from cascadia.application.map_games import (
    NotForAMapError,
    SettledGame,
    bots_choose,
    check_map_game,
    map_bot_for_turn,
    mark_won_game,
    settle_map_game,
)
from cascadia.application.maps import create_map, list_maps, load_map
from cascadia.application.setup import bot_seats
from cascadia.bots.base import Bot
from cascadia.domain.achievement_map import GameFacts
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.achievement_progress import achievement_label, game_facts, map_progress
from cascadia.projections.map_svg import map_svg
from cascadia.server.errors import answering, map_not_found
from cascadia.server.games import GameService
from cascadia.server.numbers import parse_id
from cascadia.server.store import RecordState

__all__ = ["MapService", "map_not_found", "parse_map_id"]


def parse_map_id(text: str) -> UUID:
    """A map id in canonical form (:func:`~cascadia.server.numbers.parse_id`); 404 otherwise."""
    map_id = parse_id(text)
    if map_id is None:
        raise map_not_found(text)
    return map_id


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
        with answering(map_id):
            return map_progress(load_map(self.store, map_id).state)

    def svg(self, map_id: UUID, columns: int) -> str:
        return map_svg(self.progress(map_id), columns)

    def create(self, name: str, players: list[str]) -> dict[str, Any]:
        with answering():
            created = create_map(self.store, name, players=players)
        return map_progress(created.state)

    def check_game(self, map_id: UUID, names: list[str], options: GameOptions) -> None:
        """A game created for a map (:func:`~cascadia.application.map_games.check_map_game`)."""
        with answering(map_id):
            check_map_game(self.store, map_id, names, options)

    # -- a game's bots and marks --------------------------------------------------------

    def bot_for_turn(self, game_id: UUID, state: GameState) -> Bot:
        """The bot of the active seat; on a game for a map, a hunter seat pursues its map
        player's open standard achievements, as in a simulated campaign."""
        return map_bot_for_turn(self.store, self.games.record(game_id).map_id, state)

    def settle(self, game_id: UUID) -> None:
        """Once a map's game is over: record it on the map, then let its bot winners
        mark (each at most once; safe to call again, or from several processes)."""
        now = self.games.record_now(game_id)
        if now.record.map_id is None:
            return
        facts = self._facts(game_id)
        if facts.finished:
            self._settle(now, facts)

    def _settle(self, now: RecordState, facts: GameFacts) -> SettledGame:
        """:func:`~cascadia.application.map_games.settle_map_game` with the bots' rule for
        the bot seats (a human seat marks by its token); a seat handed to a bot during the
        game (``now``'s handovers) marks nothing."""
        record = now.record
        assert record.map_id is not None
        with answering(record.map_id):
            choose = bots_choose(bot_seats(record.kinds))
            handed = {h.seat for h in now.handovers}
            return settle_map_game(self.store, record.map_id, record.game_id, choose, facts, handed)

    def markable(self, game_id: UUID, seat: int) -> dict[str, Any]:
        """What the seat's player may mark for this game now, and what they marked."""
        settled = self._settled(game_id)
        facts, current = settled.facts, settled.map
        player = facts.seat_names[seat]
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
            "map_id": str(current.id),
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
        settled = self._settled(game_id)
        map_id = settled.map.id
        player = settled.facts.seat_names[seat]
        with answering(map_id):
            changed = mark_won_game(self.store, map_id, settled.facts, player, achievement, expected_version)
        cell = changed.state.paths[player].marks[-1]
        return {
            "map_id": str(map_id),
            "map_version": changed.version,
            "player": player,
            "achievement": achievement,
            "label": achievement_label(achievement),
            "cell": cell.cell,
        }

    def _settled(self, game_id: UUID) -> SettledGame:
        """The game settled on its map, and the map as it stands (409 ``not-for-a-map``
        for a game not played for one)."""
        now = self.games.record_now(game_id)
        if now.record.map_id is None:
            with answering(game_id):
                raise NotForAMapError("this game was not played for an achievement map")
        return self._settle(now, self._facts(game_id))

    def _facts(self, game_id: UUID) -> GameFacts:
        return game_facts(self.games.game(game_id).state)
