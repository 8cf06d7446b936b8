"""A msgpack transcoder for the ``eventsourcing`` library.

msgpack knows no UUIDs or datetimes, so they travel as extension types: code 1 holds
the 16 bytes of a UUID, code 2 the ISO 8601 text of a datetime. Tuples come back as
lists, which is why event payloads use lists throughout.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgpack
from eventsourcing.persistence import Transcoder

UUID_EXT = 1
DATETIME_EXT = 2


def _default(obj: Any) -> Any:
    if isinstance(obj, UUID):
        return msgpack.ExtType(UUID_EXT, obj.bytes)
    if isinstance(obj, datetime):
        return msgpack.ExtType(DATETIME_EXT, obj.isoformat().encode())
    raise TypeError(f"msgpack transcoder cannot encode {type(obj).__name__}")


def _ext_hook(code: int, data: bytes) -> Any:
    if code == UUID_EXT:
        return UUID(bytes=data)
    if code == DATETIME_EXT:
        return datetime.fromisoformat(data.decode())
    return msgpack.ExtType(code, data)


def pack(obj: Any) -> bytes:
    """Canonical msgpack bytes of ``obj`` (map keys kept in insertion order)."""
    return msgpack.packb(obj, default=_default, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


class MsgpackTranscoder(Transcoder):
    """Encodes event state to msgpack bytes and back (UUIDs and datetimes included)."""

    def encode(self, obj: Any) -> bytes:
        return pack(obj)

    def decode(self, data: bytes) -> Any:
        return unpack(data)
