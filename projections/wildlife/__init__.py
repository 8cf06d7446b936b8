"""The 21 wildlife scoring cards (RULES.md 5.2-5.8) and their registry.

One function per card, each a pure function of the token map ``hex -> species`` (as
in ``Environment.wildlife``) and, where the rules give an option, the game options.
:data:`CARDS` maps ``(species, card)`` to a uniform scorer
``(wildlife, options) -> points``; ``card`` is a letter ``"A".."D"`` or a variant
card ``"family"`` / ``"intermediate"`` (which then scores that species' groups).
:func:`score_wildlife` scores a whole board under one card per species.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cascadia.domain.components import CARD_LETTERS, VARIANT_CARDS, WILDLIFE
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.wildlife.bear import bear_a, bear_b, bear_c, bear_d
from cascadia.projections.wildlife.elk import elk_a, elk_b, elk_c, elk_d
from cascadia.projections.wildlife.fox import fox_a, fox_b, fox_c, fox_d
from cascadia.projections.wildlife.groups import DEFAULT_OPTIONS, Tokens, tokens_of
from cascadia.projections.wildlife.hawk import hawk_a, hawk_b, hawk_c, hawk_d
from cascadia.projections.wildlife.salmon import salmon_a, salmon_b, salmon_c, salmon_d
from cascadia.projections.wildlife.variants import family, intermediate

CardScorer = Callable[[Mapping[Hex, str], GameOptions], int]
"""A card as a uniform function of the token map and the game options."""


def _without_options(card: Callable[[Mapping[Hex, str]], int]) -> CardScorer:
    def scorer(wildlife: Mapping[Hex, str], options: GameOptions) -> int:
        return card(wildlife)

    scorer.__doc__ = card.__doc__
    scorer.__name__ = card.__name__
    return scorer


def _variant(card: Callable[[Mapping[Hex, str], str], int], species: str) -> CardScorer:
    def scorer(wildlife: Mapping[Hex, str], options: GameOptions) -> int:
        return card(wildlife, species)

    scorer.__doc__ = card.__doc__
    scorer.__name__ = f"{card.__name__}_{species}"
    return scorer


_LETTER_CARDS: dict[str, tuple[CardScorer, ...]] = {
    "bear": tuple(_without_options(c) for c in (bear_a, bear_b, bear_c, bear_d)),
    "elk": (*(_without_options(c) for c in (elk_a, elk_b, elk_c)), elk_d),
    "salmon": (salmon_a, salmon_b, salmon_c, salmon_d),
    "hawk": tuple(_without_options(c) for c in (hawk_a, hawk_b, hawk_c, hawk_d)),
    "fox": tuple(_without_options(c) for c in (fox_a, fox_b, fox_c, fox_d)),
}

CARDS: Mapping[tuple[str, str], CardScorer] = {
    **{
        (species, letter): scorer
        for species, scorers in _LETTER_CARDS.items()
        for letter, scorer in zip(CARD_LETTERS, scorers, strict=True)
    },
    **{
        (species, name): _variant(variant, species)
        for species in WILDLIFE
        for name, variant in zip(VARIANT_CARDS, (family, intermediate), strict=True)
    },
}
"""``(species, card) -> scorer`` for the 20 letter cards and the variant card per species."""

_BY_SPECIES: Mapping[str, Mapping[str, CardScorer]] = {
    species: {card: scorer for (of, card), scorer in CARDS.items() if of == species} for species in WILDLIFE
}
"""``species -> card -> scorer``: :data:`CARDS` as :func:`score_wildlife` reads it (a lookup
by two names is cheaper than building and hashing the pair)."""


def normalise_card(card: str) -> str:
    """``"a"`` -> ``"A"``, ``"Family"`` -> ``"family"``; raises ``ValueError`` otherwise."""
    name = card.strip()
    if name.upper() in CARD_LETTERS:
        return name.upper()
    if name.lower() in VARIANT_CARDS:
        return name.lower()
    raise ValueError(f"unknown scoring card {card!r}: expected A-D, family or intermediate")


def card_scorer(species: str, card: str) -> CardScorer:
    """The scorer of ``species`` under ``card`` (``"A".."D"``, ``"family"``, ``"intermediate"``)."""
    scorer = CARDS.get((species, card))  # already a card name as spelled in CARDS
    if scorer is not None:
        return scorer
    if species not in WILDLIFE:
        raise ValueError(f"unknown wildlife {species!r}")
    return CARDS[(species, normalise_card(card))]


def score_card(
    wildlife: Mapping[Hex, str], species: str, card: str, options: GameOptions = DEFAULT_OPTIONS
) -> int:
    """Points for ``species`` under ``card``."""
    return card_scorer(species, card)(wildlife, options)


def score_wildlife(
    wildlife: Mapping[Hex, str], cards: Mapping[str, str], options: GameOptions = DEFAULT_OPTIONS
) -> dict[str, int]:
    """Points per species (in ``WILDLIFE`` order) under ``cards`` (species -> card)."""
    tokens = tokens_of(wildlife)
    found = {}
    for species in WILDLIFE:
        card = cards.get(species)
        if card is None:
            missing = [species for species in WILDLIFE if species not in cards]
            raise ValueError(f"no scoring card for {', '.join(missing)}")
        found[species] = (_BY_SPECIES[species].get(card) or card_scorer(species, card))(tokens, options)
    return found


__all__ = [
    "CARDS",
    "CardScorer",
    "Tokens",
    "bear_a",
    "bear_b",
    "bear_c",
    "bear_d",
    "card_scorer",
    "elk_a",
    "elk_b",
    "elk_c",
    "elk_d",
    "family",
    "fox_a",
    "fox_b",
    "fox_c",
    "fox_d",
    "hawk_a",
    "hawk_b",
    "hawk_c",
    "hawk_d",
    "intermediate",
    "normalise_card",
    "salmon_a",
    "salmon_b",
    "salmon_c",
    "salmon_d",
    "score_card",
    "score_wildlife",
    "tokens_of",
]
