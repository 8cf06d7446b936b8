"""The card potential: its blocks follow the cards in play, the A model is kept where it
was fitted, and the estimate is the fitted linear model on the blocks' terms."""

from __future__ import annotations

from pathlib import Path

import pytest
from cascadia.bots import card_potential_coefficients as fitted
from cascadia.bots.card_potential import (
    CARDS,
    PACKAGED,
    SCORING,
    CardModel,
    covers,
    estimate,
    leads,
    shared_names,
    species_names,
    terms,
)
from cascadia.bots.potential import potential, turns_left
from cascadia.bots.registry import make_bots
from cascadia.domain.components import HABITATS, WILDLIFE
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.habitats import largest_corridors


def _played(options: GameOptions, turns: int, seed: int = 11) -> Game:
    """A 4-player game after ``turns`` turns of the greedy bot."""
    game = Game.start(seed, 4, options)
    bots = make_bots(["greedy"] * 4, seed)
    for _ in range(turns):
        bots[game.current_player].play_turn(game)
    return game


def test_every_block_of_the_module_has_one_coefficient_per_term() -> None:
    assert set(fitted.SHARED) == set(SCORING)
    for scoring in SCORING:
        assert len(fitted.SHARED[scoring]) == len(shared_names(scoring))
    assert set(fitted.SPECIES) == set(WILDLIFE)
    for species in WILDLIFE:
        assert set(fitted.SPECIES[species]) == set(CARDS)
        for card in CARDS:
            assert len(fitted.SPECIES[species][card]) == len(species_names(species))


def test_the_blocks_are_the_cards_in_play_and_the_scoring() -> None:
    game = _played(GameOptions(cards="A,B,C,D,B"), turns=8)
    seat = game.current_player
    blocks = terms(game.state, seat, turns_left(game.state, seat))
    assert set(blocks) == {
        ("shared", "majority"),
        ("bear", "A"),
        ("elk", "B"),
        ("salmon", "C"),
        ("hawk", "D"),
        ("fox", "B"),
    }
    assert len(blocks[("shared", "majority")]) == len(shared_names("majority"))
    species_blocks = [(key, values) for key, values in blocks.items() if key[0] != "shared"]
    assert all(len(values) == len(species_names(key[0])) for key, values in species_blocks)
    family = _played(GameOptions(cards="family", majority_bonus=False), turns=8)
    assert ("shared", "none") in terms(family.state, 0, 5)
    assert all(key[1] == "family" for key in terms(family.state, 0, 5) if key[0] != "shared")


def test_leads_are_the_largest_corridor_against_the_best_other() -> None:
    game = _played(GameOptions(cards="random"), turns=12)
    largest = [largest_corridors(p.environment) for p in game.state.players]
    for seat in range(4):
        expected = [largest[seat][h] - max(largest[o][h] for o in range(4) if o != seat) for h in HABITATS]
        assert leads(game.state, seat) == expected


def test_the_estimate_is_the_linear_model_on_the_terms() -> None:
    game = _played(GameOptions(cards="B,C,D,A,C"), turns=10)
    seat = 1
    turns = turns_left(game.state, seat)
    expected = sum(
        value * coefficient
        for key, values in terms(game.state, seat, turns).items()
        for value, coefficient in zip(values, PACKAGED.coefficients(key), strict=True)
    )
    assert estimate(game.state, seat) == expected
    assert estimate(game.state, seat) != 0.0


def test_all_a_games_without_majority_keep_the_a_model() -> None:
    game = _played(GameOptions(cards="all-a", majority_bonus=False), turns=9)
    for seat in range(4):
        assert estimate(game.state, seat) == potential(game.state, seat) != 0.0


def test_no_turn_left_solo_or_two_card_sets_estimate_nothing() -> None:
    two_sets = Game.start(3, 2, GameOptions(cards="A,B,C,D,A", two_card_sets=True))
    assert not covers(two_sets.state) and estimate(two_sets.state, 0) == 0.0
    solo = Game.start(3, 1, GameOptions(cards="B,C,D,A,B"))
    assert not covers(solo.state) and estimate(solo.state, 0) == 0.0
    assert covers(Game.start(3, 2, GameOptions(cards="B,C,D,A,B")).state)
    game = _played(GameOptions(cards="random"), turns=80)
    assert game.finished
    assert [estimate(game.state, seat) for seat in range(4)] == [0.0] * 4


def test_a_model_is_read_from_a_coefficients_module_as_data(tmp_path) -> None:
    source = Path(fitted.__file__)
    assert CardModel.read(source) == PACKAGED
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nSHARED = os.system('true')\n")
    with pytest.raises(ValueError):
        CardModel.read(bad)
