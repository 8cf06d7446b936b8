"""The table scorer (docs/BOARD.md, ``/table.html``): what scored on a board
(:mod:`cascadia.projections.scored_cells`), the answer of ``POST /api/score/board`` and its
errors naming line and column."""

from __future__ import annotations

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.options import GameOptions
from cascadia.projections.board_text import BoardTextError, parse_boards, score_table, table_of, table_text
from cascadia.projections.game_scores import score_state
from cascadia.projections.scored_cells import scored_cells, scoring_corridors, scoring_groups
from cascadia.projections.table_scorer import table_score
from cascadia.projections.wildlife import score_card
from fastapi.testclient import TestClient


def board(text: str) -> Environment:
    """One player's board from hex lines (cards A for all)."""
    return parse_boards([("t.txt", "cards: A A A A A\n" + text)]).players[0].environment


# -- wildlife ----------------------------------------------------------------------------------


def test_bear_a_pairs_score_and_a_trio_does_not() -> None:
    tokens = {(0, 0): "bear", (1, 0): "bear", (5, 0): "bear", (6, 0): "bear", (7, 0): "bear"}
    assert scoring_groups(tokens, "bear", "A", GameOptions()) == [[(0, 0), (1, 0)]]
    assert scoring_groups(tokens, "bear", "B", GameOptions()) == [[(5, 0), (6, 0), (7, 0)]]


def test_bear_a_beyond_four_pairs_the_fifth_is_left_out() -> None:
    """RULES.md 5.3 bear A: "4+ → 27": a fifth pair adds nothing, so it did not score."""
    tokens = {(3 * i, 0): "bear" for i in range(5)} | {(3 * i + 1, 0): "bear" for i in range(5)}
    groups = scoring_groups(tokens, "bear", "A", GameOptions())
    assert len(groups) == 4 and all(len(g) == 2 for g in groups)


def test_salmon_strict_a_branching_group_is_no_run_lenient_scores_it() -> None:
    star = {(0, 0): "salmon", (1, 0): "salmon", (-1, 0): "salmon", (0, 1): "salmon"}
    run = {(5, 5): "salmon", (6, 5): "salmon"}
    tokens = star | run
    assert scoring_groups(tokens, "salmon", "A", GameOptions()) == [[(5, 5), (6, 5)]]
    lenient = scoring_groups(tokens, "salmon", "A", GameOptions(salmon_runs="lenient"))
    assert lenient == [[(-1, 0), (0, 0), (1, 0), (0, 1)], [(5, 5), (6, 5)]]


def test_hawk_a_lone_hawks_score_neighbours_do_not() -> None:
    tokens = {(0, 0): "hawk", (4, 0): "hawk", (5, 0): "hawk"}
    assert scoring_groups(tokens, "hawk", "A", GameOptions()) == [[(0, 0)]]


def test_a_card_that_scores_nothing_outlines_nothing() -> None:
    assert scoring_groups({(0, 0): "elk"}, "bear", "A", GameOptions()) == []


# -- habitats ----------------------------------------------------------------------------------

ROWS = """\
0,0 M
1,0 M
2,0 M
0,1 F
1,1 F
2,1 P
3,1 F
4,1 F
5,1 F
"""


def test_the_largest_corridor_scores() -> None:
    found = scoring_corridors(board(ROWS), GameOptions())
    assert found["mountain"] == [[(0, 0), (1, 0), (2, 0)]]
    assert found["forest"] == [[(3, 1), (4, 1), (5, 1)]]
    assert found["river"] == []


def test_corridor_restrictions() -> None:
    environment = board(ROWS)
    threes = scoring_corridors(environment, GameOptions(corridors_of_three=True))
    assert threes["mountain"] == [[(0, 0), (1, 0), (2, 0)]] and threes["forest"] == [[(3, 1), (4, 1), (5, 1)]]
    assert all(not g for g in scoring_corridors(environment, GameOptions(must_not_match=True)).values())
    assert all(not g for g in scoring_corridors(environment, GameOptions(corridors_min_five=True)).values())


