"""The list of the server's games (``GET /api/games``, what the lobby shows): newest
first, each game's seats (a seat handed to a bot marked so), round and, once it is over,
its scores and winners; nothing a seat, the seed or a secret card keeps from the table
while a game is played; games stored by another process listed too."""

from __future__ import annotations

from typing import Any

from cascadia.server.app import ServerConfig, create_app
from fastapi.testclient import TestClient
from server_support import assert_hides, bearer, create_game, hidden_values, play_turns, tokens


def listed(api: TestClient, query: str = "") -> dict[str, Any]:
    answer = api.get(f"/api/games{query}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def bots_game(api: TestClient) -> dict[str, Any]:
    """A game of two bots: they play it to its end as soon as it is created."""
    return create_game(api, seats=[{"bot": "greedy"}, {"bot": "random"}])


def test_an_empty_store_lists_no_game(api) -> None:
    assert listed(api) == {"games": [], "total": 0}


def test_games_are_listed_newest_first_with_their_round_and_result(api) -> None:
    finished = bots_game(api)
    playing = create_game(api, seats=[{"name": "ann"}, {"name": "bob"}])
    while api.get(f"/api/games/{playing['game_id']}").json()["turn"] < 3:
        play_turns(api, playing["game_id"], tokens(playing), 1)
    newest, oldest = listed(api)["games"]

    assert newest["game_id"] == playing["game_id"] and not newest["finished"]
    assert newest["round"] == {"number": 2, "of": 20}  # turn 3 of 2 players: the second round
    assert [(s["name"], s["kind"], s["handed"]) for s in newest["seats"]] == [
        ("ann", "human", None),
        ("bob", "human", None),
    ]
    assert newest["result"] is None

    score = api.get(f"/api/games/{finished['game_id']}/score").json()
    assert oldest["game_id"] == finished["game_id"] and oldest["finished"]
    assert oldest["round"] == {"number": 20, "of": 20}
    assert oldest["result"] == {
        "scores": [p["total"] for p in score["players"]],
        "winners": score["winners"],
    }
    assert [s["kind"] for s in oldest["seats"]] == ["bot", "bot"]


def test_the_list_is_capped_and_counts_every_game(api) -> None:
    made = [create_game(api)["game_id"] for _ in range(3)]
    page = listed(api, "?limit=2")
    assert [g["game_id"] for g in page["games"]] == made[:0:-1]
    assert page["total"] == 3
    for bad in ("0", "201", "x"):
        assert api.get(f"/api/games?limit={bad}").status_code == 400


def test_a_seat_handed_to_a_bot_is_listed_as_the_bot_playing_it(api) -> None:
    game = create_game(api, seats=[{"name": "ann"}, {"name": "bob"}])
    handed = api.post(
        f"/api/games/{game['game_id']}/seats/1/bot", headers=bearer(game["creator_token"]), json={}
    )
    assert handed.status_code == 200, handed.text
    seat = listed(api)["games"][0]["seats"][1]
    assert seat == {"seat": 1, "name": "bob", "kind": "bot", "handed": {"bot": "greedy", "reason": "creator"}}


def test_the_list_tells_no_token_seed_salt_or_secret_card_of_a_game_in_play(api) -> None:
    game = create_game(api, rules=["secret_cards"])
    gid = game["game_id"]
    play_turns(api, gid, tokens(game), 2)
    text = api.get("/api/games").text
    assert_hides(text, hidden_values(api, gid), viewer=None)
    for secret in [game["creator_token"], *tokens(game)]:
        assert secret not in text
    entry = listed(api)["games"][0]
    assert entry["result"] is None  # running scores would tell what a secret card scores
    assert not {"seed", "salt", "token", "tokens", "token_hashes", "creator_hash"} & set(entry)


def test_games_stored_by_another_process_are_listed(api, home) -> None:
    first = create_game(api)
    with TestClient(create_app(ServerConfig(home=str(home)))) as other:
        assert [g["game_id"] for g in listed(other)["games"]] == [first["game_id"]]
        second = create_game(other)
    assert [g["game_id"] for g in listed(api)["games"]] == [second["game_id"], first["game_id"]]
    assert listed(api)["total"] == 2
