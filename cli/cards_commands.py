"""``cascadia cards [GAME]``: the 21 wildlife scoring cards and what each one scores;
with a game, the cards in play are marked (and the second set of ``two_card_sets``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from cascadia.cli.common import HomeOption, JsonOption, console, load_game, print_json
from cascadia.domain.components import CARD_LETTERS, VARIANT_CARDS, WILDLIFE
from rich import box
from rich.table import Table
from rich.text import Text

SECTIONS = {"bear": "5.3", "elk": "5.4", "salmon": "5.5", "hawk": "5.6", "fox": "5.7"}
"""The section of RULES.md (docs/RULES.md) that defines each species' cards."""

CARD_SCORES: dict[tuple[str, str], str] = {
    ("bear", "A"): "groups of exactly 2 bears: 1, 2, 3, 4+ such pairs score 4, 11, 19, 27",
    ("bear", "B"): "10 for each group of exactly 3 bears",
    ("bear", "C"): "groups of 1, 2, 3 bears score 2, 5, 8; +3 once with a group of each size",
    ("bear", "D"): "groups of 2, 3, 4 bears score 5, 8, 13",
    ("elk", "A"): "straight lines of 1, 2, 3, 4 elk score 2, 5, 9, 13",
    ("elk", "B"): "one elk 2, an adjacent pair 5, a triangle 9, a rhombus of 4 13",
    ("elk", "C"): "connected formations of 1..8+ elk: 2, 4, 7, 10, 14, 18, 23, 28",
    ("elk", "D"): "unbroken arcs of 1..6 elk around one hex: 2, 5, 8, 12, 16, 21",
    ("salmon", "A"): "runs (no salmon touching 3 others) of 1..7+: 2, 5, 8, 12, 16, 20, 25",
    ("salmon", "B"): "runs of 1..5+ salmon: 2, 4, 9, 11, 17",
    ("salmon", "C"): "runs of 3, 4, 5+ salmon: 10, 12, 15; shorter runs score nothing",
    ("salmon", "D"): "each run of 3+: 1 per salmon and 1 per other token touching the run",
    ("hawk", "A"): "hawks touching no other hawk, 1..8+: 2, 5, 8, 11, 14, 18, 22, 26",
    ("hawk", "B"): "lone hawks that see another hawk along a line, 2..8+: 5, 9, 12, 16, 20, 24, 28",
    ("hawk", "C"): "3 per line of sight between two hawks that do not touch",
    ("hawk", "D"): "pairs of hawks in sight: 4, 7, 9 for 1, 2, 3+ species between them",
    ("fox", "A"): "each fox: 1 per species among its neighbours (foxes count)",
    ("fox", "B"): "each fox: 3, 5, 7 for 1, 2, 3 other species with 2+ tokens next to it",
    ("fox", "C"): "each fox: the number of its most common non-fox neighbour species",
    ("fox", "D"): "pairs of adjacent foxes: 5, 7, 9, 11 for 1..4 other species with 2+ "
    "tokens around the pair",
    ("all", "family"): "every species: groups of 1, 2, 3+ of one species score 2, 5, 9",
    ("all", "intermediate"): "every species: groups of 1, 2, 3, 4+ of one species score 0, 5, 8, 12",
}
"""What each of the 21 cards scores, in short (the full text: RULES.md section 5)."""


def all_cards() -> list[dict[str, Any]]:
    """The 21 cards in rule-book order, the variant card as its two sides (Family and
    Intermediate, one row each): species, letter (or side), the rules section and what
    the card scores."""
    cards = [
        {"card": f"{species} {letter}", "species": species, "letter": letter, "rule": SECTIONS[species]}
        for species in WILDLIFE
        for letter in CARD_LETTERS
    ]
    cards += [{"card": name, "species": "all", "letter": name, "rule": "5.8"} for name in VARIANT_CARDS]
    for card in cards:
        card["scores"] = CARD_SCORES[(card["species"], card["letter"])]
    return cards


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
