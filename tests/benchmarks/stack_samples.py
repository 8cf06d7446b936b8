"""Where a running Python process spends its time: py-spy's stack samples of it (of the
thread holding the GIL: running Python code), summed per function and per package. For
``bench_server.py --py-spy DIR``.

py-spy is not a dependency of the project: ``pip install py-spy`` in the environment
that runs the benchmark (it reads another process's memory: root, or a ptrace scope
that allows it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

RATE = 200
"""Samples per second."""
FRAME_LINE = re.compile(r":\d+\)$")
PROJECT = frozenset({"application", "domain", "projections", "server", "bots", "replays"})
"""The project's packages (``cli`` left out: every sample of the main thread is under it)."""


def available() -> bool:
    return shutil.which("py-spy") is not None


def record(pid: int, seconds: float, output: Path) -> subprocess.Popen[bytes]:
    """Start sampling ``pid`` for ``seconds`` into ``output`` (py-spy's raw format: one
    line per distinct stack, its frames root first, then its count); wait for the
    process it returns."""
    command = [
        "py-spy",
        "record",
        "--pid",
        str(pid),
        "--rate",
        str(RATE),
        "--duration",
        str(max(1, round(seconds))),
        "--format",
        "raw",
        "--gil",
        "--output",
        str(output),
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _parse(frame: str) -> tuple[str, str]:
    """``name (dir/file.py:line)`` as ``("name (file.py)", "dir")``: the function, whatever
    line, and its package (the first part of py-spy's short path: ``server``,
    ``starlette``, ``asyncio``; a module of its own for a top-level file)."""
    name, _, where = FRAME_LINE.sub(")", frame).partition(" (")
    path = where.rstrip(")")
    return f"{name} ({Path(path).name})", path.split("/")[0]


@dataclass
class Samples:
    """Stack samples summed: in all, per function (``own``: the sample was in it;
    ``total``: it was anywhere on the stack) and per package (own)."""

    count: int = 0
    own: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    packages: Counter[str] = field(default_factory=Counter)
    package_of: dict[str, str] = field(default_factory=dict)


def read(path: Path) -> Samples:
    """The samples of py-spy's raw output ``path``."""
    samples = Samples()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [_parse(frame) for frame in stack.split(";")]
        samples.count += int(count)
        function, package = frames[-1]
        samples.own[function] += int(count)
        samples.packages[package] += int(count)
        for function, package in set(frames):
            samples.total[function] += int(count)
            samples.package_of[function] = package
    return samples


def report(path: Path, focus: frozenset[str] = PROJECT, top: int = 15, width: int = 80) -> list[str]:
    """Lines of at most ``width``: the share of the samples per package (own time), the
    ``top`` functions by own time, and the ``top`` functions of the ``focus`` packages
    by total time."""
    samples = read(path)
    if not samples.count:
        return [f"no samples in {path}"]

    def lines(title: str, counts: list[tuple[str, int]]) -> list[str]:
        shares = [f"  {100 * count / samples.count:5.1f}%  {name}"[:width] for name, count in counts]
        return [f"  {title}:", *shares]

    focused = [(f, n) for f, n in samples.total.most_common() if samples.package_of[f] in focus]
    return [
        f"{path.name}: {samples.count} samples of the GIL holder",
        *lines("own time by package", samples.packages.most_common(top)),
        *lines("own time by function", samples.own.most_common(top)),
        *lines("total time, the project's functions", focused[:top]),
    ]
