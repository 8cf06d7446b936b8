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

from cascadia.domain.errors import InvalidOptionError

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
    return draw_from(stream_prefix(seed, stream), position, bound)


def stream_prefix(seed: int, stream: bytes = _TAG) -> bytes:
    """What every hashed message of the stream for ``seed`` starts with: the stream's tag
    and the seed (see :func:`draw_from`)."""
    return stream + _SEED.pack(seed)


@lru_cache(maxsize=256)
def _limit(bound: int) -> int:
    """``2**64 - (2**64 mod bound)``: below it, ``x mod bound`` is uniform."""
    if not 0 < bound <= _SPAN:
        raise ValueError(f"bound must be from 1 to 2**64, not {bound}")
    return _SPAN - (_SPAN % bound)


def draw_from(prefix: bytes, position: int, bound: int) -> int:
    """Draw number ``position`` of the stream whose :func:`stream_prefix` is ``prefix``
    (the module docstring's algorithm, with the prefix made once per stream)."""
    limit = _limit(bound)
    if bound == 1:
        return 0
    attempt = 0
    while True:
        (x,) = _SEED.unpack_from(sha256(prefix + _POSITION_ATTEMPT.pack(position, attempt)).digest())
        if x < limit:
            return x % bound
        attempt += 1


class DrawStream:
    """A cursor over one seed's stream: ``next(bound)`` draws and advances the position."""

    __slots__ = ("_prefix", "position", "seed", "stream")

    def __init__(self, seed: int, position: int = 0, stream: bytes = _TAG) -> None:
        self.seed = check_seed(seed)
        self.position = position
        self.stream = stream
        self._prefix = stream_prefix(seed, stream)

    def next(self, bound: int) -> int:
        value = draw_from(self._prefix, self.position, bound)
        self.position += 1
        return value
