"""What a bot is: a player that chooses the active seat's decisions as command values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol, runtime_checkable
from uuid import UUID
from weakref import proxy

from cascadia.domain.commands import Command, NatureFreeChoice, NatureWipe
from cascadia.domain.game import Game
from cascadia.domain.rng import DrawStream

NatureCommands = (NatureFreeChoice, NatureWipe)
"""The commands that spend a nature token."""


@runtime_checkable
class Bot(Protocol):
    """A player of the active seat: :meth:`choose` gives its next decision (a legal
    command for ``game`` as it stands); :meth:`play_turn` executes its decisions until
    the turn is over."""

    name: str

    def choose(self, game: Game) -> Command: ...

    def play_turn(self, game: Game) -> None: ...


class PlanningBot:
    """A bot that plans a turn at a time: :meth:`plan` yields the turn's commands one by
    one and reads the game again after each (the caller executes each command before it
    asks for the next), so a plan can depend on what a wipe drew.

    The bot keeps its plan (a suspended generator) and the plan runs on a weak proxy of
    the bot: a plan holding the bot itself would make a reference cycle, through the
    plan's frame, with the game it reads, that only the garbage collector frees (every
    game a bot finished would wait for it, whole)."""

    name = "planning"

    def __init__(self) -> None:
        self._plan: Iterator[Command] | None = None
        self._at: tuple[UUID, int, int] = (UUID(int=0), -1, -1)
        """The game, turn and version of the last choice."""

    def plan(self, game: Game) -> Iterator[Command]:
        """The commands of the active seat's turn, in order."""
        raise NotImplementedError

    def choose(self, game: Game) -> Command:
        """The next command of the turn's plan; a new plan for a new turn (or another
        game, or when the last choice was not executed)."""
        state = game.state
        at = (state.game_id, state.turn, state.version)
        game_id, turn, version = self._at
        if self._plan is None or (game_id, turn) != at[:2] or at[2] <= version:
            self._plan = type(self).plan(proxy(self), game)  # no cycle: see the class
        command = next(self._plan, None)
        if command is None:
            raise AssertionError(f"{self.name}: the plan ended before the turn did")
        self._at = at
        return command

    def play_turn(self, game: Game) -> None:
        """Execute this bot's decisions until the active seat's turn is over. A turn
        another player began (a tile taken already: a seat a server handed to the bot
        mid-turn) is finished by :func:`finish_turn`: a plan starts from a turn's start."""
        turn = game.state.turn
        if game.state.turn_state.taken_tile is not None:
            finish_turn(game)
            return
        while not game.finished and game.state.turn == turn:
            game.execute(self.choose(game))


def finish_turn(game: Game) -> None:
    """Finish the active seat's turn with the first legal command each step that spends no
    nature token (the tile's first legal place, then the token's, or its return)."""
    turn = game.state.turn
    while not game.finished and game.state.turn == turn:
        game.execute(next(c for c in game.legal_commands() if not isinstance(c, NatureCommands)))


def bot_stream(name: str, seed: int, seat: int) -> DrawStream:
    """A bot's own draw stream, separate from the game's, so that a bot's choices are
    reproducible from the game seed and its seat without touching the game's draws."""
    return DrawStream(seed, stream=f"cascadia-bot/{name}/{seat}/v1".encode())
