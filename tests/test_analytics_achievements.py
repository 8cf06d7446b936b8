"""Achievement statistics: winners' achievements per bot and player count (RULES.md 8),
and the games a campaign took to each milestone (RULES.md 8.1), from the analytics tables."""

from __future__ import annotations

import json

from cascadia.analytics.achievements import achievement_rates, milestone_games
from cascadia.analytics.query import AnalyticsDB
from cascadia.application.maps import list_maps, load_map
from cascadia.application.store import GameStore
from cascadia.domain.game import Game
from cascadia.projections.achievements import ACHIEVEMENTS, player_achievements
from cascadia.projections.game_scores import score_state


def test_players_carry_the_achievements_they_met_and_winners_are_counted(cli, tmp_path):
    assert cli("simulate", "-n", "6", "-p", "2", "--seed", "1", "--bot", "greedy,random", "--ingest")[0] == 0
    assert cli("simulate", "-n", "2", "-p", "1", "--seed", "1", "--bot", "greedy", "--ingest")[0] == 0
    store = GameStore(tmp_path)
    expected: dict[tuple[str, str], int] = {}
    winners: dict[str, int] = {}
    with AnalyticsDB(tmp_path) as db:
        rows = {(r["game_id"], r["seat"]): r["achievements"] for r in db.records("SELECT * FROM players")}
        for game_id, payload in store.started_games():
            state = Game.replay(store.game_events(game_id)).state
            sheet = score_state(state)
            for seat in range(len(state.players)):
                met = player_achievements(state, sheet, seat)
                assert rows[(str(game_id), seat)] == met
                if seat in sheet.winners and len(state.players) > 1:
                    winners[payload["names"][seat]] = winners.get(payload["names"][seat], 0) + 1
                    for achievement in met:
                        key = (achievement, payload["names"][seat])
                        expected[key] = expected.get(key, 0) + 1
        rates = achievement_rates(db)
    assert len(rates) == len(ACHIEVEMENTS) * len(winners)  # solo games do not count (RULES.md 8)
    for row in rates:
        assert row["players"] == 2
        met = expected.get((row["achievement"], row["bot"]), 0)
        assert (row["k"], row["n"]) == (met, winners[row["bot"]])


def test_milestones_count_the_games_a_campaign_took(cli, tmp_path):
    cli("map", "new", "duo", "--player", "greedy", "--player", "random")
    assert cli("simulate", "--map", "duo", "--games", "20", "--seed", "1", "--cards", "all-a")[0] == 0
    assert cli("ingest", "--from-store")[0] == 0
    store = GameStore(tmp_path)
    [summary] = list(list_maps(store))
    greedy = load_map(store, summary.map_id).path("greedy")
    assert len(greedy.marks) >= 8
    with AnalyticsDB(tmp_path) as db:
        marks = db.records("SELECT * FROM marks ORDER BY player, cell")
        milestones = milestone_games(db)
    assert [m["cell"] for m in marks if m["player"] == "greedy"] == list(range(1, len(greedy.marks) + 1))
    river = next(m for m in milestones if m["player"] == "greedy" and m["cells"] == 8)
    assert river["milestone"] == "river explorer" and river["maps"] == 1
    assert river["mean_games"] == river["fewest_games"] == greedy.marks[7].games
    assert greedy.marks[7].games >= 8


def test_marks_are_rewritten_whole_at_each_ingest(cli, tmp_path):
    cli("map", "new", "duo", "--player", "greedy", "--player", "random")
    cli("simulate", "--map", "duo", "--games", "3", "--seed", "1")
    cli("ingest", "--from-store")
    with AnalyticsDB(tmp_path) as db:
        before = db.records("SELECT count(*) AS n FROM marks")[0]["n"]
    cli("simulate", "--map", "duo", "--games", "3", "--seed", "4")
    cli("ingest", "--from-store")
    with AnalyticsDB(tmp_path) as db:
        after = db.records("SELECT count(*) AS n FROM marks")[0]["n"]
        assert (
            db.records("SELECT count(DISTINCT cell) AS n FROM marks WHERE player = 'greedy'")[0]["n"]
            == (db.records("SELECT count(*) AS n FROM marks WHERE player = 'greedy'")[0]["n"])
        )
    assert after >= before > 0


def test_stats_achievements_prints_both_tables_at_80_columns(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    cli("map", "new", "duo", "--player", "greedy", "--player", "random")
    cli("simulate", "--map", "duo", "--games", "10", "--seed", "1", "--cards", "all-a")
    assert cli("ingest", "--from-store")[0] == 0
    code, out, err = cli("stats", "achievements")
    assert code == 0, err
    assert "Achievements met by the winners" in out and "Milestones of the achievement maps" in out
    assert "river explorer" in out and "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    code, out, _ = cli("stats", "achievements", "--json")
    data = json.loads(out.splitlines()[0])
    assert data["milestones"][0]["milestone"] == "river explorer"
    assert {row["achievement"] for row in data["achievements"]} == set(ACHIEVEMENTS)
