"""``cascadia study``: play many bot games straight into shards and the analytics dataset.

No event store is involved (application/study.py): each shard of games is written as a
``.cascadia-shard`` file (replays/SHARD.md) and a Parquet batch. Running the same
command again resumes an interrupted study; every game ends up written exactly once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from cascadia.application.study import DEFAULT_SHARD_SIZE, ShardOutput, StudyFolder, StudySpec
from cascadia.application.study_runner import StudyReport, run_study
from cascadia.bots.registry import seat_bots
from cascadia.cli.common import JsonOption, console, err_console, print_json
from cascadia.cli.game_options import (
    BalancedBagOption,
    CardsOption,
    ElkRingsOption,
    NoMajorityOption,
    RuleOption,
    SalmonRunsOption,
    check_seed_option,
    options_from_flags,
    seed_range,
)
from cascadia.projections.describe import plural
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)


def study(
    folder: Annotated[Path, typer.Argument(help="The study folder (also a data home for stats and sql).")],
    games: Annotated[int | None, typer.Option("--games", "-n", min=1, help="How many games.")] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", callback=check_seed_option, help="Seed of the first game (default 0)."),
    ] = None,
    seeds: Annotated[
        str | None, typer.Option("--seeds", help="Seed range START:STOP instead of --seed/--games.")
    ] = None,
    players: Annotated[int, typer.Option("--players", "-p", min=1, max=4, help="Players per game.")] = 4,
    bot: Annotated[
        str, typer.Option("--bot", help="Bot for every seat, or a comma list cycled over seats.")
    ] = "random",
    cards: CardsOption = "random",
    balanced_bag: BalancedBagOption = False,
    salmon_runs: SalmonRunsOption = "strict",
    elk_rings: ElkRingsOption = "arc",
    no_majority: NoMajorityOption = False,
    rule: RuleOption = None,
    shard_size: Annotated[
        int, typer.Option("--shard-size", min=1, help="Games per shard file and Parquet batch.")
    ] = DEFAULT_SHARD_SIZE,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", help="A Dask scheduler's address (tcp://HOST:8786) to play on instead."),
    ] = None,
    add: Annotated[
        bool, typer.Option("--add", help="Add this study to a folder that holds another one.")
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Play a study: bot games written as shards and Parquet, no event store.

    Run the same command again to resume an interrupted study: the shards already
    written are skipped (it says how many), the others played. Query the results with
    `cascadia stats --home FOLDER` or `cascadia sql --home FOLDER`; check them with
    `cascadia audit FOLDER/shards`.
    """
    start, stop = seed_range(seed, games, seeds)
    options = options_from_flags(cards, balanced_bag, salmon_runs, elk_rings, no_majority, rule)
    spec = StudySpec(tuple(seat_bots(bot, players)), options, start, stop, shard_size)
    spec.check()
    started = time.perf_counter()
    with Progress(
        TextColumn("study"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
        console=err_console,
        disable=json_output or not err_console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=spec.games, rate="-")
        counted = {"games": 0}

        def on_start(report: StudyReport) -> None:
            _say_resumed(report, json_output)
            progress.update(task, completed=report.skipped_games)

        def on_shard(output: ShardOutput) -> None:
            counted["games"] += output.games
            rate = counted["games"] / max(time.perf_counter() - started, 1e-9)
            progress.update(task, advance=output.games, rate=f"{rate:,.0f}")

        report = run_study(
            StudyFolder(folder),
            spec,
            workers=workers,
            cluster=cluster,
            allow_mix=add,
            on_start=on_start,
            on_shard=on_shard,
        )
    _say_done(folder, report, time.perf_counter() - started, json_output)


def _say_resumed(report: StudyReport, json_output: bool) -> None:
    if json_output:
        return
    for index, reason in sorted(report.replayed_damaged.items()):
        err_console.print(f"shard {index} is damaged and is played again: {reason}", markup=False)
    if report.skipped_shards:
        err_console.print(
            f"resuming study {report.study}: {plural(report.skipped_shards, 'shard')} "
            f"({report.skipped_games:,} games) already written, skipped",
            markup=False,
        )


def _say_done(folder: Path, report: StudyReport, seconds: float, json_output: bool) -> None:
    rate = report.played_games / seconds if seconds > 0 else 0.0
    if json_output:
        print_json(
            {
                "study": report.study,
                "folder": str(folder),
                "games": report.games,
                "shards": report.shards,
                "played_games": report.played_games,
                "played_shards": report.played_shards,
                "skipped_games": report.skipped_games,
                "skipped_shards": report.skipped_shards,
                "damaged_shards": sorted(report.replayed_damaged),
                "seconds": round(seconds, 3),
            }
        )
        return
    console.print(
        f"study {report.study}: {report.played_games:,} games played in {seconds:.1f} s "
        f"({rate:,.0f} games/s)\n{report.skipped_games:,} skipped (already written)\n"
        f"{folder}: {plural(report.shards, 'shard')}, {report.games:,} games\n"
        f"query: cascadia stats cards --home {folder}",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.command("study", short_help="Play many bot games into shards and Parquet.")(study)
