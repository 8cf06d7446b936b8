"""Charts of the statistics (``stats NAME --chart OUT``): well-formed SVG with one mark
per row of the statistic, the same bytes for the same data, PNG by the extension, and
one-line errors for a bad file name or a missing matplotlib."""

from __future__ import annotations

import builtins
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from cascadia.analytics.charts import CHARTS, ChartsUnavailableError, write_chart
from cascadia.analytics.stats import bot_stats, card_stats, score_stats, seat_stats
from cascadia.domain.errors import InvalidOptionError
from test_analytics_stats import db  # noqa: F401 - the hand-made analytics tables

pytest.importorskip("matplotlib")


def _marks(path: Path) -> list[str]:
    """The ids of the row marks of an SVG chart, in document order."""
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    ids = [element.get("id", "") for element in root.iter()]
    return [i for i in ids if i.startswith("row-") and i.count("-") == 1]


def _rows(db: Any) -> dict[str, Any]:  # noqa: F811
    return {
        "cards": [r for r in card_stats(db) if r["top_scorer"]["n"]],
        "seats": seat_stats(db),
        "bots": [r for r in bot_stats(db) if r["win"] is not None],
        "scores": score_stats(db)["by_bot"],
    }


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_each_chart_has_one_mark_per_row(db, tmp_path, name):  # noqa: F811
    rows = _rows(db)[name]
    data = score_stats(db) if name == "scores" else rows
    path = tmp_path / f"{name}.svg"
    assert write_chart(name, data, path) == path.stat().st_size
    assert _marks(path) == [f"row-{i}" for i in range(len(rows))]
    assert len(rows) >= 2


def test_score_groups_per_bot_and_player_count(db):  # noqa: F811
    groups = {(g["bot"], g["players"]): g for g in score_stats(db)["by_bot"]}
    assert sorted(groups) == [("greedy", 2), ("greedy", 3), ("random", 2), ("random", 3)]
    greedy = groups["greedy", 2]
    assert (greedy["n"], greedy["mean"], greedy["max"]) == (2, 24.5, 28.0)
    assert (groups["random", 3]["n"], groups["random", 3]["median"]) == (2, 24.0)


def test_the_same_data_gives_the_same_bytes(db, tmp_path):  # noqa: F811
    rows = card_stats(db)
    for suffix in ("svg", "png"):
        first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
        write_chart("cards", rows, first)
        write_chart("cards", rows, second)
        assert first.read_bytes() == second.read_bytes()
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")


def test_bad_names_are_refused_before_drawing(db, tmp_path):  # noqa: F811
    with pytest.raises(InvalidOptionError, match=r"\.svg or \.png"):
        write_chart("cards", card_stats(db), tmp_path / "chart.pdf")
    with pytest.raises(InvalidOptionError, match="no chart for stats nature"):
        write_chart("nature", {}, tmp_path / "chart.svg")
    assert not list(tmp_path.iterdir())


def test_without_matplotlib_the_error_names_the_extra(db, tmp_path, monkeypatch):  # noqa: F811
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ChartsUnavailableError, match=r"pip install 'cascadia\[charts\]'"):
        write_chart("seats", seat_stats(db), tmp_path / "chart.svg")


def test_stats_chart_flag_draws_one_mark_per_row_of_the_table(cli, tmp_path):
    simulated = cli("simulate", "-n", "6", "-p", "2", "--seed", "0", "--bot", "greedy,random", "--ingest")
    assert simulated[0] in (0, None)
    for name in ("seats", "bots", "cards"):
        out = tmp_path / "charts" / f"{name}.svg"
        out.parent.mkdir(exist_ok=True)
        code, stdout, err = cli("stats", name, "--json", "--chart", str(out))
        assert code in (0, None), err
        rows = [json.loads(line) for line in stdout.splitlines()]
        if name == "cards":
            rows = [r for r in rows if r["top_scorer"]["n"]]
        assert _marks(out) == [f"row-{i}" for i in range(len(rows))], name
        assert err == f"chart of stats {name}: {out} ({out.stat().st_size} bytes)\n"
    code, stdout, err = cli("stats", "scores", "--chart", str(tmp_path / "scores.png"))
    assert code in (0, None) and (tmp_path / "scores.png").read_bytes().startswith(b"\x89PNG")


def test_stats_chart_of_another_format_is_refused_first(cli, tmp_path):
    target = tmp_path / "seats.pdf"
    code, out, err = cli("stats", "seats", "--chart", str(target))
    assert (code, out) == (1, "") and err == f"error: chart {target}: give a .svg or .png file name\n"


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_stats_chart_of_no_games_is_refused_and_writes_nothing(cli, tmp_path, name):
    target = tmp_path / "charts" / f"{name}.svg"
    code, out, err = cli("stats", name, "--chart", str(target))
    assert (code, out) == (1, "")
    assert err == (
        f"error: no games match (run `cascadia ingest` first, or widen --where); {target} not written\n"
    )
    assert not target.parent.exists()
