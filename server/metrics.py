"""Prometheus metrics (``GET /metrics``, the text exposition format).

``cascadia_commands_total{outcome}``
    Commands posted: ``applied``, ``conflict`` (409 ``stale-version``: the client's
    version was old, or another writer stored first), ``refused`` (any other problem:
    token, turn, shape, rules) or ``error`` (a bug: 500).
``cascadia_command_seconds``
    Histogram of the time a command takes in the server (validation, store, answer).
``cascadia_open_streams``
    Event streams (games and maps) open now.
``cascadia_games_in_play``
    Server games in the store that have not ended (all processes': read from the store).
``cascadia_conflicts_total``
    Appends the store refused because another writer was first (commands, bots).

With several worker processes (``cascadia serve --workers N``) the metrics are
aggregated across the processes through prometheus-client's multiprocess mode:
``PROMETHEUS_MULTIPROC_DIR`` names a directory the workers write their values to, and
any worker's ``/metrics`` answers the sum (gauges: the sum over live processes).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

from cascadia.server.problems import Problem
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric

MULTIPROC_VAR = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
OUTCOMES = ("applied", "conflict", "refused", "error")

REGISTRY = CollectorRegistry()
"""This process's metrics (in multiprocess mode the values live in files instead)."""
COMMANDS = Counter("cascadia_commands", "Commands posted, by outcome.", ["outcome"], registry=REGISTRY)
COMMAND_SECONDS = Histogram(
    "cascadia_command_seconds",
    "Seconds a command takes in the server.",
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
OPEN_STREAMS = Gauge(
    "cascadia_open_streams", "Event streams open now.", multiprocess_mode="livesum", registry=REGISTRY
)
CONFLICTS = Counter(
    "cascadia_conflicts", "Appends refused because another writer was first.", registry=REGISTRY
)
for _outcome in OUTCOMES:
    COMMANDS.labels(_outcome)  # every outcome is exposed from the start, at 0


@contextlib.contextmanager
def command_timer() -> Iterator[None]:
    """Count and time the command run in the ``with`` block, by how it ends."""
    start = time.perf_counter()
    outcome = "error"
    try:
        yield
        outcome = "applied"
    except Problem as problem:
        outcome = "conflict" if problem.name == "stale-version" else "refused"
        raise
    finally:
        COMMAND_SECONDS.observe(time.perf_counter() - start)
        COMMANDS.labels(outcome).inc()


class _Snapshot:
    """A collector of metric families computed at scrape time."""

    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> list[Metric]:
        return self.families


def exposition(games_in_play: int) -> bytes:
    """The metrics as Prometheus reads them: this process's (or, in multiprocess mode,
    every worker's, aggregated) and ``games_in_play``, read from the store just now."""
    registry = CollectorRegistry()
    if os.environ.get(MULTIPROC_VAR):
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    in_play = GaugeMetricFamily("cascadia_games_in_play", "Server games stored that have not ended.")
    in_play.add_metric([], games_in_play)
    registry.register(_Snapshot([in_play]))
    return generate_latest(registry)


def process_exited() -> None:
    """In multiprocess mode, drop this process's live gauges (it is shutting down)."""
    if os.environ.get(MULTIPROC_VAR):
        multiprocess.mark_process_dead(os.getpid())
