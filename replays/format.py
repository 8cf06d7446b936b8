"""The ``cascadia-log`` file format (replays/FORMAT.md): framing, canonical bytes, hash chain.

A log is the magic bytes, then frames: one header, one record per event, one trailer.
Each frame is a 4-byte big-endian length and that many bytes holding one msgpack array
``[body, hash]``, where ``hash`` is ``SHA-256(previous hash || canonical bytes of body)``
(the header's previous hash is empty, so its hash is the start of the chain). Canonical
bytes are msgpack with the shortest encodings and every map's keys in the bytewise order
of their encoded keys, so the same content always gives the same bytes.

:class:`LogReader` reads and verifies a log one frame at a time (never more than
:data:`MAX_FRAME` bytes at once); :class:`LogEncoder` builds the frames and
:func:`write_log` writes them atomically (temporary file, fsync, rename).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import typing
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from hashlib import sha256
from operator import attrgetter
from pathlib import Path
from typing import Any, BinaryIO
from uuid import UUID

import msgpack
from cascadia.domain.events import (
    EVENT_TYPES,
    OPTIONAL_FIELDS,
    PAYLOAD_FIELDS,
    GameEvent,
    GameStarted,
    ScoringCardsDrawn,
    make_event,
)
from cascadia.replays.errors import LogFormatError, ReplayError
from cascadia.replays.schema import decode_payload, fields_problem, type_problem

MAGIC = b"\x89CASCADIA\r\n\x1a\n"
"""The first 13 bytes of every log (a PNG-style signature: detects text-mode damage)."""
FORMAT_NAME = "cascadia-log"
FORMAT_VERSION = 1
"""The version of a log that records no bots: every log written before they were."""
BOTS_FORMAT_VERSION = 2
"""The version of a log that records its seats' bots: header key ``bots`` and the last
field of ``GameStarted`` (replays/FORMAT.md, section 9); version 1 readers refuse it."""
FORMAT_VERSIONS = (FORMAT_VERSION, BOTS_FORMAT_VERSION)
EXTENSION = ".cascadia"
MAX_FRAME = 1 << 20
"""The largest frame a reader accepts: 1 MiB."""
MAX_RECORDS = 100_000
"""The most event records a reader accepts in one log (a 4-player game has about 450)."""
MAX_DEPTH = 16
"""The deepest nesting of arrays and maps a reader accepts in one frame body (the
engine's deepest value, a score sheet in the trailer, is 5 levels deep)."""
HASH_SIZE = 32
LENGTH_SIZE = 4

HEADER_FIELDS = (
    "format",
    "version",
    "rules_version",
    "game_id",
    "seed",
    "players",
    "names",
    "options",
    "cards",
    "second_cards",
)
OPTIONAL_HEADER_FIELDS = ("bots",)
"""Header fields written only when set (after ``HEADER_FIELDS``): the seats' bots."""
TRAILER_FIELDS = ("events", "head", "scores")

# A frame is the two-element array [body, hash]: 0x92, the body, then bin 8 of 32 bytes.
_FRAME_START = b"\x92"
_HASH_PREFIX = b"\xc4\x20"
_FRAME_OVERHEAD = len(_FRAME_START) + len(_HASH_PREFIX) + HASH_SIZE


# -- canonical bytes -----------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _key_bytes(key: Any) -> bytes:
    return msgpack.packb(key, use_bin_type=True)


_SCALARS = frozenset({int, str, bool, bytes, type(None)})


def _canonical_value(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:  # exact types: msgpack.ExtType is a named tuple
        return [_canonical_value(v) for v in value]
    if kind is dict:
        items = sorted(((_key_bytes(k), k, v) for k, v in value.items()), key=lambda item: item[0])
        return {k: _canonical_value(v) for _, k, v in items}
    raise TypeError(f"a log holds no {kind.__name__} values")


def canonical(value: Any) -> bytes:
    """The canonical msgpack bytes of ``value``: maps ordered by their encoded keys,
    tuples as arrays, strings as str and bytes as bin, integers in their shortest form.
    Only nil, booleans, integers, strings, bytes, arrays and maps are allowed."""
    return msgpack.packb(_canonical_value(value), use_bin_type=True)


def chain(previous: bytes, body: bytes) -> bytes:
    """The hash of a frame: ``SHA-256(previous || body)``."""
    return sha256(previous + body).digest()


def record_body(event: GameEvent) -> list[Any]:
    """The body of an event's record: ``[sequence number, type name, field values]``,
    the values in the order the event type declares its fields (:data:`PAYLOAD_FIELDS`),
    an optional field left out while ``None`` (it is last: see ``GameEvent.payload``)."""
    payload = event.payload()
    values = [payload[f] for f in PAYLOAD_FIELDS[event.type] if f in payload]
    return [event.originator_version, event.type, values]


def _holds_no_map(cls: type[GameEvent]) -> bool:
    hints = typing.get_type_hints(cls)
    return not OPTIONAL_FIELDS.get(cls.__name__) and all(
        "dict" not in str(hints[name]) for name in PAYLOAD_FIELDS[cls.__name__]
    )


_PLAIN_TYPES = frozenset(name for name, cls in EVENT_TYPES.items() if _holds_no_map(cls))
"""The event types whose records hold no map and no optional field (integers, strings,
booleans, nil and arrays of them; ``MarketRefilled.fills`` holds slots, tile numbers and
species): msgpack's own bytes of such a record are already canonical."""


def _values_getter(names: tuple[str, ...]) -> Callable[[GameEvent], tuple[Any, ...]]:
    """A function giving the values of an event's fields ``names``, in order, as a tuple."""
    if len(names) == 1:
        (name,) = names
        return lambda event: (getattr(event, name),)
    return attrgetter(*names)


_PLAIN_VALUES: dict[type, Callable[[GameEvent], tuple[Any, ...]]] = {
    EVENT_TYPES[name]: _values_getter(PAYLOAD_FIELDS[name]) for name in _PLAIN_TYPES
}
"""For each of :data:`_PLAIN_TYPES`, by class, its record's field values."""

_PACKER = msgpack.Packer(use_bin_type=True)
"""One packer for every plain record (``msgpack.packb`` makes a new one per call); its
``pack`` runs without releasing the GIL and resets itself, so threads may share it."""


def record_bytes(event: GameEvent) -> bytes:
    """The canonical bytes of an event's record (:func:`record_body`), as
    ``canonical(record_body(event))`` gives them, the common event types without sorting
    anything (tests/test_replays_format.py checks every event type of many games)."""
    cls = event.__class__
    values = _PLAIN_VALUES.get(cls)
    if values is None:
        return canonical(record_body(event))
    return _PACKER.pack((event.originator_version, cls.__name__, values(event)))


# -- header, records, trailer ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogHeader:
    """What a log says about its game before the first event."""

    game_id: UUID
    seed: int
    names: list[str]
    options: dict[str, Any]
    rules_version: str
    cards: dict[str, str]
    second_cards: dict[str, str] | None = None
    version: int = FORMAT_VERSION
    bots: list[dict[str, Any] | None] | None = None
    """As ``GameStarted.bots``: per seat, the bot that plays it (when recorded)."""

    @property
    def players(self) -> int:
        return len(self.names)

    def body(self) -> dict[str, Any]:
        """The header as the map that is written (and hashed)."""
        return {
            "format": FORMAT_NAME,
            "version": self.version,
            "rules_version": self.rules_version,
            "game_id": str(self.game_id),
            "seed": self.seed,
            "players": self.players,
            "names": list(self.names),
            "options": dict(self.options),
            "cards": dict(self.cards),
            "second_cards": None if self.second_cards is None else dict(self.second_cards),
        } | ({} if self.bots is None else {"bots": list(self.bots)})

    @classmethod
    def from_events(cls, events: Iterable[GameEvent]) -> LogHeader:
        """The header of a game from its first events (``GameStarted``, ``ScoringCardsDrawn``)."""
        started: GameStarted | None = None
        for event in events:
            if started is None:
                if not isinstance(event, GameStarted):
                    raise ReplayError("a game's first event must be GameStarted")
                started = event
            elif isinstance(event, ScoringCardsDrawn):
                return cls(
                    game_id=started.originator_id,
                    seed=started.seed,
                    names=list(started.names),
                    options=dict(started.options),
                    rules_version=started.rules_version,
                    cards=dict(event.cards),
                    second_cards=None if event.second_cards is None else dict(event.second_cards),
                    version=FORMAT_VERSION if started.bots is None else BOTS_FORMAT_VERSION,
                    bots=None if started.bots is None else list(started.bots),
                )
        raise ReplayError("a game's events must include GameStarted and ScoringCardsDrawn")


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One verified event record: its sequence number, type name and payload."""

    seq: int
    type: str
    payload: dict[str, Any]
    """The event's fields by name (in the file: their values, in declaration order)."""
    body: bytes
    """The canonical bytes of ``[seq, type, values]``: what the hash covers."""
    digest: bytes
    offset: int

    def to_event(self, game_id: UUID) -> GameEvent:
        return make_event(self.type, game_id, self.seq, self.payload)

    def as_dict(self) -> dict[str, Any]:
        """``{"seq", "type", "payload"}``, the payload fields in declaration order."""
        return {"seq": self.seq, "type": self.type, "payload": self.payload}


@dataclass(frozen=True, slots=True)
class LogTrailer:
    """The end of a log: the event count, the chain head and the final score sheet."""

    events: int
    head: bytes
    scores: dict[str, Any] | None
    digest: bytes


# -- writing -------------------------------------------------------------------------------


class LogEncoder:
    """Builds the frames of one log and keeps its hash chain.

    ``preamble`` (the magic and the header frame), then :meth:`record` per event, then
    :meth:`trailer`. The encoder does not check the events: it writes what it is given.
    """

    def __init__(self, header: LogHeader) -> None:
        body = canonical(header.body())
        self.head = chain(b"", body)
        self.count = 0
        self.preamble = MAGIC + self._frame(body, self.head)

    @staticmethod
    def _frame(body: bytes, digest: bytes) -> bytes:
        size = len(body) + _FRAME_OVERHEAD
        if size > MAX_FRAME:
            raise ReplayError(f"a log frame of {size} bytes exceeds the {MAX_FRAME}-byte limit")
        return size.to_bytes(LENGTH_SIZE, "big") + _FRAME_START + body + _HASH_PREFIX + digest

    def _link(self, value: Any) -> bytes:
        return self.link(canonical(value))

    def link(self, body: bytes) -> bytes:
        """The frame of a body given as its canonical bytes (for example a verified
        record's :attr:`LogRecord.body`), linked into the chain."""
        self.head = chain(self.head, body)
        return self._frame(body, self.head)

    def record(self, seq: int, type_name: str, values: Any) -> bytes:
        """The frame of one event record: its field values as given (see :func:`record_body`)."""
        self.count += 1
        return self._link([seq, type_name, values])

    def event(self, event: GameEvent) -> bytes:
        self.count += 1
        return self.link(record_bytes(event))

    def event_body(self, body: bytes) -> bytes:
        """The frame of an event record given as its canonical bytes."""
        self.count += 1
        return self.link(body)

    def trailer(self, scores: dict[str, Any] | None) -> bytes:
        """The closing frame: event count, chain head before it, final scores (or nil)."""
        return self._link(self.trailer_body(scores))

    def trailer_body(self, scores: dict[str, Any] | None) -> dict[str, Any]:
        return {"events": self.count, "head": self.head, "scores": scores}

    def digest(self, events: Iterable[GameEvent], scores: dict[str, Any] | None) -> bytes:
        """The hash of the trailer frame of the log of ``events`` and ``scores`` (which
        chains every frame before it: the log's digest), without making the frames:
        the chain covers the bodies only."""
        for event in events:
            self.count += 1
            self.head = chain(self.head, record_bytes(event))
        self.head = chain(self.head, canonical(self.trailer_body(scores)))
        return self.head


def iter_log(
    header: LogHeader, events: Iterable[GameEvent], scores: dict[str, Any] | None
) -> Iterator[bytes]:
    """The bytes of a log, one frame at a time."""
    encoder = LogEncoder(header)
    yield encoder.preamble
    for event in events:
        yield encoder.event(event)
    yield encoder.trailer(scores)


def encode_log(header: LogHeader, events: Iterable[GameEvent], scores: dict[str, Any] | None) -> bytes:
    """The whole log as bytes (for tests and small logs)."""
    return b"".join(iter_log(header, events, scores))


TEMP_MARK = ".cascadia-tmp"
"""The suffix of the temporary files of :func:`atomic_output`:
``.<target name>.<pid>.<random>.cascadia-tmp``, in the target's folder."""


class OutputPathError(ReplayError):
    """An output path that is not a regular file (a device, a FIFO, a symlink, a folder)."""


def check_output_path(target: Path) -> None:
    """Refuse to replace anything but a regular file (or nothing): a device, a FIFO, a
    folder or a symbolic link is never renamed over."""
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise OutputPathError(f"{target}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        kind = file_kind(mode)
        raise OutputPathError(f"{target} is {kind}, not a regular file; refusing to replace it")


def make_parent_folders(target: Path) -> None:
    """The one rule for every output: missing folders on the way to ``target`` are
    created; a path on the way that is not a folder is refused, naming it and ``target``
    as the user gave it (:class:`OutputPathError`)."""
    for folder in (*reversed(target.parents), target.parent):
        if os.path.lexists(folder) and not folder.is_dir():
            raise OutputPathError(f"cannot write {target}: {folder} is not a folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OSError(error.errno, f"cannot write {target}: {error.strerror or error}") from None


def file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def remove_stale_temporaries(folder: Path, name: str) -> None:
    """Delete the temporary files that interrupted writes of ``name`` left in ``folder``
    (``kill -9`` skips every clean-up): those of our naming pattern whose process is gone."""
    try:
        leftovers = list(folder.glob(f".{glob_escape(name)}.*{TEMP_MARK}"))
    except OSError:
        return
    for path in leftovers:
        pid = path.name[len(name) + 2 :].split(".", 1)[0]
        if pid.isdigit() and not _process_alive(int(pid)):
            path.unlink(missing_ok=True)


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A file that appears at ``path`` only complete: written to a temporary file in the
    same folder, flushed and fsynced, then renamed over ``path``; removed on failure.

    Missing parent folders are created (:func:`make_parent_folders`). Only a regular
    file (or nothing) is ever replaced (:class:`OutputPathError`), and a write error is
    an :class:`OSError` naming ``path``."""
    target = Path(path)
    make_parent_folders(target)
    check_output_path(target)
    remove_stale_temporaries(target.parent, target.name)
    try:
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed below, renamed on success
            "wb", dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=TEMP_MARK, delete=False
        )
    except OSError as error:
        raise OSError(error.errno, f"cannot write {target}: {error.strerror}") from None
    try:
        try:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
            os.chmod(handle.name, _file_mode(target))
            check_output_path(target)
            os.replace(handle.name, target)
        except OSError as error:
            raise OSError(error.errno, f"cannot write {target}: {error.strerror or error}") from None
    except BaseException:
        handle.close()
        Path(handle.name).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)


def _file_mode(target: Path) -> int:
    """The permissions of the file being replaced, or of a new file under the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_log(
    path: str | os.PathLike[str],
    header: LogHeader,
    events: Iterable[GameEvent],
    scores: dict[str, Any] | None,
) -> int:
    """Write a log atomically; returns its size in bytes."""
    size = 0
    with atomic_output(path) as out:
        for chunk in iter_log(header, events, scores):
            out.write(chunk)
            size += len(chunk)
    return size


# -- reading -------------------------------------------------------------------------------


def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply arrays and maps nest in ``value`` (a scalar: 0), without recursion, and
    stopping as soon as the depth exceeds ``limit``."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, list | tuple | dict):
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _decode(data: bytes) -> Any:
    """One msgpack value, every size bounded by the frame's own length (msgpack itself
    stops at 1024 levels of nesting; :data:`MAX_DEPTH` is checked after it)."""
    limit = len(data)
    return msgpack.unpackb(
        data,
        raw=False,
        strict_map_key=False,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
        max_ext_len=limit,
    )


def decode_bounded(data: bytes) -> Any:
    """One msgpack value from ``data``, every size bounded by the data's length and at most
    :data:`MAX_DEPTH` levels deep (for files other than logs: shards); ``ValueError``
    saying what is wrong otherwise."""
    try:
        value = _decode(data)
    except Exception as error:  # msgpack raises many kinds for damaged data
        raise ValueError(f"undecodable msgpack: {type(error).__name__}: {error}") from None
    if nesting_depth(value) > MAX_DEPTH:
        raise ValueError(f"values nest deeper than {MAX_DEPTH} levels")
    return value


PARSED_DEPTH = 200
"""The deepest text :func:`loads_bounded` hands to :func:`json.loads`, whose parser
recurses once per level: deeper text is refused before it is parsed, so the parser never
runs the interpreter up to its recursion limit (where a garbage collection that happens
to run finalizers fails each of them with a ``RecursionError`` of its own)."""
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(rb"[\[\]{}]")


def _text_depth(text: bytes) -> int:
    """How deeply the brackets of JSON ``text`` nest (those inside strings not counted)."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub(b"", text)):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def loads_bounded(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """One JSON value from ``text`` (bytes: UTF-8) at most ``max_depth`` levels deep: the
    JSON twin of :func:`decode_bounded`, for every nested JSON input (map files, analyses,
    request bodies); ``ValueError`` saying what is wrong otherwise, never a
    ``RecursionError`` here or in code that walks the value later. Text that could nest
    deeper than :data:`PARSED_DEPTH` (it opens more brackets than that) has its depth
    measured first and is refused without being parsed if it does."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if raw.count(b"[") + raw.count(b"{") > PARSED_DEPTH and _text_depth(raw) > PARSED_DEPTH:
        raise ValueError(f"values nest deeper than {max_depth} levels")
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"values nest deeper than {max_depth} levels") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8: {error.reason} at byte {error.start}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error}") from None
    if nesting_depth(value, max_depth) > max_depth:
        raise ValueError(f"values nest deeper than {max_depth} levels")
    return value


class LogReader:
    """Reads and verifies a log one frame at a time.

    The header is read on construction; :meth:`records` yields the event records, each
    after checking its framing, its hash link, its encoding, its shape and its sequence
    number, and then reads and checks the trailer (available as :attr:`trailer`) and
    that nothing follows it. Every failure is a :class:`LogFormatError`.
    """

    def __init__(self, stream: BinaryIO, name: str = "<log>") -> None:
        self._stream = stream
        self.name = name
        self._offset = 0
        self.trailer: LogTrailer | None = None
        self.head = b""
        magic = self._read(len(MAGIC))
        if magic != MAGIC:
            if len(magic) < len(MAGIC) and MAGIC.startswith(magic) and magic:
                self._fail("truncated", "the file ends inside the magic bytes", 0, None)
            self._fail("magic", f"not a {FORMAT_NAME} file (wrong magic bytes)", 0, None)
        self.header = self._read_header()

    # -- low level ---------------------------------------------------------------------

    def _fail(self, kind: str, reason: str, offset: int | None, record: int | None) -> None:
        raise LogFormatError(self.name, kind, reason, offset, record)

    def _read(self, size: int) -> bytes:
        chunks = []
        remaining = size
        while remaining:
            chunk = self._stream.read(remaining)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        self._offset += len(data)
        return data

    def _read_frame(self, record: int) -> tuple[int, bytes, bytes] | None:
        """``(offset, body bytes, hash)`` of the next frame, or ``None`` at a clean end."""
        offset = self._offset
        prefix = self._read(LENGTH_SIZE)
        if not prefix:
            return None
        if len(prefix) < LENGTH_SIZE:
            self._fail("truncated", "the data ends inside a frame length", offset, record)
        size = int.from_bytes(prefix, "big")
        if size > MAX_FRAME:
            self._fail("length", f"frame length {size} exceeds the {MAX_FRAME}-byte limit", offset, record)
        if size <= _FRAME_OVERHEAD:
            self._fail("length", f"frame length {size} is too small for a frame", offset, record)
        frame = self._read(size)
        if len(frame) < size:
            self._fail(
                "truncated",
                f"the frame declares {size} bytes but only {len(frame)} follow",
                offset,
                record,
            )
        if not frame.startswith(_FRAME_START) or frame[-_FRAME_OVERHEAD + 1 : -HASH_SIZE] != _HASH_PREFIX:
            self._fail("encoding", "a frame must be the msgpack array [body, 32-byte hash]", offset, record)
        return offset, frame[1 : -_FRAME_OVERHEAD + 1], frame[-HASH_SIZE:]

    def _decode_body(self, body: bytes, offset: int, record: int) -> Any:
        try:
            value = _decode(body)
        except Exception as error:  # msgpack raises many kinds for damaged data
            self._fail("encoding", f"undecodable msgpack: {type(error).__name__}: {error}", offset, record)
        if nesting_depth(value) > MAX_DEPTH:
            self._fail("encoding", f"values nest deeper than {MAX_DEPTH} levels", offset, record)
        try:
            encoded = canonical(value)
        except (TypeError, ValueError, OverflowError) as error:  # floats, extension types
            self._fail("encoding", str(error), offset, record)
        if encoded != body:
            self._fail("encoding", "the frame body is not in canonical form", offset, record)
        return value

    # -- header ------------------------------------------------------------------------

    def _read_header(self) -> LogHeader:
        frame = self._read_frame(0)
        if frame is None:
            self._fail("truncated", "the file ends after the magic bytes (no header)", self._offset, 0)
        offset, body, digest = frame  # type: ignore[misc]
        value = self._decode_body(body, offset, 0)
        if not isinstance(value, dict) or value.get("format") != FORMAT_NAME:
            self._fail("version", f"the header does not name the format {FORMAT_NAME!r}", offset, 0)
        version = value.get("version")
        if type(version) is not int or version not in FORMAT_VERSIONS:
            self._fail(
                "version",
                f"unsupported format version {version!r} (this reader knows "
                f"{', '.join(map(str, FORMAT_VERSIONS))})",
                offset,
                0,
            )
        if digest != chain(b"", body):
            self._fail("hash", "the header hash does not match the header", offset, 0)
        problem = _header_problem(value)
        if problem:
            self._fail("schema", f"header: {problem}", offset, 0)
        self.head = digest
        return LogHeader(
            game_id=UUID(value["game_id"]),
            seed=value["seed"],
            names=value["names"],
            options=value["options"],
            rules_version=value["rules_version"],
            cards=value["cards"],
            second_cards=value["second_cards"],
            version=value["version"],
            bots=value.get("bots"),
        )

    # -- records and trailer -----------------------------------------------------------

    def records(self) -> Iterator[LogRecord]:
        """The event records in order, each verified; then the trailer is read and checked."""
        if self.trailer is not None:
            return
        count = 0
        while True:
            index = count + 1
            frame = self._read_frame(index)
            if frame is None:
                self._fail(
                    "truncated",
                    f"the log ends after {count} record(s) without a trailer",
                    self._offset,
                    index,
                )
            offset, body, digest = frame  # type: ignore[misc]
            if digest != chain(self.head, body):
                self._fail("hash", "the hash chain is broken here", offset, index)
            value = self._decode_body(body, offset, index)
            if isinstance(value, dict):
                self._finish(value, count, offset, digest)
                return
            if count >= MAX_RECORDS:
                self._fail("count", f"more than {MAX_RECORDS} records", offset, index)
            if not isinstance(value, list) or len(value) != 3:
                self._fail("schema", "a record must be [sequence number, type, values]", offset, index)
            seq, type_name, values = value
            if not isinstance(seq, int) or isinstance(seq, bool):
                self._fail("schema", "the sequence number must be an integer", offset, index)
            payload, problem = decode_payload(type_name, values)
            if problem:
                self._fail("schema", problem, offset, index)
            if seq != index:
                self._fail("sequence", f"record {index} has sequence number {seq}", offset, index)
            self.head = digest
            count = index
            yield LogRecord(seq, type_name, payload, body, digest, offset)

    def _finish(self, value: dict[str, Any], count: int, offset: int, digest: bytes) -> None:
        index = count + 1
        if set(value) != set(TRAILER_FIELDS):
            self._fail("schema", f"the trailer must have exactly {', '.join(TRAILER_FIELDS)}", offset, index)
        events, head, scores = value["events"], value["head"], value["scores"]
        if type_problem(events, int, "events") or type_problem(scores, dict[str, Any] | None, "scores"):
            self._fail(
                "schema", "the trailer's events must be an integer and scores a map or nil", offset, index
            )
        if events != count:
            self._fail(
                "count", f"the trailer counts {events} event(s) but the log has {count}", offset, index
            )
        if head != self.head:
            self._fail("hash", "the trailer's chain head does not match the records", offset, index)
        if self._read(1):
            self._fail("trailing", "data follows the trailer", self._offset - 1, None)
        self.head = digest
        self.trailer = LogTrailer(events, head, scores, digest)

    def read_all(self) -> tuple[list[LogRecord], LogTrailer]:
        """Every record and the trailer (for small logs and tests)."""
        records = list(self.records())
        assert self.trailer is not None
        return records, self.trailer


def _header_problem(value: dict[str, Any]) -> str | None:
    if set(value) - set(OPTIONAL_HEADER_FIELDS) != set(HEADER_FIELDS):
        missing = sorted(set(HEADER_FIELDS) - set(value))
        extra = sorted(map(str, set(value) - set(HEADER_FIELDS) - set(OPTIONAL_HEADER_FIELDS)))
        return f"fields: missing {missing}, unexpected {extra}"
    if ("bots" in value) != (value["version"] == BOTS_FORMAT_VERSION):
        return f"a version {BOTS_FORMAT_VERSION} header, and only one, holds the seats' bots"
    if "bots" in value:
        problem = type_problem(value["bots"], list[dict[str, Any] | None], "bots")
        if problem:
            return problem
    expected: dict[str, Any] = {
        "rules_version": str,
        "game_id": str,
        "seed": int,
        "players": int,
        "names": list[str],
        "cards": dict[str, str],
        "second_cards": dict[str, str] | None,
    }
    problem = fields_problem(value, expected)
    if problem:
        return problem
    try:
        game_id = UUID(value["game_id"])
    except ValueError:
        return f"game_id {value['game_id']!r} is not a UUID"
    if str(game_id) != value["game_id"]:
        return "game_id must be written in the canonical lower-case UUID form"
    if value["players"] != len(value["names"]):
        return f"players is {value['players']} but {len(value['names'])} name(s) are given"
    return None


class NotARegularFileError(ReplayError):
    """A path to read from that is not a regular file, or a file larger than its kind allows."""


MAX_LOG_BYTES = 64 << 20
"""The largest log file a reader opens (a 4-player game's log is about 40 KiB)."""


def open_regular(
    path: str | os.PathLike[str], kind: str = "log file", max_bytes: int = MAX_LOG_BYTES
) -> BinaryIO:
    """Open a user-named file for reading: the one way every command opens one.

    Only a regular file of at most ``max_bytes`` is opened; anything else (a FIFO, a
    device, a folder, a larger file) is a :class:`NotARegularFileError` naming the path
    and the ``kind`` of file expected, at once, never a read that blocks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise NotARegularFileError(f"{path} is a folder, not a {kind}") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFileError(f"{path} is {file_kind(status.st_mode)}, not a {kind}")
        if status.st_size > max_bytes:
            raise NotARegularFileError(f"{path} has {status.st_size} bytes; a {kind} has at most {max_bytes}")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str], kind: str, max_bytes: int) -> bytes:
    """The bytes of a user-named file, opened by :func:`open_regular` (a file that grows
    past ``max_bytes`` while it is read is refused the same way)."""
    with open_regular(path, kind, max_bytes) as stream:
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise NotARegularFileError(f"{path} grew past {max_bytes} bytes; a {kind} has at most that")
    return data


@contextmanager
def open_log(path: str | os.PathLike[str]) -> Iterator[LogReader]:
    """Open a log file for reading (a regular file only); the header is checked at once.

    ``SHARD#ID`` names a game of a shard (replays/shard_games.py): its log is derived
    from the shard, checked against the digest the shard recorded, and read from memory."""
    from cascadia.replays import shard, shard_games  # they build on this module: imported when used

    reference = shard.split_game_ref(path)
    if reference is not None:
        yield shard_games.open_shard_game(*reference)
        return
    with open_regular(path) as stream:
        yield LogReader(stream, str(path))
