"""Score sheets of games: from a game's state, live (mid-game) or final."""

from __future__ import annotations

from dataclasses import replace

from cascadia.domain.state import GameState
from cascadia.projections.scoresheet import ScoreSheet, score_game


def score_state(state: GameState) -> ScoreSheet:
    """The score sheet of the boards as they stand: the final sheet once the game has
    ended, the running scores before (RULES.md 5, with the game's cards and options,
    the second card set included), in which nobody has won yet."""
    players = state.players
    sheet = score_game(
        [p.environment for p in players],
        [p.nature_tokens for p in players],
        state.cards,
        state.options,
        second_cards=state.second_cards,
    )
    sheet = replace(sheet, rules_version=state.rules_version)
    return sheet if state.finished else sheet.running()
