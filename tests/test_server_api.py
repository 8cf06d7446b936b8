"""The game server's HTTP API in-process (FastAPI's TestClient): who may do what, what
each viewer sees, bad input, and the seed commitment."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cascadia.replays.commitment import CommitmentError, verify_log_commitment
from cascadia.server.games import SeatSpec
from fastapi.testclient import TestClient
from server_support import (
    assert_hides,
    bearer,
    create_game,
    hidden_values,
    next_command,
    play_turns,
    read_sse,
    tokens,
)

VIEWERS = ("own", "other_seat", "other_game", "spectator", "empty", "forged")


def _headers(viewer: str, game: dict[str, Any], other_game: dict[str, Any]) -> dict[str, str]:
    """The Authorization header of each kind of caller; ``own`` is the seat to move."""
    own = game["mover"]
    return {
        "own": bearer(tokens(game)[own]),
        "other_seat": bearer(tokens(game)[1 - own]),
        "other_game": bearer(tokens(other_game)[0]),
        "spectator": {},
        "empty": {"Authorization": "Bearer "},
        "forged": bearer(secrets.token_urlsafe(32)),
    }[viewer]


def _command_body(api: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    view = api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[game["mover"]])).json()
    return {"command": next_command(view), "expected_version": view["version"]}


# endpoint -> expected status per viewer (own, other_seat, other_game, spectator, empty, forged),
# on a running game; "own" is the seat to move.
MATRIX: dict[str, tuple[int, ...]] = {
    "GET /api/games/{id}": (200, 200, 401, 200, 401, 401),
    "GET /api/games/{id}/seats/{own}": (200, 403, 401, 401, 401, 401),
    "POST /api/games/{id}/commands": (200, 403, 401, 401, 401, 401),
    "GET /api/games/{id}/events": (200, 200, 401, 200, 401, 401),
    "POST /api/games/{id}/stream-tickets": (200, 200, 401, 401, 401, 401),
    "GET /api/games/{id}/stream": (200, 200, 401, 200, 401, 401),
    "GET /api/games/{id}/score": (409, 409, 401, 409, 401, 401),
    "GET /api/games/{id}/log": (409, 409, 401, 409, 401, 401),
    "GET /api/games/{id}/fairness": (200, 200, 401, 200, 401, 401),
}


def _call(api: TestClient, endpoint: str, game: dict[str, Any], headers: dict[str, str]) -> tuple[int, str]:
    method, path = endpoint.split(" ")
    url = path.replace("{id}", game["game_id"]).replace("{own}", str(game["mover"]))
    if endpoint.endswith("/stream"):
        with api.stream("GET", url, headers=headers) as answer:
            if answer.status_code != 200:
                return answer.status_code, answer.read().decode()
            raw: list[str] = []

            def recorded() -> Iterator[str]:
                for line in answer.iter_lines():
                    raw.append(line)
                    yield line

            read_sse(recorded(), lambda m: m[-1]["data"]["version"] >= game["version"])
            return 200, "\n".join(raw)
    if method == "POST" and endpoint.endswith("/commands"):
        answer = api.post(url, headers=headers, json=_command_body(api, game))
    elif method == "POST":
        answer = api.post(url, headers=headers)
    else:
        answer = api.get(url, headers=headers)
    return answer.status_code, answer.text


@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_authorisation_matrix(api: TestClient, endpoint: str) -> None:
    """Every endpoint for every kind of caller: the expected status, problem details for
    every refusal, and no hidden value (seed, salt, another seat's secret card) in any
    answer or stream of a running secret_cards game."""
    for viewer, expected in zip(VIEWERS, MATRIX[endpoint], strict=True):
        game = create_game(api, rules=["secret_cards"])
        game["mover"] = api.get(f"/api/games/{game['game_id']}").json()["current_player"]
        other_game = create_game(api, rules=["secret_cards"])
        hidden = hidden_values(api, game["game_id"])
        status, text = _call(api, endpoint, game, _headers(viewer, game, other_game))
        assert status == expected, f"{endpoint} as {viewer}: {status} {text}"
        if status >= 400 and not endpoint.endswith("/stream"):
            assert '"type":"https://cascadia.invalid/problems/' in text.replace(" ", "")
        seat = {"own": game["mover"], "other_seat": 1 - game["mover"]}.get(viewer)
        assert_hides(text, hidden, seat)
        other_seed_and_salt = {**hidden_values(api, other_game["game_id"]), "secret_cards": None}
        assert_hides(text, other_seed_and_salt, None)


def test_cards_are_the_texts_of_cascadia_cards(api: TestClient, cli: Any) -> None:
    """``GET /api/cards``: the 20 lettered cards and the variant card's two sides, the
    same rows as ``cascadia cards --json`` (one copy of the texts)."""
    answer = api.get("/api/cards")
    assert answer.status_code == 200
    cards = answer.json()["cards"]
    code, out, _ = cli("cards", "--json")
    assert code == 0 and cards == [json.loads(line) for line in out.splitlines()]
    assert len(cards) == 22 and [c["card"] for c in cards[-2:]] == ["family", "intermediate"]
    assert {c["species"] for c in cards[:20]} == {"bear", "elk", "salmon", "hawk", "fox"}
    assert all(c["scores"] and c["rule"].startswith("5.") for c in cards)
    # public, the same for everyone: a token, even one of no seat, is not read
    assert api.get("/api/cards", headers=bearer(secrets.token_urlsafe(32))).json()["cards"] == cards


def test_the_full_rules_are_served_as_text(api: TestClient) -> None:
    answer = api.get("/rules.md")
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.text.startswith("# The rules of Cascadia") and "### 7.10 `secret_cards`" in answer.text


def test_problem_details_media_type(api: TestClient) -> None:
    answer = api.get("/api/games/00000000-0000-4000-8000-000000000000")
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"].endswith("/game-not-found")


def test_views_hide_and_show(api: TestClient) -> None:
    """Each seat sees its own secret card and no other; a spectator none; the seed is
    null everywhere; legal commands only for the seat to move, as dict and text."""
    game = create_game(api, rules=["secret_cards"])
    gid, hidden = game["game_id"], hidden_values(api, game["game_id"])
    texts = []
    for seat, token in enumerate(tokens(game)):
        view = api.get(f"/api/games/{gid}", headers=bearer(token)).json()
        assert view["state"]["secret_cards"][seat] == hidden["secret_cards"][seat]
        assert "seed" not in view["state"] and "draw_position" not in view["state"]
        if view["your_turn"]:
            assert {"command", "text"} <= set(view["legal_commands"][0])
        else:
            assert view["legal_commands"] == []
        texts.append((seat, api.get(f"/api/games/{gid}/seats/{seat}", headers=bearer(token)).text))
        texts.append((seat, api.get(f"/api/games/{gid}/events", headers=bearer(token)).text))
    texts.append((None, api.get(f"/api/games/{gid}").text))
    texts.append((None, api.get("/api/games").text))
    texts.extend((None, t) for t in play_turns(api, gid, tokens(game), 12))
    for seat, text in texts:
        assert_hides(text, hidden, seat)
    spectator = api.get(f"/api/games/{gid}").json()
    assert spectator["state"]["secret_cards"] == [None, None]


CARD_CHOICES = [
    ("random", []),
    ("A,B,C,D,A", []),
    ("D,C,B,A,D", ["two_card_sets"]),
    ("random", ["two_card_sets"]),
    ("family", []),
    ("intermediate", []),
]


@pytest.mark.parametrize(("cards", "rules"), CARD_CHOICES)
def test_every_view_hides_the_other_seats_cards_by_value(
    api: TestClient, cards: str, rules: list[str]
) -> None:
    """With secret cards, every field of every answer a seat or a spectator gets (game,
    seat view, events, list, command answers), by value: no letter of another seat's
    secret card, whether the cards are drawn or chosen (``A,B,C,D,A``), one set or two,
    lettered or variant cards."""
    game = create_game(api, rules=["secret_cards", *rules], cards=cards)
    gid, hidden = game["game_id"], hidden_values(api, game["game_id"])
    viewers: list[tuple[int | None, dict[str, str]]] = [(None, {})]
    viewers += [(seat, bearer(token)) for seat, token in enumerate(tokens(game))]

    def every_view() -> None:
        for seat, headers in viewers:
            urls = [f"/api/games/{gid}", f"/api/games/{gid}/events", "/api/games"]
            urls += [] if seat is None else [f"/api/games/{gid}/seats/{seat}"]
            for url in urls:
                answer = api.get(url, headers=headers)
                assert answer.status_code == 200, answer.text
                assert_hides(answer.text, hidden, seat)

    every_view()
    for text in play_turns(api, gid, tokens(game), 6):
        assert_hides(text, hidden, None)
    every_view()


def test_command_answers_and_refusals(api: TestClient) -> None:
    game = create_game(api)
    gid, (ann, bob) = game["game_id"], tokens(game)
    view = api.get(f"/api/games/{gid}", headers=bearer(ann)).json()
    mover, waiter = (ann, bob) if view["your_turn"] else (bob, ann)
    view = api.get(f"/api/games/{gid}", headers=bearer(mover)).json()
    version = view["version"]
    # not your turn
    answer = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(waiter),
        json={"command": next_command(view), "expected_version": version},
    )
    assert answer.status_code == 403 and answer.json()["type"].endswith("/not-your-turn")
    # illegal: a tile before taking
    answer = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(mover),
        json={"command": {"type": "place_tile", "q": 5, "r": 5, "rotation": 0}, "expected_version": version},
    )
    problem = answer.json()
    assert answer.status_code == 422 and problem["type"].endswith("/illegal-move")
    assert (
        problem["error"] == "OutOfOrderError"
        and problem["rule"].startswith("RULES.md")
        and problem["hex"] == [5, 5]
    )
    # stale
    answer = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(mover),
        json={"command": next_command(view), "expected_version": version - 1},
    )
    assert answer.status_code == 409 and answer.json()["type"].endswith("/stale-version")
    assert api.get(f"/api/games/{gid}").json()["version"] == version
    # applied
    answer = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(mover),
        json={"command": next_command(view), "expected_version": version},
    )
    body = answer.json()
    assert answer.status_code == 200 and body["version"] > version
    assert [e["version"] for e in body["events"]] == list(range(version + 1, body["version"] + 1))


BAD_BODIES: list[tuple[str, bytes, int, str]] = [
    ("/api/games", b"{not json", 400, "bad-request"),
    ("/api/games", b'{"seats": "ann"}', 400, "bad-request"),
    ("/api/games", b'{"seats": [{"name": 7}]}', 400, "bad-request"),
    ("/api/games", b'{"seats": [{"name": "ann"}], "extra": 1}', 400, "bad-request"),
    ("/api/games", b'{"seats": []}', 400, "bad-request"),
    ("/api/games", b'{"seats": [{"bot": "nobody"}]}', 422, "invalid-options"),
    ("/api/games", b'{"seats": [{"name": "a"}, {"name": "a"}]}', 422, "invalid-options"),
    ("/api/games", b'{"seats": [{"name": "a"}], "options": {"rules": ["flying"]}}', 422, "invalid-options"),
    ("/api/games", b'{"seats": [{"name": "a"}], "options": {"balanced_bag": true}}', 422, "invalid-options"),
    ("/api/games", b"[" * 70_000, 413, "body-too-large"),
    *(
        ("/api/games", b'{"seats": [{"name": "a%sb"}]}' % bad, 422, "invalid-options")
        for bad in (b"\\u0000", b"\\n", b"\\r", b"\\t", b"\\u2028", b"\\u202e", b"\\u2066", b"\\u200f")
    ),
    (
        "/api/games",
        b'{"seats": [{"name": "a"}, {"name": "b"}], "options": {"achievement_mode": "standard"}}',
        422,
        "invalid-options",
    ),
    (
        "/api/games",
        b'{"seats": [{"name": "a"}], "options": {"cards": "A,B,C,D,A"}, "x": '
        + b"[" * 5000
        + b"]" * 5000
        + b"}",
        400,
        "bad-request",
    ),
    ("/api/games", b'{"seats": [{"name": "\xff"}]}', 400, "bad-request"),
    ("commands", b"{oops", 400, "bad-request"),
    ("commands", b'{"command": {"type": "take"}, "expected_version": "7"}', 400, "bad-request"),
    ("commands", b'{"command": {"type": "fly"}, "expected_version": 1}', 422, "invalid-command"),
    (
        "commands",
        b'{"command": {"type": "take", "tile_slot": "1"}, "expected_version": 1}',
        422,
        "invalid-command",
    ),
    (
        "commands",
        b'{"command": {"type": "place_tile", "q": 1}, "expected_version": 1}',
        422,
        "invalid-command",
    ),
    (
        "commands",
        b'{"command": {"type": "take", "tile_slot": 1, "x": 2}, "expected_version": 1}',
        422,
        "invalid-command",
    ),
    ("commands", b'{"command": [], "expected_version": 1}', 400, "bad-request"),
    (  # 17 levels: within the JSON library's limits, past the server's one bound (MAX_DEPTH)
        "commands",
        b'{"command": {"type": "take", "x": ' + b"[" * 15 + b"]" * 15 + b'}, "expected_version": 1}',
        400,
        "bad-request",
    ),
    ("commands", b" " * 70_000, 413, "body-too-large"),
]


@pytest.mark.parametrize(("path", "body", "status", "kind"), BAD_BODIES)
def test_bad_input(api: TestClient, path: str, body: bytes, status: int, kind: str) -> None:
    """A clear 4xx problem for each, and nothing stored."""
    game = create_game(api)
    gid = game["game_id"]
    before = api.get(f"/api/games/{gid}/events").json()
    games_before = len(api.get("/api/games").json()["games"])
    url = f"/api/games/{gid}/commands" if path == "commands" else path
    answer = api.post(
        url, content=body, headers={"Content-Type": "application/json", **bearer(tokens(game)[0])}
    )
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"].endswith("/" + kind)
    assert "Traceback" not in answer.text
    assert api.get(f"/api/games/{gid}/events").json() == before
    assert len(api.get("/api/games").json()["games"]) == games_before


def test_chunked_body_over_the_limit(api: TestClient) -> None:
    def chunks():  # no Content-Length: the limit is counted as the body arrives
        for _ in range(100):
            yield b" " * 1024

    answer = api.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413


def test_unknown_game_and_paths(api: TestClient) -> None:
    for url in ("/api/games/not-a-uuid", "/api/games/00000000-0000-4000-8000-000000000000/events"):
        answer = api.get(url)
        assert answer.status_code == 404 and answer.json()["type"].endswith("/game-not-found")
    gid = create_game(api)["game_id"]
    hexes = gid.replace("-", "")
    for spelling in (gid.upper(), f"urn:uuid:{gid}", f"{{{gid}}}", hexes):  # one URL per game
        answer = api.get(f"/api/games/{spelling}")
        assert answer.status_code == 404 and answer.json()["type"].endswith("/game-not-found"), spelling
    mid = api.post("/api/maps", json={"name": "m"}).json()["map_id"]
    answer = api.get(f"/api/maps/{mid.upper()}")
    assert answer.status_code == 404 and answer.json()["type"].endswith("/map-not-found")
    assert api.get("/api/nothing").status_code == 404
    assert (
        api.post(
            "/api/games/00000000-0000-4000-8000-000000000000/commands",
            json={"command": {"type": "return_wildlife"}, "expected_version": 1},
            headers=bearer("x"),
        ).status_code
        == 404
    )


def _play_to_end(api: TestClient, game: dict[str, Any]) -> None:
    gid, token = game["game_id"], tokens(game)[0]
    for _ in range(500):
        view = api.get(f"/api/games/{gid}", headers=bearer(token)).json()
        if view["finished"]:
            return
        assert view["your_turn"]
        answer = api.post(
            f"/api/games/{gid}/commands",
            headers=bearer(token),
            json={"command": view["legal_commands"][-1]["command"], "expected_version": view["version"]},
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def test_commitment_reveal_and_verify(api: TestClient, tmp_path: Path) -> None:
    """A solo game played to the end: the fairness reveal checks out against the log,
    a forged salt or commitment fails, and commands after the end change nothing."""
    game = create_game(api, seats=[{"name": "ann"}])
    gid = game["game_id"]
    before = api.get(f"/api/games/{gid}/fairness").json()
    assert before["seed"] is None and before["salt"] is None and before["commitment"] == game["commitment"]
    _play_to_end(api, game)
    fairness = api.get(f"/api/games/{gid}/fairness").json()
    log = tmp_path / "game.cascadia"
    log.write_bytes(api.get(f"/api/games/{gid}/log").content)
    assert verify_log_commitment(log, game["commitment"], fairness["salt"]) == fairness["seed"]
    forged_salt = f"{int(fairness['salt'], 16) ^ 1:064x}"
    with pytest.raises(CommitmentError):
        verify_log_commitment(log, game["commitment"], forged_salt)
    with pytest.raises(CommitmentError):
        verify_log_commitment(log, "0" * 64, fairness["salt"])
    score = api.get(f"/api/games/{gid}/score").json()
    assert score["players"][0]["total"] >= 0
    view = api.get(f"/api/games/{gid}").json()
    answer = api.post(
        f"/api/games/{gid}/commands",
        headers=bearer(tokens(game)[0]),
        json={"command": {"type": "return_wildlife"}, "expected_version": view["version"]},
    )
    assert answer.status_code == 422 and answer.json()["error"] == "GameOverError"
    assert api.get(f"/api/games/{gid}").json()["version"] == view["version"]


def test_verify_commitment_command(api: TestClient, tmp_path: Path, cli: Any) -> None:
    game = create_game(api, seats=[{"name": "ann"}])
    _play_to_end(api, game)
    fairness = api.get(f"/api/games/{game['game_id']}/fairness").json()
    log = tmp_path / "game.cascadia"
    log.write_bytes(api.get(f"/api/games/{game['game_id']}/log").content)
    args = ("verify-commitment", str(log), "--commitment", game["commitment"])
    code, out, _ = cli(*args, "--salt", fairness["salt"], home=False)
    assert code == 0 and "matches the commitment" in out
    code, _, err = cli(*args, "--salt", "ab" * 32, home=False)
    assert code == 1 and err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_stream_ticket(api: TestClient) -> None:
    """A ticket opens its seat's stream (its own secret card visible), only in its game,
    and only once: a ticket seen again (a copied link, a proxy's log) opens nothing."""
    game = create_game(api, rules=["secret_cards"])
    other = create_game(api)
    gid, hidden = game["game_id"], hidden_values(api, game["game_id"])
    ticket = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(tokens(game)[1])).json()["ticket"]
    with api.stream("GET", f"/api/games/{gid}/stream?ticket={ticket}") as answer:
        messages = read_sse(answer.iter_lines(), lambda m: m[-1]["data"]["type"] == "SecretCardsDealt")
    assert messages[-1]["data"]["payload"]["species"] == [None, hidden["secret_cards"][1]]
    again = api.get(f"/api/games/{gid}/stream?ticket={ticket}")
    assert again.status_code == 401 and "used already" in again.json()["detail"]
    kept = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(tokens(game)[1])).json()["ticket"]
    bad = api.get(f"/api/games/{gid}/stream?ticket={kept}", headers={"Last-Event-ID": "x"})
    assert bad.status_code == 400  # and the ticket is not spent by it, nor by a query too long:
    assert api.get(f"/api/games/{gid}/stream", params={"ticket": kept, "after": "9" * 41}).status_code == 400
    with api.stream("GET", f"/api/games/{gid}/stream?ticket={kept}") as answer:
        assert answer.status_code == 200
    fresh = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(tokens(game)[1])).json()["ticket"]
    with api.stream("GET", f"/api/games/{gid}/stream?ticket={fresh}") as answer:
        assert answer.status_code == 200
    assert api.get(f"/api/games/{other['game_id']}/stream?ticket={ticket}").status_code == 401
    assert api.get(f"/api/games/{gid}/stream?ticket=1.99999999999.{'0' * 24}.{'0' * 64}").status_code == 401


