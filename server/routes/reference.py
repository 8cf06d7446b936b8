"""What a client reads to show the game: the options a game may have, the scoring
cards, the full rules."""

from __future__ import annotations

from cascadia.application.documents import document
from cascadia.projections.card_texts import all_cards
from cascadia.server.routes import answer, router
from cascadia.server.schemas import options_catalogue
from fastapi import Response
from fastapi.responses import JSONResponse

routes = router()


@routes.get("/rules.md", include_in_schema=False)
def rules_text() -> Response:
    """The full rules (docs/RULES.md, as ``cascadia rules --full`` prints them), as
    plain text: the how-to-play page links here."""
    return Response(document("rules"), media_type="text/plain; charset=utf-8")


@routes.get("/api/options")
def options() -> JSONResponse:
    return answer(options_catalogue())


@routes.get("/api/cards")
def read_cards() -> JSONResponse:
    return answer({"cards": all_cards()})
