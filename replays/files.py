"""Where logs are on disk: the file name of a game's log, and the logs a command is given.

One rule finds the logs named on a command line (``audit``, ``import``, ``ingest``): a
file is taken as given; a folder stands for every regular ``*.cascadia`` file under it,
nested folders included, in sorted path order; anything else is an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from uuid import UUID

from cascadia.replays.errors import ReplayError
from cascadia.replays.format import EXTENSION


class LogPathError(ReplayError):
    """A path given as a log that is neither a file nor a folder."""


def log_name(game_id: UUID) -> str:
    """The file name of a game's log in an export folder."""
    return f"{game_id}{EXTENSION}"


def log_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The log files named by ``paths``: each file as given, each folder replaced by the
    regular ``*.cascadia`` files found under it (recursively), sorted; in the order of
    ``paths``. Raises :class:`LogPathError` for a path that does not exist."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob(f"*{EXTENSION}") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            raise LogPathError(f"no such log file or folder: {path}")
    return files


def export_targets(game_ids: list[UUID], output: str | os.PathLike[str], folder: bool) -> list[Path]:
    """Where each game's log goes: ``output`` itself for one game written to a file,
    else ``output/<game id>.cascadia`` (the folder is created)."""
    target = Path(output)
    if not folder and len(game_ids) == 1 and not target.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        return [target]
    target.mkdir(parents=True, exist_ok=True)
    return [target / log_name(game_id) for game_id in game_ids]
