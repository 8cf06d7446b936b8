"""Elk cards A-D (RULES.md 5.4): partition the elk into formations to maximise the total.

How the true maximum is computed:

- **A, B, D** are exact set-partition searches over placed shapes
  (:func:`cascadia.projections.wildlife.partition.best_partition`): per linked part
  of the elk, a memoised search over bitmasks that always covers the lowest free elk
  (row order) with a formation anchored at it.
- **C** (any connected formation; ``8+`` scores 28) uses closed forms where they are
  provably exact and a branch and bound search otherwise, per elk group:

  * Let ``g(n)`` be the best total over integer partitions of ``n`` with the card's
    table (no shape constraint); it bounds every group of ``n`` elk from above.
  * ``n <= 8``: the table is superadditive up to 8, so the whole group is best: ``g(n)``.
  * ``n = 9, 10``: ``g(9) = 28 + 2`` and ``g(10) = 28 + 2 + 2`` (= 8 + 2, the ruling's
    32). Both are reachable in every connected group: a vertex that is a leaf of a
    spanning tree can be taken out leaving the rest connected, so 8 + 1 (+ 1) always
    exists.
  * ``n >= 11``: the piece holding the lowest elk is some connected set ``S`` of at
    most 8 elk (a bigger piece never helps: it scores 28 like any connected 8 of it,
    and what is left over scores more than 0); the rest of the group splits into
    connected parts solved recursively (memoised on their bitmask). Candidates ``S``
    are enumerated once each (depth first, largest first along each branch) and
    bounded by ``points(S) + sum(g(part))``. Those whose bound reaches ``g(n)`` are
    solved at once and the search stops as soon as one does reach it; otherwise the
    rest are tried best bound first, skipping every bound no better than the best
    total found.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise

from cascadia.domain.hexgrid import AXES, DIRECTIONS, Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.wildlife.groups import (
    DEFAULT_OPTIONS,
    Group,
    mask_components,
    neighbour_mask,
    row_order,
    tokens_of,
)
from cascadia.projections.wildlife.partition import ShapeTable, best_partition, shape_table

ELK = "elk"

LINE_POINTS = (0, 2, 5, 9, 13)
"""Elk A by line length 1..4."""
SHAPE_POINTS = (0, 2, 5, 9, 13)
"""Elk B: single, pair, triangle, rhombus (by number of elk)."""
ANY_SHAPE_POINTS = (0, 2, 4, 7, 10, 14, 18, 23, 28)
"""Elk C by formation size, ``8+`` -> 28."""
RING_POINTS = (0, 2, 5, 8, 12, 16, 21)
"""Elk D by formation size 1..6."""

LINE_SHAPES: ShapeTable = shape_table(
    ([(k * dq, k * dr) for k in range(length)], LINE_POINTS[length])
    for dq, dr in AXES
    for length in range(1, 5)
)


def _plus(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


_ORIGIN: Hex = (0, 0)
BLOCK_SHAPES: ShapeTable = shape_table(
    [([_ORIGIN], SHAPE_POINTS[1])]
    + [([_ORIGIN, d], SHAPE_POINTS[2]) for d in DIRECTIONS]
    + [([_ORIGIN, d, e], SHAPE_POINTS[3]) for d, e in pairwise(DIRECTIONS + DIRECTIONS[:1])]
    + [([_ORIGIN, d, e, _plus(d, e)], SHAPE_POINTS[4]) for d, e in pairwise(DIRECTIONS + DIRECTIONS[:1])]
)

ARC_SHAPES: ShapeTable = shape_table(
    ([DIRECTIONS[(start + k) % 6] for k in range(length)], RING_POINTS[length])
    for start in range(6)
    for length in range(1, 7)
)
RING_SUBSET_SHAPES: ShapeTable = shape_table(
    ([d for i, d in enumerate(DIRECTIONS) if subset >> i & 1], RING_POINTS[subset.bit_count()])
    for subset in range(1, 64)
)


def elk_a(wildlife: Mapping[Hex, str]) -> int:
    """Elk A, lines.

    RULES.md 5.4: "a formation is a straight line of elk along one hex axis, length
    1..4. 1 → 2, 2 → 5, 3 → 9, 4 → 13 (a straight run of 5 scores best as 4 + 1)."
    Partition the elk into formations to maximise the total.
    """
    return best_partition(tokens_of(wildlife).groups(ELK), LINE_SHAPES)


def elk_b(wildlife: Mapping[Hex, str]) -> int:
    """Elk B, shapes.

    RULES.md 5.4: "shapes (any rotation): single 2, adjacent pair 5, triangle of 3
    mutually adjacent elk 9, rhombus of 4 (two triangles sharing an edge) 13."
    Partition the elk into formations to maximise the total.
    """
    return best_partition(tokens_of(wildlife).groups(ELK), BLOCK_SHAPES)


def elk_c(wildlife: Mapping[Hex, str]) -> int:
    """Elk C, any shape.

    RULES.md 5.4: "a formation is any connected set of elk. 1 → 2, 2 → 4, 3 → 7,
    4 → 10, 5 → 14, 6 → 18, 7 → 23, 8+ → 28. **Ruling**: a group of 9 or more may be
    split into connected formations when that scores more (10 elk → 8 + 2 = 32),
    because elk always score the best interpretation."
    """
    total = 0
    for group in tokens_of(wildlife).groups(ELK):
        total += _best_connected_split(group)
    return total


def elk_d(wildlife: Mapping[Hex, str], options: GameOptions = DEFAULT_OPTIONS) -> int:
    """Elk D, rings.

    RULES.md 5.4: "a formation is a set of 1..6 elk that all lie on the six hexes
    around one centre hex and form a connected arc of that ring (the full ring
    included). The centre may be any hex, with or without a tile or token. 1 → 2,
    2 → 5, 3 → 8, 4 → 12, 5 → 16, 6 → 21. **Ruling**: arcs must be connected (a
    "group" is connected); option ``elk_rings=any-subset`` allows gaps, as some
    designer answers suggest."
    """
    tokens = tokens_of(wildlife)
    if options.elk_rings == "any-subset":
        # formations with gaps join elk of different groups: one part, split inside
        return best_partition([tokens.cells(ELK)], RING_SUBSET_SHAPES)
    return best_partition(tokens.groups(ELK), ARC_SHAPES)


# --- Elk C -------------------------------------------------------------------------

_MAX_PIECE = len(ANY_SHAPE_POINTS) - 1
_CLOSED_FORM_UP_TO = 10
_unconstrained: list[int] = [0]


def unconstrained_best(n: int) -> int:
    """``g(n)``: the best Elk C total over integer partitions of ``n`` (no shapes)."""
    while len(_unconstrained) <= n:
        m = len(_unconstrained)
        _unconstrained.append(
            max(ANY_SHAPE_POINTS[k] + _unconstrained[m - k] for k in range(1, min(m, _MAX_PIECE) + 1))
        )
    return _unconstrained[n]


unconstrained_best(_CLOSED_FORM_UP_TO)  # the closed forms, read directly below


def _best_connected_split(group: Group) -> int:
    """The best Elk C total of one connected group."""
    if len(group) <= _CLOSED_FORM_UP_TO:
        return _unconstrained[len(group)]
    order = sorted(group, key=row_order)
    return _ConnectedSplit(neighbour_mask(order)).best((1 << len(order)) - 1)


class _ConnectedSplit:
    """Branch and bound over the connected piece holding the lowest elk (see module doc)."""

    def __init__(self, links: Sequence[int]) -> None:
        self.links = links
        self.memo: dict[int, int] = {}

    def best(self, mask: int) -> int:
        size = mask.bit_count()
        if size <= _CLOSED_FORM_UP_TO:
            return unconstrained_best(size)
        known = self.memo.get(mask)
        if known is not None:
            return known
        ceiling = unconstrained_best(size)
        top = 0
        later = []
        for piece in self._pieces(mask):
            piece_points = ANY_SHAPE_POINTS[piece.bit_count()]
            parts = mask_components(mask & ~piece, self.links)
            bound = piece_points + sum(unconstrained_best(part.bit_count()) for part in parts)
            if bound < ceiling:
                later.append((bound, piece_points, parts))
                continue
            top = max(top, piece_points + sum(self.best(part) for part in parts))
            if top == ceiling:
                break
        else:
            later.sort(key=lambda candidate: candidate[0], reverse=True)
            for bound, piece_points, parts in later:
                if bound <= top:
                    break
                top = max(top, piece_points + sum(self.best(part) for part in parts))
        self.memo[mask] = top
        return top

    def _pieces(self, mask: int) -> Iterator[int]:
        """Every connected subset of ``mask`` of at most 8 elk holding its lowest elk, once.

        Extension enumeration: a candidate neighbour is either added (and the search
        goes on from the larger set) or banned for the rest of this branch, so each
        connected set is produced exactly once. Depth first, so pieces of 8 come early.
        """
        links = self.links
        low = mask & -mask

        def extend(piece: int, size: int, candidates: int, banned: int) -> Iterator[int]:
            if size == _MAX_PIECE:
                yield piece
                return
            while candidates:
                pick = candidates & -candidates
                candidates ^= pick
                banned |= pick
                grown = links[pick.bit_length() - 1] & mask & ~banned & ~piece
                yield from extend(piece | pick, size + 1, candidates | grown, banned)
            yield piece

        return extend(low, 1, links[low.bit_length() - 1] & mask & ~low, low)
