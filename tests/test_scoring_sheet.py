"""The score sheet (RULES.md 5, 5.9 and 6): totals, ranks, solo ratings, JSON."""

from __future__ import annotations

import json

import pytest
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.scoresheet import build_sheet, competition_ranks, score_game, solo_rating
from cascadia.projections.wildlife import score_wildlife

ALL_A = dict.fromkeys(WILDLIFE, "A")
NO_WILDLIFE = dict.fromkeys(WILDLIFE, 0)


def per_habitat(mountain: int, forest: int, prairie: int, wetland: int, river: int) -> dict[str, int]:
    return dict(zip(HABITATS, (mountain, forest, prairie, wetland, river), strict=True))


def corridors(mountain: int, forest: int, prairie: int, wetland: int, river: int) -> dict[str, list[int]]:
    """One corridor of the given size per habitat (none for 0)."""
    sizes = (mountain, forest, prairie, wetland, river)
    return {habitat: [size] if size else [] for habitat, size in zip(HABITATS, sizes, strict=True)}


def worked_example_tokens() -> dict[Hex, str]:
    """RULES.md 5.9's wildlife, built around a fox F2 at (0,0) that sees five species.

    F2 (0,0) neighbours: bear (1,-1), elk (1,0), salmon (0,1), hawk (-1,1), fox F1
    (-1,0), fox F3 (0,-1) -> bear, elk, salmon, hawk, fox = 5.
    F1 (-1,0) neighbours: F3 (0,-1), F2 (0,0), hawk (-1,1), (-2,1), bear (-2,0),
    (-1,-1) -> fox, hawk, bear = 3.
    F3 (0,-1) neighbours: hawk (1,-2), bear (1,-1), F2 (0,0), F1 (-1,0), (-1,-1),
    (0,-2) -> hawk, bear, fox = 3.
    Bears: pairs {(1,-1), (2,-2)} and {(-2,0), (-3,0)}, touching no other bear -> A: 11.
    Elk: a line of 2 {(1,0), (2,0)} and a line of 3 far away -> A: 5 + 9 = 14.
    Salmon: (0,1)..(0,4), a run of 4 -> A: 12.
    Hawks: (-1,1), (1,-2) (three steps apart), and two far away; none adjacent -> A: 11.
    """
    tokens = {(0, 0): "fox", (-1, 0): "fox", (0, -1): "fox"}
    tokens |= dict.fromkeys([(1, -1), (2, -2), (-2, 0), (-3, 0)], "bear")
    tokens |= dict.fromkeys([(1, 0), (2, 0), (5, 5), (6, 5), (7, 5)], "elk")
    tokens |= dict.fromkeys([(0, 1), (0, 2), (0, 3), (0, 4)], "salmon")
    tokens |= dict.fromkeys([(-1, 1), (1, -2), (10, 10), (13, 10)], "hawk")
    return tokens


def test_worked_example_wildlife() -> None:
    assert score_wildlife(worked_example_tokens(), ALL_A, GameOptions()) == {
        "bear": 11,
        "elk": 14,
        "salmon": 12,
        "hawk": 11,
        "fox": 3 + 5 + 3,
    }


def test_worked_example_totals_98() -> None:
    # player 0: corridors 6 mountain, 4 forest, 7 prairie, 8 wetland, 5 river.
    # mountain 6, 6, 3, 2: tied for largest with one other -> +2
    # forest 4, 4, 4, 1: tied with two others -> +1
    # prairie 7, 9, 3, 0: second largest alone -> +1
    # wetland 8, 5, 5, 2: largest alone -> +3
    # river 5, 6, 7, 8: smallest -> 0
    others = [corridors(6, 4, 9, 5, 6), corridors(3, 4, 3, 5, 7), corridors(2, 1, 0, 2, 8)]
    wildlife = [score_wildlife(worked_example_tokens(), ALL_A, GameOptions())] + [NO_WILDLIFE] * 3
    sheet = build_sheet(wildlife, [corridors(6, 4, 7, 8, 5), *others], [2, 0, 0, 0], ALL_A, GameOptions())
    player = sheet.players[0]
    assert player.wildlife_total == 59
    assert player.habitat_total == 30
    assert player.habitat_bonuses == per_habitat(2, 1, 1, 3, 0)
    assert player.bonus_total == 7
    assert player.nature_tokens == 2
    assert player.total == 98
    assert player.rank == 1
    assert player.won
    assert sheet.solo_rating is None


