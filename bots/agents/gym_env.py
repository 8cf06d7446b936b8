"""A Gymnasium environment: one agent plays one seat against the project's bots, chosen
by name (``opponents=["greedy", "random"]``: a bot per other seat, in seat order; see
:mod:`cascadia.bots.registry`, ``search@400`` included). The bots play their decisions
inside :meth:`CascadiaEnv.step`, so that every step is a decision of the agent.

- Actions and masks: :mod:`cascadia.bots.agents.actions`; the legal ones are
  ``observation["action_mask"]`` and ``info["action_mask"]`` (one array, in both).
- An action that is not legal: with ``illegal="penalty"`` (the default, as
  ``gymnasium.utils.env_checker.check_env`` steps with unmasked samples) it changes
  nothing, gives reward ``-1`` and ``info["illegal_action"] = True``; with
  ``illegal="raise"`` it raises :class:`~cascadia.bots.agents.actions.IllegalActionError`
  (the game unchanged), as the PettingZoo environment does.
- Rewards: ``reward="step"`` (the default) is the change of the agent's score, as the
  boards stand, since its previous decision (from 0 before the first: the rewards add up to
  its final score; the bots' moves in between count, as they can take a habitat
  majority); ``reward="final"`` is its final score when the game ends.
- Seeding: ``reset(seed=n)`` plays the game of seed ``n``, the bots seeded from it as
  ``cascadia simulate`` seeds them; without a seed, one is drawn from ``np_random``.
- Starting from a position: ``reset(seed=n, options={"position": TEXT})`` (the position
  notation, docs/POSITION.md); what its viewer could not see is drawn from the seed. Such
  an episode has no log to export.
- :meth:`CascadiaEnv.export_log` writes the episode as a ``.cascadia`` log, the bots
  recorded in it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import gymnasium
from cascadia.bots.agents.actions import ACTION_COUNT, IllegalActionError
from cascadia.bots.agents.episode import REWARDS, Episode, Reward, episode_seed
from cascadia.bots.agents.observation import Observation, observation_space
from cascadia.bots.base import Bot
from cascadia.bots.registry import bot_factory, check_bot_names, recorded_bots
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.options import GameOptions
from gymnasium import spaces

AGENT_NAME = "agent"
"""The name of the agent's seat in the game (and its log)."""
ILLEGAL_PENALTY = -1.0

Illegal = Literal["penalty", "raise"]


class CascadiaEnv(gymnasium.Env[Observation, int]):
    """The agent at ``seat`` against ``opponents`` (bot names) under ``options``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        opponents: Sequence[str] = ("greedy",),
        seat: int = 0,
        options: GameOptions | None = None,
        reward: Reward = "step",
        illegal: Illegal = "penalty",
    ) -> None:
        check_bot_names(opponents)
        if not 0 <= seat <= len(opponents):
            raise InvalidOptionError(f"the agent's seat is 0 to {len(opponents)}, not {seat}")
        if reward not in REWARDS or illegal not in ("penalty", "raise"):
            raise InvalidOptionError(
                f"reward is 'step' or 'final' ({reward!r}), illegal 'penalty' or 'raise'"
            )
        self.names = [*opponents[:seat], AGENT_NAME, *opponents[seat:]]
        self.seat = seat
        self.options = options
        self.reward_mode = reward
        self.illegal = illegal
        self.observation_space = observation_space(len(self.names))
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.episode: Episode | None = None
        self._bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game and let the bots play until the agent's first decision. With
        ``options={"position": TEXT}`` the game starts from that position (docs/POSITION.md,
        what its viewer could not see drawn from the seed; its options are the position's),
        which has a bot's turn before its take, or the agent's turn anywhere."""
        super().reset(seed=seed)
        game_seed = episode_seed(seed, self.np_random)
        position = (options or {}).get("position")
        if position is not None:
            episode = Episode.from_position(position, game_seed, len(self.names))
            if episode.game.current_player != self.seat and episode.game.state.turn_state.has_taken:
                raise InvalidOptionError(
                    "a bot's turn in the position is past its take: the bots plan whole turns"
                )
        else:
            episode = Episode.start(game_seed, self.names, self.options, recorded_bots(self.names))
        self.episode = episode
        self._bots = {
            seat: make(game_seed, seat)
            for seat, name in enumerate(self.names)
            if seat != self.seat and (make := bot_factory(name)) is not None
        }
        self._opponents_play(episode)
        observation = self._observation(episode)
        return observation, _info(observation)

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        episode = self._episode()
        try:
            episode.play(action)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            observation = self._observation(episode)
            return observation, ILLEGAL_PENALTY, False, False, _info(observation, illegal=True)
        self._opponents_play(episode)
        (reward,) = episode.rewards(self.reward_mode, [self.seat])
        observation = self._observation(episode)
        return observation, reward, episode.game.state.finished, False, _info(observation)

    def _opponents_play(self, episode: Episode) -> None:
        """The bots' decisions until the agent's turn or the game's end (played on the
        episode's game: bots choose legal commands)."""
        game = episode.game
        while not (state := game.state).finished and state.current != self.seat:
            game.execute(self._bots[state.current].choose(game))

    def _observation(self, episode: Episode) -> Observation:
        """What the agent sees, with a mask made for it (:meth:`Choices.mask`)."""
        return episode.observe(self.seat, episode.choices.mask())

    def _episode(self) -> Episode:
        if self.episode is None:
            raise InvalidOptionError("call reset() before playing")
        return self.episode

    def export_log(self, path: str | os.PathLike[str]) -> int:
        """Write this episode as a ``.cascadia`` log; its size in bytes."""
        return self._episode().export_log(path)


def _info(observation: Observation, illegal: bool = False) -> dict[str, Any]:
    """The info of a step: the legal actions (the observation's own mask array, not a
    copy of it) and whether the action played was illegal."""
    return {"action_mask": observation["action_mask"], "illegal_action": illegal}
