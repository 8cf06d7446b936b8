"""Running another checkout's code beside this one's, for the benchmarks that measure
before and after side by side in one run (their ``--baseline DIR``).

A baseline is a checkout (say ``git worktree add --detach DIR COMMIT``) with no install
of its own: :func:`import_path` links its ``cascadia.*`` packages into a scratch folder
put first on ``PYTHONPATH``, and :class:`LineWorker` runs a benchmark's ``--serve`` mode
in a process of its own with that checkout's code, one request line in, one answer line
out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout these benchmarks belong to."""


def import_path(checkout: Path, into: Path) -> Path:
    """A folder where ``cascadia`` is ``checkout``'s code: its ``cascadia.*`` packages
    (``package-dir`` of its pyproject.toml) linked under ``into/cascadia``, to put first
    on PYTHONPATH (before the installed checkout)."""
    with open(checkout / "pyproject.toml", "rb") as file:
        packages = tomllib.load(file)["tool"]["setuptools"]["package-dir"]
    (into / "cascadia").mkdir(parents=True)
    for package, folder in packages.items():
        (into / package.replace(".", "/")).symlink_to(checkout / folder)
    return into


def checkout_environment(checkout: Path, scratch: Path) -> dict[str, str]:
    """This process's environment with ``checkout``'s code first on ``PYTHONPATH``
    (linked under ``scratch``, a folder that does not exist yet)."""
    path = import_path(checkout, scratch)
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(path), os.environ.get("PYTHONPATH")])),
    }


class LineWorker:
    """``python SCRIPT --serve ARGS...`` with ``checkout``'s code: the script first prints
    the folder of the code it imported, then answers each line it reads with one line."""

    def __init__(self, script: str, args: Sequence[str], checkout: Path, scratch: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, script, "--serve", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=checkout_environment(checkout, scratch),
        )
        assert self.process.stdout is not None
        self.runs = Path(self.process.stdout.readline().strip())
        """The checkout whose code the worker runs (``checkout``, unless imports go astray)."""

    def ask(self, request: object) -> str:
        """The worker's answer to one request line."""
        assert self.process.stdin is not None and self.process.stdout is not None
        print(request, file=self.process.stdin, flush=True)
        return self.process.stdout.readline()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()
