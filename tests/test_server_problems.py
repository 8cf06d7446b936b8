"""server/API.md against the server: every row of its table of problem types is
answered, with its status, by a request that should get it; and each method a path does
not answer is a 405 with ``Allow``, an unknown path a 404."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from cascadia.server.app import ServerConfig, create_app
from fastapi.testclient import TestClient
from server_support import bearer, create_game, tokens

API_MD = Path(__file__).parents[1] / "server" / "API.md"
NO_GAME = "/api/games/00000000-0000-4000-8000-000000000000"
Trigger = Callable[[TestClient], httpx.Response]


def documented_problems() -> dict[str, int]:
    """``type name -> status`` of API.md's table of problems."""
    rows = re.findall(r"^\| (\d{3}) \| `([a-z-]+)` \|", API_MD.read_text(encoding="utf-8"), flags=re.M)
    return {name: int(status) for status, name in rows}


@pytest.fixture
def api(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(ServerConfig(home=str(tmp_path / "home"))), raise_server_exceptions=False
    ) as client:
        yield client


def _game_and_mover(api: TestClient) -> tuple[str, list[str | None], int, int]:
    game = create_game(api)
    view = api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[0])).json()
    return game["game_id"], tokens(game), 0 if view["your_turn"] else 1, view["version"]


def _command(
    api: TestClient, command: dict[str, object], by_mover: bool = True, stale: int = 0
) -> httpx.Response:
    """``command`` sent in a new game by the seat to move (or the other seat)."""
    gid, seat_tokens, mover, version = _game_and_mover(api)
    token = seat_tokens[mover if by_mover else 1 - mover]
    body = {"command": command, "expected_version": version + stale}
    return api.post(f"/api/games/{gid}/commands", headers=bearer(token), json=body)


def _failing_view(api: TestClient) -> httpx.Response:
    gid = create_game(api)["game_id"]

    def broken(*_: object) -> None:
        raise RuntimeError("a bug")

    api.app.state.service.view_text = broken  # type: ignore[attr-defined]
    return api.get(f"/api/games/{gid}")


TAKE = {"type": "take", "tile_slot": 0, "wildlife_slot": 0}


def _replaced_link(api: TestClient) -> httpx.Response:
    """A seat's first token, after the creator re-issued the seat's link."""
    game = create_game(api)
    api.post(f"/api/games/{game['game_id']}/seats/0/link", headers=bearer(game["creator_token"]))
    return api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[0]))


TRIGGERS: dict[str, Trigger] = {
    "bad-request": lambda api: api.post(
        "/api/games", content=b"{oops", headers={"Content-Type": "application/json"}
    ),
    "invalid-token": lambda api: api.get(
        f"/api/games/{create_game(api)['game_id']}", headers=bearer("forged")
    ),
    "token-required": lambda api: api.get(f"/api/games/{create_game(api)['game_id']}/seats/0"),
    "link-replaced": lambda api: _replaced_link(api),
    "not-the-creator": lambda api: (
        lambda game: api.post(f"/api/games/{game['game_id']}/seats/0/link", headers=bearer(tokens(game)[0]))
    )(create_game(api)),
    "not-a-human-seat": lambda api: (
        lambda game: api.post(
            f"/api/games/{game['game_id']}/seats/5/link", headers=bearer(game["creator_token"])
        )
    )(create_game(api)),
    "not-your-seat": lambda api: (
        lambda game: api.get(f"/api/games/{game['game_id']}/seats/1", headers=bearer(tokens(game)[0]))
    )(create_game(api)),
    "not-your-turn": lambda api: _command(api, TAKE, by_mover=False),
    "game-not-found": lambda api: api.get(NO_GAME),
    "not-found": lambda api: api.get("/api/nothing"),
    "method-not-allowed": lambda api: api.put("/api/games"),
    "stale-version": lambda api: _command(api, TAKE, stale=1),
    "game-not-over": lambda api: api.get(f"/api/games/{create_game(api)['game_id']}/score"),
    "not-for-a-map": lambda api: (
        lambda game: api.post(
            f"/api/games/{game['game_id']}/marks", headers=bearer(tokens(game)[0]), json={"achievement": "x"}
        )
    )(create_game(api)),
    "map-not-found": lambda api: api.get("/api/maps/00000000-0000-4000-8000-000000000000"),
    "invalid-map": lambda api: api.post("/api/maps", json={"name": "m", "players": ["a", "a"]}),
    "body-too-large": lambda api: api.post("/api/games", content=b" " * 70_000),
    "illegal-move": lambda api: _command(api, {"type": "place_tile", "q": 1, "r": 0, "rotation": 0}),
    "invalid-command": lambda api: _command(api, {"type": "fly"}),
    "invalid-options": lambda api: api.post("/api/games", json={"seats": [{"bot": "nobody"}]}),
    "invalid-board": lambda api: api.post("/api/score/board", json={"text": "cards: A B C D A\n0,0 X\n"}),
    "internal-error": _failing_view,
}
COVERED_ELSEWHERE = {
    "not-a-winner": "test_the_winner_marks_by_token_and_every_other_caller_is_refused",
}
"""Problems that need a finished game for a map: tests/test_server_maps.py checks them."""


