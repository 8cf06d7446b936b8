"""What scored on a board: the hexes behind each card's points and each corridor's, for a
page to highlight (the table scorer, docs/BOARD.md).

Wildlife (RULES.md 5.2: "a species' **group** is a set of its tokens that are connected
by adjacency and that no further token of the species touches"): the groups that make a
card's points are found by taking the species' groups away one at a time, in order, each
for good when the card still gives as many points without it; the groups left are the
ones that scored. This asks each card's own scorer, so it holds for every card and
option alike: a bear pair under bear A scores, a bear trio does not; a salmon group that
is no run scores nothing under strict runs; a lone hawk scores under hawk A, two hawks
side by side do not; and where a card's table stops growing ("4+ → 27" pairs of bear A)
the groups beyond it are left out.

Habitats (RULES.md 5.1: "1 point per tile of their **largest** corridor"): the corridor
scored, the first of the largest when several are equal; with ``corridors_of_three``
(RULES.md 7.3) every corridor of exactly 3 tiles; none when the habitat scores nothing
(``must_not_match``, or a largest corridor below 5 under ``corridors_min_five``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import CORRIDOR_OF_THREE, corridor_labels, habitat_points
from cascadia.projections.wildlife import card_scorer
from cascadia.projections.wildlife.groups import Group, tokens_of


@dataclass(frozen=True, slots=True)
class ScoredCells:
    """Per species and per habitat, the groups of hexes that scored (each sorted by row,
    then column; the groups in the same order by their first hex)."""

    wildlife: Mapping[str, list[Group]]
    habitats: Mapping[str, list[Group]]

    def to_dict(self) -> dict[str, dict[str, list[list[list[int]]]]]:
        """Plain JSON-able data: hexes as ``[q, r]``."""
        return {
            "wildlife": {s: [[list(h) for h in g] for g in groups] for s, groups in self.wildlife.items()},
            "habitats": {h: [[list(c) for c in g] for g in groups] for h, groups in self.habitats.items()},
        }


def scored_cells(environment: Environment, cards: Mapping[str, str], options: GameOptions) -> ScoredCells:
    """The groups and corridors of ``environment`` that scored under ``cards`` (species ->
    card, the set the player is scored under) and ``options``."""
    return ScoredCells(
        wildlife={s: scoring_groups(environment.wildlife, s, cards[s], options) for s in WILDLIFE},
        habitats=scoring_corridors(environment, options),
    )


def scoring_groups(wildlife: Mapping[Hex, str], species: str, card: str, options: GameOptions) -> list[Group]:
    """The groups of ``species`` that make ``card``'s points: each group in turn (in
    board order) is taken away for good when the rest still scores as much."""
    scorer = card_scorer(species, card)
    tokens = tokens_of(wildlife)
    points = scorer(tokens, options)
    if points <= 0:
        return []
    rest = dict(wildlife)
    kept = []
    for group in sorted(_ordered(g) for g in tokens.groups(species)):
        taken = set(group)
        without = {h: s for h, s in rest.items() if h not in taken}
        if scorer(tokens_of(without), options) >= points:
            rest = without
        else:
            kept.append(group)
    return kept


def scoring_corridors(environment: Environment, options: GameOptions) -> dict[str, list[Group]]:
    """Per habitat, the corridors whose tiles score (see the module's docstring)."""
    labels, sizes = corridor_labels(environment)
    found: dict[str, list[Group]] = {}
    for habitat in HABITATS:
        by_label: dict[int, list[Hex]] = {}
        for h, label in labels[habitat].items():
            by_label.setdefault(label, []).append(h)
        corridors = sorted(_ordered(cells) for cells in by_label.values())
        found[habitat] = _scored(corridors, sizes[habitat], options)
    return found


def _scored(corridors: list[Group], sizes: list[int], options: GameOptions) -> list[Group]:
    """Of one habitat's ``corridors`` (``sizes``: all its corridor sizes), those scored."""
    if not corridors or habitat_points(sizes, options) == 0:
        return []
    if options.corridors_of_three:
        return [c for c in corridors if len(c) == CORRIDOR_OF_THREE]
    largest = max(len(c) for c in corridors)
    return [next(c for c in corridors if len(c) == largest)]


def _ordered(cells: list[Hex]) -> Group:
    """``cells`` by row, then column."""
    return sorted(cells, key=lambda h: (h[1], h[0]))
