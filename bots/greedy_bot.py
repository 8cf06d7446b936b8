"""A greedy bot: each turn, the legal choice that most increases its own score now.

It weighs every pair (and, when it holds nature tokens, every free-choice combination
at the cost of one point per token spent), every tile position and rotation, and every
token target including the new tile, returning the token when no target gains.

The value of a choice is split so that each part is computed once per turn:

- tile: the change of the largest corridor in the tile's habitats (RULES.md 5.1) and of
  the player's majority bonus for that size against the other players' current
  corridors, read off corridor labels computed once per turn: a new tile joins the
  corridors whose touching edges match, so its corridor is 1 + their sizes;
- token: the change of that species' card score with the token added, one card
  evaluation per open target (the new tile's hex included), plus 1 for the nature token
  a keystone earns.

Ties go to the first choice in a fixed order (slot, hex, rotation), so the bot is
deterministic. It never uses the optional wipes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from cascadia.bots.base import PlanningBot
from cascadia.domain.commands import Command, NatureFreeChoice, PlaceTile, PlaceWildlife, ReturnWildlife, Take
from cascadia.domain.components import TILES
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex, neighbours, opposite, tile_edges
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import corridor_labels, habitat_bonuses, largest_corridors
from cascadia.projections.wildlife import card_scorer

Placement = tuple[Hex, int]


class GreedyBot(PlanningBot):
    """Maximises its own score after this turn, one turn at a time."""

    name = "greedy"

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self._points: dict[tuple[str, frozenset[tuple[Hex, str]]], int] = {}
        self._corridors: dict[tuple[int, int], dict[str, int]] = {}

    def largest_corridors(self, game: Game) -> list[dict[str, int]]:
        """Every player's largest corridors, remembered while their board has not grown."""
        found = []
        for seat, player in enumerate(game.state.players):
            key = (seat, len(player.environment.tiles))
            if key not in self._corridors:
                self._corridors[key] = largest_corridors(player.environment)
            found.append(self._corridors[key])
        return found

    def card_points(self, species: str, wildlife: Mapping[Hex, str], options: GameOptions, card: str) -> int:
        """``species``' card score on ``wildlife``, remembered across turns: only the hexes
        the card reads are in the key (the species' own tokens for cards that look at
        nothing else), so most of a board's evaluations are reused turn after turn."""
        if species == "fox" or (species in ("salmon", "hawk") and card == "D"):
            key = (species, frozenset(wildlife.items()))
        else:
            key = (species, frozenset((h, s) for h, s in wildlife.items() if s == species))
        points = self._points.get(key)
        if points is None:
            points = self._points[key] = card_scorer(species, card)(wildlife, options)
        return points

    def plan(self, game: Game) -> Iterator[Command]:
        state = game.state
        turn = _TurnEvaluator(
            game,
            self.largest_corridors(game),
            lambda species, wildlife: self.card_points(
                species, wildlife, state.options, state.cards[species]
            ),
        )
        best = turn.best_choice()
        (tile_slot, wildlife_slot), free_choice, (h, rotation), target = best
        if free_choice:
            yield NatureFreeChoice()
        yield Take(tile_slot, wildlife_slot)
        yield PlaceTile(h[0], h[1], rotation)
        yield ReturnWildlife() if target is None else PlaceWildlife(*target)


