"""A goal-directed bot for the achievement map (RULES.md 8, 8.1): the greedy, aimed at
one achievement.

The campaign tells the hunter which standard achievements its map player has not
marked yet (:meth:`HunterBot.pursue`); in a standard game it pursues the first of them
(RULES.md 8's order), its *goal*, and otherwise plays the greedy
(:mod:`cascadia.bots.greedy_bot`): the same moves, wipes and tie-breaks, valued by the
exact change of its own score, with the goal shaping that value:

- ``no_<species>``: never places that species (its token is returned, or another
  pair taken);
- ``no_token_on_keystone`` and ``no_nature_tokens_left``: never places a token on a
  keystone tile (so it never earns a nature token and has none left);
- ``five_nature_tokens`` / ``ten_nature_tokens``: a token on a keystone is worth
  ``KEYSTONE_BONUS`` more, a keystone tile placed empty ``ROOM_BONUS`` more, and it
  never spends a nature token;
- ``exactly_three_species``: once three species are on its board, places no other;
- ``eleven_of_one_species``: it favours the species it holds most of (the first
  in RULES.md's species order on a tie), kept for the rest of the game once one
  species leads alone: a
  token of it is worth ``FAVOURED_BONUS`` more, and a tile that can take it, placed
  empty, ``ROOM_BONUS`` more, until it has 11;
- the species-points goals (``ten_for_every_species``, ``twenty_for_two_species``,
  ``thirty_for_one_species``): each point that brings a species' points closer to
  the goal's threshold (10 for every species; 20 for the two best; 30 for the best)
  counts ``SPECIES_WEIGHT`` times;
- ``largest_corridor_in_three_habitats`` and ``five_in_every_habitat``: the tile part
  of a move (its corridor points and majority bonus) counts ``CORRIDOR_WEIGHT`` times;
- ``twelve_in_one_habitat`` and ``fifteen_in_one_habitat``: the tile part in the
  habitat of its largest corridor (the first in RULES.md's habitat order on a tie)
  counts ``FOCUS_WEIGHT`` times;
- the score thresholds, and any game that is not standard (a rule-restriction game
  is won to mark its restriction): its plain greedy play.

Every move is still one of the game's legal moves (the placements come from the rules,
the shaping only reorders them), so the hunter plays by the rules; it only chooses
differently.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from uuid import UUID

from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.valuation import CardCache, MoveValue, TurnValuation
from cascadia.domain.components import HABITATS, TILES, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import Hex
from cascadia.domain.state import GameState
from cascadia.projections.achievements import ACHIEVEMENTS

FORBIDDEN = -(10**6)
"""The value of a placement the goal forbids: lower than returning the token (0)."""
KEYSTONE_BONUS = 8
"""What a nature token earned is worth more while the hunter hoards them."""
ROOM_BONUS = 3
"""What an empty tile placed that can later take a wanted token is worth more."""
FAVOURED_BONUS = 15
ELEVEN = 11
SPECIES_WEIGHT = 4
CORRIDOR_WEIGHT = 2
FOCUS_WEIGHT = 4
SPECIES_THRESHOLDS: dict[str, tuple[int, int]] = {
    "ten_for_every_species": (10, len(WILDLIFE)),
    "twenty_for_two_species": (20, 2),
    "thirty_for_one_species": (30, 1),
}
"""Per species-points goal: (threshold, how many species must reach it)."""
SPREAD_GOALS = frozenset({"largest_corridor_in_three_habitats", "five_in_every_habitat"})
FOCUSED_GOALS = frozenset({"twelve_in_one_habitat", "fifteen_in_one_habitat"})
KEYSTONE_FREE = frozenset({"no_token_on_keystone", "no_nature_tokens_left"})
HOARDING = frozenset({"five_nature_tokens", "ten_nature_tokens"})


def species_progress(points: Mapping[str, int], threshold: int, needed: int) -> int:
    """How far ``points`` are towards ``needed`` species at ``threshold`` points each:
    the sum of the ``needed`` largest points, each capped at the threshold."""
    return sum(sorted((min(p, threshold) for p in points.values()), reverse=True)[:needed])


class HuntValuation(TurnValuation):
    """The greedy's values of the turn's moves, shaped by one achievement goal."""

    def __init__(
        self,
        state: GameState,
        tile_placements: Mapping[int, Mapping[Hex, Sequence[int]]],
        goal: str,
        cards: CardCache | None = None,
        favoured: str | None = None,
    ) -> None:
        """``favoured``: the species the hunter collects for ``eleven_of_one_species``."""
        super().__init__(state, tile_placements, cards)
        self.goal = goal
        counts = Counter(self.wildlife.values())
        self.counts = counts
        self.allowed: frozenset[str] = frozenset(WILDLIFE)
        if goal.startswith("no_") and goal[3:] in WILDLIFE:
            self.allowed = frozenset(WILDLIFE) - {goal[3:]}
        elif goal == "exactly_three_species" and len(counts) >= 3:
            self.allowed = frozenset(counts)
        self.favoured = favoured if goal == "eleven_of_one_species" and counts[favoured] < ELEVEN else None
        self.points = self.species_points() if goal in SPECIES_THRESHOLDS else {}
        self.focus: str | None = None
        if goal in FOCUSED_GOALS:
            largest = self.largest[self.seat]
            self.focus = max(HABITATS, key=lambda h: largest.get(h, 0))

    def token_value(self, species: str, h: Hex, tile: int | None = None) -> int:
        """The greedy's token value, shaped by the goal (see the module's rule)."""
        if tile is None:
            tile = self.environment.tiles[h][0]
        keystone = TILES[tile].keystone
        goal = self.goal
        if species not in self.allowed or (keystone and goal in KEYSTONE_FREE):
            return FORBIDDEN
        value = super().token_value(species, h, tile)
        if keystone and goal in HOARDING:
            value += KEYSTONE_BONUS
        if species == self.favoured:
            value += FAVOURED_BONUS
        if goal in SPECIES_THRESHOLDS:
            threshold, needed = SPECIES_THRESHOLDS[goal]
            changes = max(self.card_changes(species, h), key=lambda c: sum(c.values()))
            after = {s: p + changes.get(s, 0) for s, p in self.points.items()}
            gain = species_progress(after, threshold, needed) - species_progress(
                self.points, threshold, needed
            )
            value += (SPECIES_WEIGHT - 1) * gain
        return value

    def _corridor_value(self, habitat: str, joined: int) -> int:
        """The greedy's tile part of one habitat, weighted by a habitat goal."""
        value = super()._corridor_value(habitat, joined)
        if self.goal in SPREAD_GOALS:
            return value * CORRIDOR_WEIGHT
        return value * FOCUS_WEIGHT if habitat == self.focus else value

    def best_move(self, tile: int, species: str) -> MoveValue:
        """The greedy's best move; a tile left empty that can later take a token the
        goal wants (a keystone while hoarding, the favoured species) is worth
        ``ROOM_BONUS`` more."""
        found = super().best_move(tile, species)
        if found.target != found.placement[0] and self.wants_room(tile):
            return found._replace(value=found.value + ROOM_BONUS)
        return found

    def value_bound(self, tile: int, species: str) -> float:
        """No bound: the goal's shaping can raise any value."""
        return math.inf

    def wants_room(self, tile: int) -> bool:
        """Whether ``tile``, left empty, is room for a token the goal wants."""
        if self.goal in HOARDING:
            return TILES[tile].keystone
        return self.favoured is not None and self.favoured in TILES[tile].wildlife


