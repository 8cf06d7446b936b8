"""Where logs are on disk: the file name of a game's log, and the logs a command is given.

One rule finds the logs named on a command line (``audit``, ``import``, ``ingest``): a
path that is not a folder is taken as given (opening it refuses anything but a regular
file in one line, :func:`~cascadia.replays.format.open_regular`); a folder stands for
every regular ``*.cascadia`` file under it, nested folders included, in sorted path
order. An entry of a folder that is named like a log but is not a regular file or a
folder (a FIFO, a device) is skipped, never opened, and reported to ``on_skip``; a
path that does not exist is an error.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from uuid import UUID

from cascadia.replays.errors import ReplayError
from cascadia.replays.format import EXTENSION, file_kind, make_parent_folders
from cascadia.replays.shard import SHARD_EXTENSION, split_game_ref

SkipReport = Callable[[Path, str], None]
"""Called with each entry of a folder that is not read, and why."""


class LogPathError(ReplayError):
    """A path given as a log that does not exist."""


class ExportTargetError(ReplayError):
    """An output path that cannot hold the logs asked for (several games, one file)."""


def log_name(game_id: UUID) -> str:
    """The file name of a game's log in an export folder."""
    return f"{game_id}{EXTENSION}"


def log_files(
    paths: Iterable[str | os.PathLike[str]], on_skip: SkipReport | None = None, shards: bool = False
) -> list[Path]:
    """The log files named by ``paths``: each non-folder as given, each folder replaced by
    the regular ``*.cascadia`` files found under it (recursively), sorted; in the order of
    ``paths``. With ``shards``, folders give their ``*.cascadia-shard`` files too, and a
    game of a shard may be named ``SHARD#ID``. Raises :class:`LogPathError` for a path
    that does not exist."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(_logs_under(path, on_skip, EXTENSION))
            if shards:
                files.extend(_logs_under(path, on_skip, SHARD_EXTENSION))
        elif os.path.lexists(path) or (shards and _names_shard_game(path)):
            files.append(path)
        else:
            raise LogPathError(f"no such log file or folder: {path}")
    return files


def _names_shard_game(path: Path) -> bool:
    reference = split_game_ref(path)
    return reference is not None and os.path.lexists(reference[0])


def _logs_under(folder: Path, on_skip: SkipReport | None, extension: str) -> list[Path]:
    with os.scandir(folder):  # an unreadable folder is an error, not an empty one
        pass
    files = []
    for entry in sorted(folder.rglob(f"*{extension}")):
        try:
            mode = entry.stat().st_mode
        except OSError as error:
            reason = error.strerror or str(error)
        else:
            if stat.S_ISREG(mode):
                files.append(entry)
                continue
            if stat.S_ISDIR(mode):
                continue  # a folder named like a log: searched like any other
            reason = f"{file_kind(mode)}, not a log file"
        if on_skip is not None:
            on_skip(entry, reason)
    return files


def export_targets(game_ids: list[UUID], output: str | os.PathLike[str], folder: bool) -> list[Path]:
    """Where each game's log goes: ``output`` itself for one game written to a file,
    else ``output/<game id>.cascadia`` (the folder and its parents are created, as for
    every output: :func:`~cascadia.replays.format.make_parent_folders`). Several games
    (or ``folder``) go to a folder: an ``output`` that is a file, or is named like a log
    file and does not exist, is refused (:class:`ExportTargetError`)."""
    target = Path(output)
    if not folder and len(game_ids) == 1 and not target.is_dir():
        return [target]
    if os.path.lexists(target) and not target.is_dir():
        raise ExportTargetError(f"{target} is a file: several games are exported to a folder")
    if not target.exists() and target.suffix == EXTENSION:
        raise ExportTargetError(
            f"{target} is named like a log file, but several games are exported to a folder; "
            "give a folder (e.g. -o logs)"
        )
    make_parent_folders(target / "x")
    return [target / log_name(game_id) for game_id in game_ids]
