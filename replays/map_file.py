"""Achievement-map files (``.cascadia-map``) and their audit across aggregates.

A map file is UTF-8 JSON Lines: a header line ``{"format": "cascadia-map", "version":
1, "map_id": ..., "name": ...}``, then one line per event ``{"seq", "type", "payload",
"hash"}`` where ``hash`` is the hex SHA-256 of the previous line's hash (the header's:
of nothing) and the canonical bytes of this line's ``[seq, type, payload]`` (the
``cascadia-log`` canonical msgpack). Lines are at most :data:`MAX_LINE` bytes, a file
holds at most :data:`MAX_EVENTS` events; anything else is a :class:`MapFileError`
naming the line.

The audit re-executes the map from its first event: every ``PlayerJoined`` as a join,
every ``AchievementMarked`` as the mark command, checked against the facts of the game
it names (read from that game's audited log, or from the event store), so a mark that
the rules of RULES.md 8.1 refuse, or a cell that does not follow, fails with the mark
named.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import Any
from uuid import UUID

from cascadia.domain.achievement_map import (
    MAP_EVENTS,
    AchievementMap,
    AchievementMapError,
    AchievementMarked,
    GameFacts,
    GameRecorded,
    MapCreated,
    MapEvent,
    PlayerJoined,
)
from cascadia.domain.errors import CascadiaError
from cascadia.projections.achievement_progress import game_facts
from cascadia.replays.audit import verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import atomic_output, canonical, loads_bounded, open_log, open_regular

FORMAT_NAME = "cascadia-map"
FORMAT_VERSION = 1
EXTENSION = ".cascadia-map"
MAX_LINE = 64 * 1024
MAX_EVENTS = 10_000
MAX_MAP_BYTES = 16 << 20
"""The largest map file a reader opens (a campaign's map is a few KiB)."""
_EVENT_TYPES = {cls.__name__: cls for cls in MAP_EVENTS}

FactsSource = Callable[[str], GameFacts]
"""The facts of a game by its id (from logs or from the store); raises
:class:`MapAuditError` when the game cannot be found."""


class MapFileError(ReplayError):
    """A map file that is not a well-formed, intact ``cascadia-map`` file."""

    def __init__(self, file: str, line: int | None, reason: str) -> None:
        self.file, self.line, self.reason = file, line, reason
        where = f" (line {line})" if line is not None else ""
        super().__init__(f"{file}{where}: {reason}")

    def to_dict(self) -> dict[str, Any]:
        return {"error": "map-format", "line": self.line, "reason": self.reason}


class MapAuditError(ReplayError):
    """A map whose history the rules refuse: ``seq`` names the event (a mark)."""

    def __init__(self, file: str, seq: int | None, reason: str) -> None:
        self.file, self.seq, self.reason = file, seq, reason
        where = f" (event {seq})" if seq is not None else ""
        super().__init__(f"{file}{where}: {reason}")

    def to_dict(self) -> dict[str, Any]:
        return {"error": "map-audit", "seq": self.seq, "reason": self.reason}


# -- writing -------------------------------------------------------------------------------


def _link(previous: str, body: list[Any]) -> str:
    return sha256(bytes.fromhex(previous) + canonical(body)).hexdigest()


def _header(map_id: UUID, name: str) -> dict[str, Any]:
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "map_id": str(map_id), "name": name}


def map_lines(events: list[MapEvent]) -> Iterator[str]:
    """The lines of a map file for ``events`` (a map's whole history, from MapCreated)."""
    first = events[0]
    if not isinstance(first, MapCreated):
        raise MapFileError("<map>", None, "a map's events start with MapCreated")
    header = _header(first.originator_id, first.name)
    previous = sha256(canonical(header)).hexdigest()
    yield json.dumps(header, sort_keys=True, separators=(",", ":"))
    for event in events:
        body = [event.originator_version, event.type, event.payload()]
        previous = _link(previous, body)
        line = {"seq": body[0], "type": body[1], "payload": body[2], "hash": previous}
        yield json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def write_map_file(path: str | os.PathLike[str], events: list[MapEvent]) -> int:
    """Write a map file atomically; returns its size in bytes."""
    data = "".join(line + "\n" for line in map_lines(events)).encode()
    with atomic_output(path) as out:
        out.write(data)
    return len(data)


# -- reading -------------------------------------------------------------------------------


def read_map_file(path: str | os.PathLike[str]) -> list[MapEvent]:
    """The events of a map file, checked for framing and the hash chain (not the rules:
    see :func:`audit_map`)."""
    name = str(path)
    events: list[MapEvent] = []
    with open_regular(path, "map file", MAX_MAP_BYTES) as handle:
        header = _json_line(name, 1, handle.readline(MAX_LINE + 1))
        if header is None or not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
            raise MapFileError(name, 1, f"not a {FORMAT_NAME} file (no {FORMAT_NAME} header)")
        if header.get("version") != FORMAT_VERSION:
            raise MapFileError(name, 1, f"format version {header.get('version')!r}; this reader knows 1")
        map_id = _uuid(name, 1, header.get("map_id"))
        if set(header) != {"format", "version", "map_id", "name"}:
            raise MapFileError(name, 1, "the header has other fields than format, version, map_id, name")
        previous = sha256(canonical(header)).hexdigest()
        number = 1
        while raw := handle.readline(MAX_LINE + 1):
            number += 1
            if number - 1 > MAX_EVENTS:
                raise MapFileError(name, number, f"more than {MAX_EVENTS} events")
            line = _json_line(name, number, raw)
            event, previous = _event(name, number, line, map_id, previous, len(events) + 1)
            events.append(event)
    if not events or not isinstance(events[0], MapCreated) or events[0].name != header.get("name"):
        raise MapFileError(name, 2, "the first event is not the MapCreated of the header's map")
    return events


