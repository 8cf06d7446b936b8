"""Cascadia as an OpenSpiel game (cascadia.bots.agents.openspiel_game): OpenSpiel's own
random-simulation consistency test passes on it, OpenSpiel's MCTS bot plays whole games
of it, an episode is the game ``cascadia`` plays from the same seed and its log audits,
an illegal action changes nothing, and a resampled state keeps what its seat saw."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from cascadia.bots.agents.actions import IllegalActionError, decode  # noqa: E402
from cascadia.bots.agents.openspiel_game import GAME_NAME, max_game_length  # noqa: E402
from cascadia.domain.errors import InvalidOptionError  # noqa: E402
from cascadia.domain.game import Game  # noqa: E402
from cascadia.domain.options import GameOptions  # noqa: E402
from cascadia.projections.game_scores import score_state  # noqa: E402
from cascadia.projections.position import format_position, parse_position  # noqa: E402
from cascadia.replays.audit import audit_file  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402


def load(**params: object):
    return pyspiel.load_game(GAME_NAME, params)


def play_randomly(state, seed: int) -> list[int]:
    rng = random.Random(seed)
    played = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played.append(action)
    return played


@pytest.mark.parametrize("players", [1, 2, 4])
def test_openspiel_random_simulation_test_passes(players: int) -> None:
    """OpenSpiel's consistency check of a game: legal actions, clones, returns, history
    (without its serialisation check: a sampled game's state would need OpenSpiel's RNG
    state, which a Python game cannot give it)."""
    pyspiel.random_sim_test(load(players=players, seed=players), num_sims=1, serialize=False, verbose=False)


def test_an_episode_is_the_game_cascadia_plays_from_that_seed(tmp_path: Path) -> None:
    game = load(players=3, seed=11, cards="all-a")
    assert (game.num_players(), game.max_game_length()) == (3, max_game_length(3))
    state = game.new_initial_state()
    played = play_randomly(state, seed=1)
    reference = Game.start(11, 3, GameOptions(cards="all-a"))
    for action in played:
        reference.execute(decode(action))
    assert str(state) == format_position(reference.state, None)
    assert state.returns() == [float(p.total) for p in score_state(reference.state).players]
    assert state.export_log(tmp_path / "episode.cascadia") > 0
    audit = audit_file(tmp_path / "episode.cascadia")
    assert audit.valid and audit.finished and audit.totals == [int(r) for r in state.returns()]


def test_openspiel_mcts_plays_whole_games() -> None:
    for players in (1, 2):
        game = load(players=players, seed=20 + players)
        rng = np.random.RandomState(players)
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=3,
            evaluator=mcts.RandomRolloutEvaluator(1, rng),
            random_state=rng,
        )
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = bot.step(state) if state.current_player() == 0 else int(rng.choice(legal))
            assert action in legal
            state.apply_action(action)
        assert all(r > 0 for r in state.returns())


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = load(players=2, seed=3).new_initial_state()
    before, legal = str(state), state.legal_actions()
    illegal = next(a for a in range(9000, 9100) if a not in legal)
    with pytest.raises(IllegalActionError, match="is not legal now"):
        state.apply_action(illegal)
    assert (str(state), state.history(), state.legal_actions()) == (before, [], legal)


@pytest.mark.parametrize("params", [{"players": 5}, {"seed": -1}, {"cards": "zz"}])
def test_bad_parameters_are_refused_at_load(params: dict[str, object]) -> None:
    with pytest.raises(InvalidOptionError):
        load(**params)


def test_a_resampled_state_keeps_what_its_seat_saw_and_plays_on() -> None:
    state = load(players=2, seed=8).new_initial_state()
    rng = random.Random(0)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    resampled = state.resample_from_infostate(seat, random.Random(5).random)
    assert resampled.observation_string(seat) == state.observation_string(seat)
    assert resampled.legal_actions() == state.legal_actions()
    play_randomly(resampled, seed=2)
    assert resampled.is_terminal()


def test_an_observation_is_the_seat_s_position_and_hides_the_other_secret_card() -> None:
    state = load(players=2, seed=4, secret_cards=True).new_initial_state()
    for seat in (0, 1):
        seen = state.observation_string(seat)
        assert seen == format_position(state.episode.game.state, seat)
        secret = parse_position(seen).secret_cards
        assert secret[seat] in ("bear", "elk", "salmon", "hawk", "fox") and secret[1 - seat] is None
