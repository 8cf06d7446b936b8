"""Exact best partition of tokens into formations of given shapes (elk A, B and D).

RULES.md 5.2 and 5.4: the elk are partitioned into formations and the score is the
**maximum** over all valid choices; each token counts at most once.

How the maximum is found:

- A card is a table of *shapes*: sets of hex offsets with their points, every
  rotation listed, each normalised so that its first hex in row order (``r``, then
  ``q``) is ``(0, 0)``. Every placement of a shape is therefore found exactly once,
  anchored at its first hex.
- The caller splits the tokens into parts that no placement spans (the groups, for
  connected shapes); a part of one or two tokens is looked up directly (two tokens by
  the offset between them).
- The tokens of a part are indexed in row order and every placement of every shape
  that lies entirely on tokens becomes a bitmask. The shapes are grouped by their
  second hex, so that one missing token there rules out all the shapes of its group
  at once. Tokens that share a placement are linked; the linked pieces are solved
  independently (a formation never spans two).
- Per linked piece, ``best(mask)`` is a memoised search over bitmasks of the tokens still
  free: the lowest free token must be in some formation, and that formation is
  anchored at it (every other token of it comes later in row order), so
  ``best(mask) = max(points(F) + best(mask - F))`` over the placements ``F``
  anchored at the lowest token with ``F`` inside ``mask``. Because removal goes in
  row order, the free sets reached are a "finished rows + ragged frontier" profile,
  which keeps the number of memoised states small even on dense boards.

Every shape table must contain the single hex, so that every set has a partition.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import bits, mask_components, row_order

Shape = tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class ShapeTable:
    """A card's formations (normalised shapes with their points), indexed for the search."""

    single: int
    """The points of the single hex."""
    pairs: Mapping[Hex, int]
    """The best total of a part of two tokens, by the offset from one to the other
    (both ways round); two tokens at an offset not listed score as two singles."""
    branches: tuple[tuple[Hex, tuple[tuple[Shape, int], ...]], ...]
    """The shapes of two or more hexes grouped by their second hex: per second hex, the
    rest of each shape (its hexes after the second) with its points."""
    solved: dict[Shape, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """The best total of small parts already solved, by their normalised shape."""


SOLVED_SIZE = 6
"""Parts of up to this many tokens are solved once per shape (a board repeats them)."""
SOLVED_LIMIT = 4096
"""At most this many small shapes are remembered per table."""


def normalise(cells: Iterable[Hex]) -> Shape:
    """``cells`` in row order, moved so that the first one is ``(0, 0)``."""
    ordered = sorted(cells, key=row_order)
    q0, r0 = ordered[0]
    return tuple([(q - q0, r - r0) for q, r in ordered])


def shape_table(shapes: Iterable[tuple[Iterable[Hex], int]]) -> ShapeTable:
    """The table of ``shapes``: normalised, de-duplicated (the best points per shape)."""
    best: dict[Shape, int] = {}
    for cells, value in shapes:
        shape = normalise(cells)
        if len(set(shape)) != len(shape):
            raise ValueError(f"shape {shape} repeats a hex")
        best[shape] = max(value, best.get(shape, value))
    if ((0, 0),) not in best:
        raise ValueError("a shape table must contain the single hex")
    single = best.pop(((0, 0),))
    pairs: dict[Hex, int] = {}
    branches: dict[Hex, list[tuple[Shape, int]]] = {}
    for shape, value in sorted(best.items(), key=lambda item: (len(item[0]), item[0])):
        if len(shape) == 2:
            dq, dr = shape[1]
            pairs[(dq, dr)] = pairs[(-dq, -dr)] = max(value, 2 * single)
        branches.setdefault(shape[1], []).append((shape[2:], value))
    return ShapeTable(single, pairs, tuple((second, tuple(rest)) for second, rest in branches.items()))


def best_partition(parts: Iterable[Collection[Hex]], shapes: ShapeTable) -> int:
    """The highest total of a partition of the tokens into placements of ``shapes``.

    ``parts`` splits the tokens so that no placement spans two parts (for connected
    shapes, the groups; otherwise pass all the tokens as one part).
    """
    single = shapes.single
    total = 0
    for cells in parts:
        size = len(cells)
        if not size:
            continue
        if size == 1:
            total += single
        elif size == 2:
            a, b = cells
            total += shapes.pairs.get((b[0] - a[0], b[1] - a[1]), 2 * single)
        elif size <= SOLVED_SIZE:
            shape = normalise(cells)
            found = shapes.solved.get(shape)
            if found is None:
                found = _best_of_part(shape, shapes)
                if len(shapes.solved) < SOLVED_LIMIT:
                    shapes.solved[shape] = found
            total += found
        else:
            total += _best_of_part(cells, shapes)
    return total


def _best_of_part(cells: Collection[Hex], shapes: ShapeTable) -> int:
    order = sorted(cells, key=row_order)
    index = {h: i for i, h in enumerate(order)}
    anchored: list[list[tuple[int, int]]] = []
    links = [1 << i for i in range(len(order))]
    for i, (q, r) in enumerate(order):
        anchor = 1 << i
        found = [(anchor, shapes.single)]  # the single hex, then the shapes branch by branch
        for (sq, sr), rests in shapes.branches:
            j = index.get((q + sq, r + sr))
            if j is None:  # no shape of this branch lies on the tokens
                continue
            pair = anchor | 1 << j
            for rest, value in rests:
                mask = pair
                for dq, dr in rest:
                    k = index.get((q + dq, r + dr))
                    if k is None:
                        break
                    mask |= 1 << k
                else:
                    found.append((mask, value))
                    for k in bits(mask):
                        links[k] |= mask
        anchored.append(found)

    return best_cover(anchored, links)


def best_cover(anchored: Sequence[Sequence[tuple[int, int]]], links: Sequence[int]) -> int:
    """The highest total of disjoint options covering every token exactly once.

    ``anchored[i]`` lists the ``(mask, points)`` options whose lowest token is ``i``
    (the single token ``1 << i`` among them, so a cover always exists); ``links[i]``
    is the mask of the tokens that share an option with ``i``. Linked pieces are solved
    apart, each by ``best(mask) = max(points(F) + best(mask - F))`` over the options
    ``F`` anchored at the lowest free token and lying inside ``mask``, memoised.
    """
    memo: dict[int, int] = {0: 0}
    total = 0
    for part in mask_components((1 << len(anchored)) - 1, links):
        total += _best(part, anchored, memo)
    return total


def _best(mask: int, anchored: Sequence[Sequence[tuple[int, int]]], memo: dict[int, int]) -> int:
    """``best(mask)`` of :func:`best_cover`, memoised in ``memo``: a function of the module
    rather than a closure over itself, which would be a reference cycle left for the
    garbage collector at every call (the study workers run with it paused)."""
    known = memo.get(mask)
    if known is not None:
        return known
    low = mask & -mask
    top = 0
    for formation, value in anchored[low.bit_length() - 1]:
        if formation & mask == formation:
            total = value + _best(mask ^ formation, anchored, memo)
            if total > top:
                top = total
    memo[mask] = top
    return top
