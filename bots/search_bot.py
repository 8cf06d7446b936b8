"""A search bot: determinised Monte Carlo over the hidden draws, greedy look-ahead.

Each turn:

1. Wipes are decided as the greedy bot decides them (expected value of the draw).
2. Candidate moves (:meth:`SearchBot.candidate_moves`): a pool of up to ``pool`` moves,
   the greedy's move first, then the moves of every take (pairs, and free-choice
   combinations when affordable) in turn, best takes first; within a take, each way of
   using the token (returned, on the best few targets, on the new tile) with the best
   tile placement, then other placements. Each carries its exact immediate value
   (:mod:`cascadia.bots.valuation`). Where a potential is known (below), each is also
   valued one ply ahead, immediate value plus the potential of the board it leaves, and
   the greedy's move and the ``candidates - 1`` best of the pool by that value go on:
   a move that scores little now but builds (a corridor's open front, a bear waiting
   for its pair) is searched too. Elsewhere the first ``candidates`` of the pool go on.
3. Each candidate is played on determinised copies of the game: the hidden
   information (the order of the tile stack, the bag's draws) is re-sampled by giving
   the copy a seed drawn from the bot's own stream, so nothing is read of the real
   future draws (the game's seed is never used: every copy's refills come from the
   unrevealed tiles and the bag, which every player can count). Opponents then play a
   cheap policy (a random pair, the tile on its first legal place, the token
   returned), and the bot plays its own next ``depth`` turns greedily. A sample's
   value is the candidate's immediate value plus the greedy values of those turns
   plus the potential of the position reached (the points still to come, fitted on
   self-play, left out with ``leaf=False``): the card potential
   (:mod:`cascadia.bots.card_potential`, the A model in games with all A cards and no
   majority bonuses), known in every game with one card set; with ``model=None`` the
   A model alone, known in those games only (0 elsewhere: the search before issue 25).
   With ``depth=0`` nothing is sampled: the bot plays the candidate of the best one-ply
   value (a one-ply bot: :class:`OnePlyBot`).
   Every candidate sees the same determinisations (common random numbers), so their
   differences are not drowned by the luck of the draw.
4. Successive halving spends the budget: all candidates get a few samples, the
   better half gets more, and so on; the best mean wins (ties: higher immediate value,
   then the greedy's order).

The budget is a number of rollouts per move (``iterations``, split evenly over the
halving rounds; every live candidate gets at least one rollout a round, so tiny budgets
spend a little more): the same seed gives the same moves. A time budget (``seconds``)
may be given as well; it stops the search early and is not reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from cascadia.bots.base import PlanningBot, bot_stream
from cascadia.bots.card_potential import PACKAGED, CardModel, covers, estimate
from cascadia.bots.decisions import Move, commands_of, issue
from cascadia.bots.greedy_bot import GreedyBot, Market
from cascadia.bots.potential import applies, potential
from cascadia.bots.valuation import TurnValuation
from cascadia.domain.commands import Command, PlaceTile, ReturnWildlife, Take
from cascadia.domain.components import TILES
from cascadia.domain.game import Game
from cascadia.domain.rng import DrawStream
from cascadia.domain.state import GameState

MAX_SEED = 2**64 - 1
DEFAULT_ITERATIONS = 200
DEFAULT_CANDIDATES = 16
DEFAULT_POOL = 80
DEFAULT_DEPTH = 2
PLACEMENTS_PER_TAKE = 6
TARGETS_PER_TAKE = 3


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move with its immediate value (the change of the total it makes now) and its
    one-ply value (the immediate value plus the potential after it; the immediate value
    where no potential is known)."""

    move: Move
    value: int
    rank: int
    outlook: float


