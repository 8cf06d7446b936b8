"""The threads that run the blocking work of the routes a game in play calls.

A sync route is run by FastAPI in anyio's worker threads (Starlette's
``run_in_threadpool``): a task group, a capacity limiter and a queue per call, about
twice the CPU of handing the call to a thread pool with ``loop.run_in_executor``. A
view, a command and a read of the events are called once or twice for every command
played, so their routes are ``async`` and hand their work (the store's reads and
writes, the rules, the rendering) to :class:`WorkerThreads`: as many threads as anyio's
default limiter lets run at once, each call in a copy of the caller's context as anyio
runs it (``tests/benchmarks/count_requests.py`` under callgrind: 9.63 and 9.70 M
instructions a command against 9.72-10.25 M with anyio's threads; docs/BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

THREADS = 40
"""How many calls run at once (anyio's default for ``run_in_threadpool``)."""

P = ParamSpec("P")
T = TypeVar("T")


class WorkerThreads:
    """A pool of :data:`THREADS` threads for blocking calls made from the event loop."""

    def __init__(self, threads: int = THREADS) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="cascadia-worker")

    async def run(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` in a worker thread, in a copy of the current context."""
        context = contextvars.copy_context()
        work = functools.partial(context.run, call, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    def close(self) -> None:
        """Stop the threads once the calls under way have finished (no new call is
        taken): the store is closed after this, never under a query (SQLite crashes the
        process then)."""
        self._pool.shutdown(wait=True)
