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

The flag says how the body is laid out and kept. Nested, as above: :data:`PLAIN` as it
is, :data:`DEFLATE` compressed with raw deflate (zlib, level 9, no header), used only
when that is smaller. Flat (:data:`FLAT`, :data:`FLAT_DEFLATE`): the same entries
without the arrays around them, one msgpack value after another (2 bytes an event and
1 a row less):

- ``code value ...``: a code and as many values as it has fields;
- ``-code state``: a code (negated) and the state bytes as given;
- ``topic state``: the full topic text and the state bytes.

The compact layout of :mod:`cascadia.application.compact_sqlite` and
:mod:`cascadia.application.compact_postgres` writes nested rows (so that an earlier
version of cascadia still reads a store it created); the keyed layout writes flat ones.
Both are read whatever a row holds.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import msgpack
from cascadia.application.event_codes import BY_CODE, CURRENT, EventCode
from eventsourcing.persistence import DataError

PLAIN = 0
DEFLATE = 1
FLAT = 2
FLAT_DEFLATE = 3
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


def _known(code: int) -> EventCode:
    known = BY_CODE.get(code)
    if known is None:
        raise DataError(f"unknown event code {code}: the row was written by a newer version of cascadia")
    return known


def decode_entry(entry: Sequence[Any]) -> tuple[str, bytes]:
    """The topic and state bytes of one entry."""
    key, data = entry
    if isinstance(key, str):
        return key, data
    known = _known(key)
    if isinstance(data, bytes):
        return known.topic, data
    return known.topic, _pack(dict(zip(known.fields, data, strict=True)))


def entry_topic(entry: Sequence[Any]) -> str:
    """The topic of one entry, without building its state."""
    key = entry[0]
    return key if isinstance(key, str) else _known(key).topic


def _flat_entry(entry: Sequence[Any]) -> bytes:
    """One entry of a flat body (see the module docstring)."""
    key, data = entry
    if isinstance(data, bytes):
        return _pack(key if isinstance(key, str) else -key) + _pack(data)
    return _pack(key) + b"".join(_pack(value) for value in data)


def _flat_entries(body: bytes) -> list[list[Any]]:
    """The entries of a flat body."""
    values = msgpack.Unpacker(raw=False, strict_map_key=False)
    values.feed(body)
    entries: list[list[Any]] = []
    for key in values:
        if isinstance(key, int) and key > 0:
            entries.append([key, [next(values) for _ in _known(key).fields]])
        else:
            entries.append([key if isinstance(key, str) else -key, next(values)])
    return entries


def encode_payload(events: Sequence[tuple[str, bytes]], *, flat: bool = False) -> bytes:
    """The payload of a row holding ``events`` (topic and state of each, in order), its
    body nested or ``flat``."""
    entries = [encode_entry(topic, state) for topic, state in events]
    body = b"".join(map(_flat_entry, entries)) if flat else _pack(entries)
    compressor = zlib.compressobj(9, zlib.DEFLATED, _DEFLATE_BITS)
    packed = compressor.compress(body) + compressor.flush()
    if len(packed) < len(body):
        return bytes([FLAT_DEFLATE if flat else DEFLATE]) + packed
    return bytes([FLAT if flat else PLAIN]) + body


def decode_payload(payload: bytes) -> list[list[Any]]:
    """The entries of a row's payload, whichever its format."""
    flag, body = payload[0], payload[1:]
    if flag not in (PLAIN, DEFLATE, FLAT, FLAT_DEFLATE):
        raise DataError(f"unknown row format {flag}: the row was written by a newer version of cascadia")
    if flag in (DEFLATE, FLAT_DEFLATE):
        body = zlib.decompress(body, _DEFLATE_BITS)
    return _flat_entries(body) if flag >= FLAT else _unpack(body)
