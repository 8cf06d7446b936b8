"""Achievement maps on the game server (RULES.md 8.1): maps created, listed and read;
games created for a map; a winner's mark by their seat's token (and every refusal); the
game recorded on its map once; a bot winner's mark made for it."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient
from server_support import bearer, play_to_end, simulated_winners, tokens

MODE = "must_match"
OPTIONS = {"rules": [MODE], "achievement_mode": MODE}
"""The create request's options of a game played for ``MODE`` (RULES.md 8.1)..."""
GAME_OPTIONS = {MODE: True, "achievement_mode": MODE}
"""... and the same as the game's options."""


def new_map(api: TestClient, players: list[str], name: str = "campaign") -> dict[str, Any]:
    answer = api.post("/api/maps", json={"name": name, "players": players})
    assert answer.status_code == 201, answer.text
    return answer.json()


def seed_won_by(names: list[str], strong: set[int], winners: tuple[str, ...]) -> int:
    """The first seed whose game (played as :func:`simulated_winners` plays it) is won
    by exactly ``winners``."""
    for seed in range(100):
        if simulated_winners(seed, names, GAME_OPTIONS, strong) == winners:
            return seed
    raise AssertionError(f"no seed below 100 gives {winners}")


def game_for_map(
    api: TestClient,
    monkeypatch,
    map_id: str,
    seats: list[dict[str, str]],
    seed: int,
    options: dict[str, Any] = OPTIONS,
) -> dict[str, Any]:
    """A game for the map, created with ``seed`` (the server's seed draw patched)."""
    from cascadia.server import games

    monkeypatch.setattr(games.secrets, "randbits", lambda bits: seed)
    answer = api.post("/api/games", json={"seats": seats, "options": options, "map_id": map_id})
    monkeypatch.undo()
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.fixture
def played(api: TestClient, monkeypatch) -> dict[str, Any]:
    """A must_match game of ann and bob for a map of both, not yet played: its seed is one
    where ann, playing greedily, beats bob (playing the first legal command)."""
    the_map = new_map(api, ["ann", "bob"])
    seed = seed_won_by(["ann", "bob"], {0}, ("ann",))
    created = game_for_map(api, monkeypatch, the_map["map_id"], [{"name": "ann"}, {"name": "bob"}], seed)
    return {"map_id": the_map["map_id"], "created": created, "game_id": created["game_id"]}


def markable(api: TestClient, game_id: str, seat: int, token: str | None) -> Any:
    return api.get(f"/api/games/{game_id}/seats/{seat}/markable", headers=bearer(token))


def mark(api: TestClient, game_id: str, token: str | None, body: dict[str, Any]) -> Any:
    return api.post(f"/api/games/{game_id}/marks", headers=bearer(token), json=body)


def test_maps_are_created_listed_and_read_by_anyone(api):
    created = new_map(api, ["ann", "bob"])
    assert [p["player"] for p in created["players"]] == ["ann", "bob"]
    listed = api.get("/api/maps").json()["maps"]
    assert listed == [
        {"map_id": created["map_id"], "name": "campaign", "link": f"/map.html?map={created['map_id']}"}
    ]
    read = api.get(f"/api/maps/{created['map_id']}")
    assert read.status_code == 200
    assert read.json() == created
    picture = api.get(f"/api/maps/{created['map_id']}/svg")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in picture.text and "ann" in picture.text
    narrow = api.get(f"/api/maps/{created['map_id']}/svg?columns=1").text
    size = re.compile(r'<svg [^>]*viewBox="0 0 (\d+) (\d+)"')
    wide_w, wide_h = map(int, size.search(picture.text).groups())
    narrow_w, narrow_h = map(int, size.search(narrow).groups())
    assert narrow_w * 2 == wide_w and narrow_h > wide_h  # one path per row: half as wide, taller
    assert api.get(f"/api/maps/{created['map_id']}/svg?columns=3").status_code == 400
    assert api.get("/api/maps/not-a-map").status_code == 404
    assert api.get("/api/maps/00000000-0000-4000-8000-000000000000").json()["type"].endswith("map-not-found")


def test_a_refused_map_saves_nothing(api):
    answer = api.post("/api/maps", json={"name": "twice", "players": ["ann", "ann"]})
    assert answer.status_code == 422
    assert "already on the map" in answer.json()["detail"]
    assert api.get("/api/maps").json()["maps"] == []
    assert api.post("/api/maps", json={"name": "six", "players": list("abcdef")}).status_code == 400


