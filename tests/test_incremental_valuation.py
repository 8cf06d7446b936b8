"""Incremental move values equal full rescoring, on random boards under every card.

The bots' valuation rescores only what a token touches (the groups next to it, the
foxes next to it); this checks it against the scoring projection run on the whole
board before and after, for random boards, every card letter and variant, both
salmon-run and elk-ring rulings, and two card sets; and token values kept from one
valuation to the next against values found afresh, over whole greedy games."""

from __future__ import annotations

from cascadia.bots.registry import make_bots
from cascadia.bots.valuation import KEYSTONE, CardCache, TokenMemo, TurnValuation
from cascadia.domain.components import CARD_LETTERS, HABITAT_TILE_COUNT, TILES, VARIANT_CARDS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.hexgrid import neighbours
from cascadia.domain.options import GameOptions
from cascadia.projections.wildlife import score_wildlife
from hypothesis import given, settings
from hypothesis import strategies as st

CARD = st.sampled_from((*CARD_LETTERS, *VARIANT_CARDS))


@st.composite
def boards(draw):
    """A game position whose active board is a random compact board with random tokens."""
    options = GameOptions(
        cards=",".join(draw(st.lists(st.sampled_from(CARD_LETTERS), min_size=5, max_size=5))),
        salmon_runs=draw(st.sampled_from(("strict", "lenient"))),
        elk_rings=draw(st.sampled_from(("arc", "any-subset"))),
        two_card_sets=draw(st.booleans()),
    )
    game = Game.start(draw(st.integers(0, 2**32)), 2, options)
    cards = {species: draw(CARD) for species in WILDLIFE}
    game.state.cards = cards
    environment = game.state.active.environment
    tiles = draw(st.lists(st.integers(0, HABITAT_TILE_COUNT - 1), min_size=4, max_size=22, unique=True))
    for tile in tiles:
        free = environment.open_hexes()
        environment.tiles[free[draw(st.integers(0, len(free) - 1))]] = (tile, draw(st.integers(0, 5)))
    for h, (tile, _) in list(environment.tiles.items()):
        if draw(st.integers(0, 3)):
            environment.wildlife[h] = draw(st.sampled_from(TILES[tile].wildlife))
    return game


@settings(max_examples=150, deadline=None)
@given(game=boards(), pick=st.integers(0, 10**6), species=st.sampled_from(WILDLIFE))
def test_token_value_is_the_change_of_the_full_wildlife_score(game: Game, pick: int, species: str) -> None:
    check_token_value(game, pick, species, CardCache())


SHARED_CACHE = CardCache()
"""Card scores remembered over the examples of the next test, whatever their options, as
a bot remembers them over its games."""


@settings(max_examples=300, deadline=None)
@given(game=boards(), pick=st.integers(0, 10**6), species=st.sampled_from(WILDLIFE))
def test_token_value_with_scores_remembered_from_other_boards(game: Game, pick: int, species: str) -> None:
    """Scores remembered by the tokens a card reads, or by the group sizes for the cards
    that read only those (the bear cards, hawk A), hold on any board and under any
    options."""
    check_token_value(game, pick, species, SHARED_CACHE)


def test_one_cache_keeps_each_ruling_s_scores_apart() -> None:
    """Elk D scores these three elk 7 with arcs and 8 with any subset of a ring (RULES.md
    5.4): one cache asked under both rulings, in either order, gives each its own."""
    elk = dict.fromkeys([(-1, 1), (1, -1), (1, 0)], "elk")
    tokens = frozenset(elk)
    arc, any_subset = GameOptions(elk_rings="arc"), GameOptions(elk_rings="any-subset")
    cache = CardCache()
    assert cache.points("elk", "D", tokens, elk, arc) == 7
    assert cache.known("elk", "D", tokens, any_subset) is None
    assert cache.points("elk", "D", tokens, elk, any_subset) == 8
    assert cache.known("elk", "D", tokens, GameOptions(elk_rings="arc", cards="all-a")) == 7


