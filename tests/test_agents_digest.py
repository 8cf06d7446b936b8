"""Golden digests of what the agent environments return (cascadia.bots.agents): over
seeded episodes of random legal actions, every observation (of every seat, each step),
mask, reward, termination and info of the PettingZoo and Gymnasium environments, and
every legal action list, action string, observation string, return and reward of the
OpenSpiel game, hashed step by step. A change to the environments' speed must leave the
digests as they are; a change to what they return must say so by changing them here.

Run this file with ``-s`` and ``CASCADIA_PRINT_DIGESTS=1`` to print the digests found.
Skipped without the ``agents`` extra."""

from __future__ import annotations

import hashlib
import os
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from cascadia.bots.agents.gym_env import CascadiaEnv
from cascadia.bots.agents.pettingzoo_env import CascadiaAECEnv
from cascadia.domain.options import GameOptions


class Digest:
    """A SHA-256 of the values fed to it, arrays by key, dtype, shape and bytes."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, value: Any) -> None:
        if isinstance(value, dict):
            for key in sorted(value):
                self._hash.update(repr(key).encode())
                self.add(value[key])
        elif isinstance(value, np.ndarray):
            self._hash.update(f"{value.dtype}{value.shape}".encode())
            self._hash.update(np.ascontiguousarray(value).tobytes())
        elif isinstance(value, list | tuple):
            self._hash.update(f"[{len(value)}".encode())
            for item in value:
                self.add(item)
        else:
            self._hash.update(f"{type(value).__name__}:{value!r};".encode())

    def hexdigest(self) -> str:
        return self._hash.hexdigest()[:16]


def _check(found: str, expected: str, name: str) -> None:
    if os.environ.get("CASCADIA_PRINT_DIGESTS"):
        print(f"{name}: {found}")
    assert found == expected


def aec_digest(players: int, options: GameOptions | None, reward: str, seed: int) -> str:
    """Every seat's observation at every step of a random game, with ``last()``,
    ``rewards``, the cumulative rewards and ``infos``."""
    env = CascadiaAECEnv(players, options, reward=reward)  # type: ignore[arg-type]
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest = Digest()
    for agent in env.agent_iter():
        observation, cumulative, terminated, truncated, info = env.last()
        digest.add([agent, observation, cumulative, terminated, truncated, info])
        digest.add([env.observe(other) for other in env.agents])
        digest.add([dict(env.rewards), dict(env._cumulative_rewards), env.infos])
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return digest.hexdigest()


def gym_digest(opponents: list[str], seat: int, options: GameOptions | None, reward: str, seed: int) -> str:
    """Every step of a game of random legal actions, with an illegal action (the
    penalty) every tenth step."""
    env = CascadiaEnv(opponents, seat, options, reward=reward)  # type: ignore[arg-type]
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest = Digest()
    digest.add([observation, info])
    terminated, step = False, 0
    while not terminated:
        step += 1
        legal = observation["action_mask"]
        pool = np.flatnonzero(legal == 0) if step % 10 == 0 else np.flatnonzero(legal)
        observation, reward_value, terminated, truncated, info = env.step(int(rng.choice(pool)))
        digest.add([observation, reward_value, terminated, truncated, info])
    return digest.hexdigest()


def openspiel_digest(players: int, params: dict[str, Any], seed: int) -> str:
    """Every state of a game of random legal actions: its player, legal actions (of every
    seat), their strings, every seat's observation string, returns and rewards."""
    pyspiel = pytest.importorskip("pyspiel")
    import cascadia.bots.agents.openspiel_game  # noqa: F401  # registers the game

    game = pyspiel.load_game("python_cascadia", {"players": players, "seed": seed, **params})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    digest = Digest()
    while True:
        player = state.current_player()
        legal = state.legal_actions()
        digest.add([player, legal, [state.legal_actions(p) for p in range(players)]])
        digest.add([state.observation_string(p) for p in range(players)])
        digest.add([state.returns(), state.rewards(), state.is_terminal()])
        if state.is_terminal():
            break
        digest.add([state.action_to_string(player, a) for a in legal[:5]])
        state.apply_action(int(rng.choice(legal)))
    digest.add(str(state))
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("players", "options", "reward", "seed", "expected"),
    [
        (2, None, "step", 1, "08b544fbcb7bf349"),
        (3, GameOptions(market_of_three=True, no_token_on_new_tile=True), "step", 2, "2bb2af5a08a0c491"),
        (4, GameOptions(must_match=True, secret_cards=True), "final", 3, "76537b8be19db1f1"),
        (2, GameOptions(two_card_sets=True, nature_cost_two=True), "step", 4, "3959dee6cf9d2b03"),
    ],
)
def test_the_pettingzoo_env_returns_what_it_returned(
    players: int, options: GameOptions | None, reward: str, seed: int, expected: str
) -> None:
    _check(aec_digest(players, options, reward, seed), expected, f"aec {players} {seed}")


@pytest.mark.parametrize(
    ("opponents", "seat", "options", "reward", "seed", "expected"),
    [
        (["random"], 0, None, "step", 1, "7e2f30bdd8b1ac30"),
        (["random", "greedy", "random"], 2, GameOptions(secret_cards=True), "step", 2, "187a492e7cb97fc7"),
        ([], 0, GameOptions(no_starter=True), "final", 3, "46d3605cc5d1da49"),
    ],
)
def test_the_gymnasium_env_returns_what_it_returned(
    opponents: list[str], seat: int, options: GameOptions | None, reward: str, seed: int, expected: str
) -> None:
    _check(gym_digest(opponents, seat, options, reward, seed), expected, f"gym {opponents} {seed}")


@pytest.mark.parametrize(
    ("players", "params", "seed", "expected"),
    [
        (2, {}, 1, "45847594b09073bb"),
        (4, {"secret_cards": True}, 2, "b90fcb1f165cd56a"),
    ],
)
def test_the_openspiel_game_returns_what_it_returned(
    players: int, params: dict[str, Any], seed: int, expected: str
) -> None:
    _check(openspiel_digest(players, params, seed), expected, f"openspiel {players} {seed}")
