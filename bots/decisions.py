"""A bot's decisions as values, and the commands that carry them out.

Bots decide (pure reads of the game) and then hand the game command values
(:mod:`cascadia.domain.commands`), so that deciding never depends on how a move is
issued. A turn is zero or more market wipes (:class:`~cascadia.domain.commands.WipeThree`,
:class:`~cascadia.domain.commands.NatureWipe`), each decided after seeing the previous
one's draw, then one :class:`Move`: everything from buying free choice to placing the
token, decided at once.
"""

from __future__ import annotations

from dataclasses import dataclass

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
from cascadia.domain.hexgrid import Hex


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

    def commands(self) -> list[Command]:
        """The commands of this move, in order."""
        found: list[Command] = [NatureFreeChoice()] if self.free_choice else []
        found.append(Take(self.tile_slot, self.wildlife_slot))
        found.append(PlaceTile(self.hex[0], self.hex[1], self.rotation))
        found.append(ReturnWildlife() if self.target is None else PlaceWildlife(*self.target))
        return found


Decision = WipeThree | NatureWipe | Move


def commands_of(decision: Decision) -> list[Command]:
    """The commands that carry out ``decision``."""
    return decision.commands() if isinstance(decision, Move) else [decision]


def issue(game: Game, decision: Decision) -> None:
    """Carry out ``decision`` on ``game`` (each command checks the rules)."""
    for command in commands_of(decision):
        game.execute(command)