def _early_mark(api: TestClient) -> httpx.Response:
    """A mark before the end of a game for a map: the map's typed refusal."""
    map_id = api.post("/api/maps", json={"name": "m", "players": ["ann", "bob"]}).json()["map_id"]
    body = {"seats": [{"name": "ann"}, {"name": "bob"}], "map_id": map_id}
    game = api.post("/api/games", json=body).json()
    return api.post(
        f"/api/games/{game['game_id']}/marks",
        headers=bearer(tokens(game)[0]),
        json={"achievement": "standard"},
    )


def _shutting_down(api: TestClient) -> httpx.Response:
    """Readiness while the process shuts down (as after SIGTERM)."""
    api.app.state.hub.draining = True  # type: ignore[attr-defined]
    return api.get("/readyz")


def _handed_seat(api: TestClient) -> httpx.Response:
    """A seat's token after the creator handed the seat to a bot."""
    game = create_game(api)
    api.post(f"/api/games/{game['game_id']}/seats/0/bot", headers=bearer(game["creator_token"]))
    return api.get(f"/api/games/{game['game_id']}", headers=bearer(tokens(game)[0]))


def _handover_after_the_end(api: TestClient) -> httpx.Response:
    """A solo game handed to a bot, which plays it out; then a handover again."""
    game = create_game(api, seats=[{"name": "ann"}])
    path = f"/api/games/{game['game_id']}/seats/0/bot"
    api.post(path, headers=bearer(game["creator_token"]))
    return api.post(path, headers=bearer(game["creator_token"]))


TRIGGERS["seat-handed-to-bot"] = _handed_seat
TRIGGERS["game-over"] = _handover_after_the_end
TRIGGERS["mark-refused"] = _early_mark
TRIGGERS["not-ready"] = _shutting_down


def test_every_documented_problem_has_a_trigger() -> None:
    assert set(documented_problems()) == set(TRIGGERS) | set(COVERED_ELSEWHERE)
    maps_tests = (Path(__file__).parent / "test_server_maps.py").read_text(encoding="utf-8")
    for name, test in COVERED_ELSEWHERE.items():
        assert f"def {test}(" in maps_tests and name in maps_tests


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_each_documented_problem_is_answered_as_documented(api: TestClient, name: str) -> None:
    answer = TRIGGERS[name](api)
    assert answer.status_code == documented_problems()[name], answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"].endswith("/" + name) and "Traceback" not in answer.text


@pytest.mark.parametrize("method", ["HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_a_method_a_path_does_not_answer_is_405_and_an_unknown_path_404(api: TestClient, method: str) -> None:
    gid = create_game(api)["game_id"]
    for url, allowed in (("/api/games", "GET, POST"), (f"/api/games/{gid}", "GET"), ("/api/health", "GET")):
        answer = api.request(method, url)
        assert (answer.status_code, answer.headers["allow"]) == (405, allowed)
    assert api.request(method, "/api/nothing").status_code == 404


# -- the one table from the use cases' typed errors to problems ------------------------------


def test_each_typed_error_takes_its_nearest_entry_of_the_table() -> None:
    from uuid import UUID

    from cascadia.application.games import StaleVersionError
    from cascadia.application.maps import MapConflictError, StaleMapError
    from cascadia.application.setup import InvalidSetupError
    from cascadia.application.store import GameNotFoundError
    from cascadia.domain.achievement_map import AlreadyMarkedError, MapPlayerError
    from cascadia.domain.commands import PlaceTile
    from cascadia.domain.errors import CascadiaError, TilePlacementError
    from cascadia.server.errors import TABLE, answering, problem_for

    game_id = UUID(int=7)
    assert problem_for(GameNotFoundError(f"no game {game_id} in /secret/place"), game_id).body() == {
        "type": "https://cascadia.invalid/problems/game-not-found",
        "title": "Game not found",
        "status": 404,
        "detail": f"no game {game_id}",  # never the store's location
    }
    stale = problem_for(StaleVersionError(5, 3))
    assert (stale.status, stale.name, stale.detail) == (
        409,
        "stale-version",
        "the game has moved on since version 3 (it is now at version 5); reload it and try again",
    )
    assert problem_for(StaleMapError("map m is at version 4, not 2")).detail.endswith(
        "reload the map and try again"
    )
    assert problem_for(MapConflictError("map m kept changing")).name == "stale-version"
    assert problem_for(InvalidSetupError("no")).name == "invalid-options"
    assert problem_for(MapPlayerError("no")).name == "invalid-map"  # not the mark-refused of its base
    refused = problem_for(AlreadyMarkedError("marked"))
    assert (refused.name, refused.extra["error"]) == ("mark-refused", "AlreadyMarkedError")
    error = TilePlacementError("that hex is taken")
    illegal = problem_for(error, game_id, PlaceTile(1, -1, 0))
    assert (illegal.status, illegal.extra) == (
        422,
        {"error": "TilePlacementError", "rule": error.rule, "hex": [1, -1]},
    )
    assert problem_for(CascadiaError("a bug")) is None and all(issubclass(k, Exception) for k in TABLE)
    with pytest.raises(CascadiaError, match="a bug"), answering(game_id):  # not of the table: a 500
        raise CascadiaError("a bug")
