"""Habitat corridors, majority bonuses and the solo bonus (RULES.md 5.1).

Tile facts used (components): ids 0-4 are mountain keystones, 5-9 forest keystones;
25 and 26 are mountain/forest duals. A dual ``[A, B]`` with rotation ``rho`` shows A on
edges rho, rho+1, rho+2 (mod 6) and B on the others. Edge i faces direction i
(0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW); the neighbour touches it with edge (i + 3) % 6.
"""

from __future__ import annotations

import pytest
from cascadia.domain.components import HABITATS
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import (
    corridor_labels,
    corridor_sizes,
    habitat_bonuses,
    habitat_points,
    largest_corridors,
    majority_bonus,
    solo_bonus,
)

MOUNTAIN_KEYSTONES = (0, 1, 2, 3, 4)
FOREST_KEYSTONE = 5
MOUNTAIN_FOREST = (25, 26)


def environment(tiles: dict[Hex, tuple[int, int]]) -> Environment:
    return Environment(tiles=dict(tiles))


def sizes(env: Environment) -> dict[str, list[int]]:
    """Only the habitats that have tiles."""
    return {habitat: found for habitat, found in corridor_sizes(env).items() if found}


# --- Corridors ---------------------------------------------------------------------


def test_duals_touching_without_matching_edges_are_not_joined() -> None:
    # (0,0): 25 rho 0 -> mountain on 0,1,2, forest on 3,4,5; its E edge (1) is mountain.
    # (1,0): 26 rho 0 -> its W edge (4) is forest. Both tiles show both habitats, but
    # the touching edges differ: four corridors of 1.
    env = environment({(0, 0): (25, 0), (1, 0): (26, 0)})
    assert sizes(env) == {"mountain": [1, 1], "forest": [1, 1]}
    # (1,0) at rho 1: mountain on 1,2,3, forest on 4 again: still not joined
    assert sizes(environment({(0, 0): (25, 0), (1, 0): (26, 1)})) == {"mountain": [1, 1], "forest": [1, 1]}


def test_duals_join_when_both_touching_edges_match() -> None:
    # (1,0) at rho 2: mountain on 2,3,4: its W edge is mountain, like (0,0)'s E edge
    assert sizes(environment({(0, 0): (25, 0), (1, 0): (26, 2)})) == {"mountain": [2], "forest": [1, 1]}
    # (0,0) at rho 3: forest on 0,1,2 (E edge forest); (1,0) at rho 0: W edge forest
    assert sizes(environment({(0, 0): (25, 3), (1, 0): (26, 0)})) == {"mountain": [1, 1], "forest": [2]}


def test_a_dual_tile_belongs_to_one_corridor_of_each_habitat() -> None:
    # mountain keystone (0,0) - dual (1,0) - forest keystone (2,0); the dual at rho 3
    # has mountain on 3,4,5 (W edge) and forest on 0,1,2 (E edge)
    env = environment({(0, 0): (0, 0), (1, 0): (25, 3), (2, 0): (FOREST_KEYSTONE, 0)})
    assert sizes(env) == {"mountain": [2], "forest": [2]}


def test_keystones_form_corridors_and_the_largest_counts() -> None:
    env = environment({(0, 0): (0, 0), (1, 0): (1, 3), (2, 0): (2, 5), (5, 5): (3, 0)})
    assert sizes(env) == {"mountain": [3, 1]}
    assert largest_corridors(env) == {"mountain": 3, "forest": 0, "prairie": 0, "wetland": 0, "river": 0}


def seven_mountains(with_last: bool = True) -> Environment:
    """Five mountain keystones in a row (0..4, 0), dual 25 at (5,0) turned so that its W
    edge is mountain (rho 3: mountain on 3,4,5), and dual 26 at (0,1) with its NW edge
    (5, facing (0,0)) mountain (rho 3)."""
    tiles = {(k, 0): (tile, 0) for k, tile in enumerate(MOUNTAIN_KEYSTONES)}
    tiles[(5, 0)] = (MOUNTAIN_FOREST[0], 3)
    if with_last:
        tiles[(0, 1)] = (MOUNTAIN_FOREST[1], 3)
    return environment(tiles)


def test_corridor_of_seven() -> None:
    # the two duals show forest on 0,1,2 and are not adjacent: forest corridors of 1
    assert sizes(seven_mountains()) == {"mountain": [7], "forest": [1, 1]}
    assert largest_corridors(seven_mountains(with_last=False))["mountain"] == 6


# --- Majority bonuses --------------------------------------------------------------


@pytest.mark.parametrize(
    ("sizes_", "expected"),
    [
        ((5, 3), [2, 0]),
        ((3, 5), [0, 2]),
        ((4, 4), [1, 1]),
        ((3, 0), [2, 0]),
        ((0, 0), [0, 0]),
    ],
)
def test_two_players(sizes_: tuple[int, ...], expected: list[int]) -> None:
    assert majority_bonus(sizes_) == expected


