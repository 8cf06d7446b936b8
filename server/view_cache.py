"""The views the server rendered lately, one per game and viewer (a seat, or ``None`` for
a spectator), each with the versions it was rendered at.

A view of a game at one version of its events and one version of its server record
never changes (the record holds the seats' kinds and handovers): a client that reads
its view again after each command, and its opponent that reads the same version, get
the rendered one. What depends on the time (a turn's seconds left) is not part of it:
the service adds that to each answer. The key holds the viewer, so no viewer is ever
served another's view; a finished game's view (everything public) is a later version.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from cascadia.application.recent import Recent

VIEWS_KEPT = 1000
"""How many views a process keeps (a few tens of kB each): a few per game in play."""


@dataclass(frozen=True)
class RenderedView:
    """One viewer's view of a game at ``version`` (the game's) and ``record_version``
    (its server record's), as JSON text but for its turn's seconds left, which go between
    ``head`` (what a list of games says of it: an object without its closing brace) and
    ``tail`` (the state as the viewer sees it, the seat, its legal commands, whether a
    bot is to move: members without the opening brace)."""

    version: int
    record_version: int
    head: str
    tail: str
    finished: bool
    human_to_move: bool
    """whether a human seat is to move (then its turn's clock runs)"""
    bot_to_move: bool

    def text(self, seconds_left: int | None) -> str:
        """The view's JSON with its turn's ``seconds_left`` (``null`` for ``None``)."""
        left = "null" if seconds_left is None else str(seconds_left)
        return f'{self.head},"turn_seconds_left":{left},{self.tail}'

    def versions(self) -> tuple[int, int]:
        """The versions it was rendered at (the later of two views is the one kept)."""
        return self.version, self.record_version


class ViewCache:
    """The latest rendered view of the ``size`` most recently read (game, viewer) pairs."""

    def __init__(self, size: int = VIEWS_KEPT) -> None:
        self._views: Recent[tuple[UUID, int | None], RenderedView] = Recent(size, order=RenderedView.versions)

    def get(
        self, game_id: UUID, viewer: int | None, version: int, record_version: int
    ) -> RenderedView | None:
        """The view ``viewer`` was served of the game at these versions (``None``: none kept)."""
        view = self._views.get((game_id, viewer))
        if view is None or view.versions() != (version, record_version):
            return None
        return view

    def keep(self, game_id: UUID, viewer: int | None, view: RenderedView) -> None:
        """Keep ``view`` as the viewer's latest, unless a later one is kept already."""
        self._views.put((game_id, viewer), view)
