"""Bear cards A-D (RULES.md 5.3).

"Groups are maximal connected bear groups; a group of a size the card does not
list scores nothing and does not stop other groups from scoring."
"""

from __future__ import annotations

from collections.abc import Mapping

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import points, tokens_of, total_points

BEAR = "bear"

PAIR_COUNT_POINTS = (0, 4, 11, 19, 27)
"""Bear A by the number of groups of exactly 2 (``4+`` -> 27)."""
TRIO_POINTS = 10
"""Bear B per group of exactly 3."""
SMALL_GROUP_POINTS = (0, 2, 5, 8, 0)
"""Bear C by group size 1..3; larger groups score nothing."""
ALL_SIZES_BONUS = 3
"""Bear C: once, with at least one group of each size 1, 2 and 3."""
MEDIUM_GROUP_POINTS = (0, 0, 5, 8, 13, 0)
"""Bear D by group size 2..4; other sizes score nothing."""


def group_sizes(wildlife: Mapping[Hex, str]) -> list[int]:
    """The size of every bear group."""
    return list(map(len, tokens_of(wildlife).groups(BEAR)))


def bear_a(wildlife: Mapping[Hex, str]) -> int:
    """Bear A.

    RULES.md 5.3: "count the groups of exactly 2. 1 → 4, 2 → 11, 3 → 19, 4+ → 27."
    """
    return points(PAIR_COUNT_POINTS, group_sizes(wildlife).count(2))


def bear_b(wildlife: Mapping[Hex, str]) -> int:
    """Bear B.

    RULES.md 5.3: "10 per group of exactly 3."
    """
    return TRIO_POINTS * group_sizes(wildlife).count(3)


def bear_c(wildlife: Mapping[Hex, str]) -> int:
    """Bear C.

    RULES.md 5.3: "per group of size 1 → 2, 2 → 5, 3 → 8; +3 once if the player has
    at least one group of each size 1, 2 and 3."
    """
    sizes = group_sizes(wildlife)
    total = total_points(SMALL_GROUP_POINTS, sizes)
    if 1 in sizes and 2 in sizes and 3 in sizes:
        total += ALL_SIZES_BONUS
    return total


def bear_d(wildlife: Mapping[Hex, str]) -> int:
    """Bear D.

    RULES.md 5.3: "per group of size 2 → 5, 3 → 8, 4 → 13."
    """
    return total_points(MEDIUM_GROUP_POINTS, group_sizes(wildlife))
