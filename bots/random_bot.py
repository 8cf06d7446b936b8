"""A bot that plays uniformly random legal moves: the baseline and the rules' fuzzer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from cascadia.bots.base import PlanningBot, bot_stream
from cascadia.domain.commands import (
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.game import Game

T = TypeVar("T")


class RandomBot(PlanningBot):
    """Each decision is a uniform choice among the legal ones: sometimes the optional
    three-of-a-kind wipe, sometimes a nature-token action (a wipe of a random set of
    slots), then any take (:meth:`Game.legal_takes`), any tile placement (one per
    distinct layout, :meth:`Game.legal_tile_placements`: a keystone once, not in its six
    identical rotations), any token target (:meth:`Game.legal_wildlife_targets`) or none.
    Each decision reads only the list it chooses from, in the order
    :meth:`Game.legal_commands` offers it, so its draws are those of the first version of
    this bot and the games it played stay the same (a tile placement is picked by its
    place in that list, :meth:`Game.tile_placements`, without making the list)."""

    name = "random"

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__()
        self._rng = bot_stream(self.name, seed, seat)

    def _pick(self, options: Sequence[T]) -> T:
        return options[self._rng.next(len(options))]

    def _chance(self, one_in: int) -> bool:
        return self._rng.next(one_in) == 0

    def plan(self, game: Game) -> Iterator[Command]:
        if game.can_wipe_three() and self._chance(2):
            yield WipeThree()
        while (actions := game.nature_actions()) and self._chance(3):
            if self._pick(actions) == "wipe":
                size = len(game.state.market_wildlife)
                yield NatureWipe(tuple(s for s in range(size) if self._chance(2)) or (self._rng.next(size),))
            else:
                yield NatureFreeChoice()
        yield Take(*self._pick(game.legal_takes()))
        token_first = self._chance(4)
        if token_first:
            yield self._wildlife(game)
        (q, r), rotation = self._pick(game.tile_placements())
        yield PlaceTile(q, r, rotation)
        if not token_first:
            yield self._wildlife(game)

    def _wildlife(self, game: Game) -> Command:
        """A token target, or (one time in ten, or when there is none) the return."""
        targets = game.legal_wildlife_targets()
        if not targets or self._chance(10):
            return ReturnWildlife()
        return PlaceWildlife(*self._pick(targets))
