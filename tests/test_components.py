"""RULES.md 1 (components) and 3.4 (starter tiles): the transcribed data says what the rules say."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from cascadia.domain.components import (
    CARD_LETTERS,
    HABITAT_TILE_COUNT,
    HABITATS,
    NATURE_TOKENS,
    STARTER_COUNT,
    STARTER_POSITIONS,
    TILES,
    TOKENS_PER_SPECIES,
    VARIANT_CARDS,
    WILDLIFE,
    starter_layout,
)
from cascadia.domain.hexgrid import DIRECTIONS, neighbour, opposite, tile_edges

HABITAT_TILES = [t for t in TILES if t.id < HABITAT_TILE_COUNT]
KEYSTONES = [t for t in HABITAT_TILES if t.keystone]
DUALS = [t for t in HABITAT_TILES if not t.keystone]


def test_habitats_and_species():
    assert set(HABITATS) == {"mountain", "forest", "prairie", "wetland", "river"}
    assert set(WILDLIFE) == {"bear", "elk", "salmon", "hawk", "fox"}
    assert len(HABITATS) == len(WILDLIFE) == 5


def test_tile_ids_are_their_index():
    assert [t.id for t in TILES] == list(range(len(TILES)))
    assert HABITAT_TILE_COUNT == 85
    assert len(TILES) == 85 + 3 * 5


def test_85_habitat_tiles_25_keystones_60_duals():
    assert len(HABITAT_TILES) == 85
    assert len(KEYSTONES) == 25
    assert len(DUALS) == 60


def test_keystones_5_per_habitat_one_symbol():
    assert Counter(t.habitats[0] for t in KEYSTONES) == dict.fromkeys(HABITATS, 5)
    assert all(len(t.habitats) == 1 and len(t.wildlife) == 1 for t in KEYSTONES)


def test_duals_6_per_unordered_habitat_pair():
    pairs = Counter(frozenset(t.habitats) for t in DUALS)
    assert all(len(t.habitats) == 2 and t.habitats[0] != t.habitats[1] for t in DUALS)
    assert pairs == {frozenset(p): 6 for p in combinations(HABITATS, 2)}
    assert len(pairs) == 10


def test_45_two_symbol_and_15_three_symbol_duals():
    assert Counter(len(t.wildlife) for t in DUALS) == {2: 45, 3: 15}


def test_every_habitat_on_29_tiles():
    assert Counter(h for t in HABITAT_TILES for h in t.habitats) == dict.fromkeys(HABITATS, 29)


def test_every_symbol_on_32_tiles():
    assert all(len(set(t.wildlife)) == len(t.wildlife) for t in TILES)
    assert Counter(w for t in HABITAT_TILES for w in t.wildlife) == dict.fromkeys(WILDLIFE, 32)


def test_all_names_are_known():
    for t in TILES:
        assert set(t.habitats) <= set(HABITATS)
        assert set(t.wildlife) <= set(WILDLIFE)


def test_tokens_cards_and_nature_tokens():
    assert TOKENS_PER_SPECIES * len(WILDLIFE) == 100
    assert NATURE_TOKENS == 25
    # A-D for each species, plus one double-sided variant card.
    assert len(CARD_LETTERS) * len(WILDLIFE) + 1 == 21
    assert set(CARD_LETTERS) == {"A", "B", "C", "D"}
    assert set(VARIANT_CARDS) == {"family", "intermediate"}


# -- starter tiles (RULES.md 1, 3.4) -----------------------------------------------------

# Per starter: (habitats, wildlife, edges 0..5) of the keystone, lower-left and lower-right
# hexes, written out by hand from the component facts.
M, F, P, W, R = "mountain", "forest", "prairie", "wetland", "river"
EXPECTED_STARTERS = [
    [
        ((M,), ("bear",), [M] * 6),
        ((F, W), ("elk", "hawk", "fox"), [F, W, W, W, F, F]),
        ((R, P), ("bear", "salmon"), [R, R, P, P, P, R]),
    ],
    [
        ((W,), ("hawk",), [W] * 6),
        ((R, F), ("elk", "salmon", "hawk"), [R, F, F, F, R, R]),
        ((P, M), ("bear", "fox"), [P, P, M, M, M, P]),
    ],
    [
        ((P,), ("fox",), [P] * 6),
        ((W, R), ("salmon", "hawk", "fox"), [W, R, R, R, W, W]),
        ((F, M), ("bear", "elk"), [F, F, M, M, M, F]),
    ],
    [
        ((R,), ("salmon",), [R] * 6),
        ((P, F), ("bear", "elk", "salmon"), [P, F, F, F, P, P]),
        ((M, W), ("hawk", "fox"), [M, M, W, W, W, M]),
    ],
    [
        ((F,), ("elk",), [F] * 6),
        ((M, R), ("bear", "elk", "hawk"), [M, R, R, R, M, M]),
        ((W, P), ("salmon", "fox"), [W, W, P, P, P, W]),
    ],
]


def test_five_starters_with_three_hexes_at_the_rule_positions():
    assert STARTER_COUNT == 5
    assert STARTER_POSITIONS == ((0, 0), (-1, 1), (0, 1))
    ids = [tile for s in range(5) for _, tile, _ in starter_layout(s)]
    assert sorted(ids) == list(range(85, 100))
    for s in range(5):
        (key_pos, key, key_rot), (ll_pos, ll, _), (lr_pos, lr, _) = starter_layout(s)
        assert (key_pos, ll_pos, lr_pos) == ((0, 0), (-1, 1), (0, 1))
        assert TILES[key].keystone and key_rot == 0
        assert len(TILES[ll].wildlife) == 3 and not TILES[ll].keystone
        assert len(TILES[lr].wildlife) == 2 and not TILES[lr].keystone


@pytest.mark.parametrize("starter", range(5))
def test_starter_hexes_match_the_component_facts(starter):
    for (position, tile, rotation), (habitats, wildlife, edges) in zip(
        starter_layout(starter), EXPECTED_STARTERS[starter], strict=True
    ):
        assert TILES[tile].habitats == habitats, position
        assert TILES[tile].wildlife == wildlife, position
        assert list(tile_edges(tile, rotation)) == edges, position


def test_starter_0_rotations_and_edges_by_hand():
    (_, key, key_rot), (_, ll, ll_rot), (_, lr, lr_rot) = starter_layout(0)
    assert list(tile_edges(key, key_rot)) == ["mountain"] * 6
    assert ll_rot == 4
    assert list(tile_edges(ll, ll_rot)) == ["forest", "wetland", "wetland", "wetland", "forest", "forest"]
    assert lr_rot == 5
    assert list(tile_edges(lr, lr_rot)) == ["river", "river", "prairie", "prairie", "prairie", "river"]


def _touching(starter: int) -> dict[tuple[str, str], tuple[str, str]]:
    """The two habitats shown across each shared edge inside a starter tile, found with
    the direction between the hexes and the opposite edge."""
    layout = {pos: (tile, rot) for pos, tile, rot in starter_layout(starter)}
    names = {(0, 0): "key", (-1, 1): "ll", (0, 1): "lr"}
    touching = {}
    for a, b in (((0, 0), (-1, 1)), ((0, 0), (0, 1)), ((-1, 1), (0, 1))):
        (edge,) = [d for d in range(6) if neighbour(a, d) == b]
        ta, ra = layout[a]
        tb, rb = layout[b]
        touching[(names[a], names[b])] = (tile_edges(ta, ra)[edge], tile_edges(tb, rb)[opposite(edge)])
    return touching


def test_starter_hexes_touch_along_the_expected_edges():
    # keystone -> lower left is SW (3); keystone -> lower right is SE (2); lower left ->
    # lower right is E (1).
    assert neighbour((0, 0), 3) == (-1, 1)
    assert neighbour((0, 0), 2) == (0, 1)
    assert neighbour((-1, 1), 1) == (0, 1)
    assert DIRECTIONS[3] == (-1, 1) and DIRECTIONS[2] == (0, 1) and DIRECTIONS[1] == (1, 0)


def test_starter_0_touching_edges_by_hand():
    assert _touching(0) == {
        ("key", "ll"): ("mountain", "forest"),
        ("key", "lr"): ("mountain", "river"),
        ("ll", "lr"): ("wetland", "prairie"),
    }


@pytest.mark.parametrize("starter", range(5))
def test_starter_touching_edges_match_the_expected_edges(starter):
    key, ll, lr = (edges for _, _, edges in EXPECTED_STARTERS[starter])
    assert _touching(starter) == {
        ("key", "ll"): (key[3], ll[0]),
        ("key", "lr"): (key[2], lr[5]),
        ("ll", "lr"): (ll[1], lr[4]),
    }


def test_starter_keystones_cover_the_five_habitats():
    keystones = [TILES[starter_layout(s)[0][1]].habitats[0] for s in range(5)]
    assert sorted(keystones) == sorted(HABITATS)
