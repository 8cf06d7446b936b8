"""The ``cascadia`` command: a typer application whose commands live in small modules.

Each module in :data:`COMMAND_MODULES` has a ``register(app)`` function that adds its
commands; ``cascadia --help`` lists them in this order, the game commands first. Every
error ends the command with one line ``error: ...`` on stderr (exit code 1, usage
errors 2), never a traceback (:func:`cascadia.cli.common.run_app`). Help is plain text,
re-wrapped to the terminal's width.
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer
from cascadia.cli.common import console, run_app
from cascadia.domain.options import RULES_VERSION

COMMAND_MODULES = (
    "cascadia.cli.play_commands",
    "cascadia.cli.game_commands",
    "cascadia.cli.position_commands",
    "cascadia.cli.study_commands",
    "cascadia.cli.tournament_commands",
    "cascadia.cli.score_commands",
    "cascadia.cli.map_commands",
    "cascadia.cli.viewer_commands",
    "cascadia.cli.rules_commands",
    "cascadia.cli.cards_commands",
    "cascadia.cli.replay_commands",
    "cascadia.cli.analyse_commands",
    "cascadia.cli.analytics_commands",
    "cascadia.cli.store_commands",
    "cascadia.cli.serve_commands",
    "cascadia.cli.bot_commands",
)

app = typer.Typer(
    name="cascadia",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def package_version() -> str:
    """The installed version of the ``cascadia`` distribution."""
    try:
        return version("cascadia")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def _print_version(wanted: bool) -> None:
    if wanted:
        console.print(f"cascadia {package_version()} (rules {RULES_VERSION})", markup=False)
        raise typer.Exit()


@app.callback()
def main_options(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
    home: Annotated[
        str | None,
        typer.Option(
            "--home",
            help="Data directory of the command that follows, as its own --home "
            "(which wins when both are given).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Cascadia, event-sourced: play, simulate, store, replay, audit and analyse games.

    Every command has --help. The rules are docs/RULES.md (`cascadia rules --full`)."""
    # ``home`` stays in this context's params, where each command's --home reads it
    # (cascadia.cli.common.HomeOption): ``cascadia --home DIR games`` is ``cascadia games --home DIR``.


for module_name in COMMAND_MODULES:
    importlib.import_module(module_name).register(app)


def main() -> None:
    """Entry point of the ``cascadia`` console script."""
    sys.exit(run_app(app))
