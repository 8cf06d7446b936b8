"""Focused tests of the 21 wildlife cards (RULES.md 5.2-5.8) on hand-built token maps.

Hex neighbours of (q, r): (q+1, r-1) NE, (q+1, r) E, (q, r+1) SE, (q-1, r+1) SW,
(q-1, r) W, (q, r-1) NW. Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

import pytest
from cascadia.domain.components import WILDLIFE
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.wildlife import (
    CARDS,
    bear_a,
    bear_b,
    bear_c,
    bear_d,
    card_scorer,
    elk_a,
    elk_b,
    elk_c,
    elk_d,
    family,
    fox_a,
    fox_b,
    fox_c,
    fox_d,
    hawk_a,
    hawk_b,
    hawk_c,
    hawk_d,
    intermediate,
    salmon_a,
    salmon_b,
    salmon_c,
    salmon_d,
    score_card,
    score_wildlife,
)

LENIENT = GameOptions(salmon_runs="lenient")
STRICT = GameOptions(salmon_runs="strict")
ARC = GameOptions(elk_rings="arc")
ANY_SUBSET = GameOptions(elk_rings="any-subset")


def board(**species: list[Hex]) -> dict[Hex, str]:
    """A token map from lists of hexes per species; a hex may appear only once."""
    tokens: dict[Hex, str] = {}
    for name, hexes in species.items():
        for h in hexes:
            assert h not in tokens, f"{h} used twice"
            tokens[h] = name
    return tokens


def row(q: int, r: int, length: int) -> list[Hex]:
    """``length`` hexes going east from (q, r)."""
    return [(q + k, r) for k in range(length)]


def groups_of(*sizes: int) -> list[Hex]:
    """Straight groups of the given sizes, each on its own row, three rows apart."""
    return [h for i, size in enumerate(sizes) for h in row(0, 3 * i, size)]


# --- Bear (5.3) --------------------------------------------------------------------


@pytest.mark.parametrize(("pairs", "expected"), [(0, 0), (1, 4), (2, 11), (3, 19), (4, 27), (5, 27)])
def test_bear_a_counts_groups_of_exactly_two(pairs: int, expected: int) -> None:
    assert bear_a(board(bear=groups_of(*[2] * pairs))) == expected


def test_bear_unlisted_sizes_score_nothing_and_block_nothing() -> None:
    # groups 1, 2, 3, 4, 2: two pairs (11); the others are unlisted on card A
    tokens = board(bear=groups_of(1, 2, 3, 4, 2))
    assert bear_a(tokens) == 11
    # card B: only the group of 3
    assert bear_b(tokens) == 10
    # card D: 2 -> 5 twice, 3 -> 8, 4 -> 13; the single scores nothing
    assert bear_d(tokens) == 5 + 5 + 8 + 13


def test_bear_b_ten_per_group_of_three() -> None:
    assert bear_b(board(bear=groups_of(3, 3, 2, 5, 1))) == 20


def test_bear_c_sizes_and_bonus() -> None:
    # 1 -> 2, 2 -> 5, 3 -> 8, and +3 for having each of 1, 2, 3
    assert bear_c(board(bear=groups_of(1, 2, 3))) == 2 + 5 + 8 + 3
    # a group of 4 scores nothing and does not cancel the bonus
    assert bear_c(board(bear=groups_of(1, 2, 3, 4))) == 2 + 5 + 8 + 3
    # the bonus is once only
    assert bear_c(board(bear=groups_of(1, 2, 3, 1, 2, 3))) == 2 * (2 + 5 + 8) + 3
    # no group of 3: no bonus
    assert bear_c(board(bear=groups_of(1, 1, 2))) == 2 + 2 + 5


def test_bear_d_sizes_two_to_four() -> None:
    assert bear_d(board(bear=groups_of(1, 2, 3, 4, 5))) == 5 + 8 + 13


def test_bear_group_is_connected_not_straight() -> None:
    # a bent group of 3: (0,0)-(1,0) E, (1,0)-(1,1) SE; (0,0)-(1,1) not adjacent
    tokens = board(bear=[(0, 0), (1, 0), (1, 1)])
    assert bear_b(tokens) == 10
    assert bear_a(tokens) == 0


# --- Elk (5.4) ---------------------------------------------------------------------


def test_elk_a_straight_run_of_five_is_four_plus_one() -> None:
    assert elk_a(board(elk=row(0, 0, 5))) == 13 + 2


def test_elk_a_lines_along_every_axis() -> None:
    # SE axis: (0,0),(0,1),(0,2); NE-SW axis: (5,0),(4,1),(3,2),(2,3)
    assert elk_a(board(elk=[(0, 0), (0, 1), (0, 2)])) == 9
    assert elk_a(board(elk=[(5, 0), (4, 1), (3, 2), (2, 3)])) == 13


def test_elk_a_bent_shape_and_triangle_are_not_lines() -> None:
    # bent: (0,0)-(1,0) on the E axis, (1,0)-(1,1) on the SE axis: pair + single
    assert elk_a(board(elk=[(0, 0), (1, 0), (1, 1)])) == 5 + 2
    # triangle (0,0),(1,0),(0,1): any two are a line, never three
    assert elk_a(board(elk=[(0, 0), (1, 0), (0, 1)])) == 5 + 2


def test_elk_a_lines_of_two_and_three() -> None:
    assert elk_a(board(elk=[*row(0, 0, 2), *row(0, 3, 3)])) == 5 + 9


def test_elk_a_crossing_lines_choose_best() -> None:
    # row (0,0)..(3,0) crossed by (1,-1) on the SE axis through (1,0).
    # Row of 4 + single = 15; column (1,-1),(1,0) + singles/pairs of the row: at most
    # 5 + 2 + 5 = 12; (1,-1),(0,0) NE-SW pair + (1,0),(2,0),(3,0) = 5 + 9 = 14.
    assert elk_a(board(elk=[*row(0, 0, 4), (1, -1)])) == 15


def test_elk_b_shapes() -> None:
    assert elk_b(board(elk=[(0, 0)])) == 2
    assert elk_b(board(elk=[(0, 0), (0, 1)])) == 5
    assert elk_b(board(elk=[(0, 0), (1, 0), (0, 1)])) == 9
    # the rhombus of the card: (0,0),(1,0),(0,1),(1,1)
    assert elk_b(board(elk=[(0, 0), (1, 0), (0, 1), (1, 1)])) == 13
    # a straight line of 4 is no shape: two pairs
    assert elk_b(board(elk=row(0, 0, 4))) == 10


def test_elk_b_rhombus_choices() -> None:
    # rhombus + an elk at (2,0) touching (1,0) and (1,1): rhombus 13 + single 2 = 15,
    # better than triangle (1,0),(2,0),(1,1) 9 + pair (0,0),(0,1) 5 = 14
    assert elk_b(board(elk=[(0, 0), (1, 0), (0, 1), (1, 1), (2, 0)])) == 15
    # a flower (centre + its 6 neighbours): every triangle holds the centre, so at most
    # one rhombus (13, centre + three consecutive petals) and the other three petals, a
    # bent path, give a pair and a single: 13 + 5 + 2 = 20 (two triangles: 9 + 5 + 5).
    flower = [(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert elk_b(board(elk=flower)) == 20


@pytest.mark.parametrize(
    ("size", "expected"),
    [(1, 2), (2, 4), (3, 7), (4, 10), (5, 14), (6, 18), (7, 23), (8, 28), (9, 30), (10, 32)],
)
def test_elk_c_by_group_size_with_split_ruling(size: int, expected: int) -> None:
    # a compact group: rows of 4 stacked (0..3, r); 9 = 8 + 1, 10 = 8 + 2 (the ruling)
    cells = [(k % 4, k // 4) for k in range(size)]
    assert elk_c(board(elk=cells)) == expected


def test_elk_c_large_groups_split_into_connected_formations() -> None:
    # a line of 11: 8 + 3 = 28 + 7; a line of 16: 8 + 8; a line of 20: 8 + 8 + 4
    assert elk_c(board(elk=row(0, 0, 11))) == 35
    assert elk_c(board(elk=row(0, 0, 16))) == 56
    assert elk_c(board(elk=row(0, 0, 20))) == 28 + 28 + 10


def test_elk_c_split_must_be_connected() -> None:
    # A star: centre (0,0) and three arms of 4 going E, SW and NW (directions 1, 3, 5,
    # whose first hexes are pairwise not adjacent): 13 elk, 4 + 4 + 4 + 1.
    # Without shapes 13 = 8 + 5 would score 42. A connected piece of 8 holds the centre
    # (an arm has only 4) and leaves pieces of the arms' tips; for 8 + 5 the other 5
    # would have to be connected, impossible (tips of different arms never touch).
    # Best: centre + one full arm + 3 of another (8), leaving a tip of 1 and an arm of 4:
    # 28 + 2 + 10 = 40; or 8 + 4 + 1 in any arrangement = 40; 7 + 4 + ... is lower.
    arms = [(k, 0) for k in range(1, 5)] + [(-k, k) for k in range(1, 5)] + [(0, -k) for k in range(1, 5)]
    assert elk_c(board(elk=[(0, 0), *arms])) == 40


def test_elk_d_rings_arc_and_gaps() -> None:
    # around centre (0,0): r0 (1,-1), r1 (1,0), r2 (0,1), r3 (-1,1), r4 (-1,0), r5 (0,-1)
    ring = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert elk_d(board(elk=ring), ARC) == 21
    assert elk_d(board(elk=ring[:5]), ARC) == 16
    assert elk_d(board(elk=ring[:3]), ARC) == 8
    # the centre may hold an elk (it is scored apart): 21 + 2
    assert elk_d(board(elk=[*ring, (0, 0)]), ARC) == 23


def test_elk_d_gap_under_both_options() -> None:
    ring = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    # r0 and r2 with r1 and the centre empty: not adjacent; around (0,0) and around (1,0)
    # (their only common neighbours) there is a gap between them
    gap = board(elk=[ring[0], ring[2]])
    assert elk_d(gap, ARC) == 2 + 2
    assert elk_d(gap, ANY_SUBSET) == 5
    # r0, r1, r3, r4: arcs r0-r1 and r3-r4 (10) or, with gaps allowed, one set of 4 (12)
    two_gaps = board(elk=[ring[0], ring[1], ring[3], ring[4]])
    assert elk_d(two_gaps, ARC) == 5 + 5
    assert elk_d(two_gaps, ANY_SUBSET) == 12
    # a straight line of 3 is not on any ring: pair + single
    assert elk_d(board(elk=row(0, 0, 3)), ARC) == 5 + 2
    assert elk_d(board(elk=row(0, 0, 3)), ANY_SUBSET) == 5 + 2


def test_elk_d_default_option_is_arc() -> None:
    assert elk_d(board(elk=[(1, -1), (0, 1)])) == 4


# --- Salmon (5.5) ------------------------------------------------------------------


def test_salmon_a_run_sizes() -> None:
    assert salmon_a(board(salmon=groups_of(1, 2, 3, 4))) == 2 + 5 + 8 + 12
    assert salmon_a(board(salmon=groups_of(5, 6, 7, 9))) == 16 + 20 + 25 + 25


def test_salmon_b_run_sizes() -> None:
    assert salmon_b(board(salmon=groups_of(1, 2, 3, 4))) == 2 + 4 + 9 + 11
    assert salmon_b(board(salmon=groups_of(5, 8))) == 17 + 17


def test_salmon_c_only_runs_of_three_or_more() -> None:
    assert salmon_c(board(salmon=groups_of(1, 2))) == 0
    assert salmon_c(board(salmon=groups_of(3, 4, 5, 7))) == 10 + 12 + 15 + 15


def test_salmon_triangle_is_a_run() -> None:
    triangle = board(salmon=[(0, 0), (1, 0), (0, 1)])
    for options in (STRICT, LENIENT):
        assert salmon_a(triangle, options) == 8
        assert salmon_b(triangle, options) == 9
        assert salmon_c(triangle, options) == 10
        assert salmon_d(triangle, options) == 3


def test_salmon_with_three_salmon_neighbours() -> None:
    # centre (0,0) touches (1,0), (-1,1), (0,-1), which touch no other salmon; and an
    # unrelated run of 2 far away
    tokens = board(salmon=[(0, 0), (1, 0), (-1, 1), (0, -1), (10, 0), (11, 0)])
    # strict: the group of 4 is not a run and scores nothing; the pair scores 5
    assert salmon_a(tokens, STRICT) == 5
    # lenient: drop the centre, the three others are runs of 1
    assert salmon_a(tokens, LENIENT) == 5 + 3 * 2
    assert salmon_b(tokens, LENIENT) == 4 + 3 * 2


def test_salmon_lenient_rhombus() -> None:
    # rhombus: (1,0) and (0,1) touch three salmon each; dropping them leaves (0,0) and
    # (1,1), not adjacent: two runs of 1
    rhombus = board(salmon=[(0, 0), (1, 0), (0, 1), (1, 1)])
    assert salmon_a(rhombus, STRICT) == 0
    assert salmon_a(rhombus, LENIENT) == 4


def test_salmon_default_option_is_strict() -> None:
    assert salmon_a(board(salmon=[(0, 0), (1, 0), (-1, 1), (0, -1)])) == 0


def test_salmon_d_minimum_run_and_distinct_neighbours() -> None:
    # run (0,0),(1,0),(2,0); the bear at (1,-1) touches (0,0) and (1,0): counted once;
    # the fox at (3,0) touches (2,0); the elk at (5,5) touches nothing
    tokens = board(salmon=row(0, 0, 3), bear=[(1, -1)], fox=[(3, 0)], elk=[(5, 5)])
    assert salmon_d(tokens) == 3 + 2
    # two bears are two tokens, even of one species
    assert salmon_d(board(salmon=row(0, 0, 3), bear=[(1, -1), (0, 1)])) == 3 + 2
    # a run of 2 scores nothing, whatever touches it
    assert salmon_d(board(salmon=row(0, 0, 2), bear=[(1, -1)], fox=[(2, 0)])) == 0


def test_salmon_d_lenient_drops_crowded_salmon() -> None:
    # a line of 4 (0..3, 0) with a salmon at (1,1) touching (1,0) and (2,0): (1,0) and
    # (2,0) each touch three salmon. Strict: nothing. Lenient: pieces (0,0), (3,0),
    # (1,1): all runs of 1, below Salmon D's minimum of 3.
    tokens = board(salmon=[*row(0, 0, 4), (1, 1)], bear=[(0, -1)])
    assert salmon_d(tokens, STRICT) == 0
    assert salmon_d(tokens, LENIENT) == 0
    assert salmon_a(tokens, LENIENT) == 3 * 2


# --- Hawk (5.6) --------------------------------------------------------------------


@pytest.mark.parametrize(("lone", "expected"), [(0, 0), (1, 2), (4, 11), (7, 22), (8, 26), (9, 26)])
def test_hawk_a_lone_hawks(lone: int, expected: int) -> None:
    # hawks two apart on one row: none adjacent
    assert hawk_a(board(hawk=[(2 * k, 0) for k in range(lone)])) == expected


def test_hawk_a_adjacent_hawks_do_not_count() -> None:
    assert hawk_a(board(hawk=[(0, 0), (1, 0), (5, 5)])) == 2


def test_line_of_sight_through_gaps_and_other_wildlife() -> None:
    # (0,0) and (3,0): an elk at (1,0), nothing at (2,0)
    tokens = board(hawk=[(0, 0), (3, 0)], elk=[(1, 0)])
    assert hawk_c(tokens) == 3
    assert hawk_b(tokens) == 5
    # on the other two axes as well: (0,0)-(0,4) and (0,0)-(-3,3)
    assert hawk_c(board(hawk=[(0, 0), (0, 4)])) == 3
    assert hawk_c(board(hawk=[(0, 0), (-3, 3)])) == 3
    # not on an axis: no line of sight
    assert hawk_c(board(hawk=[(0, 0), (2, 1)])) == 0


def test_line_of_sight_is_blocked_by_a_hawk() -> None:
    # (0,0)-(2,0) and (2,0)-(4,0) see each other; (0,0)-(4,0) is blocked
    tokens = board(hawk=[(0, 0), (2, 0), (4, 0)])
    assert hawk_c(tokens) == 6
    assert hawk_b(tokens) == 9


def test_adjacent_hawks_have_no_line_of_sight() -> None:
    tokens = board(hawk=[(0, 0), (1, 0)])
    assert hawk_c(tokens) == 0
    assert hawk_b(tokens) == 0
    assert hawk_d(board(hawk=[(0, 0), (1, 0)], elk=[(5, 5)])) == 0


def test_hawk_b_one_qualifying_hawk_scores_nothing() -> None:
    # X (0,0) is alone and sees Y (2,0); Y touches Z (2,1), so only X qualifies
    tokens = board(hawk=[(0, 0), (2, 0), (2, 1)])
    assert hawk_b(tokens) == 0
    assert hawk_a(tokens) == 2
    assert hawk_c(tokens) == 3


def test_hawk_b_counts_only_lone_hawks_with_a_line_of_sight() -> None:
    # (0,0)-(3,0) see each other; (10,10) is alone but sees nobody
    assert hawk_b(board(hawk=[(0, 0), (3, 0), (10, 10)])) == 5


def test_hawk_c_a_hawk_in_several_lines() -> None:
    # (0,0) sees (3,0) (row r=0), (0,3) (column q=0) and (-3,3) (q+r=0); also
    # (0,3)-(-3,3) (row r=3) and (3,0)-(0,3) (q+r=3): 5 lines of sight
    assert hawk_c(board(hawk=[(0, 0), (3, 0), (0, 3), (-3, 3)])) == 5 * 3


def test_hawk_d_pair_values() -> None:
    # one pair, species strictly between: 0 -> 0, 1 -> 4, 2 -> 7, 3+ -> 9
    assert hawk_d(board(hawk=[(0, 0), (5, 0)])) == 0
    assert hawk_d(board(hawk=[(0, 0), (5, 0)], elk=[(1, 0), (2, 0)])) == 4
    assert hawk_d(board(hawk=[(0, 0), (5, 0)], elk=[(1, 0)], bear=[(3, 0)])) == 7
    assert (
        hawk_d(board(hawk=[(0, 0), (5, 0)], elk=[(1, 0)], bear=[(2, 0)], fox=[(3, 0)], salmon=[(4, 0)])) == 9
    )
    # tokens beside the line are not between
    assert hawk_d(board(hawk=[(0, 0), (3, 0)], elk=[(1, 1), (2, -1)])) == 0


def test_hawk_d_pairing_maximum() -> None:
    # H1 (0,0), H2 (3,0), H3 (6,0) on one row; H4 (0,3) below H1.
    # H1-H2: elk, bear between -> 7.  H2-H3: fox -> 4.  H1-H4: salmon, salmon -> 4.
    # H2-H4 (both on q + r = 3): nothing between -> 0.  H1-H3: blocked by H2.
    # Best: H1-H4 + H2-H3 = 8, not the greedy H1-H2 = 7.
    tokens = board(
        hawk=[(0, 0), (3, 0), (6, 0), (0, 3)],
        elk=[(1, 0)],
        bear=[(2, 0)],
        fox=[(4, 0)],
        salmon=[(0, 1), (0, 2)],
    )
    assert hawk_d(tokens) == 8


# --- Fox (5.7) ---------------------------------------------------------------------


def test_fox_a_distinct_species_including_foxes() -> None:
    # F1 (0,0): bear (1,-1), bear (1,0), elk (0,1), fox F2 (-1,1), salmon (-1,0) -> 4
    # F2 (-1,1): F1 (0,0), elk (0,1), salmon (-1,0) -> 3
    tokens = board(fox=[(0, 0), (-1, 1)], bear=[(1, -1), (1, 0)], elk=[(0, 1)], salmon=[(-1, 0)])
    assert fox_a(tokens) == 4 + 3
    assert fox_a(board(fox=[(0, 0)])) == 0


def test_fox_b_species_with_two_adjacent_tokens() -> None:
    # 2 bears, 2 elk, 1 salmon, 1 hawk around: 2 species -> 5
    two = board(fox=[(0, 0)], bear=[(1, -1), (1, 0)], elk=[(0, 1), (-1, 1)], salmon=[(-1, 0)], hawk=[(0, -1)])
    assert fox_b(two) == 5
    # 2 bears, 2 elk, 2 salmon: 3 -> 7
    three = board(fox=[(0, 0)], bear=[(1, -1), (1, 0)], elk=[(0, 1), (-1, 1)], salmon=[(-1, 0), (0, -1)])
    assert fox_b(three) == 7
    # foxes do not count: 2 foxes around the first fox, 1 bear -> 0; the neighbour
    # foxes each see one fox and nothing else twice -> 0
    assert fox_b(board(fox=[(0, 0), (1, 0), (-1, 0)], bear=[(0, 1)])) == 0
    # one species -> 3
    assert fox_b(board(fox=[(0, 0)], hawk=[(1, 0), (-1, 0), (0, 1)])) == 3


def test_fox_c_most_common_non_fox_species() -> None:
    # 3 elk, 2 bears, 1 fox around F1 (0,0) -> 3; F2 (0,-1) touches (1,-2), (1,-1),
    # (0,0), (-1,0), (-1,-1), (0,-2): one elk (1,-1), one bear (-1,0), F1 -> 1
    tokens = board(fox=[(0, 0), (0, -1)], elk=[(1, -1), (1, 0), (0, 1)], bear=[(-1, 1), (-1, 0)])
    assert fox_c(tokens) == 3 + 1
    # only foxes around -> 0
    assert fox_c(board(fox=[(0, 0), (1, 0)])) == 0
    # six of one species -> 6
    ring = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert fox_c(board(fox=[(0, 0)], salmon=ring)) == 6


def test_fox_d_pair_inside_a_group_of_three() -> None:
    # F1 (0,0), F2 (1,0), F3 (2,0). Only one of F1-F2, F2-F3 can be chosen.
    # Around F1-F2: (1,-1) (0,1) (-1,1) (-1,0) (0,-1) (2,-1) (2,0)=F3 (1,1):
    #   bears (-1,0), (0,-1); one hawk (1,1) -> 1 species -> 5
    # Around F2-F3: (2,-1) (1,1) (0,1) (0,0)=F1 (1,-1) (3,-1) (3,0) (2,1):
    #   elk (3,-1), (3,0); hawks (1,1), (2,1) -> 2 species -> 7
    tokens = board(
        fox=[(0, 0), (1, 0), (2, 0)],
        bear=[(-1, 0), (0, -1)],
        hawk=[(1, 1), (2, 1)],
        elk=[(3, -1), (3, 0)],
    )
    assert fox_d(tokens) == 7


def test_fox_d_disjoint_pairs_and_values() -> None:
    # a lone fox or a pair with nothing around scores nothing
    assert fox_d(board(fox=[(0, 0)], bear=[(1, 0), (-1, 0)])) == 0
    assert fox_d(board(fox=[(0, 0), (1, 0)])) == 0
    # pair (0,0)-(1,0) with 2 each of bear, elk, salmon, hawk around it -> 11
    around = [(1, -1), (0, 1), (-1, 1), (-1, 0), (0, -1), (2, -1), (2, 0), (1, 1)]
    full = board(
        fox=[(0, 0), (1, 0)],
        bear=around[0:2],
        elk=around[2:4],
        salmon=around[4:6],
        hawk=around[6:8],
    )
    assert fox_d(full) == 11
    # two separate pairs both score: 5 + 5
    two_pairs = board(fox=[(0, 0), (1, 0), (10, 0), (11, 0)], bear=[(0, 1), (-1, 0), (10, 1), (9, 0)])
    assert fox_d(two_pairs) == 10


# --- Variant cards (5.8) -----------------------------------------------------------


def test_family_card() -> None:
    assert family(board(bear=groups_of(1, 2, 3, 4)), "bear") == 2 + 5 + 9 + 9
    assert family(board(elk=groups_of(2)), "bear") == 0


def test_intermediate_card() -> None:
    assert intermediate(board(fox=groups_of(1, 2, 3, 4, 5)), "fox") == 0 + 5 + 8 + 12 + 12


def test_variant_card_scores_every_species_in_score_wildlife() -> None:
    tokens = board(bear=groups_of(1), elk=[(0, 10), (1, 10)], salmon=row(0, 13, 3), hawk=row(0, 16, 4))
    assert score_wildlife(tokens, dict.fromkeys(WILDLIFE, "family"), STRICT) == {
        "bear": 2,
        "elk": 5,
        "salmon": 9,
        "hawk": 9,
        "fox": 0,
    }
    assert score_wildlife(tokens, dict.fromkeys(WILDLIFE, "intermediate"), STRICT) == {
        "bear": 0,
        "elk": 5,
        "salmon": 8,
        "hawk": 12,
        "fox": 0,
    }


# --- Registry ----------------------------------------------------------------------


def test_registry_has_every_card_for_every_species() -> None:
    cards = {"A", "B", "C", "D", "family", "intermediate"}
    assert set(CARDS) == {(species, card) for species in WILDLIFE for card in cards}


def test_registry_dispatches_to_the_right_card() -> None:
    # a line of 5 elk scores differently under each card: A 15, B 12, C 14, D 12
    tokens = board(elk=row(0, 0, 5))
    assert [score_card(tokens, "elk", card) for card in "ABCD"] == [15, 12, 14, 12]
    assert score_card(tokens, "elk", "b") == 12
    assert card_scorer("elk", "Family")(tokens, STRICT) == 9
    # options reach the cards that use them
    gap = board(elk=[(1, -1), (0, 1)], salmon=[(0, 5), (1, 5), (-1, 6), (0, 4)])
    assert score_card(gap, "elk", "D", ANY_SUBSET) == 5
    assert score_card(gap, "salmon", "A", LENIENT) == 6


def test_score_wildlife_uses_one_card_per_species() -> None:
    tokens = board(bear=groups_of(2, 2), elk=row(0, 10, 5), hawk=[(0, 13), (3, 13)])
    cards = {"bear": "A", "elk": "C", "salmon": "B", "hawk": "C", "fox": "D"}
    assert score_wildlife(tokens, cards, STRICT) == {"bear": 11, "elk": 14, "salmon": 0, "hawk": 3, "fox": 0}


def test_bad_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="card"):
        score_card({}, "elk", "E")
    with pytest.raises(ValueError, match="fox"):
        score_wildlife({}, {"bear": "A", "elk": "A", "salmon": "A", "hawk": "A"}, STRICT)
    with pytest.raises(ValueError, match="unknown wildlife"):
        score_card({(0, 0): "moose"}, "elk", "A")
