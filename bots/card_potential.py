"""The potential of a position under any cards: the points a player will still score.

:mod:`cascadia.bots.potential` describes a board by its features and weighs them with
coefficients fitted on games with the A cards and no majority bonuses only. This module
extends the same features to every card of every species and to the habitat majority
bonuses, as a linear model built of blocks:

- a *shared* block, for what every game scores alike (corridors, open hexes and edges,
  nature tokens, open keystones, the turns left), one set of coefficients without the
  majority bonuses and one with them (RULES.md 5.1: the bonuses go to the largest
  corridors of each habitat, so the model then also reads, per habitat, the player's
  largest corridor minus the largest of any other player: their lead);
- one *species* block per species and card in play (A-D and the variant cards), for the
  features of that species: its open slots, the most a token of it would score now and
  on how many slots (read through the card in play, so they mean what that card
  scores), and the shapes the A cards reward (lone bears with a pair waiting, elk line
  ends, salmon run ends, hawk slots touching no hawk, fox slots with many species
  around), whose worth under another card is what the fit finds it to be.

Each feature enters twice, alone and times the fraction of the player's turns still to
play (as in :mod:`~cascadia.bots.potential`). The games with the A cards and no majority
bonuses keep the model fitted for them alone (:func:`estimate` takes it there, so the
search bot's moves in those games are unchanged); every other game of two to four
players with one card set uses this one. Solo games and two card sets are not covered
(:func:`covers`).

The coefficients (:mod:`cascadia.bots.card_potential_coefficients`) are written by
``cascadia train`` (:mod:`cascadia.application.training`).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from typing import Any

from cascadia.bots import card_potential_coefficients as fitted
from cascadia.bots.potential import BASE_FEATURES, applies, evaluate, features, turns_left
from cascadia.bots.valuation import CardCache
from cascadia.domain.components import CARD_LETTERS, HABITATS, TURNS_PER_PLAYER, VARIANT_CARDS, WILDLIFE
from cascadia.domain.state import GameState
from cascadia.projections.habitats import largest_corridors
from cascadia.replays.format import read_regular

CARDS: tuple[str, ...] = (*CARD_LETTERS, *VARIANT_CARDS)
"""The cards a species may be scored by, each with a block of its own."""

SCORING: tuple[str, ...] = ("none", "majority")
"""The shared block's two sets of coefficients: without and with majority bonuses."""

SHARED_FEATURES: tuple[str, ...] = (
    "empty_tiles",
    "nature_tokens",
    "open_keystones",
    *(f"largest_{h}" for h in HABITATS),
    *(f"frontier_{h}" for h in HABITATS),
    *(f"open_edges_{h}" for h in HABITATS),
    "open_hexes",
)
"""The board's features that no wildlife card reads."""

LEAD_FEATURES: tuple[str, ...] = tuple(f"lead_{h}" for h in HABITATS)
"""With majority bonuses: per habitat, the largest corridor minus the others' largest."""

SHAPES: dict[str, tuple[str, ...]] = {
    "bear": ("bear_lone", "bear_waiting"),
    "elk": ("elk_extensions", "elk_lines"),
    "salmon": ("salmon_run_ends",),
    "hawk": ("hawk_free_slots",),
    "fox": ("fox_best_slot", "fox_slots_rich"),
}
"""The shapes of each species that :mod:`~cascadia.bots.potential` reads."""

SPECIES_FEATURES: dict[str, tuple[str, ...]] = {
    s: (f"open_{s}", f"best_gain_{s}", f"gaining_slots_{s}", *SHAPES[s]) for s in WILDLIFE
}
"""Each species' features, weighed by the coefficients of the card in play."""

_INDEX = {name: i for i, name in enumerate(BASE_FEATURES)}
_SHARED_AT = tuple(_INDEX[name] for name in SHARED_FEATURES)
_SPECIES_AT = {s: tuple(_INDEX[name] for name in names) for s, names in SPECIES_FEATURES.items()}


def shared_names(scoring: str) -> tuple[str, ...]:
    """The terms of the shared block for ``scoring`` (``none`` or ``majority``)."""
    plain = SHARED_FEATURES + (LEAD_FEATURES if scoring == "majority" else ())
    return ("turns", "turns_squared", *plain, *(f"{n}*turns" for n in plain))


def species_names(species: str) -> tuple[str, ...]:
    """The terms of a species block."""
    plain = SPECIES_FEATURES[species]
    return (*plain, *(f"{n}*turns" for n in plain))


