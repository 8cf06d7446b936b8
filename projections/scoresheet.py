"""The final score sheet of a game (RULES.md 5 and 6), as a pure function.

"A player's score is the sum of: the five wildlife cards, the five habitat corridors,
the habitat majority bonuses (or the solo bonus), and 1 per unspent nature token.
Highest total wins; a tie goes to the tied player with more nature tokens; still
tied, they share the win."

Ranks use standard competition ranking on (total, nature tokens): players equal on
both share a place and the next place is skipped ("1, 1, 3").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.projections.habitats import habitat_bonuses, largest_corridors
from cascadia.projections.wildlife import normalise_card, score_wildlife

SOLO_RATINGS: tuple[tuple[int, str], ...] = (
    (110, "incredible"),
    (100, "outstanding"),
    (90, "excellent"),
    (80, "great"),
    (70, "got the gist"),
    (60, "good start"),
)
"""RULES.md 6: "60+ good start, 70+ got the gist, 80+ great, 90+ excellent, 100+
outstanding, 110+ incredible"."""
BELOW_RATINGS = "keep practising"


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's line of the score sheet. Mappings are in ``WILDLIFE`` / ``HABITATS`` order.

    ``habitat_total`` is the corridor points only; ``bonus_total`` the majority (or
    solo) bonuses; ``total = wildlife_total + habitat_total + bonus_total +
    nature_tokens``. Treat the mappings as read-only.
    """

    seat: int
    wildlife: Mapping[str, int]
    corridors: Mapping[str, int]
    habitat_points: Mapping[str, int]
    habitat_bonuses: Mapping[str, int]
    nature_tokens: int
    wildlife_total: int
    habitat_total: int
    bonus_total: int
    total: int
    rank: int
    won: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "seat": self.seat,
            "wildlife": dict(self.wildlife),
            "corridors": dict(self.corridors),
            "habitat_points": dict(self.habitat_points),
            "habitat_bonuses": dict(self.habitat_bonuses),
            "nature_tokens": self.nature_tokens,
            "wildlife_total": self.wildlife_total,
            "habitat_total": self.habitat_total,
            "bonus_total": self.bonus_total,
            "total": self.total,
            "rank": self.rank,
            "won": self.won,
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every player's score, by seat, with the cards and options they were scored under."""

    players: tuple[PlayerScore, ...]
    cards: Mapping[str, str]
    options: GameOptions
    solo_rating: str | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats of the players who won (ranked 1)."""
        return tuple(p.seat for p in self.players if p.won)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "rules_version": RULES_VERSION,
            "cards": dict(self.cards),
            "options": self.options.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
            "solo_rating": self.solo_rating,
        }


def solo_rating(total: int) -> str:
    """The RULES.md 6 rating of a solo total (below 60: "keep practising")."""
    return next((name for floor, name in SOLO_RATINGS if total >= floor), BELOW_RATINGS)


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Standard competition ranks, highest key first: equal keys share a place ("1, 1, 3")."""
    return [1 + sum(other > key for other in keys) for key in keys]


def build_sheet(
    wildlife: Sequence[Mapping[str, int]],
    corridors: Sequence[Mapping[str, int]],
    nature_tokens: Sequence[int],
    cards: Mapping[str, str],
    options: GameOptions,
) -> ScoreSheet:
    """The score sheet from each player's wildlife points and largest corridors, by seat."""
    players = len(wildlife)
    if not players or len(corridors) != players or len(nature_tokens) != players:
        raise ValueError("wildlife, corridors and nature tokens must be given for every player")
    bonuses = habitat_bonuses(corridors, options)
    species = [{s: wildlife[seat][s] for s in WILDLIFE} for seat in range(players)]
    largest = [{h: corridors[seat][h] for h in HABITATS} for seat in range(players)]
    totals = [
        sum(species[seat].values())
        + sum(largest[seat].values())
        + sum(bonuses[seat].values())
        + nature_tokens[seat]
        for seat in range(players)
    ]
    ranks = competition_ranks(list(zip(totals, nature_tokens, strict=True)))
    sheet = tuple(
        PlayerScore(
            seat=seat,
            wildlife=species[seat],
            corridors=largest[seat],
            habitat_points=dict(largest[seat]),
            habitat_bonuses=bonuses[seat],
            nature_tokens=nature_tokens[seat],
            wildlife_total=sum(species[seat].values()),
            habitat_total=sum(largest[seat].values()),
            bonus_total=sum(bonuses[seat].values()),
            total=totals[seat],
            rank=ranks[seat],
            won=ranks[seat] == 1,
        )
        for seat in range(players)
    )
    rating = solo_rating(sheet[0].total) if players == 1 else None
    return ScoreSheet(sheet, {s: normalise_card(cards[s]) for s in WILDLIFE}, options, rating)


def score_game(
    environments: Sequence[Environment],
    nature_tokens: Sequence[int],
    cards: Mapping[str, str],
    options: GameOptions,
) -> ScoreSheet:
    """Score a finished game: one environment and nature-token count per seat.

    ``cards`` maps each species to ``"A".."D"``, ``"family"`` or ``"intermediate"``.
    """
    return build_sheet(
        [score_wildlife(env.wildlife, cards, options) for env in environments],
        [largest_corridors(env) for env in environments],
        nature_tokens,
        cards,
        options,
    )
