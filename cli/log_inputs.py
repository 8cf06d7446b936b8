"""The logs named on the command line of ``audit``, ``import`` and ``ingest``, one rule
for the three (replays/files.py finds them):

- an entry of a folder that is named like a log but is not read (a FIFO, a device, an
  entry that cannot be examined) is a failure of the command: exit 1 once it is done,
  a line ``skipped PATH: why`` on stderr and, under ``--json``, a record
  ``{"file", "skipped": true, "error"}`` (a JSON line of ``audit`` and ``import``; the
  ``skipped`` list of ``ingest``'s report);
- no log at all (an empty folder) is an error: exit 1 at once.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cascadia.cli.common import err_console, print_json
from cascadia.domain.errors import InvalidOptionError
from cascadia.replays.files import log_files


@dataclass
class SkippedEntries:
    """The entries of folders that were not read; ``json_lines``: each is also printed as a
    JSON record at once."""

    json_lines: bool = False
    records: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, path: Path, reason: str) -> None:
        record = {"file": str(path), "skipped": True, "error": reason}
        self.records.append(record)
        err_console.print(f"skipped {path}: {reason}", markup=False)
        if self.json_lines:
            print_json(record)


def named_logs(
    paths: Iterable[str | os.PathLike[str]], verb: str, skipped: SkippedEntries, shards: bool = False
) -> list[Path]:
    """The log files named by ``paths`` (:func:`~cascadia.replays.files.log_files`), the
    entries not read reported to ``skipped``; :class:`InvalidOptionError` ("no log files to
    ``verb``") when there are none."""
    files = log_files(paths, on_skip=skipped, shards=shards)
    if not files:
        raise InvalidOptionError(f"no log files to {verb}")
    return files
