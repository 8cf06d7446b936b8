"""``GameState.copy()`` copies every field, deeply; ``evolve`` refuses every corrupt event
stream with a :class:`CorruptEventError` (each guard of domain/state.py fed a stream that
trips it)."""

from __future__ import annotations

import copy as stdlib_copy
from dataclasses import MISSING, Field, dataclass, fields, is_dataclass, replace
from typing import Any

import pytest
from cascadia.bots.registry import make_bots
from cascadia.domain import events as ev
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.state import CorruptEventError, GameState, PlayerState, TurnState, evolve

# -- copy ---------------------------------------------------------------------------------

UNSET_BY_PLAY: dict[str, Any] = {
    "first_player": 1,
    "current": 1,
    "finished": True,
    "wipes": 2,
    "removed_tiles": [5, 6],
    "removed_wildlife": [0, 1, 0, 2, 0],
    "set_aside": ["bear", "bear", "bear"],
}
"""Values for the fields the sample game below leaves at their defaults."""
TURN_STATE: dict[str, Any] = {
    "three_wipe_used": True,
    "free_choice": True,
    "tile_hex": (1, 0),
    "wildlife_done": True,
}
PLAYER: dict[str, int] = {"nature_tokens": 1, "nature_spent": 2, "nature_earned": 3}


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return object()  # no default: any value differs


def _non_default_fields(obj: Any) -> set[str]:
    return {f.name for f in fields(obj) if getattr(obj, f.name) != _default(f)}


def sample_state() -> GameState:
    """A two-player game a few turns in (two card sets, secret cards, a pair taken), with
    every field of the state, its players and its turn state away from its default."""
    game = Game.start(4, ["random", "random"], GameOptions(two_card_sets=True, secret_cards=True))
    bots = make_bots(["random", "random"], 4)
    for _ in range(6):
        bots[game.current_player].play_turn(game)
    game.take(*game.legal_takes()[0])
    state = game.state
    for name, value in UNSET_BY_PLAY.items():
        if getattr(state, name) == _default(next(f for f in fields(state) if f.name == name)):
            setattr(state, name, value)
    for name, value in TURN_STATE.items():
        setattr(state.turn_state, name, value)
    for player in state.players:
        for name, value in PLAYER.items():
            setattr(player, name, getattr(player, name) + value)
    return state


def test_the_sample_sets_every_field():
    """A new field must be given a value here, so that the copy test below covers it."""
    state = sample_state()
    assert _non_default_fields(state) == {f.name for f in fields(GameState)}
    assert _non_default_fields(state.turn_state) == {f.name for f in fields(TurnState)}
    for player in state.players:
        assert _non_default_fields(player) == {f.name for f in fields(PlayerState)}


@pytest.mark.parametrize("kind", [GameState, PlayerState, TurnState])
def test_the_state_classes_have_slots_and_no_other_attributes(kind):
    assert is_dataclass(kind)
    assert set(kind.__slots__) == {f.name for f in fields(kind)}


def test_a_copy_equals_the_state_field_by_field():
    state = sample_state()
    copied = state.copy()
    for f in fields(GameState):
        assert getattr(copied, f.name) == getattr(state, f.name), f.name
    for ours, theirs in zip(copied.players, state.players, strict=True):
        for f in fields(PlayerState):
            assert getattr(ours, f.name) == getattr(theirs, f.name), f"players.{f.name}"
    for f in fields(TurnState):
        assert getattr(copied.turn_state, f.name) == getattr(state.turn_state, f.name), f"turn_state.{f.name}"
    assert copied == state


def _mutate(value: Any) -> None:
    """Change every mutable part of ``value`` in place (lists, dicts, mutable dataclasses)."""
    if isinstance(value, list):
        for item in value:
            _mutate(item)
        value.append(None)
    elif isinstance(value, dict):
        for item in value.values():
            _mutate(item)
        value["mutated"] = None
    elif is_dataclass(value) and not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        for f in fields(value):
            inner = getattr(value, f.name)
            if isinstance(inner, bool):
                setattr(value, f.name, not inner)
            elif isinstance(inner, int):
                setattr(value, f.name, inner + 1)
            elif isinstance(inner, str):
                setattr(value, f.name, inner + "!")
            else:
                _mutate(inner)


def test_changing_the_copy_leaves_the_state_alone():
    state = sample_state()
    before = stdlib_copy.deepcopy(state)
    copied = state.copy()
    _mutate(copied)
    assert copied != before
    assert state == before


# -- evolve's guards -------------------------------------------------------------------------


def fold(events: list[ev.GameEvent]) -> GameState:
    state = GameState(events[0].originator_id)
    for event in events:
        evolve(state, event)
    return state


