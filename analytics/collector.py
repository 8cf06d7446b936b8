"""The garbage collector's pace while one process turns many games into analytics rows.

A study worker (:func:`~cascadia.application.study.play_shard`) and an ingest
(:class:`~cascadia.analytics.ingest.Ingest`) keep a batch of games alive until it is
written: their records and rows, many thousands of small objects. With Python's
thresholds the collector looks at new objects every 700 allocations and at the older
generations every tenth time, and each of those passes walked the whole batch again.

An ingest makes the young collections rarer (:func:`young_collections_rarer`): measured
side by side on this project's machine (2026-12-02), 2,000 stored games from 20.7-25.1
to 15.3-15.7 s of CPU, the same peak memory (a study shard: 12-13% less CPU).

A study worker goes further (:func:`collector_paused`): no collection at all while it
plays a shard, and a full one at the end. The games leave no garbage in cycles (a test
plays the bots under every card set and checks that each game and its bots are freed as
soon as the shard lets go of them, the collector off), so nothing is lost by waiting,
and the objects the shard keeps (its games' decisions) are walked once instead of again
and again. Side by side with the rarer young collections (2026-12-02): a shard 0.93 of
the CPU, 20,000 games end to end 0.90 of the wall time. That round still collected the
youngest generation every 250 games: a bot's last plan held the bot, and with it its
whole game, in a cycle, and each of those collections freed 250 games (60 MB). Since a
plan runs on a weak proxy of its bot (bots/base.py) nothing waits for the collector, and
the collector's passes cost a random game 0.02 ms instead of 0.41 (a greedy game 0.16
instead of 4.5).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_COLLECTION = 50_000
"""Allocations between two collections of the youngest generation while a batch is built
(Python's default: 700)."""


@contextmanager
def young_collections_rarer() -> Iterator[None]:
    """Collect the youngest generation every :data:`YOUNG_COLLECTION` allocations inside
    the ``with`` block, and put the collector's thresholds back after."""
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


class _Pauses:
    """The pauses open in this process. The collector is one per process, and shards may be
    played on several threads of one process (a Dask worker started with ``--nthreads``
    above 1): the first pause turns it off, the last one out turns it back on if it was
    on before the first, so overlapping pauses never leave it off for good."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.enabled_before = False

    def enter(self) -> None:
        with self.lock:
            if self.open == 0:
                self.enabled_before = gc.isenabled()
                gc.disable()
            self.open += 1

    def leave(self) -> None:
        with self.lock:
            self.open -= 1
            if self.open == 0:
                gc.collect()
                if self.enabled_before:
                    gc.enable()


_PAUSES = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection inside the ``with`` block. When the last pause of the process ends: a
    full collection, and the collector as it was before the first."""
    _PAUSES.enter()
    try:
        yield
    finally:
        _PAUSES.leave()
