"""The table scorer's answer (docs/BOARD.md, the page ``/table.html``): a board text's score
sheet, its boards hex by hex, and what scored on each, as plain data.

The sheet is the one ``cascadia score --board`` prints (:func:`score_table`, the scorer of
every game); the boards come back as the page draws them (each hex's habitats written as
in the text: ``M`` or ``M/F@E``) and the text as :func:`table_text` writes it.
"""

from __future__ import annotations

from typing import Any

from cascadia.projections.board_text import (
    SCORING_OPTIONS,
    BoardPlayer,
    BoardTable,
    hex_habitats,
    option_text,
    parse_boards,
    score_table,
    table_text,
)
from cascadia.projections.scored_cells import scored_cells
from cascadia.projections.scoresheet import named_sheet

TABLE_FILE = "table.txt"
"""The name a pasted or posted board text goes by in its errors (``table.txt:3:7: ...``)."""


def table_score(text: str) -> dict[str, Any]:
    """The answer for the board text ``text``: ``sheet`` (:func:`named_sheet`, final),
    ``scored`` (per seat, :func:`scored_cells` under the card set that scored the player),
    ``table`` (cards, second cards, scoring options, players with their hexes) and
    ``text`` (the same table written back). Raises
    :class:`~cascadia.projections.board_text.BoardTextError` for a text that cannot be read."""
    table = parse_boards([(TABLE_FILE, text)])
    sheet = score_table(table)
    scored = [
        scored_cells(
            player.environment,
            table.second_cards if line.card_set and table.second_cards else table.cards,
            table.options,
        ).to_dict()
        for player, line in zip(table.players, sheet.players, strict=True)
    ]
    return {
        "sheet": named_sheet(sheet, [p.name for p in table.players]),
        "scored": scored,
        "table": table_data(table),
        "text": table_text(table),
    }


def table_data(table: BoardTable) -> dict[str, Any]:
    """``table`` as plain data: cards, second cards, the scoring options by name (as the
    text writes them), and each player's name, nature tokens and hexes."""
    return {
        "cards": dict(table.cards),
        "second_cards": dict(table.second_cards) if table.second_cards is not None else None,
        "options": {name: option_text(table.options, name) for name in SCORING_OPTIONS},
        "players": [player_data(p) for p in table.players],
    }


def player_data(player: BoardPlayer) -> dict[str, Any]:
    """One player: ``name``, ``nature`` and ``hexes`` ``[{q, r, habitats, token}]``."""
    environment = player.environment
    return {
        "name": player.name,
        "nature": player.nature_tokens,
        "hexes": [
            {
                "q": q,
                "r": r,
                "habitats": hex_habitats(*environment.tiles[(q, r)]),
                "token": environment.wildlife.get((q, r)),
            }
            for q, r in sorted(environment.tiles, key=lambda h: (h[1], h[0]))
        ],
    }
