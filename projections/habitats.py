"""Habitat corridors, majority bonuses and the solo bonus (RULES.md 5.1).

- "Two adjacent tiles are joined in habitat H when **both touching edges show H**.
  A corridor is a connected set of tiles joined in H; its size is its tile count. A
  dual tile can belong to one corridor of each of its habitats."
- "Each player scores 1 point per tile of their **largest** corridor of each habitat."
- The rule restrictions of RULES.md 7 that change habitat scoring (``must_not_match``,
  ``corridors_of_three``, ``corridors_min_five``) are applied by :func:`habitat_points`
  and :func:`habitat_bonuses`.

Corridors are kept per board by :class:`CorridorIndex`, one union-find per habitat
that takes in each tile as it is placed (the board's earlier tiles never change).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import islice

from cascadia.domain.components import HABITATS, TILES
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import ADJACENT, EDGE_TABLE, OPPOSITE, Hex
from cascadia.domain.options import GameOptions

MAX_PLAYERS = 4
SOLO_BONUS = 2
"""Solo: +2 for each habitat whose largest corridor has at least :data:`SOLO_BONUS_SIZE` tiles."""
SOLO_BONUS_SIZE = 7
TWO_PLAYER_BONUS = (2, 1)
"""2 players: the larger scores 2; a tie gives 1 each."""
FIRST_BONUS = 3
SECOND_BONUS = 1
SHARED_FIRST_BONUS = {2: 2}
"""3-4 players: a two-way tie for largest gives 2 each; a tie of three or more gives 1 each."""
CROWDED_FIRST_BONUS = 1
CORRIDOR_OF_THREE = 3
CORRIDOR_OF_THREE_POINTS = 3
"""RULES.md 7.3 (``corridors_of_three``): 3 points per corridor of exactly 3 tiles."""
MIN_SCORING_CORRIDOR = 5
"""RULES.md 7.4 (``corridors_min_five``): a largest corridor below 5 scores 0."""


HABITATS_OF: tuple[tuple[str, ...], ...] = tuple(tile.habitats for tile in TILES)
"""The habitats of each tile, by tile id."""

FORWARD = (0, 1, 2)
"""Directions NE, E, SE: from every tile they reach each pair of neighbours once."""

CorridorLabels = dict[str, dict[Hex, int]]
"""Per habitat, the corridor label of every tile showing that habitat."""


class CorridorIndex:
    """One board's corridors, kept up to date as its tiles are placed.

    Tiles are never moved or removed (RULES.md 4.3), so each new tile only joins the
    corridors its matching edges touch: one union-find forest per habitat over the
    tiles (by their order of placement), with the size of each corridor at its root (0
    for a tile without the habitat, and for a tile that is not a root) and the largest
    size per habitat. :meth:`update` takes in the tiles placed since the last read; a
    board read for the first time, or whose tiles differ from what was taken in
    otherwise (a test that edits a board), is indexed afresh, visiting each pair of
    neighbouring tiles once (directions NE, E, SE from every tile).
    """

    __slots__ = ("_edges", "_index", "_largest", "_parents", "_sizes", "_tiles")

    def __init__(self) -> None:
        self._tiles: dict[Hex, tuple[int, int]] = {}
        """The tiles taken in, in order."""
        self._index: dict[Hex, int] = {}
        self._edges: list[tuple[str, ...]] = []
        self._parents: dict[str, list[int]] = {habitat: [] for habitat in HABITATS}
        self._sizes: dict[str, list[int]] = {habitat: [] for habitat in HABITATS}
        self._largest: dict[str, int] = dict.fromkeys(HABITATS, 0)

    @classmethod
    def of(cls, environment: Environment, *, grown: bool = False) -> CorridorIndex:
        """The index of ``environment``'s corridors, brought up to date. ``grown``: the
        caller follows a game as it is played, so the board has only grown since the
        index last took its tiles in (tiles never move, RULES.md 4.3) and the tiles placed
        since are the last entries of its map (:meth:`grow`), taken in without comparing
        the tiles known, as :meth:`update` does to find a board edited behind its back."""
        index = environment.derived.get("corridors")
        if not isinstance(index, CorridorIndex):
            index = environment.derived["corridors"] = cls()
        if grown and index._tiles:
            index.grow(environment.tiles)
        else:
            index.update(environment.tiles)
        return index

    def copy(self) -> CorridorIndex:
        """An index of the same tiles that grows apart from this one."""
        found = CorridorIndex.__new__(CorridorIndex)
        found._tiles = dict(self._tiles)
        found._index = dict(self._index)
        found._edges = list(self._edges)
        found._parents = {habitat: list(parent) for habitat, parent in self._parents.items()}
        found._sizes = {habitat: list(sizes) for habitat, sizes in self._sizes.items()}
        found._largest = dict(self._largest)
        return found

    def update(self, tiles: dict[Hex, tuple[int, int]]) -> None:
        """Take in the tiles placed since the last update."""
        known = self._tiles
        placed = placed_since(known, tiles)
        if placed == ():
            return
        if placed is None or not known:
            self._afresh(tiles)
            return
        for h in placed:
            tile_id, rotation = known[h] = tiles[h]
            self._add(h, tile_id, rotation)

    def grow(self, tiles: dict[Hex, tuple[int, int]]) -> None:
        """Take in the tiles placed since the last update, ``tiles`` being the tiles
        taken in and more, placed after them: the last entries of ``tiles``, in placing
        order."""
        known = self._tiles
        placed = list(islice(reversed(tiles), len(tiles) - len(known)))
        for h in reversed(placed):
            tile_id, rotation = known[h] = tiles[h]
            self._add(h, tile_id, rotation)

    def _add(self, h: Hex, tile_id: int, rotation: int) -> None:
        """Place one tile: a corridor of one per habitat, joined across matching edges."""
        index, edges, sizes, largest = self._index, self._edges, self._sizes, self._largest
        i = index[h] = len(edges)
        own = EDGE_TABLE[tile_id][rotation]
        edges.append(own)
        for parent in self._parents.values():
            parent.append(i)
        for found in sizes.values():
            found.append(0)
        for habitat in HABITATS_OF[tile_id]:
            sizes[habitat][i] = 1
            if not largest[habitat]:
                largest[habitat] = 1
        for direction, n in enumerate(ADJACENT[h]):
            j = index.get(n)
            if j is not None and edges[j][OPPOSITE[direction]] == own[direction]:
                self._union(own[direction], i, j)

    def _afresh(self, tiles: dict[Hex, tuple[int, int]]) -> None:
        """Index ``tiles`` from nothing."""
        order = list(tiles)
        count = len(order)
        index = self._index = dict(zip(order, range(count), strict=True))
        edges = self._edges = [EDGE_TABLE[tile_id][rotation] for tile_id, rotation in tiles.values()]
        self._parents = {habitat: list(range(count)) for habitat in HABITATS}
        sizes = self._sizes = {habitat: [0] * count for habitat in HABITATS}
        for i, (tile_id, _) in enumerate(tiles.values()):
            for habitat in HABITATS_OF[tile_id]:
                sizes[habitat][i] = 1
        union = self._union
        for i, h in enumerate(order):
            own = edges[i]
            near = ADJACENT[h]
            for direction in FORWARD:
                j = index.get(near[direction])
                if j is not None and own[direction] == edges[j][direction + 3]:
                    union(own[direction], i, j)
        self._largest = {habitat: max(found, default=0) for habitat, found in sizes.items()}
        self._tiles = dict(tiles)

    def _union(self, habitat: str, i: int, j: int) -> None:
        """Join the corridors of ``habitat`` holding tiles ``i`` and ``j``."""
        parent, sizes = self._parents[habitat], self._sizes[habitat]
        a, b = _root(parent, i), _root(parent, j)
        if a == b:
            return
        if sizes[a] < sizes[b]:
            a, b = b, a
        parent[b] = a
        size = sizes[a] = sizes[a] + sizes[b]
        sizes[b] = 0
        if size > self._largest[habitat]:
            self._largest[habitat] = size

    def sizes(self) -> dict[str, list[int]]:
        """Per habitat, the sizes of all its corridors, largest first."""
        return {habitat: sorted(filter(None, found), reverse=True) for habitat, found in self._sizes.items()}

    def points(self, options: GameOptions) -> dict[str, int]:
        """Per habitat, its corridor points (:func:`habitat_points`): of its largest
        corridor alone, but with ``corridors_of_three``, the only rule that reads the
        other corridors, of the sizes kept at the roots (unsorted, with a 0 for each
        tile that is not a root, which changes no count of corridors of three)."""
        if options.corridors_of_three:
            return {habitat: habitat_points(sizes, options) for habitat, sizes in self._sizes.items()}
        return {habitat: habitat_points((largest,), options) for habitat, largest in self._largest.items()}

    def largest(self) -> dict[str, int]:
        """Per habitat, the size of the largest corridor (0 if none)."""
        return dict(self._largest)

    def corridor_of(self, habitat: str, h: Hex) -> int:
        """The corridor of ``habitat`` that the tile on ``h`` belongs to (it must show
        ``habitat``), named by a number that stays the same until that corridor joins
        another (the placing order of one of its tiles)."""
        return _root(self._parents[habitat], self._index[h])

    def touching(self, h: Hex) -> list[tuple[int, str, int]]:
        """For a tile placed on ``h``, per tile next to it: the direction of that tile
        from ``h``, the habitat its touching edge shows and the corridor of that habitat
        the edge belongs to (:meth:`corridor_of`)."""
        index, edges, parents = self._index, self._edges, self._parents
        found = []
        for direction, n in enumerate(ADJACENT[h]):
            j = index.get(n)
            if j is not None:
                habitat = edges[j][OPPOSITE[direction]]
                found.append((direction, habitat, _root(parents[habitat], j)))
        return found

    def tile_number(self, h: Hex) -> int:
        """The number of the tile on ``h``: its place in the order the tiles were taken in."""
        return self._index[h]

    def corridors_of(self, habitat: str, tiles: int) -> int:
        """The corridors of ``habitat`` (a bit per corridor number, :meth:`corridor_of`)
        holding the tiles whose numbers (:meth:`tile_number`) are the bits of ``tiles``;
        each must show ``habitat``."""
        parent = self._parents[habitat]
        found = 0
        while tiles:
            low = tiles & -tiles
            found |= 1 << _root(parent, low.bit_length() - 1)
            tiles ^= low
        return found

    def corridor_size(self, habitat: str, corridor: int) -> int:
        """The size of ``corridor`` of ``habitat`` (a number from :meth:`corridor_of`)."""
        return self._sizes[habitat][corridor]

    def labels(self) -> tuple[CorridorLabels, dict[str, list[int]]]:
        """See :func:`corridor_labels`."""
        labels: CorridorLabels = {habitat: {} for habitat in HABITATS}
        sizes: dict[str, list[int]] = {habitat: [] for habitat in HABITATS}
        label_of_root: dict[str, dict[int, int]] = {habitat: {} for habitat in HABITATS}
        parents, roots = self._parents, self._sizes
        for h, i in self._index.items():
            for habitat in HABITATS_OF[self._tiles[h][0]]:
                top = _root(parents[habitat], i)
                label = label_of_root[habitat].get(top)
                if label is None:
                    label = label_of_root[habitat][top] = len(sizes[habitat])
                    sizes[habitat].append(roots[habitat][top])
                labels[habitat][h] = label
        return labels, sizes


NearEdges = dict[str, tuple[int, tuple[int, ...]]]
"""At one open hex, per habitat a tiled neighbour's touching edge shows there: the set of
those edges of the open hex (a bit per edge 0..5) and, per edge, the bit of that
neighbour's tile number (:meth:`CorridorIndex.tile_number`; 0 where the edge does not show
the habitat)."""
NO_TILES = (0,) * 6


class Frontier:
    """Per open hex of a board (empty, next to a tile: where a tile may go, RULES.md 4.3),
    the habitats its tiled neighbours show on their touching edges (:data:`NearEdges`),
    kept up to date as tiles are placed: a tile placed changes only its own hex (no
    longer open) and its empty neighbours (one more edge each). What a new tile joins at
    an open hex follows from these edges (RULES.md 5.1: two touching edges that show the
    same habitat join the tiles)."""

    __slots__ = ("_tiles", "edges")

    def __init__(self) -> None:
        self._tiles: dict[Hex, tuple[int, int]] = {}
        """The tiles taken in, in order."""
        self.edges: dict[Hex, NearEdges] = {}
        """Per open hex, its :data:`NearEdges` (not to be changed: each entry is replaced
        when a tile is placed next to it)."""

    @classmethod
    def of(cls, environment: Environment) -> Frontier:
        """The frontier of ``environment``, brought up to date."""
        frontier = environment.derived.get("frontier")
        if not isinstance(frontier, Frontier):
            frontier = environment.derived["frontier"] = cls()
        frontier.update(environment.tiles, CorridorIndex.of(environment))
        return frontier

    def copy(self) -> Frontier:
        """A frontier of the same tiles that grows apart from this one (each open hex's
        entry is replaced, never changed, so the entries are shared)."""
        found = Frontier.__new__(Frontier)
        found._tiles = dict(self._tiles)
        found.edges = dict(self.edges)
        return found

    def update(self, tiles: dict[Hex, tuple[int, int]], index: CorridorIndex) -> None:
        """Take in the tiles placed since the last update (numbered by ``index``, the
        board's corridors, up to date)."""
        placed = placed_since(self._tiles, tiles)
        if placed is None:
            self._tiles, self.edges = {}, {}
            placed = tuple(tiles)
        for h in placed:
            tile_id, rotation = self._tiles[h] = tiles[h]
            self._add(h, EDGE_TABLE[tile_id][rotation], 1 << index.tile_number(h))

    def _add(self, h: Hex, edges: tuple[str, ...], bit: int) -> None:
        """A tile showing ``edges`` placed on ``h``: each empty neighbour gains its edge."""
        near, tiles = self.edges, self._tiles
        near.pop(h, None)
        for direction, n in enumerate(ADJACENT[h]):
            if n in tiles:
                continue
            habitat, edge = edges[direction], OPPOSITE[direction]
            entry = dict(near.get(n, ()))
            shown, numbers = entry.get(habitat, (0, NO_TILES))
            entry[habitat] = (shown | 1 << edge, (*numbers[:edge], bit, *numbers[edge + 1 :]))
            near[n] = entry


def placed_since(
    known: dict[Hex, tuple[int, int]], tiles: dict[Hex, tuple[int, int]]
) -> tuple[Hex, ...] | None:
    """The hexes of the tiles of ``tiles`` that ``known`` (the tiles a structure has taken
    in) lacks, in placing order: usually none or the one placed last. ``None`` when
    ``tiles`` is not ``known`` and more (a board edited behind its back, to be read
    afresh); tiles are never moved or removed (RULES.md 4.3)."""
    if len(tiles) == len(known):
        return () if tiles == known else None
    if len(tiles) < len(known) or not tiles.items() >= known.items():
        return None
    last = next(reversed(tiles))
    if len(tiles) == len(known) + 1 and last not in known:
        return (last,)
    return tuple(h for h in tiles if h not in known)


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = i = parent[parent[i]]
    return i


def corridor_labels(environment: Environment) -> tuple[CorridorLabels, dict[str, list[int]]]:
    """Per habitat, a label per tile (its corridor) and the size of each label's corridor.

    Labels are ``0, 1, ...`` per habitat and index the size lists:
    ``sizes[habitat][labels[habitat][h]]`` is the size of the corridor holding ``h``.
    """
    return CorridorIndex.of(environment).labels()


def corridor_sizes(environment: Environment) -> dict[str, list[int]]:
    """Per habitat, the sizes of all its corridors, largest first (empty: no such tile)."""
    return CorridorIndex.of(environment).sizes()


def largest_corridors(environment: Environment) -> dict[str, int]:
    """Per habitat (in ``HABITATS`` order), the size of the largest corridor (0 if none)."""
    return CorridorIndex.of(environment).largest()


def habitat_points(sizes: Sequence[int], options: GameOptions) -> int:
    """One habitat's corridor points from the sizes of all its corridors.

    RULES.md 5.1: "1 point per tile of their **largest** corridor". Rule restrictions
    (RULES.md 7): ``must_not_match``: "habitat corridors and majorities are not
    scored"; ``corridors_of_three``: "3 points for each corridor of exactly 3 tiles (and
    nothing else)"; ``corridors_min_five``: "a largest corridor smaller than 5 scores 0".
    """
    if options.must_not_match:
        return 0
    if options.corridors_of_three:
        return CORRIDOR_OF_THREE_POINTS * sum(1 for size in sizes if size == CORRIDOR_OF_THREE)
    largest = max(sizes, default=0)
    if options.corridors_min_five and largest < MIN_SCORING_CORRIDOR:
        return 0
    return largest


def majority_bonus(sizes: Sequence[int]) -> list[int]:
    """One habitat's majority bonus per player, from each player's largest corridor.

    RULES.md 5.1: "2 players: the larger scores 2; a tie gives 1 each. 3-4 players:
    the largest scores 3 and the second largest 1. A two-way tie for largest gives 2
    each and nobody scores second; a tie of three or more for largest gives 1 each
    and nobody scores second; a tie for second gives nothing. A player whose largest
    corridor of H has size 0 never earns H's bonus. "Second" is the next size below
    the largest, held by exactly one player: sizes 7, 5, 5, 2 in a 4-player game give
    3, 0, 0, 0 (the 2 does not move up)."

    Solo games have no majority bonus (all zeros; see :func:`solo_bonus`).
    """
    return list(_majority_bonus(tuple(sizes)))


@lru_cache(maxsize=4096)
def _majority_bonus(sizes: tuple[int, ...]) -> list[int]:
    """:func:`majority_bonus`, remembered per sizes (bots ask for the same few often;
    the list is copied before it is handed out)."""
    players = len(sizes)
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"majority bonuses are for 1 to {MAX_PLAYERS} players, not {players}")
    bonus = [0] * players
    top = max(sizes)
    if players == 1 or top <= 0:
        return bonus
    leaders = [i for i, size in enumerate(sizes) if size == top]
    if players == 2:
        for i in leaders:
            bonus[i] = TWO_PLAYER_BONUS[len(leaders) - 1]
        return bonus
    if len(leaders) > 1:
        for i in leaders:
            bonus[i] = SHARED_FIRST_BONUS.get(len(leaders), CROWDED_FIRST_BONUS)
        return bonus
    bonus[leaders[0]] = FIRST_BONUS
    second = max((size for size in sizes if size < top), default=0)
    runners_up = [i for i, size in enumerate(sizes) if size == second]
    if second > 0 and len(runners_up) == 1:
        bonus[runners_up[0]] = SECOND_BONUS
    return bonus


