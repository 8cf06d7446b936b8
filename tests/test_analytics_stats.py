"""The standard statistics, checked by hand on three games written directly as analytics rows;
the SQL command's safety and its one-line errors."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import pyarrow as pa
import pytest
from cascadia.analytics import schema
from cascadia.analytics.query import AnalyticsDB, SqlError
from cascadia.analytics.rates import wilson_interval
from cascadia.analytics.stats import (
    bot_stats,
    card_stats,
    nature_stats,
    overpopulation_stats,
    rate,
    score_stats,
    seat_stats,
)
from cascadia.analytics.storage import AnalyticsStore
from cascadia.cli.app import app
from cascadia.cli.common import run_app

CARDS_A = {"bear": "A", "elk": "A", "salmon": "A", "hawk": "A", "fox": "A"}


def _game(game_id: str, names: list[str], first: int, cards: dict[str, str], turns: int) -> dict[str, Any]:
    row: dict[str, Any] = {
        "game_id": game_id,
        "seed": 1,
        "players": len(names),
        "names": names,
        "first_player": first,
        "cards": "explicit",
        "two_card_sets": False,
        "turns": turns,
    }
    row.update({schema.card_column(s): c for s, c in cards.items()})
    return row


def _player(
    game_id: str,
    seat: int,
    first: int,
    count: int,
    name: str,
    bear: int,
    elk: int,
    corridors: int,
    bonus: int,
    nature: tuple[int, int, int],
    rank: int,
) -> dict[str, Any]:
    earned, spent, left = nature
    wildlife = bear + elk
    return {
        "game_id": game_id,
        "seat": seat,
        "turn_position": (seat - first) % count,
        "name": name,
        "bear_points": bear,
        "elk_points": elk,
        "salmon_points": 0,
        "hawk_points": 0,
        "fox_points": 0,
        "nature_earned": earned,
        "nature_spent": spent,
        "nature_left": left,
        "wildlife_total": wildlife,
        "corridor_total": corridors,
        "bonus_total": bonus,
        "habitat_total": corridors + bonus,
        "total": wildlife + corridors + bonus + left,
        "rank": rank,
        "won": rank == 1,
    }


def _event(game_id: str, sequence: int, type_name: str, **fields: Any) -> dict[str, Any]:
    return {"game_id": game_id, "sequence": sequence, "type": type_name, **fields}


GAMES = [
    _game("g1", ["greedy", "random"], 1, CARDS_A, 40),
    _game("g2", ["greedy", "random"], 0, {**CARDS_A, "elk": "B"}, 40),
    _game("g3", ["greedy", "random", "random"], 2, {**CARDS_A, "bear": "B"}, 60),
]
PLAYERS = [
    # game, seat, first, count, name, bear, elk, corridors, bonus, (earned, spent, left), rank
    _player("g1", 0, 1, 2, "greedy", 10, 5, 10, 2, (3, 2, 1), 1),  # total 28
    _player("g1", 1, 1, 2, "random", 4, 8, 10, 0, (0, 0, 0), 2),  # 22
    _player("g2", 0, 0, 2, "greedy", 6, 5, 10, 0, (1, 1, 0), 2),  # 21
    _player("g2", 1, 0, 2, "random", 6, 2, 12, 2, (2, 0, 2), 1),  # 24
    _player("g3", 0, 2, 3, "greedy", 0, 9, 20, 3, (0, 0, 0), 1),  # 32
    _player("g3", 1, 2, 3, "random", 0, 9, 15, 1, (0, 0, 0), 2),  # 25
    _player("g3", 2, 2, 3, "random", 0, 3, 19, 0, (1, 0, 1), 3),  # 23
]
EVENTS = [
    _event("g1", 10, "NatureTokenSpent", player=0, action="free_choice", cost=1),
    _event("g1", 11, "NatureTokenSpent", player=0, action="wipe", cost=1),
    _event("g1", 12, "WildlifeReplaced", player=0, slots=[0]),
    _event("g1", 20, "OverpopulationWiped", player=1, mandatory=True, unbreakable=False),
    _event("g1", 21, "OverpopulationWiped", player=1, mandatory=True, unbreakable=False),
    _event("g1", 30, "OverpopulationWiped", player=0, mandatory=False, unbreakable=False),
    _event("g2", 10, "NatureTokenSpent", player=0, action="wipe", cost=1),
    _event("g2", 11, "WildlifeReplaced", player=0, slots=[1, 2]),
    _event("g2", 20, "OverpopulationWiped", player=1, mandatory=False, unbreakable=False),
    _event("g2", 30, "OverpopulationWiped", player=0, mandatory=False, unbreakable=False),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Any:
    home = tmp_path_factory.mktemp("hand")
    rows = {schema.GAMES: GAMES, schema.PLAYERS: PLAYERS, schema.EVENTS: EVENTS, schema.PLACEMENTS: []}
    storage = AnalyticsStore(home)
    with storage.writing():
        tables = {
            table: pa.Table.from_pylist(
                [{**r, "batch": "hand"} for r in rows[table]], schema=schema.SCHEMAS[table]
            )
            for table in schema.TABLES
        }
        storage.write_batch(tables, "hand")
    with AnalyticsDB(home) as database:
        database.home = home  # type: ignore[attr-defined]
        yield database


def _by(rows: list[dict[str, Any]], **keys: Any) -> dict[str, Any]:
    found = [r for r in rows if all(r[k] == v for k, v in keys.items())]
    assert len(found) == 1, (keys, rows)
    return found[0]


def test_wilson_interval_matches_published_values() -> None:
    low, high = wilson_interval(5, 10)  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)  # type: ignore[misc]
    assert low == 0 and round(high, 4) == 0.2775
    assert wilson_interval(0, 0) is None
    assert rate(3, 4)["small"] and not rate(30, 30)["small"]


def test_card_stats_by_hand(db: AnalyticsDB) -> None:
    rows = card_stats(db)
    bear_a = _by(rows, card="bear A")
    assert (bear_a["games"], bear_a["players"], bear_a["mean"]) == (2, 4, 6.5)
    assert bear_a["sd"] == pytest.approx(math.sqrt(19 / 3), abs=1e-3)
    # g1: the greedy seat scored most (10) and won; g2: 6 and 6 tie for most, excluded
    top = bear_a["top_scorer"]
    assert (top["k"], top["n"], top["ties_excluded"], top["baseline"]) == (1, 1, 1, 0.5)
    assert top["small"]
    assert bear_a["winner_share"] == pytest.approx((10 / 28 + 6 / 24) / 2, abs=1e-4)
    assert [(b["bot"], b["k"], b["n"]) for b in bear_a["by_bot"]] == [("greedy", 1, 2), ("random", 1, 2)]

    elk_a = _by(rows, card="elk A")
    assert (elk_a["games"], elk_a["players"], elk_a["mean"]) == (2, 5, 6.8)
    assert elk_a["sd"] == pytest.approx(math.sqrt(7.2), abs=1e-3)
    assert (elk_a["top_scorer"]["k"], elk_a["top_scorer"]["n"], elk_a["top_scorer"]["ties_excluded"]) == (
        0,
        1,
        1,
    )
    assert elk_a["winner_share"] == pytest.approx((5 / 28 + 9 / 32) / 2, abs=1e-4)

    elk_b = _by(rows, card="elk B")
    assert (elk_b["mean"], elk_b["top_scorer"]["k"], elk_b["top_scorer"]["n"]) == (3.5, 0, 1)
    bear_b = _by(rows, card="bear B")
    assert (bear_b["mean"], bear_b["top_scorer"]["n"], bear_b["top_scorer"]["rate"]) == (0, 0, None)
    salmon_a = _by(rows, card="salmon A")  # everyone scored 0: every game is a tie
    assert (salmon_a["games"], salmon_a["top_scorer"]["n"], salmon_a["top_scorer"]["ties_excluded"]) == (
        3,
        0,
        3,
    )
    assert [r["card"] for r in rows][:4] == ["bear A", "bear B", "elk A", "elk B"]


def test_where_filters_the_games(db: AnalyticsDB) -> None:
    rows = card_stats(db, "players = 2")
    assert {r["card"] for r in rows} == {
        "bear A",
        "elk A",
        "elk B",
        "salmon A",
        "hawk A",
        "fox A",
    }
    assert _by(rows, card="elk A")["mean"] == 6.5  # g1 only: 5 and 8
    assert card_stats(db, "players = 5") == []


def test_seat_stats_by_hand(db: AnalyticsDB) -> None:
    rows = seat_stats(db)
    first = _by(rows, players=2, turn_position=0)
    second = _by(rows, players=2, turn_position=1)
    assert (first["win"]["k"], first["win"]["n"], first["mean"]) == (0, 2, 21.5)
    assert (second["win"]["k"], second["win"]["n"], second["mean"]) == (2, 2, 26.0)
    assert (first["score_difference"], second["score_difference"]) == (-2.25, 2.25)
    three = _by(rows, players=3, turn_position=1)  # seat 0 of g3, where seat 2 played first
    assert (three["win"]["k"], three["mean"], three["baseline"]) == (1, 32.0, 0.3333)


def test_bot_stats_by_hand(db: AnalyticsDB) -> None:
    rows = bot_stats(db)
    greedy = _by(rows, bot="greedy", players=2)
    assert (greedy["seats"], greedy["win"]["k"], greedy["mean"]) == (2, 1, 24.5)
    random3 = _by(rows, bot="random", players=3)
    assert (random3["seats"], random3["win"]["k"], random3["mean"], random3["mean_rank"]) == (2, 0, 24.0, 2.5)


def test_nature_stats_by_hand(db: AnalyticsDB) -> None:
    result = nature_stats(db)
    two = _by(result["players"], players=2)
    assert (two["seats"], two["earned"], two["spent"], two["left"], two["left_winners"]) == (
        4,
        1.5,
        0.75,
        0.75,
        1.5,
    )
    assert (two["spent_any"]["k"], two["spent_any"]["n"]) == (2, 4)
    wipe = _by(result["actions"], action="wipe")
    free = _by(result["actions"], action="free_choice")
    assert (wipe["times"], wipe["tokens"], wipe["per_game"], wipe["share"]["k"], wipe["share"]["n"]) == (
        2,
        2,
        0.667,
        2,
        3,
    )
    assert (free["times"], free["per_game"]) == (1, 0.333)
    assert nature_stats(db, "players = 3")["actions"] == []


def test_overpopulation_stats_by_hand(db: AnalyticsDB) -> None:
    rows = overpopulation_stats(db)
    two = _by(rows, players=2)
    assert (two["games"], two["mandatory_per_game"], two["mandatory_max"], two["chosen_per_game"]) == (
        2,
        1.0,
        2,
        1.5,
    )
    assert (two["games_with_mandatory"]["k"], two["games_with_chosen"]["k"]) == (1, 2)
    assert (two["chosen_per_turn"]["k"], two["chosen_per_turn"]["n"]) == (3, 80)
    assert two["nature_wipes_per_game"] == 1.0
    three = _by(rows, players=3)
    assert (three["games"], three["mandatory_per_game"], three["chosen_per_turn"]["n"]) == (1, 0.0, 60)


def test_score_stats_by_hand(db: AnalyticsDB) -> None:
    result = score_stats(db, bin_width=5)
    everyone = _by(result["summary"], group="all players")
    winners = _by(result["summary"], group="winners")
    assert (everyone["n"], everyone["mean"], everyone["min"], everyone["median"], everyone["max"]) == (
        7,
        25.0,
        21.0,
        24.0,
        32.0,
    )
    assert (winners["n"], winners["mean"]) == (3, 28.0)
    assert [(h["low"], h["high"], h["n"], h["winners"]) for h in result["histogram"]] == [
        (20, 24, 4, 1),
        (25, 29, 2, 1),
        (30, 34, 1, 1),
    ]
    assert result["parts"]["bear_points"] == pytest.approx(26 / 7, abs=1e-3)
    assert (result["shared_win"]["k"], result["shared_win"]["n"]) == (0, 3)


def test_user_sql_is_read_only_and_errors_are_one_line(db: AnalyticsDB) -> None:
    assert db.user_query("SELECT count(*) AS n FROM players").records() == [{"n": 7}]
    assert db.user_query("SELECT card FROM game_cards WHERE game_id = 'g2' AND species = 'elk'").rows == [
        ("B",)
    ]
    for bad, reason in [
        ("DROP VIEW games", "only SELECT"),
        ("CREATE TABLE x AS SELECT 1", "only SELECT"),
        ("COPY games TO 'x.csv'", "only SELECT"),
        ("SELECT 1; SELECT 2", "exactly one"),
        ("SELECT * FROM read_csv('/etc/passwd')", "Permission"),
        ("SELECT nope FROM games", "nope"),
        ("SELEC 1", "syntax"),
    ]:
        with pytest.raises(SqlError) as caught:
            db.user_query(bad)
        assert "\n" not in str(caught.value) and reason in str(caught.value)
    with pytest.raises(SqlError):
        card_stats(db, "players = 2; DROP VIEW games")
    with pytest.raises(SqlError):
        card_stats(db, "no_such_column = 1")


def _cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["cascadia", *args])
    code = run_app(app)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_sql_and_stats(
    db: AnalyticsDB, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(db.home)  # type: ignore[attr-defined]
    code, out, err = _cli(
        monkeypatch,
        capsys,
        "sql",
        "SELECT name, count(*) AS n FROM players GROUP BY 1 ORDER BY 1",
        "--json",
        "--home",
        home,
    )
    rows = [json.loads(line) for line in out.splitlines()]  # JSON lines: one per row
    assert code == 0 and rows == [{"name": "greedy", "n": 3}, {"name": "random", "n": 4}]
    code, out, err = _cli(monkeypatch, capsys, "sql", "SELECT * FROM nowhere", "--home", home)
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("error: SQL: Catalog Error")
    code, out, err = _cli(monkeypatch, capsys, "sql", "DELETE FROM games", "--home", home)
    assert code == 1 and err == "error: only SELECT queries are allowed, not DELETE\n"
    code, out, err = _cli(
        monkeypatch, capsys, "stats", "cards", "--where", "players = 2", "--json", "--home", home
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and _by(rows, card="bear A")["top_scorer"]["k"] == 1
    for name in ("cards", "seats", "bots", "nature", "overpopulation", "scores"):
        code, out, err = _cli(monkeypatch, capsys, "stats", name, "--home", home)
        assert code == 0 and err == "" and out, name
    code, out, err = _cli(monkeypatch, capsys, "stats", "seats", "--where", "bogus(", "--home", home)
    assert code == 1 and err.count("\n") == 1


def test_no_progress_bar_reaches_stdout(db: AnalyticsDB) -> None:
    """DuckDB draws a progress bar on stdout for a query over two seconds (a million
    games): it would corrupt `stats --json`, so the connection turns it off."""
    assert db.run("SELECT current_setting('enable_progress_bar')").rows == [(False,)]
