"""A player's environment: the tiles they placed (with rotations) and the wildlife on them."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Protocol

from cascadia.domain.components import TILES
from cascadia.domain.hexgrid import Hex, neighbours, tile_edges


class Derived(Protocol):
    """Data a projection derives from a board and keeps with it (see ``Environment.derived``)."""

    def copy(self) -> Derived: ...


@dataclass(slots=True)
class Environment:
    """Placed tiles ``hex -> (tile id, rotation)`` and placed wildlife ``hex -> species``.

    RULES.md 4.3: one token per tile, ever; tiles and tokens never move.
    """

    tiles: dict[Hex, tuple[int, int]] = field(default_factory=dict)
    wildlife: dict[Hex, str] = field(default_factory=dict)
    derived: dict[str, Derived] = field(default_factory=dict, compare=False, repr=False)
    """What is derived from this board and kept between reads (its open hexes; corridors
    kept up to date as tiles are placed), by name; never part of the state. A copy gets
    copies."""

    def copy(self) -> Environment:
        derived = {name: data.copy() for name, data in self.derived.items()}
        return Environment(dict(self.tiles), dict(self.wildlife), derived)

    def edges(self, h: Hex) -> tuple[str, ...]:
        """The habitat on each edge 0..5 of the tile at ``h``."""
        tile_id, rotation = self.tiles[h]
        return tile_edges(tile_id, rotation)

    def is_open_for(self, h: Hex, species: str) -> bool:
        """Whether a ``species`` token may go on ``h``: a tile, no token, shows that species."""
        placed = self.tiles.get(h)
        return placed is not None and h not in self.wildlife and species in TILES[placed[0]].wildlife

    def wildlife_targets(self, species: str) -> list[Hex]:
        """Every hex where a ``species`` token may be placed, sorted."""
        wildlife = self.wildlife
        return sorted(
            [
                h
                for h, (tile_id, _) in self.tiles.items()
                if h not in wildlife and species in TILES[tile_id].wildlife
            ]
        )

    def is_adjacent_to_tiles(self, h: Hex) -> bool:
        """Whether ``h`` shares an edge with at least one placed tile."""
        tiles = self.tiles
        return any(n in tiles for n in neighbours(h))

    def open_hexes(self) -> list[Hex]:
        """Empty hexes sharing an edge with a placed tile: where a new tile may go, sorted.

        Kept in :attr:`derived` with the tiled hexes they were found for, until those
        change (each legal placement of each market tile asks again); after one more
        tile, only its neighbours change: the placed hex leaves the sorted list and its
        empty neighbours go in at their places."""
        tiles = self.tiles
        known = self.derived.get("open hexes")
        if isinstance(known, OpenHexes):
            if known.tiled == tiles.keys():
                return list(known.hexes)
            added = tiles.keys() - known.tiled
            if len(added) == 1 and len(tiles) == len(known.tiled) + 1:  # one tile placed since
                (placed,) = added
                hexes = list(known.hexes)
                at = bisect_left(hexes, placed)
                if at < len(hexes) and hexes[at] == placed:
                    del hexes[at]
                for n in neighbours(placed):
                    at = bisect_left(hexes, n)
                    if n not in tiles and (at == len(hexes) or hexes[at] != n):
                        hexes.insert(at, n)
                return self._keep_open(hexes)
        return self._keep_open(sorted({n for h in tiles for n in neighbours(h) if n not in tiles}))

    def _keep_open(self, found: list[Hex]) -> list[Hex]:
        self.derived["open hexes"] = OpenHexes(frozenset(self.tiles), tuple(found))
        return found


@dataclass(frozen=True, slots=True)
class OpenHexes:
    """The open hexes (sorted) of a board whose tiles are on ``tiled``."""

    tiled: frozenset[Hex]
    hexes: tuple[Hex, ...]

    def copy(self) -> OpenHexes:
        return self
