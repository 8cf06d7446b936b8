"""A bounded map of the values most recently used, for the caches a long-running
process keeps between requests (the games' states, the rendered views, score sheets and
events): safe to share between threads, the least recently used key going first once it
holds more than its size."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The values of the ``size`` keys most recently read or written, thread-safe.

    ``order``, if given, says which of two values for one key is the later (values are
    compared by it): a value is then kept only if it is not older than the one kept, so
    that two threads that computed values for the same key in either order leave the
    later one."""

    def __init__(self, size: int, order: Callable[[V], Any] | None = None) -> None:
        self._size = size
        self._order = order
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (``None``: none), now the most recently used."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (unless, with an ``order``, a later one is kept)."""
        with self._lock:
            kept = self._values.get(key)
            if kept is None or self._order is None or self._order(kept) <= self._order(value):
                self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self._size:
                self._values.popitem(last=False)
