"""``cascadia cards [GAME]``: the 21 wildlife scoring cards and what each one scores;
with a game, the cards in play are marked (and the second set of ``two_card_sets``)."""

from __future__ import annotations

from typing import Annotated

import typer
from cascadia.cli.common import HomeOption, JsonOption, console, load_game, print_json
from cascadia.domain.components import VARIANT_CARDS
from cascadia.projections.card_texts import all_cards
from rich import box
from rich.table import Table
from rich.text import Text


def in_play(cards: dict[str, str], second: dict[str, str] | None) -> dict[str, str]:
    """``card name -> mark`` for a game's cards: ``1`` for the (first) set, ``2`` for the
    second set of ``two_card_sets``; a variant card is one card for every species."""
    marks: dict[str, str] = {}
    for number, chosen in (("1", cards), ("2", second or {})):
        for species, letter in chosen.items():
            name = letter if letter in VARIANT_CARDS else f"{species} {letter}"
            marks[name] = number
    return marks


def cards(
    game: Annotated[
        str | None,
        typer.Argument(
            help="A stored game (id or its first characters): mark its cards.", show_default=False
        ),
    ] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """The 21 wildlife scoring cards and what each scores (RULES.md 5).

    A to D for each species, and the variant card, whose two sides (family,
    intermediate) each score every species.

    With GAME, the five cards in play are marked "1" (and the second set of
    two_card_sets "2"); the game's cards come first."""
    rows = all_cards()
    title = "Scoring cards: A-D per species, and the two sides of the variant card"
    if game is not None:
        _, state = load_game(game, home)
        marks = in_play(state.cards, state.second_cards)
        for row in rows:
            row["set"] = marks.get(row["card"])
        rows.sort(key=lambda row: row["set"] or "3")
        title = f"Scoring cards of game {state.game_id}"
    if json_output:
        print_json(rows)
        return
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
    table.add_column("card", no_wrap=True)
    if game is not None:
        table.add_column("set", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("scores", ratio=1)  # wraps between words, never cut
    for row in rows:
        marked = [row["set"] or ""] if game is not None else []
        table.add_row(row["card"], *marked, row["rule"], Text(row["scores"]))
    console.print(table)
    if game is not None:
        console.print("set: 1 = the cards in play, 2 = the second set (two_card_sets)", markup=False)


def register(app: typer.Typer) -> None:
    app.command("cards", short_help="The 21 wildlife scoring cards, or a game's five.")(cards)
