"""The final-score read model: each finished game recorded once; a restart resumes."""

from __future__ import annotations

from pathlib import Path

from cascadia.application.read_models import open_final_scores, update
from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game
from cascadia.domain.game import Game
from cascadia.projections.game_scores import score_state

pytest_plugins = ["store_backends"]


def _store_games(store: GameStore, seeds: range, players: int = 2) -> list[Game]:
    games = [play_game(seed, ["random"] * players) for seed in seeds]
    for game in games:
        store.save_game(game)
    return games


def test_each_finished_game_is_scored_once_and_a_restart_resumes(
    game_store: GameStore, tmp_path: Path
) -> None:
    games = _store_games(game_store, range(3))
    view = open_final_scores(tmp_path)
    assert update(game_store, view) == 3
    assert update(game_store, view) == 0  # nothing new: exactly once
    for game in games:
        assert view.sheet(game.id) == score_state(game.state).to_dict()

    more = _store_games(game_store, range(3, 5))
    reopened = open_final_scores(tmp_path)  # a restarted process
    assert update(game_store, reopened) == 2
    assert reopened.count() == 5
    assert reopened.sheet(more[1].id) == score_state(more[1].state).to_dict()


def test_unfinished_games_are_not_recorded(game_store: GameStore, tmp_path: Path) -> None:
    game = Game.start(3, 2)
    game.take(0)
    game_store.save_game(game)
    view = open_final_scores(tmp_path)
    assert update(game_store, view) == 0
    assert view.sheet(game.id) is None
