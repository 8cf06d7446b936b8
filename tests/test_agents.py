"""The environments for learning agents (cascadia.bots.agents, docs/AGENTS.md): the action
space and its mask, the PettingZoo and Gymnasium API checks, seeding, illegal actions,
exported logs and hidden information. Skipped without the ``agents`` extra."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from cascadia.bots.agents.actions import (
    ACTION_COUNT,
    BOARD_HEXES,
    BOARD_RADIUS,
    Choices,
    IllegalActionError,
    decode,
    encode,
    legal_actions,
    mask,
)
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.observation import observe
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.bots.agents.scores import RunningTotals
from cascadia.domain.components import CARD_LETTERS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import distance
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state
from cascadia.replays.audit import audit_file
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

VARIANTS = [
    (2, GameOptions()),
    (3, GameOptions(market_of_three=True, no_token_on_new_tile=True)),
    (4, GameOptions(must_match=True, secret_cards=True)),
    (1, GameOptions(no_starter=True, nature_cost_two=True)),
    (2, GameOptions(must_not_match=True, two_card_sets=True)),
]


def test_every_action_decodes_and_encodes_back() -> None:
    assert ACTION_COUNT == 9743
    assert len(BOARD_HEXES) == 3 * BOARD_RADIUS * (BOARD_RADIUS + 1) + 1
    assert all(encode(decode(action)) == action for action in range(ACTION_COUNT))
    with pytest.raises(IllegalActionError):
        decode(ACTION_COUNT)


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_the_mask_is_exactly_the_legal_commands(players: int, options: GameOptions) -> None:
    """At every decision of random games, the masked actions decode to the legal commands,
    the legal actions are theirs in their order, the check of an action played allows
    exactly the masked ones, and every hex a board reaches is inside the window."""
    rng = random.Random(players)
    for seed in range(2):
        game = Game.start(seed, players, options)
        while not game.finished:
            legal = mask(game)
            commands = game.legal_commands()
            assert {decode(a) for a in np.flatnonzero(legal)} == set(commands)
            assert legal.sum() == len(commands)
            assert legal_actions(game) == [encode(command) for command in commands]
            choices = Choices(game)
            assert [a for a in range(ACTION_COUNT) if choices.allows(a)] == np.flatnonzero(legal).tolist()
            game.execute(rng.choice(commands))
        assert not mask(game).any()
        assert not any(Choices(game).allows(a) for a in range(ACTION_COUNT))
        reach = max(distance(h, (0, 0)) for p in game.state.players for h in p.environment.tiles)
        assert reach <= BOARD_RADIUS


@pytest.mark.parametrize(("players", "options"), [*VARIANTS, (3, GameOptions(cards="family"))])
def test_the_running_totals_are_the_score_sheet_totals(players: int, options: GameOptions) -> None:
    """At every decision of random games, the totals kept step by step (for every seat,
    and for one seat asked alone) are those of the score sheet scored afresh."""
    rng = random.Random(players)
    game = Game.start(players, players, options)
    every, alone = RunningTotals(players), RunningTotals(players)
    while True:
        sheet = [player.total for player in score_state(game.state).players]
        assert every.totals(game.state) == sheet
        seat = rng.randrange(players)
        assert alone.totals(game.state, [seat]) == [sheet[seat]]
        if game.finished:
            break
        game.execute(rng.choice(game.legal_commands()))


# The API test's advice that does not fit a board game: the observation is a dict of
# arrays (with its action mask), and the seats not to move have no legal action.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros:UserWarning")
def test_pettingzoo_api_and_seeding() -> None:
    api_test(CascadiaAECEnv(3), num_cycles=100)
    seed_test(lambda: CascadiaAECEnv(2, reward="final"), num_cycles=100)


def test_gymnasium_check_env() -> None:
    check_env(CascadiaEnv(["random", "greedy"], seat=1), skip_render_check=True)


def _play_out(env: CascadiaAECEnv, seed: int) -> list[str]:
    """Play a game of random legal actions to its end; the agents' order of play."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    order = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        order.append(agent)
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if terminated or truncated else int(rng.choice(legal)))
    return order


def test_the_same_seed_plays_the_same_game_and_every_game_is_a_log(tmp_path: Path) -> None:
    env, again = CascadiaAECEnv(2), CascadiaAECEnv(2)
    _play_out(env, 11)
    _play_out(again, 11)
    assert env.episode is not None and again.episode is not None
    assert [e.__dict__ for e in env.episode.events] == [e.__dict__ for e in again.episode.events]
    assert env.episode.game.state.seed == 11
    env.export_log(tmp_path / "game.cascadia")
    audit = audit_file(tmp_path / "game.cascadia")
    assert audit.valid and audit.finished
    assert audit.totals == env.episode.totals()


def test_step_rewards_add_up_to_the_final_score() -> None:
    for reward in ("step", "final"):
        env = CascadiaAECEnv(2, reward=reward)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(3)
        env.reset(seed=3)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            for name, value in env.rewards.items():
                totals[name] += value
        assert env.episode is not None
        assert list(totals.values()) == env.episode.totals()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = CascadiaAECEnv(2)
    env.reset(seed=4)
    assert env.episode is not None
    version, legal = env.episode.game.state.version, env.episode.legal.copy()
    for action in (int(np.flatnonzero(legal == 0)[0]), ACTION_COUNT, -1, None, 1.5):
        with pytest.raises(IllegalActionError):
            env.step(action)
    assert env.episode.game.state.version == version
    assert len(env.episode.events) == version
    assert (env.episode.legal == legal).all()


def test_a_solo_gym_game_plays_to_its_end() -> None:
    env = CascadiaEnv([])
    observation, _ = env.reset(seed=2)
    rewards, terminated = 0.0, False
    while not terminated:
        observation, reward, terminated, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        rewards += reward
    assert env.episode is not None
    assert [rewards] == env.episode.totals()
    assert not observation["action_mask"].any()


def test_the_gym_env_penalises_or_raises_on_an_illegal_action(tmp_path: Path) -> None:
    env = CascadiaEnv(["greedy"], seat=1)
    observation, info = env.reset(seed=9)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    assert env.episode is not None
    version = env.episode.game.state.version
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, False, True)
    assert env.episode.game.state.version == version
    strict = CascadiaEnv(["greedy"], illegal="raise")
    strict.reset(seed=9)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    terminated = False
    while not terminated:
        observation, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.export_log(tmp_path / "gym.cascadia")
    assert audit_file(tmp_path / "gym.cascadia").valid
    assert env.episode.game.state.names == ["greedy", "agent"]


def test_an_observation_hides_the_other_seats_secret_cards() -> None:
    """With secret cards (RULES.md 7.10), seat 0's observation is the same whatever the
    letter of seat 1's card, and shows seat 0's own card."""
    game = Game.start(5, 2, GameOptions(secret_cards=True))
    legal = mask(game)
    seen = observe(game, 0, legal)
    mine, theirs = game.state.secret_cards
    assert seen["secret_cards"][0].tolist() == [int(s == mine) for s in WILDLIFE]
    assert not seen["secret_cards"][1].any()
    assert seen["cards"][0][WILDLIFE.index(mine)].any()
    assert not seen["cards"][0][WILDLIFE.index(theirs)].any()
    for letter in CARD_LETTERS:
        other = Game(game.state.copy())
        other.state.cards[theirs] = letter
        observed = observe(other, 0, legal)
        assert all((observed[key] == seen[key]).all() for key in seen)