def check_token_value(game: Game, pick: int, species: str, cards: CardCache) -> None:
    state = game.state
    environment = state.active.environment
    open_hexes = [h for h in environment.tiles if h not in environment.wildlife]
    new_hexes = environment.open_hexes()
    candidates = open_hexes + new_hexes
    h = candidates[pick % len(candidates)]
    new_tile = None if h in environment.tiles else 0  # tile 0 is a keystone: +1
    valuation = TurnValuation(state, {}, cards)
    after = {**environment.wildlife, h: species}
    sets = [state.cards]
    if state.options.two_card_sets and state.second_cards:
        sets.append(state.second_cards)

    def best(wildlife):
        return max(sum(score_wildlife(wildlife, cards, state.options).values()) for cards in sets)

    keystone = TILES[environment.tiles[h][0] if new_tile is None else new_tile].keystone
    expected = best(after) - best(environment.wildlife) + (1 if keystone else 0)
    assert valuation.token_value(species, h, new_tile) == expected
    assert any(n in environment.tiles for n in neighbours(h)) or h in environment.tiles


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    letters=st.lists(st.sampled_from(CARD_LETTERS), min_size=5, max_size=5),
    players=st.integers(1, 3),
    two_sets=st.booleans(),
)
def test_token_values_kept_between_valuations_equal_values_found_afresh(
    seed: int, letters: list[str], players: int, two_sets: bool
) -> None:
    """A :class:`TokenMemo` per seat over every turn of a greedy game (as each seat's bot
    keeps one), and one shared by all seats (each board then differs from the last by more
    than a token, as a search's what-if boards may): every token value equals a fresh
    valuation's, and the seats' memos did keep values."""
    options = GameOptions(cards=",".join(letters), two_card_sets=two_sets)
    game = Game.start(seed, ["greedy"] * players, options)
    bots = make_bots(["greedy"] * players, seed)
    memos, shared, cards = [TokenMemo() for _ in range(players)], TokenMemo(), CardCache()
    reused = 0
    while not game.finished:
        state = game.state
        environment = state.active.environment
        card_sets = [dict(state.cards)] + ([dict(state.second_cards)] if two_sets else [])
        remembered = memos[state.current].values(environment.wildlife, card_sets, options)
        reused += sum(len(found) for found in remembered.values())
        valuations = [TurnValuation(state, {}, cards, memo) for memo in (memos[state.current], shared)]
        fresh = TurnValuation(state, {})
        empty = [h for h in environment.tiles if h not in environment.wildlife]
        for species in WILDLIFE:
            for valuation in valuations:
                for h in environment.open_hexes():
                    assert valuation.token_value(species, h, 0) == fresh.token_value(species, h, 0)
                for h in empty:
                    assert valuation.token_value(species, h) == fresh.token_value(species, h)
        bots[game.current_player].play_turn(game)
    if not two_sets and "D" not in letters[2:]:  # no whole-board reader: values are kept
        assert reused


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    cards=st.lists(CARD, min_size=5, max_size=5),
    elk_rings=st.sampled_from(("arc", "any-subset")),
    salmon_runs=st.sampled_from(("strict", "lenient")),
)
def test_token_values_kept_under_any_cards_equal_values_found_afresh(
    seed: int, cards: list[str], elk_rings: str, salmon_runs: str
) -> None:
    """The memo keeps a value of the placed species next to no group it changed (cards
    that sum over groups: elk, salmon, the variant cards, under either ruling) and values
    that fox A-C do not read the new token for: over a greedy game with any card per
    species (set on the state, as a what-if may), every kept value equals a fresh one."""
    options = GameOptions(elk_rings=elk_rings, salmon_runs=salmon_runs)
    game = Game.start(seed, ["greedy"] * 2, options)
    game.state.cards = dict(zip(WILDLIFE, cards, strict=True))
    bots = make_bots(["greedy"] * 2, seed)
    memos, cache = [TokenMemo(), TokenMemo()], CardCache()
    card_sets = [dict(game.state.cards)]
    reused = 0
    while not game.finished:
        state = game.state
        environment = state.active.environment
        remembered = memos[state.current].values(environment.wildlife, card_sets, options)
        reused += sum(len(found) for found in remembered.values())
        fresh = TurnValuation(state, {})
        for species, found in remembered.items():
            for h, value in found.items():
                assert value + KEYSTONE[0] == fresh.token_value(species, h, 0), (species, h)
        valuation = TurnValuation(state, {}, cache, memos[state.current])
        for species in WILDLIFE:
            for h in environment.open_hexes() + environment.wildlife_targets(species):
                valuation.token_value(species, h, 0)
        bots[game.current_player].play_turn(game)
    if not {("fox", "D"), ("salmon", "D"), ("hawk", "D")} & set(card_sets[0].items()):
        assert reused


@settings(max_examples=100, deadline=None)
@given(
    game=boards(),
    tile=st.integers(0, HABITAT_TILE_COUNT - 1),
    legal=st.lists(st.integers(0, 5), min_size=1, max_size=6, unique=True),
)
def test_tile_values_are_the_best_rotation_of_each_placement(game: Game, tile: int, legal: list[int]) -> None:
    """Each hex's entry of ``tile_values`` (which values one rotation per distinct set of
    matching edges) is the first rotation, among any legal ones in any order, with the
    best (value, matching edges) of :meth:`TurnValuation.placement_value`, which values
    the rotation's edges one by one."""
    rotations = (0,) if TILES[tile].keystone else tuple(legal)
    placements = {tile: dict.fromkeys(game.state.active.environment.open_hexes(), rotations)}
    values = TurnValuation(game.state, placements).tile_values(tile)
    direct = TurnValuation(game.state, placements)
    for h, (value, matching, placement) in values.items():
        ranked = [(direct.placement_value(tile, h, rotation), rotation) for rotation in rotations]
        best = max(rank for rank, _ in ranked)
        assert (value, matching) == best
        assert placement == (h, next(rotation for rank, rotation in ranked if rank == best))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), cards=st.lists(CARD, min_size=5, max_size=5), players=st.integers(1, 3))
def test_species_points_carried_between_valuations_equal_a_fresh_score(
    seed: int, cards: list[str], players: int
) -> None:
    """A seat's :class:`TokenMemo` carries its species points from one turn to the next
    (the last points plus the card changes of the token placed): over a greedy game with
    any cards they equal the whole board scored afresh, and they were carried."""
    game = Game.start(seed, ["greedy"] * players, GameOptions())
    game.state.cards = dict(zip(WILDLIFE, cards, strict=True))
    bots = make_bots(["greedy"] * players, seed)
    memos, carried = [TokenMemo() for _ in range(players)], 0
    while not game.finished:
        state = game.state
        memo = memos[state.current]
        memo.values(state.active.environment.wildlife, [dict(state.cards)], state.options)
        carried += memo.points is not None
        valuation = TurnValuation(state, {}, CardCache(), memo)
        environment = state.active.environment
        assert valuation.species_points() == score_wildlife(environment.wildlife, state.cards)
        for species in WILDLIFE:  # every target valued, the move's among them
            for h in environment.open_hexes() + environment.wildlife_targets(species):
                valuation.token_value(species, h, 0)
        bots[game.current_player].play_turn(game)
    if not {("fox", "D"), ("salmon", "D"), ("hawk", "D")} & set(game.state.cards.items()):
        assert carried
