"""A position's potential: an estimate of the points a player will still score.

The greedy look-ahead of the search bot counts only the points made within its next
few turns, so it cannot see what a position is worth beyond them: a bear waiting for
its pair, a salmon run or an elk line that can still grow, a hawk slot far from other
hawks, a corridor with open edges, a keystone that may still earn a nature token. This
module describes a board by such features (:func:`features`) and weighs them with
coefficients fitted offline on seeded self-play, where the target is the player's final
total minus their total at the time (the fit:
``tests/benchmarks/fit_potential.py``, the coefficients: :data:`COEFFICIENTS`).

Each feature enters twice, alone and times the fraction of the player's turns still to
play, so its worth may shrink as the game runs out; with no turn left the potential is
0 (nothing more can be scored: the board alone decides a total when majority bonuses
are off). The features read the wildlife cards A (RULES.md 5.2-5.7: bear pairs, elk
lines, salmon runs, lone hawks, fox neighbours); the coefficients are fitted for games
with the A cards and without majority bonuses, and :func:`potential` is 0 for any other
game (see :func:`applies`).
"""

from __future__ import annotations

import copy

from cascadia.bots.potential_coefficients import COEFFICIENTS
from cascadia.bots.valuation import CardCache, TurnValuation
from cascadia.domain.components import HABITATS, TILES, TURNS_PER_PLAYER, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import DIRECTIONS, Hex, neighbours
from cascadia.domain.state import GameState
from cascadia.projections.habitats import CorridorIndex, Frontier
from cascadia.projections.wildlife.groups import connected_groups

BASE_FEATURES: tuple[str, ...] = (
    "empty_tiles",
    "nature_tokens",
    "open_keystones",
    *(f"open_{s}" for s in WILDLIFE),
    "bear_lone",
    "bear_waiting",
    "elk_extensions",
    "elk_lines",
    "salmon_run_ends",
    "hawk_free_slots",
    "fox_best_slot",
    "fox_slots_rich",
    *(f"largest_{h}" for h in HABITATS),
    *(f"frontier_{h}" for h in HABITATS),
    *(f"open_edges_{h}" for h in HABITATS),
    "open_hexes",
    *(f"best_gain_{s}" for s in WILDLIFE),
    *(f"gaining_slots_{s}" for s in WILDLIFE),
)
"""The board's features, in the order of :func:`features`."""

NAMES: tuple[str, ...] = ("turns", "turns_squared", *BASE_FEATURES, *(f"{n}*turns" for n in BASE_FEATURES))
"""Every term of the linear model: the turns left, then each feature alone and times
the fraction of turns left (``turns``: turns left / 20)."""


def applies(state: GameState) -> bool:
    """Whether the fitted coefficients are for this game: all A cards, no majority
    bonuses, one card set."""
    options = state.options
    return (
        not options.majority_bonus
        and not (options.two_card_sets and state.second_cards)
        and all(card == "A" for card in state.cards.values())
    )


