"""The server's rendered views (:mod:`cascadia.server.view_cache`): one per game, viewer
and version; a viewer is never served another's; the turn's seconds left stay per
answer; a handover (a new version of the record) renders the view again."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cascadia.server.games import GameService, SeatSpec
from cascadia.server.store import ServerStore
from cascadia.server.turn_clock import TurnClock
from cascadia.server.views import SheetTexts, json_text, state_for, state_text
from fastapi.responses import JSONResponse


class Clock:
    """A turn clock's time, moved by hand."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ServerStore]:
    store = ServerStore(tmp_path)
    yield store
    store.close()


def view(service: GameService, game_id: Any, seat: int | None) -> dict[str, Any]:
    """The view a route answers with, as data."""
    text, _ = service.view_text(game_id, seat)
    return json.loads(text)  # type: ignore[no-any-return]


def _game(service: GameService, turn_seconds: int | None = None) -> Any:
    return service.create([SeatSpec(name="ann"), SeatSpec(name="bob")], {}, turn_seconds=turn_seconds).game_id


def test_a_second_read_at_the_same_version_answers_the_same_view(store: ServerStore) -> None:
    service = GameService(store)
    game_id = _game(service)
    assert view(service, game_id, 0) == view(service, game_id, 0)
    assert view(service, game_id, None) == view(service, game_id, None)


def test_each_viewer_gets_its_own_view(store: ServerStore) -> None:
    cached = GameService(store)
    game_id = _game(cached)
    for viewer in (0, 1, None, 1, 0, None):
        fresh = GameService(store)  # renders anew: nothing kept
        assert view(cached, game_id, viewer) == view(fresh, game_id, viewer)
    mover = view(cached, game_id, None)["current_player"]
    assert view(cached, game_id, mover)["legal_commands"]
    assert view(cached, game_id, 1 - mover)["legal_commands"] == []
    assert view(cached, game_id, None)["legal_commands"] is None


def test_a_view_after_a_command_is_the_new_version(store: ServerStore) -> None:
    service = GameService(store)
    game_id = _game(service)
    mover = view(service, game_id, None)["current_player"]
    before = view(service, game_id, mover)
    command = before["legal_commands"][0]["command"]
    played = service.play(game_id, mover, command, before["version"])
    after = view(service, game_id, mover)
    assert after["version"] == played.version > before["version"]
    assert after == view(GameService(store), game_id, mover)


def test_the_turn_seconds_left_are_counted_at_each_read(store: ServerStore) -> None:
    time = Clock()
    service = GameService(store, TurnClock(time))
    game_id = _game(service, turn_seconds=60)
    first = view(service, game_id, 0)
    time.seconds += 25
    second = view(service, game_id, 0)
    assert (first["turn_seconds_left"], second["turn_seconds_left"]) == (60, 35)
    assert {**first, "turn_seconds_left": 35} == second


def test_a_seat_handed_to_a_bot_renders_the_view_again(store: ServerStore) -> None:
    service = GameService(store)
    created = service.create([SeatSpec(name="ann"), SeatSpec(name="bob")], {})
    game_id = created.game_id
    before = view(service, game_id, None)
    service.hand_to_bot(game_id, 1, created.creator_token)
    after = view(service, game_id, None)
    assert after["version"] == before["version"]
    assert [s["handed"] for s in before["seats"]] == [None, None]
    assert after["seats"][1]["handed"] == {"bot": "greedy", "reason": "creator"}


def test_a_view_encoded_in_pieces_is_the_whole_view_encoded_at_once(store: ServerStore) -> None:
    """The view's JSON, rendered in pieces with the legal commands' entries kept encoded,
    is byte for byte the JSON of the whole view built as one object (as the routes
    answered it before), for the seat to move (while it takes and while it places),
    the other seat and a spectator."""
    service = GameService(store)
    game_id = _game(service)
    for _ in range(3):
        game = store.game(game_id)
        mover = game.state.current
        for viewer in (mover, 1 - mover, None):
            now = service.record_now(game_id)
            text, bot_to_move = service.view_text(game_id, viewer, now)
            whole = {
                **service.summary(now.record, game, now),
                "turn_seconds_left": None,
                "state": state_for(game.state, viewer),
                "seat": viewer,
                "your_turn": None if viewer is None else viewer == mover,
                "legal_commands": None
                if viewer is None
                else [
                    {"command": c.to_dict(), "text": str(c)}
                    for c in (game.legal_commands() if viewer == mover else [])
                ],
                "bot_to_move": False,
            }
            assert text.encode() == JSONResponse(whole).body
            assert bot_to_move is False
        command = game.legal_commands()[-1]
        service.play(game_id, mover, command.to_dict(), game.version)


@pytest.mark.parametrize(
    ("names", "options"),
    [
        (["ann", "bob"], {}),
        (["ann", "bob", "cy"], {"rules": ["secret_cards", "two_card_sets"], "cards": "B,C,A,D,A"}),
        (["ann", "bob"], {"rules": ["secret_cards"], "majority_bonus": False}),
    ],
)
def test_a_state_written_from_kept_pieces_is_the_state_encoded_at_once(
    store: ServerStore, names: list[str], options: dict[str, Any]
) -> None:
    """The state of a view, written from each board's kept text and the game's kept score
    sheet (:func:`~cascadia.server.views.state_text`), is byte for byte the JSON of the
    whole state as the player view builds it, for every seat and a spectator at every
    version of a game played to its end (secret cards, two card sets, three seats)."""
    service = GameService(store)
    game_id = service.create([SeatSpec(name=n) for n in names], options).game_id
    sheets = SheetTexts()
    rng = random.Random(26)
    while True:
        game = store.current(game_id)
        for viewer in [*range(len(names)), None]:
            assert state_text(game.state, viewer, sheets) == json_text(state_for(game.state, viewer))
        if game.finished:
            break
        command = rng.choice(game.legal_commands())
        service.play(game_id, game.state.current, command.to_dict(), game.version)
