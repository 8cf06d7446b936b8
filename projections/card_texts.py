"""What each of the 21 wildlife scoring cards scores, in short: the one copy of the card
texts that ``cascadia cards`` prints and the game server serves (``GET /api/cards``) to
the browser pages, which show a card's text on hover and on tap."""

from __future__ import annotations

from typing import Any

from cascadia.domain.components import CARD_LETTERS, VARIANT_CARDS, WILDLIFE

SECTIONS = {"bear": "5.3", "elk": "5.4", "salmon": "5.5", "hawk": "5.6", "fox": "5.7"}
"""The section of RULES.md (docs/RULES.md) that defines each species' cards."""

VARIANT_SECTION = "5.8"
"""The section of RULES.md that defines the variant card (family and intermediate)."""

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
    cards += [
        {"card": name, "species": "all", "letter": name, "rule": VARIANT_SECTION} for name in VARIANT_CARDS
    ]
    for card in cards:
        card["scores"] = CARD_SCORES[(card["species"], card["letter"])]
    return cards
