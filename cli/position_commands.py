"""``cascadia position``: the position notation (docs/POSITION.md) of a stored game."""

from __future__ import annotations

from typing import Annotated

import typer
from cascadia.application.documents import document
from cascadia.cli.common import HomeOption, console, load_game
from cascadia.cli.viewer_option import AsPlayerOption, viewer_of
from cascadia.domain.errors import InvalidOptionError
from cascadia.projections.position import format_position


def position(
    game: Annotated[str | None, typer.Argument(help="Game id (or its first characters).")] = None,
    turn: Annotated[
        int | None,
        typer.Option("--turn", "-t", help="The position at the end of this turn (0: after setup)."),
    ] = None,
    as_player: AsPlayerOption = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Print the notation's definition (POSITION.md) and exit.")
    ] = False,
    home: HomeOption = None,
) -> None:
    """Print a stored game's position in one line: boards, market, bag and stack, whose
    decision it is, cards, nature tokens and turn (docs/POSITION.md). As a seat or a
    spectator (--as-player) it hides what they may not see; `cascadia analyse
    --position TEXT` ranks its moves; --explain prints how the notation is defined."""
    if explain:
        console.print(document("position"), markup=False, highlight=False)
        return
    if game is None:
        raise InvalidOptionError("name a game (its id or first characters), or ask for --explain")
    _, state = load_game(game, home, turn)
    console.print(format_position(state, viewer_of(as_player, state)), markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("position", short_help="Print a stored game's position in the position notation.")(position)
