"""Charts of the standard statistics (``cascadia stats NAME --chart OUT.svg``), drawn with
matplotlib, an optional extra (``pip install 'cascadia[charts]'``) imported here only.

Each chart draws one mark per row of its statistic (an SVG group whose id is ``row-N``,
N counting the rows drawn from 0), with the 95% Wilson interval of every rate and the
baseline a rate is judged against (1 / players):

- ``cards``: each card's top-scorer win rate, sorted, as a dot with its interval.
- ``seats``: the win rate of each turn position, per player count.
- ``bots``: each bot's win rate per player count (solo rows have none and are left out).
- ``scores``: the distribution of final totals per bot and player count, as boxes
  (quartiles, whiskers at the 10th and 90th percentiles, the mean as a dot).

Output is deterministic: the Agg-family renderers, a fixed ``svg.hashsalt`` and no date
in the metadata, so the same data gives the same bytes. The format follows the
extension: ``.svg`` or ``.png``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cascadia.domain.errors import CascadiaError, InvalidOptionError
from cascadia.replays.format import atomic_output

FORMATS = ("svg", "png")
INSTALL_HINT = "pip install 'cascadia[charts]'"
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
BASELINE = "#888888"
ROW_HEIGHT = 0.28
"""Inches per row of a chart whose rows are stacked vertically."""


class ChartsUnavailableError(CascadiaError):
    """matplotlib, the charts extra, is not installed."""


def _figure(width: float, height: float) -> Any:
    """A new figure (no pyplot: no global state); a clear error without matplotlib."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ModuleNotFoundError:
        raise ChartsUnavailableError(f"charts need matplotlib: {INSTALL_HINT}") from None
    matplotlib.rcParams["svg.hashsalt"] = "cascadia"
    matplotlib.rcParams["svg.fonttype"] = "path"
    return Figure(figsize=(width, height), layout="constrained")


def chart_format(path: str | os.PathLike[str]) -> str:
    """The format of a chart file, by its extension (an error for any other)."""
    extension = Path(path).suffix.lower().lstrip(".")
    if extension not in FORMATS:
        raise InvalidOptionError(f"chart {path}: give a .svg or .png file name")
    return extension


def save(figure: Any, path: str | os.PathLike[str]) -> int:
    """Write ``figure`` atomically in the format of ``path``'s extension; returns the size."""
    form = chart_format(path)
    metadata = {"Date": None} if form == "svg" else {"Software": None}
    buffer = io.BytesIO()
    figure.savefig(buffer, format=form, metadata=metadata, dpi=100)
    data = buffer.getvalue()
    with atomic_output(path) as out:
        out.write(data)
    return len(data)


def _interval(rate: dict[str, Any]) -> tuple[float, float]:
    """The distances from a rate down and up to its interval's ends (never negative: at
    0% or 100% the interval's end and the rate may differ by a rounding error)."""
    return max(0.0, rate["rate"] - rate["low"]), max(0.0, rate["high"] - rate["rate"])


def _rate_dots(
    title: str, xlabel: str, labels: list[str], rates: list[dict[str, Any]], baselines: list[float]
) -> Any:
    """Horizontal dots with intervals, one row each from the top, and each row's baseline."""
    figure = _figure(7.5, 1.4 + ROW_HEIGHT * len(labels))
    axes = figure.add_subplot()
    for index, (rate, baseline) in enumerate(zip(rates, baselines, strict=True)):
        y = len(labels) - 1 - index
        low, high = _interval(rate)
        mark = axes.errorbar(
            [rate["rate"]], [y], xerr=[[low], [high]], fmt="o", color=COLOURS[0], capsize=3, markersize=5
        )
        mark.lines[0].set_gid(f"row-{index}")
        axes.plot([baseline], [y], marker="|", color=BASELINE, markersize=12, linestyle="none")
    axes.set_yticks(range(len(labels)), list(reversed(labels)))
    axes.set_ylim(-0.7, len(labels) - 0.3)
    axes.set_xlim(-0.02, 1.02)
    axes.set_xlabel(f"{xlabel} (grey tick: the baseline, 1 / players)")
    axes.set_title(title)
    axes.grid(axis="x", alpha=0.3)
    return figure


