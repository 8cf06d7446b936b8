"""Cascadia as an OpenSpiel game, through OpenSpiel's Python game API (``pyspiel``).

``import cascadia.bots.agents.openspiel_game`` registers ``python_cascadia``; then
``pyspiel.load_game("python_cascadia", {"players": 4, "seed": 7})`` is the game that
``cascadia`` plays with seed 7, and every OpenSpiel algorithm that works on sequential
general-sum games works on it. Parameters: ``players`` (1-4, default 2), ``seed`` (the
game's seed, default 0: every initial state of one loaded game is the same deal),
``cards`` (``random``, ``all-a``, ... as ``cascadia simulate --cards``; default
``random``) and ``secret_cards`` (RULES.md 7.10; default false). docs/AGENTS.md.

- **Actions** are those of :mod:`cascadia.bots.agents.actions` (9,743 of them; the legal
  ones are exactly the game's legal commands, ascending, as OpenSpiel asks), written in
  the move notation by ``action_to_string``.
- **Draws are sampled, not chance nodes** (``SAMPLED_STOCHASTIC``): the game's seeded
  draw stream deals them, as in every other game of this project, so an OpenSpiel
  episode is the same game, event for event, as ``cascadia`` plays from that seed, its
  log audits (:meth:`CascadiaState.export_log`), and there is one engine, not a second
  description of the draws as chance outcomes (refills, overpopulation wipes and
  nature-token wipes draw a varying number of tokens from a bag whose odds change with
  each draw). The price: a clone carries the draw stream, so a search over clones (as
  OpenSpiel's ``MCTSBot``) plays its simulations with the true future draws, which no
  player at a table knows. :meth:`CascadiaState.resample_from_infostate` is the fair
  alternative: the position as the seat to move sees it, with every unseen draw and
  hidden card drawn again, as the project's own search does.
- **Returns** are each seat's final score (0 before the end): general-sum, terminal
  rewards. ``rewards()`` is 0 until then too.
- **Observations**: ``observation_string(player)`` is the position notation as that
  seat sees it (docs/POSITION.md): never another seat's secret card, never a future
  draw. No tensor: the arrays of the Gymnasium and PettingZoo environments are there
  for learning (docs/AGENTS.md).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from cascadia.bots.agents.actions import ACTION_COUNT, decode
from cascadia.bots.agents.episode import Episode
from cascadia.domain.components import NATURE_TOKENS, TURNS_PER_PLAYER
from cascadia.domain.options import GameOptions
from cascadia.projections.position import format_position

GAME_NAME = "python_cascadia"
DECISIONS_PER_TURN = 5
"""At most per turn, besides nature-token wipes: the free three-of-a-kind wipe, a bought
free choice, the take, the tile, the token (or its return)."""
MAX_SCORE = 300.0
"""Above any seat's final score (OpenSpiel asks for a bound, and checks none)."""
DEFAULT_PARAMETERS: dict[str, Any] = {"players": 2, "seed": 0, "cards": "random", "secret_cards": False}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Cascadia (the cascadia project's engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=DEFAULT_PARAMETERS,
)


def max_game_length(players: int) -> int:
    """A bound on a game's decisions: :data:`DECISIONS_PER_TURN` a turn, and at most one
    nature-token wipe per token in the game."""
    return TURNS_PER_PLAYER * players * DECISIONS_PER_TURN + NATURE_TOKENS


class CascadiaGame(pyspiel.Game):
    """The game of ``players`` seats dealt by ``seed`` with the ``cards`` choice."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**DEFAULT_PARAMETERS, **(params or {})}
        self.players = int(parameters["players"])
        self.seed = int(parameters["seed"])
        self.options = GameOptions(
            cards=str(parameters["cards"]), secret_cards=bool(parameters["secret_cards"])
        )
        self._initial = Episode.start(self.seed, self.players, self.options)
        """Checks the parameters at load time (``InvalidOptionError``); each new
        initial state is a copy of it."""
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=MAX_SCORE,
            max_game_length=max_game_length(self.players),
        )
        super().__init__(GAME_TYPE, info, parameters)

    def new_initial_state(self) -> CascadiaState:
        return CascadiaState(self, copy.deepcopy(self._initial))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> PositionObserver:
        return PositionObserver()


class CascadiaState(pyspiel.State):
    """An episode of :class:`CascadiaGame` (:class:`~cascadia.bots.agents.episode.Episode`)."""

    def __init__(self, game: CascadiaGame, episode: Episode) -> None:
        super().__init__(game)
        self.episode = episode

    def current_player(self) -> int:
        game = self.episode.game
        return int(pyspiel.PlayerId.TERMINAL) if game.finished else game.current_player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self.episode.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Play ``action``: an ``IllegalActionError``, the game unchanged, unless legal."""
        self.episode.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(decode(action))

    def is_terminal(self) -> bool:
        return self.episode.game.finished

    def returns(self) -> list[float]:
        return self.episode.rewards("final") if self.is_terminal() else [0.0] * self.num_players()

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CascadiaState:
        """The position as ``player_id`` sees it, what that seat cannot see (the order of
        the bag and the stack, others' unrevealed secret cards) drawn again from a seed
        taken from ``probability_sampler`` (a uniform number in [0, 1))."""
        seed = int(probability_sampler() * 2**53)  # every double in [0, 1) a seed of its own
        position = format_position(self.episode.game.state, player_id)
        episode = Episode.from_position(position, seed, self.num_players())
        return CascadiaState(self.get_game(), episode)

    def export_log(self, path: str | os.PathLike[str]) -> int:
        """Write the episode as a ``.cascadia`` log that ``cascadia audit`` checks; its size."""
        return self.episode.export_log(path)

    def __str__(self) -> str:
        """The whole position (the referee's view, docs/POSITION.md)."""
        return format_position(self.episode.game.state, None)


class PositionObserver:
    """OpenSpiel's observer of a seat: the position notation as that seat sees it."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: CascadiaState, player: int) -> None:
        """No tensor to fill (see the module docstring)."""

    def string_from(self, state: CascadiaState, player: int) -> str:
        return format_position(state.episode.game.state, player)


pyspiel.register_game(GAME_TYPE, CascadiaGame)
