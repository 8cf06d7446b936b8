"""Events built by ``new_event`` (the engine's and the log readers' way) are the events the
dataclass constructor builds: same fields, same order, same defaults, same refusals."""

from __future__ import annotations

from uuid import UUID

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.options import GameOptions

GAME_ID = UUID(int=7)


def _games_events() -> list[ev.GameEvent]:
    """Every event type: solo, 4 players, secret cards without starter tiles, rules 1."""
    games = [
        play_game(1, ["random"]),
        play_game(2, ["random"] * 4),
        play_game(3, ["random"] * 2, GameOptions(secret_cards=True, no_starter=True)),
        play_game(4, ["random"] * 3, rules_version="cascadia-rules-1"),
    ]
    return [event for game in games for event in game.collect_events()]


def test_every_event_type_is_built_as_its_constructor_builds_it() -> None:
    seen = set()
    for event in _games_events():
        cls, payload = type(event), {name: getattr(event, name) for name in ev.PAYLOAD_FIELDS[event.type]}
        expected = cls(GAME_ID, 5, **payload)
        built = ev.new_event(cls, GAME_ID, 5, payload)
        assert built == expected
        assert list(vars(built).items()) == list(vars(expected).items())  # encodings follow this order
        seen.add(event.type)
    assert seen >= set(ev.EVENT_TYPES) - {"WildlifeReplaced"}  # a wipe bought with nature tokens: rare


def test_a_payload_in_another_order_or_without_defaults_is_put_in_declared_order() -> None:
    built = ev.new_event(ev.TilePlaced, GAME_ID, 3, {"rotation": 2, "q": 0, "r": 1, "tile": 9, "player": 1})
    assert list(vars(built))[2:] == ["player", "tile", "q", "r", "rotation"]
    wiped = ev.new_event(
        ev.OverpopulationWiped,
        GAME_ID,
        3,
        {"player": 0, "slots": [0], "set_aside": ["elk"], "drawn": ["fox"], "mandatory": False},
    )
    assert wiped == ev.OverpopulationWiped(GAME_ID, 3, 0, [0], ["elk"], ["fox"], False)
    assert wiped.unbreakable is False


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"player": 1, "q": 0, "r": 1, "rotation": 2}, r"\[\] unknown, \['tile'\] missing"),
        ({"player": 1, "tile": 5, "q": 0, "r": 1, "rotation": 2, "x": 1}, r"\['x'\] unknown, \[\] missing"),
    ],
)
def test_a_payload_with_the_wrong_fields_is_refused_as_the_constructor_refuses_it(
    payload: dict[str, int], message: str
) -> None:
    with pytest.raises(TypeError):
        ev.TilePlaced(GAME_ID, 3, **payload)
    with pytest.raises(TypeError, match=message):
        ev.new_event(ev.TilePlaced, GAME_ID, 3, payload)


def test_a_built_event_is_frozen() -> None:
    built = ev.new_event(ev.TurnEnded, GAME_ID, 3, {"player": 0, "turn": 1})
    with pytest.raises(AttributeError):
        built.turn = 2  # type: ignore[misc]
