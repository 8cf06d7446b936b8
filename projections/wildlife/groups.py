"""Shared helpers of the wildlife cards: a token index, groups, point tables.

RULES.md 5.2: a **group** of a species is a maximal connected set of that
species' tokens; a table entry ``k+`` applies to all sizes from k up.

Every card function takes the token map ``hex -> species`` (as in
``Environment.wildlife``). :func:`tokens_of` wraps it once in a :class:`Tokens`
index that splits the tokens by species and caches each species' groups, so that
scoring all five cards of a board finds each group only once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from operator import itemgetter

from cascadia.domain.components import WILDLIFE
from cascadia.domain.hexgrid import ADJACENT, NEIGHBOUR_SET, Hex
from cascadia.domain.options import GameOptions

Group = list[Hex]

DEFAULT_OPTIONS = GameOptions()
"""The options a card is scored under when none are given (strict salmon, elk arcs)."""


def connected_groups(cells: Collection[Hex]) -> list[Group]:
    """The maximal connected sets (by shared edges) of ``cells``."""
    remaining = set(cells)
    found: list[Group] = []
    while remaining:
        h = remaining.pop()
        if remaining.isdisjoint(NEIGHBOUR_SET[h]):  # a group of one (the most common)
            found.append([h])
            continue
        group = [h]
        for h in group:  # the group grows while it is read: a breadth-first search
            near = remaining & NEIGHBOUR_SET[h]
            if near:
                remaining -= near
                group += near
        found.append(group)
    return found


def points(table: Sequence[int], n: int) -> int:
    """``table[n]``; the last entry stands for every larger ``n`` (a card's ``k+`` entry).

    A card that lists no ``k+`` entry ends its table with a 0 ("larger scores nothing").
    """
    return table[n] if n < len(table) else table[-1]


def total_points(table: Sequence[int], sizes: Iterable[int]) -> int:
    """The sum of :func:`points` of ``table`` over ``sizes`` (a plain loop: cheaper than
    a generator summed)."""
    total = 0
    for n in sizes:
        total += points(table, n)
    return total


class Tokens(Mapping[Hex, str]):
    """A read-only token map that knows each species' hexes and (lazily) its groups."""

    __slots__ = ("_cells", "_groups", "_map")

    def __init__(self, wildlife: Mapping[Hex, str]) -> None:
        self._map = wildlife
        self._cells: dict[str, set[Hex]] = {species: set() for species in WILDLIFE}
        self._groups: dict[str, list[Group]] = {}
        self._take_in(wildlife.items())

    def grow(self, placed: Sequence[tuple[Hex, str]]) -> None:
        """Take in the tokens ``placed`` (hex, species) on the wrapped map since it was
        indexed (a board's map, which only grows: tokens never move, RULES.md 4.3): the
        groups of their species are found again when next asked, the others' kept."""
        self._take_in(placed)
        for _, species in placed:
            self._groups.pop(species, None)

    def _take_in(self, placed: Iterable[tuple[Hex, str]]) -> None:
        cells = self._cells
        for h, species in placed:
            try:
                cells[species].add(h)
            except KeyError:
                raise ValueError(f"unknown wildlife {species!r} at {h}") from None

    def __getitem__(self, h: Hex) -> str:
        return self._map[h]

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def get(self, h: Hex, default: str | None = None) -> str | None:  # type: ignore[override]
        return self._map.get(h, default)

    @property
    def raw(self) -> Mapping[Hex, str]:
        """The wrapped token map (fast lookups)."""
        return self._map

    def cells(self, species: str) -> set[Hex]:
        """The hexes holding a ``species`` token (do not modify)."""
        return self._cells[species]

    def groups(self, species: str) -> list[Group]:
        """The groups of ``species`` (RULES.md 5.2), computed once."""
        found = self._groups.get(species)
        if found is None:
            found = self._groups[species] = connected_groups(self._cells[species])
        return found


def tokens_of(wildlife: Mapping[Hex, str]) -> Tokens:
    """``wildlife`` as a :class:`Tokens` index (itself when it already is one)."""
    return wildlife if isinstance(wildlife, Tokens) else Tokens(wildlife)


def neighbour_mask(order: Sequence[Hex]) -> list[int]:
    """Per index ``i`` of ``order``, the bitmask of the indexes of its adjacent hexes."""
    index = {h: i for i, h in enumerate(order)}
    masks = []
    for h in order:
        mask = 0
        for n in ADJACENT[h]:
            j = index.get(n)
            if j is not None:
                mask |= 1 << j
        masks.append(mask)
    return masks


def bits(mask: int) -> Iterator[int]:
    """The indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_components(mask: int, links: Sequence[int]) -> list[int]:
    """The connected parts of the index set ``mask`` where ``links[i]`` joins ``i`` to others."""
    parts = []
    while mask:
        part = frontier = mask & -mask
        while frontier:
            grow = 0
            while frontier:  # the links of every index in the frontier, lowest first
                low = frontier & -frontier
                grow |= links[low.bit_length() - 1]
                frontier ^= low
            frontier = grow & mask & ~part
            part |= frontier
        parts.append(part)
        mask &= ~part
    return parts


row_order: Callable[[Hex], tuple[int, int]] = itemgetter(1, 0)
"""Sort key of hexes row by row (``r``, then ``q``), used to anchor formations (a C-level
key: sorting calls it once per hex)."""
