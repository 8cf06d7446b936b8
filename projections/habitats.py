"""Habitat corridors, majority bonuses and the solo bonus (RULES.md 5.1).

- "Two adjacent tiles are joined in habitat H when **both touching edges show H**.
  A corridor is a connected set of tiles joined in H; its size is its tile count. A
  dual tile can belong to one corridor of each of its habitats."
- "Each player scores 1 point per tile of their **largest** corridor of each habitat."
- The rule restrictions of RULES.md 7 that change habitat scoring (``must_not_match``,
  ``corridors_of_three``, ``corridors_min_five``) are applied by :func:`habitat_points`
  and :func:`habitat_bonuses`.

Corridors are found with one union-find per habitat over the tiles, visiting each
pair of neighbouring tiles once (directions NE, E, SE from every tile).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cascadia.domain.components import HABITATS, TILES
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import ADJACENT, EDGE_TABLE, Hex
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
"""Directions NE, E, SE: from every tile they reach each neighbouring pair once."""

CorridorLabels = dict[str, dict[Hex, int]]
"""Per habitat, the corridor label of every tile showing that habitat."""


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = i = parent[parent[i]]
    return i


def _joined(environment: Environment) -> tuple[list[Hex], dict[str, list[int]]]:
    """The tiles in a fixed order and, per habitat, a union-find forest over their indexes
    in which tiles joined in that habitat share a root."""
    tiles = environment.tiles
    order = list(tiles)
    index = dict(zip(order, range(len(order)), strict=True))
    edges = [EDGE_TABLE[tile_id][rotation] for tile_id, rotation in tiles.values()]
    parents: dict[str, list[int]] = {habitat: list(range(len(order))) for habitat in HABITATS}
    for i, h in enumerate(order):
        own = edges[i]
        near = ADJACENT[h]
        for direction in FORWARD:
            j = index.get(near[direction])
            if j is not None and own[direction] == edges[j][direction + 3]:
                parent = parents[own[direction]]
                a, b = _root(parent, i), _root(parent, j)
                if a != b:
                    parent[b] = a
    return order, parents


def corridor_labels(environment: Environment) -> tuple[CorridorLabels, dict[str, list[int]]]:
    """Per habitat, a label per tile (its corridor) and the size of each label's corridor.

    Labels are ``0, 1, ...`` per habitat and index the size lists:
    ``sizes[habitat][labels[habitat][h]]`` is the size of the corridor holding ``h``.
    """
    order, parents = _joined(environment)
    tiles = environment.tiles
    labels: CorridorLabels = {habitat: {} for habitat in HABITATS}
    sizes: dict[str, list[int]] = {habitat: [] for habitat in HABITATS}
    label_of_root: dict[str, dict[int, int]] = {habitat: {} for habitat in HABITATS}
    for i, h in enumerate(order):
        for habitat in HABITATS_OF[tiles[h][0]]:
            top = _root(parents[habitat], i)
            label = label_of_root[habitat].get(top)
            if label is None:
                label = label_of_root[habitat][top] = len(sizes[habitat])
                sizes[habitat].append(0)
            sizes[habitat][label] += 1
            labels[habitat][h] = label
    return labels, sizes


def corridor_sizes(environment: Environment) -> dict[str, list[int]]:
    """Per habitat, the sizes of all its corridors, largest first (empty: no such tile)."""
    order, parents = _joined(environment)
    counts = {habitat: [0] * len(order) for habitat in HABITATS}
    for i, (tile_id, _) in enumerate(environment.tiles.values()):
        for habitat in HABITATS_OF[tile_id]:
            parent = parents[habitat]
            top = parent[i]
            if parent[top] != top:
                top = _root(parent, top)
            counts[habitat][top] += 1
    return {habitat: sorted(filter(None, found), reverse=True) for habitat, found in counts.items()}


def largest_corridors(environment: Environment) -> dict[str, int]:
    """Per habitat (in ``HABITATS`` order), the size of the largest corridor (0 if none)."""
    return {habitat: found[0] if found else 0 for habitat, found in corridor_sizes(environment).items()}


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
    if not options.majority_bonus or options.must_not_match:
        return [dict.fromkeys(HABITATS, 0) for _ in largest]
    if len(largest) == 1:
        return [solo_bonus(largest[0])]
    per_habitat = {habitat: majority_bonus([p[habitat] for p in largest]) for habitat in HABITATS}
    return [{habitat: per_habitat[habitat][i] for habitat in HABITATS} for i in range(len(largest))]


def solo_bonus(largest: Mapping[str, int]) -> dict[str, int]:
    """RULES.md 5.1: "**Solo**: no majority bonus; instead +2 for each habitat whose
    largest corridor has 7 or more tiles."
    """
    return {habitat: SOLO_BONUS if largest[habitat] >= SOLO_BONUS_SIZE else 0 for habitat in HABITATS}
