"""Games that finish (issue 24): a human seat handed to a bot by the game's creator, or
when its turn time limit runs out; recorded in the server's record of the game (the
game's own events unchanged), the seat's old token refused, every viewer told, and the
game then played to its end by the bots."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from cascadia.domain.events import GameEvent
from cascadia.server import streams
from cascadia.server.app import ServerConfig, create_app
from cascadia.server.store import SeatHandedToBot, record_id
from fastapi.testclient import TestClient
from server_support import bearer, create_game, play_turns, read_sse, tokens

WAIT_SECONDS = 60.0
"""How long a test waits for the server's background work before it fails (not a timing
assertion: the work usually takes well under a second)."""


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time


def fake_clock(client: TestClient) -> FakeClock:
    clock = FakeClock()
    client.app.state.service.clock.now = clock  # type: ignore[attr-defined]
    return clock


def create_timed(api: TestClient, seconds: int, seats: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """A new game of ``seats`` (ann and bob) with a turn time limit of ``seconds``."""
    body = {"seats": seats or [{"name": "ann"}, {"name": "bob"}], "turn_seconds": seconds}
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def hand(api: TestClient, game: dict[str, Any], seat: int, token: str | None, **body: Any) -> Any:
    return api.post(
        f"/api/games/{game['game_id']}/seats/{seat}/bot", headers=bearer(token), json=body or None
    )


def kind(answer: Any) -> str:
    return answer.json()["type"].rsplit("/", 1)[1]


def wait_until(check: Callable[[], Any]) -> Any:
    """``check()`` once it is true (the server's background work done), else fail."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not (found := check()):
        assert time.monotonic() < deadline, "the server did not get there"
        time.sleep(0.05)
    return found


def game_events_only(api: TestClient, game_id: str) -> None:
    """The game's own stream holds game events only (its log, audit and analytics are
    those of any game): the handover lives in the server's record."""
    store = api.app.state.store  # type: ignore[attr-defined]
    assert all(isinstance(e, GameEvent) for e in store.events(UUID(game_id)))
    record = list(store.store.events.get(record_id(UUID(game_id))))
    assert any(isinstance(e, SeatHandedToBot) for e in record)


def test_the_creator_hands_a_seat_to_a_bot_and_the_game_finishes(api) -> None:
    game = create_game(api)
    gid, (ann, bob) = game["game_id"], tokens(game)
    answer = hand(api, game, 1, game["creator_token"])
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seat": 1, "bot": "greedy", "reason": "creator"}

    refused = api.get(f"/api/games/{gid}", headers=bearer(bob))
    assert (refused.status_code, kind(refused)) == (401, "seat-handed-to-bot")
    view = api.get(f"/api/games/{gid}").json()
    assert view["seats"][1] == {
        "seat": 1,
        "name": "bob",
        "kind": "bot",
        "handed": {"bot": "greedy", "reason": "creator"},
    }
    assert view["seats"][0]["handed"] is None and view["turn_seconds"] is None
    listed = api.get("/api/games").json()["games"][0]
    assert listed["seats"][1]["kind"] == "bot"

    # ann plays her turns, greedy plays bob's: the game ends
    while not api.get(f"/api/games/{gid}").json()["finished"]:
        play_turns(api, gid, [ann], 1)
    score = api.get(f"/api/games/{gid}/score").json()
    assert [p["seat"] for p in score["players"]] == [0, 1]
    game_events_only(api, gid)


def test_only_the_creator_hands_a_human_seat_of_a_game_in_play(api) -> None:
    game = create_game(api, seats=[{"name": "ann"}, {"bot": "greedy"}, {"name": "bob"}])
    other = create_game(api)
    creator = game["creator_token"]
    refusals = [
        (None, 0, {}, 401, "token-required"),
        (tokens(game)[0], 0, {}, 403, "not-the-creator"),
        (other["creator_token"], 0, {}, 403, "not-the-creator"),
        (creator, 1, {}, 422, "not-a-human-seat"),
        (creator, 3, {}, 422, "not-a-human-seat"),
        (creator, 0, {"bot": "greedyy"}, 422, "invalid-options"),
        (creator, 0, {"bot": "search@5"}, 422, "invalid-options"),  # no budget chosen by a caller
    ]
    for token, seat, body, status, name in refusals:
        answer = hand(api, game, seat, token, **body)
        assert (answer.status_code, kind(answer)) == (status, name), (token, seat, body)
    assert [s["kind"] for s in api.get(f"/api/games/{game['game_id']}").json()["seats"]] == [
        "human",
        "bot",
        "human",
    ]

    solo = create_game(api, seats=[{"name": "ann"}])
    assert hand(api, solo, 0, solo["creator_token"], bot="random").status_code == 200
    assert api.get(f"/api/games/{solo['game_id']}").json()["finished"]  # the bot played it out
    over = hand(api, solo, 0, solo["creator_token"])
    assert (over.status_code, kind(over)) == (409, "game-over")


@pytest.mark.parametrize("seconds", [9, 86_401, -1, 0])
def test_a_turn_time_limit_is_10_seconds_to_a_day(api, seconds: int) -> None:
    body = {"seats": [{"name": "ann"}], "turn_seconds": seconds}
    answer = api.post("/api/games", json=body)
    assert (answer.status_code, kind(answer)) == (422, "invalid-options")


def test_a_timed_out_seat_is_handed_to_greedy_and_the_game_finishes(api, monkeypatch) -> None:
    monkeypatch.setattr(streams, "FALLBACK_SECONDS", 0.2)
    clock = fake_clock(api)
    game = create_timed(api, 10)
    gid, (ann, bob) = game["game_id"], tokens(game)
    assert game["turn_seconds"] == 10
    view = api.get(f"/api/games/{gid}").json()
    assert (view["turn_seconds"], view["turn_seconds_left"]) == (10, 10)
    mover = view["current_player"]
    clock.time += 4
    assert api.get(f"/api/games/{gid}").json()["turn_seconds_left"] == 6
    play_turns(api, gid, [ann, bob], 1)  # a command: the clock starts again (same seat, next step)
    assert api.get(f"/api/games/{gid}").json()["turn_seconds_left"] == 10

    def stop(messages: list[dict[str, Any]]) -> bool:
        if len(messages) == 1:
            clock.time += 10  # the seat to move lets its time run out
        return messages[-1]["event"] == "seat-handed"

    with api.stream("GET", f"/api/games/{gid}/stream?after=1") as answer:  # a spectator's
        messages = read_sse(answer.iter_lines(), stop)
    assert messages[-1]["data"] == {"seat": mover, "bot": "greedy", "reason": "time-limit"}

    # greedy plays the seat's turn; then the other seat, also human, lets its time run out
    other = wait_until(lambda: (v := api.get(f"/api/games/{gid}").json())["current_player"] != mover and v)
    assert other["seats"][mover]["kind"] == "bot" and other["turn_seconds_left"] == 10
    clock.time += 10
    view = wait_until(lambda: (v := api.get(f"/api/games/{gid}").json())["finished"] and v)
    assert [s["handed"] for s in view["seats"]] == [{"bot": "greedy", "reason": "time-limit"}] * 2
    assert view["turn_seconds_left"] is None
    refused = api.get(f"/api/games/{gid}", headers=bearer([ann, bob][mover]))
    assert (refused.status_code, kind(refused)) == (401, "seat-handed-to-bot")
    game_events_only(api, gid)


def test_a_seats_stream_ends_when_the_seat_is_handed_over(api, monkeypatch) -> None:
    monkeypatch.setattr(streams, "FALLBACK_SECONDS", 0.2)
    game = create_game(api)
    gid, (ann, _) = game["game_id"], tokens(game)
    done = []

    def stop(messages: list[dict[str, Any]]) -> bool:
        if not done:
            done.append(hand(api, game, 0, game["creator_token"]).status_code)
        return messages[-1]["event"] not in ("game-event", "seat-handed")

    with api.stream("GET", f"/api/games/{gid}/stream", headers=bearer(ann)) as answer:
        messages = read_sse(answer.iter_lines(), stop)
    assert done == [200]
    assert [m["event"] for m in messages[-2:]] == ["seat-handed", "seat-handed-to-bot"]
    assert messages[-1]["data"]["type"].endswith("/seat-handed-to-bot")


def test_two_processes_racing_to_hand_a_seat_over_store_one_handover(home: Path) -> None:
    one, two = (TestClient(create_app(ServerConfig(home=str(home)))) for _ in range(2))
    clocks = [fake_clock(client) for client in (one, two)]
    game = create_timed(one, 10)
    gid = UUID(game["game_id"])
    services = [client.app.state.service for client in (one, two)]  # type: ignore[attr-defined]
    # both read the record before either writes: the store keeps the first handover only
    states = [service.record_now(gid) for service in services]
    seat = one.get(f"/api/games/{gid}").json()["current_player"]
    won = [
        s._hand_over(state, seat, "greedy", "time-limit") for s, state in zip(services, states, strict=True)
    ]
    assert won == [True, False]
    assert len(services[1].record_now(gid).handovers) == 1

    # the periodic check on two processes whose clocks both ran out: one hands over
    race = create_timed(one, 10)
    rid = UUID(race["game_id"])
    for client, clock in zip((one, two), clocks, strict=True):
        client.get(f"/api/games/{rid}")  # each process sees the game (its clock starts)
        clock.time += 10
    handed = [service.expire_turns() for service in services]
    assert handed == [[rid], []]
    assert [h.reason for h in services[0].record_now(rid).handovers] == ["time-limit"]
    one.close()
    two.close()


def test_a_handover_survives_a_restart(home: Path) -> None:
    with TestClient(create_app(ServerConfig(home=str(home)))) as first:
        game = create_timed(first, 60)
        assert hand(first, game, 0, game["creator_token"]).status_code == 200
    with TestClient(create_app(ServerConfig(home=str(home)))) as second:
        gid = game["game_id"]
        refused = second.get(f"/api/games/{gid}", headers=bearer(tokens(game)[0]))
        assert (refused.status_code, kind(refused)) == (401, "seat-handed-to-bot")
        view = second.get(f"/api/games/{gid}", headers=bearer(tokens(game)[1])).json()
        assert view["seats"][0]["handed"] == {"bot": "greedy", "reason": "creator"}
        assert view["turn_seconds"] == 60
