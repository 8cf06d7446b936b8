"""RULES.md 2 (geometry): directions, opposite edges, rotation of tiles, distance."""

from __future__ import annotations

import pytest
from cascadia.domain.components import TILES, Tile
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import (
    AXES,
    DIRECTION_NAMES,
    DIRECTIONS,
    NEIGHBOUR_SET,
    distance,
    distinct_rotations,
    edges_of,
    frontier,
    neighbour,
    neighbours,
    opposite,
    rotate_hex,
    tile_edges,
)
from hypothesis import given, settings
from hypothesis import strategies as st

coords = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


def test_directions_clockwise_from_north_east():
    assert DIRECTIONS == ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
    assert DIRECTION_NAMES == ("NE", "E", "SE", "SW", "W", "NW")
    assert AXES == ((1, -1), (1, 0), (0, 1))


def test_neighbours_in_direction_order():
    assert neighbours((2, -1)) == tuple(neighbour((2, -1), d) for d in range(6))
    assert neighbour((2, -1), 0) == (3, -2)
    assert neighbour((2, -1), 4) == (1, -1)
    assert len(set(neighbours((0, 0)))) == 6


def test_opposite_edges():
    assert [opposite(i) for i in range(6)] == [3, 4, 5, 0, 1, 2]
    for i in range(6):
        dq, dr = DIRECTIONS[i]
        assert DIRECTIONS[opposite(i)] == (-dq, -dr)


@given(coords, st.integers(0, 5))
def test_the_neighbour_across_an_edge_touches_back_with_the_opposite_edge(h, d):
    assert neighbour(neighbour(h, d), opposite(d)) == h


def test_distance_examples():
    assert distance((0, 0), (0, 0)) == 0
    assert all(distance((0, 0), n) == 1 for n in neighbours((0, 0)))
    assert distance((0, 0), (2, -1)) == 2
    assert distance((0, 0), (3, -3)) == 3
    assert distance((-2, 0), (2, 0)) == 4
    assert distance((0, 0), (2, 2)) == 4
    assert distance((1, 1), (-1, 3)) == 2


@given(coords, coords, coords)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_rotate_hex_turns_each_direction_to_the_next_clockwise():
    for d in range(6):
        assert rotate_hex(DIRECTIONS[d]) == DIRECTIONS[(d + 1) % 6]
        assert rotate_hex(DIRECTIONS[d], 3) == DIRECTIONS[opposite(d)]
    assert rotate_hex((2, -1), 1) == (1, 1)


@given(coords, st.integers(-12, 12))
def test_rotate_hex_keeps_distance_and_six_turns_are_identity(h, turns):
    assert rotate_hex(h, 6) == h
    assert rotate_hex(h, 0) == h
    assert distance((0, 0), rotate_hex(h, turns)) == distance((0, 0), h)
    assert rotate_hex(rotate_hex(h, turns), -turns) == h


def test_dual_tile_rotation_puts_a_on_three_edges_from_rho():
    dual = Tile(999, ("forest", "river"), ("elk",))
    f, r = "forest", "river"
    assert edges_of(dual, 0) == (f, f, f, r, r, r)
    assert edges_of(dual, 1) == (r, f, f, f, r, r)
    assert edges_of(dual, 2) == (r, r, f, f, f, r)
    assert edges_of(dual, 3) == (r, r, r, f, f, f)
    assert edges_of(dual, 4) == (f, r, r, r, f, f)
    assert edges_of(dual, 5) == (f, f, r, r, r, f)


@pytest.mark.parametrize("tile", [t for t in TILES if not t.keystone], ids=lambda t: str(t.id))
def test_every_dual_tile_rotation(tile):
    a, b = tile.habitats
    layouts = set()
    for rho in range(6):
        edges = tile_edges(tile.id, rho)
        assert edges == edges_of(tile, rho)
        assert [e for i, e in enumerate(edges) if e == a] == [a] * 3
        assert {edges[rho % 6], edges[(rho + 1) % 6], edges[(rho + 2) % 6]} == {a}
        assert {edges[(rho + 3) % 6], edges[(rho + 4) % 6], edges[(rho + 5) % 6]} == {b}
        layouts.add(edges)
    assert len(layouts) == 6
    assert distinct_rotations(tile.id) == (0, 1, 2, 3, 4, 5)


def test_keystone_shows_its_habitat_on_all_six_edges_in_any_rotation():
    for tile in (t for t in TILES if t.keystone):
        for rho in range(6):
            assert tile_edges(tile.id, rho) == (tile.habitats[0],) * 6
        assert distinct_rotations(tile.id) == (0,)


def test_frontier_and_open_hexes():
    occupied = [(0, 0), (1, 0)]
    expected = sorted((set(neighbours((0, 0))) | set(neighbours((1, 0)))) - set(occupied))
    assert list(frontier(occupied)) == expected
    assert len(expected) == 8
    env = Environment({(0, 0): (0, 0), (1, 0): (25, 0)})
    assert env.open_hexes() == expected
    assert env.is_adjacent_to_tiles((2, -1))
    assert not env.is_adjacent_to_tiles((3, 0))


def test_environment_wildlife_targets():
    # tile 25: mountain/forest with bear and hawk; tile 0: mountain keystone bear.
    env = Environment({(0, 0): (0, 0), (1, 0): (25, 3)})
    assert env.wildlife_targets("bear") == [(0, 0), (1, 0)]
    assert env.wildlife_targets("hawk") == [(1, 0)]
    assert env.wildlife_targets("fox") == []
    env.wildlife[(1, 0)] = "hawk"
    assert env.wildlife_targets("bear") == [(0, 0)]
    assert not env.is_open_for((1, 0), "bear")
    assert not env.is_open_for((5, 5), "bear")
    assert env.edges((1, 0)) == tile_edges(25, 3)
    copied = env.copy()
    copied.wildlife[(0, 0)] = "bear"
    assert (0, 0) not in env.wildlife


@settings(max_examples=50)
@given(st.sampled_from(range(len(TILES))), st.integers(0, 5))
def test_rotating_a_tile_once_shifts_its_edges_by_one(tile_id, rho):
    before = tile_edges(tile_id, rho)
    after = tile_edges(tile_id, (rho + 1) % 6)
    assert all(after[(i + 1) % 6] == before[i] for i in range(6))


@given(q=st.integers(-100, 100), r=st.integers(-100, 100))
def test_neighbour_sets_hold_the_six_neighbours(q: int, r: int) -> None:
    """The memoised neighbour sets (inside the table's reach and beyond it) are the six
    neighbours."""
    assert NEIGHBOUR_SET[(q, r)] == frozenset(neighbours((q, r)))
    assert len(NEIGHBOUR_SET[(q, r)]) == 6