class HunterBot(GreedyBot):
    """The greedy, pursuing the first open achievement of its map player."""

    name = "hunter"

    def __init__(self, seed: int, seat: int, open_achievements: Sequence[str] = ()) -> None:
        super().__init__(seed, seat)
        self.goal: str | None = None
        self.pursue(open_achievements)
        self._favoured: dict[UUID, str] = {}
        """Per game, the species it collects (chosen once, so it does not waver)."""

    def pursue(self, open_achievements: Sequence[str]) -> None:
        """Aim at the first of ``open_achievements`` (standard achievements, in any
        order: RULES.md 8's order is kept); none when empty."""
        open_set = set(open_achievements)
        self.goal = next((a for a in ACHIEVEMENTS if a in open_set), None)

    def goal_in(self, game: Game) -> str | None:
        """The goal in ``game``: only a standard game for achievements has one."""
        return self.goal if game.state.options.achievement_mode == "standard" else None

    def valuation(self, game: Game) -> TurnValuation:
        goal = self.goal_in(game)
        if goal is None:
            return super().valuation(game)
        favoured = self.favoured(game) if goal == "eleven_of_one_species" else None
        return HuntValuation(game.state, game.market_tile_rotations(), goal, self.cards, favoured)

    def favoured(self, game: Game) -> str:
        """The species it collects in ``game``: the one it holds most of (the first in
        RULES.md's order on a tie), kept for the rest of the game once it leads alone."""
        found = self._favoured.get(game.id)
        if found is None:
            counts = Counter(game.state.players[self.seat].environment.wildlife.values())
            ranked = sorted(WILDLIFE, key=lambda s: counts[s], reverse=True)
            found = ranked[0]
            if counts[ranked[0]] > counts[ranked[1]]:
                self._favoured[game.id] = found
        return found

    def spends_nature(self, game: Game) -> bool:
        """It never spends a nature token while it hoards them."""
        return self.goal_in(game) not in HOARDING
