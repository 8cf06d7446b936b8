"""``cascadia score``, ``achievements`` and ``final-scores`` on stored games."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

from cascadia.application.store import GameStore
from cascadia.projections.game_scores import score_state

pytest_plugins = ["store_backends"]
CliRunner = Callable[..., tuple[int, str, str]]


def _first_game(cascadia: CliRunner, home: Path) -> str:
    code, out, _ = cascadia("games", "--json", "--home", str(home))
    assert code == 0
    return json.loads(out.splitlines()[0])["id"]


def test_score_prints_the_sheet_and_json_matches_the_projection(cascadia: CliRunner, tmp_path: Path) -> None:
    assert cascadia("simulate", "-n", "1", "-p", "3", "--bot", "greedy", "--home", str(tmp_path))[0] == 0
    game_id = _first_game(cascadia, tmp_path)
    code, out, _ = cascadia("score", game_id[:8], "--home", str(tmp_path))
    assert code == 0
    assert "total" in out and "rank" in out and "(final)" in out
    code, out, _ = cascadia("score", game_id, "--json", "--home", str(tmp_path))
    sheet = json.loads(out)
    store = GameStore(tmp_path)
    expected = score_state(store.game(UUID(game_id)).state).to_dict()
    assert sheet["final"] is True
    names = store.game(UUID(game_id)).state.names
    assert sheet["players"] == [
        {"seat": p["seat"], "name": names[p["seat"]], **p, "leading": p["rank"] == 1}
        for p in expected["players"]
    ]
    assert sheet["winners"] == expected["winners"] and sheet["winners"]
    assert [p["total"] for p in sheet["players"]] == [p["total"] for p in expected["players"]]


def test_score_at_a_turn_is_live(cascadia: CliRunner, tmp_path: Path) -> None:
    cascadia("simulate", "-n", "1", "-p", "2", "--home", str(tmp_path))
    game_id = _first_game(cascadia, tmp_path)
    code, out, _ = cascadia("score", game_id, "--turn", "30", "--json", "--home", str(tmp_path))
    assert code == 0
    sheet = json.loads(out)
    assert sheet["final"] is False and sheet["winners"] is None
    first = [p for p in sheet["players"] if p["rank"] == 1]
    assert first and all(p["leading"] and not p["won"] for p in first)
    assert not any(p["won"] for p in sheet["players"])
    code, out, _ = cascadia("score", game_id, "--turn", "30", "--home", str(tmp_path))
    assert "(leading)" in out and "(won)" not in out and "running, round 16 of 20" in out
    code, out, _ = cascadia("score", game_id, "--home", str(tmp_path))
    assert "(won)" in out and "(leading)" not in out and "(final)" in out
    code, _, err = cascadia("score", game_id, "--turn", "999", "--home", str(tmp_path))
    assert code == 1 and err.startswith("error: ") and "Traceback" not in err


def test_achievements_and_final_scores(cascadia: CliRunner, tmp_path: Path) -> None:
    cascadia("simulate", "-n", "2", "-p", "2", "--bot", "greedy", "--home", str(tmp_path))
    game_id = _first_game(cascadia, tmp_path)
    code, out, _ = cascadia("achievements", game_id, "--json", "--home", str(tmp_path))
    assert code == 0
    winners = json.loads(out)["winners"]
    assert winners and all(isinstance(w["seat"], int) for w in winners)
    assert all(isinstance(w["achievements"], list) for w in winners)
    code, out, _ = cascadia("final-scores", "--json", "--home", str(tmp_path))
    assert json.loads(out) == {"added": 2, "games": 2}
    code, out, _ = cascadia("final-scores", "--json", "--home", str(tmp_path))
    assert json.loads(out) == {"added": 0, "games": 2}


def test_unknown_game_is_one_line(cascadia: CliRunner, tmp_path: Path) -> None:
    code, _, err = cascadia("score", "abcdef", "--home", str(tmp_path))
    assert code == 1
    assert err.strip().count("\n") == 0 and err.startswith("error: ")


def test_score_table_labels_both_card_sets_and_the_set_used(cascadia: CliRunner, tmp_path: Path) -> None:
    home = str(tmp_path)
    cascadia("simulate", "-p", "2", "--seed", "0", "--rule", "two_card_sets", "--home", home)
    game_id = _first_game(cascadia, tmp_path)
    data = json.loads(cascadia("score", game_id, "--json", "--home", home)[1])
    _, out, _ = cascadia("score", game_id, "--home", home)
    first, second = data["cards"], data["second_cards"]
    assert f"bear {first['bear']} / {second['bear']}" in out
    used = " ".join(str(p["card_set"] + 1) for p in data["players"])
    assert "card set used" in out and used.replace(" ", "") in out.replace(" ", "").replace("│", "")


def test_show_refuses_a_seat_that_does_not_exist(cascadia: CliRunner, tmp_path: Path) -> None:
    cascadia("simulate", "-p", "2", "--home", str(tmp_path))
    code, _, err = cascadia(
        "show", _first_game(cascadia, tmp_path), "--as-player", "7", "--home", str(tmp_path)
    )
    assert code == 1 and "seat from 0 to 1" in err
