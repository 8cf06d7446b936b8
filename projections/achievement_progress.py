"""Progress on an achievement map (RULES.md 8.1), and the facts of a game that a mark
is checked against.

"Each marked achievement fills the leftmost empty cell of the player's path. Milestones
on the path: 8 cells river explorer, 16 wetland explorer, 24 forest explorer, 32
mountain explorer, 40 prairie explorer, 50 Cascadia biologist."

:func:`map_progress` reads a map's state (at any point of its history: replay its
events up to a version) into plain data: each path's cells in order, the milestones
reached with the game that reached each, and what is still open. :func:`game_facts`
turns a game's state into the :class:`~cascadia.domain.achievement_map.GameFacts` that
the map's rules need, using the achievements projection, so a mark is never trusted
from the caller.
"""

from __future__ import annotations

from typing import Any

from cascadia.domain.achievement_map import MILESTONES, PATH_LENGTH, GameFacts, MapState, PlayerPath
from cascadia.domain.options import RESTRICTIONS
from cascadia.domain.state import GameState
from cascadia.projections.achievements import ACHIEVEMENTS, winner_achievements
from cascadia.projections.game_scores import score_state

SCENARIO_CELLS = 15
"""RULES.md 8.1 and 9: the 15 scenario achievements are not covered, so at most
``PATH_LENGTH - SCENARIO_CELLS`` = 35 cells can be filled here."""


def game_facts(state: GameState) -> GameFacts:
    """What the achievement map needs to know of a game: mode, table, winners and the
    standard achievements each winner met (RULES.md 8, by the achievements projection)."""
    names = tuple(state.names)
    winners: tuple[str, ...] = ()
    met: dict[str, tuple[str, ...]] = {}
    if state.finished:
        earned = winner_achievements(state, score_state(state))
        winners = tuple(names[seat] for seat in earned)
        met = {names[seat]: tuple(ids) for seat, ids in earned.items()}
    return GameFacts(
        game_id=str(state.game_id),
        finished=state.finished,
        mode=state.options.achievement_mode,
        players=len(names),
        balanced_bag=state.options.balanced_bag,
        seat_names=names,
        winners=winners,
        met=met,
    )


def milestones_reached(path: PlayerPath) -> list[dict[str, Any]]:
    """The milestones the path has reached, each with the game whose mark reached it and
    how many recorded games of the map the player had sat at by then (``None``: the
    games were not recorded)."""
    return [
        {
            "cells": cells,
            "name": name,
            "game_id": path.marks[cells - 1].game_id,
            "games_played": path.marks[cells - 1].games or None,
        }
        for cells, name in MILESTONES.items()
        if len(path.marks) >= cells
    ]


def path_progress(path: PlayerPath) -> dict[str, Any]:
    """One player's progress as plain data."""
    marked = {mark.achievement for mark in path.marks}
    upcoming = next(((cells, name) for cells, name in MILESTONES.items() if cells > len(path.marks)), None)
    return {
        "player": path.player,
        "path": path.path,
        "filled": len(path.marks),
        "games_played": path.games,
        "cells": [
            {"cell": m.cell, "achievement": m.achievement, "game_id": m.game_id, "mode": m.mode}
            for m in path.marks
        ],
        "milestones": milestones_reached(path),
        "next_milestone": None if upcoming is None else {"cells": upcoming[0], "name": upcoming[1]},
        "open_standard": [a for a in ACHIEVEMENTS if a not in marked],
        "open_restrictions": [r for r in RESTRICTIONS if r not in marked],
    }


def map_progress(state: MapState) -> dict[str, Any]:
    """The whole map as plain data: its name, version and every path in path order."""
    paths = sorted(state.paths.values(), key=lambda p: p.path)
    return {
        "map_id": str(state.map_id),
        "name": state.name,
        "version": state.version,
        "games": len(state.games),
        "path_length": PATH_LENGTH,
        "reachable": PATH_LENGTH - SCENARIO_CELLS,
        "players": [path_progress(path) for path in paths],
    }


def achievement_label(achievement: str) -> str:
    """A mark's words: the achievement's description, or the restriction's name."""
    if achievement in ACHIEVEMENTS:
        return ACHIEVEMENTS[achievement][0]
    return f"won a {achievement.replace('_', ' ')} game"
