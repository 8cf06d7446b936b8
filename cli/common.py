"""What every command shares: the data-directory option, consoles, JSON output, and
turning this project's errors into a one-line reason and a non-zero exit code."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from typing import Annotated, Any

import typer
from cascadia.application.store import GameStore
from cascadia.cli.data_home import read_only_env, require_writable_store
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.state import GameState
from cascadia.domain.timeline import through_turn
from eventsourcing.persistence import PersistenceError
from rich.console import Console

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

HomeOption = Annotated[
    str | None,
    typer.Option(
        "--home",
        help="Data directory (default: $CASCADIA_HOME, else ./.cascadia).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def open_store(home: str | None, write: bool = False) -> GameStore:
    """The event store of the data directory. A reading command (``write=False``) creates
    nothing and opens a SQLite store read-only; a writing one first checks that it can
    write there (cli/data_home.py)."""
    if write:
        require_writable_store(home)
        return GameStore(home)
    return GameStore(home, env=read_only_env(home))


def load_game(game: str, home: str | None, turn: int | None = None) -> tuple[list[GameEvent], GameState]:
    """A stored game's events (up to the end of ``turn``) and the state they rebuild;
    ``game`` is its id or the first characters of it."""
    store = open_store(home)
    events = store.game_events(store.find_game(game))
    if turn is not None:
        events = list(through_turn(events, turn))
    return events, Game.replay(events).state


JSON_DECIMALS = 4
"""Floats in JSON output are rounded to this many decimals (rates, means, seconds)."""


def print_json(data: dict[str, Any] | list[dict[str, Any]]) -> None:
    """The one convention of every ``--json`` output (README, "The command line"): JSON
    Lines, one object per line on stdout, plain text. A command about one thing prints
    one object; a command over many things (games, logs, rows, states) prints each as
    its own line, so ``data`` given as a list prints one line per item (none for an
    empty list). Floats are rounded to :data:`JSON_DECIMALS` decimals."""
    for item in data if isinstance(data, list) else [data]:
        if not isinstance(item, dict):
            raise TypeError(f"--json prints objects, not {type(item).__name__}")
        sys.stdout.write(json.dumps(_rounded(item), default=str) + "\n")


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, JSON_DECIMALS)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(item) for item in value]
    return value


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the returned exception to exit 1."""
    err_console.print(f"error: {message}", markup=False)
    return typer.Exit(1)


def run_app(app: typer.Typer) -> int:
    """Run ``app`` and turn every expected failure into one line on stderr.

    Usage errors are reported by typer itself (exit code 2)."""
    try:
        app()
    except SystemExit as stop:
        code = stop.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except CascadiaError as error:
        err_console.print(f"error: {error}", markup=False)
        return 1
    except PersistenceError as error:
        err_console.print(f"error: event store: {error}", markup=False)
        return 1
    except sqlite3.Error as error:  # a database file that cannot be used (damaged, locked)
        err_console.print(f"error: database: {error}", markup=False)
        return 1
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        err_console.print(f"error: {error.strerror or error}{where}", markup=False)
        return 1
    except KeyboardInterrupt:
        err_console.print("error: interrupted")
        return 130
    except Exception as error:  # a bug of ours: still one line, the traceback on request
        if os.environ.get("CASCADIA_DEBUG"):
            raise
        err_console.print(
            f"error: internal error ({type(error).__name__}: {error}); "
            "run again with CASCADIA_DEBUG=1 for the traceback",
            markup=False,
        )
        return 1
    return 0
