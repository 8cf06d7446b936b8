"""`stats cards` over played games (solo to four players) against the definitions of
analytics/STATS.md computed here in plain Python, player by player: the SQL aggregates
each game once and spreads it over species, and must say exactly what the definitions do."""

from __future__ import annotations

import json
import shutil
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from cascadia.analytics import schema
from cascadia.analytics.contests import DERIVED_COLUMNS, SEAT_WON
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.stats import card_stats
from cascadia.application.study import StudyFolder, StudySpec
from cascadia.application.study_runner import run_study
from cascadia.domain.components import WILDLIFE
from cascadia.domain.options import GameOptions


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> StudyFolder:
    folder = StudyFolder(tmp_path_factory.mktemp("played"))
    for names, games in (
        (("random",), 6),
        (("random", "greedy"), 12),
        (("random",) * 3, 8),
        (("random",) * 4, 8),
    ):
        spec = StudySpec(names, GameOptions(), 500, 500 + games, 4)
        run_study(folder, spec, allow_mix=True)
    return folder


def expected_card_stats(games: list[dict[str, Any]], players: list[dict[str, Any]]) -> dict[str, dict]:
    """The card statistics by their definitions, one game and species at a time."""
    seats: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for player in players:
        seats[player["game_id"]].append(player)
    cards: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"games": 0, "points": [], "shares": [], "decided": 0, "tied": 0, "wins": 0, "bots": {}}
    )
    for game in games:
        for species in WILDLIFE:
            entry = cards[f"{species} {game[schema.card_column(species)]}"]
            table = seats[game["game_id"]]
            points = [p[f"{species}_points"] for p in table]
            entry["games"] += 1
            entry["points"] += points
            shares = [p[f"{species}_points"] / p["total"] for p in table if p["won"] and p["total"] > 0]
            if shares:
                entry["shares"].append(statistics.mean(shares))
            if game["players"] > 1:
                top = [p for p in table if p[f"{species}_points"] == max(points)]
                if len(top) == 1:
                    entry["decided"] += 1
                    entry["wins"] += top[0]["won"]
                else:
                    entry["tied"] += 1
                for p in table:
                    n, k = entry["bots"].get(p["name"], (0, 0))
                    entry["bots"][p["name"]] = (n + 1, k + p["won"])
    return cards


def test_card_stats_say_what_the_definitions_say(home: StudyFolder) -> None:
    with AnalyticsDB(home.root) as db:
        games = db.records("SELECT * FROM games")
        players = db.records("SELECT * FROM players")
        rows = {row["card"]: row for row in card_stats(db)}
    assert {g["players"] for g in games} == {1, 2, 3, 4}
    expected = expected_card_stats(games, players)
    assert rows.keys() == expected.keys()
    for card, want in expected.items():
        got = rows[card]
        assert (got["games"], got["players"]) == (want["games"], len(want["points"])), card
        assert got["mean"] == round(statistics.mean(want["points"]), 3), card
        sd = statistics.stdev(want["points"]) if len(want["points"]) > 1 else None
        assert got["sd"] == (None if sd is None else pytest.approx(round(sd, 3), abs=1e-3)), card
        share = statistics.mean(want["shares"]) if want["shares"] else None
        assert got["winner_share"] == (None if share is None else pytest.approx(share, abs=1e-4)), card
        top = got["top_scorer"]
        assert (top["k"], top["n"], top["ties_excluded"]) == (want["wins"], want["decided"], want["tied"]), (
            card
        )
        assert {b["bot"]: (b["n"], b["k"]) for b in got["by_bot"]} == want["bots"], card


def _made_older(home: StudyFolder, into: Path, every: int) -> Path:
    """A copy of ``home``'s dataset where every ``every``-th batch is as batches written
    before the contest columns were: its ``games`` file lacks them, its marker has no
    columns digest."""
    copy = into / f"older-{every}"
    shutil.copytree(home.root, copy)
    analytics = copy / "analytics"
    for k, marker in enumerate(sorted((analytics / "_commits").glob("*.json"))):
        if k % every:
            continue
        data = json.loads(marker.read_text())
        del data["columns"]
        marker.write_text(json.dumps(data))
        for path in data["files"]:
            if path.startswith(schema.GAMES + "/"):
                table = pq.read_table(analytics / path)
                pq.write_table(table.drop_columns(list(DERIVED_COLUMNS)), analytics / path)
    return copy


@pytest.mark.parametrize("every", [1, 2])
def test_older_batches_get_their_games_contests_from_the_players_table(
    home: StudyFolder, tmp_path: Path, every: int
) -> None:
    with AnalyticsDB(home.root) as db:
        stored = card_stats(db)
        two_players = card_stats(db, "players = 2")
        assert db.run(f"SELECT count(*) FROM games WHERE {SEAT_WON} IS NULL").rows[0][0] == 0
    with AnalyticsDB(_made_older(home, tmp_path, every)) as db:
        older = db.run(f"SELECT count(*) FROM games WHERE {SEAT_WON} IS NULL").rows[0][0]
        assert 0 < older <= db.run("SELECT count(*) FROM games").rows[0][0]
        assert card_stats(db) == stored
        assert card_stats(db, "players = 2") == two_players


def test_a_games_row_holds_what_its_players_rows_say_of_each_card(home: StudyFolder) -> None:
    with AnalyticsDB(home.root) as db:
        games = db.records("SELECT * FROM games")
        players = db.records("SELECT * FROM players ORDER BY game_id, seat")
    seats: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for player in players:
        seats[player["game_id"]].append(player)
    for game in games:
        table = seats[game["game_id"]]
        assert game[SEAT_WON] == [p["won"] for p in table]
        for species in WILDLIFE:
            points = sorted((p[f"{species}_points"] for p in table), reverse=True)
            contest = game[f"{species}_contest"]
            assert contest["best"] == points[0]
            assert contest["runner_up"] == (points[1] if len(points) > 1 else None)
            assert contest["points"] == sum(points)
            if len(points) > 1 and points[0] > points[1]:
                best = max(table, key=lambda p: p[f"{species}_points"])
                assert contest["best_won"] == best["won"]
            else:
                assert contest["best_won"] is None
