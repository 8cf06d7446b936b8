"""How long a game lasts and where a seat stands in it, read off the state.

RULES.md 4.5: "The game ends at the end of the turn in which the stack cannot refill the
market." Each multiplayer turn refills one market slot from the stack (4.4); a solo turn
also discards the pair farthest from the stack, so it needs two tiles. The number of
turns is therefore known from the stack at any moment: 20 per player in a standard
game, 18 with ``no_starter`` (its opening tiles come out of the stack, RULES.md 7.7),
19 for ``no_starter`` solo. Turns go round the table from the first player (3.6).

Every surface numbers the game the same way, by **rounds**: round ``k`` of ``n`` is the
``k``-th time round the table, in which each seat plays one turn (solo: a round is a
turn), and says whose turn it is beside it ("round 10 of 20, Ann to play").
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


@dataclass(frozen=True, slots=True)
class Round:
    """Round ``number`` of the game's ``of`` rounds (see the module docstring)."""

    number: int
    of: int

    def __str__(self) -> str:
        return f"round {self.number} of {self.of}"

    def to_dict(self) -> dict[str, int]:
        """``{"number", "of"}`` (what ``dataclasses.asdict`` gives, without its deep copy)."""
        return {"number": self.number, "of": self.of}


def round_of_turn(turn: int, players: int) -> int:
    """The round in which game turn ``turn`` (1, 2, ... over all seats) is played."""
    return (turn - 1) // players + 1


def game_round(state: GameState) -> Round:
    """The round being played (the last one once the game is over)."""
    rounds = -(-game_turns(state) // state.player_count)
    return Round(min(round_of_turn(state.turn, state.player_count), rounds), rounds)