def test_bots_move_by_themselves(api: TestClient) -> None:
    """A bot that starts moves at creation; after a human command the bot replies."""
    game = create_game(api, seats=[{"bot": "random"}, {"bot": "greedy"}])
    view = api.get(f"/api/games/{game['game_id']}").json()
    assert view["finished"]  # TestClient runs background tasks before answering
    game = create_game(api, seats=[{"name": "ann"}, {"bot": "random"}])
    play_turns(api, game["game_id"], tokens(game), 6)
    view = api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[0])).json()
    assert view["your_turn"] and view["state"]["turn"] >= 3


def test_a_command_in_a_game_of_humans_leaves_no_work_behind(api: TestClient, monkeypatch) -> None:
    """After a command, the bots' turn and the map's settling run only when a bot is to
    move or the game is over: a game of humans in play gets no background work."""
    service = api.app.state.service  # type: ignore[attr-defined]
    calls: list[object] = []
    real = service.run_bots
    monkeypatch.setattr(service, "run_bots", lambda *args: calls.append(args) or real(*args))
    humans = create_game(api, seats=[{"name": "ann"}, {"name": "bob"}])
    play_turns(api, humans["game_id"], tokens(humans), 6)
    assert calls == []
    with_bot = create_game(api, seats=[{"name": "ann"}, {"bot": "random"}])
    calls.clear()
    play_turns(api, with_bot["game_id"], tokens(with_bot), 6)  # two turns: the bot's comes
    assert calls


def test_a_read_starts_bots_left_waiting(api: TestClient) -> None:
    """A game stored with a bot to move and nobody moving it (as after a server process
    died between a command and the bot's turn): reading it lets the bot play."""
    service = api.app.state.service  # type: ignore[attr-defined]
    for _ in range(20):  # until the random first player is the bot
        created = service.create([SeatSpec(bot="random"), SeatSpec(name="ann")], {})
        if service.store.game(created.game_id).state.current == 0:
            break
    gid = str(created.game_id)
    assert api.get(f"/api/games/{gid}").json()["bot_to_move"]
    view = api.get(f"/api/games/{gid}", headers=bearer(created.tokens[1])).json()
    assert view["your_turn"] and not view["bot_to_move"]