def test_a_game_for_a_map_needs_a_player_of_the_map_and_a_counting_table(api):
    the_map = new_map(api, ["ann"])
    body: dict[str, Any] = {"seats": [{"name": "ann"}, {"bot": "greedy"}], "map_id": the_map["map_id"]}
    created = api.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["achievement_mode"] == "standard"  # the default mode for a map
    view = api.get(f"/api/games/{created.json()['game_id']}").json()
    assert (view["map_id"], view["achievement_mode"]) == (the_map["map_id"], "standard")
    refusals = [
        {"seats": [{"name": "cat"}, {"name": "dan"}], "map_id": the_map["map_id"]},
        {"seats": [{"name": "ann"}], "map_id": the_map["map_id"]},
        {**body, "options": {"balanced_bag": True}},
        {**body, "options": {"achievement_mode": "flying"}},
    ]
    for refused in refusals:
        answer = api.post("/api/games", json=refused)
        assert answer.status_code == 422, (refused, answer.text)
    missing = api.post("/api/games", json={**body, "map_id": "00000000-0000-4000-8000-000000000000"})
    assert missing.status_code == 404
    assert len(api.get("/api/games").json()["games"]) == 1


def test_the_winner_marks_by_token_and_every_other_caller_is_refused(api, played):
    game_id, seat_tokens = played["game_id"], tokens(played["created"])
    ann, bob = seat_tokens

    # before the end: nothing to mark, and a mark is the map's typed refusal
    early = markable(api, game_id, 0, ann).json()
    assert (early["finished"], early["markable"], early["winner"]) == (False, [], False)
    refused = mark(api, game_id, ann, {"achievement": MODE})
    assert refused.status_code == 422
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["error"] == "GameNotFinishedError"

    play_to_end(api, api.app.state.service.store, game_id, seat_tokens, strong={0})
    mine = markable(api, game_id, 0, ann).json()
    assert (mine["player"], mine["winner"], mine["on_map"]) == ("ann", True, True)
    assert [m["achievement"] for m in mine["markable"]] == [MODE]
    assert markable(api, game_id, 1, bob).json()["markable"] == []
    assert markable(api, game_id, 0, bob).status_code == 403  # another seat's token
    assert markable(api, game_id, 0, None).status_code == 401

    assert mark(api, game_id, bob, {"achievement": MODE}).status_code == 403  # the loser
    assert mark(api, game_id, bob, {"achievement": MODE}).json()["type"].endswith("not-a-winner")
    assert mark(api, game_id, bob, {"achievement": MODE, "seat": 0}).status_code == 403
    assert mark(api, game_id, None, {"achievement": MODE}).status_code == 401
    wrong_mode = mark(api, game_id, ann, {"achievement": "no_bear"})
    assert (wrong_mode.status_code, wrong_mode.json()["error"]) == (422, "WrongModeError")
    version = api.get(f"/api/maps/{played['map_id']}").json()["version"]
    stale = mark(api, game_id, ann, {"achievement": MODE, "expected_version": version - 1})
    assert stale.status_code == 409

    done = mark(api, game_id, ann, {"achievement": MODE, "expected_version": version})
    assert done.status_code == 200, done.text
    assert (done.json()["cell"], done.json()["map_version"]) == (1, version + 1)
    again = mark(api, game_id, ann, {"achievement": MODE})
    assert (again.status_code, again.json()["error"]) == (422, "GameAlreadyMarkedError")
    after = markable(api, game_id, 0, ann).json()
    assert after["markable"] == [] and after["marked"]["cell"] == 1

    progress = api.get(f"/api/maps/{played['map_id']}").json()
    ann_path = progress["players"][0]
    assert [(c["cell"], c["achievement"], c["game_id"]) for c in ann_path["cells"]] == [(1, MODE, game_id)]
    assert progress["players"][1]["cells"] == []
    assert "cell 1: won a must match game" in api.get(f"/api/maps/{played['map_id']}/svg").text


def test_a_finished_game_is_recorded_on_its_map_once(api, played):
    game_id, seat_tokens = played["game_id"], tokens(played["created"])
    assert api.get(f"/api/maps/{played['map_id']}").json()["games"] == 0
    play_to_end(api, api.app.state.service.store, game_id, seat_tokens, strong={0})
    for _ in range(3):  # every later request settles the game again: nothing more is recorded
        markable(api, game_id, 0, seat_tokens[0])
        api.app.state.maps.settle(UUID(game_id))  # type: ignore[attr-defined]
    progress = api.get(f"/api/maps/{played['map_id']}").json()
    assert progress["games"] == 1
    assert [p["games_played"] for p in progress["players"]] == [1, 1]


