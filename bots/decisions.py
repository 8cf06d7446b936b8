"""A bot's decisions as values, and the one place that issues them on a game.

Bots decide (pure reads of the game) and this module acts, so that deciding never
depends on how a move is issued. A turn is zero or more market wipes, each decided
after seeing the previous one's draw, then one :class:`Move`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex


@dataclass(frozen=True, slots=True)
class WipeThree:
    """The optional three-of-a-kind wipe (RULES.md 4.1)."""


@dataclass(frozen=True, slots=True)
class NatureWipe:
    """Spend nature tokens to wipe the market tokens of ``slots`` (RULES.md 4.2)."""

    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """Take and place (RULES.md 4.2-4.3): free choice bought first when ``free_choice``;
    ``target`` is where the token goes, ``None`` to return it."""

    tile_slot: int
    wildlife_slot: int
    free_choice: bool
    hex: Hex
    rotation: int
    target: Hex | None


Decision = WipeThree | NatureWipe | Move


def issue(game: Game, decision: Decision) -> None:
    """Carry out ``decision`` on ``game`` with its commands (each checks the rules)."""
    if isinstance(decision, WipeThree):
        game.wipe_three()
    elif isinstance(decision, NatureWipe):
        game.spend_nature("wipe", list(decision.slots))
    else:
        if decision.free_choice:
            game.spend_nature("free_choice")
        game.take(decision.tile_slot, decision.wildlife_slot)
        game.place_tile(decision.hex[0], decision.hex[1], decision.rotation)
        if decision.target is None:
            game.return_wildlife()
        else:
            game.place_wildlife(*decision.target)