def setup_events(options: GameOptions | None = None) -> list[ev.GameEvent]:
    return Game.start(3, 2, options).collect_events()


def first(events: list[ev.GameEvent], kind: type[ev.GameEvent]) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, kind))


def corrupted(events: list[ev.GameEvent], index: int, **changes: Any) -> list[ev.GameEvent]:
    """The events up to ``index``, that one changed."""
    return [*events[:index], replace(events[index], **changes)]


def assert_corrupt(events: list[ev.GameEvent], message: str) -> None:
    with pytest.raises(CorruptEventError, match=message):
        fold(events)


def test_the_sample_streams_fold_cleanly():
    fold(setup_events())
    fold(setup_events(GameOptions(secret_cards=True, no_starter=True)))


def test_an_event_out_of_sequence():
    events = setup_events()
    assert_corrupt([*events[:2], *events[3:]], "event 4 cannot follow event 2")
    assert_corrupt([*events, events[-1]], f"event {len(events)} cannot follow event {len(events)}")


@dataclass(frozen=True)
class _Unknown(ev.GameEvent):
    pass


def test_an_event_of_unknown_type():
    events = setup_events()
    stranger = _Unknown(events[0].originator_id, len(events) + 1)
    assert_corrupt([*events, stranger], r"event \d+ \(_Unknown\)")


def test_a_token_the_bag_does_not_hold():
    events = setup_events()
    i = first(events, ev.MarketRefilled)
    fills = [list(fill) for fill in events[i].fills]
    fills[0][2] = "dragon"
    assert_corrupt(corrupted(events, i, fills=fills), "no 'dragon' token left in the bag")


def test_a_tile_not_in_the_stack():
    events = setup_events()
    i = first(events, ev.MarketRefilled)
    fills = [list(fill) for fill in events[i].fills]
    fills[1][1] = fills[0][1]  # the same tile revealed twice
    assert_corrupt(corrupted(events, i, fills=fills), f"tile {fills[0][1]} is not in the stack")


def test_a_tile_drawn_from_an_empty_stack():
    events = setup_events()
    events = [*corrupted(events, first(events, ev.TileStackPrepared), size=0), *events[2:]]
    assert_corrupt(events, "the stack is empty")


def test_a_market_slot_filled_twice():
    events = setup_events()
    i = first(events, ev.MarketRefilled)
    slot = events[i].fills[0][0]
    again = ev.MarketRefilled(events[0].originator_id, len(events) + 1, fills=[[slot, 7, None]])
    assert_corrupt([*events, again], f"market slot {slot} already holds a tile")
    again = ev.MarketRefilled(events[0].originator_id, len(events) + 1, fills=[[slot, None, "bear"]])
    assert_corrupt([*events, again], f"market slot {slot} already holds a token")


def test_wrong_counts_of_starters_opening_tiles_and_secret_cards():
    events = setup_events()
    i = first(events, ev.StarterTilesDealt)
    assert_corrupt(corrupted(events, i, starters=events[i].starters[:1]), "one starter tile per player")
    events = setup_events(GameOptions(secret_cards=True, no_starter=True))
    i = first(events, ev.OpeningTilesDealt)
    assert_corrupt(corrupted(events, i, tiles=events[i].tiles[:1]), "two opening tiles per player")
    i = first(events, ev.SecretCardsDealt)
    assert_corrupt(corrupted(events, i, species=["bear"] * 3), "one secret card per player")


def test_a_secret_card_revealed_as_another_species():
    events = setup_events(GameOptions(secret_cards=True, no_starter=True))
    held = events[first(events, ev.SecretCardsDealt)].species[0]
    other = "bear" if held != "bear" else "elk"
    reveal = ev.SecretCardRevealed(events[0].originator_id, len(events) + 1, player=0, species=other)
    assert_corrupt([*events, reveal], f"seat 0's secret card is not {other}")


def test_a_wipe_of_tokens_the_market_does_not_hold():
    events = setup_events()
    market = events[first(events, ev.MarketRefilled)].fills
    wrong = "bear" if market[0][2] != "bear" else "elk"
    wipe = ev.WildlifeReplaced(
        events[0].originator_id, len(events) + 1, player=0, slots=[0], set_aside=[wrong], drawn=["fox"]
    )
    assert_corrupt([*events, wipe], f"market slot 0 does not hold {wrong!r}")


def test_a_pair_the_market_does_not_hold():
    game = Game.start(3, 2)
    game.take(*game.legal_takes()[0])
    events = game.collect_events()
    taken = events[-1]
    assert isinstance(taken, ev.PairTaken)
    assert_corrupt(corrupted(events, len(events) - 1, tile=taken.tile + 1), "does not hold the pair")
    assert_corrupt(corrupted(events, len(events) - 1, tile_slot=9), r"event \d+ \(PairTaken\)")
