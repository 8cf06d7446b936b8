"""Fox cards A-D (RULES.md 5.7).

Fox D's best choice of disjoint adjacent pairs is an exact maximum-weight matching
(:mod:`cascadia.projections.wildlife.matching`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from cascadia.domain.hexgrid import Hex, neighbours
from cascadia.projections.wildlife.groups import points, tokens_of
from cascadia.projections.wildlife.matching import best_pairing

FOX = "fox"

PAIRED_SPECIES_POINTS = (0, 3, 5, 7)
"""Fox B by the number of non-fox species with at least two adjacent tokens."""
PAIR_POINTS = (0, 5, 7, 9, 11)
"""Fox D per pair by the number of non-fox species with at least two tokens around it."""
MIN_TOKENS = 2
"""Fox B and D count a species only with at least two tokens."""


def _species_around(raw: Mapping[Hex, str], hexes: Iterable[Hex]) -> Counter[str]:
    """How many tokens of each species lie on ``hexes``."""
    return Counter(raw[n] for n in hexes if n in raw)


def _doubled(counts: Counter[str]) -> int:
    """The number of non-fox species with at least two tokens in ``counts``."""
    return sum(1 for species, n in counts.items() if n >= MIN_TOKENS and species != FOX)


def fox_a(wildlife: Mapping[Hex, str]) -> int:
    """Fox A.

    RULES.md 5.7: "per fox, the number of distinct species among its adjacent tokens
    (foxes included): n → n."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    return sum(len({raw[n] for n in neighbours(f) if n in raw}) for f in tokens.cells(FOX))


def fox_b(wildlife: Mapping[Hex, str]) -> int:
    """Fox B.

    RULES.md 5.7: "per fox, the number of non-fox species with at least two tokens
    adjacent to it: 1 → 3, 2 → 5, 3 → 7."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    return sum(
        points(PAIRED_SPECIES_POINTS, _doubled(_species_around(raw, neighbours(f))))
        for f in tokens.cells(FOX)
    )


def fox_c(wildlife: Mapping[Hex, str]) -> int:
    """Fox C.

    RULES.md 5.7: "per fox, the number of tokens of its most common adjacent non-fox
    species: n → n (1..6)."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    total = 0
    for f in tokens.cells(FOX):
        counts = _species_around(raw, neighbours(f))
        counts.pop(FOX, None)
        total += max(counts.values(), default=0)
    return total


def fox_d(wildlife: Mapping[Hex, str]) -> int:
    """Fox D.

    RULES.md 5.7: "choose disjoint pairs of adjacent foxes, maximising the total; per
    pair, the number of non-fox species with at least two tokens among the (up to 8)
    hexes adjacent to the pair: 1 → 5, 2 → 7, 3 → 9, 4 → 11."
    """
    tokens = tokens_of(wildlife)
    raw = tokens.raw
    foxes = tokens.cells(FOX)
    pairs = []
    for a in foxes:
        for b in neighbours(a)[:3]:  # directions NE, E, SE: each adjacent pair once
            if b in foxes:
                around = (set(neighbours(a)) | set(neighbours(b))) - {a, b}
                pairs.append((a, b, points(PAIR_POINTS, _doubled(_species_around(raw, around)))))
    return best_pairing(pairs)