@pytest.mark.parametrize(
    ("sizes_", "expected"),
    [
        ((7, 5, 2), [3, 1, 0]),
        ((2, 5, 7), [0, 1, 3]),
        ((7, 7, 2), [2, 2, 0]),  # two-way tie for largest: nobody second
        ((7, 7, 7), [1, 1, 1]),  # three-way tie
        ((7, 5, 5), [3, 0, 0]),  # tie for second: nothing
        ((4, 0, 0), [3, 0, 0]),  # second would be size 0: never earns
        ((5, 3, 0), [3, 1, 0]),
        ((0, 0, 0), [0, 0, 0]),
    ],
)
def test_three_players(sizes_: tuple[int, ...], expected: list[int]) -> None:
    assert majority_bonus(sizes_) == expected


@pytest.mark.parametrize(
    ("sizes_", "expected"),
    [
        ((7, 5, 5, 2), [3, 0, 0, 0]),  # RULES.md: the 2 does not move up
        ((8, 7, 1, 0), [3, 1, 0, 0]),
        ((1, 8, 7, 1), [0, 3, 1, 0]),
        ((6, 6, 3, 2), [2, 2, 0, 0]),
        ((6, 6, 6, 2), [1, 1, 1, 0]),
        ((6, 6, 6, 6), [1, 1, 1, 1]),
        ((3, 0, 0, 0), [3, 0, 0, 0]),  # size-0 players earn nothing, not even second
        ((2, 1, 0, 0), [3, 1, 0, 0]),
        ((5, 5, 0, 0), [2, 2, 0, 0]),
        ((0, 0, 0, 0), [0, 0, 0, 0]),
        ((4, 2, 2, 2), [3, 0, 0, 0]),
    ],
)
def test_four_players(sizes_: tuple[int, ...], expected: list[int]) -> None:
    assert majority_bonus(sizes_) == expected


def test_majority_needs_one_to_four_players() -> None:
    assert majority_bonus([9]) == [0]
    with pytest.raises(ValueError, match="1 to 4"):
        majority_bonus([1, 2, 3, 4, 5])
    with pytest.raises(ValueError, match="1 to 4"):
        majority_bonus([])


def test_habitat_bonuses_per_player_and_habitat() -> None:
    zero = dict.fromkeys(HABITATS, 0)
    players = [
        {**zero, "mountain": 6, "forest": 2},
        {**zero, "mountain": 6, "forest": 3},
        {**zero, "mountain": 1},
    ]
    bonuses = habitat_bonuses(players, GameOptions())
    assert bonuses == [
        {**zero, "mountain": 2, "forest": 1},
        {**zero, "mountain": 2, "forest": 3},
        zero,
    ]
    assert habitat_bonuses(players, GameOptions(majority_bonus=False)) == [zero, zero, zero]


# --- Solo bonus --------------------------------------------------------------------


def test_solo_bonus_at_seven_not_six() -> None:
    largest = {"mountain": 7, "forest": 6, "prairie": 12, "wetland": 0, "river": 1}
    assert solo_bonus(largest) == {"mountain": 2, "forest": 0, "prairie": 2, "wetland": 0, "river": 0}
    assert habitat_bonuses([largest], GameOptions()) == [solo_bonus(largest)]


def test_solo_bonus_from_a_real_corridor() -> None:
    assert solo_bonus(largest_corridors(seven_mountains()))["mountain"] == 2
    assert solo_bonus(largest_corridors(seven_mountains(with_last=False)))["mountain"] == 0


def test_majority_bonus_off_switches_off_the_solo_bonus_too() -> None:
    largest = dict.fromkeys(HABITATS, 9)
    assert habitat_bonuses([largest], GameOptions(majority_bonus=False)) == [dict.fromkeys(HABITATS, 0)]


def test_corridor_labels_name_each_tiles_corridor() -> None:
    # mountain keystone (0,0) joined to dual (1,0) (rho 3: mountain W); another mountain
    # keystone at (5,5) alone; dual (1,0) joined to forest keystone (2,0) (forest E)
    env = environment({(0, 0): (0, 0), (1, 0): (25, 3), (2, 0): (FOREST_KEYSTONE, 0), (5, 5): (1, 0)})
    labels, found = corridor_labels(env)
    mountain = labels["mountain"]
    assert set(mountain) == {(0, 0), (1, 0), (5, 5)}
    assert mountain[(0, 0)] == mountain[(1, 0)] != mountain[(5, 5)]
    assert found["mountain"][mountain[(0, 0)]] == 2
    assert found["mountain"][mountain[(5, 5)]] == 1
    assert set(labels["forest"]) == {(1, 0), (2, 0)}
    assert found["forest"] == [2]
    assert labels["river"] == {} and found["river"] == []


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (GameOptions(), 6),
        (GameOptions(corridors_of_three=True), 6),  # two corridors of exactly 3
        (GameOptions(corridors_min_five=True), 6),
        (GameOptions(must_not_match=True), 0),
    ],
)
def test_habitat_points_under_rule_restrictions(options: GameOptions, expected: int) -> None:
    assert habitat_points([6, 3, 3, 1, 4], options) == expected


def test_habitat_points_small_corridors() -> None:
    assert habitat_points([4, 2], GameOptions()) == 4
    assert habitat_points([4, 2], GameOptions(corridors_min_five=True)) == 0
    assert habitat_points([5], GameOptions(corridors_min_five=True)) == 5
    assert habitat_points([4, 2], GameOptions(corridors_of_three=True)) == 0
    assert habitat_points([], GameOptions()) == 0
