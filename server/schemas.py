"""The shapes of the HTTP API's requests and answers (server/API.md).

Request bodies are pydantic models, strict and closed (no unknown member, no number
spelled as text); answers that the rules' constants shape (the options a game may have,
a seat's join link) are built here too, so that the routes name no rule.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from cascadia.application.setup import MAX_PLAYERS, setup_choices
from cascadia.domain.achievement_map import MAX_MAP_PLAYERS, STANDARD_MODE
from cascadia.domain.components import TILES
from cascadia.domain.options import RESTRICTIONS
from cascadia.server.numbers import MAX_NUMBER
from cascadia.server.problems import Problem
from cascadia.server.turn_clock import HANDOVER_BOT
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr | None = Field(None, min_length=1, max_length=24)
    bot: StrictStr | None = Field(None, min_length=1, max_length=40)


class OptionsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: StrictStr = Field("random", max_length=40)
    balanced_bag: StrictBool = False
    salmon_runs: StrictStr = Field("strict", max_length=20)
    elk_rings: StrictStr = Field("arc", max_length=20)
    majority_bonus: StrictBool = True
    rules: list[StrictStr] = Field(default_factory=list, max_length=len(RESTRICTIONS))
    achievement_mode: StrictStr | None = Field(None, max_length=40)


class CreateGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_PLAYERS)
    options: OptionsIn = Field(default_factory=OptionsIn)
    map_id: StrictStr | None = Field(None, max_length=40)
    turn_seconds: StrictInt | None = Field(None, ge=-MAX_NUMBER, le=MAX_NUMBER)

    def options_for(self, map_id: UUID | None) -> dict[str, Any]:
        """The game's options as sent, for the map ``map_id`` (or none): a game for a map
        is played for achievements (the standard mode unless another is named), and only
        a game for a map is (422 ``invalid-options`` otherwise)."""
        options = self.options.model_dump()
        if map_id is None and options["achievement_mode"] is not None:
            raise Problem(
                422,
                "invalid-options",
                "Invalid game",
                "a game is played for achievements on a map: give map_id",
            )
        if map_id is not None and options["achievement_mode"] is None:
            options["achievement_mode"] = STANDARD_MODE
        return options


class CreateMapIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(min_length=1, max_length=60)
    players: list[StrictStr] = Field(default_factory=list, max_length=MAX_MAP_PLAYERS)


class HandToBotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: StrictStr = Field(HANDOVER_BOT, min_length=1, max_length=40)


class MarkIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    achievement: StrictStr = Field(min_length=1, max_length=40)
    seat: StrictInt | None = Field(None, ge=0, le=MAX_NUMBER)
    expected_version: StrictInt | None = Field(None, ge=0, le=MAX_NUMBER)


class BoardTextIn(BaseModel):
    """The boards of a table written down (docs/BOARD.md), every player in one text."""

    model_config = ConfigDict(extra="forbid")
    text: StrictStr


class CommandIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    command: dict[str, Any]
    expected_version: StrictInt = Field(ge=0, le=MAX_NUMBER)


def options_catalogue() -> dict[str, Any]:
    """The answer of ``GET /api/options``: what a new game may have and how the choices
    combine (the application's :func:`~cascadia.application.setup.setup_choices`), and
    the tiles a client may show."""
    tiles = [{"id": t.id, "habitats": list(t.habitats), "wildlife": list(t.wildlife)} for t in TILES]
    return {**setup_choices(), "tiles": tiles}


def join_link(game_id: UUID, seat: int, token: str) -> str:
    """A seat's join link: its token in the fragment, which browsers never send."""
    return f"/play.html?game={game_id}&seat={seat}#token={token}"
