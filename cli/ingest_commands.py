"""``cascadia ingest``: finished games (logs, shards, the event store) into the analytics tables."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from cascadia.analytics.storage import ANALYTICS_DIR
from cascadia.cli.common import (
    HomeOption,
    JsonOption,
    console,
    err_console,
    open_store,
    print_json,
    progress_bar,
)
from cascadia.cli.data_home import require_writable
from cascadia.cli.log_inputs import SkippedEntries, named_logs
from rich.progress import Progress

if TYPE_CHECKING:
    from cascadia.analytics.ingest import IngestReport


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
    from cascadia.analytics.ingest import Ingest  # pyarrow's compute and the log readers: not for `sql`
    from cascadia.application.ingest import add_store

    if not paths and not from_store:
        raise typer.BadParameter("give log files or folders, or --from-store")
    skipped = SkippedEntries()
    files = named_logs(paths, "ingest", skipped) if paths else []
    folder = require_writable(home, ANALYTICS_DIR)
    with progress_bar("ingesting {task.description}", json_output) as bar, Ingest(folder) as run:
        sink = _RichProgress(bar)
        if from_store:
            add_store(run, open_store(home), sink)
        if files:
            run.add_logs(files, sink)
    _report_ingest(run.report, skipped, run.storage.root, json_output)
    if run.report.corrupt or skipped.records:
        raise typer.Exit(1)


def _report_ingest(report: IngestReport, skipped: SkippedEntries, root: Path, json_output: bool) -> None:
    """The summary on stdout (or the report as JSON, with the folder entries ``skipped``);
    one line per skipped log on stderr."""
    if json_output:
        print_json({**report.to_dict(), "skipped": skipped.records})
    for problem in report.problems:
        err_console.print(f"skipped {problem.source}: {problem.reason}", markup=False)
    if json_output:
        return
    speed = f" ({report.ingested / report.seconds:.0f} games/s)" if report.ingested and report.seconds else ""
    console.print(
        f"{report.ingested} game(s) ingested, {report.already} already ingested, "
        f"{len(report.corrupt)} corrupt, {len(report.unfinished)} unfinished, "
        f"in {report.seconds:.2f} s{speed}\nanalytics: {root}",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.command("ingest", short_help="Add finished games to the analytics tables.")(ingest)
