"""How long a game lasts and where a seat stands in it, read off the state.

RULES.md 4.5: "The game ends at the end of the turn in which the stack cannot refill the
market." Each multiplayer turn refills one market slot from the stack (4.4); a solo turn
also discards the pair farthest from the stack, so it needs two tiles. The number of
turns is therefore known from the stack at any moment: 20 per player in a standard
game, 18 with ``no_starter`` (its opening tiles come out of the stack, RULES.md 7.7),
19 for ``no_starter`` solo. Turns go round the table from the first player (3.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from cascadia.domain.state import GameState


def game_turns(state: GameState) -> int:
    """The number of turns of the whole game (over all players), counted from the stack."""
    if state.finished:
        return state.turn
    tiles_per_turn = 2 if state.is_solo else 1
    return state.turn - 1 + state.stack_size // tiles_per_turn + 1


def seat_of_turn(state: GameState, turn: int) -> int:
    """The seat that plays game turn ``turn`` (1, 2, ...)."""
    return (state.first_player + turn - 1) % state.player_count


@dataclass(frozen=True, slots=True)
class SeatTurn:
    """A seat's own turn: the ``number``-th of its ``of`` turns in this game."""

    number: int
    of: int


def seat_turn(state: GameState, seat: int | None = None) -> SeatTurn:
    """Which of its own turns ``seat`` (default: the seat to play) is at: the turn in
    progress when it is that seat's, else the last one it played."""
    seat = state.current if seat is None else seat
    total = game_turns(state)
    played = min(state.turn, total)
    mine = sum(1 for t in range(1, total + 1) if seat_of_turn(state, t) == seat)
    done = sum(1 for t in range(1, played + 1) if seat_of_turn(state, t) == seat)
    return SeatTurn(done, mine)
