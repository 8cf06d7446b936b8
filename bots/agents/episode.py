"""One environment episode: a game played by actions, its events kept (collected from
the game when read), so that every episode is a log (:meth:`Episode.export_log`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from cascadia.bots.agents.actions import Choices, execute
from cascadia.bots.agents.observation import Observation, Observer
from cascadia.bots.agents.scores import RunningTotals
from cascadia.bots.position_game import position_game
from cascadia.domain.commands import Command
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.rng import MAX_SEED
from cascadia.projections.position import Position, parse_position
from cascadia.replays.format import LogHeader, write_log
from cascadia.replays.scores import final_score_sheet

Reward = Literal["step", "final"]
"""``step``: each seat's score change since the last reward; ``final``: the final scores."""
REWARDS: tuple[Reward, ...] = ("step", "final")


def episode_seed(seed: int | None, rng: np.random.Generator) -> int:
    """The game seed of an episode: ``seed`` itself (so that ``reset(seed=7)`` plays the
    game ``cascadia`` plays with seed 7), or a draw from ``rng`` when none is given."""
    return seed if seed is not None else int(rng.integers(0, min(MAX_SEED, 2**63 - 1), dtype=np.int64))


class Episode:
    """A game, the events it has emitted so far and the legal actions now."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._events: list[GameEvent] = self.game.collect_events()
        self.from_start = bool(self._events)
        """Whether the episode holds the game's events from its start (a game built from
        a position has none before it)."""
        self._choices: Choices | None = None
        self._choices_at = -1
        self._legal: npt.NDArray[np.int8] = np.zeros(0, dtype=np.int8)
        self._legal_at = -1
        self._running = RunningTotals(len(self.game.state.players))
        self._observer: Observer | None = None
        self._rewarded = [0] * len(self.game.state.players)

    @classmethod
    def start(
        cls,
        seed: int,
        names: int | Sequence[str],
        options: GameOptions | None = None,
        bots: list[dict[str, Any] | None] | None = None,
    ) -> Episode:
        """An episode of a new game (:meth:`Game.start`)."""
        return cls(Game.start(seed, names, options, bots=bots))

    @classmethod
    def from_position(cls, position: str | Position, seed: int, players: int) -> Episode:
        """An episode from ``position`` (docs/POSITION.md: its text or its value), what its
        viewer could not see drawn from ``seed`` (:mod:`cascadia.bots.position_game`);
        :class:`InvalidOptionError` unless it has ``players`` seats and a move to make."""
        if isinstance(position, str):
            position = parse_position(position)
        if len(position.names) != players:
            raise InvalidOptionError(
                f"the position has {len(position.names)} seats, the environment {players}"
            )
        if position.finished:
            raise InvalidOptionError("the position's game is over: no episode to play")
        return cls(position_game(position, seed))

    @property
    def choices(self) -> Choices:
        """The choices of the decision now (:class:`~cascadia.bots.agents.actions.Choices`),
        listed by the engine when first asked for after a move (the bots' moves in the
        Gymnasium environment need none) and kept for the legal actions, the mask and the
        check of the action played."""
        version = self.game.state.version
        if self._choices is None or self._choices_at != version:
            self._choices = Choices(self.game)
            self._choices_at = version
        return self._choices

    @property
    def legal(self) -> npt.NDArray[np.int8]:
        """The mask of the legal actions now (:meth:`Choices.mask`), one array kept until
        the next move (the episode does not read it: it checks an action by its
        :attr:`choices`)."""
        version = self.game.version
        if self._legal_at != version:
            self._legal = self.choices.mask()
            self._legal_at = version
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal actions now, in the order of :meth:`Game.legal_commands`
        (:meth:`Choices.actions`, a new list)."""
        return self.choices.actions()

    def observe(self, seat: int, action_mask: npt.NDArray[np.int8]) -> Observation:
        """What ``seat`` sees now, with ``action_mask``, an array the observation holds as it
        is (:meth:`~cascadia.bots.agents.observation.Observer.observe`)."""
        if self._observer is None:
            self._observer = Observer(len(self.game.state.players))
        return self._observer.observe(self.game.state, seat, action_mask)

    def play(self, action: int) -> Command:
        """Play ``action`` (an :class:`~cascadia.bots.agents.actions.IllegalActionError`, the game
        unchanged, unless it is legal now); the command played."""
        return execute(self.game, action, self.choices)

    @property
    def events(self) -> list[GameEvent]:
        """The game's events so far (those it emitted since the last read are collected
        now, rather than after each move)."""
        self._events += self.game.collect_events()
        return self._events

    def totals(self, seats: Sequence[int] | None = None) -> list[int]:
        """The score of each of ``seats`` (default: every seat) as the boards stand (the
        final score once the game is over; :class:`~cascadia.bots.agents.scores.RunningTotals`)."""
        return self._running.totals(self.game.state, seats)

    def rewards(self, mode: Reward, seats: Sequence[int] | None = None) -> list[float]:
        """Per seat of ``seats`` (default: every seat): with ``step``, the change of its
        score since its last ``step`` reward (since 0 at the first: the starting tiles'
        points count, and a seat's rewards add up to its final score); with ``final``,
        its final score once the game is over, 0 before."""
        seats = range(len(self._rewarded)) if seats is None else seats
        if mode == "final":
            return (
                [float(total) for total in self.totals(seats)] if self.game.finished else [0.0] * len(seats)
            )
        scores = self._running.totals(self.game.state, seats)
        rewarded = self._rewarded
        changes = []
        for i, seat in enumerate(seats):  # not zip(..., strict=True): its keyword costs a slow call
            changes.append(float(scores[i] - rewarded[seat]))
            rewarded[seat] = scores[i]
        return changes

    def export_log(self, path: str | os.PathLike[str]) -> int:
        """Write the episode so far as a ``.cascadia`` log (``cascadia audit`` checks it;
        the final score sheet once the game is over); its size in bytes. An episode
        started from a position has no log (its game's first events are unknown)."""
        if not self.from_start:
            raise InvalidOptionError("an episode started from a position has no log to export")
        state = self.game.state
        return write_log(path, LogHeader.from_events(self.events), self.events, final_score_sheet(state))
