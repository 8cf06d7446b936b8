"""Move analysis of a game log: what each decision cost its player, in expected final points.

As on a chess analysis board, every decision of a game (or of one seat) is set against
the decision an analysing bot would have made in the same position:

1. The log is audited in full first (:func:`cascadia.replays.audit.verify`): a tampered
   log is refused before anything is analysed.
2. A turn's decisions (:func:`positions`) are its optional wipes (RULES.md 4.1's free
   three-of-a-kind wipe and 4.2's nature-token wipe, each judged where it was made), a
   free choice bought before a wipe (judged alone), and the move: the take and the
   placements, with a free choice bought after the last wipe, judged after the wipes
   (their draws are public by then).
3. The analysing bot (``greedy`` or ``search@N``, seeded from the game's seed and the
   seat, as it would have been seated in that game) decides there as it would in a
   game: a wipe when the greedy's rule finds one worth its draw (both bots wipe by that
   rule), else its move. It sees a copy of the position whose hidden draws are
   re-sampled, never the log's.
4. The decision made and the bot's are each valued by Monte Carlo: on ``budget``
   determinised futures (the tile stack's order and the bag's draws re-sampled from
   what is still unrevealed, with seeds derived from the game id and the turn, so the
   analysis is deterministic), the decision is made (a wipe draws from the future's
   bag), the player finishes the turn and every seat plays the rest of the game as the
   greedy bot does, without wipes (they cost the most to decide); the value is the
   player's mean final total. Both decisions see the same futures (common random
   numbers).
5. ``lost = max(0, best - played)``: a decision the estimate finds better than the
   bot's loses nothing. When the bot's decision is the one made it is valued once, so
   a game played by the analysing bot itself loses 0 on every decision.

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

from cascadia.bots.decisions import Decision, Move, commands_of
from cascadia.bots.greedy_bot import MAX_WIPES_PER_TURN, GreedyBot
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


def bot_decision(bot: MoveDecider, wiper: GreedyBot, game: Game, wipes_before: int) -> Decision:
    """What the analysing ``bot`` decides in ``game``'s position: the wipe the greedy's
    rule finds worth its draw (both bots wipe by it, at most :data:`WIPES_A_TURN` a
    turn), else its own move."""
    decision = wiper.decide(game, wipes=wipes_before < WIPES_A_TURN)
    return decision if not isinstance(decision, Move) else bot.decide_move(game)


def tag_of(lost: float) -> str | None:
    """The tag of a move that lost ``lost`` points (``None``: a good move)."""
    return next((tag for tag, threshold in TAGS if lost >= threshold), None)


WIPE, FREE_CHOICE, MOVE = "wipe", "free choice", "move"
"""The kinds of decision judged: a wipe, a free choice bought before a wipe, a move."""
WIPES_A_TURN = MAX_WIPES_PER_TURN + 2
"""Wipes after which the greedy (and so either analysing bot) moves without wiping again."""


@dataclass(frozen=True)
class TurnAnalysis:
    """One decision of the game, judged."""

    game_id: UUID
    turn: int
    """The game's turn number (1, 2, ... over all players)."""
    seat: int
    name: str
    seq: int
    """The sequence number of the decision's first event in the log."""
    kind: str
    """:data:`WIPE`, :data:`FREE_CHOICE` or :data:`MOVE`."""
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
            "kind": self.kind,
            "played": self.played,
            "played_points": self.played_points,
            "best": self.best,
            "best_points": self.best_points,
            "lost": self.lost,
            "tag": self.tag,
        }


@dataclass(frozen=True)
class Position:
    """A decision of the game and the position before it: its commands in the order
    played (a player may place the token before the tile) and the turn's wipes so far."""

    turn: int
    seq: int
    state: GameState
    kind: str
    commands: tuple[Command, ...]
    wipes_before: int


def move_text(commands: Sequence[Command]) -> str:
    """A decision in the game's notation, its commands joined by ``; ``."""
    return "; ".join(str(command) for command in commands)


def same_decision(played: Sequence[Command], decision: Decision) -> bool:
    """Whether ``played`` is ``decision`` (a move's tile and token placed in either order)."""
    commands = commands_of(decision)
    return set(played) == set(commands) and len(played) == len(commands)


def positions(events: Sequence[GameEvent]) -> Iterator[Position]:
    """Each decision of a game's (audited) events, with the position before it: each
    optional wipe, a free choice bought before a wipe, and the move (the take and the
    placements, with a free choice bought after the turn's last wipe)."""
    state = GameState(events[0].originator_id)
    wipes = 0
    start: tuple[int, GameState] | None = None
    commands: list[Command] = []
    for event, decision in with_decisions(events):
        if decision is not None:
            command = decision.command
            if isinstance(command, WipeThree | NatureWipe):
                if start is not None:  # a free choice bought before this wipe
                    seq, before = start
                    yield Position(before.turn, seq, before, FREE_CHOICE, tuple(commands), wipes)
                    start, commands = None, []
                yield Position(state.turn, decision.seq, state.copy(), WIPE, (command,), wipes)
                wipes += 1
            else:
                if start is None:
                    start = (decision.seq, state.copy())
                commands.append(command)
                if _complete(commands):
                    seq, before = start
                    yield Position(before.turn, seq, before, MOVE, tuple(commands), wipes)
                    wipes, commands, start = 0, [], None
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

    def expected_total(self, state: GameState, decision: Sequence[Command], seeds: Sequence[int]) -> float:
        """The mean final total of the player to move after the commands of ``decision``
        (the player finishing the turn if they do not), over ``seeds``."""
        seat = state.current
        total = 0
        for seed in seeds:
            game = determinised(state, seed)
            for command in decision:
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
        raise InvalidOptionError(f"cannot analyse with {bot!r}: choose greedy, builder or search@N")
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
    wipers = [GreedyBot(header.seed, seat) for seat in range(header.players)]
    for position in positions(events):
        state = position.state
        seat = state.current
        if only is not None and seat != only:
            continue
        seeds = future_seeds(header.game_id, position.turn, budget)
        position_copy = determinised(state, seeds[0])
        chosen = bot_decision(deciders(seat), wipers[seat], position_copy, position.wipes_before)
        played = evaluator.expected_total(state, position.commands, seeds)
        if same_decision(position.commands, chosen):
            best = played
        else:
            best = evaluator.expected_total(state, commands_of(chosen), seeds)
        lost = round(max(0.0, best - played), 2)
        yield TurnAnalysis(
            game_id=header.game_id,
            turn=position.turn,
            seat=seat,
            name=header.names[seat],
            seq=position.seq,
            kind=position.kind,
            played=move_text(position.commands),
            played_points=round(played, 2),
            best=move_text(commands_of(chosen)),
            best_points=round(best, 2),
            lost=lost,
            tag=tag_of(lost),
        )