def _json_line(name: str, number: int, raw: bytes) -> Any:
    if len(raw) > MAX_LINE:
        raise MapFileError(name, number, f"a line longer than {MAX_LINE} bytes")
    if not raw.endswith(b"\n"):
        raise MapFileError(name, number, "the file ends inside a line (truncated)")
    try:
        return loads_bounded(raw)
    except ValueError as error:
        raise MapFileError(name, number, f"not a JSON line ({error})") from None


def _uuid(name: str, number: int, value: Any) -> UUID:
    try:
        return UUID(value)
    except (TypeError, ValueError, AttributeError):
        raise MapFileError(name, number, f"not a map id: {value!r}") from None


def _event(name: str, number: int, line: Any, map_id: UUID, previous: str, seq: int) -> tuple[MapEvent, str]:
    if not isinstance(line, dict) or set(line) != {"seq", "type", "payload", "hash"}:
        raise MapFileError(name, number, "an event line has exactly seq, type, payload and hash")
    if line["seq"] != seq:
        raise MapFileError(name, number, f"event {line['seq']!r} where event {seq} belongs")
    cls = _EVENT_TYPES.get(line["type"]) if isinstance(line["type"], str) else None
    if cls is None:
        raise MapFileError(name, number, f"unknown event type {line['type']!r}")
    body = [line["seq"], line["type"], line["payload"]]
    try:
        expected = _link(previous, body)
    except TypeError as error:
        raise MapFileError(name, number, f"a value a map file cannot hold: {error}") from None
    if line["hash"] != expected:
        raise MapFileError(name, number, "the hash chain is broken (the file was changed)")
    try:
        event = cls(map_id, seq, **line["payload"])
    except TypeError:
        raise MapFileError(name, number, f"the fields of {line['type']} are wrong") from None
    return event, expected


# -- the audit -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MapAuditResult:
    file: str
    map_id: str
    players: int
    marks: int
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {**vars(self), "valid": True}


def audit_map(file: str, events: list[MapEvent], facts_of: FactsSource) -> MapAuditResult:
    """Re-execute the map's history against the rules and the facts of every game a mark
    names; raises :class:`MapAuditError` at the first event the rules refuse."""
    first = events[0]
    assert isinstance(first, MapCreated)
    rebuilt = AchievementMap.create(first.originator_id, first.name)
    games: set[str] = set()
    for event in events[1:]:
        try:
            if isinstance(event, PlayerJoined):
                rebuilt.join(event.player)
            elif isinstance(event, AchievementMarked):
                games.add(event.game_id)
                rebuilt.mark(event.player, facts_of(event.game_id), event.achievement)
            elif isinstance(event, GameRecorded):
                games.add(event.game_id)
                rebuilt.record_game(facts_of(event.game_id))
            else:
                raise MapAuditError(file, event.originator_version, f"a second {event.type}")
        except AchievementMapError as error:
            refusal = f"{_describe(event)} is refused: {error}"
            raise MapAuditError(file, event.originator_version, refusal) from None
        emitted = rebuilt.collect_events()[-1]
        if emitted != event:
            raise MapAuditError(
                file, event.originator_version, f"{_describe(event)}: the rules record {emitted.payload()}"
            )
    marks = sum(isinstance(e, AchievementMarked) for e in events)
    return MapAuditResult(file, str(first.originator_id), len(rebuilt.state.paths), marks, len(games))


def _describe(event: MapEvent) -> str:
    if isinstance(event, AchievementMarked):
        return f"the mark of {event.achievement!r} by {event.player!r} for game {event.game_id}"
    return event.type


def facts_from_logs(paths: list[Path]) -> FactsSource:
    """A facts source over game logs: each log is audited in full (a mark can only rest
    on a valid game), and its final state gives the facts."""
    by_id: dict[str, Path] = {}
    for path in paths:
        with open_log(path) as reader:
            by_id[str(reader.header.game_id)] = path
    cache: dict[str, GameFacts] = {}

    def facts_of(game_id: str) -> GameFacts:
        if game_id not in cache:
            if game_id not in by_id:
                raise AchievementMapError(f"no log of game {game_id} was given")
            try:
                with open_log(by_id[game_id]) as reader:
                    audit, _ = verify(reader)
            except CascadiaError as error:
                raise AchievementMapError(f"the log of game {game_id} does not audit: {error}") from None
            cache[game_id] = game_facts(audit.game.state)
        return cache[game_id]

    return facts_of
