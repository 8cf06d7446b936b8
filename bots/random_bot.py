"""A bot that plays uniformly random legal moves: the baseline and the rules' fuzzer."""

from __future__ import annotations

from cascadia.bots.base import bot_stream
from cascadia.domain.game import Game


class RandomBot:
    """Each decision is a uniform choice among the legal ones: sometimes the optional
    three-of-a-kind wipe, sometimes a nature-token action, then any pair (or any tile and
    token after free choice), any open hex and rotation, any legal token target or none."""

    name = "random"

    def __init__(self, seed: int, seat: int) -> None:
        self._rng = bot_stream(self.name, seed, seat)

    def _pick(self, options: list) -> object:
        return options[self._rng.next(len(options))]

    def _chance(self, one_in: int) -> bool:
        return self._rng.next(one_in) == 0

    def play_turn(self, game: Game) -> None:
        if game.can_wipe_three() and self._chance(2):
            game.wipe_three()
        while (actions := game.nature_actions()) and self._chance(3):
            action = self._pick(actions)
            if action == "wipe":
                size = len(game.state.market_wildlife)
                slots = [s for s in range(size) if self._chance(2)] or [self._rng.next(size)]
                game.spend_nature("wipe", slots)
            else:
                game.spend_nature("free_choice")
        tile_slot, wildlife_slot = self._pick(game.legal_takes())
        game.take(tile_slot, wildlife_slot)
        token_first = self._chance(4)
        if token_first:
            self._place_wildlife(game)
        (q, r), rotation = self._pick(game.legal_tile_placements())
        game.place_tile(q, r, rotation)
        if not token_first:
            self._place_wildlife(game)

    def _place_wildlife(self, game: Game) -> None:
        targets = game.legal_wildlife_targets()
        if not targets or self._chance(10):
            game.return_wildlife()
        else:
            game.place_wildlife(*self._pick(targets))
