"""Scoring under the variants: the habitat restrictions of RULES.md 7.2-7.4, two card
sets (7.6), secret cards (7.10, scoring unchanged), the Family and Intermediate cards
and ``majority_bonus`` off (5.8), and the solo rating (6).

Boards are built from keystone tiles (all six edges one habitat), so that a straight
run of same-habitat keystones is one corridor: rows ``r = 0, 2, 4 ...`` never touch.
Expected points are worked out by hand from RULES.md, or (in whole games) by the
flood fills of ``test_variants_helpers``.
"""

from __future__ import annotations

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import BELOW_RATINGS, build_sheet, score_game
from test_variants_helpers import (
    ALL_A,
    NO_WILDLIFE,
    corridor_sizes_ref,
    corridors,
    family_points,
    groups,
    intermediate_points,
    per_habitat,
    stage,
)

KEYSTONE = {"mountain": 0, "forest": 5, "prairie": 10, "wetland": 15, "river": 20}


def board(*runs: tuple[str, int, int], wildlife: dict[Hex, str] | None = None) -> Environment:
    """Keystone runs ``(habitat, row r, length)`` from ``q = 0`` eastwards."""
    tiles = {}
    for habitat, r, length in runs:
        for q in range(length):
            tiles[(q, r)] = (KEYSTONE[habitat], 0)
    return Environment(tiles=tiles, wildlife=dict(wildlife or {}))


def habitat_lines(sheet) -> list[tuple[dict, dict]]:
    return [(dict(p.habitat_points), dict(p.habitat_bonuses)) for p in sheet.players]


# seat 0: mountain corridors of 3, 3 and 4, forest 3; seat 1: mountain 5, forest 2
SEAT0 = board(("mountain", 0, 3), ("mountain", 2, 3), ("mountain", 4, 4), ("forest", 6, 3))
SEAT1 = board(("mountain", 0, 5), ("forest", 2, 2))


def test_the_boards_are_what_they_say():
    assert corridor_sizes_ref(SEAT0.tiles)["mountain"] == [4, 3, 3]
    assert corridor_sizes_ref(SEAT1.tiles)["mountain"] == [5]
    standard = score_game([SEAT0, SEAT1], [0, 0], ALL_A, GameOptions())
    # largest corridors score; 2 players: the larger gets 2 (mountain seat 1, forest seat 0)
    assert habitat_lines(standard) == [
        (per_habitat(mountain=4, forest=3), per_habitat(forest=2)),
        (per_habitat(mountain=5, forest=2), per_habitat(mountain=2)),
    ]


def test_corridors_of_three_three_points_per_corridor_of_exactly_three():
    sheet = score_game([SEAT0, SEAT1], [0, 0], ALL_A, GameOptions(corridors_of_three=True))
    assert habitat_lines(sheet) == [
        (per_habitat(mountain=6, forest=3), per_habitat(forest=2)),  # majorities unchanged
        (per_habitat(), per_habitat(mountain=2)),
    ]
    assert [p.total for p in sheet.players] == [11, 2]
    assert dict(sheet.players[0].corridors) == per_habitat(mountain=4, forest=3)


def test_corridors_min_five_a_largest_corridor_below_five_scores_nothing():
    sheet = score_game([SEAT0, SEAT1], [0, 0], ALL_A, GameOptions(corridors_min_five=True))
    assert habitat_lines(sheet) == [
        (per_habitat(), per_habitat(forest=2)),  # 4 scores 0; majorities unchanged
        (per_habitat(mountain=5), per_habitat(mountain=2)),  # 5 scores 5
    ]


@pytest.mark.parametrize(("largest", "points"), [(4, 0), (5, 5), (6, 6), (1, 0)])
def test_corridors_min_five_boundary(largest, points):
    sheet = score_game([board(("river", 0, largest))], [0], ALL_A, GameOptions(corridors_min_five=True))
    assert sheet.players[0].habitat_points["river"] == points


def test_must_not_match_scores_no_corridor_and_no_majority():
    wildlife = {(0, 0): "bear", (1, 0): "bear"}  # a bear pair: Bear A 4
    seat0 = board(
        ("mountain", 0, 3), ("mountain", 2, 3), ("mountain", 4, 4), ("forest", 6, 3), wildlife=wildlife
    )
    sheet = score_game([seat0, SEAT1], [2, 0], ALL_A, GameOptions(must_not_match=True))
    assert habitat_lines(sheet) == [(per_habitat(), per_habitat())] * 2
    assert [p.total for p in sheet.players] == [4 + 2, 0]
    # the corridors are still reported, only not scored
    assert dict(sheet.players[1].corridors) == per_habitat(mountain=5, forest=2)


