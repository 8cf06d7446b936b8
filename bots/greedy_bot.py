"""A greedy bot: each turn, the legal choice that most increases its own score now.

Objective: the player's own total on the score sheet right after the move (RULES.md
5: all five wildlife cards, corridors, the majority or solo bonus against the other
boards as they stand, nature tokens), valued by :mod:`cascadia.bots.valuation`.

- The move: every pair, and when it holds enough nature tokens every free-choice
  combination at its cost; every legal tile position and rotation; every token
  target, the new tile included, or the token returned. Ties go to the move that buys
  nothing, then to the placement with more matching edges, then to a placed token,
  then to the first in a fixed order (slot, hex, rotation): the bot is deterministic.
- The wipes, before taking, by expected value over the draw (exact: every sequence of
  drawn tokens from the bag as it stands, by its probability): the free
  three-of-a-kind wipe (RULES.md 4.1) when the expected best move after it is better
  than the best move now; a nature-token wipe (4.2) of the slots other than the best
  pair's when the expected gain is more than its cost. After a wipe it decides again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from cascadia.bots.base import PlanningBot
from cascadia.bots.decisions import Decision, Move, commands_of
from cascadia.bots.valuation import CardCache, MoveValue, TokenMemo, TurnValuation
from cascadia.domain.commands import Command, NatureWipe, WipeThree
from cascadia.domain.components import WILDLIFE
from cascadia.domain.game import Game

MAX_WIPES_PER_TURN = 4
"""Nature wipes the bot buys in one turn at most (each is decided after the last draw)."""


class GreedyBot(PlanningBot):
    """Maximises its own score after this turn, one turn at a time."""

    name = "greedy"

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__()
        self.seat = seat
        self.cards = CardCache()
        self.tokens = TokenMemo()
        self._turn: tuple[tuple[int | None, ...], TurnValuation] | None = None
        """The last valuation and the position it values (see :meth:`valuation`)."""

    def plan(self, game: Game) -> Iterator[Command]:
        """The turn's commands: each wipe worth its draw (deciding again after it), then
        the best move."""
        for _ in range(MAX_WIPES_PER_TURN + 2):
            decision = self.decide(game)
            yield from commands_of(decision)
            if isinstance(decision, Move):
                return
        yield from commands_of(self.decide(game, wipes=False))

    def valuation(self, game: Game) -> TurnValuation:
        """The values of the active player's moves this turn.

        A wipe changes only the market's tokens, which no value depends on, so the
        turn's decisions after it reuse the valuation: it is kept for the same state
        object (which it holds, so its id is not reused), turn, board and market tiles."""
        state = game.state
        board = state.active.environment
        position = (id(state), state.turn, len(board.tiles), len(board.wildlife), *state.market_tiles)
        if self._turn is None or self._turn[0] != position:
            valuation = TurnValuation(state, game.market_tile_rotations(), self.cards, self.tokens)
            self._turn = (position, valuation)
        return self._turn[1]

    def spends_nature(self, game: Game) -> bool:
        """Whether the bot may spend nature tokens this turn (the greedy always may)."""
        return True

    def decide_move(self, game: Game) -> Move:
        """The best move now, without wiping first."""
        return Market(game, self.valuation(game)).best().move

    def decide(self, game: Game, wipes: bool = True) -> Decision:
        """The next decision of the turn: a wipe worth its draw, else the best move."""
        spends = self.spends_nature(game)
        market = Market(game, self.valuation(game), spends)
        best = market.best()
        if not wipes:
            return best.move
        if game.can_wipe_three():
            slots = three_alike(game.state.market_wildlife)
            if market.expected_after_wipe(slots, spent=0) > best.value:
                return WipeThree()
        if spends and "wipe" in game.nature_actions():
            cost = game.nature_cost()
            choice = market.best_nature_wipe(best)
            if choice is not None and choice[0] - cost > best.value:
                return NatureWipe(choice[1])
        return best.move


def three_alike(market: Sequence[str | None]) -> tuple[int, ...]:
    """The slots of the three alike tokens of a market that has exactly three alike."""
    for species in WILDLIFE:
        slots = tuple(s for s, w in enumerate(market) if w == species)
        if len(slots) == 3:
            return slots
    raise ValueError("no three alike in the market")


class Choice:
    """A whole move with its value (the nature tokens it spends counted)."""

    __slots__ = ("_best", "_move", "_slots", "cost", "key", "value")

    def __init__(self, tile_slot: int, wildlife_slot: int, cost: int, best: MoveValue) -> None:
        self.value = best.value - cost
        self.cost = cost
        self.key = (self.value, -cost, *best.shape)
        self._slots = (tile_slot, wildlife_slot)
        self._best = best
        self._move: Move | None = None

    @property
    def move(self) -> Move:
        """The move's commands as one decision (made when first asked: most choices
        are only compared)."""
        if self._move is None:
            (q, r), rotation = self._best.placement
            tile_slot, wildlife_slot = self._slots
            self._move = Move(tile_slot, wildlife_slot, self.cost > 0, (q, r), rotation, self._best.target)
        return self._move


class Market:
    """The market seen by the active player: the best move, and what wipes would bring."""

    def __init__(self, game: Game, valuation: TurnValuation, spends: bool = True) -> None:
        """``spends``: whether free choice may be bought."""
        state = game.state
        self.valuation = valuation
        self.tiles = list(state.market_tiles)
        self.tokens = list(state.market_wildlife)
        self.bag = list(state.bag)
        total = sum(self.bag)
        self.shares = [
            (species, count / total) for count, species in zip(self.bag, WILDLIFE, strict=True) if count
        ]
        """Each species in the bag with its share of the bag: the chance a draw is one."""
        self.cost = game.nature_cost()
        self.nature = state.active.nature_tokens
        self.can_choose_freely = spends and "free_choice" in game.nature_actions()
        self._values: dict[tuple[int, str], int] = {}
        self._slot_values: dict[tuple[int, str, bool], int] = {}

    def best(self) -> Choice:
        """The best move with the market as it is."""
        best: Choice | None = None
        tiles, tokens = self.tiles, self.tokens
        for slot, tile in enumerate(tiles):
            species = tokens[slot]
            if tile is not None and species is not None:
                choice = Choice(slot, slot, 0, self.valuation.best_move(tile, species))
                if best is None or choice.key > best.key:
                    best = choice
        if self.can_choose_freely and self.nature >= self.cost:
            valuation, cost = self.valuation, self.cost
            for t, tile in enumerate(tiles):
                for w, species in enumerate(tokens):
                    if t != w and tile is not None and species is not None:
                        if valuation.value_bound(tile, species) - cost < best.value:
                            continue  # it cannot beat the best
                        choice = Choice(t, w, cost, valuation.best_move(tile, species))
                        if choice.key > best.key:
                            best = choice
        assert best is not None, "the market offers no pair"
        return best

    def _value(self, slot: int, species: str) -> int:
        key = (slot, species)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self.valuation.best_move(self.tiles[slot], species).value
        return found

    def _slot_value(self, slot: int, species: str, free: bool) -> int:
        """The best move that uses a ``species`` token in ``slot``: its pair, or with
        free choice (at its cost) any tile with it."""
        key = (slot, species, free)
        found = self._slot_values.get(key)
        if found is not None:
            return found
        best = self._value(slot, species) if self.tiles[slot] is not None else None
        if free:
            for t, tile in enumerate(self.tiles):
                if t != slot and tile is not None:
                    value = self._value(t, species) - self.cost
                    if best is None or value > best:
                        best = value
        found = self._slot_values[key] = best if best is not None else -(10**9)
        return found

    def expected_after_wipe(self, slots: Sequence[int], spent: int) -> float:
        """The expected value of the best move after the tokens of ``slots`` are wiped.

        Each replacement is taken as an independent draw with the bag's proportions
        (the bag holds dozens of tokens, so drawing two or three without replacement
        differs little). The best move is the largest of per-slot values, each a
        function of that slot's token alone (its pair, or with free choice any tile
        with it), so ``P(best <= x)`` is the product of the slots' ``P(value <= x)``
        and the expectation follows from that distribution exactly."""
        free = self.can_choose_freely and self.nature - spent >= self.cost
        kept = [(s, w) for s, w in enumerate(self.tokens) if w is not None and s not in slots]
        fixed = max((self._slot_value(s, w, free) for s, w in kept), default=-(10**9))
        laws: list[dict[int, float]] = []
        for slot in slots:
            law: dict[int, float] = {}
            for species, share in self.shares:
                value = max(fixed, self._slot_value(slot, species, free))
                law[value] = law.get(value, 0.0) + share
            laws.append(law)
        expected = 0.0
        below = 0.0
        for x in sorted({fixed}.union(*laws)):
            at_most = 1.0
            for law in laws:
                at_most *= sum(p for value, p in law.items() if value <= x)
            expected += x * (at_most - below)
            below = at_most
        return expected

    def best_nature_wipe(self, best: Choice) -> tuple[float, tuple[int, ...]] | None:
        """The best expected value of a nature wipe (before its cost) and its slots,
        among the subsets of the token slots other than the best move's own token."""
        keep = best.move.wildlife_slot
        others = [s for s, w in enumerate(self.tokens) if w is not None and s != keep]
        found: tuple[float, tuple[int, ...]] | None = None
        for size in range(1, len(others) + 1):
            for slots in combinations(others, size):
                expected = self.expected_after_wipe(slots, spent=self.cost)
                if found is None or expected > found[0]:
                    found = (expected, slots)
        return found
