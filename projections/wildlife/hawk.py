"""Hawk cards A-D (RULES.md 5.6).

"A **line of sight** joins two hawks on the same straight hex axis that are **not
adjacent**, with no hawk between them. Other wildlife, empty tiles and hexes without
tiles do not block it."

Lines of sight are found per axis: the hawks sorted by line and along it, each sees
the next on the same line when it is at least two steps away. Hawk D's best choice of
disjoint pairs is an exact maximum-weight matching
(:mod:`cascadia.projections.wildlife.matching`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import pairwise

from cascadia.domain.hexgrid import NEIGHBOUR_SET, Hex, distance
from cascadia.projections.wildlife.groups import Tokens, points, row_order, tokens_of
from cascadia.projections.wildlife.matching import best_pairing

HAWK = "hawk"

ISOLATED_POINTS = (0, 2, 5, 8, 11, 14, 18, 22, 26)
"""Hawk A by the number of hawks adjacent to no hawk, ``8+`` -> 26."""
SIGHTED_POINTS = (0, 0, 5, 9, 12, 16, 20, 24, 28)
"""Hawk B by the number of isolated hawks with a line of sight, ``8+`` -> 28."""
MIN_SIGHTED = 2
"""Hawk B scores nothing with fewer isolated hawks than this (``0-1 -> 0``)."""
LINE_OF_SIGHT_POINTS = 3
"""Hawk C per line of sight."""
PAIR_POINTS = (0, 4, 7, 9)
"""Hawk D per pair by distinct species strictly between, ``3+`` -> 9."""


def lines_of_sight(hawks: Collection[Hex]) -> list[tuple[Hex, Hex]]:
    """Every line of sight between ``hawks``, each once."""
    sight: list[tuple[Hex, Hex]] = []
    if len(hawks) < 2:  # a line of sight joins two hawks
        return sight
    line = sorted(hawks, key=row_order)  # axis E-W: by r (the line), then q
    for a, b in pairwise(line):
        if a[1] == b[1] and b[0] - a[0] > 1:
            sight.append((a, b))
    line.sort()  # axis SE-NW: by q, then r
    for a, b in pairwise(line):
        if a[0] == b[0] and b[1] - a[1] > 1:
            sight.append((a, b))
    line.sort(key=sum)  # axis NE-SW: by q + r, then (the sort is stable) q
    for a, b in pairwise(line):
        if a[0] + a[1] == b[0] + b[1] and b[0] - a[0] > 1:
            sight.append((a, b))
    return sight


def between(a: Hex, b: Hex) -> list[Hex]:
    """The hexes strictly between ``a`` and ``b`` on their common axis."""
    steps = distance(a, b)
    dq, dr = (b[0] - a[0]) // steps, (b[1] - a[1]) // steps
    return [(a[0] + k * dq, a[1] + k * dr) for k in range(1, steps)]


def isolated(tokens: Tokens) -> set[Hex]:
    """The hawks adjacent to no other hawk."""
    hawks = tokens.cells(HAWK)
    alone: set[Hex] = set()
    for h in hawks:
        if hawks.isdisjoint(NEIGHBOUR_SET[h]):
            alone.add(h)
    return alone


def hawk_a(wildlife: Mapping[Hex, str]) -> int:
    """Hawk A.

    RULES.md 5.6: "count hawks adjacent to no other hawk. 1 → 2, 2 → 5, 3 → 8,
    4 → 11, 5 → 14, 6 → 18, 7 → 22, 8+ → 26."
    """
    return points(ISOLATED_POINTS, len(isolated(tokens_of(wildlife))))


def hawk_b(wildlife: Mapping[Hex, str]) -> int:
    """Hawk B.

    RULES.md 5.6: "count hawks adjacent to no other hawk **and** with a line of sight
    to another hawk (that hawk need not be isolated). 0-1 → 0, 2 → 5, 3 → 9, 4 → 12,
    5 → 16, 6 → 20, 7 → 24, 8+ → 28."
    """
    tokens = tokens_of(wildlife)
    alone = isolated(tokens)
    if len(alone) < MIN_SIGHTED:
        return 0
    sighted: set[Hex] = set()
    for pair in lines_of_sight(tokens.cells(HAWK)):
        sighted.update(pair)
    return points(SIGHTED_POINTS, len(alone & sighted))


def hawk_c(wildlife: Mapping[Hex, str]) -> int:
    """Hawk C.

    RULES.md 5.6: "3 per line of sight (a hawk may be in several)."
    """
    return LINE_OF_SIGHT_POINTS * len(lines_of_sight(tokens_of(wildlife).cells(HAWK)))


def hawk_d(wildlife: Mapping[Hex, str]) -> int:
    """Hawk D.

    RULES.md 5.6: "choose disjoint pairs of hawks joined by a line of sight,
    maximising the total; each pair scores by the number of distinct species on
    tokens strictly between them: 1 → 4, 2 → 7, 3+ → 9 (0 → 0)."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    pairs = []
    for a, b in lines_of_sight(tokens.cells(HAWK)):
        species: set[str | None] = set()
        for h in between(a, b):
            species.add(raw.get(h))
        species.discard(None)
        pairs.append((a, b, points(PAIR_POINTS, len(species))))
    return best_pairing(pairs)