def cards_chart(rows: list[dict[str, Any]]) -> Any:
    """Each card's top-scorer win rate against the baseline, best first."""
    decided = [r for r in rows if r["top_scorer"]["n"]]
    drawn = sorted(decided, key=lambda r: (-r["top_scorer"]["rate"], r["card"]))
    return _rate_dots(
        "Win rate of the top scorer of each card (95% intervals)",
        "win rate of the player who scored most with the card",
        [r["card"] for r in drawn],
        [r["top_scorer"] for r in drawn],
        [r["top_scorer"]["baseline"] for r in drawn],
    )


def seats_chart(rows: list[dict[str, Any]]) -> Any:
    """The win rate of each turn position, per player count."""
    return _rate_dots(
        "Win rate by turn position (95% intervals)",
        "win rate",
        [f"{r['players']} players, position {r['turn_position']}" for r in rows],
        [r["win"] for r in rows],
        [r["baseline"] for r in rows],
    )


def bots_chart(rows: list[dict[str, Any]]) -> Any:
    """Each bot's win rate per player count (games of two or more)."""
    drawn = [r for r in rows if r["win"] is not None and r["win"]["n"]]
    return _rate_dots(
        "Win rate by bot and player count (95% intervals)",
        "win rate",
        [f"{r['bot']}, {r['players']} players" for r in drawn],
        [r["win"] for r in drawn],
        [r["baseline"] for r in drawn],
    )


def scores_chart(scores: dict[str, Any]) -> Any:
    """Boxes of the final totals per bot and player count (``scores["by_bot"]``)."""
    groups = scores["by_bot"]
    figure = _figure(7.5, 1.4 + 0.45 * len(groups))
    axes = figure.add_subplot()
    counts = sorted({g["players"] for g in groups})
    for index, group in enumerate(groups):
        y = len(groups) - 1 - index
        colour = COLOURS[counts.index(group["players"]) % len(COLOURS)]
        stats = {
            "med": group["median"],
            "q1": group["q1"],
            "q3": group["q3"],
            "whislo": group["p10"],
            "whishi": group["p90"],
            "mean": group["mean"],
            "fliers": [],
        }
        boxes = axes.bxp(
            [stats],
            positions=[y],
            orientation="horizontal",
            widths=0.6,
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": colour, "alpha": 0.35},
            meanprops={"marker": "o", "markerfacecolor": colour, "markeredgecolor": colour},
            medianprops={"color": colour},
        )
        for kind, artists in boxes.items():
            for number, artist in enumerate(artists):
                artist.set_gid(f"row-{index}" if kind == "boxes" else f"row-{index}-{kind}-{number}")
    labels = [f"{g['bot']}, {g['players']}p (n={g['n']})" for g in reversed(groups)]
    axes.set_yticks(range(len(groups)), labels)
    axes.set_ylim(-0.7, len(groups) - 0.3)
    axes.set_xlabel("final total (box: quartiles; whiskers: 10th-90th percentile; dot: mean)")
    axes.set_title("Final totals by bot and player count")
    axes.grid(axis="x", alpha=0.3)
    return figure


CHARTS: dict[str, Callable[[Any], Any]] = {
    "cards": cards_chart,
    "seats": seats_chart,
    "bots": bots_chart,
    "scores": scores_chart,
}
"""The chart of each statistic that has one, from that statistic's data (as
:data:`cascadia.analytics.stats.STATS` gives it)."""


def write_chart(name: str, data: Any, path: str | os.PathLike[str]) -> int:
    """Draw the chart of statistic ``name`` from its data and write it; returns the size."""
    chart_format(path)
    if name not in CHARTS:
        raise InvalidOptionError(f"no chart for stats {name}; charts: {', '.join(CHARTS)}")
    return save(CHARTS[name](data), path)
