"""``cascadia simulate``: its summary of scores and winners, and ``--ingest``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

from cascadia.application.store import GameStore
from cascadia.projections.game_scores import score_state

pytest_plugins = ["store_backends"]
CliRunner = Callable[..., tuple[int, str, str]]


def test_json_lines_carry_each_new_games_scores_and_winners(cascadia: CliRunner, tmp_path: Path) -> None:
    code, out, _ = cascadia(
        "simulate", "-n", "3", "-p", "2", "--bot", "greedy,random", "--json", "--home", str(tmp_path)
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    store = GameStore(tmp_path)
    for line in lines:
        sheet = score_state(store.game(UUID(line["id"])).state)
        assert line["scores"] == [p.total for p in sheet.players]
        assert line["winners"] == list(sheet.winners)


def test_summary_table_counts_seats_and_wins_per_bot(cascadia: CliRunner, tmp_path: Path) -> None:
    code, out, _ = cascadia(
        "simulate", "-n", "2", "-p", "3", "--bot", "greedy,random", "--home", str(tmp_path)
    )
    assert code == 0
    greedy = next(line for line in out.splitlines() if "│ greedy" in line)
    random_line = next(line for line in out.splitlines() if "│ random" in line)
    assert [cell.strip() for cell in greedy.split("│")[2:3]] == ["4"]  # 2 games x 2 greedy seats
    assert [cell.strip() for cell in random_line.split("│")[2:3]] == ["2"]
    code, out, _ = cascadia(
        "simulate", "-n", "2", "-p", "3", "--bot", "greedy,random", "--home", str(tmp_path)
    )
    assert "0 game(s) stored, 2 already stored" in out and "│ greedy" not in out


def test_ingest_adds_the_stored_games_to_the_analytics_tables(cascadia: CliRunner, tmp_path: Path) -> None:
    home = str(tmp_path)
    assert cascadia("simulate", "-n", "3", "-p", "2", "--ingest", "--home", home)[0] == 0
    assert cascadia("simulate", "-n", "5", "-p", "2", "--ingest", "--home", home)[0] == 0
    code, out, _ = cascadia(
        "sql", "SELECT count(*) AS n, count(DISTINCT game_id) AS d FROM games", "--json", "--home", home
    )
    assert code == 0
    assert json.loads(out) == {"n": 5, "d": 5}
