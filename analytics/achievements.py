"""Achievement statistics (RULES.md 8 and 8.1): how often winners meet each achievement,
and how many games a campaign's players take to reach each milestone.

The first reads ``players.achievements`` (the achievements each player met, from the
achievements projection at ingest) of the winners of the games RULES.md 8 counts:
multiplayer games without the balanced bag. The second reads ``marks`` (every mark of
every achievement map in the store, written at ``ingest --from-store``): the games the
player had sat at when the mark that reached a milestone was made.
"""

from __future__ import annotations

from typing import Any

from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.rates import rate
from cascadia.projections.achievements import ACHIEVEMENTS


def achievement_rates(db: AnalyticsDB, where: str | None = None) -> list[dict[str, Any]]:
    """Per achievement, bot (seat name) and player count: how many winners met it, of how
    many winners, with the rate and its 95% Wilson interval; in RULES.md 8's order."""
    games = db.games_where(where)
    rows = db.records(
        f"""
        WITH g AS ({games}),
        winners AS (
            SELECT p.name AS bot, g.players, p.achievements
            FROM players p JOIN g USING (game_id)
            WHERE p.won AND g.players BETWEEN 2 AND 4 AND NOT g.balanced_bag
        ),
        counted AS (SELECT bot, players, count(*) AS winners FROM winners GROUP BY ALL),
        each AS (SELECT bot, players, unnest(achievements) AS achievement FROM winners),
        met AS (SELECT bot, players, achievement, count(*) AS met FROM each GROUP BY ALL)
        SELECT a.achievement, c.bot, c.players, coalesce(m.met, 0) AS met, c.winners
        FROM counted c CROSS JOIN (SELECT unnest(?::VARCHAR[]) AS achievement) a
        LEFT JOIN met m ON m.bot = c.bot AND m.players = c.players AND m.achievement = a.achievement
        """,
        [list(ACHIEVEMENTS)],
    )
    order = {name: i for i, name in enumerate(ACHIEVEMENTS)}
    rows.sort(key=lambda r: (order[r["achievement"]], r["bot"], r["players"]))
    return [
        {
            "achievement": r["achievement"],
            "description": ACHIEVEMENTS[r["achievement"]][0],
            "bot": r["bot"],
            "players": r["players"],
            **rate(r["met"], r["winners"]),
        }
        for r in rows
    ]


def milestone_games(db: AnalyticsDB) -> list[dict[str, Any]]:
    """Per player of the maps (in a bot campaign, a bot) and milestone: on how many maps
    it was reached, and the games it took there (mean, fewest, most)."""
    rows = db.records(
        """
        SELECT player, cell, milestone, count(*) AS maps,
               avg(games_played) AS mean_games, min(games_played) AS fewest, max(games_played) AS most
        FROM marks WHERE milestone IS NOT NULL AND games_played IS NOT NULL
        GROUP BY ALL ORDER BY player, cell
        """
    )
    return [
        {
            "player": r["player"],
            "cells": r["cell"],
            "milestone": r["milestone"],
            "maps": r["maps"],
            "mean_games": round(r["mean_games"], 1),
            "fewest_games": r["fewest"],
            "most_games": r["most"],
        }
        for r in rows
    ]
