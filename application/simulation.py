"""Use case: simulate bot games and store them.

The bots play (:func:`cascadia.bots.simulation.simulate_games`, in worker processes if
asked); this module stores what they played, in seed order, many games per transaction,
skipping seeds whose game the store already holds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from cascadia.application.store import GameStore
from cascadia.bots.simulation import SimulatedGame, final_state_and_sheet, simulate_games
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions


def simulate_and_store(
    store: GameStore,
    seeds: Iterable[int],
    names: Sequence[str],
    options: GameOptions,
    *,
    workers: int = 1,
    summarize: Callable[[Game], Any] | None = final_state_and_sheet,
) -> Iterator[tuple[SimulatedGame, bool]]:
    """Play a game per seed with the bots ``names`` and store each new one; yields each
    outcome with whether it was stored now (see :func:`store_games`).

    The seats and options are checked before anything is played or stored (an
    :class:`~cascadia.domain.errors.InvalidOptionError` is raised here, not on the first
    ``next``). Seeds whose game is already stored are skipped without being played, so
    an interrupted simulation can be repeated. Each outcome's ``summary`` is
    ``summarize(finished_game)``, computed where the game was played (default: its
    final state and score sheet)."""
    played = simulate_games(
        seeds, names, options, mapper=store.mapper, workers=workers, skip=store.has_game, summarize=summarize
    )
    return store_games(store, played)


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
