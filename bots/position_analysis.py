"""The moves of one position, ranked by expected final points (``analyse --position``).

The candidates are the search bot's (:meth:`SearchBot.candidate_moves`: the greedy's
move first, then the best others by one-ply value); each is valued as the move analysis
values a decision (:class:`~cascadia.bots.analysis.Evaluator`): the mean final total of
the seat to move over ``budget`` determinised futures, the rest of the game played by
greedy rollouts. Each future is a game built from the position with its own seed
(:func:`~cascadia.bots.position_game.position_game`): the stack's order, the bag's draws
and any card hidden from the position's viewer are sampled afresh, and every candidate
sees the same futures. The seeds come from the position's text alone, so a ranking is
reproducible. Wipes are not ranked: the moves are those of the market as it stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cascadia.bots.analysis import MAX_BUDGET, Evaluator, future_seeds, move_text
from cascadia.bots.decisions import Move
from cascadia.bots.position_game import position_game, position_id, position_state
from cascadia.bots.search_bot import SearchBot
from cascadia.domain.errors import InvalidOptionError
from cascadia.projections.position import Position

DEFAULT_MOVES = 8
"""Candidate moves ranked by default."""


@dataclass(frozen=True, slots=True)
class RankedMove:
    """A candidate move: its text, its points now and its expected final total."""

    move: Move
    text: str
    immediate: int
    expected: float

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.text, "immediate": self.immediate, "expected": round(self.expected, 2)}


def rank_moves(position: Position, budget: int, moves: int = DEFAULT_MOVES) -> list[RankedMove]:
    """Up to ``moves`` candidate moves of the seat to move, best expected total first
    (ties: the search bot's order); :class:`InvalidOptionError` for a position with no
    move to rank (the game is over, or the pair is already taken) or a bad budget."""
    if not 1 <= budget <= MAX_BUDGET:
        raise InvalidOptionError(f"budget {budget}: need 1 to {MAX_BUDGET} futures a move")
    if moves < 1:
        raise InvalidOptionError(f"moves {moves}: rank at least one")
    to_move = position.to_move
    if to_move is None:
        raise InvalidOptionError("the game is over: there is no move to rank")
    if to_move.taken_tile is not None:
        raise InvalidOptionError("the pair is already taken: rank the moves of a position before the take")
    seeds = future_seeds(position_id(position), position.turn, budget)
    game = position_game(position, seeds[0])
    searcher = SearchBot(seeds[0], to_move.seat, candidates=moves)
    candidates = searcher.candidate_moves(game, searcher.greedy.valuation(game))
    futures = [position_state(position, seed) for seed in seeds]
    evaluator = Evaluator(len(position.names))
    ranked = [
        RankedMove(
            c.move,
            move_text(c.move.commands()),
            c.value,
            sum(
                evaluator.expected_total(f, c.move.commands(), [s])
                for f, s in zip(futures, seeds, strict=True)
            )
            / len(seeds),
        )
        for c in candidates
    ]
    return sorted(ranked, key=lambda r: -r.expected)
