"""The greedy bot: only legal moves, deterministic, and the best immediate move by its
objective (its own total on the score sheet after the move), checked by brute force."""

from __future__ import annotations

import statistics

import pytest
from bot_harness import best_total, legal_moves, own_total, total_after
from cascadia.bots.decisions import Move, NatureWipe, WipeThree
from cascadia.bots.greedy_bot import GreedyBot, Market
from cascadia.bots.registry import make_bots, play_game
from cascadia.domain.components import TILES
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.projections.game_scores import score_state
from hypothesis import given, settings
from hypothesis import strategies as st

# Positions: (seed, seats, options, turn). Cards that read other species' tokens (fox
# A-D, salmon D, hawk D) and options that change corridor scoring are all covered.
POSITIONS = [
    (11, 2, GameOptions(cards="all-a"), 9),
    (12, 2, GameOptions(cards="B,C,D,D,B"), 17),
    (13, 2, GameOptions(cards="C,D,D,C,C"), 21),
    (14, 3, GameOptions(cards="D,A,B,D,D", corridors_of_three=True), 20),
    (15, 1, GameOptions(cards="A,B,C,B,D", two_card_sets=True), 12),
    (16, 2, GameOptions(cards="all-a", majority_bonus=False, corridors_min_five=True), 23),
    (17, 2, GameOptions(cards="B,A,A,C,B", no_token_on_new_tile=True), 15),
]


def _position(seed: int, seats: int, options: GameOptions, turn: int) -> Game:
    names = ["greedy", "random"][:seats] if seats <= 2 else ["greedy", "random", "greedy"]
    game = Game.start(seed, names, options)
    bots = make_bots(names, seed)
    while game.state.turn < turn:
        bots[game.current_player].play_turn(game)
    return game


@pytest.mark.parametrize(("seed", "seats", "options", "turn"), POSITIONS)
def test_greedy_move_is_the_best_of_all_legal_moves(seed, seats, options, turn) -> None:
    """The greedy's move reaches the highest total of every legal move (free choice
    included), and the value it gave the move is exactly the change of its total."""
    game = _position(seed, seats, options, turn)
    bot = GreedyBot(seed, game.current_player)
    choice = Market(game, bot.valuation(game)).best()
    before = own_total(game, game.current_player)
    reached = total_after(game, choice.move)
    assert reached - before == choice.value
    assert reached == best_total(game)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    cards=st.sampled_from(("random", "all-a", "D,D,D,D,D", "family", "intermediate")),
    turns=st.integers(1, 60),
    pick=st.integers(0, 10**6),
)
def test_move_values_are_the_exact_change_of_the_total(seed, players, cards, turns, pick) -> None:
    """Any legal move (not only the best): tile part + token part - cost, as valued, is
    the change of the player's total on the real score sheet."""
    game = Game.start(seed, players, GameOptions(cards=cards))
    bots = make_bots(["random"] * players, seed)
    while not game.finished and game.state.turn < turns:
        bots[game.current_player].play_turn(game)
    if game.finished:
        return
    moves = list(legal_moves(game))
    move = moves[pick % len(moves)]
    valuation = GreedyBot(seed, game.current_player).valuation(game)
    tile = game.state.market_tiles[move.tile_slot]
    species = game.state.market_wildlife[move.wildlife_slot]
    value = valuation.placement_value(tile, move.hex, move.rotation)[0]
    if move.target is not None:
        value += valuation.token_value(species, move.target, tile if move.target == move.hex else None)
    value -= game.nature_cost() if move.free_choice else 0
    assert total_after(game, move) - own_total(game, game.current_player) == value


def test_three_alike_is_wiped_when_the_expected_move_is_better() -> None:
    """Somewhere in a few games the bot uses the optional wipe and a nature wipe, and
    never a wipe that the rules refuse (the game would raise)."""
    used = {WipeThree: 0, NatureWipe: 0}
    for seed in range(6):
        game = Game.start(seed, 3, GameOptions(cards="all-a"))
        bots = [GreedyBot(seed, seat) for seat in range(3)]
        while not game.finished:
            bot = bots[game.current_player]
            decision = bot.decide(game)
            if type(decision) in used:
                used[type(decision)] += 1
            bot.play_turn(game)
    assert used[WipeThree] > 0 and used[NatureWipe] > 0


def test_a_token_is_valued_by_every_card_it_touches() -> None:
    """A hawk next to a fox under the A cards is worth its own card (a lone hawk: 2)
    and the fox's new neighbour species (fox A: +1), plus a keystone's nature token."""
    game = _position(11, 2, GameOptions(cards="all-a"), 1)
    environment = game.state.active.environment
    assert {h: TILES[t].wildlife for h, (t, _) in environment.tiles.items()} == {
        (0, 0): ("hawk",),
        (-1, 1): ("elk", "salmon", "hawk"),
        (0, 1): ("bear", "fox"),
    }
    environment.wildlife[(0, 1)] = "fox"
    valuation = GreedyBot(11, game.current_player).valuation(game)
    assert valuation.token_value("hawk", (0, 0)) == 2 + 1 + 1  # (0, 0) is a keystone
    assert valuation.token_value("hawk", (-1, 1)) == 2 + 1


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    rule=st.sampled_from((None, *RESTRICTIONS)),
)
def test_greedy_plays_only_legal_moves_to_the_end(seed: int, players: int, rule: str | None) -> None:
    """Any illegal command would raise; the game must finish with every turn played."""
    options = GameOptions(**({rule: True} if rule else {}))
    game = play_game(seed, ["greedy"] * players, options)
    assert game.finished
    replayed = Game.replay(game.collect_events())
    assert replayed.state == game.state


def test_greedy_is_deterministic() -> None:
    a = play_game(5, ["greedy", "random", "greedy"]).collect_events()
    b = play_game(5, ["greedy", "random", "greedy"]).collect_events()
    assert [(e.type, e.payload()) for e in a] == [(e.type, e.payload()) for e in b]


def test_greedy_decisions_are_moves_after_its_wipes() -> None:
    game = Game.start(2, 2, GameOptions())
    decision = GreedyBot(2, game.current_player).decide(game, wipes=False)
    assert isinstance(decision, Move)


def test_greedy_beats_random_on_average() -> None:
    totals = {"greedy": [], "random": []}
    for seed in range(6):
        game = play_game(seed, ["greedy", "random"], GameOptions(cards="all-a"))
        sheet = score_state(game.state)
        for seat, name in enumerate(game.state.names):
            totals[name].append(sheet.players[seat].total)
    assert statistics.fmean(totals["greedy"]) > statistics.fmean(totals["random"]) + 20