def test_must_not_match_solo_has_no_solo_bonus():
    solo = board(("wetland", 0, 7))
    assert score_game([solo], [0], ALL_A, GameOptions()).players[0].habitat_bonuses["wetland"] == 2
    sheet = score_game([solo], [0], ALL_A, GameOptions(must_not_match=True))
    assert sheet.players[0].total == 0


def test_restrictions_keep_the_solo_bonus_rule():
    solo = board(("wetland", 0, 7), ("river", 2, 3))
    sheet = score_game([solo], [0], ALL_A, GameOptions(corridors_of_three=True))
    assert dict(sheet.players[0].habitat_points) == per_habitat(river=3)
    assert dict(sheet.players[0].habitat_bonuses) == per_habitat(wetland=2)
    sheet = score_game([solo], [0], ALL_A, GameOptions(corridors_min_five=True))
    assert dict(sheet.players[0].habitat_points) == per_habitat(wetland=7)
    assert sheet.players[0].total == 9


def test_four_player_majorities_are_the_same_under_the_corridor_options():
    boards = [board(("prairie", 0, n)) for n in (7, 5, 5, 2)]
    expected = [3, 0, 0, 0]  # RULES.md 5.1: sizes 7, 5, 5, 2 give 3, 0, 0, 0
    for options in (
        GameOptions(),
        GameOptions(corridors_of_three=True),
        GameOptions(corridors_min_five=True),
    ):
        sheet = score_game(boards, [0] * 4, ALL_A, options)
        assert [p.habitat_bonuses["prairie"] for p in sheet.players] == expected
    sheet = score_game(boards, [0] * 4, ALL_A, GameOptions(corridors_min_five=True))
    assert [p.habitat_points["prairie"] for p in sheet.players] == [7, 5, 5, 0]


# -- whole games: every habitat point checked by an independent corridor search -----------


def expected_habitat_points(sizes: list[int], options: GameOptions) -> int:
    if options.must_not_match:
        return 0
    if options.corridors_of_three:
        return 3 * sizes.count(3)
    largest = max(sizes, default=0)
    return 0 if options.corridors_min_five and largest < 5 else largest


@pytest.mark.parametrize("name", ["corridors_of_three", "corridors_min_five", "must_not_match"])
@pytest.mark.parametrize("players", [1, 3])
def test_whole_games_score_habitats_under_the_option(name, players):
    options = GameOptions(**{name: True})
    game = play_game(4, ["greedy"] * players, options)
    sheet = score_state(game.state)
    standard = score_game(
        [p.environment for p in game.state.players],
        [p.nature_tokens for p in game.state.players],
        game.state.cards,
        GameOptions(),
    )
    for player, line, plain in zip(game.state.players, sheet.players, standard.players, strict=True):
        sizes = corridor_sizes_ref(player.environment.tiles)
        assert dict(line.habitat_points) == {h: expected_habitat_points(sizes[h], options) for h in HABITATS}
        assert dict(line.wildlife) == dict(plain.wildlife)
        if name == "must_not_match":
            assert line.bonus_total == 0
        else:
            assert dict(line.habitat_bonuses) == dict(plain.habitat_bonuses)
        assert line.total == line.wildlife_total + line.habitat_total + line.bonus_total + line.nature_tokens
    if name != "must_not_match":
        assert any(line.habitat_total for line in sheet.players)  # some corridor did score
    assert any(line.habitat_total for line in standard.players)


# -- two card sets (RULES.md 7.6) --------------------------------------------------------------

BEAR_PAIRS = {(0, 0): "bear", (1, 0): "bear", (0, 2): "bear", (1, 2): "bear"}  # A: 11, B: 0
BEAR_TRIPLE = {(0, 0): "bear", (1, 0): "bear", (2, 0): "bear"}  # A: 0, B: 10
# a bear pair (A 4, B 0) and three lone hawks in a row, each seeing the next
# (Hawk A: 3 isolated -> 8; Hawk B: 3 isolated with a line of sight -> 9):
# set 1 totals 12, set 2 totals 9; the mixture 4 + 9 = 13 is not a set
MIXED = {(0, 5): "bear", (1, 5): "bear", (0, 0): "hawk", (2, 0): "hawk", (4, 0): "hawk"}
SECOND_B = dict.fromkeys(WILDLIFE, "B")


def wildlife_board(tokens: dict[Hex, str]) -> Environment:
    return Environment(tiles={}, wildlife=dict(tokens))


