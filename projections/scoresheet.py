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
from dataclasses import dataclass, replace
from typing import Any

from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.projections.habitats import corridor_sizes, habitat_bonuses, habitat_points
from cascadia.projections.wildlife import normalise_card, score_wildlife
from cascadia.projections.wildlife.groups import tokens_of

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
_WILDLIFE_POINTS = "wildlife points"
"""The name of a board's kept wildlife points in its derived data."""


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's line of the score sheet. Mappings are in ``WILDLIFE`` / ``HABITATS`` order.

    ``corridors`` is the largest corridor per habitat and ``habitat_points`` what it
    scores (the same, unless a rule restriction of RULES.md 7 says otherwise);
    ``habitat_total`` is the corridor points only; ``bonus_total`` the majority (or
    solo) bonuses; ``total = wildlife_total + habitat_total + bonus_total +
    nature_tokens``. ``card_set`` is 1 when the second card set scored the wildlife
    (``two_card_sets``), else 0. Treat the mappings as read-only.
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
    """Ranked 1 in a finished game; ``False`` for everyone while the game goes on (a
    player ranked 1 then is leading, not winning)."""
    card_set: int = 0

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
            "card_set": self.card_set,
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every player's score, by seat, with the cards and options they were scored under."""

    players: tuple[PlayerScore, ...]
    cards: Mapping[str, str]
    options: GameOptions
    solo_rating: str | None = None
    second_cards: Mapping[str, str] | None = None
    rules_version: str = RULES_VERSION
    """The rules version of the game scored (scoring is the same under every version)."""
    final: bool = True
    """Whether these are the final scores; running scores of a game still being played
    have no winner (:meth:`running`)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats of the players who won (ranked 1); none before the game is over."""
        return tuple(p.seat for p in self.players if p.won)

    def running(self) -> ScoreSheet:
        """The same sheet as the running scores of a game still being played: ranks as
        they stand, nobody has won (RULES.md 4.5: "Then score"; 5: "Highest total wins")."""
        players = tuple(replace(p, won=False) if p.won else p for p in self.players)
        return ScoreSheet(
            players,
            self.cards,
            self.options,
            self.solo_rating,
            self.second_cards,
            self.rules_version,
            final=False,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {
            "rules_version": self.rules_version,
            "cards": dict(self.cards),
            "second_cards": dict(self.second_cards) if self.second_cards is not None else None,
            "options": self.options.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
            "solo_rating": self.solo_rating,
        }


def named_sheet(sheet: ScoreSheet, names: Sequence[str]) -> dict[str, Any]:
    """The sheet as plain data for people: :meth:`ScoreSheet.to_dict` with ``final``, each
    player's ``name`` and ``leading`` (ranked 1 now), and ``winners`` only once the game is
    over (``None`` before)."""
    data = sheet.to_dict()
    data["final"] = sheet.final
    if not sheet.final:
        data["winners"] = None
    data["players"] = [
        {"seat": player["seat"], "name": name, **player, "leading": player["rank"] == 1}
        for player, name in zip(data["players"], names, strict=True)
    ]
    return data


def solo_rating(total: int) -> str:
    """The RULES.md 6 rating of a solo total (below 60: "keep practising")."""
    return next((name for floor, name in SOLO_RATINGS if total >= floor), BELOW_RATINGS)


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Standard competition ranks, highest key first: equal keys share a place ("1, 1, 3")."""
    return [1 + sum(other > key for other in keys) for key in keys]


def build_sheet(
    wildlife: Sequence[Mapping[str, int]],
    corridors: Sequence[Mapping[str, Sequence[int]]],
    nature_tokens: Sequence[int],
    cards: Mapping[str, str],
    options: GameOptions,
    *,
    second_cards: Mapping[str, str] | None = None,
    card_sets: Sequence[int] | None = None,
) -> ScoreSheet:
    """The score sheet from each player's wildlife points and corridor sizes, by seat.

    ``corridors`` holds, per player and habitat, the sizes of all that habitat's
    corridors (the largest is scored, unless a rule restriction says otherwise).
    ``card_sets`` says per seat which card set scored the wildlife (0: ``cards``, 1:
    ``second_cards``), for ``two_card_sets`` games.
    """
    players = len(wildlife)
    if not players or len(corridors) != players or len(nature_tokens) != players:
        raise ValueError("wildlife, corridors and nature tokens must be given for every player")
    species = [{s: wildlife[seat][s] for s in WILDLIFE} for seat in range(players)]
    largest = [{h: max(corridors[seat][h], default=0) for h in HABITATS} for seat in range(players)]
    points = [{h: habitat_points(corridors[seat][h], options) for h in HABITATS} for seat in range(players)]
    bonuses = habitat_bonuses(largest, options)
    totals = [
        player_total(species[seat], points[seat], bonuses[seat], nature_tokens[seat])
        for seat in range(players)
    ]
    ranks = competition_ranks(list(zip(totals, nature_tokens, strict=True)))
    sheet = tuple(
        PlayerScore(
            seat=seat,
            wildlife=species[seat],
            corridors=largest[seat],
            habitat_points=points[seat],
            habitat_bonuses=bonuses[seat],
            nature_tokens=nature_tokens[seat],
            wildlife_total=sum(species[seat].values()),
            habitat_total=sum(points[seat].values()),
            bonus_total=sum(bonuses[seat].values()),
            total=totals[seat],
            rank=ranks[seat],
            won=ranks[seat] == 1,
            card_set=card_sets[seat] if card_sets else 0,
        )
        for seat in range(players)
    )
    return ScoreSheet(
        players=sheet,
        cards=_card_set(cards),
        options=options,
        solo_rating=solo_rating(sheet[0].total) if players == 1 else None,
        second_cards=_card_set(second_cards) if second_cards is not None else None,
    )


def player_total(
    wildlife: Mapping[str, int],
    habitat_points: Mapping[str, int],
    bonuses: Mapping[str, int],
    nature_tokens: int,
) -> int:
    """RULES.md 5: a player's total from its points per species, per habitat corridor
    and per habitat bonus, and its unspent nature tokens."""
    return sum(wildlife.values()) + sum(habitat_points.values()) + sum(bonuses.values()) + nature_tokens


def _card_set(cards: Mapping[str, str]) -> dict[str, str]:
    return {species: normalise_card(cards[species]) for species in WILDLIFE}


def score_game(
    environments: Sequence[Environment],
    nature_tokens: Sequence[int],
    cards: Mapping[str, str],
    options: GameOptions,
    second_cards: Mapping[str, str] | None = None,
) -> ScoreSheet:
    """Score a finished game: one environment and nature-token count per seat.

    ``cards`` maps each species to ``"A".."D"``, ``"family"`` or ``"intermediate"``.
    With ``options.two_card_sets`` and a ``second_cards`` set, each player is scored
    under the set that gives them the higher total (RULES.md 7.6; a tie keeps
    ``cards``); without ``second_cards`` only ``cards`` is used.
    """
    if not options.two_card_sets:
        second_cards = None
    scored = [_board_wildlife(env, cards, options, second_cards) for env in environments]
    return build_sheet(
        [wildlife for wildlife, _ in scored],
        [corridor_sizes(env) for env in environments],
        nature_tokens,
        cards,
        options,
        second_cards=second_cards,
        card_sets=[card_set for _, card_set in scored],
    )


@dataclass(frozen=True, slots=True)
class _WildlifePoints:
    """A board's :func:`seat_wildlife`, kept in its derived data
    (``Environment.derived``) with the tokens, cards and options it was scored under."""

    wildlife: dict[Hex, str]
    cards: dict[str, str]
    options: GameOptions
    second_cards: dict[str, str] | None
    scored: tuple[dict[str, int], int]

    def copy(self) -> _WildlifePoints:
        return self  # never changed: a copy of the board shares it

    def holds(
        self,
        wildlife: Mapping[Hex, str],
        cards: Mapping[str, str],
        options: GameOptions,
        second_cards: Mapping[str, str] | None,
    ) -> bool:
        """Whether these are the points of ``wildlife`` under these cards and options."""
        return (
            self.wildlife == wildlife
            and self.cards == cards
            and (self.options is options or self.options == options)
            and self.second_cards == second_cards
        )


def _board_wildlife(
    environment: Environment,
    cards: Mapping[str, str],
    options: GameOptions,
    second_cards: Mapping[str, str] | None,
) -> tuple[dict[str, int], int]:
    """:func:`seat_wildlife` of the board, kept with it and scored again only when its
    tokens (or the cards or options) differ from the ones last scored: a game's boards
    are scored at each version (the running scores of a view), and a board's tokens
    change once a turn at most."""
    kept = environment.derived.get(_WILDLIFE_POINTS)
    if not (
        isinstance(kept, _WildlifePoints) and kept.holds(environment.wildlife, cards, options, second_cards)
    ):
        scored = seat_wildlife(environment.wildlife, cards, options, second_cards)
        kept = _WildlifePoints(
            dict(environment.wildlife),
            dict(cards),
            options,
            None if second_cards is None else dict(second_cards),
            scored,
        )
        environment.derived[_WILDLIFE_POINTS] = kept
    points, card_set = kept.scored
    return dict(points), card_set


def seat_wildlife(
    wildlife: Mapping[Hex, str],
    cards: Mapping[str, str],
    options: GameOptions,
    second_cards: Mapping[str, str] | None = None,
) -> tuple[dict[str, int], int]:
    """One board's points per species and the card set that scored them (0: ``cards``,
    1: ``second_cards``): with ``options.two_card_sets`` and a ``second_cards`` set
    (RULES.md 7.6) the set that gives the higher wildlife total, a tie keeping ``cards``."""
    tokens = tokens_of(wildlife)  # its groups found once for both card sets
    points = score_wildlife(tokens, cards, options)
    if second_cards is not None and options.two_card_sets:
        other = score_wildlife(tokens, second_cards, options)
        if sum(other.values()) > sum(points.values()):
            return other, 1
    return points, 0
