"""Seats that survive (issue 24): the creator's token, a seat's link re-issued by the
creator only, the old link refused ("link-replaced") on every endpoint and its open
stream ended, the re-issue kept across a restart, and no token anyone else can read."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from cascadia.server import streams
from cascadia.server.app import ServerConfig, create_app
from fastapi.testclient import TestClient
from server_support import bearer, create_game, next_command, read_sse, tokens


def reissue(api: TestClient, game: dict[str, Any], seat: int, token: str | None) -> Any:
    return api.post(f"/api/games/{game['game_id']}/seats/{seat}/link", headers=bearer(token))


def kind(answer: Any) -> str:
    return answer.json()["type"].rsplit("/", 1)[1]


def test_a_new_game_answers_the_creators_token_in_a_fragment_and_keeps_only_its_hash(api) -> None:
    game = create_game(api)
    creator = game["creator_token"]
    assert len(creator) == 43 and creator not in tokens(game)
    assert game["creator_link"] == f"/spectate.html?game={game['game_id']}#creator={creator}"
    for seat in game["seats"]:
        assert seat["join_link"].endswith(f"&seat={seat['seat']}#token={seat['token']}")
        assert "?token" not in seat["join_link"] and "&token" not in seat["join_link"]
    record = api.app.state.service.record(UUID(game["game_id"]))  # type: ignore[attr-defined]
    assert record.creator_hash == hashlib.sha256(creator.encode()).hexdigest()
    # the creator's token is not a seat's: it reads nothing as a seat
    answer = api.get(f"/api/games/{game['game_id']}", headers=bearer(creator))
    assert (answer.status_code, kind(answer)) == (401, "invalid-token")


def test_only_the_creator_re_issues_a_human_seats_link(api) -> None:
    game = create_game(api, seats=[{"name": "ann"}, {"bot": "greedy"}, {"name": "bob"}])
    other = create_game(api)
    creator = game["creator_token"]
    refusals = [
        (None, 0, 401, "token-required"),
        (tokens(game)[0], 0, 403, "not-the-creator"),  # a seat, even for its own link
        (tokens(game)[2], 0, 403, "not-the-creator"),
        (other["creator_token"], 0, 403, "not-the-creator"),  # another game's creator
        ("x" * 43, 0, 403, "not-the-creator"),
        (creator, 1, 422, "not-a-human-seat"),  # a bot's seat
        (creator, 3, 422, "not-a-human-seat"),  # no such seat
    ]
    for token, seat, status, name in refusals:
        answer = reissue(api, game, seat, token)
        assert (answer.status_code, kind(answer)) == (status, name), (token, seat)
        assert answer.headers["content-type"] == "application/problem+json"
    for seat in (0, 2):  # refusals change nothing
        assert (
            api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[seat])).json()["seat"]
            == seat
        )
    missing = api.post(
        f"/api/games/{'0' * 8}-0000-4000-8000-{'0' * 12}/seats/0/link", headers=bearer(creator)
    )
    assert (missing.status_code, kind(missing)) == (404, "game-not-found")


def test_a_re_issued_link_replaces_the_old_one_everywhere(api) -> None:
    game = create_game(api)
    gid, (old, bob) = game["game_id"], tokens(game)
    old_ticket = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(old)).json()["ticket"]
    answer = reissue(api, game, 0, game["creator_token"])
    assert answer.status_code == 200
    new = answer.json()["token"]
    assert answer.json() == {
        "seat": 0,
        "token": new,
        "join_link": f"/play.html?game={gid}&seat=0#token={new}",
    }
    assert len(new) == 43 and new != old

    view = api.get(f"/api/games/{gid}", headers=bearer(new)).json()
    body = {"command": next_command(view), "expected_version": view["version"]} if view["your_turn"] else None
    for method, path, json in (
        ("GET", f"/api/games/{gid}", None),
        ("GET", f"/api/games/{gid}/seats/0", None),
        ("GET", f"/api/games/{gid}/events", None),
        ("POST", f"/api/games/{gid}/stream-tickets", None),
        (
            "POST",
            f"/api/games/{gid}/commands",
            body or {"command": {"type": "wipe_three"}, "expected_version": 1},
        ),
    ):
        refused = api.request(method, path, headers=bearer(old), json=json)
        assert (refused.status_code, kind(refused)) == (401, "link-replaced"), path
        assert "replaced" in refused.json()["detail"]
    ticket = api.get(f"/api/games/{gid}/stream?ticket={old_ticket}")
    assert (ticket.status_code, kind(ticket)) == (401, "invalid-token")  # made with the old token

    assert view["seat"] == 0 and api.get(f"/api/games/{gid}/seats/0", headers=bearer(new)).status_code == 200
    assert (
        api.get(f"/api/games/{gid}", headers=bearer(bob)).json()["seat"] == 1
    )  # the other seat keeps its link
    mover = new if view["your_turn"] else bob
    mine = api.get(f"/api/games/{gid}", headers=bearer(mover)).json()
    played = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(mover),
        json={"command": next_command(mine), "expected_version": mine["version"]},
    )
    assert played.status_code == 200

    # a second re-issue replaces the first new link too
    newer = reissue(api, game, 0, game["creator_token"]).json()["token"]
    again = api.get(f"/api/games/{gid}", headers=bearer(new))
    assert (again.status_code, kind(again)) == (401, "link-replaced")
    assert api.get(f"/api/games/{gid}", headers=bearer(newer)).json()["seat"] == 0


def test_no_one_else_reads_a_re_issued_token(api) -> None:
    game = create_game(api)
    gid = game["game_id"]
    new = reissue(api, game, 0, game["creator_token"]).json()["token"]
    secrets = [new, game["creator_token"], *tokens(game)]
    texts = [
        api.get(f"/api/games/{gid}", headers=bearer(tokens(game)[1])).text,
        api.get(f"/api/games/{gid}").text,
        api.get(f"/api/games/{gid}/events").text,
        api.get(f"/api/games/{gid}/events", headers=bearer(tokens(game)[1])).text,
        api.get("/api/games").text,
    ]
    for text in texts:
        for secret in secrets:
            assert secret not in text


def test_a_re_issue_survives_a_restart(home: Path) -> None:
    with TestClient(create_app(ServerConfig(home=str(home)))) as first:
        game = create_game(first)
        new = reissue(first, game, 1, game["creator_token"]).json()["token"]
    with TestClient(create_app(ServerConfig(home=str(home)))) as second:
        gid, old = game["game_id"], tokens(game)[1]
        refused = second.get(f"/api/games/{gid}", headers=bearer(old))
        assert (refused.status_code, kind(refused)) == (401, "link-replaced")
        assert second.get(f"/api/games/{gid}", headers=bearer(new)).json()["seat"] == 1
        assert reissue(second, game, 1, game["creator_token"]).status_code == 200  # the creator still is


def test_a_re_issue_on_one_process_counts_at_once_on_another(home: Path) -> None:
    with (
        TestClient(create_app(ServerConfig(home=str(home)))) as one,
        TestClient(create_app(ServerConfig(home=str(home)))) as two,
    ):
        game = create_game(one)
        gid, old = game["game_id"], tokens(game)[0]
        assert two.get(f"/api/games/{gid}", headers=bearer(old)).json()["seat"] == 0  # cached there
        new = reissue(one, game, 0, game["creator_token"]).json()["token"]
        refused = two.get(f"/api/games/{gid}", headers=bearer(old))
        assert (refused.status_code, kind(refused)) == (401, "link-replaced")
        assert two.get(f"/api/games/{gid}", headers=bearer(new)).json()["seat"] == 0


@pytest.mark.parametrize("fallback", [0.1, 60.0], ids=["looking-soon", "nudged"])
def test_the_old_links_open_stream_ends_when_it_is_replaced(api, monkeypatch, fallback: float) -> None:
    """The old token's open stream ends with ``link-replaced``: at its next look, and at once
    even when its next fallback look is a minute away (a woken stream takes its game's news
    from memory, but the record's change, a nudge, makes it read the record)."""
    monkeypatch.setattr(streams, "FALLBACK_SECONDS", fallback)
    game = create_game(api)
    gid, old = game["game_id"], tokens(game)[0]
    replaced = []

    def stop(messages: list[dict[str, Any]]) -> bool:
        if not replaced:
            replaced.append(reissue(api, game, 0, game["creator_token"]).status_code)
        return messages[-1]["event"] != "game-event"

    started = time.monotonic()
    with api.stream("GET", f"/api/games/{gid}/stream", headers=bearer(old)) as answer:
        messages = read_sse(answer.iter_lines(), stop)
    assert replaced == [200]
    assert messages[-1]["event"] == "link-replaced"
    assert messages[-1]["data"]["type"].endswith("/link-replaced")
    assert time.monotonic() - started < 30  # not after a minute's fallback look


def test_a_browser_asking_for_an_unknown_page_gets_a_page(api) -> None:
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    page = api.get("/no-such-page", headers=html)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Page not found" in page.text and 'href="/"' in page.text
    for path, headers in (("/no-such-page", {}), ("/api/nothing", html), ("/api/games/abc", html)):
        answer = api.get(path, headers=headers)
        assert answer.status_code == 404 and answer.headers["content-type"] == "application/problem+json", (
            path
        )