def sheet_with_totals(totals: list[int], nature: list[int]) -> list[tuple[int, int, bool]]:
    """(total, rank, won) per seat, for players whose only points are given as elk."""
    sheet = build_sheet(
        [{**NO_WILDLIFE, "elk": t - n} for t, n in zip(totals, nature, strict=True)],
        [corridors(0, 0, 0, 0, 0)] * len(totals),
        nature,
        ALL_A,
        GameOptions(),
    )
    return [(p.total, p.rank, p.won) for p in sheet.players]


def test_ranks_highest_total_wins() -> None:
    assert sheet_with_totals([70, 90, 80, 60], [0, 0, 0, 0]) == [
        (70, 3, False),
        (90, 1, True),
        (80, 2, False),
        (60, 4, False),
    ]


def test_tie_goes_to_more_nature_tokens() -> None:
    assert sheet_with_totals([80, 80], [2, 3]) == [(80, 2, False), (80, 1, True)]


def test_still_tied_players_share_the_place() -> None:
    # 80/3 and 80/3 share first; 80/2 is third (competition ranking 1, 1, 3); 70 fourth
    assert sheet_with_totals([80, 80, 80, 70], [2, 3, 3, 5]) == [
        (80, 3, False),
        (80, 1, True),
        (80, 1, True),
        (70, 4, False),
    ]
    assert sheet_with_totals([90, 80, 80, 70], [0, 1, 1, 0]) == [
        (90, 1, True),
        (80, 2, False),
        (80, 2, False),
        (70, 4, False),
    ]


def test_competition_ranks() -> None:
    assert competition_ranks([(5, 0), (7, 0), (5, 0), (1, 9)]) == [2, 1, 2, 4]


@pytest.mark.parametrize(
    ("total", "rating"),
    [
        (0, "keep practising"),
        (59, "keep practising"),
        (60, "good start"),
        (69, "good start"),
        (70, "got the gist"),
        (80, "great"),
        (90, "excellent"),
        (99, "excellent"),
        (100, "outstanding"),
        (110, "incredible"),
        (140, "incredible"),
    ],
)
def test_solo_ratings(total: int, rating: str) -> None:
    assert solo_rating(total) == rating


def solo_environment() -> Environment:
    """Mountain keystones 0-4 in a row, dual 25 at (5,0) with mountain on its W edge
    (rho 3: mountain on edges 3,4,5) and dual 26 at (0,1) with mountain on its NW edge
    (rho 3): a mountain corridor of 7; the duals' forest halves are 2 corridors of 1.
    Wildlife: a bear pair and a lone elk."""
    tiles = {(k, 0): (k, 0) for k in range(5)}
    tiles[(5, 0)] = (25, 3)
    tiles[(0, 1)] = (26, 3)
    wildlife = {(0, 0): "bear", (1, 0): "bear", (3, 0): "elk"}
    return Environment(tiles=tiles, wildlife=wildlife)


def test_solo_game_end_to_end() -> None:
    sheet = score_game([solo_environment()], [3], ALL_A, GameOptions())
    (player,) = sheet.players
    assert player.wildlife == {**NO_WILDLIFE, "bear": 4, "elk": 2}
    assert player.corridors == per_habitat(7, 1, 0, 0, 0)
    assert player.habitat_bonuses == per_habitat(2, 0, 0, 0, 0)  # solo bonus at 7
    assert player.total == 6 + 8 + 2 + 3
    assert player.rank == 1
    assert player.won
    assert sheet.solo_rating == "keep practising"


def test_majority_off_gives_no_solo_bonus() -> None:
    sheet = score_game([solo_environment()], [0], ALL_A, GameOptions(majority_bonus=False))
    assert sheet.players[0].bonus_total == 0
    assert sheet.players[0].total == 6 + 8


def test_multi_player_game_end_to_end() -> None:
    # seat 0: a lone mountain keystone with a lone bear (Bear A: 0), 1 nature token.
    # seat 1: the solo environment. Two players: seat 1 has the larger mountain (7 > 1)
    # and forest (1 > 0) corridors, +2 each; nobody has the other habitats.
    lone = Environment(tiles={(0, 0): (0, 0)}, wildlife={(0, 0): "bear"})
    sheet = score_game([lone, solo_environment()], [1, 0], ALL_A, GameOptions())
    first, second = sheet.players
    assert first.habitat_bonuses == per_habitat(0, 0, 0, 0, 0)
    assert second.habitat_bonuses == per_habitat(2, 2, 0, 0, 0)  # forest: 1 vs 0
    assert first.total == 0 + 1 + 0 + 1
    assert second.total == 6 + 8 + 4
    assert sheet.winners == (1,)
    assert sheet.solo_rating is None


