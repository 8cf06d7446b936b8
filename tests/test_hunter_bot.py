"""The hunter (bots/hunter_bot.py): the greedy aimed at one achievement of RULES.md 8,
playing only legal moves; and the campaign schedule that lets it work on what is open
for its map player (application/campaign.py)."""

from __future__ import annotations

from collections import Counter
from uuid import uuid4

import pytest
from cascadia.application.campaign import next_mode, open_modes, played_for, seat_bots
from cascadia.bots.hunter_bot import HunterBot
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import bot_factory
from cascadia.domain.achievement_map import MapState, Mark, PlayerPath
from cascadia.domain.commands import Command, NatureFreeChoice, NatureWipe
from cascadia.domain.components import TILES
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.projections.achievements import ACHIEVEMENTS, winner_achievements
from cascadia.projections.game_scores import score_state

CARDS = "C,A,A,A,B"


class Checked(HunterBot):
    """A hunter whose every command is checked against the game's legal commands."""

    def __init__(self, seed: int, seat: int, goals: list[str]) -> None:
        super().__init__(seed, seat, goals)
        self.commands: list[Command] = []

    def choose(self, game: Game) -> Command:
        command = super().choose(game)
        assert command in game.legal_commands(), command
        self.commands.append(command)
        return command


def hunt(goal: str, seed: int, mode: str = "standard") -> tuple[Game, Checked]:
    """A two-player game for achievements: a checked hunter after ``goal`` against random."""
    extra = {} if mode == "standard" else {mode: True}
    options = GameOptions(cards=CARDS, achievement_mode=mode, **extra)
    game = Game.start(seed, ["hunter", "random"], options)
    hunter, other = Checked(seed, 0, [goal]), RandomBot(seed, 1)
    while not game.finished:
        (hunter if game.current_player == 0 else other).play_turn(game)
    return game, hunter


def placed(game: Game, seat: int = 0) -> Counter[str]:
    return Counter(game.state.players[seat].environment.wildlife.values())


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("species", ["bear", "elk", "fox"])
def test_after_no_species_it_never_places_that_species(seed, species):
    game, _ = hunt(f"no_{species}", seed)
    assert placed(game)[species] == 0 and sum(placed(game).values()) > 10
    assert f"no_{species}" in winner_achievements(game.state, score_state(game.state))[0]


@pytest.mark.parametrize("goal", ["no_token_on_keystone", "no_nature_tokens_left"])
def test_keystone_goals_never_place_a_token_on_a_keystone(goal):
    game, _ = hunt(goal, 3)
    environment = game.state.players[0].environment
    assert not any(TILES[environment.tiles[h][0]].keystone for h in environment.wildlife)
    assert game.state.players[0].nature_tokens == 0


@pytest.mark.parametrize("goal", ["five_nature_tokens", "ten_nature_tokens"])
def test_hoarding_goals_never_spend_a_nature_token(goal):
    game, hunter = hunt(goal, 4)
    assert not any(isinstance(c, NatureFreeChoice | NatureWipe) for c in hunter.commands)
    environment = game.state.players[0].environment
    keystones = sum(1 for h in environment.wildlife if TILES[environment.tiles[h][0]].keystone)
    assert game.state.players[0].nature_tokens == keystones >= 5


def test_exactly_three_species_places_no_fourth():
    game, _ = hunt("exactly_three_species", 5)
    assert len(placed(game)) == 3


@pytest.mark.parametrize("seed", [6, 8])
def test_eleven_of_one_species_collects_one_species(seed):
    game, hunter = hunt("eleven_of_one_species", seed)
    counts = placed(game)
    favoured = hunter.favoured(game)
    assert counts[favoured] == max(counts.values()) >= 7
    assert sum(counts.values()) - counts[favoured] < 2 * counts[favoured]


@pytest.mark.parametrize("mode", ["must_not_match", "no_token_on_new_tile", "market_of_three"])
def test_a_restriction_game_is_played_by_its_rules_and_won_without_shaping(mode):
    game, hunter = hunt("no_bear", 7, mode)
    assert hunter.goal_in(game) is None and game.finished
    assert score_state(game.state).winners == (0,)


def test_hunter_is_a_registered_bot_whose_goal_is_the_first_open_in_rules_order():
    make = bot_factory("hunter")
    assert make is not None and make(1, 0).goal is None
    bot = HunterBot(1, 0, ["exactly_three_species", "no_elk", "score_110"])
    assert bot.goal == "score_110"
    bot.pursue([])
    assert bot.goal is None


def test_the_schedule_plays_for_the_leader_and_seats_hunters_with_their_open_goals():
    state = MapState(uuid4())
    state.paths["random"] = PlayerPath("random", 0)
    state.paths["hunter"] = PlayerPath("hunter", 1)
    assert played_for(state).player == "random"  # a tie: the first path
    marked = ["score_80", *RESTRICTIONS]
    state.paths["hunter"].marks = [Mark(i + 1, a, "g", "standard") for i, a in enumerate(marked)]
    assert played_for(state).player == "hunter"
    assert open_modes(state.paths["hunter"]) == ["standard"]
    assert {next_mode("campaign", state, i) for i in range(5)} == {"standard"}
    bots = seat_bots(state, ["random", "hunter"], seed=3)
    assert isinstance(bots[1], HunterBot) and bots[1].goal == "score_85"
    rest = [a for a in ACHIEVEMENTS if a != "score_80"]
    state.paths["hunter"].marks += [Mark(12 + i, a, "g", "standard") for i, a in enumerate(rest)]
    assert played_for(state).player == "random"
