"""The game-option flags that ``simulate`` and ``new`` share, and the options they make."""

from __future__ import annotations

from typing import Annotated

import typer
from cascadia.application.setup import game_options
from cascadia.bots.simulation import parse_seed_range
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.options import GameOptions
from cascadia.domain.rng import MAX_SEED

CardsOption = Annotated[
    str, typer.Option("--cards", help="random, all-a, family, intermediate, or e.g. A,B,C,D,A.")
]
BalancedBagOption = Annotated[
    bool, typer.Option("--balanced-bag", help="5 tokens per species per player (2-3 players).")
]
SalmonRunsOption = Annotated[str, typer.Option("--salmon-runs", help="strict or lenient.")]
ElkRingsOption = Annotated[str, typer.Option("--elk-rings", help="arc or any-subset.")]
NoMajorityOption = Annotated[bool, typer.Option("--no-majority", help="No habitat majority bonuses.")]
RuleOption = Annotated[
    list[str] | None,
    typer.Option("--rule", help="A rule restriction of RULES.md 7 (repeatable), e.g. must_match."),
]

AchievementModeOption = Annotated[
    str | None,
    typer.Option(
        "--achievement-mode",
        help="Play for the achievement map (RULES.md 8.1): standard, or a rule restriction "
        "(which it turns on).",
        show_default=False,
    ),
]


def check_seed_option(value: int | None) -> int | None:
    """A ``--seed`` outside 0 .. 2^64 - 1 is a usage error (typer callback)."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"a seed is a whole number from 0 to 2^64 - 1, not {value}")
    return value


def options_from_flags(
    cards: str,
    balanced_bag: bool,
    salmon_runs: str,
    elk_rings: str,
    no_majority: bool,
    rules: list[str] | None = None,
    achievement_mode: str | None = None,
) -> GameOptions:
    """The game options the flags name (:func:`~cascadia.application.setup.game_options`:
    a restriction's achievement mode turns that restriction on); options a game cannot
    have raise :class:`~cascadia.application.setup.InvalidSetupError`."""
    return game_options(
        {
            "cards": cards,
            "balanced_bag": balanced_bag,
            "salmon_runs": salmon_runs,
            "elk_rings": elk_rings,
            "majority_bonus": not no_majority,
            "rules": rules or [],
            "achievement_mode": achievement_mode,
        }
    )


def seed_range(seed: int | None, games: int | None, seeds: str | None) -> tuple[int, int]:
    """The seeds ``start <= s < stop`` that ``--seed S --games N`` (default 0 and 1) or
    ``--seeds START:STOP`` name; both forms at once are refused."""
    if seeds is not None and (seed is not None or games is not None):
        raise InvalidOptionError("give either --seeds START:STOP or --seed/--games, not both")
    if seeds is not None:
        return parse_seed_range(seeds)
    start = seed or 0
    return start, start + (games or 1)
