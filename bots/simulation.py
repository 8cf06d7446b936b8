"""Many bot games at once: seed ranges, shards and worker processes.

A simulation is a range of seeds, each played by the same seats with the same options
(:func:`~cascadia.bots.registry.play_game`). The games are independent, so they run in
worker processes (a ``multiprocessing`` pool, ``spawn`` start method) and come back
**in seed order**: the caller stores them exactly as a single process would, so the
events stored for a seed never depend on the number of workers.

Sharding splits a seed range over machines: **seed ``s`` belongs to shard ``s mod n``**
(``--shard i/n``), so shard ``i`` of ``n`` runs ``i, i+n, i+2n ...`` within the range. The
shards of one range are disjoint and together cover it exactly, whatever the range's
start; each can run anywhere (its own event store or log folder) and the pieces are
combined later (``cascadia ingest``, ``cascadia migrate``). A game's id is derived from
its seed, seats and options, so the same game has the same id in every shard's output.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from uuid import UUID

from cascadia.bots.registry import play_game
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import derive_game_id
from cascadia.domain.options import GameOptions
from cascadia.domain.store import GameStore

AHEAD = 2
"""Batches queued for the workers beyond the one being handed out, so they never wait for us."""
START_METHOD = "spawn"
"""Fresh interpreters for workers: safe with the parent's open database connections and threads."""


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count``: the seeds ``s`` with ``s % count == index``."""

    index: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1 or not 0 <= self.index < self.count:
            raise InvalidOptionError(f"shard {self.index}/{self.count}: need 0 <= i < n")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"i/n"``, e.g. ``"0/4"`` (the first of four shards)."""
        index, slash, count = text.strip().partition("/")
        if not slash or not index.strip().isdigit() or not count.strip().isdigit():
            raise InvalidOptionError(f"shard {text!r}: expected i/n, e.g. 0/4")
        return cls(int(index), int(count))

    def seeds(self, start: int, stop: int) -> range:
        """The seeds of ``start <= s < stop`` in this shard, ascending."""
        first = start + (self.index - start) % self.count
        return range(first, max(first, stop), self.count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_seed_range(text: str) -> tuple[int, int]:
    """``"A:B"`` -> ``(A, B)``: the seeds ``A <= s < B``, like a Python slice."""
    start, colon, stop = text.strip().partition(":")
    if not colon or not start.strip().isdigit() or not stop.strip().isdigit():
        raise InvalidOptionError(f"seed range {text!r}: expected START:STOP, e.g. 0:1000000")
    first, end = int(start), int(stop)
    if end <= first:
        raise InvalidOptionError(f"seed range {text!r} is empty: STOP must be greater than START")
    return first, end


@dataclass(frozen=True)
class SimulatedGame:
    """One seed's outcome: its game id and, unless it was skipped, its events in order."""

    seed: int
    game_id: UUID
    events: list[GameEvent] | None

    @property
    def skipped(self) -> bool:
        return self.events is None


def simulate_games(
    seeds: Iterable[int],
    names: Sequence[str],
    options: GameOptions,
    *,
    workers: int = 1,
    skip: Callable[[UUID], bool] | None = None,
    batch: int = 256,
) -> Iterator[SimulatedGame]:
    """Play a game per seed and yield the outcomes in the order of ``seeds``.

    ``skip(game_id)`` is asked (in this process, in order) before a seed is played; a
    skipped seed is yielded without events. With ``workers > 1`` the games are played
    in that many processes, ``batch`` seeds at a time, the next batches already running
    while one is yielded; with ``workers == 1`` in this process."""
    if workers < 1:
        raise InvalidOptionError(f"need at least one worker, not {workers}")
    names = list(names)
    skip = skip or _never
    if workers == 1:
        for seed in seeds:
            game_id = derive_game_id(seed, names, options)
            yield SimulatedGame(seed, game_id, None if skip(game_id) else _play(seed, names, options))
        return
    context = multiprocessing.get_context(START_METHOD)
    with context.Pool(workers, initializer=_init_worker, initargs=(names, options)) as pool:
        running: deque[tuple[list[tuple[int, UUID, bool]], AsyncResult[list[list[GameEvent]]]]] = deque()
        for chunk in _batched(seeds, batch):
            running.append(_submit(pool, chunk, names, options, skip, workers))
            if len(running) > AHEAD:
                yield from _collect(*running.popleft())
        while running:
            yield from _collect(*running.popleft())


def store_games(
    store: GameStore, results: Iterable[SimulatedGame], batch: int = 64, max_delay: float = 0.5
) -> Iterator[tuple[SimulatedGame, bool]]:
    """Store the played games of ``results`` in their order and yield each result with
    whether it was stored now (``False``: skipped, or stored by someone else meanwhile).

    Up to ``batch`` games share one transaction (fewer when ``max_delay`` seconds passed
    since the first of them arrived), which is what makes storing cheap; a result is
    yielded once its transaction is committed."""
    waiting: list[SimulatedGame] = []
    played = 0
    since = 0.0
    for result in results:
        if not waiting:
            since = time.monotonic()
        waiting.append(result)
        played += not result.skipped
        if played >= batch or time.monotonic() - since >= max_delay:
            yield from _commit(store, waiting)
            waiting, played = [], 0
    yield from _commit(store, waiting)


def _commit(store: GameStore, results: list[SimulatedGame]) -> Iterator[tuple[SimulatedGame, bool]]:
    played = [r.events for r in results if r.events is not None]
    stored = iter(store.save_new_games(played) if played else [])
    for result in results:
        yield result, result.events is not None and next(stored)


def _submit(
    pool: Pool,
    seeds: Sequence[int],
    names: list[str],
    options: GameOptions,
    skip: Callable[[UUID], bool],
    workers: int,
) -> tuple[list[tuple[int, UUID, bool]], AsyncResult[list[list[GameEvent]]]]:
    plan = []
    for seed in seeds:
        game_id = derive_game_id(seed, names, options)
        plan.append((seed, game_id, skip(game_id)))
    todo = [seed for seed, _, skipped in plan if not skipped]
    chunksize = max(1, len(todo) // (workers * 4))
    return plan, pool.map_async(_play_in_worker, todo, chunksize)


def _collect(
    plan: list[tuple[int, UUID, bool]], pending: AsyncResult[list[list[GameEvent]]]
) -> Iterator[SimulatedGame]:
    played = iter(pending.get())
    for seed, game_id, skipped in plan:
        yield SimulatedGame(seed, game_id, None if skipped else next(played))


def _batched(items: Iterable[int], size: int) -> Iterator[list[int]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _never(_: UUID) -> bool:
    return False


def _play(seed: int, names: Sequence[str], options: GameOptions) -> list[GameEvent]:
    return play_game(seed, names, options).collect_events()


_worker_setup: tuple[list[str], GameOptions] | None = None


def _init_worker(names: list[str], options: GameOptions) -> None:
    global _worker_setup
    _worker_setup = (names, options)


def _play_in_worker(seed: int) -> list[GameEvent]:
    assert _worker_setup is not None, "worker not initialised"
    return _play(seed, *_worker_setup)
