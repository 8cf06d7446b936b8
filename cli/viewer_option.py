"""``--as-player``: whose view of a game a command shows (see projections/player_view.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from cascadia.domain.state import GameState
from cascadia.projections.player_view import EVERYTHING, SPECTATOR, Viewer, check_viewer

AsPlayerOption = Annotated[
    str | None,
    typer.Option(
        "--as-player",
        help=f"Show only what this seat (a number, or {SPECTATOR!r}) may see: no seed, no hidden card.",
    ),
]


def viewer_of(as_player: str | None, state: GameState) -> Viewer:
    """The viewer ``--as-player`` names (none: everything the log holds); a bad value
    raises :class:`~cascadia.domain.errors.InvalidOptionError`."""
    if as_player is None:
        return EVERYTHING
    text = as_player.strip().lower()
    return check_viewer(state, int(text) if text.lstrip("-").isdigit() else text)
