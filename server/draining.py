"""Noticing that the server process was asked to stop, before uvicorn's shutdown waits
for open responses to end.

uvicorn handles SIGTERM and SIGINT itself: it stops accepting connections, then waits for
every response in flight to finish, then runs the application's shutdown. An event
stream never finishes by itself, so the application chains its own handler in front of
uvicorn's: it ends the streams (with a retry hint) while commands in flight complete.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def on_stop_signal(callback: Callable[[], None]) -> None:
    """Run ``callback`` in the running event loop when SIGTERM or SIGINT arrives, then
    the handler that was installed before (uvicorn's; the default action is taken again
    if there was none). Nothing happens outside the main thread (e.g. under a test
    client), where signals cannot be handled."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for number in STOP_SIGNALS:
        previous = signal.getsignal(number)

        def handler(signum: int, frame: FrameType | None, previous: object = previous) -> None:
            loop.call_soon_threadsafe(callback)
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(signum, signal.SIG_DFL)
                signal.raise_signal(signum)

        signal.signal(number, handler)
