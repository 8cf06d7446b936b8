"""Brute force over a position: every legal move of the active player, scored in full.

Used by the bot tests to check that a bot's choice is the best by its stated
objective. Every move is played with the game's own commands on a copy (so only
legal moves are tried) and the board is scored by the real scoring projection
(:func:`~cascadia.projections.game_scores.score_state`, majorities included).
"""

from __future__ import annotations

from collections.abc import Iterator

from cascadia.bots.decisions import Move, issue
from cascadia.domain.game import Game
from cascadia.projections.game_scores import score_state


def own_total(game: Game, seat: int) -> int:
    return score_state(game.state).players[seat].total


def legal_moves(game: Game, free_choice: bool = True) -> Iterator[Move]:
    """Every move of the active player from a position before taking: each take (with
    free choice bought first, when affordable and ``free_choice``), each legal tile
    placement, each legal token target or the token returned."""
    buys = [False]
    if free_choice and "free_choice" in game.nature_actions():
        buys.append(True)
    for buy in buys:
        probe = Game(game.state.copy())
        if buy:
            probe.spend_nature("free_choice")
        for tile_slot, wildlife_slot in probe.legal_takes():
            if buy and tile_slot == wildlife_slot:
                continue  # the same as the pair without buying, one token poorer
            taken = Game(probe.state.copy())
            taken.take(tile_slot, wildlife_slot)
            for (q, r), rotation in taken.legal_tile_placements():
                placed = Game(taken.state.copy())
                placed.place_tile(q, r, rotation)
                for target in [None, *placed.legal_wildlife_targets()]:
                    yield Move(tile_slot, wildlife_slot, buy, (q, r), rotation, target)


def total_after(game: Game, move: Move) -> int:
    """The active player's total after ``move``, played on a copy of ``game``."""
    seat = game.current_player
    probe = Game(game.state.copy())
    issue(probe, move)
    return own_total(probe, seat)


def best_total(game: Game, free_choice: bool = True) -> int:
    """The highest total the active player can reach with one move."""
    return max(total_after(game, move) for move in legal_moves(game, free_choice))
