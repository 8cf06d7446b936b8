"""The ``cascadia-shard`` file format (replays/SHARD.md): many games of one setup in one file.

A shard holds what its games are made of, not their events: the setup they share (seats,
bots, options, rules version), and per game its seed, its id, its decisions and the
SHA-256 digest of its ``.cascadia`` log. The draws follow from the seed, as a chess PGN
holds the moves and not the positions; re-executing the decisions on a game set up from
the seed gives every event again (:mod:`cascadia.replays.shard_games`), and the digest
says whether they are the events of the log that was recorded, byte for byte.

Layout: the magic bytes, a 4-byte big-endian length, the header (one canonical msgpack
map), the SHA-256 of the header bytes, then the body: the zlib-compressed msgpack array
of the game entries, whose size and SHA-256 the header holds. Nothing may follow the
body. Every size read from a file is bounded before anything is allocated for it.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
from cascadia.domain.commands import (
    COMMAND_TYPES,
    Command,
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.errors import CommandFormatError
from cascadia.replays.errors import LogFormatError, ReplayError
from cascadia.replays.format import canonical, decode_bounded, open_regular, read_regular
from cascadia.replays.schema import fields_problem, type_problem

SHARD_MAGIC = b"\x89CASCADIA-SHARD\r\n\x1a\n"
SHARD_FORMAT = "cascadia-shard"
SHARD_VERSION = 1
SHARD_EXTENSION = ".cascadia-shard"
MAX_SHARD_GAMES = 100_000
"""The most games a reader accepts in one shard."""
MAX_HEADER = 4 << 20
"""The largest header a reader accepts: 4 MiB (a shard of the most games needs 1.7 MiB)."""
MAX_BODY = 256 << 20
"""The largest compressed body a reader accepts: 256 MiB."""
MAX_GAME_BYTES = 64 << 10
"""What one game entry may take uncompressed, on average: 64 kiB (a game takes ~1.2 kiB)."""
MAX_SHARD_BYTES = MAX_HEADER + MAX_BODY + 1024
"""The largest shard file a reader opens: its header, its body and the framing."""
GAME_SEPARATOR = "#"
"""Between a shard's path and a game id: ``shards/000003.cascadia-shard#3f2a9c1e``."""
DIGEST_SIZE = 32
COMPRESSION = "zlib"
COMPRESSION_LEVEL = 6
HEADER_FIELDS = frozenset(
    {
        "format",
        "version",
        "study",
        "index",
        "names",
        "bots",
        "options",
        "rules_version",
        "seeds",
        "game_ids",
        "compression",
        "body_size",
        "body_sha256",
    }
)

# -- decisions -------------------------------------------------------------------------------

DECISION_CODES: tuple[type[Command], ...] = (
    Take,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    WipeThree,
    NatureFreeChoice,
    NatureWipe,
)
"""A decision is stored as ``[code, *values]``: the code is its command's index here (fixed
by the format version: a new command takes a new code at the end), the values its
fields in declaration order (``NatureWipe``: the slots)."""
_CODE_OF = {cls: code for code, cls in enumerate(DECISION_CODES)}


_ENCODERS: dict[type[Command], Callable[[Any], list[int]]] = {
    Take: lambda c: [0, c.tile_slot, c.wildlife_slot],
    PlaceTile: lambda c: [1, c.q, c.r, c.rotation],
    PlaceWildlife: lambda c: [2, c.q, c.r],
    ReturnWildlife: lambda c: [3],
    WipeThree: lambda c: [4],
    NatureFreeChoice: lambda c: [5],
    NatureWipe: lambda c: [6, *c.slots],
}
_ARITY = {Take: 2, PlaceTile: 3, PlaceWildlife: 2, ReturnWildlife: 0, WipeThree: 0, NatureFreeChoice: 0}


def encode_decision(command: Command) -> list[int]:
    """The stored form of a decision: ``take 1 3`` -> ``[0, 1, 3]``, ``tile 1 0 r3`` ->
    ``[1, 1, 0, 3]``, ``nature wipe 0,2`` -> ``[6, 0, 2]``."""
    return _ENCODERS[type(command)](command)


def decode_decision(value: Any) -> Command:
    """The command of a stored decision; :class:`CommandFormatError` for anything else."""
    if not isinstance(value, list) or not value or not all(type(v) is int for v in value):
        raise CommandFormatError(f"a decision is [code, values...] of whole numbers, not {value!r}")
    code, *values = value
    if not 0 <= code < len(DECISION_CODES):
        raise CommandFormatError(f"unknown decision code {code}")
    cls = DECISION_CODES[code]
    if cls is NatureWipe:
        return NatureWipe(tuple(values))
    if len(values) != _ARITY[cls]:
        raise CommandFormatError(f"a {cls.type} decision has {_ARITY[cls]} value(s), not {len(values)}")
    return cls(*values)  # type: ignore[call-arg]


assert set(DECISION_CODES) == set(_ENCODERS) == set(COMMAND_TYPES.values()), (
    "every command has a decision code"
)