def test_two_card_sets_each_player_under_the_better_set():
    boards = [wildlife_board(t) for t in (BEAR_PAIRS, BEAR_TRIPLE, MIXED)]
    sheet = score_game(boards, [0, 0, 0], ALL_A, GameOptions(two_card_sets=True), second_cards=SECOND_B)
    assert [p.card_set for p in sheet.players] == [0, 1, 0]
    assert [p.wildlife["bear"] for p in sheet.players] == [11, 10, 4]
    assert [p.wildlife["hawk"] for p in sheet.players] == [0, 0, 8]
    assert [p.wildlife_total for p in sheet.players] == [11, 10, 12]
    assert dict(sheet.second_cards) == SECOND_B
    assert sheet.to_dict()["players"][1]["card_set"] == 1


def test_two_card_sets_a_tie_keeps_the_first_set():
    # a bear pair and a lone elk: first set Bear D 5 + Elk D (a ring arc of 1) 2 = 7;
    # second set Bear C 5 (no bonus: no group of 1 or 3) + Elk A (a line of 1) 2 = 7
    tokens = {(0, 0): "bear", (1, 0): "bear", (5, 5): "elk"}
    first = {**ALL_A, "bear": "D", "elk": "D"}
    second = {**SECOND_B, "bear": "C", "elk": "A"}
    sheet = score_game(
        [wildlife_board(tokens)], [0], first, GameOptions(two_card_sets=True), second_cards=second
    )
    assert sheet.players[0].wildlife_total == 7
    assert sheet.players[0].card_set == 0


def test_second_set_is_ignored_without_the_option():
    boards = [wildlife_board(BEAR_TRIPLE)]
    sheet = score_game(boards, [0], ALL_A, GameOptions(), second_cards=SECOND_B)
    assert sheet.players[0].card_set == 0 and sheet.players[0].wildlife["bear"] == 0
    assert sheet.second_cards is None


def test_score_state_uses_the_games_second_set():
    market = [(25, "bear"), (26, "fox"), (34, "hawk"), (17, "elk")]
    game = stage(market, GameOptions(cards="all-a", two_card_sets=True), second_cards=SECOND_B, players=2)
    game.state.players[0].environment.wildlife.update(BEAR_PAIRS)
    game.state.players[1].environment.wildlife.update(BEAR_TRIPLE)
    sheet = score_state(game.state)
    assert [p.card_set for p in sheet.players] == [0, 1]
    assert [p.wildlife["bear"] for p in sheet.players] == [11, 10]


def test_two_card_sets_whole_game_takes_the_better_set_per_player():
    game = play_game(12, ["random"] * 4, GameOptions(two_card_sets=True))
    state = game.state
    sheet = score_state(state)
    one = score_game([p.environment for p in state.players], [0] * 4, state.cards, GameOptions())
    two = score_game([p.environment for p in state.players], [0] * 4, state.second_cards, GameOptions())
    for line, a, b in zip(sheet.players, one.players, two.players, strict=True):
        assert line.wildlife_total == max(a.wildlife_total, b.wildlife_total)
        assert line.card_set == (1 if b.wildlife_total > a.wildlife_total else 0)
        assert dict(line.wildlife) == dict((b if line.card_set else a).wildlife)


# -- secret cards (RULES.md 7.10): scoring unchanged --------------------------------------------


def test_secret_cards_do_not_change_scoring():
    game = play_game(2, ["random"] * 3, GameOptions(secret_cards=True))
    state = game.state
    sheet = score_state(state)
    plain = score_game(
        [p.environment for p in state.players],
        [p.nature_tokens for p in state.players],
        state.cards,
        GameOptions(),
    )
    assert [p.to_dict() for p in sheet.players] == [p.to_dict() for p in plain.players]


# -- Family and Intermediate (RULES.md 5.8) ----------------------------------------------------


def test_family_and_intermediate_score_every_species_by_group_size():
    # bear groups of 1, 1, 2 and 5; a lone elk; a salmon group of 3; hawks 4 in a line; no fox
    tokens = {
        (0, 0): "bear",
        (3, 0): "bear",
        (6, 0): "bear",
        (7, 0): "bear",
        **{(q, 2): "bear" for q in range(5)},
        (0, 4): "elk",
        **{(q, 6): "salmon" for q in range(3)},
        **{(q, 8): "hawk" for q in range(4)},
    }
    environment = wildlife_board(tokens)
    family = score_game([environment], [0], dict.fromkeys(WILDLIFE, "family"), GameOptions(cards="family"))
    assert dict(family.players[0].wildlife) == {
        "bear": 2 + 2 + 5 + 9,
        "elk": 2,
        "salmon": 9,
        "hawk": 9,
        "fox": 0,
    }
    inter = dict.fromkeys(WILDLIFE, "intermediate")
    intermediate = score_game([environment], [0], inter, GameOptions(cards="intermediate"))
    assert dict(intermediate.players[0].wildlife) == {
        "bear": 0 + 0 + 5 + 12,
        "elk": 0,
        "salmon": 8,
        "hawk": 12,
        "fox": 0,
    }


