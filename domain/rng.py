"""Seeded, portable randomness: a counter-based SHA-256 stream with rejection sampling.

Every random outcome of a game is the ``n``-th *draw* of its stream, and draw ``n``
picks a whole number below ``bound`` like this::

    for attempt in 0, 1, 2, ...:
        digest = SHA-256( b"cascadia/v1" || seed as 8 bytes big-endian
                          || n as 8 bytes big-endian || attempt as 4 bytes big-endian )
        x = first 8 bytes of digest, big-endian unsigned
        limit = 2**64 - (2**64 mod bound)
        if x < limit: return x mod bound

The position ``n`` is part of the game state and advances by one per recorded draw,
so an audit can re-derive any draw from the seed and the event stream alone. Python's
``random`` module is not used: its algorithms are not promised stable across versions.
"""

from __future__ import annotations

from functools import lru_cache
from hashlib import sha256
from struct import Struct
from typing import TYPE_CHECKING

from cascadia.domain.errors import InvalidOptionError

if TYPE_CHECKING:
    from hashlib import _Hash

_TAG = b"cascadia/v1"
_SPAN = 1 << 64
MAX_SEED = _SPAN - 1
_SEED = Struct(">Q")
"""A seed as 8 bytes big-endian; also reads ``x``, the first 8 bytes of a digest."""
_POSITION_ATTEMPT = Struct(">QI")
"""The draw position (8 bytes) and the attempt (4 bytes), big-endian."""


def check_seed(seed: int) -> int:
    """A seed is a whole number from 0 to 2**64 - 1."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise InvalidOptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return seed


def draw(seed: int, position: int, bound: int, stream: bytes = _TAG) -> int:
    """Draw number ``position`` of the stream for ``seed``: a whole number in ``[0, bound)``."""
    return draw_from(stream_start(seed, stream), position, bound)


@lru_cache(maxsize=64)
def stream_start(seed: int, stream: bytes = _TAG) -> _Hash:
    """SHA-256 fed with what every hashed message of the stream for ``seed`` starts with,
    its tag and the seed (see :func:`draw_from`): each draw hashes on from a copy, which
    is quicker than hashing the whole message. Shared (kept for the last few streams):
    copied, never updated."""
    return sha256(stream + _SEED.pack(seed))


@lru_cache(maxsize=256)
def _limit(bound: int) -> int:
    """``2**64 - (2**64 mod bound)``: below it, ``x mod bound`` is uniform."""
    if not 0 < bound <= _SPAN:
        raise ValueError(f"bound must be from 1 to 2**64, not {bound}")
    return _SPAN - (_SPAN % bound)


def draw_from(start: _Hash, position: int, bound: int) -> int:
    """Draw number ``position`` of the stream whose :func:`stream_start` is ``start``
    (the module docstring's algorithm)."""
    limit = _limit(bound)
    if bound == 1:
        return 0
    attempt = 0
    while True:
        digest = start.copy()
        digest.update(_POSITION_ATTEMPT.pack(position, attempt))
        (x,) = _SEED.unpack_from(digest.digest())
        if x < limit:
            return x % bound
        attempt += 1


class DrawStream:
    """A cursor over one seed's stream: ``next(bound)`` draws and advances the position."""

    __slots__ = ("_start", "position", "seed", "stream")

    def __init__(self, seed: int, position: int = 0, stream: bytes = _TAG) -> None:
        self.seed = check_seed(seed)
        self.position = position
        self.stream = stream
        self._start = stream_start(seed, stream)

    def next(self, bound: int) -> int:
        value = draw_from(self._start, self.position, bound)
        self.position += 1
        return value
