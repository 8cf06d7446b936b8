"""Hex geometry: axial coordinates, directions, edges, rotation (RULES.md section 2).

Pointy-top hexes in axial coordinates ``(q, r)``: ``q`` grows east, ``r`` grows
south-east. Directions (and edge indexes), clockwise from north-east:
``0 NE (+1,-1)``, ``1 E (+1,0)``, ``2 SE (0,+1)``, ``3 SW (-1,+1)``, ``4 W (-1,0)``,
``5 NW (0,-1)``. Edge ``i`` of a hex faces its neighbour in direction ``i``; that
neighbour's touching edge is ``(i+3) mod 6``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from cascadia.domain.components import TILES, Tile

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIRECTION_NAMES: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")
AXES: tuple[Hex, ...] = DIRECTIONS[:3]
"""The three straight hex axes, one direction each (the others are their opposites)."""


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex across edge ``direction`` of ``h``."""
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


TABLE_REACH = 64
""":data:`ADJACENT` keeps the hexes with ``|q|, |r| <= TABLE_REACH`` (every real board)."""


class _AdjacencyTable(dict[Hex, tuple[Hex, ...]]):
    """``table[h]``: the six hexes sharing an edge with ``h``, built on first use."""

    def __missing__(self, h: Hex) -> tuple[Hex, ...]:
        q, r = h
        found = ((q + 1, r - 1), (q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r), (q, r - 1))
        if abs(q) <= TABLE_REACH and abs(r) <= TABLE_REACH:
            self[h] = found
        return found


ADJACENT: Mapping[Hex, tuple[Hex, ...]] = _AdjacencyTable()
"""``ADJACENT[h]`` is :func:`neighbours` of ``h``, memoised: hot loops (groups, corridors,
fox and salmon cards) index it instead of building six tuples per visit."""


class _NeighbourSets(dict[Hex, frozenset[Hex]]):
    """``table[h]``: the six hexes sharing an edge with ``h`` as a set, built on first use."""

    def __missing__(self, h: Hex) -> frozenset[Hex]:
        found = frozenset(ADJACENT[h])
        if abs(h[0]) <= TABLE_REACH and abs(h[1]) <= TABLE_REACH:
            self[h] = found
        return found


NEIGHBOUR_SET: Mapping[Hex, frozenset[Hex]] = _NeighbourSets()
"""``NEIGHBOUR_SET[h]`` is :func:`neighbours` of ``h`` as a frozenset, memoised: a set
operation with it (``cells & NEIGHBOUR_SET[h]``) reads the hashes kept in both sets
instead of hashing six hexes afresh, which is what finding groups spends its time on."""


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``, in direction order 0..5."""
    return ADJACENT[h]


def opposite(edge: int) -> int:
    """The touching edge of the neighbour across ``edge``: ``(edge + 3) mod 6``."""
    return (edge + 3) % 6


OPPOSITE: tuple[int, ...] = tuple(opposite(edge) for edge in range(6))
"""``OPPOSITE[edge]`` is :func:`opposite` of ``edge`` (for hot loops)."""


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_hex(h: Hex, turns: int = 1) -> Hex:
    """Turn ``h`` around the origin by ``turns`` sixths of a turn clockwise."""
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def edges_of(tile: Tile, rotation: int) -> tuple[str, ...]:
    """The habitat on each edge 0..5 of ``tile`` turned by ``rotation``.

    A keystone tile shows its habitat on all six edges. A dual tile listed
    ``[A, B]`` with rotation ``rho`` shows A on edges ``rho, rho+1, rho+2`` and B
    on the other three (mod 6).
    """
    if len(tile.habitats) == 1:
        return tile.habitats * 6
    a, b = tile.habitats
    return tuple(a if (edge - rotation) % 6 < 3 else b for edge in range(6))


EDGE_TABLE: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(edges_of(tile, rotation) for rotation in range(6)) for tile in TILES
)


def tile_edges(tile_id: int, rotation: int) -> tuple[str, ...]:
    """Precomputed :func:`edges_of` by tile id (the hot path of corridors and legality)."""
    return EDGE_TABLE[tile_id][rotation]


def distinct_rotations(tile_id: int) -> tuple[int, ...]:
    """Rotations that give different edge layouts: one for a keystone, six for a dual."""
    return (0,) if TILES[tile_id].keystone else (0, 1, 2, 3, 4, 5)


def frontier(occupied: Iterable[Hex]) -> Iterator[Hex]:
    """Empty hexes sharing an edge with at least one occupied hex, each once, sorted."""
    taken = set(occupied)
    seen: set[Hex] = set()
    for h in taken:
        for n in neighbours(h):
            if n not in taken:
                seen.add(n)
    return iter(sorted(seen))
