"""The search bot: legal, reproducible for a seed, blind to the real future draws."""

from __future__ import annotations

import pytest
from cascadia.bots.decisions import Move, issue
from cascadia.bots.greedy_bot import GreedyBot, Market
from cascadia.bots.potential import potential
from cascadia.bots.registry import is_bot_name, make_bots, play_game
from cascadia.bots.search_bot import Candidate, SearchBot
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions


def _midgame(seed: int, players: int = 3, turn: int = 12) -> Game:
    game = Game.start(seed, players, GameOptions(cards="all-a", majority_bonus=False))
    bots = make_bots(["greedy"] * players, seed)
    while game.state.turn < turn:
        bots[game.current_player].play_turn(game)
    return game


def test_search_plays_legal_games_to_the_end_and_replays() -> None:
    game = play_game(4, ["search@2", "greedy"], GameOptions(cards="B,C,D,A,B", two_card_sets=True))
    assert game.finished
    assert Game.replay(game.collect_events()).state == game.state


def test_search_is_reproducible_for_a_seed() -> None:
    a = play_game(6, ["search@2"]).collect_events()
    b = play_game(6, ["search@2"]).collect_events()
    assert [(e.type, e.payload()) for e in a] == [(e.type, e.payload()) for e in b]


def test_the_real_future_draws_do_not_change_the_choice() -> None:
    """Two games alike in everything a player can see but with different hidden
    futures (another game seed: other stack order and bag draws) get the same move."""
    game = _midgame(21)
    other = Game(game.state.copy())
    other.state.seed = game.state.seed + 1
    seat = game.current_player
    first = SearchBot(5, seat, iterations=24).decide_move(game)
    second = SearchBot(5, seat, iterations=24).decide_move(other)
    assert first == second
    assert game.state == Game(game.state.copy()).state  # deciding changed nothing


def test_candidates_start_with_the_greedy_move_and_the_pool_covers_every_pair() -> None:
    game = _midgame(22)
    bot = SearchBot(1, game.current_player, candidates=12)
    valuation = bot.greedy.valuation(game)
    candidates = bot.candidate_moves(game, valuation)
    greedy = Market(game, GreedyBot(1, game.current_player).valuation(game)).best()
    assert candidates[0].move == greedy.move and candidates[0].value == greedy.value
    pairs = {s for s, t in enumerate(game.state.market_tiles) if t is not None}
    pool = bot.move_pool(game, valuation)
    assert pairs <= {move.tile_slot for move, _ in pool[:12] if not move.free_choice}
    assert len({c.move for c in candidates}) == len(candidates) == 12
    assert all(isinstance(c.move, Move) for c in candidates)


def test_candidate_values_are_the_exact_change_of_the_total() -> None:
    from bot_harness import own_total, total_after

    game = _midgame(23)
    bot = SearchBot(1, game.current_player, candidates=20)
    before = own_total(game, game.current_player)
    for candidate in bot.candidate_moves(game, bot.greedy.valuation(game)):
        assert total_after(game, candidate.move) - before == candidate.value


def test_budgeted_names() -> None:
    assert is_bot_name("search@200") and is_bot_name("search") and is_bot_name("greedy")
    assert not is_bot_name("search@0") and not is_bot_name("greedy@5") and not is_bot_name("search@x")
    assert make_bots(["search@7"], 1)[0].iterations == 7
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        make_bots(["search@"], 1)


def test_a_time_budget_that_runs_out_at_once_still_gives_a_candidate_move() -> None:
    game = _midgame(24)
    bot = SearchBot(1, game.current_player, seconds=0.0)
    move = bot.decide_move(game)
    candidates = bot.candidate_moves(game, bot.greedy.valuation(game))
    assert move in {c.move for c in candidates}


def _all_a_midgame(seed: int, turn: int = 30) -> Game:
    game = Game.start(seed, 4, GameOptions(cards="all-a", majority_bonus=False))
    bots = make_bots(["greedy"] * 4, seed)
    while game.state.turn < turn:
        bots[game.current_player].play_turn(game)
    return game


def test_without_look_ahead_the_move_maximises_immediate_value_plus_potential() -> None:
    game = _all_a_midgame(25)
    seat = game.current_player
    bot = SearchBot(1, seat, depth=0)
    candidates = bot.candidate_moves(game, bot.greedy.valuation(game))

    def worth(candidate: Candidate) -> tuple[float, int, int]:
        after = Game(game.state.copy())
        issue(after, candidate.move)
        return (candidate.value + potential(after.state, seat), candidate.value, -candidate.rank)

    expected = max(candidates, key=worth)
    assert potential(game.state, seat) > 0
    assert bot.decide_move(game) == expected.move


def test_with_the_potential_the_search_stays_reproducible_and_blind_to_the_real_draws() -> None:
    game = _all_a_midgame(26)
    other = Game(game.state.copy())
    other.state.seed = game.state.seed + 1
    seat = game.current_player
    moves = {SearchBot(5, seat, iterations=12).decide_move(g) for g in (game, other, game)}
    assert len(moves) == 1


def test_the_candidates_are_the_pool_moves_of_the_best_one_ply_value() -> None:
    """Where the potential applies, the greedy's move and the best others of the pool by
    immediate value plus the potential after them are searched."""
    game = _all_a_midgame(27)
    seat = game.current_player
    bot = SearchBot(1, seat, candidates=6, pool=30)
    valuation = bot.greedy.valuation(game)
    pool = bot.move_pool(game, valuation)
    candidates = bot.candidate_moves(game, valuation)

    def outlook(move: Move, value: int) -> float:
        after = Game(game.state.copy())
        issue(after, move)
        return value + potential(after.state, seat)

    assert len(pool) == 30 and len(candidates) == 6
    assert candidates[0].move == pool[0][0]
    chosen = {c.move for c in candidates}
    worst_chosen = min(c.outlook for c in candidates[1:])
    assert all(c.outlook == pytest.approx(outlook(c.move, c.value)) for c in candidates)
    assert all(outlook(m, v) <= worst_chosen + 1e-9 for m, v in pool if m not in chosen)
    assert any(pool.index((c.move, c.value)) >= 6 for c in candidates)


def test_without_the_potential_the_candidates_are_the_head_of_the_pool() -> None:
    game = _midgame(28)  # three players, all A, no majority: but leaf=False
    bot = SearchBot(1, game.current_player, candidates=8, leaf=False)
    valuation = bot.greedy.valuation(game)
    head = bot.move_pool(game, valuation)[:8]
    assert [(c.move, c.value) for c in bot.candidate_moves(game, valuation)] == head


def test_the_search_spends_its_budget_of_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Halving down to one candidate takes ceil(log2(candidates)) rounds, each a share
    of the budget: no round's share is left unspent."""
    game = _all_a_midgame(29)
    bot = SearchBot(1, game.current_player, iterations=200, candidates=12)
    calls: list[int] = []
    rollout = SearchBot._rollout

    def counted(self: SearchBot, game: Game, candidate: Candidate, seed: int) -> float:
        calls.append(seed)
        return rollout(self, game, candidate, seed)

    monkeypatch.setattr(SearchBot, "_rollout", counted)
    bot.decide_move(game)
    assert 190 <= len(calls) <= 200