@pytest.mark.parametrize("card", ["family", "intermediate"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_variant_card_games_end_to_end(card, players):
    game = play_game(21, ["random"] * players, GameOptions(cards=card))
    state = game.state
    assert state.finished
    assert state.cards == dict.fromkeys(WILDLIFE, card)
    sheet = score_state(state)
    assert dict(sheet.cards) == dict.fromkeys(WILDLIFE, card)
    points = family_points if card == "family" else intermediate_points
    for player, line in zip(state.players, sheet.players, strict=True):
        for species in WILDLIFE:
            expected = sum(points(size) for size in groups(player.environment.wildlife, species))
            assert line.wildlife[species] == expected, species
        sizes = corridor_sizes_ref(player.environment.tiles)
        assert dict(line.corridors) == {h: max(sizes[h], default=0) for h in HABITATS}


@pytest.mark.parametrize("card", ["family", "intermediate"])
def test_majority_bonus_off(card):
    on = play_game(30, ["greedy"] * 3, GameOptions(cards=card))
    off = play_game(30, ["greedy"] * 3, GameOptions(cards=card, majority_bonus=False))
    with_bonus = score_state(on.state)
    assert sum(p.bonus_total for p in with_bonus.players) > 0  # the option has something to remove
    sheet = score_state(off.state)
    for line in sheet.players:
        assert line.bonus_total == 0 and set(line.habitat_bonuses.values()) == {0}
        assert line.total == line.wildlife_total + line.habitat_total + line.nature_tokens
    # habitats still score their largest corridors
    for player, line in zip(off.state.players, sheet.players, strict=True):
        sizes = corridor_sizes_ref(player.environment.tiles)
        assert dict(line.habitat_points) == {h: max(sizes[h], default=0) for h in HABITATS}


def test_majority_bonus_off_on_fixed_boards():
    options = GameOptions(cards="family", majority_bonus=False)
    sheet = score_game([SEAT0, SEAT1], [0, 0], dict.fromkeys(WILDLIFE, "family"), options)
    assert habitat_lines(sheet) == [
        (per_habitat(mountain=4, forest=3), per_habitat()),
        (per_habitat(mountain=5, forest=2), per_habitat()),
    ]


# -- the solo rating (RULES.md 6) --------------------------------------------------------------

RATINGS = [
    (0, None),
    (59, None),
    (60, "good start"),
    (69, "good start"),
    (70, "got the gist"),
    (79, "got the gist"),
    (80, "great"),
    (89, "great"),
    (90, "excellent"),
    (99, "excellent"),
    (100, "outstanding"),
    (109, "outstanding"),
    (110, "incredible"),
    (150, "incredible"),
]


@pytest.mark.parametrize(("total", "rating"), RATINGS)
def test_solo_rating_on_the_score_sheet(total, rating):
    # the total made of wildlife points only
    sheet = build_sheet([{**NO_WILDLIFE, "elk": total}], [corridors()], [0], ALL_A, GameOptions())
    assert sheet.players[0].total == total
    assert sheet.solo_rating == (rating or BELOW_RATINGS)
    assert sheet.to_dict()["solo_rating"] == sheet.solo_rating


def test_solo_rating_counts_every_part_of_the_total():
    # 7 wetland keystones (7 + solo bonus 2) and 51 nature tokens: 60
    sheet = score_game([board(("wetland", 0, 7))], [51], ALL_A, GameOptions())
    assert sheet.players[0].total == 60
    assert sheet.solo_rating == "good start"
    sheet = score_game([board(("wetland", 0, 6))], [51], ALL_A, GameOptions())
    assert sheet.players[0].total == 57 and sheet.solo_rating == BELOW_RATINGS


def test_no_solo_rating_with_two_players():
    sheet = build_sheet([{**NO_WILDLIFE, "elk": 90}] * 2, [corridors()] * 2, [0, 0], ALL_A, GameOptions())
    assert sheet.solo_rating is None


def test_solo_game_sheet_has_its_rating():
    game = play_game(3, ["greedy"], GameOptions())
    sheet = score_state(game.state)
    total = sheet.players[0].total
    floors = [
        (110, "incredible"),
        (100, "outstanding"),
        (90, "excellent"),
        (80, "great"),
        (70, "got the gist"),
    ]
    expected = next((name for floor, name in [*floors, (60, "good start")] if total >= floor), BELOW_RATINGS)
    assert sheet.solo_rating == expected
