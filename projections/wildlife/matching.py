"""Exact maximum-weight matching on the small graphs of hawk D and fox D.

RULES.md 5.2: "each token counts at most once and the scoring is the **maximum**
over all valid choices."

How: when no token is in two pairs, all are taken. Otherwise the pairs (edges)
split the tokens into connected components, solved independently. Per component, a
memoised search over bitmasks of the tokens still free takes the lowest free token
and either leaves it unpaired or pairs it with each free partner in turn. Every
vertex has at most six partners (six neighbours for foxes, two per axis for
hawks), and tokens without a partner are skipped, so the memoised states stay few.
"""

from __future__ import annotations

from collections.abc import Iterable

from cascadia.domain.hexgrid import Hex
from cascadia.projections.wildlife.groups import mask_components, row_order


def best_pairing(pairs: Iterable[tuple[Hex, Hex, int]]) -> int:
    """The highest total weight of disjoint pairs chosen among ``(a, b, weight)``."""
    useful = [(a, b, w) for a, b, w in pairs if w > 0]
    if not useful:
        return 0
    ends = {h for a, b, _ in useful for h in (a, b)}
    if len(ends) == 2 * len(useful):  # no token in two pairs: take them all
        return sum(w for _, _, w in useful)
    order = sorted(ends, key=row_order)
    index = {h: i for i, h in enumerate(order)}
    partners: list[list[tuple[int, int]]] = [[] for _ in order]
    links = [1 << i for i in range(len(order))]
    for a, b, w in useful:
        i, j = index[a], index[b]
        partners[i].append((1 << j, w))
        partners[j].append((1 << i, w))
        links[i] |= 1 << j
        links[j] |= 1 << i

    memo: dict[int, int] = {0: 0}

    def best(mask: int) -> int:
        known = memo.get(mask)
        if known is not None:
            return known
        low = mask & -mask
        rest = mask ^ low
        top = best(rest)
        for partner, w in partners[low.bit_length() - 1]:
            if partner & rest:
                total = w + best(rest ^ partner)
                if total > top:
                    top = total
        memo[mask] = top
        return top

    return sum(best(part) for part in mask_components((1 << len(order)) - 1, links))
