"""The position potential: its features on a hand-built board, turns left, where it applies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cascadia.bots.potential import (
    BASE_FEATURES,
    NAMES,
    board_features,
    evaluate,
    features,
    potential,
    token_gains,
    turns_left,
)
from cascadia.bots.potential_coefficients import COEFFICIENTS
from cascadia.bots.registry import make_bots
from cascadia.domain.components import WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions

MOUNTAIN_BEAR, FOREST_BEAR, WETLAND_HAWK, RIVER_SALMON, WETLAND_SALMON = 0, 5, 17, 22, 15
A_CARDS = GameOptions(cards="all-a", majority_bonus=False)


def _board() -> Environment:
    """A lone bear with an open bear slot beside it, an open hawk slot touching no hawk,
    and a salmon run of two with an open salmon slot at its end (keystones only)."""
    return Environment(
        tiles={
            (0, 0): (MOUNTAIN_BEAR, 0),
            (1, 0): (FOREST_BEAR, 0),
            (0, 1): (WETLAND_HAWK, 0),
            (3, 0): (RIVER_SALMON, 0),
            (4, 0): (RIVER_SALMON, 0),
            (5, 0): (WETLAND_SALMON, 0),
        },
        wildlife={(0, 0): "bear", (3, 0): "salmon", (4, 0): "salmon"},
    )


def test_features_of_a_hand_built_board() -> None:
    found = dict(zip(BASE_FEATURES, board_features(_board(), nature_tokens=2), strict=False))
    assert found["empty_tiles"] == 3 and found["open_keystones"] == 3 and found["nature_tokens"] == 2
    assert found["open_bear"] == 1 and found["bear_lone"] == 1 and found["bear_waiting"] == 1
    assert found["open_hawk"] == 1 and found["hawk_free_slots"] == 1
    assert found["open_salmon"] == 1 and found["salmon_run_ends"] == 1
    assert found["largest_river"] == 2 and found["frontier_river"] == 7 and found["open_edges_river"] == 9
    assert found["largest_mountain"] == 1 and found["frontier_mountain"] == 4
    assert found["largest_forest"] == 1 and found["open_edges_forest"] == 4


def _with_board(game: Game) -> Game:
    game.state.players[0].environment = _board()
    return game


def test_token_gains_are_what_a_token_of_each_species_would_add_now() -> None:
    """Bear A: a first pair is 4; hawk A: one lone hawk 2; salmon A: a run of 3 is 7
    against 4 for 2 (RULES.md 5.3, 5.5, 5.6); each slot is a keystone (+1 nature token)."""
    game = _with_board(Game.start(5, 4, A_CARDS))
    gains = token_gains(game.state, 0)
    best = dict(zip(WILDLIFE, gains[:5], strict=True))
    slots = dict(zip(WILDLIFE, gains[5:], strict=True))
    assert best == {"bear": 5, "elk": 0, "salmon": 4, "hawk": 3, "fox": 0}
    assert slots == {"bear": 1, "elk": 0, "salmon": 1, "hawk": 1, "fox": 0}


def test_a_second_bear_beside_the_slot_means_no_pair_is_waiting() -> None:
    board = _board()
    board.tiles[(2, -1)] = (FOREST_BEAR, 0)  # touches the open bear slot (1, 0)
    board.wildlife[(2, -1)] = "bear"
    found = dict(zip(BASE_FEATURES, board_features(board, nature_tokens=0), strict=False))
    assert found["bear_lone"] == 2 and found["bear_waiting"] == 0


def test_turns_left_count_down_to_zero_at_the_end() -> None:
    game = Game.start(3, 4, A_CARDS)
    assert [turns_left(game.state, seat) for seat in range(4)] == [20] * 4
    bots = make_bots(["greedy"] * 4, 3)
    mover = game.current_player
    bots[mover].play_turn(game)
    assert turns_left(game.state, mover) == 19
    assert sum(turns_left(game.state, seat) for seat in range(4)) == 79
    while not game.finished:
        bots[game.current_player].play_turn(game)
    assert [turns_left(game.state, seat) for seat in range(4)] == [0] * 4
    assert potential(game.state, 0) == 0.0


def test_the_potential_is_for_all_a_games_without_majority_only() -> None:
    fitted = Game.start(4, 2, A_CARDS)
    other = Game.start(4, 2, GameOptions(cards="B,B,B,B,B", majority_bonus=False))
    majority = Game.start(4, 2, GameOptions(cards="all-a"))
    assert potential(fitted.state, 0) != 0.0
    assert potential(other.state, 0) == 0.0 and potential(majority.state, 0) == 0.0


def test_the_model_has_one_coefficient_per_term_and_no_turn_no_points() -> None:
    assert len(COEFFICIENTS) == len(NAMES) == 2 + 2 * len(BASE_FEATURES)
    values = features(_with_board(Game.start(5, 4, A_CARDS)).state, 0)
    assert evaluate(values, 20) != evaluate(values, 5)


def test_the_fit_script_runs_on_a_tiny_sample(tmp_path: Path) -> None:
    script = Path(__file__).parent / "benchmarks" / "fit_potential.py"
    out = tmp_path / "coefficients.py"
    result = subprocess.run(
        [sys.executable, str(script), "--games", "3", "--write", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "R^2" in result.stdout
    namespace: dict = {}
    exec(out.read_text(), namespace)
    assert len(namespace["COEFFICIENTS"]) == len(NAMES)