# -- values ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShardSetup:
    """What every game of a shard shares: seat names, their bots, options and rules version."""

    names: list[str]
    bots: list[dict[str, Any] | None] | None
    options: dict[str, Any]
    rules_version: str


@dataclass(frozen=True, slots=True)
class ShardGame:
    """One game of a shard: its seed, id and decisions, the digest of its log, and totals."""

    seed: int
    game_id: UUID
    decisions: list[Command]
    log_digest: bytes
    """The SHA-256 of the game's whole ``.cascadia`` log (the hash of its trailer frame)."""
    totals: list[int]


@dataclass(frozen=True, slots=True)
class ShardHeader:
    """What a shard says before its body: its study, its index there, the setup, the seeds
    and ids of its games in order, and the size and digest of the body."""

    study: str
    index: int
    setup: ShardSetup
    seeds: list[int]
    game_ids: list[UUID]
    body_size: int
    body_sha256: bytes

    def body(self) -> dict[str, Any]:
        return {
            "format": SHARD_FORMAT,
            "version": SHARD_VERSION,
            "study": self.study,
            "index": self.index,
            "names": list(self.setup.names),
            "bots": self.setup.bots,
            "options": dict(self.setup.options),
            "rules_version": self.setup.rules_version,
            "seeds": list(self.seeds),
            "game_ids": b"".join(game_id.bytes for game_id in self.game_ids),
            "compression": COMPRESSION,
            "body_size": self.body_size,
            "body_sha256": self.body_sha256,
        }


class ShardFormatError(LogFormatError):
    """A file that is not a well-formed, intact ``cascadia-shard``: ``kind`` as for logs
    (``magic``, ``truncated``, ``length``, ``count``, ``encoding``, ``version``, ``schema``,
    ``hash``, ``trailing``), ``offset`` the byte where it was found, ``record`` the game."""


# -- writing -------------------------------------------------------------------------------


def encode_shard(study: str, index: int, setup: ShardSetup, games: Sequence[ShardGame]) -> bytes:
    """The bytes of a shard: the same games always give the same bytes."""
    if not games or len(games) > MAX_SHARD_GAMES:
        raise ValueError(f"a shard holds 1 to {MAX_SHARD_GAMES} games, not {len(games)}")
    entries = [
        [game.seed, [encode_decision(c) for c in game.decisions], game.log_digest, list(game.totals)]
        for game in games
    ]
    body = zlib.compress(msgpack.packb(entries, use_bin_type=True), COMPRESSION_LEVEL)  # no maps: canonical
    header = ShardHeader(
        study,
        index,
        setup,
        [game.seed for game in games],
        [game.game_id for game in games],
        len(body),
        sha256(body).digest(),
    )
    header_bytes = canonical(header.body())
    return b"".join(
        (SHARD_MAGIC, len(header_bytes).to_bytes(4, "big"), header_bytes, sha256(header_bytes).digest(), body)
    )


# -- reading -------------------------------------------------------------------------------