def turns_left(state: GameState, seat: int) -> int:
    """The turns ``seat`` still plays, the one under way if it is theirs.

    The game ends when the tile stack is empty (RULES.md 4.5): one turn per tile left
    in the stack plus the turn under way, dealt round from the current seat."""
    remaining = 0 if state.finished else state.stack_size + 1
    behind = (seat - state.current) % len(state.players)
    return max(0, -(-(remaining - behind) // len(state.players)))


def potential(state: GameState, seat: int, cards: CardCache | None = None) -> float:
    """The points ``seat`` is expected still to score; 0 for games the coefficients are
    not fitted for. ``cards``: card scores remembered across calls."""
    turns = turns_left(state, seat)
    if turns <= 0 or not applies(state):
        return 0.0
    return evaluate(features(state, seat, cards), turns)


def evaluate(values: list[float], turns: int) -> float:
    """The linear model on a board's :func:`features` with ``turns`` turns left."""
    fraction = turns / TURNS_PER_PLAYER
    coefficients = COEFFICIENTS
    total = coefficients[0] * fraction + coefficients[1] * fraction * fraction
    size = len(values)
    for i, value in enumerate(values):
        if value:
            total += value * (coefficients[2 + i] + coefficients[2 + size + i] * fraction)
    return total


def terms(values: list[float], turns: int) -> list[float]:
    """The model's terms (in the order of :data:`NAMES`), for fitting."""
    fraction = turns / TURNS_PER_PLAYER
    return [fraction, fraction * fraction, *values, *(v * fraction for v in values)]


def features(state: GameState, seat: int, cards: CardCache | None = None) -> list[float]:
    """``seat``'s features (in the order of :data:`BASE_FEATURES`): their board's, then
    what a token of each species would score now at best (:func:`token_gains`)."""
    player = state.players[seat]
    return board_features(player.environment, player.nature_tokens) + token_gains(state, seat, cards)


def token_gains(state: GameState, seat: int, cards: CardCache | None = None) -> list[float]:
    """Per species, the most a token of it would add to ``seat``'s total now (0 when
    none would add anything), then per species the open slots where it would add
    something (the greedy's token values, :mod:`cascadia.bots.valuation`)."""
    view = copy.copy(state)
    view.current = seat
    valuation = TurnValuation(view, {}, cards)
    environment = state.players[seat].environment
    best: list[float] = []
    gaining: list[float] = []
    for species in WILDLIFE:
        gains = [valuation.token_value(species, h) for h in environment.wildlife_targets(species)]
        best.append(max([0, *gains]))
        gaining.append(sum(1 for g in gains if g > 0))
    return best + gaining


def board_features(environment: Environment, nature_tokens: int) -> list[float]:
    """The board's own features (the first of :data:`BASE_FEATURES`)."""
    tiles = environment.tiles
    wildlife = environment.wildlife
    empty = [h for h in tiles if h not in wildlife]
    accepts = {h: TILES[tiles[h][0]].wildlife for h in empty}
    open_by = {s: [h for h in empty if s in accepts[h]] for s in WILDLIFE}
    open_keystones = sum(1 for h in empty if TILES[tiles[h][0]].keystone)
    values: list[float] = [len(empty), nature_tokens, open_keystones]
    values += [len(open_by[s]) for s in WILDLIFE]
    values += _bear(wildlife, open_by["bear"])
    values += _elk(wildlife, open_by["elk"])
    values += _salmon(wildlife, open_by["salmon"])
    values += _hawk(wildlife, open_by["hawk"])
    values += _fox(wildlife, open_by["fox"])
    values += _corridors(environment)
    values.append(len({n for h in tiles for n in neighbours(h) if n not in tiles}))
    return values


def _same_neighbours(wildlife: dict[Hex, str], h: Hex, species: str) -> int:
    return sum(1 for n in neighbours(h) if wildlife.get(n) == species)


def _groups_of(wildlife: dict[Hex, str], species: str) -> list[list[Hex]]:
    """The groups of ``species`` tokens (RULES.md 5.2)."""
    return connected_groups([h for h, s in wildlife.items() if s == species])


def _bear(wildlife: dict[Hex, str], slots: list[Hex]) -> list[float]:
    """Bear A scores pairs (RULES.md 5.3): lone bears, and lone bears with an open bear
    slot next to them that touches no other bear (a pair waiting)."""
    groups = _groups_of(wildlife, "bear")
    lone = [next(iter(g)) for g in groups if len(g) == 1]
    waiting = 0
    for bear in lone:
        around = set(neighbours(bear))
        if any(s in around and _same_neighbours(wildlife, s, "bear") == 1 for s in slots):
            waiting += 1
    return [len(lone), waiting]


def _elk(wildlife: dict[Hex, str], slots: list[Hex]) -> list[float]:
    """Elk A scores straight lines (RULES.md 5.4): open elk slots that would extend a
    line (or start one next to an elk), and the elk with an elk neighbour."""
    extensions = 0
    for s in slots:
        for dq, dr in DIRECTIONS:
            if wildlife.get((s[0] + dq, s[1] + dr)) == "elk":
                extensions += 1
                break
    in_lines = sum(1 for h, w in wildlife.items() if w == "elk" and _same_neighbours(wildlife, h, "elk"))
    return [extensions, in_lines]


def _salmon(wildlife: dict[Hex, str], slots: list[Hex]) -> list[float]:
    """Salmon A scores runs (RULES.md 5.5: no salmon of a run has more than two salmon
    neighbours; up to 7 count): open slots next to the end of a run shorter than 7 that
    touch that run only there."""
    ends = 0
    group_of: dict[Hex, int] = {}
    good: list[bool] = []
    for i, group in enumerate(_groups_of(wildlife, "salmon")):
        is_run = all(_same_neighbours(wildlife, h, "salmon") <= 2 for h in group)
        good.append(is_run and len(group) < 7)
        for h in group:
            group_of[h] = i
    for s in slots:
        touching = [n for n in neighbours(s) if wildlife.get(n) == "salmon"]
        if (
            len(touching) == 1
            and good[group_of[touching[0]]]
            and _same_neighbours(wildlife, touching[0], "salmon") <= 1
        ):
            ends += 1
    return [ends]


def _hawk(wildlife: dict[Hex, str], slots: list[Hex]) -> list[float]:
    """Hawk A scores hawks with no hawk neighbour (RULES.md 5.6): open hawk slots that
    touch no hawk."""
    return [sum(1 for s in slots if not _same_neighbours(wildlife, s, "hawk"))]


def _fox(wildlife: dict[Hex, str], slots: list[Hex]) -> list[float]:
    """Fox A scores the species next to each fox (RULES.md 5.7): the most species next
    to an open fox slot, and the open fox slots with three or more species around."""
    best = 0
    rich = 0
    for s in slots:
        kinds = len({wildlife[n] for n in neighbours(s) if n in wildlife})
        best = max(best, kinds)
        rich += kinds >= 3
    return [best, rich]


def _corridors(environment: Environment) -> list[float]:
    """Per habitat (RULES.md 5.1): the largest corridor, the empty hexes its edges of
    that habitat face (where it can grow; the most among the largest corridors), and
    every open edge of that habitat. Read off the board's
    :class:`~cascadia.projections.habitats.CorridorIndex` and
    :class:`~cascadia.projections.habitats.Frontier`."""
    index = CorridorIndex.of(environment)
    open_edges = dict.fromkeys(HABITATS, 0)
    fronts: dict[tuple[str, int], int] = {}
    """Per corridor, the empty hexes its edges face."""
    for near in Frontier.of(environment).edges.values():
        for habitat, (edges, tiles) in near.items():
            open_edges[habitat] += edges.bit_count()
            joined = 0
            for bit in tiles:
                joined |= bit
            corridors = index.corridors_of(habitat, joined)
            while corridors:
                low = corridors & -corridors
                key = (habitat, low.bit_length() - 1)
                fronts[key] = fronts.get(key, 0) + 1
                corridors ^= low
    largest = index.largest()
    frontier = dict.fromkeys(HABITATS, 0)
    for (habitat, corridor), front in fronts.items():
        if index.corridor_size(habitat, corridor) == largest[habitat] and front > frontier[habitat]:
            frontier[habitat] = front
    return [
        *(largest[h] for h in HABITATS),
        *(frontier[h] for h in HABITATS),
        *(open_edges[h] for h in HABITATS),
    ]
