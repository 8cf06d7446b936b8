"""``cascadia train``: fit the card potential on the project's own games.

The games are played as studies into a folder (resumed when run again), every position
after a turn is a sample, and the coefficients are written as a Python module
(application/training.py). The same arguments give the same file, byte for byte.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from cascadia.application.training import TrainingPlan, train
from cascadia.cli.common import console, err_console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "bots" / "card_potential_coefficients.py"


def train_command(
    data: Annotated[Path, typer.Argument(help="Study folder of the training games (reused).")],
    games: Annotated[int, typer.Option("--games", "-n", min=6, help="How many training games.")] = 1600,
    first_seed: Annotated[int, typer.Option("--first-seed", min=0, help="Seed of the first game.")] = 100000,
    bot: Annotated[str, typer.Option("--bot", help="The bot of every training seat.")] = "greedy",
    out: Annotated[Path, typer.Option("--out", "-o", help="The coefficients module to write.")] = DEFAULT_OUT,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
) -> None:
    """Fit the card potential (the search bot's value of a position under any cards).

    Plays GAMES 4-player games of BOT into DATA (random cards with and without majority
    bonuses, the variant cards), replays every game, takes each position after a turn
    as a sample of the points still to come, fits the linear model by least squares
    and writes the coefficients to OUT (default: the package's own module).
    """
    plan = TrainingPlan(games, first_seed, bot)
    specs = plan.studies()
    for spec in specs:
        spec.check()
    started = time.perf_counter()
    shards = sum(spec.shard_count for spec in specs)
    err_console.print(f"training games: {plan.command()}\nplayed into {data}", markup=False)
    with Progress(
        TextColumn("positions"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("shards"),
        TimeRemainingColumn(),
        console=err_console,
        disable=not err_console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task("shards", total=shards)
        report = train(data, plan, out, workers, on_shard=lambda: progress.advance(task))
    console.print(
        f"fitted on {report.samples:,} positions in {time.perf_counter() - started:.0f} s\n"
        f"held out ({report.held_out_samples:,} positions): R^2 {report.r_squared:.3f}, "
        f"root mean squared error {report.rms_error:.2f} points\nwrote {out}",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.command("train", short_help="Fit the search bot's position value on seeded games.")(train_command)
