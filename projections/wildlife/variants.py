"""The Family and Intermediate variant cards (RULES.md 5.8).

"Score all five species. Per group of one species, any shape."
"""

from __future__ import annotations

from collections.abc import Mapping

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import tokens_of, total_points

FAMILY_POINTS = (0, 2, 5, 9)
"""Family by group size, ``3+`` -> 9."""
INTERMEDIATE_POINTS = (0, 0, 5, 8, 12)
"""Intermediate by group size, ``4+`` -> 12."""


def family(wildlife: Mapping[Hex, str], species: str) -> int:
    """Family variant card, scoring the groups of ``species``.

    RULES.md 5.8: "Per group of one species, any shape: **Family**: 1 → 2, 2 → 5,
    3+ → 9."
    """
    return total_points(FAMILY_POINTS, map(len, tokens_of(wildlife).groups(species)))


def intermediate(wildlife: Mapping[Hex, str], species: str) -> int:
    """Intermediate variant card, scoring the groups of ``species``.

    RULES.md 5.8: "Per group of one species, any shape: **Intermediate**: 1 → 0,
    2 → 5, 3 → 8, 4+ → 12."
    """
    return total_points(INTERMEDIATE_POINTS, map(len, tokens_of(wildlife).groups(species)))
