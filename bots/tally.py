"""A running tally of simulated games: each bot's games, wins and scores."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from cascadia.domain.state import GameState
from cascadia.projections.scoresheet import ScoreSheet


@dataclass
class BotRecord:
    seats: int = 0
    wins: int = 0
    totals: list[int] = field(default_factory=list)


@dataclass
class Tally:
    """Scores and winners of the games seen, by seat name (the bot's name)."""

    games: int = 0
    bots: dict[str, BotRecord] = field(default_factory=dict)

    def add(self, state: GameState, sheet: ScoreSheet) -> None:
        self.games += 1
        for seat, score in enumerate(sheet.players):
            record = self.bots.setdefault(state.names[seat], BotRecord())
            record.seats += 1
            record.wins += score.won
            record.totals.append(score.total)

    def rows(self) -> list[dict[str, Any]]:
        """Per bot: seats played, wins (shared wins count for each winner), mean and best score."""
        return [
            {
                "bot": name,
                "seats": record.seats,
                "wins": record.wins,
                "mean_score": round(statistics.fmean(record.totals), 1),
                "best_score": max(record.totals),
            }
            for name, record in sorted(self.bots.items())
        ]