class SearchBot(PlanningBot):
    """Chooses among the best immediate moves by sampled greedy look-ahead."""

    name = "search"

    def __init__(
        self,
        seed: int,
        seat: int,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        pool: int = DEFAULT_POOL,
        depth: int = DEFAULT_DEPTH,
        leaf: bool = True,
        model: CardModel | None = PACKAGED,
    ) -> None:
        super().__init__()
        self.seat = seat
        self.iterations = iterations
        self.seconds = seconds
        self.candidates = candidates
        self.pool = max(pool, candidates)
        self.depth = depth
        self.leaf = leaf
        self.model = model
        self.rng: DrawStream = bot_stream(self.name, seed, seat)
        self.greedy = GreedyBot(seed, seat)

    def plan(self, game: Game) -> Iterator[Command]:
        """The turn's commands: the greedy's wipes, then the searched move."""
        while not isinstance(decision := self.greedy.decide(game), Move):
            yield from commands_of(decision)
        yield from commands_of(self.decide_move(game))

    # -- deciding -------------------------------------------------------------------

    def decide_move(self, game: Game) -> Move:
        """The move to play now (after any wipes)."""
        valuation = self.greedy.valuation(game)
        candidates = self.candidate_moves(game, valuation)
        if len(candidates) == 1:
            return candidates[0].move
        if self.depth == 0:
            return self._one_ply(candidates)
        return self._search(game, candidates)

    def candidate_moves(self, game: Game, valuation: TurnValuation) -> list[Candidate]:
        """The moves worth searching, the greedy's move first: from :meth:`move_pool`,
        the best ``candidates - 1`` others by one-ply value where a potential is known,
        else the first of the pool."""
        pool = self.move_pool(game, valuation)
        if not (self.leaf and self._knows(game.state)):
            chosen = pool[: self.candidates]
            return [Candidate(move, value, rank, value) for rank, (move, value) in enumerate(chosen)]
        seat = game.state.current
        valued = [(move, value, value + self._potential_after(game, move, seat)) for move, value in pool]
        greedy, others = valued[0], sorted(valued[1:], key=lambda mvo: -mvo[2])
        chosen_with_outlook = [greedy, *others[: self.candidates - 1]]
        return [Candidate(m, v, rank, o) for rank, (m, v, o) in enumerate(chosen_with_outlook)]

    def move_pool(self, game: Game, valuation: TurnValuation) -> list[tuple[Move, int]]:
        """Up to ``pool`` moves with their immediate values, the greedy's move first:
        every take's moves by immediate value, taken in turn from each take (best takes
        first), so that each pair is tried and, within a take, each way of using the
        token (returned, on the best few targets, on the new tile) before other tile
        placements."""
        market = Market(game, valuation)
        greedy = market.best()
        takes = [(s, s, 0) for s, t in enumerate(market.tiles) if t is not None and market.tokens[s]]
        if market.can_choose_freely and market.nature >= market.cost:
            takes += [
                (t, w, market.cost)
                for t, tile in enumerate(market.tiles)
                for w, species in enumerate(market.tokens)
                if t != w and tile is not None and species is not None
            ]
        per_take = [self._take_moves(valuation, market, *take) for take in takes]
        per_take.sort(key=lambda moves: -moves[0][0])
        chosen: dict[Move, int] = {greedy.move: greedy.value}
        depth = 0
        while len(chosen) < self.pool and any(depth < len(moves) for moves in per_take):
            for moves in per_take:
                if depth < len(moves) and len(chosen) < self.pool:
                    value, move = moves[depth]
                    chosen.setdefault(move, value)
            depth += 1
        return list(chosen.items())

    @staticmethod
    def _take_moves(
        valuation: TurnValuation, market: Market, tile_slot: int, wildlife_slot: int, cost: int
    ) -> list[tuple[int, Move]]:
        """One take's moves, best first: each way of using the token with the best tile
        placement, then the next best placements with the best token use."""
        tile = market.tiles[tile_slot]
        species = market.tokens[wildlife_slot]
        assert tile is not None and species is not None
        places = sorted(valuation.tile_values(tile).values(), key=lambda v: (-v[0], -v[1]))
        tile_value, _, ((q, r), rotation) = places[0]
        open_targets = valuation.environment.wildlife_targets(species)
        gains = sorted(((valuation.token_value(species, h), h) for h in open_targets), key=lambda gh: -gh[0])
        on_board = max([(0, None), *gains[:1]], key=lambda gh: gh[0])
        free = cost > 0
        uses: list[tuple[int, Move]] = [
            (tile_value + gain - cost, Move(tile_slot, wildlife_slot, free, (q, r), rotation, target))
            for gain, target in [(0, None), *gains[:TARGETS_PER_TAKE]]
        ]
        if species in TILES[tile].wildlife and not valuation.options.no_token_on_new_tile:
            on_new = [
                (value + valuation.token_value(species, h, tile), (h, rot)) for value, _, (h, rot) in places
            ]
            value, ((nq, nr), rot) = max(on_new, key=lambda vp: vp[0])
            uses.append((value - cost, Move(tile_slot, wildlife_slot, free, (nq, nr), rot, (nq, nr))))
        uses.sort(key=lambda vm: -vm[0])
        gain, target = on_board
        others = [
            (value + gain - cost, Move(tile_slot, wildlife_slot, free, h, rot, target))
            for value, _, (h, rot) in places[1:PLACEMENTS_PER_TAKE]
        ]
        return uses + sorted(others, key=lambda vm: -vm[0])

    def _search(self, game: Game, candidates: list[Candidate]) -> Move:
        """Successive halving over the candidates with shared determinisations."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        rounds = max(1, (len(candidates) - 1).bit_length())
        per_round = max(1, self.iterations // rounds)
        totals = {c: 0.0 for c in candidates}
        counts = {c: 0 for c in candidates}
        alive = list(candidates)
        seeds: list[int] = []
        while len(alive) > 1:
            samples = max(1, per_round // len(alive))
            while len(seeds) < counts[alive[0]] + samples:
                seeds.append(self.rng.next(MAX_SEED))
            for candidate in alive:
                for sample in seeds[counts[candidate] : counts[candidate] + samples]:
                    totals[candidate] += self._rollout(game, candidate, sample)
                counts[candidate] += samples
                if deadline is not None and time.perf_counter() > deadline:
                    break
            done = [c for c in alive if counts[c] == counts[alive[0]]]
            done.sort(key=lambda c: (-totals[c] / counts[c], -c.value, c.rank))
            alive = done[: (len(done) + 1) // 2]  # the better half, rounded up
            if deadline is not None and time.perf_counter() > deadline:
                break
        return alive[0].move

    def _one_ply(self, candidates: list[Candidate]) -> Move:
        """Without look-ahead: the candidate of the best one-ply value (no draw is
        sampled, so that value is exact)."""
        return max(candidates, key=lambda c: (c.outlook, c.value, -c.rank)).move

    def _knows(self, state: GameState) -> bool:
        """Whether a potential is known in this game: the A model's games (all A cards, no
        majority bonuses), or with a card model every game with one card set."""
        return applies(state) if self.model is None else covers(state)

    def _potential(self, state: GameState, seat: int) -> float:
        """``seat``'s potential: the A model's (0 elsewhere), or the card model's."""
        if self.model is None:
            return potential(state, seat, self.greedy.cards)
        return estimate(state, seat, self.greedy.cards, self.model)

    def _potential_after(self, game: Game, move: Move, seat: int) -> float:
        """The potential of ``seat``'s board once ``move`` is played (the board alone
        decides it, so the copy's refill, drawn from seed 0, does not matter)."""
        probe = _determinised(game, 0)
        issue(probe, move)
        return self._potential(probe.state, seat)

    def _rollout(self, game: Game, candidate: Candidate, seed: int) -> float:
        """One determinised sample: the candidate, then cheap opponents and the bot's own
        next ``depth`` greedy turns; the immediate value plus the greedy values, plus the
        potential of the position reached (unless ``leaf`` is off)."""
        probe = _determinised(game, seed)
        me = probe.state.current
        issue(probe, candidate.move)
        value = float(candidate.value)
        rng = DrawStream(seed, stream=b"cascadia-bot/search/rollout/v1")
        for _ in range(self.depth):
            while not probe.finished and probe.current_player != me:
                _cheap_turn(probe, rng)
            if probe.finished:
                break
            best = Market(probe, self.greedy.valuation(probe)).best()
            value += best.value
            issue(probe, best.move)
        if self.leaf:
            value += self._potential(probe.state, me)
        return value


