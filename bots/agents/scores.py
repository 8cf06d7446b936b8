"""Each seat's score as the boards stand, kept up to date step by step for the
environments' rewards: the totals of :func:`~cascadia.projections.game_scores.score_state`,
from the same scoring functions, with only what a step changed scored again."""

from __future__ import annotations

from collections.abc import Sequence

from cascadia.domain.components import HABITATS
from cascadia.domain.state import GameState
from cascadia.projections.habitats import CorridorIndex, habitat_bonuses, habitat_points
from cascadia.projections.scoresheet import player_total, seat_wildlife


class RunningTotals:
    """The totals of one game's seats. Tiles and tokens never move (RULES.md 4.3), so a
    board with as many tokens as when last scored has the same wildlife points, and one
    with as many tiles the same corridors: a seat's wildlife is scored again when its
    token count changes, its corridors when its tile count does (from its
    :class:`~cascadia.projections.habitats.CorridorIndex`, kept up to date tile by tile),
    and the habitat bonuses (which compare every seat's largest corridors) when one of
    those changes."""

    def __init__(self, seats: int) -> None:
        self._tokens_scored = [-1] * seats
        self._tiles_scored = [-1] * seats
        self._wildlife: list[dict[str, int]] = [{}] * seats
        self._habitats: list[dict[str, int]] = [{}] * seats
        self._largest: list[dict[str, int]] = [{}] * seats
        self._bonuses_of: list[dict[str, int]] = []
        """The largest corridors the bonuses were worked out for."""
        self._bonuses: list[dict[str, int]] = []

    def totals(self, state: GameState, seats: Sequence[int] | None = None) -> list[int]:
        """The totals of ``seats`` (every seat by default), in that order, in ``state`` (a
        state of the game these totals follow). Only those seats' wildlife is scored; every
        seat's corridors are, for the habitat bonuses."""
        players = state.players
        options = state.options
        for seat, player in enumerate(players):
            board = player.environment
            if len(board.tiles) != self._tiles_scored[seat]:
                self._tiles_scored[seat] = len(board.tiles)
                corridors = CorridorIndex.of(board)
                self._largest[seat] = corridors.largest()
                sizes = corridors.sizes()
                self._habitats[seat] = {h: habitat_points(sizes[h], options) for h in HABITATS}
        if self._largest != self._bonuses_of:
            self._bonuses_of = list(self._largest)
            self._bonuses = habitat_bonuses(self._largest, options)
        found = []
        for seat in range(len(players)) if seats is None else seats:
            board = players[seat].environment
            if len(board.wildlife) != self._tokens_scored[seat]:
                self._tokens_scored[seat] = len(board.wildlife)
                self._wildlife[seat], _ = seat_wildlife(
                    board.wildlife, state.cards, options, state.second_cards
                )
            found.append(
                player_total(
                    self._wildlife[seat],
                    self._habitats[seat],
                    self._bonuses[seat],
                    players[seat].nature_tokens,
                )
            )
        return found
