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
from collections.abc import Iterable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer
from cascadia.cli.common import console, run_app
from cascadia.domain.options import RULES_VERSION

COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "cascadia.cli.play_commands": ("new", "play"),
    "cascadia.cli.game_commands": ("simulate", "games", "show"),
    "cascadia.cli.position_commands": ("position",),
    "cascadia.cli.study_commands": ("study",),
    "cascadia.cli.tournament_commands": ("tournament",),
    "cascadia.cli.train_commands": ("train",),
    "cascadia.cli.score_commands": ("score", "achievements", "final-scores"),
    "cascadia.cli.map_commands": ("map",),
    "cascadia.cli.viewer_commands": ("view", "board"),
    "cascadia.cli.rules_commands": ("rules",),
    "cascadia.cli.cards_commands": ("cards",),
    "cascadia.cli.replay_commands": (
        "export",
        "import",
        "replay",
        "audit",
        "rerun",
        "diff",
        "verify-commitment",
    ),
    "cascadia.cli.analyse_commands": ("analyse",),
    "cascadia.cli.ingest_commands": ("ingest",),
    "cascadia.cli.stats_commands": ("stats",),
    "cascadia.cli.sql_commands": ("sql",),
    "cascadia.cli.store_commands": ("migrate",),
    "cascadia.cli.serve_commands": ("serve",),
    "cascadia.cli.bot_commands": ("bot",),
}
"""Each module of commands, with the names of the commands (and groups) its
``register(app)`` adds, in the order ``cascadia --help`` lists them. A command line that
names one of them imports that module alone (:func:`modules_for`): a quick command does
not wait for the imports of every other (DuckDB, pyarrow, the server)."""


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


def build_app(modules: Iterable[str] = COMMAND_MODULES) -> typer.Typer:
    """The ``cascadia`` application with the commands of ``modules`` (all by default)."""
    built = typer.Typer(
        name="cascadia",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    built.callback()(main_options)
    for module_name in modules:
        importlib.import_module(module_name).register(built)
    return built


def modules_for(args: Sequence[str]) -> tuple[str, ...]:
    """The command modules a command line needs: the one that registers the command it
    names (after the global options), or every module when it names none that is known
    (``--help``, ``--version``, a misspelt command: the answer lists every command)."""
    words = iter(args)
    for word in words:
        if word == "--home":
            next(words, None)
        elif not word.startswith("-"):
            return tuple(module for module, names in COMMAND_MODULES.items() if word in names) or tuple(
                COMMAND_MODULES
            )
    return tuple(COMMAND_MODULES)


def __getattr__(name: str) -> typer.Typer:
    """``app``: the application with every command (built on first use, for tests and
    tools that import it)."""
    if name == "app":
        globals()["app"] = built = build_app()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``cascadia`` console script: builds the application with only
    the commands the command line needs."""
    sys.exit(run_app(build_app(modules_for(sys.argv[1:]))))
