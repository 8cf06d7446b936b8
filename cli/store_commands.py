"""``cascadia migrate``: move recorded games from one event store to another, verified."""

from __future__ import annotations

from collections import Counter
from typing import Annotated

import typer
from cascadia.application.database import store_env
from cascadia.application.migrate import migrate_games
from cascadia.application.store import GameStore
from cascadia.cli.common import HomeOption, JsonOption, console, err_console, fail, open_store, print_json
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

STORE_HELP = "sqlite:PATH (a file or a data directory), postgresql://user[:pw]@host[:port]/db, or postgres"


def migrate(
    to: Annotated[str, typer.Option("--to", help=f"Target store: {STORE_HELP} (from the environment).")],
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            help=f"Source store: {STORE_HELP}. Default: the store the other commands use (--home).",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Copy every game of one event store into another and verify it there.

    Games the target holds with the same events are skipped; a game of which
    the target has only the first events gets the rest; a game that differs in
    the target is reported as a conflict and left alone (exit code 1)."""
    target_env = store_env(to)  # a target that cannot be is refused before anything is opened
    with (
        GameStore(env=store_env(source)) if source else open_store(home) as origin,
        GameStore(env=target_env) as target,
    ):
        ids = [game_id for game_id, _ in origin.started_games()]
        counts: Counter[str] = Counter()
        written = 0
        conflicts: list[dict[str, str]] = []
        with Progress(
            TextColumn("migrating"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=json_output or not console.is_terminal,
            transient=True,
        ) as progress:
            task = progress.add_task("games", total=len(ids))
            for result in migrate_games(origin, target, ids):
                counts[result.outcome] += 1
                written += result.written
                if result.outcome == "conflict":
                    conflicts.append({"id": str(result.game_id), "detail": result.detail})
                    if not json_output:
                        err_console.print(f"conflict: game {result.game_id} {result.detail}", markup=False)
                progress.advance(task)
        summary = {
            "from": origin.location,
            "to": target.location,
            "games": len(ids),
            "copied": counts["copied"],
            "extended": counts["extended"],
            "identical": counts["identical"],
            "conflicts": conflicts,
            "events_written": written,
        }
    if json_output:
        print_json(summary)
    else:
        console.print(
            f"{len(ids)} game(s): {counts['copied']} copied, {counts['extended']} extended, "
            f"{counts['identical']} already there, {len(conflicts)} conflict(s); "
            f"{written} event(s) written and verified, {summary['from']} -> {summary['to']}",
            markup=False,
        )
    if conflicts:
        raise fail(f"{len(conflicts)} game(s) differ in the target and were not migrated")


def register(app: typer.Typer) -> None:
    app.command("migrate", short_help="Copy every game of one event store into another.")(migrate)
