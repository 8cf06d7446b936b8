"""Every ``stats`` table and ``sql`` at 80 columns: nothing cut ("…"), no line wider than
80, the numbers that matter present (interval bounds, the maximum); every ``--format``;
``stats cards --sort`` and ``--explain``; the note when games mix bots; the demo's query.

The store is written directly as analytics rows: 1,200 copies of three game shapes (so
sample sizes have four digits), one with the Intermediate variant card (the longest card
name) and totals above 100.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from cascadia.analytics import schema
from cascadia.analytics.storage import AnalyticsStore
from cascadia.application.documents import document

COPIES = 1200
STATS = ("cards", "seats", "bots", "nature", "overpopulation", "scores")
CARDS_A = {"bear": "A", "elk": "A", "salmon": "A", "hawk": "A", "fox": "A"}
INTERMEDIATE = dict.fromkeys(CARDS_A, "intermediate")


def json_lines(out: str) -> list[Any]:
    """The objects of JSON Lines output (every --json prints one object per line)."""
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _game(game_id: str, names: list[str], cards: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "game_id": game_id,
        "seed": 1,
        "players": len(names),
        "names": names,
        "first_player": 0,
        "cards": "explicit",
        "two_card_sets": False,
        "turns": 20 * len(names),
    }
    row.update({schema.card_column(s): c for s, c in cards.items()})
    return row


def _player(
    game_id: str, seat: int, count: int, name: str, bear: int, elk: int, corridors: int, rank: int
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": seat,
        "turn_position": seat,
        "name": name,
        "bear_points": bear,
        "elk_points": elk,
        "salmon_points": 5,
        "hawk_points": 5,
        "fox_points": 5,
        "nature_earned": 3,
        "nature_spent": 2,
        "nature_left": 1,
        "wildlife_total": bear + elk + 15,
        "corridor_total": corridors,
        "bonus_total": 0,
        "habitat_total": corridors,
        "total": bear + elk + 15 + corridors + 1,
        "rank": rank,
        "won": rank == 1,
    }


def _rows(mixed: bool) -> dict[str, list[dict[str, Any]]]:
    games, players, events = [], [], []
    second = "random" if mixed else "greedy"
    for copy in range(COPIES):
        a, b, c = f"a{copy}", f"b{copy}", f"c{copy}"
        games += [
            _game(a, ["greedy", second], CARDS_A),
            _game(b, ["greedy", second, "greedy", second], {**CARDS_A, "elk": "B"}),
            _game(c, ["greedy", second], INTERMEDIATE),
        ]
        players += [
            _player(a, 0, 2, "greedy", 40, 10, 40, 1),  # total 106
            _player(a, 1, 2, second, 4, 14, 20, 2),  # the top elk A scorer loses
            _player(b, 0, 4, "greedy", 45, 10, 40, 1),  # total 111: the maximum
            _player(b, 1, 4, second, 11, 5, 30, 2),
            _player(b, 2, 4, "greedy", 4, 5, 30, 3),
            _player(b, 3, 4, second, 0, 5, 25, 4),
            _player(c, 0, 2, "greedy", 12, 12, 30, 1 + copy % 2),  # top elk, wins every other game
            _player(c, 1, 2, second, 12, 10, 30, 2 - copy % 2),
        ]
        events += [
            {
                "game_id": a,
                "sequence": 5,
                "type": "OverpopulationWiped",
                "player": 0,
                "mandatory": True,
                "unbreakable": False,
            },
            {
                "game_id": b,
                "sequence": 5,
                "type": "OverpopulationWiped",
                "player": 1,
                "mandatory": False,
                "unbreakable": False,
            },
            {
                "game_id": b,
                "sequence": 6,
                "type": "NatureTokenSpent",
                "player": 1,
                "action": "free_choice",
                "cost": 1,
            },
        ]
    return {schema.GAMES: games, schema.PLAYERS: players, schema.EVENTS: events, schema.PLACEMENTS: []}


def _write_store(home: Path, mixed: bool) -> Path:
    rows = _rows(mixed)
    storage = AnalyticsStore(home)
    with storage.writing():
        tables = {
            table: pa.Table.from_pylist(
                [{**r, "batch": "b"} for r in rows[table]], schema=schema.SCHEMAS[table]
            )
            for table in schema.TABLES
        }
        storage.write_batch(tables, "b")
    return home


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_store(tmp_path_factory.mktemp("mixed"), mixed=True)


@pytest.fixture(scope="module")
def greedy_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_store(tmp_path_factory.mktemp("greedy"), mixed=False)


@pytest.fixture
def cli(app_cli):
    """``cli(*args)`` -> (exit code, stdout, stderr), on an 80-column console."""
    return app_cli


def assert_fits(out: str, what: str) -> None:
    assert "…" not in out, f"{what}: a cell is cut"
    wide = [line for line in out.splitlines() if len(line.rstrip()) > 80]
    assert not wide, f"{what}: lines wider than 80 columns: {wide[:2]}"


@pytest.mark.parametrize("name", STATS)
def test_every_stats_table_fits_80_columns(cli, home: Path, name: str) -> None:
    code, out, err = cli("stats", name, "--home", str(home))
    assert code == 0 and err == ""
    assert_fits(out, f"stats {name}")
    assert "rates: percentage" in out or name == "scores"  # the legend
    assert "-- " not in out.split("\n")[0]  # a table, not the vertical fallback


def test_the_numbers_that_matter_are_whole(cli, home: Path) -> None:
    _, out, _ = cli("stats", "scores", "--home", str(home))
    assert re.search(r"max\s+111\.0\s+111\.0", out)
    _, out, _ = cli("stats", "overpopulation", "--home", str(home))
    assert "50.0% n=2400" in out and "[48.0-52.0]" in out  # half the 2-player games had one
    _, out, _ = cli("stats", "cards", "--home", str(home))
    assert "bear intermediate" in out and "100.0% n=2400" in out and "[99.8-100.0]" in out
    _, out, _ = cli("stats", "cards", "--wide", "--home", str(home))
    assert re.search(r"^ *sd\b", out, flags=re.M) and re.search(r"^ *ties\b", out, flags=re.M)


@pytest.mark.parametrize("name", STATS)
def test_every_stats_format(cli, home: Path, name: str) -> None:
    args = ("stats", name, "--home", str(home))
    code, out, _ = cli(*args, "--format", "json")
    assert code == 0 and json_lines(out) == json_lines(cli(*args, "--json")[1])
    code, out, _ = cli(*args, "--format", "csv")
    tables = [list(csv.reader(io.StringIO(part))) for part in out.strip().split("\n\n")]
    assert code == 0 and all(len(t) >= 2 and len({len(r) for r in t}) == 1 for t in tables)
    code, out, _ = cli(*args, "--format", "markdown")
    assert code == 0 and re.search(r"^\| .* \|$", out, flags=re.M) and "|---" not in out
    code, out, _ = cli(*args, "--format", "vertical")
    assert code == 0 and out.startswith("-- ")
    assert_fits(out, f"stats {name} --format vertical")


def test_csv_spells_a_rate_as_four_columns(cli, home: Path) -> None:
    _, out, _ = cli("stats", "cards", "--format", "csv", "--home", str(home))
    header = next(csv.reader(io.StringIO(out)))
    assert header[:3] == ["card", "games", "mean"]
    assert {"top", "top_low", "top_high", "top_n", "ties", "base"} <= set(header)


def test_stats_cards_sort(cli, home: Path) -> None:
    _, out, _ = cli("stats", "cards", "--sort", "top", "--format", "json", "--home", str(home))
    _, table, _ = cli("stats", "cards", "--sort", "top", "--format", "csv", "--home", str(home))
    rates = [float(r["top"]) for r in csv.DictReader(io.StringIO(table.split("\n\n")[0])) if r["top"]]
    assert rates == sorted(rates, reverse=True) and len(rates) >= 3
    _, table, _ = cli("stats", "cards", "--sort", "card", "--format", "csv", "--home", str(home))
    cards = [r["card"] for r in csv.DictReader(io.StringIO(table.split("\n\n")[0]))]
    assert cards == sorted(cards)
    code, out, err = cli("stats", "cards", "--sort", "speed", "--home", str(home))
    assert code == 2 and out == "" and err.count("\n") == 1 and "'speed'" in err and "top" in err


def test_explain_prints_the_shipped_definitions(cli, home: Path) -> None:
    code, out, _ = cli("stats", "--explain")
    assert code == 0 and out.strip() == document("stats").strip()
    code, out, _ = cli("stats", "cards", "--explain")
    assert code == 0 and "top-scorer win rate" in out and "Wilson" in out and "stats seats" not in out
    code, out, _ = cli("stats", "--help")
    assert "--explain" in out and "stats cards --sort top" in out
    code, out, _ = cli("stats", "cards", "--help")
    assert "top" in out and "base" in out and "chance level" in out


def test_a_note_when_the_games_mix_bots(cli, home: Path, greedy_home: Path) -> None:
    for name in ("cards", "seats", "nature", "overpopulation", "scores"):
        _, out, _ = cli("stats", name, "--home", str(home))
        assert "note: these games mix players of different strength (greedy, random)" in out, name
        _, out, _ = cli("stats", name, "--home", str(greedy_home))
        assert "note:" not in out, name
    _, out, _ = cli(
        "stats", "cards", "--where", "list_unique(names) = 1 AND names[1] = 'greedy'", "--home", str(home)
    )
    assert "note:" not in out and "no games match" in out  # every game here has both bots


def test_sql_select_star_is_readable_at_80_columns(cli, home: Path) -> None:
    code, out, _ = cli("sql", "SELECT * FROM games ORDER BY game_id LIMIT 3", "--home", str(home))
    assert code == 0 and "a0" in out and "greedy" in out and "3 row(s)" in out
    assert out.startswith("-- row 1 --")  # too wide for a table: one block per row
    assert_fits(out, "sql SELECT *")
    code, out, _ = cli(
        "sql", "SELECT game_id, players FROM games ORDER BY game_id LIMIT 2", "--home", str(home)
    )
    assert "game_id" in out.splitlines()[1] and "a0" in out  # narrow rows stay a table
    args = ("sql", "SELECT game_id, players FROM games ORDER BY game_id LIMIT 2", "--home", str(home))
    assert cli(*args, "--format", "csv")[1] == "game_id,players\na0,2\na1,2\n"
    assert json_lines(cli(*args, "--format", "json")[1]) == [
        {"game_id": "a0", "players": 2},
        {"game_id": "a1", "players": 2},
    ]
    assert cli(*args, "--format", "markdown")[1].splitlines()[:3] == [
        "| game_id | players |",
        "| --- | ---: |",
        "| a0 | 2 |",
    ]
    assert cli(*args, "--format", "vertical")[1].startswith("-- row 1 --\ngame_id  a0\nplayers  2\n")


def test_sql_query_starting_with_a_comment(cli, home: Path) -> None:
    code, out, err = cli("sql", "-- comment\nSELECT 1 AS one", "--home", str(home))
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert "put the options first and `--` before" in err
    code, out, _ = cli("sql", "--home", str(home), "--", "-- comment\nSELECT 1 AS one")
    assert code == 0 and "one" in out


def test_the_demo_query_counts_games(cli, home: Path) -> None:
    demo = (Path(__file__).resolve().parents[1] / "scripts" / "demo.sh").read_text(encoding="utf-8")
    query = [line for line in demo.splitlines() if line.startswith("cascadia sql")][-1]
    args = shlex.split(query)[1:]
    code, out, _ = cli(*args, "--format", "json", "--home", str(home))
    rows = {row["players"]: row for row in json_lines(out)}
    assert code == 0 and rows[2]["games"] == 2 * COPIES and rows[4]["games"] == COPIES