def test_to_dict_is_plain_json() -> None:
    sheet = score_game([solo_environment()], [3], {**ALL_A, "elk": "d"}, GameOptions())
    data = json.loads(json.dumps(sheet.to_dict()))
    assert data["cards"] == {**ALL_A, "elk": "D"}
    assert data["options"]["salmon_runs"] == "strict"
    assert data["solo_rating"] == "keep practising"
    assert data["winners"] == [0]
    (player,) = data["players"]
    assert player["total"] == 19
    assert player["wildlife"]["bear"] == 4
    assert player["corridors"]["mountain"] == 7
    assert player["habitat_bonuses"]["mountain"] == 2
    assert player["rank"] == 1 and player["won"] is True


def test_inputs_must_cover_every_player() -> None:
    with pytest.raises(ValueError, match="every player"):
        score_game([solo_environment()], [], ALL_A, GameOptions())


def test_rule_restrictions_change_habitat_scoring() -> None:
    # two players; seat 0: mountain corridors 3, 3 and 1, forest 4; seat 1: mountain 6
    zero = corridors(0, 0, 0, 0, 0)
    seat0 = {**zero, "mountain": [3, 1, 3], "forest": [4]}
    seat1 = {**zero, "mountain": [6]}

    def line(options: GameOptions) -> list[tuple[dict[str, int], dict[str, int]]]:
        sheet = build_sheet([NO_WILDLIFE] * 2, [seat0, seat1], [0, 0], ALL_A, options)
        return [(dict(p.habitat_points), dict(p.habitat_bonuses)) for p in sheet.players]

    # standard: largest corridors score; seat 1 has the larger mountain, seat 0 forest
    assert line(GameOptions()) == [
        (per_habitat(3, 4, 0, 0, 0), per_habitat(0, 2, 0, 0, 0)),
        (per_habitat(6, 0, 0, 0, 0), per_habitat(2, 0, 0, 0, 0)),
    ]
    # corridors_of_three: 3 per corridor of exactly 3; majorities unchanged
    assert line(GameOptions(corridors_of_three=True)) == [
        (per_habitat(6, 0, 0, 0, 0), per_habitat(0, 2, 0, 0, 0)),
        (per_habitat(0, 0, 0, 0, 0), per_habitat(2, 0, 0, 0, 0)),
    ]
    # corridors_min_five: largest below 5 scores 0; majorities unchanged
    assert line(GameOptions(corridors_min_five=True)) == [
        (per_habitat(0, 0, 0, 0, 0), per_habitat(0, 2, 0, 0, 0)),
        (per_habitat(6, 0, 0, 0, 0), per_habitat(2, 0, 0, 0, 0)),
    ]
    # must_not_match: no corridor points and no majorities
    nothing = (per_habitat(0, 0, 0, 0, 0), per_habitat(0, 0, 0, 0, 0))
    assert line(GameOptions(must_not_match=True)) == [nothing, nothing]


def test_two_card_sets_scores_each_player_under_their_better_set() -> None:
    # seat 0: a line of 5 elk: Elk A 13 + 2 = 15, Elk C 14 -> first set.
    # seat 1: a flower (centre + 6 neighbours): Elk C 23 (7 connected). Elk A: the
    # longest lines are the three of 3 through the centre, which share it; one of them
    # (9) leaves the ring's other 4 as two adjacent pairs (5 + 5): 19 -> second set.
    line = Environment(tiles={}, wildlife=dict.fromkeys([(k, 0) for k in range(5)], "elk"))
    flower = [(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    blob = Environment(tiles={}, wildlife=dict.fromkeys(flower, "elk"))
    second = {**ALL_A, "elk": "C"}
    options = GameOptions(two_card_sets=True)
    sheet = score_game([line, blob], [0, 0], ALL_A, options, second_cards=second)
    assert [p.card_set for p in sheet.players] == [0, 1]
    assert [p.wildlife["elk"] for p in sheet.players] == [15, 23]
    assert sheet.to_dict()["second_cards"] == second
    # without the option the second set is ignored
    plain = score_game([line, blob], [0, 0], ALL_A, GameOptions(), second_cards=second)
    assert [p.card_set for p in plain.players] == [0, 0]
    assert plain.second_cards is None
