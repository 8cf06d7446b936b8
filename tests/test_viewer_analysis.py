"""The viewer's score-by-turn graph and its move analysis (``view --analysis`` /
``--analyse``): a line per player through every turn's total, the tagged moves marked,
each turn's notes in the page data, and another game's analysis refused."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from cascadia.bots import analysis as analysis_module
from cascadia.bots.registry import play_game
from cascadia.projections.game_scores import score_state
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import LogHeader, write_log
from cascadia.replays.scores import final_score_sheet
from cascadia.replays.viewer import render_html

NS = ""
"""The graph is inline SVG in HTML: no namespace."""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("viewer-analysis")
    played = play_game(31, ["greedy", "random"])
    events = played.collect_events()
    log = folder / "game.cascadia"
    write_log(log, LogHeader.from_events(events), events, final_score_sheet(played.state))
    header, stream = analysis_module.analyse_log(log, budget=1)
    analysed = list(stream)
    rows = [row.to_dict() for row in analysed]
    report = folder / "analysis.jsonl"
    report.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return {
        "log": log,
        "header": header,
        "analysed": analysed,
        "rows": rows,
        "report": report,
        "totals": score_state(played.state).players,
    }


def _graph(page: str) -> ET.Element:
    found = re.search(r'<svg class="score-graph".*?</svg>', page, re.S)
    assert found, "no score graph"
    return ET.fromstring(found.group(0))


def _data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def _points(polyline: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polyline.get("points", "").split()]  # type: ignore[misc]


def test_the_graph_has_a_line_per_player_through_every_turn(game):
    page = render_html(game["log"])
    graph = _graph(page)
    lines = graph.findall(f"{NS}polyline")
    assert [line.get("id") for line in lines] == ["score-line-0", "score-line-1"]
    for line in lines:
        points = _points(line)
        assert len(points) == 41  # after setup, then after each of the 40 turns
        assert [x for x, _ in points] == sorted(x for x, _ in points)
    # the higher final total ends higher on the page (y grows downwards)
    ends = [_points(line)[-1][1] for line in lines]
    totals = [p.total for p in game["totals"]]
    assert (ends[0] < ends[1]) == (totals[0] > totals[1])
    assert graph.find(f"{NS}line[@id='score-cursor']") is not None
    assert not graph.findall(f"{NS}circle")
    assert "analysis" not in _data(page)
    assert 'id="analysis-panel" hidden' in page


def test_the_analysis_is_shown_turn_by_turn_and_marked(game):
    page = render_html(game["log"], analysis=game["rows"])
    notes = _data(page)["analysis"]
    assert [(n["turn"], n["seat"], n["lost"], n["tag"]) for n in notes] == [
        (r["turn"], r["seat"], r["lost"], r["tag"]) for r in game["rows"]
    ]
    tagged = [r for r in game["rows"] if r["tag"]]
    assert tagged
    circles = _graph(page).findall(f"{NS}circle")
    assert sorted(c.get("class") for c in circles) == sorted(f"tag-{r['tag']}" for r in tagged)
    assert all(c.find(f"{NS}title") is not None for c in circles)
    assert 'id="analysis-panel" hidden' not in page
    assert render_html(game["log"], analysis=game["rows"]) == page


def test_another_games_analysis_is_refused(game):
    other = [{**row, "game_id": "00000000-0000-0000-0000-000000000000"} for row in game["rows"]]
    with pytest.raises(ReplayError, match="is of game"):
        render_html(game["log"], analysis=other)
    wrong_seat = [{**game["rows"][0], "seat": 1 - game["rows"][0]["seat"]}]
    with pytest.raises(ReplayError, match="did not play turn 1"):
        render_html(game["log"], analysis=wrong_seat)
    with pytest.raises(ReplayError, match="points lost"):
        render_html(game["log"], analysis=[{**game["rows"][0], "lost": -1}])
    with pytest.raises(ReplayError, match="not a row"):
        render_html(game["log"], analysis=[{"turn": 1}])


def test_view_reads_an_analysis_file_or_analyses(game, cli, tmp_path, monkeypatch):
    out = tmp_path / "view.html"
    log = str(game["log"])
    code, _, err = cli("view", log, "-o", str(out), "--analysis", str(game["report"]), home=False)
    assert code in (0, None), err
    assert _data(out.read_text())["analysis"][0]["turn"] == 1
    quick = lambda path: analysis_module.analyse_log(path, budget=1)  # noqa: E731
    monkeypatch.setattr("cascadia.cli.viewer_commands.analyse_log", quick)
    again = tmp_path / "again.html"
    code, _, err = cli("view", str(game["log"]), "-o", str(again), "--analyse", home=False)
    assert code in (0, None), err
    assert again.read_text() == out.read_text()
    code, _, err = cli("view", log, "-o", str(tmp_path / "x.html"), "--analysis", log, home=False)
    assert code == 1 and err.startswith("error: analysis") and err.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


def test_a_bad_analysis_file_writes_nothing(game, cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"turn": 1}\nnot json\n')
    target = tmp_path / "view.html"
    code, _, err = cli("view", str(game["log"]), "-o", str(target), "--analysis", str(bad), home=False)
    assert code == 1 and "not the JSON lines" in err
    assert not target.exists()


def test_a_hidden_total_breaks_no_line_and_names_are_escaped():
    from cascadia.projections.score_graph import score_graph_svg

    svg = score_graph_svg([0, 1, 2], [[0, 0], [3, None], [5, 4]], ["ann", "<script>x</script>"])
    root = ET.fromstring(svg)
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert [len(_points(line)) for line in lines] == [3, 2]
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert score_graph_svg([0, 1, 2], [[0, 0], [3, None], [5, 4]], ["ann", "bob"]) == score_graph_svg(
        [0, 1, 2], [[0, 0], [3, None], [5, 4]], ["ann", "bob"]
    )


def test_view_analyse_shows_its_progress_on_stderr_when_it_is_a_terminal(game, cli, tmp_path, monkeypatch):
    from cascadia.cli.common import err_console

    analysed = lambda path: (game["header"], iter(game["analysed"]))  # noqa: E731  (analysed once, above)
    monkeypatch.setattr("cascadia.cli.viewer_commands.analyse_log", analysed)
    args = ("view", str(game["log"]), "-o", str(tmp_path / "view.html"), "--analyse")
    assert cli(*args, home=False)[2] == ""  # stderr is no terminal here: no bar
    monkeypatch.setattr(err_console, "_force_terminal", True)
    monkeypatch.setattr(err_console, "is_interactive", True)
    code, out, err = cli(*args, home=False)
    assert code == 0 and "analysing moves" in err and "40/40" in err and "analysing" not in out
    assert cli(*args, "--json", home=False)[2] == ""  # nor under --json
