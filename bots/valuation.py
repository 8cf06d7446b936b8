"""What a move is worth to the player making it: the change of their whole score now.

A turn's move is a take (a pair, or any tile and token after free choice), a tile
placement and a token placement (or the token returned). Its value is the change of
the player's own total as the score sheet counts it (RULES.md 5): every wildlife card
(a token changes other species' cards too: foxes count their neighbours, salmon D the
tokens touching a run, hawk D the species between two hawks), every corridor, the
majority (or solo) bonus against the other players' corridors as they stand, a nature
token earned on a keystone and the nature tokens spent.

The value splits exactly into two parts, because no card reads tiles (an elk D ring's
centre and a hawk's line of sight ignore them) and no corridor reads tokens:

- the tile part: per habitat of the tile, the corridor it joins (1 + the corridors its
  matching edges touch) changes that habitat's corridor points (under the game's rule
  restrictions) and the bonus for its largest corridor;
- the token part: the change of the wildlife total (under the better card set with
  ``two_card_sets``), plus 1 for a keystone.

:class:`TurnValuation` computes each part once per turn and caches it, so a whole
market of choices costs little more than one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cascadia.domain.components import CARD_LETTERS, TILES, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.hexgrid import Hex, neighbours, opposite, tile_edges
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.habitats import corridor_labels, habitat_bonuses, habitat_points, largest_corridors
from cascadia.projections.wildlife import card_scorer, normalise_card

Placement = tuple[Hex, int]


def reads_other_species(species: str, card: str) -> bool:
    """Whether ``species``' card scores tokens of other species too: the fox cards
    (RULES.md 5.7: adjacent species), salmon D (5.5: tokens adjacent to a run) and hawk
    D (5.6: species between two hawks). Every other card reads its own species only."""
    if species == "fox":
        return card in CARD_LETTERS
    return species in ("salmon", "hawk") and card == "D"


class CardCache:
    """Card scores remembered across turns, keyed by only the tokens the card reads."""

    def __init__(self) -> None:
        self._points: dict[tuple[str, str, frozenset[tuple[Hex, str]]], int] = {}

    def points(self, species: str, card: str, wildlife: Mapping[Hex, str], options: GameOptions) -> int:
        if reads_other_species(species, card):
            key = (species, card, frozenset(wildlife.items()))
        else:
            key = (species, card, frozenset((h, s) for h, s in wildlife.items() if s == species))
        found = self._points.get(key)
        if found is None:
            found = self._points[key] = card_scorer(species, card)(wildlife, options)
        return found


class CorridorCache:
    """Every player's largest corridors, remembered while their board has not grown."""

    def __init__(self) -> None:
        self._largest: dict[tuple[int, int, frozenset], dict[str, int]] = {}

    def largest(self, state: GameState) -> list[dict[str, int]]:
        found = []
        for seat, player in enumerate(state.players):
            tiles = player.environment.tiles
            key = (seat, len(tiles), frozenset(tiles))
            if key not in self._largest:
                self._largest[key] = largest_corridors(player.environment)
            found.append(self._largest[key])
        return found


@dataclass(frozen=True, slots=True)
class MoveValue:
    """The best way to play one (tile, token) take: its value and how to place them.

    ``shape`` breaks ties between equal values: the number of the tile's edges that
    match their neighbours (room for corridors to grow), then a token placed rather
    than returned."""

    value: int
    shape: tuple[int, int]
    placement: Placement
    target: Hex | None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.value, *self.shape)


