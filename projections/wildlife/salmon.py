"""Salmon cards A-D (RULES.md 5.5).

"A **run** is a group of salmon in which every salmon is adjacent to at most two
other salmon (a triangle of 3 is a run; nothing more may touch it). Runs never touch
other salmon, since a group is maximal.
**Ruling**: a group in which some salmon touches three or more salmon is not a run
and scores nothing (the rulebook text). Option ``salmon_runs=lenient`` instead drops
only the salmon touching three or more others and scores the remaining pieces as
runs."
"""

from __future__ import annotations

from collections.abc import Mapping

from cascadia.domain.hexgrid import ADJACENT, NEIGHBOUR_SET, Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.wildlife.groups import (
    DEFAULT_OPTIONS,
    Group,
    connected_groups,
    tokens_of,
    total_points,
)

SALMON = "salmon"
MAX_RUN_NEIGHBOURS = 2

RUN_POINTS_A = (0, 2, 5, 8, 12, 16, 20, 25)
"""Salmon A by run size, ``7+`` -> 25."""
RUN_POINTS_B = (0, 2, 4, 9, 11, 17)
"""Salmon B by run size, ``5+`` -> 17."""
RUN_POINTS_C = (0, 0, 0, 10, 12, 15)
"""Salmon C by run size: only runs of 3 or more, ``5+`` -> 15."""
MIN_RUN_D = 3
"""Salmon D scores only runs of at least 3 salmon."""


def runs(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> list[Group]:
    """The salmon runs, under the ``salmon_runs`` option (strict or lenient)."""
    tokens = tokens_of(wildlife)
    salmon = tokens.cells(SALMON)
    found: list[Group] = []
    for group in tokens.groups(SALMON):
        if len(group) <= MAX_RUN_NEIGHBOURS + 1:  # no salmon can touch three others
            found.append(group)
            continue
        crowded = {h for h in group if len(salmon & NEIGHBOUR_SET[h]) > MAX_RUN_NEIGHBOURS}
        if not crowded:
            found.append(group)
        elif options.salmon_runs == "lenient":
            found.extend(connected_groups([h for h in group if h not in crowded]))
    return found


def salmon_a(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> int:
    """Salmon A.

    RULES.md 5.5: "per run by size 1 → 2, 2 → 5, 3 → 8, 4 → 12, 5 → 16, 6 → 20,
    7+ → 25."
    """
    return total_points(RUN_POINTS_A, map(len, runs(wildlife, options)))


def salmon_b(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> int:
    """Salmon B.

    RULES.md 5.5: "1 → 2, 2 → 4, 3 → 9, 4 → 11, 5+ → 17" (per run, by size).
    """
    return total_points(RUN_POINTS_B, map(len, runs(wildlife, options)))


def salmon_c(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> int:
    """Salmon C.

    RULES.md 5.5: "only runs of 3 or more: 3 → 10, 4 → 12, 5+ → 15."
    """
    return total_points(RUN_POINTS_C, map(len, runs(wildlife, options)))


def salmon_d(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> int:
    """Salmon D.

    RULES.md 5.5: "per run of at least 3 salmon: 1 per salmon in the run, plus 1 per
    distinct non-salmon token adjacent to the run (each token counted once)."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    total = 0
    for run in runs(tokens, options):
        if len(run) < MIN_RUN_D:
            continue
        touching = {n for h in run for n in ADJACENT[h] if raw.get(n, SALMON) != SALMON}
        total += len(run) + len(touching)
    return total