def habitat_bonuses(largest: Sequence[Mapping[str, int]], options: GameOptions) -> list[dict[str, int]]:
    """Per player and habitat, the majority bonus (2-4 players) or the solo bonus (1 player).

    ``largest`` holds each player's largest corridor per habitat. With
    ``options.majority_bonus`` off (RULES.md 5.8) or ``must_not_match`` (RULES.md 7.2)
    nobody gets a habitat bonus, the solo bonus included.
    """
    per_habitat = {habitat: habitat_bonus([p[habitat] for p in largest], options) for habitat in HABITATS}
    return [{habitat: per_habitat[habitat][i] for habitat in HABITATS} for i in range(len(largest))]


def habitat_bonus(sizes: Sequence[int], options: GameOptions) -> list[int]:
    """One habitat's bonus per player (see :func:`habitat_bonuses`) from each player's
    largest corridor of that habitat."""
    if not options.majority_bonus or options.must_not_match:
        return [0] * len(sizes)
    if len(sizes) == 1:
        return [_solo(sizes[0])]
    return majority_bonus(sizes)


def solo_bonus(largest: Mapping[str, int]) -> dict[str, int]:
    """RULES.md 5.1: "**Solo**: no majority bonus; instead +2 for each habitat whose
    largest corridor has 7 or more tiles."
    """
    return {habitat: _solo(largest[habitat]) for habitat in HABITATS}


def _solo(largest: int) -> int:
    return SOLO_BONUS if largest >= SOLO_BONUS_SIZE else 0