def _determinised(game: Game, seed: int) -> Game:
    """A copy of ``game`` whose future draws come from ``seed``: a sample of the hidden
    information, not the game's own draws."""
    state = game.state.copy()
    state.seed = seed
    return Game(state)


def _cheap_turn(game: Game, rng: DrawStream) -> None:
    """An opponent in a rollout: a random pair, the tile on its first legal place, the
    token returned (only the market they leave matters to the searching player)."""
    takes = game.legal_takes()
    game.execute(Take(*takes[rng.next(len(takes))]))
    (q, r), rotation = game.legal_tile_placements()[0]
    game.execute(PlaceTile(q, r, rotation))
    game.execute(ReturnWildlife())


class OnePlyBot(SearchBot):
    """``builder``: the search bot without look-ahead (one ply). Of the candidate moves it
    plays the one of the best immediate value plus the potential of the board it leaves:
    the greedy's eye for points now, and for what a board can still become. Nothing is
    sampled, so it is as blind to the draws to come as the greedy (about 20 times the
    greedy's CPU a move: 30 ms). Where no potential is known (two card sets) it plays the
    move of the best immediate value, as the greedy does."""

    name = "builder"

    def __init__(self, seed: int, seat: int, model: CardModel = PACKAGED) -> None:
        super().__init__(seed, seat, depth=0, model=model)
