"""Achievements (RULES.md 8): what the winner of a finished game qualified for.

"After a game, the winner qualifies for each of these that holds: score at least 80 /
85 / 90 / 95 / 100 / 105 / 110; no nature tokens left; no bears / no elk / no salmon /
no hawks / no foxes; at least 11 tokens of one species; the largest corridor in at
least 3 habitats (strictly larger than every other player's); at least 5 points in
every habitat; at least 12 points in one habitat; at least 15 points in one habitat;
at least 10 points for every species; at least 20 points for each of two species; at
least 30 points for one species; at least 5 nature tokens; at least 10 nature tokens;
no token on any keystone tile; exactly 3 species placed."

Where the rules are silent we chose: "points in a habitat" are the corridor points
plus that habitat's majority (or solo) bonus, as on the score pad; nature tokens are
those left at the end; in a solo game every habitat with a corridor counts as
"strictly larger than every other player's"; shared winners each get their own list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from cascadia.domain.components import HABITATS, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.domain.state import GameState, PlayerState
from cascadia.projections.scoresheet import PlayerScore, ScoreSheet

SCORE_THRESHOLDS = (80, 85, 90, 95, 100, 105, 110)
PLURAL = {"bear": "bears", "elk": "elk", "salmon": "salmon", "hawk": "hawks", "fox": "foxes"}

Check = Callable[[PlayerState, PlayerScore, ScoreSheet], bool]


def _habitat_points(score: PlayerScore) -> list[int]:
    return [score.habitat_points[h] + score.habitat_bonuses[h] for h in HABITATS]


def _corridor_leads(seat: int, sheet: ScoreSheet) -> int:
    own = sheet.players[seat].corridors
    others = [p.corridors for p in sheet.players if p.seat != seat]
    return sum(1 for h in HABITATS if own[h] > max((o[h] for o in others), default=0))


def _species_counts(player: PlayerState) -> Counter[str]:
    return Counter(player.environment.wildlife.values())


def _no_keystone_token(player: PlayerState) -> bool:
    environment = player.environment
    return not any(TILES[environment.tiles[h][0]].keystone for h in environment.wildlife)


ACHIEVEMENTS: dict[str, tuple[str, Check]] = {
    **{f"score_{n}": (f"score at least {n}", lambda p, s, sh, n=n: s.total >= n) for n in SCORE_THRESHOLDS},
    "no_nature_tokens_left": ("no nature tokens left", lambda p, s, sh: s.nature_tokens == 0),
    **{
        f"no_{species}": (
            f"no {PLURAL[species]}",
            lambda p, s, sh, species=species: _species_counts(p)[species] == 0,
        )
        for species in WILDLIFE
    },
    "eleven_of_one_species": (
        "at least 11 tokens of one species",
        lambda p, s, sh: max(_species_counts(p).values(), default=0) >= 11,
    ),
    "largest_corridor_in_three_habitats": (
        "the largest corridor in at least 3 habitats",
        lambda p, s, sh: _corridor_leads(s.seat, sh) >= 3,
    ),
    "five_in_every_habitat": (
        "at least 5 points in every habitat",
        lambda p, s, sh: min(_habitat_points(s)) >= 5,
    ),
    "twelve_in_one_habitat": (
        "at least 12 points in one habitat",
        lambda p, s, sh: max(_habitat_points(s)) >= 12,
    ),
    "fifteen_in_one_habitat": (
        "at least 15 points in one habitat",
        lambda p, s, sh: max(_habitat_points(s)) >= 15,
    ),
    "ten_for_every_species": (
        "at least 10 points for every species",
        lambda p, s, sh: min(s.wildlife.values()) >= 10,
    ),
    "twenty_for_two_species": (
        "at least 20 points for each of two species",
        lambda p, s, sh: sum(1 for v in s.wildlife.values() if v >= 20) >= 2,
    ),
    "thirty_for_one_species": (
        "at least 30 points for one species",
        lambda p, s, sh: max(s.wildlife.values()) >= 30,
    ),
    "five_nature_tokens": ("at least 5 nature tokens", lambda p, s, sh: s.nature_tokens >= 5),
    "ten_nature_tokens": ("at least 10 nature tokens", lambda p, s, sh: s.nature_tokens >= 10),
    "no_token_on_keystone": ("no token on any keystone tile", lambda p, s, sh: _no_keystone_token(p)),
    "exactly_three_species": (
        "exactly 3 species placed",
        lambda p, s, sh: len(_species_counts(p)) == 3,
    ),
}
"""Every achievement of RULES.md 8 by id: its description and its check."""


def is_standard_game(options: GameOptions) -> bool:
    """RULES.md 8 is for standard games: lettered cards and no rule restriction (the
    projection still lists what a winner of any game qualified for, and says which)."""
    return options.cards.strip().lower() not in VARIANT_CARDS and not any(
        getattr(options, name) for name in RESTRICTIONS
    )


def player_achievements(state: GameState, sheet: ScoreSheet, seat: int) -> list[str]:
    """The ids of the achievements seat ``seat`` qualifies for, in the order above."""
    player, score = state.players[seat], sheet.players[seat]
    return [name for name, (_, check) in ACHIEVEMENTS.items() if check(player, score, sheet)]


def winner_achievements(state: GameState, sheet: ScoreSheet) -> dict[int, list[str]]:
    """For a finished game, each winner's seat and the achievements they qualified for."""
    if not state.finished:
        return {}
    return {seat: player_achievements(state, sheet, seat) for seat in sheet.winners}
