"""The moves of one position, ranked by expected final points (``analyse --position``).

The candidates: before the take, the search bot's (:meth:`SearchBot.candidate_moves`: the
greedy's move first, then the best others by one-ply value); after it, the ways of
finishing the turn (:func:`completions`: the tile on each legal place, the token on each
legal target or returned), the best by the points they add now. Each is valued as the
move analysis values a decision (:class:`~cascadia.bots.analysis.Evaluator`): the mean
final total of the seat to move over ``budget`` determinised futures, the rest of the
game played by greedy rollouts. Each future is a game built from the position with its
own seed (:func:`~cascadia.bots.position_game.position_game`): the stack's order, the
bag's draws and any card hidden from the position's viewer are sampled afresh, and every
candidate sees the same futures. The seeds come from the position's text alone, so a
ranking is reproducible. Wipes are not ranked: the moves are those of the market as it
stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cascadia.bots.analysis import MAX_BUDGET, Evaluator, future_seeds, move_text
from cascadia.bots.position_game import position_game, position_id, position_state
from cascadia.bots.search_bot import SearchBot
from cascadia.domain.commands import Command, PlaceTile, PlaceWildlife, ReturnWildlife
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.projections.game_scores import score_state
from cascadia.projections.position import Position

DEFAULT_MOVES = 8
"""Candidate moves ranked by default."""


@dataclass(frozen=True, slots=True)
class RankedMove:
    """A candidate move: its commands and text, its points now and its expected final total."""

    commands: tuple[Command, ...]
    text: str
    immediate: int
    expected: float

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.text, "immediate": self.immediate, "expected": round(self.expected, 2)}


def rank_moves(position: Position, budget: int, moves: int = DEFAULT_MOVES) -> list[RankedMove]:
    """Up to ``moves`` candidate moves of the seat to move, best expected total first
    (ties: the candidates' order); :class:`InvalidOptionError` for a finished game or a
    bad budget."""
    if not 1 <= budget <= MAX_BUDGET:
        raise InvalidOptionError(f"budget {budget}: need 1 to {MAX_BUDGET} futures a move")
    if moves < 1:
        raise InvalidOptionError(f"moves {moves}: rank at least one")
    if position.to_move is None:
        raise InvalidOptionError("the game is over: there is no move to rank")
    seeds = future_seeds(position_id(position), position.turn, budget)
    game = position_game(position, seeds[0])
    futures = [position_state(position, seed) for seed in seeds]
    evaluator = Evaluator(len(position.names))

    def expected(commands: tuple[Command, ...]) -> float:
        totals = (evaluator.expected_total(f, commands, [s]) for f, s in zip(futures, seeds, strict=True))
        return sum(totals) / len(seeds)

    ranked = [
        RankedMove(commands, move_text(commands), value, expected(commands))
        for commands, value in _candidates(game, seeds[0], moves)
    ]
    return sorted(ranked, key=lambda r: -r.expected)


def _candidates(game: Game, seed: int, moves: int) -> list[tuple[tuple[Command, ...], int]]:
    """Up to ``moves`` candidates with their immediate values, best first."""
    if not game.state.turn_state.has_taken:
        searcher = SearchBot(seed, game.current_player, candidates=moves)
        found = searcher.candidate_moves(game, searcher.greedy.valuation(game))
        return [(tuple(c.move.commands()), c.value) for c in found]
    seat = game.current_player
    now = score_state(game.state).players[seat].total
    valued = [
        (commands, score_state(_played(game, commands).state).players[seat].total - now)
        for commands in completions(game)
    ]
    return sorted(valued, key=lambda cv: -cv[1])[:moves]


def completions(game: Game) -> list[tuple[Command, ...]]:
    """Every way to finish a turn whose pair is taken: the tile (unless placed) on each
    legal place and rotation, then the token (unless placed or returned) on each legal
    target, the new tile included, or returned."""
    ts = game.state.turn_state
    tiles: list[tuple[Command, ...]] = (
        [()]
        if ts.tile_hex is not None
        else [(PlaceTile(q, r, rot),) for (q, r), rot in game.legal_tile_placements()]
    )
    if ts.wildlife_done:
        return tiles
    found: list[tuple[Command, ...]] = []
    for tile in tiles:
        after = _played(game, tile)
        tokens: list[Command] = [PlaceWildlife(q, r) for q, r in after.legal_wildlife_targets()]
        found += [(*tile, token) for token in [*tokens, ReturnWildlife()]]
    return found


def _played(game: Game, commands: tuple[Command, ...]) -> Game:
    """A copy of ``game`` with ``commands`` played."""
    copy = Game(game.state.copy())
    for command in commands:
        copy.execute(command)
    return copy
