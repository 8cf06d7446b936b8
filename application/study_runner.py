"""Running a study: its shards played in this process, in local worker processes, or on
a Dask distributed cluster, and written here as they come back.

Playing a shard is a pure function (:func:`~cascadia.application.study.play_shard`), so
where it runs changes nothing in what is written: the shards are byte-identical and the
Parquet rows the same with one process, a pool, or a cluster. The writing stays in this
process (one writer of the folder, under the analytics lock), at most ``ahead`` shards
per worker in flight, so memory stays bounded whatever the study's size. A worker that
dies loses only the shards it was playing: the pool or the cluster runs them again, and
what was written stays written (a study that stops is resumed by running it again).

Dask (``pip install 'cascadia[cluster]'``) is started the way its users start their
clusters (``dask scheduler``, ``dask worker tcp://HOST:8786``); this module only connects
to the scheduler's address. See docs/SCALING.md.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from cascadia.application.study import Resume, ShardOutput, StudyFolder, StudySpec, play_shard
from cascadia.bots.worker_processes import START_METHOD, serve_parent
from cascadia.domain.errors import CascadiaError

AHEAD = 2
"""Shards queued per worker beyond the one it plays."""


class ClusterError(CascadiaError):
    """The Dask cluster cannot be reached or used (or Dask is not installed)."""


class WorkerLostError(CascadiaError):
    """A worker died with shards the pool or the cluster would not play again."""


@dataclass
class StudyReport:
    """What a run of a study did."""

    study: str
    shards: int
    games: int
    skipped_shards: int = 0
    skipped_games: int = 0
    replayed_damaged: dict[int, str] = field(default_factory=dict)
    played_shards: int = 0
    played_games: int = 0


Progress = Callable[[ShardOutput], None]
"""Called in this process after each shard is written."""


def run_study(
    folder: StudyFolder,
    spec: StudySpec,
    *,
    workers: int = 1,
    cluster: str | None = None,
    allow_mix: bool = False,
    on_start: Callable[[StudyReport], None] | None = None,
    on_shard: Progress | None = None,
) -> StudyReport:
    """Play every shard of ``spec`` that ``folder`` does not hold yet and write it.

    ``workers``: local processes (1: this process); ``cluster``: a Dask scheduler address
    (``tcp://host:8786``) instead. ``on_start`` is told what is skipped before anything
    is played; ``on_shard`` after each shard is written."""
    spec.check()
    if workers < 1:
        raise CascadiaError(f"need at least one worker, not {workers}")
    folder.register(spec, allow_mix)
    with folder.analytics.writing():
        resume = folder.resume(spec)
        report = _report(spec, resume)
        if on_start is not None:
            on_start(report)
        done = set(resume.done)
        todo = [i for i in range(spec.shard_count) if i not in done]
        played = _played(spec, todo, workers, cluster)
        for output in played:
            folder.write(spec, output)
            report.played_shards += 1
            report.played_games += output.games
            if on_shard is not None:
                on_shard(output)
    return report


def _report(spec: StudySpec, resume: Resume) -> StudyReport:
    skipped_games = sum(len(spec.shard_seeds(i)) for i in resume.done)
    return StudyReport(
        spec.id, spec.shard_count, spec.games, len(resume.done), skipped_games, dict(resume.damaged)
    )


def _played(spec: StudySpec, todo: Sequence[int], workers: int, cluster: str | None) -> Iterator[ShardOutput]:
    if cluster is not None:
        return _on_cluster(spec, todo, cluster)
    if workers == 1 or len(todo) <= 1:
        return (play_shard(spec, index) for index in todo)
    return _on_pool(spec, todo, workers)


def _on_pool(spec: StudySpec, todo: Sequence[int], workers: int) -> Iterator[ShardOutput]:
    """The shards of ``todo`` played by ``workers`` local processes. However this ends (all
    played, an error, an interrupt), the shards not started yet are dropped: a study that
    stops resumes by being run again, so nothing is kept waiting for work it will not use."""
    context = multiprocessing.get_context(START_METHOD)
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=serve_parent)
    try:
        yield from _bounded(lambda i: pool.submit(play_shard, spec, i), todo, workers * (1 + AHEAD))
    except BrokenProcessPool:
        raise WorkerLostError(
            "a worker process died; what was written is kept: run the study again to resume"
        ) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _bounded(
    submit: Callable[[int], Future[ShardOutput]], todo: Sequence[int], limit: int
) -> Iterator[ShardOutput]:
    """The outputs of ``todo`` in the order they finish, at most ``limit`` submitted at once."""
    queue = iter(todo)
    running: set[Future[ShardOutput]] = set()
    for index in queue:
        running.add(submit(index))
        if len(running) >= limit:
            break
    while running:
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            yield future.result()
            following = next(queue, None)
            if following is not None:
                running.add(submit(following))


def _on_cluster(spec: StudySpec, todo: Sequence[int], address: str) -> Iterator[ShardOutput]:
    """The shards played on the Dask cluster at ``address``, through Dask's
    ``concurrent.futures`` executor, so the same bounded submission serves the pool and
    the cluster."""
    try:
        from distributed import Client, KilledWorker
    except ImportError:
        raise ClusterError("a cluster needs Dask distributed: pip install 'cascadia[cluster]'") from None
    try:
        client = Client(address, timeout=_connect_timeout(), set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        executor = client.get_executor(pure=False)
        try:
            yield from _bounded(lambda i: executor.submit(play_shard, spec, i), todo, workers * (1 + AHEAD))
        except (KilledWorker, OSError, TimeoutError) as error:
            raise WorkerLostError(
                f"the cluster lost a shard ({type(error).__name__}: {error}); what was written is "
                "kept: run the study again to resume"
            ) from None


def _connect_timeout() -> str:
    return os.environ.get("CASCADIA_CLUSTER_TIMEOUT", "10s")