def test_a_bot_winner_marks_by_its_rule_and_a_game_without_a_map_has_no_marks(api, monkeypatch):
    the_map = new_map(api, ["ann", "greedy"])
    seed = seed_won_by(["ann", "greedy"], set(), ("greedy",))
    created = game_for_map(api, monkeypatch, the_map["map_id"], [{"name": "ann"}, {"bot": "greedy"}], seed)
    play_to_end(api, api.app.state.service.store, created["game_id"], tokens(created), strong=set())
    progress = api.get(f"/api/maps/{the_map['map_id']}").json()
    greedy = progress["players"][1]
    assert [(c["achievement"], c["game_id"]) for c in greedy["cells"]] == [(MODE, created["game_id"])]
    assert progress["games"] == 1
    loser = mark(api, created["game_id"], tokens(created)[0], {"achievement": MODE})
    assert loser.status_code == 403

    plain = api.post("/api/games", json={"seats": [{"name": "ann"}, {"bot": "greedy"}]}).json()
    answer = markable(api, plain["game_id"], 0, tokens(plain)[0])
    assert answer.status_code == 409 and answer.json()["type"].endswith("not-for-a-map")


def test_a_win_of_a_seat_handed_to_a_bot_marks_nothing_for_its_player(api, played):
    """docs/ACHIEVEMENTS.md: a seat handed to a bot marks nothing for its human player,
    though the game counts on the map; the same seat played by ann herself marks (the
    test above), and a bot's own seat marks by its rule (the test below)."""
    game_id, (ann, bob) = played["game_id"], tokens(played["created"])
    creator = played["created"]["creator_token"]
    handed = api.post(f"/api/games/{game_id}/seats/0/bot", headers=bearer(creator), json={"bot": "greedy"})
    assert handed.status_code == 200, handed.text
    play_to_end(api, api.app.state.service.store, game_id, [None, bob], strong=set())
    view = api.get(f"/api/games/{game_id}").json()
    assert view["finished"] and view["seats"][0]["handed"]["bot"] == "greedy"
    progress = api.get(f"/api/maps/{played['map_id']}").json()
    assert progress["games"] == 1
    assert [p["games_played"] for p in progress["players"]] == [1, 1]
    assert [p["cells"] for p in progress["players"]] == [[], []]
    settled = api.app.state.maps._settled(UUID(game_id))  # type: ignore[attr-defined]
    assert settled.facts.winners == ("ann",), "the seed must let the greedy win ann's seat"
    assert [(w.player, w.choices, w.achievement, w.handed) for w in settled.winners] == [
        ("ann", (), None, True)
    ]
    assert markable(api, game_id, 0, ann).status_code == 401  # her old link no longer acts


def test_after_a_standard_game_the_winner_marks_only_what_they_met(api, monkeypatch):
    from cascadia.projections.achievement_progress import game_facts

    the_map = new_map(api, ["ann", "bob"])
    standard = {"achievement_mode": "standard"}
    seed = next(s for s in range(100) if simulated_winners(s, ["ann", "bob"], standard, {0}) == ("ann",))
    created = game_for_map(api, monkeypatch, the_map["map_id"], [{"name": "ann"}, {"name": "bob"}], seed, {})
    ann = tokens(created)[0]
    play_to_end(api, api.app.state.service.store, created["game_id"], tokens(created), strong={0})
    met = game_facts(api.app.state.service.game(UUID(created["game_id"])).state).met["ann"]
    offered = [m["achievement"] for m in markable(api, created["game_id"], 0, ann).json()["markable"]]
    assert offered == list(met)
    unmet = next(a for a in ("score_110", "no_bear", "no_elk") if a not in met)
    refused = mark(api, created["game_id"], ann, {"achievement": unmet})
    assert (refused.status_code, refused.json()["error"]) == (422, "AchievementNotMetError")
    restriction = mark(api, created["game_id"], ann, {"achievement": MODE})
    assert (restriction.status_code, restriction.json()["error"]) == (422, "WrongModeError")
    assert offered, "this seed's winner met no achievement: choose the seed by that too"
    done = mark(api, created["game_id"], ann, {"achievement": offered[0]})
    assert (done.status_code, done.json()["cell"]) == (200, 1)


def test_a_hunter_seat_pursues_its_map_players_first_open_achievement(api, monkeypatch):
    """As in a simulated campaign: the hunter of a game for a map aims at its map
    player's first open standard achievement (RULES.md 8's order); off a map it has no
    goal and plays as the greedy."""
    from cascadia.projections.achievements import ACHIEVEMENTS

    the_map = new_map(api, ["ann", "hunter"])
    options = {"achievement_mode": "standard"}
    seats = [{"name": "ann"}, {"bot": "hunter"}]
    created = game_for_map(api, monkeypatch, the_map["map_id"], seats, 7, options)
    plain = api.post("/api/games", json={"seats": seats}).json()  # achievement_mode needs a map
    maps, store = api.app.state.maps, api.app.state.service.store
    for game, goal in ((created, next(iter(ACHIEVEMENTS))), (plain, None)):
        game_id = UUID(game["game_id"])
        state = store.game(game_id).state.copy()
        state.current = 1  # the hunter's seat, whoever starts
        assert maps.bot_for_turn(game_id, state).goal == goal
