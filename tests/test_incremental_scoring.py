"""Scoring kept up to date as a board grows equals scoring the whole board afresh.

:class:`~cascadia.projections.habitats.CorridorIndex` takes in each tile as it is
placed; after every placement of a random growing board its corridors must be those
of a flood fill over the whole board written from RULES.md 5.1
(``corridor_sizes_ref``), of a fresh index of the same tiles, and its labels
must name each tile's corridor, and the board's open hexes (kept with it) must be found
afresh, and so is its frontier (the edges each open hex's neighbours show
there). A copy's index grows apart from the original's; a board
edited behind its back is indexed afresh. The elk partitions remembered per shape equal
the search on the tokens themselves. An environment's running totals
(:class:`~cascadia.bots.agents.scores.RunningTotals`, which score a card again only
when its species' tokens change) equal the score sheet scored afresh after every step
of random games under every card and scoring variant."""

from __future__ import annotations

import random

from cascadia.bots.agents.scores import RunningTotals
from cascadia.domain.components import CARD_LETTERS, HABITAT_TILE_COUNT, HABITATS, VARIANT_CARDS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import ADJACENT, OPPOSITE, neighbours
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state
from cascadia.projections.habitats import (
    CorridorIndex,
    Frontier,
    corridor_labels,
    corridor_sizes,
    largest_corridors,
)
from cascadia.projections.wildlife.elk import ARC_SHAPES, BLOCK_SHAPES, LINE_SHAPES, RING_SUBSET_SHAPES
from cascadia.projections.wildlife.partition import _best_of_part, best_partition
from hypothesis import given, settings
from hypothesis import strategies as st
from test_variants_helpers import corridor_sizes_ref


@st.composite
def growing_boards(draw) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """A random compact board as the order its tiles were placed in."""
    board = Environment()
    placed = []
    for tile in draw(st.lists(st.integers(0, HABITAT_TILE_COUNT - 1), min_size=1, max_size=30, unique=True)):
        free = board.open_hexes() or [(0, 0)]
        h = free[draw(st.integers(0, len(free) - 1))]
        board.tiles[h] = (tile, draw(st.integers(0, 5)))
        placed.append((h, board.tiles[h]))
    return placed


def shown(board: Environment, h: tuple[int, int]) -> set[str]:
    """The habitats on the edges of the tile at ``h``."""
    return set(board.edges(h))


def check_against_scratch(board: Environment) -> None:
    tiles = board.tiles
    assert board.open_hexes() == sorted({n for h in tiles for n in neighbours(h) if n not in tiles})
    expected = corridor_sizes_ref(board.tiles)
    assert corridor_sizes(board) == expected
    assert corridor_sizes(Environment(dict(board.tiles))) == expected
    assert largest_corridors(board) == {h: max(expected[h], default=0) for h in HABITATS}
    labels, sizes = corridor_labels(board)
    for habitat in HABITATS:
        assert sorted(sizes[habitat], reverse=True) == expected[habitat]
        for h, label in labels[habitat].items():
            assert sum(1 for other in labels[habitat].values() if other == label) == sizes[habitat][label]
            assert habitat in shown(board, h)


@settings(max_examples=200, deadline=None)
@given(placed=growing_boards())
def test_corridors_kept_tile_by_tile_equal_the_whole_board_afresh(placed) -> None:
    board = Environment()
    for h, placement in placed:
        board.tiles[h] = placement
        check_against_scratch(board)


@settings(max_examples=50, deadline=None)
@given(placed=growing_boards(), turn=st.integers(0, 5), pick=st.integers(0, 10**6))
def test_a_board_edited_behind_the_index_is_indexed_afresh(placed, turn: int, pick: int) -> None:
    board = Environment()
    for h, placement in placed:
        board.tiles[h] = placement
    corridor_sizes(board)
    h, (tile, rotation) = placed[pick % len(placed)]
    board.tiles[h] = (tile, (rotation + turn) % 6)
    check_against_scratch(board)
    del board.tiles[h]
    check_against_scratch(board)


@settings(max_examples=50, deadline=None)
@given(placed=growing_boards(), cut=st.integers(0, 10**6))
def test_a_copy_grows_apart_from_its_original(placed, cut: int) -> None:
    board = Environment()
    cut %= len(placed)
    for h, placement in placed[:cut]:
        board.tiles[h] = placement
    corridor_sizes(board)
    grown = board.copy()
    for h, placement in placed[cut:]:
        grown.tiles[h] = placement
        check_against_scratch(grown)
    check_against_scratch(board)


@settings(max_examples=100, deadline=None)
@given(
    cells=st.sets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=9),
    table=st.sampled_from((LINE_SHAPES, BLOCK_SHAPES, ARC_SHAPES, RING_SUBSET_SHAPES)),
)
def test_small_parts_solved_once_per_shape_score_as_solved_afresh(cells, table) -> None:
    """``best_partition`` remembers the best total of small parts by their shape; read
    back (the second time) it is the search's answer for these very tokens."""
    expected = _best_of_part(cells, table)
    assert best_partition([cells], table) == expected
    assert best_partition([cells], table) == expected
    moved = {(q + 5, r - 2) for q, r in cells}
    assert best_partition([moved], table) == expected