class ShardReader:
    """Reads and verifies one shard file: the header at once, the games on demand.

    Every failure is a :class:`ShardFormatError` naming the file, the byte and what is
    wrong. :meth:`games` checks the body's size and digest before decompressing it, and
    decompresses at most :data:`MAX_GAME_BYTES` per game the header announces."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.name = str(path)
        self._data = read_regular(path, "shard", MAX_SHARD_BYTES)
        self.header = self._read_header()

    def _fail(self, kind: str, reason: str, offset: int | None, game: int | None = None) -> None:
        raise ShardFormatError(self.name, kind, reason, offset, game)

    def _read_header(self) -> ShardHeader:
        data = self._data
        start = len(SHARD_MAGIC)
        if data[:start] != SHARD_MAGIC:
            if data and SHARD_MAGIC.startswith(data):
                self._fail("truncated", "the file ends inside the magic bytes", 0)
            self._fail("magic", f"not a {SHARD_FORMAT} file (wrong magic bytes)", 0)
        if len(data) < start + 4:
            self._fail("truncated", "the file ends inside the header length", start)
        size = int.from_bytes(data[start : start + 4], "big")
        if not 0 < size <= MAX_HEADER:
            self._fail("length", f"header length {size} is not within 1..{MAX_HEADER}", start)
        header_bytes = data[start + 4 : start + 4 + size]
        digest = data[start + 4 + size : start + 4 + size + DIGEST_SIZE]
        if len(digest) < DIGEST_SIZE:
            self._fail("truncated", f"the file ends inside the header ({len(data)} bytes)", start + 4)
        if sha256(header_bytes).digest() != digest:
            self._fail("hash", "the header's SHA-256 does not match the header", start + 4 + size)
        self._body_offset = start + 4 + size + DIGEST_SIZE
        try:
            value = decode_bounded(header_bytes)
        except ValueError as error:
            self._fail("encoding", str(error), start + 4)
        return self._header_of(value, start + 4)

    def _header_of(self, value: Any, offset: int) -> ShardHeader:
        if not isinstance(value, dict) or value.get("format") != SHARD_FORMAT:
            self._fail("version", f"the header does not name the format {SHARD_FORMAT!r}", offset)
        if value.get("version") != SHARD_VERSION:
            self._fail("version", f"unsupported shard version {value.get('version')!r}", offset)
        if set(value) != HEADER_FIELDS:
            self._fail("schema", f"header fields: expected {', '.join(sorted(HEADER_FIELDS))}", offset)
        problem = _header_problem(value)
        if problem:
            self._fail("schema", f"header: {problem}", offset)
        ids = value["game_ids"]
        return ShardHeader(
            value["study"],
            value["index"],
            ShardSetup(value["names"], value["bots"], value["options"], value["rules_version"]),
            value["seeds"],
            [UUID(bytes=ids[i : i + 16]) for i in range(0, len(ids), 16)],
            value["body_size"],
            value["body_sha256"],
        )

    def verify(self) -> bytes:
        """The body, after checking its size and its SHA-256 against the header (every
        byte of an intact shard is then covered by a digest)."""
        header, offset = self.header, self._body_offset
        body = self._data[offset:]
        if len(body) < header.body_size:
            self._fail(
                "truncated",
                f"the file ends inside the body ({len(body)} of its {header.body_size} bytes)",
                offset,
            )
        if len(body) > header.body_size:
            self._fail("trailing", "data follows the body", offset + header.body_size)
        if sha256(body).digest() != header.body_sha256:
            self._fail("hash", "the body's SHA-256 does not match the header", offset)
        return body

    def games(self) -> list[ShardGame]:
        """Every game of the shard, in order, after checking the body whole."""
        header, offset = self.header, self._body_offset
        body = self.verify()
        limit = MAX_GAME_BYTES * len(header.seeds)
        inflate = zlib.decompressobj()
        try:
            raw = inflate.decompress(body, limit)
        except zlib.error as error:
            self._fail("encoding", f"the body does not decompress: {error}", offset)
        if inflate.unconsumed_tail or not inflate.eof:
            self._fail("length", "the body decompresses to more than its games may take", offset)
        try:
            entries = decode_bounded(raw)
        except ValueError as error:
            self._fail("encoding", str(error), offset)
        if not isinstance(entries, list) or len(entries) != len(header.seeds):
            self._fail("count", f"the body must hold {len(header.seeds)} game(s)", offset)
        return [self._game(i, entry, offset) for i, entry in enumerate(entries)]

    def _game(self, index: int, entry: Any, offset: int) -> ShardGame:
        header = self.header
        if not isinstance(entry, list) or len(entry) != 4:
            self._fail("schema", "a game is [seed, decisions, log digest, totals]", offset, index)
        seed, decisions, digest, totals = entry
        if seed != header.seeds[index]:
            self._fail("schema", f"seed {seed!r}, where the header says {header.seeds[index]}", offset, index)
        if not isinstance(digest, bytes) or len(digest) != DIGEST_SIZE:
            self._fail("schema", "a game's log digest is 32 bytes", offset, index)
        if type_problem(totals, list[int], "totals") or type_problem(decisions, list[list[int]], "decisions"):
            self._fail("schema", "a game's totals and decisions are lists of integers", offset, index)
        try:
            commands = [decode_decision(d) for d in decisions]
        except CommandFormatError as error:
            self._fail("schema", f"game {header.game_ids[index]}: {error}", offset, index)
        return ShardGame(seed, header.game_ids[index], commands, digest, totals)


def _header_problem(value: dict[str, Any]) -> str | None:
    expected: dict[str, Any] = {
        "study": str,
        "index": int,
        "names": list[str],
        "bots": list[dict[str, Any] | None] | None,
        "rules_version": str,
        "seeds": list[int],
        "game_ids": bytes,
        "compression": str,
        "body_size": int,
        "body_sha256": bytes,
    }
    problem = fields_problem(value, expected)
    if problem:
        return problem
    games = len(value["seeds"])
    if not 0 < games <= MAX_SHARD_GAMES:
        return f"a shard holds 1 to {MAX_SHARD_GAMES} games, not {games}"
    if len(value["game_ids"]) != 16 * games:
        return f"game_ids must hold {games} ids of 16 bytes"
    if value["compression"] != COMPRESSION:
        return f"unknown compression {value['compression']!r}"
    if not 0 < value["body_size"] <= MAX_BODY or len(value["body_sha256"]) != DIGEST_SIZE:
        return "body_size or body_sha256 out of range"
    return None


def is_shard(path: str | os.PathLike[str]) -> bool:
    """Whether the regular file at ``path`` starts like a shard (no error if it does not)."""
    try:
        with open_regular(path, "shard", MAX_SHARD_BYTES) as stream:
            return stream.read(len(SHARD_MAGIC)) == SHARD_MAGIC
    except (OSError, ReplayError):
        return False


def split_game_ref(path: str | os.PathLike[str]) -> tuple[Path, str] | None:
    """``(shard path, id prefix)`` of a ``SHARD#ID`` reference, or ``None`` when ``path``
    is a plain path (an existing file is always taken as itself, ``#`` and all)."""
    text = os.fspath(path)
    if GAME_SEPARATOR not in text or os.path.lexists(text):
        return None
    shard, _, prefix = text.rpartition(GAME_SEPARATOR)
    return Path(shard), prefix
