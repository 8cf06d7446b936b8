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
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from typing import Any, Protocol
from uuid import UUID

from cascadia.bots.registry import bot_game_id, check_bot_names, play_game
from cascadia.bots.worker_processes import START_METHOD, serve_parent
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game, check_setup
from cascadia.domain.options import GameOptions
from cascadia.domain.rng import check_seed
from cascadia.domain.state import GameState
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import ScoreSheet

AHEAD = 2
"""Batches queued for the workers beyond the one being handed out, so they never wait for us."""


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


class EventCodec(Protocol):
    """How the target store encodes one event and decodes it again (an ``eventsourcing``
    ``Mapper``, e.g. ``store.mapper``); records are whatever the store writes."""

    def to_stored_event(self, domain_event: Any) -> Any: ...

    def to_domain_event(self, stored_event: Any) -> Any: ...


@dataclass(frozen=True)
class SimulatedGame:
    """One seed's outcome: its game id and, unless it was skipped, its events in order,
    encoded as the event store writes them (``records``, by ``mapper``), and a summary."""

    seed: int
    game_id: UUID
    records: list[Any] | None
    mapper: EventCodec = field(compare=False, repr=False)
    summary: Any = None
    """What ``summarize`` made of the finished game, where it was played (``None``: skipped)."""

    @property
    def skipped(self) -> bool:
        return self.records is None

    def events(self) -> list[GameEvent]:
        """The game's domain events (decoded from the records)."""
        if self.records is None:
            raise ValueError(f"seed {self.seed} was skipped: it has no events here")
        return [self.mapper.to_domain_event(record) for record in self.records]


def simulate_games(
    seeds: Iterable[int],
    names: Sequence[str],
    options: GameOptions,
    *,
    mapper: EventCodec,
    workers: int = 1,
    skip: Callable[[UUID], bool] | None = None,
    summarize: Callable[[Game], Any] | None = None,
    batch: int = 256,
) -> Iterator[SimulatedGame]:
    """Play a game per seed and yield the outcomes in the order of ``seeds``.

    The seats and options are checked once, before any game is played
    (:class:`~cascadia.domain.errors.InvalidOptionError`), and each seed's game id is
    derived once, here. ``skip(game_id)`` is asked (in this process, in order) before a
    seed is played; a skipped seed is yielded without events. Each game's events are
    encoded by ``mapper`` (the target store's) where the game was played, which spares
    this process the work; so is ``summarize(finished_game)`` (a module-level function,
    e.g. :func:`final_state_and_sheet`), whose result becomes the outcome's ``summary``.
    With ``workers > 1`` the games are played in that many processes, ``batch`` seeds at
    a time, the next batches already running while one is yielded; with ``workers ==
    1`` in this process."""
    if workers < 1:
        raise InvalidOptionError(f"need at least one worker, not {workers}")
    check_bot_names(names)
    check_setup(names, options)
    return _simulate(seeds, _Setup(list(names), options, mapper, summarize), workers, skip or _never, batch)


def _simulate(
    seeds: Iterable[int], setup: _Setup, workers: int, skip: Callable[[UUID], bool], batch: int
) -> Iterator[SimulatedGame]:
    if workers == 1:
        for seed, game_id, skipped in setup.plan(seeds, skip):
            yield setup.result(seed, game_id, None if skipped else setup.play(seed, game_id))
        return
    context = multiprocessing.get_context(START_METHOD)
    with context.Pool(workers, initializer=_init_worker, initargs=(setup,)) as pool:
        running: deque[tuple[list[Planned], AsyncResult[list[Played]]]] = deque()
        for chunk in _batched(seeds, batch):
            running.append(_submit(pool, setup.plan(chunk, skip), workers))
            if len(running) > AHEAD:
                yield from _collect(setup, *running.popleft())
        while running:
            yield from _collect(setup, *running.popleft())


def final_state_and_sheet(game: Game) -> tuple[GameState, ScoreSheet]:
    """A ``summarize`` for :func:`simulate_games`: the finished game's state and score sheet."""
    return game.state, score_state(game.state)


Played = tuple[list[Any], Any]
"""A played game as a worker hands it back: its records and its summary."""
Planned = tuple[int, UUID, bool]
"""A seed, its game id and whether it is skipped."""


@dataclass(frozen=True)
class _Setup:
    """What every game of a simulation shares; handed to each worker process once."""

    names: list[str]
    options: GameOptions
    mapper: EventCodec
    summarize: Callable[[Game], Any] | None

    def plan(self, seeds: Iterable[int], skip: Callable[[UUID], bool]) -> Iterator[Planned]:
        """Each seed with its game id (derived here, once) and whether to skip it."""
        for seed in seeds:
            check_seed(seed)
            game_id = bot_game_id(seed, self.names, self.options)
            yield seed, game_id, skip(game_id)

    def play(self, seed: int, game_id: UUID) -> Played:
        game = play_game(seed, self.names, self.options, game_id)
        records = [self.mapper.to_stored_event(event) for event in game.collect_events()]
        return records, self.summarize(game) if self.summarize else None

    def result(self, seed: int, game_id: UUID, played: Played | None) -> SimulatedGame:
        if played is None:
            return SimulatedGame(seed, game_id, None, self.mapper)
        return SimulatedGame(seed, game_id, played[0], self.mapper, played[1])


def _submit(
    pool: Pool, planned: Iterable[Planned], workers: int
) -> tuple[list[Planned], AsyncResult[list[Played]]]:
    plan = list(planned)
    todo = [(seed, game_id) for seed, game_id, skipped in plan if not skipped]
    chunksize = max(1, len(todo) // (workers * 4))
    return plan, pool.starmap_async(_play_in_worker, todo, chunksize)


def _collect(
    setup: _Setup, plan: list[Planned], pending: AsyncResult[list[Played]]
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
    serve_parent()
    _worker_setup = setup


def _play_in_worker(seed: int, game_id: UUID) -> Played:
    assert _worker_setup is not None, "worker not initialised"
    return _worker_setup.play(seed, game_id)