@settings(max_examples=100, deadline=None)
@given(placed=growing_boards())
def test_corridor_numbers_name_the_corridors_as_they_grow(placed) -> None:
    """After each placement, ``corridor_of`` gives two tiles the same number exactly when
    ``corridor_labels`` puts them in the same corridor, and ``corridor_size`` of that
    number is the corridor's size."""
    board = Environment()
    for h, placement in placed:
        board.tiles[h] = placement
        index = CorridorIndex.of(board)
        labels, sizes = corridor_labels(board)
        for habitat in HABITATS:
            numbers = {h: index.corridor_of(habitat, h) for h in labels[habitat]}
            for a, label in labels[habitat].items():
                assert index.corridor_size(habitat, numbers[a]) == sizes[habitat][label]
                for b, other in labels[habitat].items():
                    assert (numbers[a] == numbers[b]) == (label == other)


def frontier_ref(board: Environment) -> dict[tuple[int, int], dict[str, tuple[int, tuple[int, ...]]]]:
    """Per open hex, from its neighbours as they stand: per habitat shown on a touching
    edge, those edges of the open hex and per edge the bit of the neighbour's number."""
    index = CorridorIndex.of(board)
    found = {}
    for h in board.open_hexes():
        near: dict[str, tuple[int, list[int]]] = {}
        for direction, n in enumerate(ADJACENT[h]):
            if n in board.tiles:
                habitat = board.edges(n)[OPPOSITE[direction]]
                edges, numbers = near.get(habitat, (0, [0] * 6))
                numbers[direction] = 1 << index.tile_number(n)
                near[habitat] = (edges | 1 << direction, numbers)
        found[h] = {habitat: (edges, tuple(numbers)) for habitat, (edges, numbers) in near.items()}
    return found


@settings(max_examples=100, deadline=None)
@given(placed=growing_boards(), split=st.integers(0, 30))
def test_frontier_kept_tile_by_tile_equals_the_neighbours_read_afresh(placed, split) -> None:
    """After each placement, the frontier of every open hex equals its neighbours read
    afresh; a copy taken part way keeps its own frontier while the original grows on, and
    a board edited behind its back is read afresh. ``corridors_of`` names the corridors
    of the tiles numbered in a mask."""
    board = Environment()
    copy = None
    for step, (h, placement) in enumerate(placed):
        board.tiles[h] = placement
        frontier = Frontier.of(board)
        expected = frontier_ref(board)
        assert frontier.edges == expected
        assert h not in frontier.edges
        if step == split:
            copy = board.copy()
            kept = dict(expected)
    if copy is not None:
        assert Frontier.of(copy).edges == kept
    index = CorridorIndex.of(board)
    for habitat in HABITATS:
        tiles = [h for h in board.tiles if habitat in shown(board, h)]
        mask = sum(1 << index.tile_number(h) for h in tiles[:3])
        corridors = {1 << index.corridor_of(habitat, h) for h in tiles[:3]}
        assert index.corridors_of(habitat, mask) == sum(corridors)
    first, (tile, rotation) = next(iter(board.tiles.items()))
    board.tiles[first] = (tile, (rotation + 1) % 6)  # edited behind its back
    assert Frontier.of(board).edges == frontier_ref(board)


@st.composite
def scoring_options(draw) -> GameOptions:
    """Options under every card (five letters drawn per species, or a variant card) and
    every scoring variant: salmon runs, elk rings, the majority bonus, the corridor
    restrictions (RULES.md 7.2-7.4), a second card set (7.6) and secret cards (7.10)."""
    variant = draw(st.sampled_from([None, *VARIANT_CARDS]))
    letters = draw(st.lists(st.sampled_from(CARD_LETTERS), min_size=len(WILDLIFE), max_size=len(WILDLIFE)))
    corridors = draw(st.sampled_from([None, "must_not_match", "corridors_of_three", "corridors_min_five"]))
    return GameOptions(
        cards=variant or ",".join(letters),
        salmon_runs=draw(st.sampled_from(["strict", "lenient"])),
        elk_rings=draw(st.sampled_from(["arc", "any-subset"])),
        majority_bonus=draw(st.booleans()),
        two_card_sets=variant is None and draw(st.booleans()),
        secret_cards=draw(st.booleans()),
        **({corridors: True} if corridors else {}),
    )


@settings(max_examples=40, deadline=None)
@given(options=scoring_options(), players=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_running_totals_equal_the_score_sheet_after_every_step(
    options: GameOptions, players: int, seed: int
) -> None:
    """After every decision of a random seeded game, the running totals of every seat, and
    those of a seat asked now and then (so that several of its tokens and tiles come in
    at once), equal the totals of the score sheet scored afresh."""
    rng = random.Random(seed)
    game = Game.start(seed, players, options)
    every, now_and_then = RunningTotals(players), RunningTotals(players)
    while True:
        sheet = [player.total for player in score_state(game.state).players]
        assert every.totals(game.state) == sheet
        if rng.random() < 0.2 or game.finished:
            seats = rng.sample(range(players), rng.randint(1, players))
            assert now_and_then.totals(game.state, seats) == [sheet[seat] for seat in seats]
        if game.finished:
            break
        game.execute(rng.choice(game.legal_commands()))
