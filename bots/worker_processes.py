"""Worker processes that play games for the process that started them.

Simulations, studies and training spread their games over local worker processes
(``spawn``: a fresh interpreter, the same on every platform). Such a worker holds nothing
of its own: everything it plays goes back to its parent, which alone writes. So a worker
ends with its parent, however the parent ends:

- killed (``kill``, ``kill -9``, the machine's out-of-memory killer): a worker would
  otherwise wait for its next task forever, holding its memory; :func:`serve_parent`
  starts a thread that waits on the parent's sentinel (ready when the parent is gone) and
  ends the worker at once;
- interrupted (Ctrl-C reaches every process of the terminal's foreground group): the
  parent decides what an interrupt means (it stops handing out work and reports), so a
  worker ignores ``SIGINT`` instead of printing a traceback of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import wait

START_METHOD = "spawn"
"""How worker processes start: a fresh interpreter, on every platform alike, safe with the
parent's open database connections and threads."""

EXIT_ORPHANED = 70
"""A worker's exit status when its parent was gone (``EX_SOFTWARE``)."""


def serve_parent() -> None:
    """Make this worker process end with its parent and leave interrupts to it (the
    module docstring). An initializer of a pool's workers; in a process that no
    ``multiprocessing`` parent started (a Dask worker, a script), it does nothing."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sentinel = parent.sentinel
    threading.Thread(target=_end_with, args=(sentinel,), name="cascadia-parent-watch", daemon=True).start()


def _end_with(sentinel: int) -> None:
    """Wait until the parent is gone, then end this process without its clean-up (the
    parent took everything the worker made; nothing is left to save)."""
    wait([sentinel])
    os._exit(EXIT_ORPHANED)
