"""Fox cards A-D (RULES.md 5.7).

Fox D's best choice of disjoint adjacent pairs is an exact maximum-weight matching
(:mod:`cascadia.projections.wildlife.matching`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cascadia.domain.hexgrid import ADJACENT, Hex
from cascadia.projections.wildlife.groups import points, tokens_of
from cascadia.projections.wildlife.matching import best_pairing

FOX = "fox"

PAIRED_SPECIES_POINTS = (0, 3, 5, 7)
"""Fox B by the number of non-fox species with at least two adjacent tokens."""
PAIR_POINTS = (0, 5, 7, 9, 11)
"""Fox D per pair by the number of non-fox species with at least two tokens around it."""
MIN_TOKENS = 2
"""Fox B and D count a species only with at least two tokens."""


def _other_species(raw: Mapping[Hex, str], hexes: Iterable[Hex]) -> dict[str, int]:
    """How many non-fox tokens of each species lie on ``hexes``."""
    counts: dict[str, int] = {}
    for h in hexes:
        species = raw.get(h)
        if species is not None and species != FOX:
            counts[species] = counts.get(species, 0) + 1
    return counts


def _doubled(counts: dict[str, int]) -> int:
    """The number of species with at least two tokens in ``counts``."""
    return sum(1 for n in counts.values() if n >= MIN_TOKENS)


def fox_a_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox A (see :func:`fox_a`)."""
    species = set(map(raw.get, ADJACENT[fox]))
    species.discard(None)
    return len(species)


def fox_b_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox B (see :func:`fox_b`)."""
    return points(PAIRED_SPECIES_POINTS, _doubled(_other_species(raw, ADJACENT[fox])))


def fox_c_at(raw: Mapping[Hex, str], fox: Hex) -> int:
    """What the fox on ``fox`` scores under fox C (see :func:`fox_c`)."""
    return max(_other_species(raw, ADJACENT[fox]).values(), default=0)


PER_FOX = {"A": fox_a_at, "B": fox_b_at, "C": fox_c_at}
"""The fox cards that are a sum over foxes of what each fox's neighbours give it, by
letter: a token changes only the scores of the foxes next to it (and its own)."""


def fox_a(wildlife: Mapping[Hex, str]) -> int:
    """Fox A.

    RULES.md 5.7: "per fox, the number of distinct species among its adjacent tokens
    (foxes included): n → n."
    """
    tokens = tokens_of(wildlife)
    return sum(fox_a_at(tokens.raw, f) for f in tokens.cells(FOX))


def fox_b(wildlife: Mapping[Hex, str]) -> int:
    """Fox B.

    RULES.md 5.7: "per fox, the number of non-fox species with at least two tokens
    adjacent to it: 1 → 3, 2 → 5, 3 → 7."
    """
    tokens = tokens_of(wildlife)
    return sum(fox_b_at(tokens.raw, f) for f in tokens.cells(FOX))


def fox_c(wildlife: Mapping[Hex, str]) -> int:
    """Fox C.

    RULES.md 5.7: "per fox, the number of tokens of its most common adjacent non-fox
    species: n → n (1..6)."
    """
    tokens = tokens_of(wildlife)
    return sum(fox_c_at(tokens.raw, f) for f in tokens.cells(FOX))


def fox_d(wildlife: Mapping[Hex, str]) -> int:
    """Fox D.

    RULES.md 5.7: "choose disjoint pairs of adjacent foxes, maximising the total; per
    pair, the number of non-fox species with at least two tokens among the (up to 8)
    hexes adjacent to the pair: 1 → 5, 2 → 7, 3 → 9, 4 → 11."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    pairs = []
    for group in tokens.groups(FOX):
        if len(group) < 2:
            continue
        foxes = set(group)
        for a in group:
            for b in ADJACENT[a][:3]:  # directions NE, E, SE: each adjacent pair once
                if b in foxes:
                    around = set(ADJACENT[a]).union(ADJACENT[b])
                    around.discard(a)
                    around.discard(b)
                    pairs.append((a, b, points(PAIR_POINTS, _doubled(_other_species(raw, around)))))
    return best_pairing(pairs)