# -- boards of simulated games ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_what_scored_matches_the_sheet_on_simulated_games(seed: int) -> None:
    """On real boards: a card outlines groups exactly when it scores, those groups alone
    score as much as the whole board, and the corridor outlined has the scored size."""
    options = (GameOptions(), GameOptions(salmon_runs="lenient", elk_rings="any-subset"))[seed % 2]
    state = play_game(seed, ["greedy", "random", "greedy"][: 2 + seed % 2], options).state
    sheet = score_state(state)
    for player, line in zip(state.players, sheet.players, strict=True):
        found = scored_cells(player.environment, state.cards, options)
        for species in WILDLIFE:
            groups = found.wildlife[species]
            assert bool(groups) == (line.wildlife[species] > 0), species
            kept = {h for g in groups for h in g}
            assert all(player.environment.wildlife[h] == species for h in kept)
            others = {h: s for h, s in player.environment.wildlife.items() if s != species or h in kept}
            assert score_card(others, species, state.cards[species], options) == line.wildlife[species]
        for habitat in HABITATS:
            corridors = found.habitats[habitat]
            assert [len(c) for c in corridors] == (
                [line.corridors[habitat]] if line.corridors[habitat] else []
            )


def test_table_score_answers_the_sheet_the_boards_and_the_text() -> None:
    state = play_game(7, ["greedy", "random", "greedy", "random"], GameOptions()).state
    text = table_text(table_of(state))
    got = table_score(text)
    assert [p["total"] for p in got["sheet"]["players"]] == [p.total for p in score_state(state).players]
    assert got["sheet"]["winners"] == list(score_state(state).winners)
    assert got["text"] == text
    assert [p["name"] for p in got["table"]["players"]] == state.names
    assert len(got["scored"]) == 4
    hexes = got["table"]["players"][0]["hexes"]
    assert {(x["q"], x["r"]) for x in hexes} == set(state.players[0].environment.tiles)


def test_table_score_two_card_sets_outlines_under_the_set_that_scored() -> None:
    state = play_game(3, ["greedy", "greedy"], GameOptions(two_card_sets=True)).state
    got = table_score(table_text(table_of(state)))
    sheet = score_table(parse_boards([("t", table_text(table_of(state)))]))
    for seat, line in enumerate(sheet.players):
        cards = state.second_cards if line.card_set else state.cards
        expected = scored_cells(state.players[seat].environment, cards, state.options).to_dict()
        assert got["scored"][seat] == expected


# -- the endpoint ------------------------------------------------------------------------------


def test_post_score_board_answers_the_sheet(api: TestClient) -> None:
    text = "cards: A B C A A\nplayer: Anna\nnature: 2\n0,0 M bear\n1,0 M bear\nplayer: Ben\n0,0 W hawk\n"
    response = api.post("/api/score/board", json={"text": text})
    assert response.status_code == 200
    body = response.json()
    anna, ben = body["sheet"]["players"]
    assert (anna["name"], anna["wildlife"]["bear"], anna["nature_tokens"]) == ("Anna", 4, 2)
    assert anna["habitat_bonuses"]["mountain"] == 2 and ben["habitat_bonuses"]["wetland"] == 2
    assert body["sheet"]["winners"] == [0]
    assert body["scored"][0]["wildlife"]["bear"] == [[[0, 0], [1, 0]]]
    assert body["scored"][0]["habitats"]["mountain"] == [[[0, 0], [1, 0]]]
    assert body["scored"][1]["wildlife"]["hawk"] == [[[0, 0]]]


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("cards: A B C D A\n0,0 X", 2, 5),
        ("cards: A B C D E\n0,0 M", 1, 16),
        ("cards: A B C D A\n0,0 M\n5,5 M", 3, 1),
        ("0,0 M", 1, 1),
    ],
)
def test_post_score_board_refuses_bad_text_at_its_line_and_column(
    api: TestClient, text: str, line: int, column: int
) -> None:
    response = api.post("/api/score/board", json={"text": text})
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"].endswith("/invalid-board")
    assert (problem["line"], problem["column"]) == (line, column)
    assert problem["detail"].startswith(f"table.txt:{line}:{column}: ")
    with pytest.raises(BoardTextError) as error:
        table_score(text)
    assert problem["detail"] == str(error.value)


def test_post_score_board_refuses_a_body_of_the_wrong_shape(api: TestClient) -> None:
    assert api.post("/api/score/board", json={"text": 3}).status_code == 400
    assert api.post("/api/score/board", json={"board": "x"}).status_code == 400