class _TurnEvaluator:
    """The values of the active player's choices this turn."""

    def __init__(
        self,
        game: Game,
        largest: list[dict[str, int]],
        card_points: Callable[[str, Mapping[Hex, str]], int],
    ) -> None:
        state = game.state
        self.card_points = card_points
        self.game = game
        self.options: GameOptions = state.options
        self.environment: Environment = state.active.environment
        self.seat = state.current
        self.labels, self.sizes = corridor_labels(self.environment)
        self.largest = largest
        self.own_largest = largest[self.seat]
        self.base_bonus = habitat_bonuses(largest, self.options)[self.seat]
        self.cards = state.cards
        self.wildlife = self.environment.wildlife
        self._card_base: dict[str, int] = {}
        self._token_gain: dict[tuple[str, Hex], int] = {}
        self._bonus_cache: dict[tuple[str, int], int] = {}
        self._tile_cache: dict[int, dict[Hex, tuple[int, Placement]]] = {}
        self._touching_cache: dict[Hex, dict[str, list[tuple[int, int]]]] = {}

    def best_choice(self) -> tuple[tuple[int, int], bool, Placement, Hex | None]:
        state = self.game.state
        takes = [((s, s), False) for s in range(len(state.market_tiles))]
        if (
            state.active.nature_tokens >= self.game.nature_cost()
            and "free_choice" in self.game.nature_actions()
        ):
            takes += [
                ((t, w), True)
                for t in range(len(state.market_tiles))
                for w in range(len(state.market_wildlife))
                if t != w
            ]
        best_value = None
        best = None
        for (tile_slot, wildlife_slot), free in takes:
            tile = state.market_tiles[tile_slot]
            species = state.market_wildlife[wildlife_slot]
            if tile is None or species is None:
                continue
            value, placement, target = self._best_for(tile, species)
            if free:
                value -= self.game.nature_cost()
            if best_value is None or value > best_value:
                best_value = value
                best = ((tile_slot, wildlife_slot), free, placement, target)
        assert best is not None
        return best

    def _best_for(self, tile: int, species: str) -> tuple[int, Placement, Hex | None]:
        placements = self._tile_values(tile)
        best_tile_value, best_placement = max(placements.values(), key=lambda vp: vp[0])
        old_target, old_gain = self._best_existing_target(species)
        best = (best_tile_value + old_gain, best_placement, old_target)
        if species in TILES[tile].wildlife:
            for h, (tile_value, placement) in placements.items():
                if self.options.no_token_on_new_tile:
                    break
                value = tile_value + self._token_value(species, h, TILES[tile].keystone)
                if value > best[0]:
                    best = (value, placement, h)
        return best

    def _tile_values(self, tile: int) -> dict[Hex, tuple[int, Placement]]:
        """Per open hex, the best rotation's corridor-and-bonus gain (cached per tile).

        Only the rotations of hexes where a neighbour's touching edge shows one of the
        tile's habitats are compared: elsewhere every rotation is alike."""
        cached = self._tile_cache.get(tile)
        if cached is not None:
            return cached
        values: dict[Hex, tuple[int, Placement]] = {}
        habitats = TILES[tile].habitats
        for h, rotations in self._legal_rotations(tile).items():
            touching = self._touching(h)
            if not any(habitat in touching for habitat in habitats):
                rotations = rotations[:1]
            for rotation in rotations:
                gain = self._corridor_gain(tile, h, rotation)
                if h not in values or gain > values[h][0]:
                    values[h] = (gain, (h, rotation))
        self._tile_cache[tile] = values
        return values

    def _legal_rotations(self, tile: int) -> dict[Hex, list[int]]:
        """The legal rotations of ``tile`` per open hex, as the rules list them."""
        legal: dict[Hex, list[int]] = {}
        for h, rotation in self.game.legal_tile_placements(tile):
            legal.setdefault(h, []).append(rotation)
        return legal

    def _touching(self, h: Hex) -> dict[str, list[tuple[int, int]]]:
        """Per habitat, the ``(direction, corridor label)`` of each occupied neighbour of
        ``h`` whose touching edge shows that habitat."""
        touching = self._touching_cache.get(h)
        if touching is None:
            environment = self.environment
            touching = {}
            for i, n in enumerate(neighbours(h)):
                if n in environment.tiles:
                    habitat = environment.edges(n)[opposite(i)]
                    touching.setdefault(habitat, []).append((i, self.labels[habitat][n]))
            self._touching_cache[h] = touching
        return touching

    def _corridor_gain(self, tile: int, h: Hex, rotation: int) -> int:
        edges = tile_edges(tile, rotation)
        touching = self._touching(h)
        gain = 0
        for habitat in TILES[tile].habitats:
            old = self.own_largest[habitat]
            sides = touching.get(habitat)
            if not sides:
                size = 1
            else:
                sizes = self.sizes[habitat]
                size = 1 + sum(sizes[label] for label in {label for i, label in sides if edges[i] == habitat})
            if size > old:
                gain += size - old + self._bonus_change(habitat, size)
        return gain

    def _bonus_change(self, habitat: str, size: int) -> int:
        key = (habitat, size)
        if key not in self._bonus_cache:
            largest = [dict(p) for p in self.largest]
            largest[self.seat][habitat] = size
            bonus = habitat_bonuses(largest, self.options)[self.seat][habitat]
            self._bonus_cache[key] = bonus - self.base_bonus[habitat]
        return self._bonus_cache[key]

    def _best_existing_target(self, species: str) -> tuple[Hex | None, int]:
        best: tuple[Hex | None, int] = (None, 0)
        for h in self.environment.wildlife_targets(species):
            keystone = TILES[self.environment.tiles[h][0]].keystone
            value = self._token_value(species, h, keystone)
            if value > best[1]:
                best = (h, value)
        return best

    def _token_value(self, species: str, h: Hex, keystone: bool) -> int:
        key = (species, h)
        if key not in self._token_gain:
            if species not in self._card_base:
                self._card_base[species] = self.card_points(species, self.wildlife)
            with_token = {**self.wildlife, h: species}
            self._token_gain[key] = self.card_points(species, with_token) - self._card_base[species]
        return self._token_gain[key] + (1 if keystone else 0)