class TurnValuation:
    """The values of the active player's possible moves on the board as it stands."""

    def __init__(
        self,
        state: GameState,
        tile_placements: Mapping[int, Sequence[Placement]],
        cards: CardCache | None = None,
        corridors: CorridorCache | None = None,
    ) -> None:
        """``tile_placements`` gives the legal placements of each market tile (the
        rules' answer, which knows the placement restrictions)."""
        self.state = state
        self.options: GameOptions = state.options
        self.seat = state.current
        self.environment: Environment = state.players[self.seat].environment
        self.wildlife = self.environment.wildlife
        self.tile_placements = tile_placements
        self.cards = cards or CardCache()
        self.card_sets = [{s: normalise_card(c) for s, c in state.cards.items()}]
        if self.options.two_card_sets and state.second_cards:
            self.card_sets.append({s: normalise_card(c) for s, c in state.second_cards.items()})
        self.labels, self.sizes = corridor_labels(self.environment)
        self.largest = (corridors or CorridorCache()).largest(state)
        self.base_bonus = habitat_bonuses(self.largest, self.options)[self.seat]
        self.base_points = {h: habitat_points(sizes, self.options) for h, sizes in self.sizes.items()}
        self._species_points: list[dict[str, int]] = [
            {s: self._card(s, cs[s], self.wildlife) for s in WILDLIFE} for cs in self.card_sets
        ]
        self._wildlife_totals = [sum(p.values()) for p in self._species_points]
        self._token: dict[tuple[str, Hex], int] = {}
        self._corridor: dict[tuple[str, frozenset[int]], int] = {}
        self._tile: dict[int, dict[Hex, tuple[int, int, Placement]]] = {}
        self._touching: dict[Hex, list[tuple[int, str, int]]] = {}
        self._moves: dict[tuple[int, str], MoveValue] = {}

    def _card(self, species: str, card: str, wildlife: Mapping[Hex, str]) -> int:
        return self.cards.points(species, card, wildlife, self.options)

    # -- the token part ------------------------------------------------------------

    def token_value(self, species: str, h: Hex, tile: int | None = None) -> int:
        """The change of the player's total when a ``species`` token goes on ``h``
        (every card it touches, the better card set, a keystone's nature token).
        ``tile`` is the tile at ``h`` when it is not on the board yet (the new tile)."""
        key = (species, h)
        found = self._token.get(key)
        if found is None:
            with_token = {**self.wildlife, h: species}
            totals = []
            for cards, before, total in zip(
                self.card_sets, self._species_points, self._wildlife_totals, strict=True
            ):
                for other in WILDLIFE:
                    card = cards[other]
                    if other == species or (
                        reads_other_species(other, card) and self._may_touch(other, h)
                    ):
                        total += self._card(other, card, with_token) - before[other]
                totals.append(total)
            found = self._token[key] = max(totals) - max(self._wildlife_totals)
        if tile is None:
            tile = self.environment.tiles[h][0]
        return found + (1 if TILES[tile].keystone else 0)

    def _may_touch(self, species: str, h: Hex) -> bool:
        """Whether a token on ``h`` can change ``species``' card (one that reads other
        species): foxes and salmon read only their neighbours; hawk D any line."""
        if species == "hawk":
            return sum(1 for s in self.wildlife.values() if s == "hawk") >= 2
        wildlife = self.wildlife
        return any(wildlife.get(n) == species for n in neighbours(h))

    # -- the tile part -------------------------------------------------------------

    def _touching_edges(self, h: Hex) -> list[tuple[int, str, int]]:
        """``(direction, habitat, corridor label)`` of every occupied neighbour of ``h``:
        the habitat its touching edge shows and the corridor that edge belongs to."""
        found = self._touching.get(h)
        if found is None:
            environment = self.environment
            found = []
            for i, n in enumerate(neighbours(h)):
                if n in environment.tiles:
                    habitat = environment.edges(n)[opposite(i)]
                    found.append((i, habitat, self.labels[habitat][n]))
            self._touching[h] = found
        return found

    def _corridor_value(self, habitat: str, joined: frozenset[int]) -> int:
        """The change of corridor points and bonus when a new tile joins the corridors
        ``joined`` of ``habitat`` into one (a new corridor of 1 when none)."""
        key = (habitat, joined)
        found = self._corridor.get(key)
        if found is None:
            sizes = self.sizes[habitat]
            merged = 1 + sum(sizes[label] for label in joined)
            after = [size for label, size in enumerate(sizes) if label not in joined]
            after.append(merged)
            found = habitat_points(after, self.options) - self.base_points[habitat]
            largest = max(after)
            if largest != self.largest[self.seat][habitat]:
                others = [dict(p) for p in self.largest]
                others[self.seat][habitat] = largest
                bonus = habitat_bonuses(others, self.options)[self.seat][habitat]
                found += bonus - self.base_bonus[habitat]
            self._corridor[key] = found
        return found

    def placement_value(self, tile: int, h: Hex, rotation: int) -> tuple[int, int]:
        """The tile part of placing ``tile`` at ``h`` turned by ``rotation``, and the
        number of its edges that match a neighbour's."""
        edges = tile_edges(tile, rotation)
        joined: dict[str, set[int]] = {habitat: set() for habitat in TILES[tile].habitats}
        matching = 0
        for i, habitat, label in self._touching_edges(h):
            if edges[i] == habitat:
                joined[habitat].add(label)
                matching += 1
        value = sum(self._corridor_value(habitat, frozenset(labels)) for habitat, labels in joined.items())
        return value, matching

    def tile_values(self, tile: int) -> dict[Hex, tuple[int, int, Placement]]:
        """Per hex where ``tile`` may go, its best rotation: (value, matching edges, placement)."""
        found = self._tile.get(tile)
        if found is None:
            found = {}
            for h, rotation in self.tile_placements[tile]:
                value, matching = self.placement_value(tile, h, rotation)
                best = found.get(h)
                if best is None or (value, matching) > best[:2]:
                    found[h] = (value, matching, (h, rotation))
            self._tile[tile] = found
        return found

    # -- whole moves ---------------------------------------------------------------

    def best_move(self, tile: int, species: str) -> MoveValue:
        """The best placement of ``tile`` and of a ``species`` token (or its return)."""
        key = (tile, species)
        found = self._moves.get(key)
        if found is not None:
            return found
        tiles = self.tile_values(tile)
        value, matching, placement = max(tiles.values(), key=lambda v: v[:2])
        target, token = None, 0
        for h in self.environment.wildlife_targets(species):
            gain = self.token_value(species, h)
            if gain > token or (target is None and gain == token):
                target, token = h, gain
        found = MoveValue(value + token, (matching, target is not None), placement, target)
        if species in TILES[tile].wildlife and not self.options.no_token_on_new_tile:
            for h, (tile_value, tile_matching, tile_placement) in tiles.items():
                gain = self.token_value(species, h, tile)
                candidate = MoveValue(tile_value + gain, (tile_matching, True), tile_placement, h)
                if candidate.key > found.key:
                    found = candidate
        self._moves[key] = found
        return found
