"""A PettingZoo AEC environment: every seat an agent (``seat_0``, ``seat_1``, ...), one
step per decision (a turn is several decisions: wipes, nature-token actions, the take,
the tile, the token).

- Actions: :mod:`cascadia.bots.agents.actions`; the legal ones are
  ``observation["action_mask"]`` (and ``info["action_mask"]``). An action that is not
  legal raises :class:`~cascadia.bots.agents.actions.IllegalActionError` and changes nothing.
- Observations: :mod:`cascadia.bots.agents.observation`, what that seat may see.
- Rewards: ``reward="step"`` (the default) gives every seat, after each step, the change
  of its score as the boards stand (habitat majorities can move with another seat's
  tile; the first step's rewards count from 0, so a seat's rewards add up to its final
  score); ``reward="final"`` gives each seat its final score when the game ends, 0 before.
- Seeding: ``reset(seed=n)`` plays the game of seed ``n`` (the events of ``cascadia``'s
  game of that seed and seats); without a seed, the next game's seed is drawn from the
  environment's generator (seeded by the last seed given).
- Starting from a position: ``reset(seed=n, options={"position": TEXT})`` (the position
  notation, docs/POSITION.md); what its viewer could not see is drawn from the seed. Such
  an episode has no log to export.
- :meth:`CascadiaAECEnv.export_log` writes the episode as a ``.cascadia`` log.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

import numpy as np
from cascadia.bots.agents.actions import ACTION_COUNT
from cascadia.bots.agents.episode import REWARDS, Episode, Reward, episode_seed
from cascadia.bots.agents.observation import Observation, observation_space
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import check_setup
from cascadia.domain.options import GameOptions
from gymnasium import spaces
from pettingzoo import AECEnv

NO_ACTIONS = np.zeros(ACTION_COUNT, dtype=np.int8)
"""The mask of a seat that is not to move (:meth:`CascadiaAECEnv.observe` hands out copies)."""


class CascadiaAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """Cascadia for ``players`` agents under ``options`` (default: the base game)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cascadia_v0",
        "render_modes": [],
        "is_parallelizable": False,
    }

    def __init__(self, players: int = 2, options: GameOptions | None = None, reward: Reward = "step") -> None:
        super().__init__()
        if reward not in REWARDS:
            raise InvalidOptionError(f"reward is 'step' or 'final', not {reward!r}")
        check_setup([f"seat {seat}" for seat in range(players)], options or GameOptions())
        self.players = players
        self.options = options
        self.reward_mode = reward
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space(players))
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with ``options={"position": TEXT}``, from that position
        (docs/POSITION.md, what its viewer could not see drawn from the seed; the game's
        options are then the position's, else the constructor's)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = episode_seed(seed, self._rng)
        position = (options or {}).get("position")
        if position is not None:
            self.episode = Episode.from_position(position, game_seed, self.players)
        else:
            self.episode = Episode.start(game_seed, self.players, self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def observe(self, agent: str) -> Observation:
        episode = self._episode()
        seat = self.possible_agents.index(agent)
        to_move = agent == self.agent_selection and not episode.game.finished
        return episode.observe(seat, (episode.legal if to_move else NO_ACTIONS).copy())

    def step(self, action: int | None) -> None:
        """Play the selected agent's ``action`` (``None`` for an agent already done)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        episode = self._episode()
        agent = self.agent_selection
        episode.play(action)  # type: ignore[arg-type]  # None only for a finished agent
        self._cumulative_rewards[agent] = 0.0
        changes = episode.rewards(self.reward_mode)
        self.rewards = dict(zip(self.possible_agents, changes, strict=True))
        if episode.game.finished:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """The agent to act: the active seat, or while the game is over the next agent
        still to be removed; ``infos`` carry the legal actions."""
        episode = self._episode()
        if not episode.game.finished:
            self.agent_selection = self.possible_agents[episode.game.current_player]
        elif self.agents:
            self.agent_selection = self.agents[0]
        self.infos = {agent: {} for agent in self.agents}
        if not episode.game.finished:
            self.infos[self.agent_selection]["action_mask"] = episode.legal

    def _episode(self) -> Episode:
        if self.episode is None:
            raise InvalidOptionError("call reset() before playing")
        return self.episode

    def export_log(self, path: str | os.PathLike[str]) -> int:
        """Write this episode as a ``.cascadia`` log; its size in bytes."""
        return self._episode().export_log(path)

    def render(self) -> None:
        """Nothing to render: ``cascadia replay`` and ``cascadia view`` read the exported log."""

    def close(self) -> None:
        """Nothing to release."""
