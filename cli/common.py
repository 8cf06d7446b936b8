"""What every command shares: the data-directory option, consoles, JSON output, and
turning every error into one line ``error: ...`` on stderr and a non-zero exit code
(usage errors: 2, see :mod:`cascadia.cli.usage`; everything else: 1).

The event store and the game engine are imported when a command opens a store, not when
the command line starts: ``cascadia sql`` or ``cascadia rules`` never needs them."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from cascadia.application.database import describe
from cascadia.cli import usage
from cascadia.cli.data_home import chosen_home, read_only_env, require_writable_store
from cascadia.domain.errors import CascadiaError
from eventsourcing.persistence import PersistenceError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

if TYPE_CHECKING:
    from cascadia.application.store import GameStore
    from cascadia.domain.events import GameEvent
    from cascadia.domain.state import GameState

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)
INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""

HOME_HELP = (
    "Data directory (default: $CASCADIA_HOME, else the platform's user data folder, "
    "e.g. ~/.local/share/cascadia; an existing ./.cascadia is still used, with a note). "
    "Also accepted before the command; given in both places, the one after the command wins."
)


def _home_option(ctx: typer.Context, home: str | None) -> str | None:
    """A command's ``--home``, else the one given before the command (``cascadia --home
    DIR games``, kept by the application's callback), resolved by :func:`chosen_home`."""
    return chosen_home(home if home is not None else ctx.find_root().params.get("home"))


HomeOption = Annotated[
    str | None,
    typer.Option("--home", help=HOME_HELP, callback=_home_option, show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def progress_bar(label: str, disable: bool = False) -> Progress:
    """The progress bar of a long command, on stderr: ``label`` (a template of the task's
    fields, e.g. ``ingesting {task.description}``), the bar, done/total and the time
    left; drawn only while stderr is a terminal (an interactive one: not ``TERM=dumb``)
    and not ``disable`` (``--json``), and erased when done."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=disable or not err_console.is_interactive,
        transient=True,
    )


class StoreFileError(CascadiaError):
    """A database file of the data directory that cannot be read (not a database, or damaged)."""


@contextmanager
def naming_database(location: str) -> Iterator[None]:
    """Report an SQLite file that is not a database (or is damaged) as a
    :class:`StoreFileError` naming ``location``."""
    try:
        yield
    except sqlite3.OperationalError:  # locked, missing, read-only: reported as they are
        raise
    except sqlite3.DatabaseError as error:
        raise StoreFileError(f"{location}: {error} (is it a cascadia data file?)") from None


def open_store(home: str | None, write: bool = False) -> GameStore:
    """The event store of the data directory. A reading command (``write=False``) creates
    nothing and opens a SQLite store read-only; a writing one first checks that it can
    write there (cli/data_home.py). A file that is not a database is named."""
    from cascadia.application.settings import resolve_settings
    from cascadia.application.store import GameStore

    with naming_database(describe(resolve_settings(home))):
        if write:
            require_writable_store(home)
        store = GameStore(home) if write else GameStore(home, env=read_only_env(home))
        store.recorder.max_notification_id()  # read the file now, so that a damaged one is named
        return store


def load_game(game: str, home: str | None, turn: int | None = None) -> tuple[list[GameEvent], GameState]:
    """A stored game's events (up to the end of ``turn``) and the state they rebuild;
    ``game`` is its id or the first characters of it."""
    from cascadia.domain.game import Game
    from cascadia.domain.timeline import through_turn

    store = open_store(home)
    events = store.game_events(store.find_game(game))
    if turn is not None:
        events = list(through_turn(events, turn))
    return events, Game.replay(events).state


JSON_DECIMALS = 4
"""Floats in JSON output are rounded to this many decimals (rates, means, seconds)."""


def print_json(data: dict[str, Any] | list[dict[str, Any]]) -> None:
    """The one convention of every ``--json`` output (docs/CLI.md): JSON
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
    _error(message, 1)
    return typer.Exit(1)


def run_app(app: typer.Typer, args: list[str] | None = None) -> int:
    """Run ``app`` on ``args`` (default: the command line) and turn every failure into one
    line ``error: ...`` on stderr: exit code 2 for a usage error, 1 for anything else,
    130 for an interrupt; never a traceback (unless ``CASCADIA_DEBUG`` is set)."""
    command = typer.main.get_command(app)
    usage.set_placeholders(command)
    argv = sys.argv[1:] if args is None else args
    try:
        code = command.main(args=argv, prog_name="cascadia", standalone_mode=False)
        if code == INTERRUPTED:  # typer turns Ctrl-C into this code, silently
            return _error("interrupted", INTERRUPTED)
    except SystemExit as stop:
        code = stop.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except typer.Exit as stop:
        return stop.exit_code
    except (KeyboardInterrupt, typer.Abort):
        return _error("interrupted", INTERRUPTED)
    except usage.ClickException as error:
        if usage.NoArgsIsHelpError is not None and isinstance(error, usage.NoArgsIsHelpError):
            console.print(error.ctx.get_help(), markup=False, highlight=False)  # type: ignore[attr-defined]
            return 0
        if isinstance(error, usage.UsageError):
            return _error(usage.usage_message(error, argv), 2)
        return _error(error.format_message(), getattr(error, "exit_code", 1))  # type: ignore[attr-defined]
    except CascadiaError as error:
        return _error(str(error), 1)
    except PersistenceError as error:
        return _error(f"event store: {error}", 1)
    except sqlite3.Error as error:  # a database file that cannot be used (damaged, locked)
        return _error(f"database: {error}", 1)
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return _error(f"{error.strerror or error}{where}", 1)
    except Exception as error:  # a bug of ours: still one line, the traceback on request
        if os.environ.get("CASCADIA_DEBUG"):
            raise
        return _error(
            f"internal error ({type(error).__name__}: {error}); "
            "run again with CASCADIA_DEBUG=1 for the traceback",
            1,
        )
    return code if isinstance(code, int) else 0  # an exit code (typer.Exit), or a command's None


def _error(message: str, code: int) -> int:
    """Print ``error: message`` on one line of stderr; returns ``code``."""
    err_console.print(f"error: {usage.one_line(message)}", markup=False, highlight=False)
    return code
