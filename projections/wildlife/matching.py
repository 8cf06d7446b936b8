"""Exact maximum-weight matching on the small graphs of hawk D and fox D.

RULES.md 5.2: "each token counts at most once and the scoring is the **maximum**
over all valid choices."

How: when no token is in two pairs, all are taken; on fewer than four tokens only one
pair fits, the best. Otherwise the pairs (edges) split the tokens into connected
components, solved independently by the same memoised cover search as the elk
formations (:func:`~cascadia.projections.wildlife.partition.best_cover`): the lowest
free token is either left unpaired (worth 0) or paired with each free later partner in
turn. Every vertex has at most six partners (six neighbours for foxes, two per axis for
hawks), and tokens without a partner are skipped, so the memoised states stay few.
"""

from __future__ import annotations

from collections.abc import Iterable

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import row_order
from cascadia.projections.wildlife.partition import best_cover


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
