"""Property tests of scoring (hypothesis).

- Every card and the corridors are unchanged when a whole environment is turned by
  60 degrees (hexes by ``rotate_hex``, each tile's rotation + 1) or moved.
- The maximising cards (elk A-D, hawk D, fox D) agree with naive exhaustive searches
  written here from the rule text alone: every set partition of the elk (a subset
  dynamic programme over all blocks, each block checked against the card's rule) and
  every set of disjoint pairs.
- Fox A-C, a sum over the foxes, agree with a count of each fox's neighbours written
  from the rule text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from cascadia.domain.components import TILES, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex, rotate_hex
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import corridor_sizes
from cascadia.projections.wildlife import (
    CARDS,
    elk_a,
    elk_b,
    elk_c,
    elk_d,
    fox_a,
    fox_b,
    fox_c,
    fox_d,
    hawk_b,
    hawk_c,
    hawk_d,
)
from hypothesis import given, settings
from hypothesis import strategies as st

OPTION_SETS = [
    GameOptions(salmon_runs=salmon, elk_rings=rings)
    for salmon in ("strict", "lenient")
    for rings in ("arc", "any-subset")
]
STEPS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def hexagon(radius: int) -> list[Hex]:
    return [
        (q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius
    ]


def around(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in STEPS]


def adjacent(a: Hex, b: Hex) -> bool:
    return b in around(a)


# --- Strategies --------------------------------------------------------------------


@st.composite
def environments(draw: st.DrawFn) -> Environment:
    hexes = draw(st.lists(st.sampled_from(hexagon(4)), min_size=1, max_size=30, unique=True))
    tiles = {h: (draw(st.integers(0, len(TILES) - 1)), draw(st.integers(0, 5))) for h in hexes}
    wildlife = {h: s for h in hexes if (s := draw(st.none() | st.sampled_from(WILDLIFE))) is not None}
    return Environment(tiles=tiles, wildlife=wildlife)


@st.composite
def token_maps(draw: st.DrawFn, radius: int, max_tokens: int, focus: str) -> dict[Hex, str]:
    """Dense small token maps in which ``focus`` is the most common species."""
    hexes = draw(st.lists(st.sampled_from(hexagon(radius)), max_size=max_tokens, unique=True))
    weighted = st.sampled_from([focus] * 4 + list(WILDLIFE))
    return {h: draw(weighted) for h in hexes}


@st.composite
def connected_elk(draw: st.DrawFn, sizes: tuple[int, int]) -> dict[Hex, str]:
    """A random connected group of elk, grown one neighbour at a time; when ``stringy``,
    preferably onto hexes touching only one elk so far (branching, tree-like groups,
    which often cannot be cut into connected pieces of 8)."""
    size = draw(st.integers(*sizes))
    stringy = draw(st.booleans())
    cells = [(0, 0)]
    while len(cells) < size:
        taken = set(cells)
        frontier = sorted({n for h in cells for n in around(h)} - taken)
        if stringy:
            frontier = [f for f in frontier if sum(n in taken for n in around(f)) == 1] or frontier
        cells.append(frontier[draw(st.integers(0, len(frontier) - 1))])
    return dict.fromkeys(cells, "elk")


# --- Symmetry ----------------------------------------------------------------------


def turned(env: Environment, turns: int) -> Environment:
    return Environment(
        tiles={
            rotate_hex(h, turns): (tile, (rotation + turns) % 6) for h, (tile, rotation) in env.tiles.items()
        },
        wildlife={rotate_hex(h, turns): s for h, s in env.wildlife.items()},
    )


def moved(env: Environment, dq: int, dr: int) -> Environment:
    return Environment(
        tiles={(q + dq, r + dr): placed for (q, r), placed in env.tiles.items()},
        wildlife={(q + dq, r + dr): s for (q, r), s in env.wildlife.items()},
    )


def every_score(env: Environment) -> tuple[list[int], dict[str, list[int]]]:
    cards = [scorer(env.wildlife, options) for scorer in CARDS.values() for options in OPTION_SETS]
    return cards, corridor_sizes(env)


@settings(max_examples=150, deadline=None)
@given(environments(), st.integers(1, 5))
def test_scores_unchanged_by_rotation(env: Environment, turns: int) -> None:
    assert every_score(turned(env, turns)) == every_score(env)


@settings(max_examples=100, deadline=None)
@given(environments(), st.integers(-30, 30), st.integers(-30, 30))
def test_scores_unchanged_by_translation(env: Environment, dq: int, dr: int) -> None:
    assert every_score(moved(env, dq, dr)) == every_score(env)


def test_rotation_helper_turns_tiles_with_the_board() -> None:
    # a tile's edge i faces direction i; after a turn the same edge faces direction i+1,
    # so the neighbour that touched it must have moved there too: check on one join.
    env = Environment(tiles={(0, 0): (25, 0), (1, 0): (26, 2)})  # mountain joined E-W
    assert corridor_sizes(env)["mountain"] == [2]
    assert corridor_sizes(turned(env, 1))["mountain"] == [2]
    assert set(turned(env, 1).tiles) == {(0, 0), (0, 1)}


# --- Naive elk: every set partition, blocks checked against the rule text ---------

LINE_POINTS = {1: 2, 2: 5, 3: 9, 4: 13}
SHAPE_POINTS = {1: 2, 2: 5, 3: 9, 4: 13}
ANY_POINTS = [0, 2, 4, 7, 10, 14, 18, 23, 28]
RING_POINTS = {1: 2, 2: 5, 3: 8, 4: 12, 5: 16, 6: 21}


def is_line(block: Sequence[Hex]) -> bool:
    """A straight run along one axis (same r, same q or same q + r), no holes."""
    if len(block) == 1:
        return True
    for key, position in ((lambda h: h[1], lambda h: h[0]), (lambda h: h[0], lambda h: h[1])):
        if len({key(h) for h in block}) == 1:
            places = sorted(position(h) for h in block)
            return places == list(range(places[0], places[0] + len(block)))
    if len({h[0] + h[1] for h in block}) == 1:
        places = sorted(h[0] for h in block)
        return places == list(range(places[0], places[0] + len(block)))
    return False


def adjacent_pairs(block: Sequence[Hex]) -> int:
    return sum(adjacent(a, b) for a, b in combinations(block, 2))


def is_shape(block: Sequence[Hex]) -> bool:
    """Single; pair; triangle (3 pairs adjacent); rhombus (4 elk, 5 adjacent pairs)."""
    needed = {1: 0, 2: 1, 3: 3, 4: 5}
    return len(block) in needed and adjacent_pairs(block) == needed[len(block)]


def is_connected(block: Sequence[Hex]) -> bool:
    seen = {block[0]}
    stack = [block[0]]
    while stack:
        h = stack.pop()
        for n in around(h):
            if n in block and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(block)


def on_ring(block: Sequence[Hex], gaps: bool) -> bool:
    """All on the ring around one centre and (unless ``gaps``) one cyclic run of it."""
    if len(block) > 6:
        return False
    for centre in around(block[0]):
        ring = around(centre)
        if all(h in ring for h in block):
            places = {ring.index(h) for h in block}
            if gaps or len(places) == 6:
                return True
            if any(places == {(s + k) % 6 for k in range(len(places))} for s in range(6)):
                return True
    return False


def naive_best_partition(cells: Sequence[Hex], value: Callable[[Sequence[Hex]], int | None]) -> int:
    """Max over all set partitions; ``value(block)`` is None for a block the card forbids."""
    n = len(cells)
    block_value = {}
    for mask in range(1, 1 << n):
        block = [cells[i] for i in range(n) if mask >> i & 1]
        block_value[mask] = value(block)
    best = {0: 0}
    for mask in range(1, 1 << n):
        low = mask & -mask
        top = None
        sub = mask
        while sub:
            if sub & low and block_value[sub] is not None and best[mask ^ sub] is not None:
                total = block_value[sub] + best[mask ^ sub]
                top = total if top is None else max(top, total)
            sub = (sub - 1) & mask
        best[mask] = top
    result = best[(1 << n) - 1]
    assert result is not None
    return result


NAIVE_ELK: dict[str, Callable[[Sequence[Hex]], int | None]] = {
    "A": lambda b: LINE_POINTS[len(b)] if len(b) <= 4 and is_line(b) else None,
    "B": lambda b: SHAPE_POINTS[len(b)] if is_shape(b) else None,
    "C": lambda b: ANY_POINTS[min(len(b), 8)] if is_connected(b) else None,
    "D-arc": lambda b: RING_POINTS[len(b)] if on_ring(b, gaps=False) else None,
    "D-any": lambda b: RING_POINTS[len(b)] if on_ring(b, gaps=True) else None,
}


def elk_cells(tokens: dict[Hex, str]) -> list[Hex]:
    return sorted(h for h, s in tokens.items() if s == "elk")


@settings(max_examples=150, deadline=None)
@given(token_maps(radius=2, max_tokens=14, focus="elk"))
def test_elk_cards_match_exhaustive_search(tokens: dict[Hex, str]) -> None:
    cells = elk_cells(tokens)[:10]
    tokens = {h: s for h, s in tokens.items() if s != "elk" or h in cells}
    assert elk_a(tokens) == naive_best_partition(cells, NAIVE_ELK["A"])
    assert elk_b(tokens) == naive_best_partition(cells, NAIVE_ELK["B"])
    assert elk_c(tokens) == naive_best_partition(cells, NAIVE_ELK["C"])
    assert elk_d(tokens, GameOptions(elk_rings="arc")) == naive_best_partition(cells, NAIVE_ELK["D-arc"])
    assert elk_d(tokens, GameOptions(elk_rings="any-subset")) == naive_best_partition(
        cells, NAIVE_ELK["D-any"]
    )


@settings(max_examples=40, deadline=None)
@given(connected_elk(sizes=(11, 12)))
def test_elk_c_large_groups_match_exhaustive_search(tokens: dict[Hex, str]) -> None:
    assert elk_c(tokens) == naive_best_partition(elk_cells(tokens), NAIVE_ELK["C"])


@settings(max_examples=40, deadline=None)
@given(connected_elk(sizes=(8, 10)))
def test_elk_abd_connected_groups_match_exhaustive_search(tokens: dict[Hex, str]) -> None:
    cells = elk_cells(tokens)
    assert elk_a(tokens) == naive_best_partition(cells, NAIVE_ELK["A"])
    assert elk_b(tokens) == naive_best_partition(cells, NAIVE_ELK["B"])
    assert elk_d(tokens, GameOptions(elk_rings="arc")) == naive_best_partition(cells, NAIVE_ELK["D-arc"])


# --- Naive pairs: every set of disjoint pairs -------------------------------------


def naive_best_pairs(pairs: list[tuple[Hex, Hex, int]]) -> int:
    if not pairs:
        return 0
    (a, b, value), rest = pairs[0], pairs[1:]
    without = naive_best_pairs(rest)
    with_it = value + naive_best_pairs([p for p in rest if not {a, b} & {p[0], p[1]}])
    return max(without, with_it)


def naive_sightlines(tokens: dict[Hex, str]) -> list[tuple[Hex, Hex, list[Hex]]]:
    """Hawk pairs on one axis, not adjacent, no hawk strictly between; with that stretch."""
    hawks = sorted(h for h, s in tokens.items() if s == "hawk")
    found = []
    for a, b in combinations(hawks, 2):
        dq, dr = b[0] - a[0], b[1] - a[1]
        if not (dq == 0 or dr == 0 or dq + dr == 0):
            continue
        steps = max(abs(dq), abs(dr))
        if steps < 2:
            continue
        stretch = [(a[0] + k * dq // steps, a[1] + k * dr // steps) for k in range(1, steps)]
        if not any(tokens.get(h) == "hawk" for h in stretch):
            found.append((a, b, stretch))
    return found


def naive_hawk_d(tokens: dict[Hex, str]) -> int:
    points = {0: 0, 1: 4, 2: 7}
    pairs = [
        (a, b, points.get(len({tokens[h] for h in stretch if h in tokens}), 9))
        for a, b, stretch in naive_sightlines(tokens)
    ]
    return naive_best_pairs(pairs)


def naive_fox_d(tokens: dict[Hex, str]) -> int:
    points = [0, 5, 7, 9, 11]
    foxes = sorted(h for h, s in tokens.items() if s == "fox")
    pairs = []
    for a, b in combinations(foxes, 2):
        if adjacent(a, b):
            ring = (set(around(a)) | set(around(b))) - {a, b}
            counts = Counter(tokens[h] for h in ring if h in tokens and tokens[h] != "fox")
            pairs.append((a, b, points[sum(1 for n in counts.values() if n >= 2)]))
    return naive_best_pairs(pairs)


@settings(max_examples=200, deadline=None)
@given(token_maps(radius=3, max_tokens=22, focus="hawk"))
def test_hawk_cards_match_exhaustive_search(tokens: dict[Hex, str]) -> None:
    assert hawk_d(tokens) == naive_hawk_d(tokens)
    sight = naive_sightlines(tokens)
    assert hawk_c(tokens) == 3 * len(sight)
    hawks = [h for h, s in tokens.items() if s == "hawk"]
    lone = {h for h in hawks if not any(adjacent(h, other) for other in hawks)}
    seeing = lone & {h for a, b, _ in sight for h in (a, b)}
    assert hawk_b(tokens) == [0, 0, 5, 9, 12, 16, 20, 24, 28][min(len(seeing), 8)]


@settings(max_examples=200, deadline=None)
@given(token_maps(radius=2, max_tokens=19, focus="fox"))
def test_fox_d_matches_exhaustive_search(tokens: dict[Hex, str]) -> None:
    assert fox_d(tokens) == naive_fox_d(tokens)


def naive_fox(tokens: dict[Hex, str], card: str) -> int:
    """RULES.md 5.7, per fox: A distinct species around (foxes included); B by the number
    of non-fox species with two or more around (1 -> 3, 2 -> 5, 3 -> 7); C the count of
    the most common non-fox species around."""
    total = 0
    for fox in (h for h, s in tokens.items() if s == "fox"):
        near = [tokens[h] for h in around(fox) if h in tokens]
        others = Counter(s for s in near if s != "fox")
        if card == "A":
            total += len(set(near))
        elif card == "B":
            total += [0, 3, 5, 7][sum(1 for n in others.values() if n >= 2)]
        else:
            total += max(others.values(), default=0)
    return total


@settings(max_examples=200, deadline=None)
@given(token_maps(radius=2, max_tokens=19, focus="fox"))
def test_fox_a_to_c_match_a_count_of_each_fox_neighbours(tokens: dict[Hex, str]) -> None:
    assert fox_a(tokens) == naive_fox(tokens, "A")
    assert fox_b(tokens) == naive_fox(tokens, "B")
    assert fox_c(tokens) == naive_fox(tokens, "C")
