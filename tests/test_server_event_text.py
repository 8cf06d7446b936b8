"""Each event the server serves carries its sentence (``text``) from the project's one
describer (projections/describe.py), written from the event as masked for its viewer: in
a command's answer, from ``/events`` and in the stream; a masked event's sentence tells
no more than its masked payload."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from cascadia.bots.registry import play_game
from cascadia.domain import events as ev
from cascadia.domain.options import GameOptions
from cascadia.projections.describe import describe_event
from cascadia.server.views import RenderedEvents, event_for, masks_for
from fastapi.testclient import TestClient
from server_support import (
    SEAT_NAMES,
    assert_hides,
    bearer,
    create_game,
    hidden_values,
    play_turns,
    read_sse,
    tokens,
)

ROUNDS = 20
"""The rounds of a standard two-seat game."""


def stored_events(client: TestClient, game_id: str) -> dict[int, ev.GameEvent]:
    """The game's events as stored (unmasked), by version."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    return {e.originator_version: e for e in store.events(UUID(game_id))}


def public_sentence(event: ev.GameEvent) -> str:
    """An event's sentence in a running game without secret cards: all but the seed."""
    return describe_event(event, SEAT_NAMES, {} if isinstance(event, ev.GameStarted) else None, ROUNDS)


def assert_described(served: list[dict[str, Any]], stored: dict[int, ev.GameEvent]) -> None:
    assert served
    for event in served:
        assert event["text"] == public_sentence(stored[event["version"]]), event


def test_every_served_event_carries_the_describers_sentence(api: TestClient) -> None:
    game = create_game(api)
    gid, seat_tokens = game["game_id"], tokens(game)
    answers: list[str] = []
    while sum(isinstance(e, ev.TurnEnded) for e in stored_events(api, gid).values()) < 2:
        assert len(answers) < 40, "two turns take fewer commands"
        answers += play_turns(api, gid, seat_tokens, 1)  # a turn's commands vary with the deal
    stored = stored_events(api, gid)
    assert_described([e for answer in answers for e in json.loads(answer)["events"]], stored)
    listed = api.get(f"/api/games/{gid}/events", headers=bearer(seat_tokens[0])).json()["events"]
    assert len(listed) == len(stored)
    assert_described(listed, stored)
    with api.stream("GET", f"/api/games/{gid}/stream?after=0") as answer:
        messages = read_sse(answer.iter_lines(), lambda m: m[-1]["data"]["version"] == len(stored))
    assert_described([m["data"] for m in messages], stored)
    texts = [e["text"] for e in listed]
    assert f"End of {SEAT_NAMES[0]}'s turn, round 1 of {ROUNDS}." in texts
    assert f"End of {SEAT_NAMES[1]}'s turn, round 1 of {ROUNDS}." in texts
    started = listed[0]["text"]
    assert started == f"Game started: {', '.join(SEAT_NAMES)}." and "seed" not in started


def test_a_masked_sentence_tells_no_secret_card(api: TestClient) -> None:
    """With secret cards, each seat's sentences give its own card's letter and hide the
    other seat's (``elk hidden``); a spectator's hide both; no sentence names a seed."""
    game = create_game(api, rules=["secret_cards"], cards="A,B,C,D,A")
    gid, hidden = game["game_id"], hidden_values(api, game["game_id"])
    secret = hidden["secret_cards"]
    play_turns(api, gid, tokens(game), 3)
    viewers: list[tuple[int | None, dict[str, str]]] = [(None, {})]
    viewers += [(seat, bearer(token)) for seat, token in enumerate(tokens(game))]
    for seat, headers in viewers:
        answer = api.get(f"/api/games/{gid}/events", headers=headers)
        assert_hides(answer.text, hidden, seat)
        texts = {e["type"]: e["text"] for e in answer.json()["events"]}
        for other, species in enumerate(secret):
            assert (f"{species} hidden" in texts["ScoringCardsDrawn"]) is (other != seat)
        assert not any(species in texts["SecretCardsDealt"] for species in secret)
        assert texts["SecretCardsDealt"] == "Secret cards dealt face down (2 players, one each)."
        assert texts["GameStarted"] == f"Game started: {', '.join(SEAT_NAMES)}."
    ticket = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(tokens(game)[1])).json()["ticket"]
    with api.stream("GET", f"/api/games/{gid}/stream?ticket={ticket}") as answer:
        messages = read_sse(answer.iter_lines(), lambda m: m[-1]["data"]["type"] == "ScoringCardsDrawn")
    drawn = messages[-1]["data"]["text"]
    assert f"{secret[0]} hidden" in drawn and f"{secret[1]} hidden" not in drawn


def test_once_the_game_is_over_the_sentences_tell_everything() -> None:
    """``masks`` None (the game ended): the seed and every card in the sentences."""
    game = play_game(3, ["random", "random"], GameOptions(secret_cards=True))
    events = game.collect_events()
    names = game.state.names
    served = [event_for(e, masks_for(game.state, 0), names, ROUNDS) for e in events]
    assert str(game.state.seed) in served[0]["text"]
    assert "hidden" not in next(e["text"] for e in served if e["type"] == "ScoringCardsDrawn")
    assert served[-1]["text"] == f"Game over after {ROUNDS} rounds: the stack cannot refill the market."


def test_an_event_is_rendered_once_for_the_viewers_who_see_it_alike() -> None:
    """:class:`~cascadia.server.views.RenderedEvents` hands each viewer the event as
    :func:`event_for` renders it for that viewer's masks: the same rendering to viewers
    whose masks are equal, another to a viewer whose masks differ (a secret card)."""
    game = play_game(3, ["random", "random"], GameOptions(secret_cards=True))
    dealt = next(e for e in game.collect_events() if isinstance(e, ev.SecretCardsDealt))
    rendered = RenderedEvents()
    running = game.state.copy()
    running.finished = False  # as in play, no card revealed yet
    running.secret_revealed = [False] * len(running.secret_revealed)
    seat_masks = [masks_for(running, seat) for seat in (0, 1)]
    assert seat_masks[0] != seat_masks[1]
    for masks in [{}, {}, *seat_masks, None, None]:
        served = rendered.render(dealt, masks, SEAT_NAMES, ROUNDS)
        assert served == event_for(dealt, masks, SEAT_NAMES, ROUNDS)
    again = rendered.render(dealt, None, SEAT_NAMES, ROUNDS)
    assert again is rendered.render(dealt, None, SEAT_NAMES, ROUNDS)
