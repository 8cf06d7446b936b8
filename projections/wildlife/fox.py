"""Fox cards A-D (RULES.md 5.7).

Fox D's best choice of disjoint adjacent pairs is an exact maximum-weight matching
(:mod:`cascadia.projections.wildlife.matching`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cascadia.domain.hexgrid import ADJACENT, NEIGHBOUR_SET, Hex
from cascadia.projections.wildlife.groups import tokens_of
from cascadia.projections.wildlife.matching import best_pairing

FOX = "fox"

PAIRED_SPECIES_POINTS = (0, 3, 5, 7)
"""Fox B by the number of non-fox species with at least two adjacent tokens."""
PAIR_POINTS = (0, 5, 7, 9, 11)
"""Fox D per pair by the number of non-fox species with at least two tokens around it."""
NOT_COUNTED = frozenset({None, FOX})
"""What fox B and D leave out of the species around: no token, or a fox."""


def _doubled(raw: Mapping[Hex, str], hexes: Iterable[Hex]) -> int:
    """The number of non-fox species with at least two tokens on ``hexes``."""
    seen: set[str | None] = set()
    doubled: set[str | None] = set()
    for h in hexes:
        species = raw.get(h)
        if species in seen:
            doubled.add(species)
        else:
            seen.add(species)
    doubled -= NOT_COUNTED
    return len(doubled)


def fox_a_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox A (see :func:`fox_a`)."""
    species = set(map(raw.get, ADJACENT[fox]))
    species.discard(None)
    return len(species)


def fox_b_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox B (see :func:`fox_b`)."""
    return PAIRED_SPECIES_POINTS[_doubled(raw, ADJACENT[fox])]  # six hexes: at most 3


def fox_c_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox C (see :func:`fox_c`)."""
    counts: dict[str, int] = {}
    for h in ADJACENT[fox]:
        species = raw.get(h)
        if species is not None and species != FOX:
            counts[species] = counts.get(species, 0) + 1
    return max(counts.values(), default=0)


PER_FOX = {"A": fox_a_at, "B": fox_b_at, "C": fox_c_at}
"""The fox cards that are a sum over foxes of what each fox's neighbours give it, by
letter: a token changes only the scores of the foxes next to it (and its own)."""


def fox_a(wildlife: Mapping[Hex, str]) -> int:
    """Fox A.

    RULES.md 5.7: "per fox, the number of distinct species among its adjacent tokens
    (foxes included): n → n."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    total = 0
    for fox in tokens.cells(FOX):
        total += fox_a_at(raw, fox)
    return total


def fox_b(wildlife: Mapping[Hex, str]) -> int:
    """Fox B.

    RULES.md 5.7: "per fox, the number of non-fox species with at least two tokens
    adjacent to it: 1 → 3, 2 → 5, 3 → 7."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    total = 0
    for fox in tokens.cells(FOX):
        total += fox_b_at(raw, fox)
    return total


def fox_c(wildlife: Mapping[Hex, str]) -> int:
    """Fox C.

    RULES.md 5.7: "per fox, the number of tokens of its most common adjacent non-fox
    species: n → n (1..6)."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    total = 0
    for fox in tokens.cells(FOX):
        total += fox_c_at(raw, fox)
    return total


def fox_d(wildlife: Mapping[Hex, str]) -> int:
    """Fox D.

    RULES.md 5.7: "choose disjoint pairs of adjacent foxes, maximising the total; per
    pair, the number of non-fox species with at least two tokens among the (up to 8)
    hexes adjacent to the pair: 1 → 5, 2 → 7, 3 → 9, 4 → 11."
    """
    tokens = tokens_of(wildlife)
    foxes = tokens.cells(FOX)
    if len(foxes) < 2:  # no pair
        return 0
    raw = tokens.raw
    pairs = []
    for a in foxes:
        for b in ADJACENT[a][:3]:  # directions NE, E, SE: each adjacent pair once
            if b in foxes:
                # the 8 hexes around the pair, and the pair itself (foxes: not counted)
                doubled = _doubled(raw, NEIGHBOUR_SET[a] | NEIGHBOUR_SET[b])
                pairs.append((a, b, PAIR_POINTS[doubled]))  # eight hexes: at most 4
    return best_pairing(pairs)
