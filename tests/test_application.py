"""The use cases of the application layer: start a game, apply a command (load, execute,
save, retry on a version conflict), simulate and store."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cascadia.application.games import (
    CommandConflictError,
    GameAlreadyStoredError,
    apply_command,
    play_bot_turn,
    start_game,
)
from cascadia.application.simulation import simulate_and_store
from cascadia.application.store import GameNotFoundError, GameStore
from cascadia.bots.random_bot import RandomBot
from cascadia.bots.registry import play_game
from cascadia.domain.commands import Take
from cascadia.domain.errors import InvalidOptionError, MarketChoiceError, OutOfOrderError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path) as opened:
        yield opened


def test_start_game_stores_the_setup_once(store):
    game = start_game(store, 5, ["ann", "bob"])
    assert store.game_events(game.id) == Game.start(5, ["ann", "bob"]).collect_events()
    with pytest.raises(GameAlreadyStoredError) as refused:
        start_game(store, 5, ["ann", "bob"])
    assert refused.value.game_id == game.id
    assert len(store.game_events(game.id)) == len(Game.start(5, ["ann", "bob"]).collect_events())


def test_apply_command_loads_executes_and_saves(store):
    game = start_game(store, 5, ["ann", "bob"])
    slot = game.legal_takes()[0]
    applied = apply_command(store, game.id, Take(*slot))
    assert applied.attempts == 1 and [e.type for e in applied.events] == ["PairTaken"]
    assert store.game(game.id).state == applied.game.state
    assert store.game(game.id).version == game.version + 1


def test_an_illegal_command_raises_and_saves_nothing(store):
    game = start_game(store, 5, ["ann", "bob"])
    with pytest.raises(MarketChoiceError):
        apply_command(store, game.id, Take(9, 9))
    assert store.game(game.id).version == game.version


def test_a_missing_game_is_reported(store):
    with pytest.raises(GameNotFoundError):
        apply_command(store, Game.start(1).id, Take(0, 0))


def _other_writer_plays_a_turn(store: GameStore, game: Game, seed: int) -> int:
    """Another writer loads the game, plays the current turn and saves it; its version."""
    other = store.game(game.id)
    RandomBot(seed, other.current_player).play_turn(other)
    store.save_game(other)
    return other.version


def _take_first(game: Game) -> None:
    game.take(*game.legal_takes()[0])


class _Scripted:
    """A stand-in bot whose turn is a given function (to let a rival write in between)."""

    name = "scripted"

    def __init__(self, turn: Callable[[Game], None]) -> None:
        self.play_turn = turn


def test_a_conflict_is_retried_on_the_reloaded_game(store):
    game = start_game(store, 5, ["ann", "bob"])
    seen: list[int] = []
    overtaken: list[int] = []

    def take_after_a_rival(g: Game) -> None:
        seen.append(g.version)
        if len(seen) == 1:
            overtaken.append(_other_writer_plays_a_turn(store, game, 1))
        _take_first(g)

    applied = play_bot_turn(store, game.id, _Scripted(take_after_a_rival))
    assert applied.attempts == 2 and seen == [game.version, overtaken[0]]
    [taken] = [e for e in applied.events if e.type == "PairTaken"]
    assert taken.player != game.current_player  # the next seat's take, on the reloaded game
    assert store.game(game.id).state == applied.game.state


def test_conflicts_on_every_attempt_raise_a_typed_error(store):
    game = start_game(store, 5, ["ann", "bob"])
    overtaken: list[int] = []

    def always_overtaken(g: Game) -> None:
        overtaken.append(_other_writer_plays_a_turn(store, game, len(overtaken)))
        _take_first(g)

    with pytest.raises(CommandConflictError) as conflict:
        play_bot_turn(store, game.id, _Scripted(always_overtaken), attempts=2)
    assert conflict.value.attempts == 2 and conflict.value.game_id == game.id
    assert len(overtaken) == 2
    assert store.game(game.id).version == overtaken[-1]  # only the other writer's turns are stored


def test_the_callers_copy_is_used_for_the_first_attempt(store):
    game = start_game(store, 5, ["ann", "bob"])
    slot = game.legal_takes()[0]
    applied = apply_command(store, game.id, Take(*slot), game=game)
    assert applied.game is game
    with pytest.raises(ValueError, match="the game given is"):
        apply_command(store, game.id, Take(*slot), game=Game.start(6))


def test_a_taken_pair_cannot_be_taken_again(store):
    game = Game.start(5, 2)
    take = next(c for c in game.legal_commands() if isinstance(c, Take))
    stored = start_game(store, 5, ["ann", "bob"])
    applied = apply_command(store, stored.id, take)
    assert [e.type for e in applied.events] == ["PairTaken"]
    with pytest.raises(OutOfOrderError):
        apply_command(store, stored.id, take)  # taken already: refused, nothing saved
    assert store.game(stored.id).version == applied.game.version


def test_simulate_and_store_checks_the_setup_before_storing(store):
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        simulate_and_store(store, range(2), ["random", "nobody"], GameOptions())
    with pytest.raises(InvalidOptionError, match="balanced bag"):
        simulate_and_store(store, range(2), ["random"] * 4, GameOptions(balanced_bag=True))
    assert list(store.started_games()) == []
    outcome = list(simulate_and_store(store, range(3), ["random", "random"], GameOptions()))
    assert [saved for _, saved in outcome] == [True] * 3
    again = list(simulate_and_store(store, range(4), ["random", "random"], GameOptions()))
    assert [(r.seed, r.skipped, saved) for r, saved in again] == [
        (0, True, False),
        (1, True, False),
        (2, True, False),
        (3, False, True),
    ]
    assert store.game_events(again[3][0].game_id) == play_game(3, ["random", "random"]).collect_events()


def test_simulate_derives_each_game_id_once_and_builds_no_extra_game(store, monkeypatch):
    import cascadia.bots.registry as registry
    import cascadia.domain.game as game_module

    derived: list[int] = []
    started: list[int] = []
    derive, start = game_module.derive_game_id, game_module.Game.start.__func__  # type: ignore[attr-defined]

    def counting_derive(seed, names, options, *args):
        derived.append(seed)
        return derive(seed, names, options, *args)

    def counting_start(cls, seed, *args, **kwargs):
        started.append(seed)
        return start(cls, seed, *args, **kwargs)

    monkeypatch.setattr(registry, "derive_game_id", counting_derive)
    monkeypatch.setattr(game_module, "derive_game_id", counting_derive)
    monkeypatch.setattr(game_module.Game, "start", classmethod(counting_start))
    list(simulate_and_store(store, range(3), ["random", "greedy"], GameOptions()))
    assert derived == [0, 1, 2] and started == [0, 1, 2]
    list(simulate_and_store(store, range(4), ["random", "greedy"], GameOptions()))
    assert derived == [0, 1, 2, 0, 1, 2, 3] and started == [0, 1, 2, 3]  # stored seeds are not played
