"""What a client reads to show the game: the options a game may have, the scoring
cards, the full rules; and the table scorer's score sheet of boards written down."""

from __future__ import annotations

from cascadia.application.documents import document
from cascadia.projections.board_text import BoardTextError
from cascadia.projections.card_texts import all_cards
from cascadia.projections.table_scorer import table_score
from cascadia.server.problems import Problem
from cascadia.server.routes import answer, router
from cascadia.server.schemas import BoardTextIn, options_catalogue
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


@routes.post("/api/score/board")
def score_board(body: BoardTextIn) -> JSONResponse:
    """The score sheet of a table's boards written as board text (docs/BOARD.md), with
    what scored on each board, the boards hex by hex and the text written back; a text
    that cannot be read is a 422 ``invalid-board`` naming its line and column."""
    try:
        return answer(table_score(body.text))
    except BoardTextError as error:
        raise Problem(
            422,
            "invalid-board",
            "Invalid board text",
            str(error),
            line=error.where.line,
            column=error.where.column,
            message=error.message,
        ) from None
