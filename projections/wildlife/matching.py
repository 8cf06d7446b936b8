"""Exact maximum-weight matching on the small graphs of hawk D and fox D.

RULES.md 5.2: "each token counts at most once and the scoring is the **maximum**
over all valid choices."

How: when no token is in two pairs, all are taken; on fewer than four tokens only one
pair fits, the best; a few pairs (:data:`FEW_PAIRS`) are tried exhaustively, each
either left out or taken with the best of the pairs disjoint from it. Otherwise the
pairs (edges) split the tokens into connected components, solved independently by the
same memoised cover search as the elk formations
(:func:`~cascadia.projections.wildlife.partition.best_cover`): the lowest free token is
either left unpaired (worth 0) or paired with each free later partner in turn. Every
vertex has at most six partners (six neighbours for foxes, two per axis for hawks), and
tokens without a partner are skipped, so the memoised states stay few.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import row_order
from cascadia.projections.wildlife.partition import best_cover

FEW_PAIRS = 4
"""Up to this many pairs are tried exhaustively (at most ``2 ** FEW_PAIRS`` choices)."""


def best_pairing(pairs: Iterable[tuple[Hex, Hex, int]]) -> int:
    """The highest total weight of disjoint pairs chosen among ``(a, b, weight)``."""
    useful: list[tuple[Hex, Hex, int]] = []
    ends: set[Hex] = set()
    total = 0
    for a, b, w in pairs:
        if w > 0:
            useful.append((a, b, w))
            ends.add(a)
            ends.add(b)
            total += w
    if len(ends) == 2 * len(useful):  # no token in two pairs: take them all
        return total
    if len(ends) < 4:  # two disjoint pairs need four tokens: the best single pair
        return max(w for _, _, w in useful)
    if len(useful) <= FEW_PAIRS:
        return _best_of_few(useful)
    order = sorted(ends, key=row_order)
    index = {h: i for i, h in enumerate(order)}
    anchored: list[list[tuple[int, int]]] = [[(1 << i, 0)] for i in range(len(order))]
    links = [1 << i for i in range(len(order))]
    for a, b, w in useful:
        i, j = index[a], index[b]
        if i > j:
            i, j = j, i
        pair = 1 << i | 1 << j
        anchored[i].append((pair, w))
        links[i] |= pair
        links[j] |= pair
    return best_cover(anchored, links)


def _best_of_few(pairs: Sequence[tuple[Hex, Hex, int]]) -> int:
    """The highest total of disjoint ``pairs``: the first is left out, or taken with the
    best of the pairs that share no token with it."""
    (a, b, w), rest = pairs[0], pairs[1:]
    if not rest:
        return w
    free = [pair for pair in rest if pair[0] not in (a, b) and pair[1] not in (a, b)]
    return max(_best_of_few(rest), w + (_best_of_few(free) if free else 0))
