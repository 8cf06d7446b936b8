"""``cascadia simulate``, ``games`` and ``show``, run through the console script's entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
from uuid import UUID

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.registry import bot_game_id
from cascadia.domain.options import GameOptions


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code != 0
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")


def test_simulate_stores_games_and_is_idempotent(cli, tmp_path):
    code, out, _ = cli("simulate", "-n", "3", "-p", "2", "--seed", "10")
    assert code == 0
    assert out.strip().startswith("3 game(s) stored, 0 already stored")
    stored = list(GameStore(tmp_path).started_games())
    assert [p["seed"] for _, p in stored] == [10, 11, 12]
    code, out, _ = cli("simulate", "-n", "3", "-p", "2", "--seed", "10")
    assert code == 0
    assert out.strip().startswith("0 game(s) stored, 3 already stored")
    assert len(list(GameStore(tmp_path).started_games())) == 3
    code, out, _ = cli("simulate", "-n", "4", "-p", "2", "--seed", "10")
    assert out.strip().startswith("1 game(s) stored, 3 already stored")


def test_simulate_json_prints_one_object_per_game(cli):
    code, out, _ = cli("simulate", "-n", "2", "-p", "3", "--seed", "5", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    names = ["random"] * 3
    assert [{k: row[k] for k in ("id", "seed", "players")} for row in rows] == [
        {"id": str(bot_game_id(seed, names, GameOptions())), "seed": seed, "players": names}
        for seed in (5, 6)
    ]
    assert all(len(row["scores"]) == 3 and row["winners"] for row in rows)


def test_games_lists_the_stored_games(cli):
    cli("simulate", "-n", "2", "-p", "1", "--seed", "3", "--cards", "all-a")
    code, out, _ = cli("games", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["seed"] for row in rows] == [3, 4]
    assert all(row["players"] == ["random"] and row["options"]["cards"] == "all-a" for row in rows)
    code, out, _ = cli("games")
    assert code == 0
    assert rows[0]["short_id"] in out and rows[1]["short_id"] in out
    assert "2 game(s)" in out


def stored_game(cli, tmp_path, players: int = 2) -> str:
    cli("simulate", "-n", "1", "-p", str(players), "--seed", "42")
    ((game_id, _),) = GameStore(tmp_path).started_games()
    return str(game_id)


def test_show_renders_a_game(cli, tmp_path):
    game_id = stored_game(cli, tmp_path)
    code, out, _ = cli("show", game_id[:8])
    assert code == 0
    assert f"game {game_id}" in out
    assert "seed 42" in out and "finished" in out
    assert "cards: bear " in out
    assert "seat 0 random" in out and "seat 1 random" in out


def test_show_json_gives_the_state(cli, tmp_path):
    game_id = stored_game(cli, tmp_path)
    code, out, _ = cli("show", game_id, "--json")
    assert code == 0
    view = json.loads(out)
    events = GameStore(tmp_path).game_events(UUID(game_id))
    assert view["game_id"] == game_id
    assert view["seed"] == 42
    assert view["finished"] is True
    assert view["version"] == len(events)
    assert len(view["players"]) == 2
    assert all(len(p["environment"]) == 23 for p in view["players"])
    assert sum(view["tiles"].values()) == 85
    assert sum(view["wildlife"].values()) == 100


def test_show_turn(cli, tmp_path):
    game_id = stored_game(cli, tmp_path, players=3)
    code, out, _ = cli("show", game_id, "--turn", "0", "--json")
    assert code == 0
    start = json.loads(out)
    assert start["turn"] == 1 and not start["finished"]
    assert all(len(p["environment"]) == 3 for p in start["players"])
    code, out, _ = cli("show", game_id, "--turn", "4", "--json")
    after = json.loads(out)
    assert after["turn"] == 5 and not after["finished"]
    assert sum(len(p["environment"]) for p in after["players"]) == 9 + 4
    code, out, _ = cli("show", game_id[:6], "-t", "4")
    assert code == 0
    assert "round 2 of 20" in out and "market:" in out  # turn 5 of a 3-player game
    assert_one_line_error(*cli("show", game_id, "--turn", "999"))


@pytest.mark.parametrize("bad", ["zzzzzzzz", "abc", "00000000-0000-4000-8000-000000000000"])
def test_show_a_bad_game_id(cli, tmp_path, bad):
    stored_game(cli, tmp_path)
    assert_one_line_error(*cli("show", bad))


@pytest.mark.parametrize(
    "args",
    [
        ["--bot", "nosuchbot"],
        ["--bot", "random,nosuchbot"],
        ["-p", "4", "--balanced-bag"],
        ["-p", "1", "--balanced-bag"],
        ["--cards", "E,E,E,E,E"],
        ["--salmon-runs", "sometimes"],
    ],
)
def test_simulate_refuses_bad_input_and_stores_nothing(cli, tmp_path, args):
    assert_one_line_error(*cli("simulate", "-n", "2", *args))
    assert list(GameStore(tmp_path).started_games()) == []


def test_console_script_reports_errors_in_one_line(tmp_path, clean_env):
    script = shutil.which("cascadia")
    if script is None:
        pytest.skip("the cascadia console script is not installed")
    done = subprocess.run(
        [script, "show", "zzzzzzzz", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert_one_line_error(done.returncode, done.stdout, done.stderr)
    done = subprocess.run(
        [script, "simulate", "-n", "1", "-p", "2", "--home", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 game(s) stored" in done.stdout
