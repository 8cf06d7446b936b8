"""Where two logs first diverge, and a summary of how they differ.

Both logs are read in step, one record at a time, with their framing and hash chains
verified (a damaged file is an error, not a difference); events are compared by their
canonical bytes (sequence number, type and payload). ``GameStarted`` is compared as
part of the header (it holds the same seed, names and options), so two games that differ
only in their seat names diverge where their play does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from cascadia.replays.format import LogRecord, open_log
from cascadia.replays.scores import totals


@dataclass
class LogDiff:
    """How log ``a`` and log ``b`` differ (``identical`` when they do not)."""

    a: str
    b: str
    header: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    """Header fields that differ: ``field -> (a's value, b's value)``."""
    first_seq: int | None = None
    """The sequence number of the first event that differs (or that only one log has)."""
    first_a: dict[str, Any] | None = None
    first_b: dict[str, Any] | None = None
    differing_events: int = 0
    """How many sequence numbers hold different events (or an event in one log only)."""
    events: tuple[int, int] = (0, 0)
    turns: tuple[int, int] = (0, 0)
    totals: tuple[list[int] | None, list[int] | None] = (None, None)
    winners: tuple[Any, Any] = (None, None)
    scores_differ: bool = False

    @property
    def identical(self) -> bool:
        return not self.header and self.first_seq is None and not self.scores_differ

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "identical": self.identical,
            "header": {k: {"a": va, "b": vb} for k, (va, vb) in self.header.items()},
            "first_divergence": None
            if self.first_seq is None
            else {"seq": self.first_seq, "a": self.first_a, "b": self.first_b},
            "differing_events": self.differing_events,
            "events": {"a": self.events[0], "b": self.events[1]},
            "turns": {"a": self.turns[0], "b": self.turns[1]},
            "totals": {"a": self.totals[0], "b": self.totals[1]},
            "winners": {"a": self.winners[0], "b": self.winners[1]},
            "scores_differ": self.scores_differ,
        }


def _turns(record: LogRecord | None, current: int) -> int:
    if record is not None and record.type == "TurnEnded":
        return record.payload["turn"]
    return current


def _both_started(a: LogRecord | None, b: LogRecord | None) -> bool:
    return a is not None and b is not None and a.type == b.type == "GameStarted"


def diff_logs(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> LogDiff:
    """Compare two logs record by record (streaming both)."""
    result = LogDiff(str(a), str(b))
    with open_log(a) as reader_a, open_log(b) as reader_b:
        body_a, body_b = reader_a.header.body(), reader_b.header.body()
        result.header = {
            k: (body_a.get(k), body_b.get(k)) for k in body_a | body_b if body_a.get(k) != body_b.get(k)
        }
        turns_a = turns_b = 0
        for record_a, record_b in zip_longest(reader_a.records(), reader_b.records()):
            turns_a, turns_b = _turns(record_a, turns_a), _turns(record_b, turns_b)
            if record_a is not None and record_b is not None and record_a.body == record_b.body:
                continue
            if _both_started(record_a, record_b):
                continue  # everything GameStarted holds is in the header, compared above
            result.differing_events += 1
            if result.first_seq is None:
                result.first_seq = (record_a or record_b).seq  # type: ignore[union-attr]
                result.first_a = record_a.as_dict() if record_a else None
                result.first_b = record_b.as_dict() if record_b else None
        trailer_a, trailer_b = reader_a.trailer, reader_b.trailer
    assert trailer_a is not None and trailer_b is not None
    result.events = (trailer_a.events, trailer_b.events)
    result.turns = (turns_a, turns_b)
    result.totals = (totals(trailer_a.scores), totals(trailer_b.scores))
    result.winners = tuple(  # type: ignore[assignment]
        s.get("winners") if isinstance(s, dict) else None for s in (trailer_a.scores, trailer_b.scores)
    )
    result.scores_differ = trailer_a.scores != trailer_b.scores
    return result
