"""Audit: re-execute the decisions recorded in a log on a fresh game and compare.

The game is set up with :meth:`Game.start` from the header's seed, names, options and
game id; the header must be exactly the one the engine writes for that game (every
option, the drawn cards) and the game id must be derived from the setup or random
(:func:`game_id_problem`). Every event the engine emits must equal the logged event at
the same sequence number (type and payload, compared as canonical bytes); where the engine waits for a
decision, the logged decision becomes the command it was
(:func:`~cascadia.domain.decisions.command_at`, the inverse of the commands' events) and
is executed. Since the engine draws from the seed, every recorded draw is checked
against the seed. Finally the final score sheet is recomputed and compared with the
trailer's. The first difference is raised as :class:`AuditDivergence`.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from cascadia.domain.commands import Command
from cascadia.domain.decisions import Lookahead, command_at
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import RULES_VERSIONS, GameOptions
from cascadia.replays.errors import AuditDivergence, ReplayError
from cascadia.replays.format import (
    HEADER_FIELDS,
    OPTIONAL_HEADER_FIELDS,
    LogHeader,
    LogReader,
    LogRecord,
    canonical,
    open_log,
    record_bytes,
)
from cascadia.replays.scores import final_score_sheet, first_difference, totals

DERIVED_ID_VERSION = 5
"""The UUID version of a game id derived from the game's setup (:func:`derive_game_id`)."""
RANDOM_ID_VERSION = 4
"""The UUID version of a random game id (a game created with an id of its own)."""


def event_dict(event: GameEvent) -> dict[str, Any]:
    """An event as ``{"seq", "type", "payload"}`` (for messages and JSON)."""
    return {"seq": event.originator_version, "type": event.type, "payload": event.payload()}


def start_game(header: LogHeader, file: str) -> Game:
    """A fresh game set up as the header says, under the rules version it names (a log is
    judged by the rules it was recorded under); a header the rules reject is a divergence."""
    if header.rules_version not in RULES_VERSIONS:
        raise AuditDivergence(
            file,
            "header",
            None,
            f"rules version {header.rules_version!r}",
            f"this engine implements {', '.join(map(repr, RULES_VERSIONS))}",
        )
    try:
        options = GameOptions.from_dict(dict(header.options))
        game = Game.start(
            header.seed,
            list(header.names),
            options,
            game_id=header.game_id,
            rules_version=header.rules_version,
            bots=header.bots,
        )
    except (CascadiaError, TypeError) as error:
        raise AuditDivergence(file, "header", None, "the header's game setup", f"invalid: {error}") from None
    problem = game_id_problem(header, options)
    if problem:
        raise AuditDivergence(file, "header", None, f"game_id {header.game_id}", problem)
    return game


def derived_id(header: LogHeader, options: GameOptions | None = None) -> UUID:
    """The id :func:`derive_game_id` gives the header's deal (seed, seat names, options,
    rules version, bots): the same for every copy of a game, whatever id it is logged
    under (``options``: the header's, parsed, if at hand)."""
    parsed = GameOptions.from_dict(dict(header.options)) if options is None else options
    return derive_game_id(header.seed, header.names, parsed, header.rules_version, header.bots)


def game_id_problem(header: LogHeader, options: GameOptions) -> str | None:
    """What is wrong with the header's game id, or ``None`` (replays/FORMAT.md, "The game
    id"): a derived id (a UUID of version 5) must be :func:`derive_game_id` of the
    header's seed, seat names, options and rules version; a random id (version 4) is bound only by the
    hash chain; no other kind of id is accepted."""
    version = header.game_id.version
    if version == DERIVED_ID_VERSION:
        derived = derived_id(header, options)
        if header.game_id != derived:
            return f"the id derived from the seed, seats, options and rules is {derived}"
        return None
    if version == RANDOM_ID_VERSION:
        return None
    return f"a game id is a derived (version 5) or a random (version 4) UUID, not version {version}"


def header_difference(logged: LogHeader, engine: LogHeader) -> tuple[str, object, object] | None:
    """The first header field (in :data:`HEADER_FIELDS` order) where the log differs from
    the header of the game the engine sets up, as ``(field, logged, engine)``; ``None``
    when the log's header is the canonical one."""
    ours, theirs = logged.body(), engine.body()
    for name in HEADER_FIELDS + OPTIONAL_HEADER_FIELDS:
        if canonical(ours.get(name)) != canonical(theirs.get(name)):
            return name, ours.get(name), theirs.get(name)
    return None


