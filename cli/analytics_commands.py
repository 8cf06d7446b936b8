"""``cascadia ingest``, ``cascadia stats ...`` and ``cascadia sql``: the analytics commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from cascadia.analytics.ingest import Ingest, IngestReport
from cascadia.analytics.query import AnalyticsDB
from cascadia.analytics.stats import (
    DEFAULT_BIN,
    SMALL_SAMPLE,
    bot_stats,
    card_stats,
    nature_stats,
    overpopulation_stats,
    score_stats,
    seat_stats,
)
from cascadia.analytics.storage import ANALYTICS_DIR
from cascadia.application.ingest import add_store
from cascadia.cli.common import HomeOption, JsonOption, console, err_console, open_store, print_json
from cascadia.cli.data_home import require_data, require_writable
from cascadia.cli.replay_commands import say_skipped
from cascadia.replays.files import log_files
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

WhereOption = Annotated[
    str | None,
    typer.Option("--where", help='SQL condition on the games table, e.g. "players = 4".', show_default=False),
]
HISTOGRAM_WIDTH = 50


class _RichProgress:
    """An ingest progress sink drawing a rich progress bar."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: Any = None

    def start(self, total: int | None, description: str) -> None:
        self.task = self.progress.add_task(description, total=total)

    def advance(self, steps: int = 1) -> None:
        if self.task is not None:
            self.progress.advance(self.task, steps)


