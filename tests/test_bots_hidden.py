"""The server's bots decide from their own seat's view only: given two games that the
active seat sees alike (player_view) but that differ in everything hidden from it (the
seed, hence the order of the stack and the bag and every future draw, and the other
seat's unrevealed secret card), each bot, seeded alike, makes the same decision."""

from __future__ import annotations

import pytest
from cascadia.bots.registry import BOTS, bot_factory, bot_for_turn, bot_seed
from cascadia.domain.components import CARD_LETTERS
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.player_view import player_view


def _hidden_changed(game: Game, seed: int) -> Game:
    """A copy of ``game`` with another seed and, for each other seat's unrevealed secret
    card, another letter on that species' scoring card."""
    state = game.state.copy()
    state.seed = seed
    seat = state.current
    cards = dict(state.cards)
    for other, species in enumerate(state.secret_cards):
        if other != seat and species is not None and not state.secret_revealed[other]:
            cards[species] = next(letter for letter in CARD_LETTERS if letter != cards[species])
    state.cards = cards
    return Game(state)


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("seed", [3, 8])
def test_a_bot_decides_from_its_own_seat_view(name: str, seed: int) -> None:
    game = Game.start(seed, [name, name], GameOptions(secret_cards=True))
    for _ in range(2):  # a turn each: a market and boards of their own
        bot_for_turn(game.state).play_turn(game)
    seat = game.state.current
    other = _hidden_changed(game, seed + 1000)
    assert player_view(other.state, seat) == player_view(game.state, seat)
    assert other.state.cards != game.state.cards
    make = bot_factory(name)
    assert make is not None
    decisions = [make(bot_seed(game.state), seat).choose(g) for g in (game, other)]
    assert decisions[0] == decisions[1]
