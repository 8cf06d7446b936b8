"""Bot tournaments in duplicate format, with ratings from the openskill library.

Duplicate format: every seed (the same tiles, tokens and first player) is played once
per seating, the table's line-up turned one seat at a time, so that each bot meets the
same draws from every seat and the luck of a deal cancels out. With more bots than
seats, each window of ``players`` consecutive bots (cyclically) is a line-up; with
fewer, the bots are repeated round the table. Seatings that repeat (a bot twice at a
table) are played once.

Ratings: a Plackett-Luce model (``openskill``) updated game by game in a fixed order
(seed, then seating), each seat a team of one ranked by the score sheet's rank (shared
places stay shared). A bot that holds several seats of one game is rated once per seat
against the same prior, and takes the mean of those updates. The interval is
``mu +- 1.96 sigma``; ``ordinal = mu - 3 sigma`` is the conservative rating to sort by.

Bots are named as seats are, so the game records them: ``greedy``, ``search@200``
(its budget), which the analytics tables then show per seat.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cascadia.bots.registry import make_bots
from cascadia.domain.errors import InvalidOptionError
from openskill.models import PlackettLuce

Z95 = 1.96


def seatings(bots: Sequence[str], players: int) -> list[list[str]]:
    """Every seating of a tournament round: each line-up turned over all seats, once each."""
    if not bots:
        raise InvalidOptionError("a tournament needs at least one bot")
    make_bots(list(bots), 0)  # unknown names fail here
    if len(bots) <= players:
        lineups = [[bots[i % len(bots)] for i in range(players)]]
    else:
        lineups = [[bots[(k + i) % len(bots)] for i in range(players)] for k in range(len(bots))]
    found: list[list[str]] = []
    for lineup in lineups:
        for turn in range(players):
            seating = lineup[turn:] + lineup[:turn]
            if seating not in found:
                found.append(seating)
    return found


@dataclass(frozen=True)
class Standing:
    """One bot's results: seats played, wins, mean score with its 95% interval, rating."""

    bot: str
    seats: int
    wins: int
    mean_score: float
    score_low: float
    score_high: float
    mu: float
    sigma: float

    @property
    def rating_low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def rating_high(self) -> float:
        return self.mu + Z95 * self.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float | int | str]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "wins": self.wins,
            "mean_score": round(self.mean_score, 2),
            "score_95": [round(self.score_low, 2), round(self.score_high, 2)],
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "rating_95": [round(self.rating_low, 3), round(self.rating_high, 3)],
            "ordinal": round(self.ordinal, 3),
        }


class Ratings:
    """Plackett-Luce ratings of bots, updated one game at a time."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[str, object] = {}
        self.scores: dict[str, list[int]] = defaultdict(list)
        self.wins: dict[str, int] = defaultdict(int)

    def add_game(self, names: Sequence[str], totals: Sequence[int], ranks: Sequence[int]) -> None:
        """One finished game: the seat names (bots), totals and ranks (1 = won)."""
        for name, total, rank in zip(names, totals, ranks, strict=True):
            self.scores[name].append(total)
            self.wins[name] += rank == 1
            if name not in self.ratings:
                self.ratings[name] = self.model.rating(name=name)
        if len(names) < 2:
            return  # a solo game has nobody to be ranked against
        teams = [[self.ratings[name]] for name in names]
        rated = self.model.rate(teams, ranks=list(ranks))
        updates: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for name, (after,) in zip(names, rated, strict=True):
            updates[name].append((after.mu, after.sigma))
        for name, values in updates.items():
            rating = self.ratings[name]
            rating.mu = statistics.fmean(mu for mu, _ in values)  # type: ignore[attr-defined]
            rating.sigma = statistics.fmean(sigma for _, sigma in values)  # type: ignore[attr-defined]

    def standings(self) -> list[Standing]:
        """Every bot, best conservative rating (then mean score) first."""
        rows = []
        for name, scores in self.scores.items():
            mean = statistics.fmean(scores)
            half = Z95 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.inf
            rating = self.ratings[name]
            rows.append(
                Standing(
                    name,
                    len(scores),
                    self.wins[name],
                    mean,
                    mean - half,
                    mean + half,
                    rating.mu,  # type: ignore[attr-defined]
                    rating.sigma,  # type: ignore[attr-defined]
                )
            )
        rows.sort(key=lambda s: (-s.ordinal, -s.mean_score, s.bot))
        return rows


def rate_games(games: Iterable[tuple[Sequence[str], Sequence[int], Sequence[int]]]) -> list[Standing]:
    """Standings from ``(names, totals, ranks)`` of each game, in the order given."""
    ratings = Ratings()
    for names, totals, ranks in games:
        ratings.add_game(names, totals, ranks)
    return ratings.standings()