def _progress_bar(disable: bool) -> Progress:
    return Progress(
        TextColumn("ingesting {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=disable,
        transient=True,
    )


def ingest(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Log files, or folders searched for *.cascadia logs.", show_default=False),
    ] = None,
    from_store: Annotated[
        bool,
        typer.Option("--from-store", help="Ingest the games that ended in the event store since last time."),
    ] = False,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Add finished games to the analytics tables (games already ingested are skipped).

    A log that cannot be read is reported and skipped; the exit code is then 1."""
    if not paths and not from_store:
        raise typer.BadParameter("give log files or folders, or --from-store")
    files = log_files(paths or [], on_skip=say_skipped)
    folder = require_writable(home, ANALYTICS_DIR)
    with _progress_bar(json_output) as bar, Ingest(folder) as run:
        sink = _RichProgress(bar)
        if from_store:
            add_store(run, open_store(home), sink)
        if files:
            run.add_logs(files, sink)
    _report_ingest(run.report, run.storage.root, json_output)
    if run.report.corrupt:
        raise typer.Exit(1)


def _report_ingest(report: IngestReport, root: Path, json_output: bool) -> None:
    """The summary on stdout (or the report as JSON); one line per skipped log on stderr."""
    if json_output:
        print_json(report.to_dict())
    for problem in report.problems:
        err_console.print(f"skipped {problem.source}: {problem.reason}", markup=False)
    if json_output:
        return
    speed = f" ({report.ingested / report.seconds:.0f} games/s)" if report.ingested and report.seconds else ""
    console.print(
        f"{report.ingested} game(s) ingested, {report.already} already ingested, "
        f"{len(report.corrupt)} corrupt, {len(report.unfinished)} unfinished, "
        f"in {report.seconds:.2f} s{speed} -> {root}",
        markup=False,
    )


# -- formatting ---------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _rate(entry: dict[str, Any] | None) -> str:
    """``25.0% [19.3-31.7] n=184`` with ``*`` for a small sample."""
    if not entry or not entry["n"]:
        return "-"
    flag = " *" if entry["small"] else ""
    return f"{_pct(entry['rate'])} [{entry['low'] * 100:.1f}-{entry['high'] * 100:.1f}] n={entry['n']}{flag}"


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _footnote() -> None:
    console.print(
        f"rates: proportion [95% Wilson interval] n=sample size; * n < {SMALL_SAMPLE}", markup=False
    )


def _show(data: Any, json_output: bool, render: Callable[[Any], None], empty: bool | None = None) -> None:
    """Print ``data`` as JSON, or ``render`` it (unless it is ``empty``, default: falsy)."""
    if json_output:
        print_json(data)
    elif not data if empty is None else empty:
        console.print("no games match (run `cascadia ingest` first, or widen --where)", markup=False)
    else:
        render(data)


def _open(home: str | None) -> AnalyticsDB:
    return AnalyticsDB(require_data(home))


# -- stats ----------------------------------------------------------------------------------

stats_app = typer.Typer(
    help="Standard statistics over the ingested games (rates with 95% Wilson intervals).",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@stats_app.command("cards")
def stats_cards(where: WhereOption = None, json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Per scoring card: points scored with it, share of the winner's score, win rates."""
    with _open(home) as db:
        data = card_stats(db, where)

    def render(rows: list[dict[str, Any]]) -> None:
        table = Table(
            "card",
            "games",
            "mean pts",
            "sd",
            "winner share",
            "top scorer wins",
            "ties excl.",
            "baseline",
            title="Scoring cards",
        )
        for row in rows:
            top = row["top_scorer"]
            table.add_row(
                row["card"],
                str(row["games"]),
                _num(row["mean"]),
                _num(row["sd"]),
                _pct(row["winner_share"]),
                _rate(top),
                str(top["ties_excluded"]),
                _pct(top["baseline"]),
            )
        console.print(table)
        bots = Table(
            "card", "bot", "win rate when in play", "baseline", title="Win rate by bot, card in play"
        )
        for row in rows:
            for entry in row["by_bot"]:
                bots.add_row(row["card"], entry["bot"], _rate(entry), _pct(entry["baseline"]))
        console.print(bots)
        console.print(
            "top scorer wins: how often the player who scored most with the card won "
            "(games where several tied for most are excluded); see analytics/STATS.md",
            markup=False,
        )
        _footnote()

    _show(data, json_output, render)


@stats_app.command("seats")
def stats_seats(where: WhereOption = None, json_output: JsonOption = False, home: HomeOption = None) -> None:
    """First-player and seat advantage: by turn position (0 = first player)."""
    with _open(home) as db:
        data = seat_stats(db, where)

    def render(rows: list[dict[str, Any]]) -> None:
        table = Table(
            "players",
            "position",
            "win rate",
            "baseline",
            "mean",
            "sd",
            "vs mean",
            "mean rank",
            title="Turn position (0 = first player)",
        )
        for row in rows:
            table.add_row(
                str(row["players"]),
                str(row["turn_position"]),
                _rate(row["win"]),
                _pct(row["baseline"]),
                _num(row["mean"]),
                _num(row["sd"]),
                f"{row['score_difference']:+.2f}",
                _num(row["mean_rank"], 2),
            )
        console.print(table)
        _footnote()

    _show(data, json_output, render)


@stats_app.command("bots")
def stats_bots(where: WhereOption = None, json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Each bot's win rate and score by player count."""
    with _open(home) as db:
        data = bot_stats(db, where)

    def render(rows: list[dict[str, Any]]) -> None:
        table = Table(
            "bot", "players", "seats", "win rate", "baseline", "mean", "sd", "mean rank", title="Bots"
        )
        for row in rows:
            table.add_row(
                row["bot"],
                str(row["players"]),
                str(row["seats"]),
                _rate(row["win"]),
                _pct(row["baseline"]),
                _num(row["mean"]),
                _num(row["sd"]),
                _num(row["mean_rank"], 2),
            )
        console.print(table)
        _footnote()

    _show(data, json_output, render)


@stats_app.command("nature")
def stats_nature(where: WhereOption = None, json_output: JsonOption = False, home: HomeOption = None) -> None:
    """Nature tokens: earned, spent, left, and what they were spent on."""
    with _open(home) as db:
        data = nature_stats(db, where)

    def render(result: dict[str, Any]) -> None:
        table = Table(
            "players",
            "seats",
            "earned",
            "sd",
            "spent",
            "left",
            "left (winners)",
            "spent any",
            title="Nature tokens per player",
        )
        for row in result["players"]:
            table.add_row(
                str(row["players"]),
                str(row["seats"]),
                _num(row["earned"], 2),
                _num(row["earned_sd"], 2),
                _num(row["spent"], 2),
                _num(row["left"], 2),
                _num(row["left_winners"], 2),
                _rate(row["spent_any"]),
            )
        console.print(table)
        actions = Table("action", "times", "tokens", "per game", "share of spends", title="Spent on")
        for row in result["actions"]:
            actions.add_row(
                row["action"],
                str(row["times"]),
                str(row["tokens"]),
                _num(row["per_game"], 2),
                _rate(row["share"]),
            )
        console.print(actions)
        _footnote()

    _show(data, json_output, render, empty=not data["players"])


@stats_app.command("overpopulation")
def stats_overpopulation(
    where: WhereOption = None, json_output: JsonOption = False, home: HomeOption = None
) -> None:
    """Overpopulation wipes per game: mandatory (four of a kind) and chosen (three)."""
    with _open(home) as db:
        data = overpopulation_stats(db, where)

    def render(rows: list[dict[str, Any]]) -> None:
        table = Table(
            "players",
            "games",
            "mandatory/game",
            "games with mandatory",
            "chosen/game",
            "chosen per turn",
            "nature wipes/game",
            "unbreakable",
            title="Overpopulation",
        )
        for row in rows:
            table.add_row(
                str(row["players"]),
                str(row["games"]),
                _num(row["mandatory_per_game"], 2),
                _rate(row["games_with_mandatory"]),
                _num(row["chosen_per_game"], 2),
                _rate(row["chosen_per_turn"]),
                _num(row["nature_wipes_per_game"], 2),
                str(row["unbreakable"]),
            )
        console.print(table)
        _footnote()

    _show(data, json_output, render)


@stats_app.command("scores")
def stats_scores(
    where: WhereOption = None,
    bin_width: Annotated[
        int, typer.Option("--bin", min=1, help="Histogram bin width in points.")
    ] = DEFAULT_BIN,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """The distribution of final scores, with a histogram."""
    with _open(home) as db:
        data = score_stats(db, where, bin_width)

    def render(result: dict[str, Any]) -> None:
        columns = ["n", "mean", "sd", "min", "p10", "q1", "median", "q3", "p90", "max"]
        table = Table("", *columns, title="Final scores")
        for row in result["summary"]:
            table.add_row(row["group"], *(_num(row[c]) if c != "n" else str(row[c]) for c in columns))
        console.print(table)
        histogram = result["histogram"]
        top = max(row["n"] for row in histogram)
        chart = Table("points", "players", "", "winners", title="Histogram", box=None)
        for row in histogram:
            width = round(row["n"] / top * HISTOGRAM_WIDTH)
            chart.add_row(
                f"{row['low']}-{row['high']}",
                str(row["n"]),
                "[cyan]" + "█" * width + "[/]",
                str(row["winners"]),
            )
        console.print(chart)
        parts = ", ".join(f"{key} {value:.1f}" for key, value in result["parts"].items() if value is not None)
        console.print(f"mean parts: {parts}", markup=False)
        console.print(f"games with a shared win: {_rate(result['shared_win'])}", markup=False)

    _show(data, json_output, render, empty=not data["histogram"])


# -- sql ------------------------------------------------------------------------------------


def sql(
    query: Annotated[str, typer.Argument(help="One SELECT statement (tables in analytics/SCHEMA.md).")],
    max_rows: Annotated[int, typer.Option("--max-rows", min=1, help="Rows shown in the table.")] = 200,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Run one read-only SELECT over the analytics tables."""
    with _open(home) as db:
        result = db.user_query(query)
    if json_output:
        print_json(result.records())
        return
    table = Table(*result.columns)
    for row in result.rows[:max_rows]:
        table.add_row(*(Text("NULL" if value is None else str(value)) for value in row))
    console.print(table)
    hidden = len(result.rows) - max_rows
    more = f" ({hidden} not shown: use --max-rows, LIMIT or --json)" if hidden > 0 else ""
    console.print(f"{len(result.rows)} row(s){more}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.add_typer(stats_app, name="stats")
    app.command("sql")(sql)
