"""The ``cascadia`` command: a typer application whose commands live in small modules.

Each module in :data:`COMMAND_MODULES` has a ``register(app)`` function that adds its
commands. Errors of this project (:class:`~cascadia.domain.errors.CascadiaError`) end
the command with a one-line reason on stderr and exit code 1, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import typer
from cascadia.cli.common import run_app

COMMAND_MODULES = (
    "cascadia.cli.game_commands",
    "cascadia.cli.rules_commands",
    "cascadia.cli.score_commands",
    "cascadia.cli.replay_commands",
    "cascadia.cli.analytics_commands",
    "cascadia.cli.store_commands",
    "cascadia.cli.viewer_commands",
    "cascadia.cli.play_commands",
    "cascadia.cli.map_commands",
    "cascadia.cli.serve_commands",
)

app = typer.Typer(
    name="cascadia",
    help="Cascadia, event-sourced: simulate, store, replay, audit and analyse games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module_name in COMMAND_MODULES:
    importlib.import_module(module_name).register(app)


def main() -> None:
    """Entry point of the ``cascadia`` console script."""
    sys.exit(run_app(app))
