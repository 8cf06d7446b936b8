"""Each seat's score as the boards stand, kept up to date step by step for the
environments' rewards: the totals of :func:`~cascadia.projections.game_scores.score_state`,
from the same scoring functions, with only what a step changed scored again."""

from __future__ import annotations

from cascadia.domain.components import HABITATS
from cascadia.domain.state import GameState
from cascadia.projections.habitats import corridor_sizes, habitat_bonuses, habitat_points, largest_corridors
from cascadia.projections.scoresheet import player_total, seat_wildlife


class RunningTotals:
    """The totals of one game's seats. Tiles and tokens never move (RULES.md 4.3), so a
    board with as many tokens as when last scored has the same wildlife points, and one
    with as many tiles the same corridors: a seat's wildlife is scored again when its
    token count changes, its corridors when its tile count does, and the habitat bonuses
    (which compare every seat's corridors) when any seat's corridors change."""

    def __init__(self, seats: int) -> None:
        self._tokens_scored = [-1] * seats
        self._tiles_scored = [-1] * seats
        self._wildlife: list[dict[str, int]] = [{}] * seats
        self._largest: list[dict[str, int]] = [{}] * seats
        self._habitats: list[dict[str, int]] = [{}] * seats
        self._bonuses: list[dict[str, int]] = [{}] * seats

    def totals(self, state: GameState) -> list[int]:
        """Each seat's total in ``state`` (a state of the game these totals follow)."""
        options = state.options
        corridors_changed = False
        for seat, player in enumerate(state.players):
            board = player.environment
            if len(board.wildlife) != self._tokens_scored[seat]:
                self._tokens_scored[seat] = len(board.wildlife)
                self._wildlife[seat], _ = seat_wildlife(
                    board.wildlife, state.cards, options, state.second_cards
                )
            if len(board.tiles) != self._tiles_scored[seat]:
                self._tiles_scored[seat] = len(board.tiles)
                sizes = corridor_sizes(board)
                self._largest[seat] = largest_corridors(board)
                self._habitats[seat] = {h: habitat_points(sizes[h], options) for h in HABITATS}
                corridors_changed = True
        if corridors_changed:
            self._bonuses = habitat_bonuses(self._largest, options)
        return [
            player_total(
                self._wildlife[seat], self._habitats[seat], self._bonuses[seat], player.nature_tokens
            )
            for seat, player in enumerate(state.players)
        ]
