"""Move analysis of a game log: what each move cost its player, in expected final points.

As on a chess analysis board, every move of a game (or of one seat) is set against the
move an analysing bot would have played in the same position:

1. The log is audited in full first (:func:`cascadia.replays.audit.verify`): a tampered
   log is refused before anything is analysed.
2. For each turn, the position is the one where the move is chosen: after the turn's
   optional wipes (their draws are public by then), before the take. The wipes are
   listed with the turn but not judged.
3. The analysing bot (``greedy`` or ``search@N``, seeded from the game's seed and the
   seat, as it would have been seated in that game) chooses its move there. It sees a
   copy of the position whose hidden draws are re-sampled, never the log's.
4. The move played and the bot's move are each valued by Monte Carlo: on ``budget``
   determinised futures (the tile stack's order and the bag's draws re-sampled from
   what is still unrevealed, with seeds derived from the game id and the turn, so the
   analysis is deterministic), the move is made and every seat plays the rest of the
   game as the greedy bot does, without wipes (they cost the most to decide); the
   value is the player's mean final total. Both moves see the same futures (common
   random numbers).
5. ``lost = max(0, best - played)``: a move played that the estimate finds better than
   the bot's loses nothing. When the bot's move is the move played it is valued once,
   so a game played by the analysing bot itself loses 0 on every move.

The tags, by points lost: ``inaccuracy`` from 2, ``mistake`` from 5, ``blunder`` from 10
(:data:`TAGS`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from cascadia.bots.decisions import Move
from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.registry import bot_factory
from cascadia.domain.commands import (
    Command,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    WipeThree,
)
from cascadia.domain.decisions import with_decisions
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.rng import draw
from cascadia.domain.state import GameState, evolve
from cascadia.projections.game_scores import score_state
from cascadia.replays.audit import verify
from cascadia.replays.format import LogHeader, open_log

DEFAULT_BOT = "greedy"
DEFAULT_BUDGET = 8
"""Determinised futures per candidate move (a 2-player game: about 15 s of CPU)."""
MAX_BUDGET = 1000
TAGS: tuple[tuple[str, float], ...] = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
"""A move's tag by the points it lost: the first whose threshold it reaches."""
_STREAM = b"cascadia-analysis/futures/v1"
_MAX_SEED = 2**64 - 1


class MoveDecider(Protocol):
    """A bot that can choose the move of a position (after its wipes)."""

    def decide_move(self, game: Game) -> Move: ...


def tag_of(lost: float) -> str | None:
    """The tag of a move that lost ``lost`` points (``None``: a good move)."""
    return next((tag for tag, threshold in TAGS if lost >= threshold), None)


@dataclass(frozen=True)
class TurnAnalysis:
    """One move of the game, judged."""

    game_id: UUID
    turn: int
    """The game's turn number (1, 2, ... over all players)."""
    seat: int
    name: str
    seq: int
    """The sequence number of the move's first event in the log."""
    wipes: tuple[str, ...]
    """The turn's wipes before the move, in the move notation (not judged)."""
    played: str
    played_points: float
    best: str
    best_points: float
    lost: float
    tag: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": str(self.game_id),
            "turn": self.turn,
            "seat": self.seat,
            "name": self.name,
            "seq": self.seq,
            "wipes": list(self.wipes),
            "played": self.played,
            "played_points": self.played_points,
            "best": self.best,
            "best_points": self.best_points,
            "lost": self.lost,
            "tag": self.tag,
        }


@dataclass(frozen=True)
class Position:
    """The position where a move was chosen, and the move's commands in the order played
    (a player may place the token before the tile)."""

    turn: int
    seq: int
    state: GameState
    wipes: tuple[Command, ...]
    move: tuple[Command, ...]


def move_text(commands: Sequence[Command]) -> str:
    """A move in the game's notation, its commands joined by ``; ``."""
    return "; ".join(str(command) for command in commands)


def same_move(played: Sequence[Command], move: Move) -> bool:
    """Whether ``played`` is ``move`` (the tile and the token placed in either order)."""
    return set(played) == set(move.commands()) and len(played) == len(move.commands())


def positions(events: Sequence[GameEvent]) -> Iterator[Position]:
    """Each move of a game's (audited) events, with the position before it: the move is
    the take and the placements (and a free choice bought first), after any wipes."""
    state = GameState(events[0].originator_id)
    wipes: list[Command] = []
    start: tuple[int, GameState] | None = None
    commands: list[Command] = []
    for event, decision in with_decisions(events):
        if decision is not None:
            command = decision.command
            if isinstance(command, WipeThree | NatureWipe):
                wipes.append(command)
            else:
                if start is None:
                    start = (decision.seq, state.copy())
                commands.append(command)
                if _complete(commands):
                    seq, before = start
                    yield Position(before.turn, seq, before, tuple(wipes), tuple(commands))
                    wipes, commands, start = [], [], None
        evolve(state, event)