def covers(state: GameState) -> bool:
    """Whether a potential is known for this game: two or more players and one card set
    (A-D or a variant card per species). Solo games are not covered: the model is fitted
    on 4-player games, and in solo (no majority, a bonus for corridors of 7) the one-ply
    bot on it scored 81.7 against the greedy's 89.0 (docs/BENCHMARKS.md). Two card sets
    are not covered either."""
    return not state.is_solo and not (state.options.two_card_sets and state.second_cards)


MAX_MODULE_BYTES = 1 << 20
"""The largest coefficients module :meth:`CardModel.read` reads (the package's is 16 kB)."""

Block = tuple[str, str]
"""A block's key: ``("shared", scoring)`` or ``(species, card)``."""


@dataclass(frozen=True)
class CardModel:
    """The coefficients of a card potential: the shared blocks by scoring, the species
    blocks by species and card (the module ``cascadia train`` writes holds one)."""

    shared: dict[str, tuple[float, ...]]
    species: dict[str, dict[str, tuple[float, ...]]]

    def coefficients(self, key: Block) -> tuple[float, ...]:
        """The coefficients of a block."""
        kind, which = key
        return self.shared[which] if kind == "shared" else self.species[kind][which]

    def value(self, blocks: dict[Block, list[float]]) -> float:
        """The linear model on a position's terms (:func:`terms`)."""
        total = 0.0
        for key, values in blocks.items():
            for value, coefficient in zip(values, self.coefficients(key), strict=True):
                if value:
                    total += value * coefficient
        return total

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> CardModel:
        """The model of a coefficients module written by ``cascadia train``, read as data
        (its ``SHARED`` and ``SPECIES`` literals), never run; the file is opened as every
        user-named file is (a regular file of at most :data:`MAX_MODULE_BYTES`)."""
        found: dict[str, Any] = {}
        source = read_regular(path, "coefficients module", MAX_MODULE_BYTES).decode()
        for node in ast.parse(source, filename=str(path)).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                found[node.target.id] = ast.literal_eval(node.value)
        if {"SHARED", "SPECIES"} - set(found):
            raise ValueError(f"{path}: not a card potential module (no SHARED and SPECIES)")
        return cls(found["SHARED"], found["SPECIES"])


PACKAGED = CardModel(fitted.SHARED, fitted.SPECIES)
"""The package's own model (:mod:`cascadia.bots.card_potential_coefficients`)."""


def estimate(
    state: GameState, seat: int, cards: CardCache | None = None, model: CardModel = PACKAGED
) -> float:
    """The points ``seat`` is expected still to score: the A model where it applies
    (what :func:`cascadia.bots.potential.potential` gives), else ``model``; 0 when no
    turn is left or the game is not covered. The turns left and where the A model
    applies are worked out once (a search asks this at every rollout's leaf)."""
    turns = turns_left(state, seat)
    if turns <= 0:
        return 0.0
    if applies(state):
        return evaluate(features(state, seat, cards), turns)
    if not covers(state):
        return 0.0
    return model.value(terms(state, seat, turns, cards))


def terms(
    state: GameState, seat: int, turns: int, cards: CardCache | None = None
) -> dict[Block, list[float]]:
    """``seat``'s terms, block by block (in the order of :func:`shared_names` and
    :func:`species_names`), for the cards and scoring of the game."""
    values = features(state, seat, cards)
    fraction = turns / TURNS_PER_PLAYER
    scoring = "majority" if state.options.majority_bonus else "none"
    shared = [values[i] for i in _SHARED_AT]
    if scoring == "majority":
        shared += leads(state, seat)
    blocks: dict[Block, list[float]] = {
        ("shared", scoring): [fraction, fraction * fraction, *shared, *(v * fraction for v in shared)]
    }
    for species in WILDLIFE:
        plain = [values[i] for i in _SPECIES_AT[species]]
        blocks[(species, state.cards[species])] = [*plain, *(v * fraction for v in plain)]
    return blocks


def leads(state: GameState, seat: int) -> list[float]:
    """Per habitat, ``seat``'s largest corridor minus the largest of any other player
    (their own largest in a solo game)."""
    own = largest_corridors(state.players[seat].environment)
    others = [largest_corridors(p.environment) for i, p in enumerate(state.players) if i != seat]
    return [own[h] - max((o[h] for o in others), default=0) for h in HABITATS]
