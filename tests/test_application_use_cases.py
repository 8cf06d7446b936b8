"""The use cases the server and the command line share: a command at an expected version
(a typed stale-version error, never retried) or without one (retried), the bots run while
one is due, seats and options built from user input, and the one end-of-game policy of a
map's game."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import pytest
from cascadia.application.games import (
    CommandConflictError,
    NotYourTurnError,
    StaleVersionError,
    apply_command,
    bot_to_move,
    run_bots,
    start_game,
)
from cascadia.application.map_games import bots_choose, check_map_game, settle_map_game
from cascadia.application.maps import create_map, load_map
from cascadia.application.setup import (
    HUMAN,
    InvalidSetupError,
    SeatSpec,
    check_seat_names,
    game_options,
    seats_of,
    setup_choices,
)
from cascadia.application.store import GameConflictError, GameStore
from cascadia.bots.registry import bot_for_turn
from cascadia.domain.commands import Take
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path) as opened:
        yield opened


class _RacedOnce:
    """The store, but another writer saves first the next ``times`` times it saves."""

    def __init__(self, store: GameStore, times: int = 1) -> None:
        self.store = store
        self.times = times
        self.saves = 0

    def game(self, game_id: UUID) -> Game:
        return self.store.game(game_id)

    def save_events(self, events: Sequence[GameEvent]) -> None:
        self.saves += 1
        if self.times:
            self.times -= 1
            raise GameConflictError("another writer was first")
        self.store.save_events(events)

    def save_new_game(self, events: Sequence[object]) -> bool:
        return self.store.save_new_game(events)  # type: ignore[arg-type]


def _first_take(store: GameStore, game_id: UUID) -> Take:
    return Take(*store.game(game_id).legal_takes()[0])


# -- a command at an expected version ------------------------------------------------------


def test_a_command_at_another_version_is_a_typed_stale_error_and_saves_nothing(store):
    game = start_game(store, 5, ["ann", "bob"])
    with pytest.raises(StaleVersionError) as stale:
        apply_command(store, game.id, _first_take(store, game.id), expected_version=game.version - 1)
    assert (stale.value.actual, stale.value.expected) == (game.version, game.version - 1)
    assert isinstance(stale.value, GameConflictError)
    assert store.game(game.id).version == game.version


def test_a_writer_first_at_the_expected_version_is_stale_without_a_retry(store):
    game = start_game(store, 5, ["ann", "bob"])
    raced = _RacedOnce(store)
    with pytest.raises(StaleVersionError) as stale:
        apply_command(raced, game.id, _first_take(store, game.id), expected_version=game.version)
    assert (stale.value.actual, stale.value.expected, raced.saves) == (None, game.version, 1)
    assert str(stale.value) == f"the game has moved on since version {game.version}"


def test_without_an_expected_version_a_conflict_is_retried(store):
    game = start_game(store, 5, ["ann", "bob"])
    take = _first_take(store, game.id)
    applied = apply_command(_RacedOnce(store), game.id, take)
    assert applied.attempts == 2 and store.game(game.id).version == game.version + 1
    with pytest.raises(CommandConflictError):
        apply_command(_RacedOnce(store, times=3), game.id, applied.game.legal_commands()[0])


def test_a_seats_command_out_of_its_turn_is_refused(store):
    game = start_game(store, 5, ["ann", "bob"])
    other = 1 - game.state.current
    with pytest.raises(NotYourTurnError) as refused:
        apply_command(store, game.id, _first_take(store, game.id), expected_version=game.version, seat=other)
    assert (refused.value.seat, refused.value.current) == (other, game.state.current)
    applied = apply_command(
        store, game.id, _first_take(store, game.id), expected_version=game.version, seat=game.state.current
    )
    assert applied.game.version == game.version + 1


# -- the bots ------------------------------------------------------------------------------


def test_the_bots_play_while_one_is_due_and_stop_at_a_human(store):
    game = start_game(store, 3, ["ann", "random"])
    bots = [False, True]
    made: list[int] = []

    def bot_for(game_id, state):
        made.append(state.current)
        return bot_for_turn(state)

    version = run_bots(store, game.id, bots, bot_for)
    after = store.game(game.id)
    assert not bot_to_move(after.state, bots) and after.state.current == 0
    assert (version is None) == (game.state.current == 0) and set(made) <= {1}
    assert version in (None, after.version)


def test_a_game_of_bots_is_played_to_the_end(store):
    game = start_game(store, 3, ["random", "random"])
    assert bot_to_move(game.state)  # seats named like bots are bots by default
    assert run_bots(store, game.id) == store.game(game.id).version
    assert store.game(game.id).finished and run_bots(store, game.id) is None


# -- seats and options from user input -----------------------------------------------------


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        ([], "1 to 4 seats"),
        ([SeatSpec(name="a")] * 5, "1 to 4 seats"),
        ([SeatSpec()], "each seat is"),
        ([SeatSpec(bot="nobody")], "unknown bot 'nobody'"),
        ([SeatSpec(name="  ")], "needs a name"),
        ([SeatSpec(name="Greedy")], "is a bot's name"),
        ([SeatSpec(name="ann"), SeatSpec(name="ann")], "the same name"),
    ],
)
def test_seats_refused_with_a_typed_error(specs, message):
    with pytest.raises(InvalidSetupError, match=message):
        seats_of(specs)


def test_seats_name_humans_and_bots():
    seats = seats_of([SeatSpec(name=" ann "), SeatSpec(bot="greedy")])
    assert (seats.names, seats.kinds, seats.bots) == (["ann", "greedy"], [HUMAN, "greedy"], [False, True])
    check_seat_names(["ann", "random", "random"])
    with pytest.raises(InvalidSetupError, match="at most 24"):
        check_seat_names(["x" * 25])


def test_options_from_user_input():
    assert game_options({}) == GameOptions()
    assert game_options({"rules": ["must-match"]}).must_match
    played_for = game_options({"achievement_mode": "must_match"})  # the mode turns its restriction on
    assert played_for.must_match and played_for.achievement_mode == "must_match"
    for bad, message in [
        ({"rules": ["flying"]}, "unknown rule 'flying'"),
        ({"achievement_mode": "must_match", "rules": ["secret_cards"]}, "exactly the restriction"),
        ({"colour": "red"}, "unknown game option"),
        ({"salmon_runs": "loose"}, "salmon_runs"),
    ]:
        with pytest.raises(InvalidSetupError, match=message):
            game_options(bad)


def test_the_choices_a_form_offers_are_the_rules_own():
    choices = setup_choices()
    assert (choices["min_players"], choices["max_players"]) == (1, 4)
    assert choices["achievement_modes"] == ["standard", *RESTRICTIONS]
    assert choices["map_players"] == {"min": 2, "max": 4}
    assert "greedy" in choices["bots"] and choices["options"] == GameOptions().to_dict()


# -- the end of a map's game ---------------------------------------------------------------


def test_a_game_for_a_map_is_checked_before_it_is_created(store):
    the_map = create_map(store, "family", players=["ann"])
    standard = GameOptions(achievement_mode="standard")
    check_map_game(store, the_map.id, ["ann", "greedy"], standard)
    for names, options, message in [
        (["ann", "greedy"], GameOptions(), "names its achievement_mode"),
        (["ann"], standard, "2-4 players"),
        (["bob", "greedy"], standard, "nobody at the table"),
    ]:
        with pytest.raises(InvalidSetupError, match=message):
            check_map_game(store, the_map.id, names, options)


def test_a_map_game_is_recorded_once_and_its_bot_winner_marks_once(store):
    players = ["greedy", "random"]
    the_map = create_map(store, "bots", players=players)
    options = GameOptions(achievement_mode="must_match", must_match=True)
    game = start_game(store, 11, players, options)
    in_play = settle_map_game(store, the_map.id, game.id, bots_choose([True, True]))
    assert not in_play.recorded and not in_play.map.state.games  # nothing before the end
    run_bots(store, game.id)
    asked: list[tuple[int, str, list[str]]] = []

    def choose(seat: int, player: str, choices: list[str]) -> str | None:
        asked.append((seat, player, choices))
        return choices[0]

    settled = settle_map_game(store, the_map.id, game.id, choose)
    assert settled.recorded and settled.map.state.games == [str(game.id)]
    [winner] = [w for w in settled.winners if w.achievement is not None]
    assert asked == [(winner.seat, winner.player, ["must_match"])] and winner.cell is not None
    again = settle_map_game(store, the_map.id, game.id, choose)  # settled already: nothing new
    assert again.map.version == settled.map.version == load_map(store, the_map.id).version
    assert all(w.achievement is None and not w.choices for w in again.winners) and len(asked) == 1