def _complete(commands: Sequence[Command]) -> bool:
    """Whether a move's commands are all there: the tile placed, the token placed or returned."""
    tile = any(isinstance(c, PlaceTile) for c in commands)
    return tile and any(isinstance(c, PlaceWildlife | ReturnWildlife) for c in commands)


def future_seeds(game_id: UUID, turn: int, budget: int) -> list[int]:
    """The seeds of a turn's determinised futures: from the game id and the turn alone."""
    base = int.from_bytes(hashlib.sha256(game_id.bytes).digest()[:8], "big")
    return [draw(base, (turn << 20) + k, _MAX_SEED, _STREAM) for k in range(budget)]


def determinised(state: GameState, seed: int) -> Game:
    """A game on a copy of ``state`` whose future draws come from ``seed``, not the log's."""
    copy = state.copy()
    copy.seed = seed
    return Game(copy)


class Evaluator:
    """Expected final totals of moves by greedy rollouts over determinised futures."""

    def __init__(self, players: int) -> None:
        self.rollout_bots = [GreedyBot(0, seat) for seat in range(players)]

    def expected_total(self, state: GameState, move: Sequence[Command], seeds: Sequence[int]) -> float:
        """The mean final total of the player to move after the commands of ``move``,
        over ``seeds``."""
        seat = state.current
        total = 0
        for seed in seeds:
            game = determinised(state, seed)
            for command in move:
                game.execute(command)
            while not game.finished:
                for command in self.rollout_bots[game.current_player].decide_move(game).commands():
                    game.execute(command)
            total += score_state(game.state).players[seat].total
        return total / len(seeds)


def analysing_bots(bot: str, seed: int, players: int) -> Callable[[int], MoveDecider]:
    """The analysing bot of each seat (made on first use), seeded as it would have been
    seated in the game; a clear error for a bot that cannot choose moves."""
    factory = bot_factory(bot)
    if factory is None or not hasattr(factory(seed, 0), "decide_move"):
        raise InvalidOptionError(f"cannot analyse with {bot!r}: choose greedy or search@N")
    made: dict[int, Any] = {}

    def of(seat: int) -> MoveDecider:
        if seat not in made:
            made[seat] = factory(seed, seat)
        return made[seat]

    return of


def analyse_log(
    path: str | os.PathLike[str],
    bot: str = DEFAULT_BOT,
    budget: int = DEFAULT_BUDGET,
    seat: int | None = None,
) -> tuple[LogHeader, Iterator[TurnAnalysis]]:
    """Audit the log, then return its header and the analysis of each move (of ``seat``
    alone when given), in game order, as a stream."""
    if not 1 <= budget <= MAX_BUDGET:
        raise InvalidOptionError(f"budget {budget}: need 1 to {MAX_BUDGET} futures a move")
    with open_log(path) as reader:
        audit, events = verify(reader)
    header = audit.header
    if seat is not None and not 0 <= seat < header.players:
        raise InvalidOptionError(f"seat {seat}: the game has seats 0 to {header.players - 1}")
    deciders = analysing_bots(bot, header.seed, header.players)
    return header, _analyse(header, events, deciders, budget, seat)


def _analyse(
    header: LogHeader,
    events: list[GameEvent],
    deciders: Callable[[int], MoveDecider],
    budget: int,
    only: int | None,
) -> Iterator[TurnAnalysis]:
    evaluator = Evaluator(header.players)
    for position in positions(events):
        state = position.state
        seat = state.current
        if only is not None and seat != only:
            continue
        seeds = future_seeds(header.game_id, position.turn, budget)
        chosen = deciders(seat).decide_move(determinised(state, seeds[0]))
        played = evaluator.expected_total(state, position.move, seeds)
        if same_move(position.move, chosen):
            best = played
        else:
            best = evaluator.expected_total(state, chosen.commands(), seeds)
        lost = round(max(0.0, best - played), 2)
        yield TurnAnalysis(
            game_id=header.game_id,
            turn=position.turn,
            seat=seat,
            name=header.names[seat],
            seq=position.seq,
            wipes=tuple(str(w) for w in position.wipes),
            played=move_text(position.move),
            played_points=round(played, 2),
            best=move_text(chosen.commands()),
            best_points=round(best, 2),
            lost=lost,
            tag=tag_of(lost),
        )
