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
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from typing import Any
from uuid import UUID

from cascadia.bots.registry import play_game
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.domain.store import GameStore
from cascadia.domain.transcoder import MsgpackTranscoder
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import ScoreSheet
from eventsourcing.persistence import Mapper, StoredEvent

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
    """One seed's outcome: its game id and, unless it was skipped, its events in order,
    encoded as the event store writes them (``records``, by ``mapper``), and a summary."""

    seed: int
    game_id: UUID
    records: list[StoredEvent] | None
    mapper: Mapper[UUID] = field(compare=False, repr=False)
    summary: Any = None
    """What ``summarize`` made of the finished game, where it was played (``None``: skipped)."""

    @property
    def skipped(self) -> bool:
        return self.records is None

    def events(self) -> list[GameEvent]:
        """The game's domain events (decoded from the records)."""
        if self.records is None:
            raise ValueError(f"seed {self.seed} was skipped: it has no events here")
        return [self.mapper.to_domain_event(record) for record in self.records]  # type: ignore[misc]


def simulate_games(
    seeds: Iterable[int],
    names: Sequence[str],
    options: GameOptions,
    *,
    workers: int = 1,
    skip: Callable[[UUID], bool] | None = None,
    mapper: Mapper[UUID] | None = None,
    summarize: Callable[[Game], Any] | None = None,
    batch: int = 256,
) -> Iterator[SimulatedGame]:
    """Play a game per seed and yield the outcomes in the order of ``seeds``.

    ``skip(game_id)`` is asked (in this process, in order) before a seed is played; a
    skipped seed is yielded without events. Each game's events are encoded by ``mapper``
    (pass the target store's, ``store.mapper``; default: msgpack, as a store with default
    settings) where the game was played, which spares this process the work; so is
    ``summarize(finished_game)`` (a module-level function, e.g. :func:`final_scores`),
    whose result becomes the outcome's ``summary``. With ``workers > 1`` the games are
    played in that many processes, ``batch`` seeds at a time, the next batches already
    running while one is yielded; with ``workers == 1`` in this process."""
    if workers < 1:
        raise InvalidOptionError(f"need at least one worker, not {workers}")
    setup = _Setup(list(names), options, mapper or Mapper(transcoder=MsgpackTranscoder()), summarize)
    skip = skip or _never
    if workers == 1:
        for seed in seeds:
            game_id = derive_game_id(seed, setup.names, options)
            yield setup.result(seed, game_id, None if skip(game_id) else setup.play(seed))
        return
    context = multiprocessing.get_context(START_METHOD)
    with context.Pool(workers, initializer=_init_worker, initargs=(setup,)) as pool:
        running: deque[tuple[list[tuple[int, UUID, bool]], AsyncResult[list[Played]]]] = deque()
        for chunk in _batched(seeds, batch):
            running.append(_submit(pool, chunk, setup, skip, workers))
            if len(running) > AHEAD:
                yield from _collect(setup, *running.popleft())
        while running:
            yield from _collect(setup, *running.popleft())


def store_games(
    store: GameStore, results: Iterable[SimulatedGame], batch: int = 64, max_delay: float = 0.5
) -> Iterator[tuple[SimulatedGame, bool]]:
    """Store the played games of ``results`` in their order and yield each result with
    whether it was stored now (``False``: skipped, or stored by someone else meanwhile).

    Up to ``batch`` games share one transaction (fewer when ``max_delay`` seconds passed
    since the first of them arrived), which is what makes storing cheap; a result is
    yielded once its transaction is committed. Records made by another mapper than the
    store's are encoded again by the store."""
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
    played = [
        result.records if result.mapper is store.mapper else store.encode(result.events())
        for result in results
        if result.records is not None
    ]
    stored = iter(store.save_new_records(played) if played else [])
    for result in results:
        yield result, not result.skipped and next(stored)


def final_scores(game: Game) -> tuple[GameState, ScoreSheet]:
    """A ``summarize`` for :func:`simulate_games`: the finished game's state and score sheet."""
    return game.state, score_state(game.state)


Played = tuple[list[StoredEvent], Any]
"""A played game as a worker hands it back: its records and its summary."""


@dataclass(frozen=True)
class _Setup:
    """What every game of a simulation shares; handed to each worker process once."""

    names: list[str]
    options: GameOptions
    mapper: Mapper[UUID]
    summarize: Callable[[Game], Any] | None

    def play(self, seed: int) -> Played:
        game = play_game(seed, self.names, self.options)
        records = [self.mapper.to_stored_event(event) for event in game.collect_events()]
        return records, self.summarize(game) if self.summarize else None

    def result(self, seed: int, game_id: UUID, played: Played | None) -> SimulatedGame:
        if played is None:
            return SimulatedGame(seed, game_id, None, self.mapper)
        return SimulatedGame(seed, game_id, played[0], self.mapper, played[1])


def _submit(
    pool: Pool, seeds: Sequence[int], setup: _Setup, skip: Callable[[UUID], bool], workers: int
) -> tuple[list[tuple[int, UUID, bool]], AsyncResult[list[Played]]]:
    plan = []
    for seed in seeds:
        game_id = derive_game_id(seed, setup.names, setup.options)
        plan.append((seed, game_id, skip(game_id)))
    todo = [seed for seed, _, skipped in plan if not skipped]
    chunksize = max(1, len(todo) // (workers * 4))
    return plan, pool.map_async(_play_in_worker, todo, chunksize)


def _collect(
    setup: _Setup, plan: list[tuple[int, UUID, bool]], pending: AsyncResult[list[Played]]
) -> Iterator[SimulatedGame]:
    played = iter(pending.get())
    for seed, game_id, skipped in plan:
        yield setup.result(seed, game_id, None if skipped else next(played))


def _batched(items: Iterable[int], size: int) -> Iterator[list[int]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _never(_: UUID) -> bool:
    return False


_worker_setup: _Setup | None = None


def _init_worker(setup: _Setup) -> None:
    global _worker_setup
    _worker_setup = setup


def _play_in_worker(seed: int) -> Played:
    assert _worker_setup is not None, "worker not initialised"
    return _worker_setup.play(seed)
