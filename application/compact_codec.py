"""The bytes of one row of the compact event store: several events of one aggregate.

A row's payload is one flag byte and a body. The body is a msgpack array with one entry
per event, in version order; an entry is a two-element array ``[key, data]``:

- ``[code, [value, ...]]``: the event's type by its code
  (:mod:`cascadia.application.event_codes`) and the values of its state, in the order of
  the code's fields. Written when the stored state is a msgpack map whose keys are
  exactly those fields in that order *and* whose values pack back to the very same
  bytes, so that reading gives back the state bytes the mapper wrote;
- ``[code, state]``: the code and the state bytes as given (a state that does not match
  its code's fields, or that is not msgpack);
- ``[topic, state]``: the full topic text and the state bytes, for a type without code.

The flag says how the body is kept: :data:`PLAIN` as it is, :data:`DEFLATE` compressed
with raw deflate (zlib, level 9, no header), used only when that is smaller.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import msgpack
from cascadia.application.event_codes import BY_CODE, CURRENT
from eventsourcing.persistence import DataError

PLAIN = 0
DEFLATE = 1
_DEFLATE_BITS = -15
"""Raw deflate: no zlib header and checksum (6 bytes less per row)."""


def _unpack(data: bytes) -> Any:
    """msgpack as written by the store's transcoder; extension types are kept as they are."""
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def encode_entry(topic: str, state: bytes) -> list[Any]:
    """The entry of one event (see the module docstring)."""
    known = CURRENT.get(topic)
    if known is None:
        return [topic, state]
    try:
        data = _unpack(state)
    except (ValueError, msgpack.UnpackException):
        return [known.code, state]
    if isinstance(data, dict) and tuple(data) == known.fields and _pack(data) == state:
        return [known.code, list(data.values())]
    return [known.code, state]


def decode_entry(entry: Sequence[Any]) -> tuple[str, bytes]:
    """The topic and state bytes of one entry."""
    key, data = entry
    if isinstance(key, str):
        return key, data
    known = BY_CODE.get(key)
    if known is None:
        raise DataError(f"unknown event code {key}: the row was written by a newer version of cascadia")
    if isinstance(data, bytes):
        return known.topic, data
    return known.topic, _pack(dict(zip(known.fields, data, strict=True)))


def entry_topic(entry: Sequence[Any]) -> str:
    """The topic of one entry, without building its state."""
    key = entry[0]
    if isinstance(key, str):
        return key
    known = BY_CODE.get(key)
    if known is None:
        raise DataError(f"unknown event code {key}: the row was written by a newer version of cascadia")
    return known.topic


def encode_payload(events: Sequence[tuple[str, bytes]]) -> bytes:
    """The payload of a row holding ``events`` (topic and state of each, in order)."""
    body = _pack([encode_entry(topic, state) for topic, state in events])
    compressor = zlib.compressobj(9, zlib.DEFLATED, _DEFLATE_BITS)
    packed = compressor.compress(body) + compressor.flush()
    if len(packed) < len(body):
        return bytes([DEFLATE]) + packed
    return bytes([PLAIN]) + body


def decode_payload(payload: bytes) -> list[list[Any]]:
    """The entries of a row's payload."""
    flag, body = payload[0], payload[1:]
    if flag == DEFLATE:
        body = zlib.decompress(body, _DEFLATE_BITS)
    elif flag != PLAIN:
        raise DataError(f"unknown row format {flag}: the row was written by a newer version of cascadia")
    return _unpack(body)