class Audit:
    """The audit of one log, as a stream: :meth:`events` yields each confirmed event (the
    engine's, equal to the logged one) and, at the end, checks the trailer's scores.

    The game is set up on construction; :attr:`header` is the header the engine's own
    setup events give (equal to the log's when the audit passes)."""

    def __init__(self, reader: LogReader) -> None:
        self.reader = reader
        self.file = reader.name
        self.game = start_game(reader.header, self.file)
        self._pending: deque[GameEvent] = deque(self.game.collect_events())
        self.header = LogHeader.from_events(self._pending)
        self.count = 0
        self.scores: dict[str, Any] | None = None
        """The final score sheet, once :meth:`events` has checked the whole log."""
        difference = header_difference(reader.header, self.header)
        if difference:  # e.g. other cards than the seed draws, or options not all written
            name, logged, engine = difference
            raise AuditDivergence(self.file, "header", None, f"{name} {logged}", f"{name} {engine}")

    def events(self) -> Iterator[GameEvent]:
        """Every event of the log, checked against the rules, in order."""
        return (event for event, _ in self.confirmed())

    def confirmed(self) -> Iterator[tuple[GameEvent, bytes]]:
        """Every event of the log, checked against the rules, with its canonical record
        bytes (the engine's event and the logged one, which are equal)."""
        records = Lookahead(self.reader.records())
        while (record := records.next()) is not None:
            if not self._pending:
                self._decide(record, records)
            expected = self._pending.popleft()
            if record_bytes(expected) != record.body:
                kind = "draw" if expected.kind == "draw" and expected.type == record.type else "event"
                raise AuditDivergence(self.file, kind, record.seq, record.as_dict(), event_dict(expected))
            self.count = record.seq
            yield expected, record.body
        if self._pending:
            expected = self._pending[0]
            raise AuditDivergence(
                self.file,
                "missing",
                expected.originator_version,
                f"the log ends after event {self.count}",
                event_dict(expected),
            )
        self._check_scores()

    def _decide(self, record: LogRecord, records: Lookahead[LogRecord]) -> None:
        """Run the command the logged decision stands for; its events become pending."""
        game = self.game
        if game.finished:
            raise AuditDivergence(
                self.file, "unexpected", record.seq, record.as_dict(), f"the game ended at event {self.count}"
            )
        game_id = self.header.game_id
        consulted: list[int] = []

        def ahead(index: int) -> GameEvent | None:
            consulted.append(index)
            following = records.peek(index)
            return following.to_event(game_id) if following is not None else None

        command = command_at(record.to_event(game_id), ahead)
        if command is None:
            raise AuditDivergence(
                self.file,
                "unexpected",
                record.seq,
                record.as_dict(),
                f"a decision of seat {game.current_player} (turn {game.state.turn}) comes next",
            )
        try:
            game.execute(command)
        except CascadiaError as error:
            raise self._refused(record, records, command, consulted, error) from None
        self._pending.extend(game.collect_events())

    def _refused(
        self,
        record: LogRecord,
        records: Lookahead[LogRecord],
        command: Command,
        consulted: list[int],
        error: CascadiaError,
    ) -> AuditDivergence:
        """The divergence of a decision the rules refuse. When the seat may make a decision
        of that kind but its parameters, read ahead (a wipe's slots, from the
        ``WildlifeReplaced`` after its ``NatureTokenSpent``), make it illegal, the record
        they were read from is blamed: that record was removed or forged, not this one."""
        if not consulted or not any(type(legal) is type(command) for legal in self.game.legal_commands()):
            return AuditDivergence(self.file, "illegal", record.seq, record.as_dict(), f"illegal: {error}")
        index = consulted[-1]
        source = records.peek(index)
        reason = f"the record of the parameters of the decision of event {record.seq} (illegal: {error})"
        if source is None:
            seq = record.seq + index + 1
            return AuditDivergence(self.file, "missing", seq, f"the log ends after event {seq - 1}", reason)
        return AuditDivergence(self.file, "event", source.seq, source.as_dict(), reason)

    def _check_scores(self) -> None:
        trailer = self.reader.trailer
        assert trailer is not None
        self.scores = expected = final_score_sheet(self.game.state)
        if canonical(trailer.scores) == canonical(expected):
            return
        if trailer.scores is None or expected is None:
            logged = "no score sheet" if trailer.scores is None else "a score sheet"
            rules = "the game is over: final scores" if expected is not None else "the game is not over: none"
            raise AuditDivergence(self.file, "score", None, logged, rules)
        path, logged_value, rules_value = first_difference(trailer.scores, expected) or ("scores", "?", "?")
        raise AuditDivergence(
            self.file,
            "score",
            None,
            f"{path} = {logged_value!r}",
            f"{path} = {rules_value!r}",
            f"totals {totals(trailer.scores)} vs {totals(expected)}",
        )


@dataclass
class AuditResult:
    """The outcome of auditing one file."""

    file: str
    valid: bool
    game_id: str | None = None
    players: int | None = None
    events: int = 0
    finished: bool = False
    totals: list[int] | None = None
    error: ReplayError | None = None
    io_error: str | None = None

    @property
    def message(self) -> str:
        if self.io_error:
            return self.io_error
        return str(self.error) if self.error else f"{self.file}: valid"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "file": self.file,
            "valid": self.valid,
            "game_id": self.game_id,
            "players": self.players,
            "events": self.events,
            "finished": self.finished,
            "totals": self.totals,
        }
        if self.error is not None:
            data["error"] = {**self.error.to_dict(), "message": str(self.error)}
        elif self.io_error is not None:
            data["error"] = {"error": "io", "message": self.io_error}
        return data


def verify(reader: LogReader) -> tuple[Audit, list[GameEvent]]:
    """Audit a whole log; returns the audit (its game at the end) and the confirmed events.

    Raises :class:`LogFormatError` or :class:`AuditDivergence` at the first problem."""
    audit = Audit(reader)
    return audit, list(audit.events())


def audit_file(path: str | os.PathLike[str]) -> AuditResult:
    """Audit one log file; never raises for a bad or unreadable file (see the result)."""
    result = AuditResult(str(path), valid=False)
    try:
        with open_log(path) as reader:
            result.game_id = str(reader.header.game_id)
            result.players = reader.header.players
            audit = Audit(reader)
            for _ in audit.events():
                pass
            result.events = audit.count
            state = audit.game.state
            result.finished = state.finished
            result.totals = totals(reader.trailer.scores if reader.trailer else None)
            result.valid = True
    except ReplayError as error:
        result.error = error
    except OSError as error:
        result.io_error = f"{path}: {error.strerror or error}"
    return result
