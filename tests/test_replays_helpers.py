"""Shared helpers of the replay tests: engine-written logs, frame surgery, re-chaining.

(No tests here; the functions are imported by the other ``test_replays_*`` modules.)
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from typing import Any

import msgpack
from cascadia.bots.registry import play_game
from cascadia.domain.events import PAYLOAD_FIELDS, GameEvent
from cascadia.domain.options import GameOptions
from cascadia.replays.audit import verify
from cascadia.replays.format import (
    LENGTH_SIZE,
    MAGIC,
    LogEncoder,
    LogHeader,
    LogReader,
    canonical,
    chain,
    encode_log,
)
from cascadia.replays.scores import final_score_sheet

Record = list[Any]
"""``[seq, type, payload]`` as a test edits it."""


@cache
def _game(players: int, seed: int, options: tuple[tuple[str, Any], ...]) -> tuple[tuple[GameEvent, ...], Any]:
    game = play_game(seed, ["random"] * players, GameOptions(**dict(options)))
    return tuple(game.collect_events()), final_score_sheet(game.state)


def game_events(players: int = 2, seed: int = 11, **options: Any) -> list[GameEvent]:
    """The events of a finished random-bot game (cached)."""
    return list(_game(players, seed, tuple(sorted(options.items())))[0])


def game_log(players: int = 2, seed: int = 11, **options: Any) -> bytes:
    """The log of a finished random-bot game, as the engine writes it."""
    events, scores = _game(players, seed, tuple(sorted(options.items())))
    return encode_log(LogHeader.from_events(events), events, scores)


def read(data: bytes, name: str = "test.cascadia") -> tuple[LogReader, list[Any], Any]:
    """Header reader, records and trailer of a log in memory (format checks only)."""
    reader = LogReader(io.BytesIO(data), name)
    records, trailer = reader.read_all()
    return reader, records, trailer


def audit_bytes(data: bytes, name: str = "test.cascadia") -> list[GameEvent]:
    """The confirmed events of a full audit of ``data`` (raises at the first problem)."""
    return verify(LogReader(io.BytesIO(data), name))[1]


def frames(data: bytes) -> tuple[bytes, list[bytes]]:
    """The magic and every frame (length prefix included) of a log."""
    assert data.startswith(MAGIC)
    position, found = len(MAGIC), []
    while position < len(data):
        size = int.from_bytes(data[position : position + LENGTH_SIZE], "big")
        found.append(data[position : position + LENGTH_SIZE + size])
        position += LENGTH_SIZE + size
    return data[: len(MAGIC)], found


def raw_frame(body: bytes, previous: bytes) -> bytes:
    """A frame around arbitrary body bytes, with a correct hash link to ``previous``."""
    return (
        (len(body) + 35).to_bytes(LENGTH_SIZE, "big") + b"\x92" + body + b"\xc4\x20" + chain(previous, body)
    )


def frame_offset(data: bytes, index: int) -> int:
    """The byte offset of frame ``index`` (0: the header)."""
    _, found = frames(data)
    return len(MAGIC) + sum(len(f) for f in found[:index])


def values_of(type_name: str, payload: Any) -> Any:
    """The field values of an edited payload as a record holds them: the declared fields
    in order, then any extra ones (a missing or extra field makes the list the wrong length)."""
    if not isinstance(payload, dict):
        return payload
    names = PAYLOAD_FIELDS.get(type_name, ())
    return [payload[n] for n in names if n in payload] + [v for k, v in payload.items() if k not in names]


def rechain(
    data: bytes,
    edit: Callable[[list[Record]], list[Record]] | None = None,
    *,
    header: Callable[[LogHeader], LogHeader] | None = None,
    scores: Callable[[Any], Any] | None = None,
    renumber: bool = False,
) -> bytes:
    """A log with edited records (and header / trailer scores) and a freshly computed,
    intact hash chain: only the audit can tell that something is wrong."""
    reader, records, trailer = read(data)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    if edit:
        body = edit(body)
    if renumber:
        body = [[i + 1, t, p] for i, (_, t, p) in enumerate(body)]
    encoder = LogEncoder(header(reader.header) if header else reader.header)
    out = [encoder.preamble]
    out += [encoder.record(seq, type_name, values_of(type_name, payload)) for seq, type_name, payload in body]
    out.append(encoder.trailer(scores(trailer.scores) if scores else trailer.scores))
    return b"".join(out)


def with_raw_header(data: bytes, edit: Callable[[dict[str, Any]], dict[str, Any]]) -> bytes:
    """A log whose header map is edited freely (any keys, any values) and whose chain is
    rebuilt from the new header."""
    reader, records, trailer = read(data)
    body = canonical(edit(reader.header.body()))
    encoder = LogEncoder(reader.header)
    encoder.head = chain(b"", body)
    out = [MAGIC + raw_frame(body, b"")]
    out += [encoder.record(r.seq, r.type, values_of(r.type, r.payload)) for r in records]
    out.append(encoder.trailer(trailer.scores))
    return b"".join(out)


def index_of(
    records: list[Record], type_name: str, nth: int = 0, where: Callable[[dict], bool] | None = None
) -> int:
    """The list index of the ``nth`` record of ``type_name`` (matching ``where``)."""
    hits = [i for i, (_, t, p) in enumerate(records) if t == type_name and (where is None or where(p))]
    return hits[nth]


DEEP_MARKER = "\x00deep\x00"
"""A string that :func:`deepen` replaces with a deeply nested value (a log cannot be
written with one: encoding it would itself recurse too deeply)."""


def deep_value(depth: int) -> bytes:
    """The msgpack bytes of ``depth`` arrays nested in one another around a nil (canonical)."""
    return b"\x91" * depth + b"\xc0"


def deepen(data: bytes, depth: int) -> bytes:
    """``data`` with every :data:`DEEP_MARKER` string replaced by a value nested ``depth``
    levels deep, the hash chain rebuilt around it (and the trailer's head and count)."""
    magic, found = frames(data)
    marker, deep = canonical(DEEP_MARKER), deep_value(depth)
    *bodies, trailer = [frame[LENGTH_SIZE + 1 : -34] for frame in found]
    bodies = [body.replace(marker, deep) for body in bodies]
    out, head = [magic], b""
    for body in bodies:
        out.append(raw_frame(body, head))
        head = chain(head, body)
    closing = msgpack.unpackb(trailer, raw=False)
    if isinstance(closing, dict) and "head" in closing:
        trailer = canonical({**closing, "head": head, "events": len(bodies) - 1})
    out.append(raw_frame(trailer.replace(marker, deep), head))
    return b"".join(out)
