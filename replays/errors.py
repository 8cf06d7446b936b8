"""Typed errors of the replay tools: a malformed log file, and a log that the rules disagree with.

Both are :class:`~cascadia.domain.errors.CascadiaError` subclasses, so the command line
reports them as one line (``error: ...``) with exit code 1, never a traceback.
"""

from __future__ import annotations

from typing import Any

from cascadia.domain.errors import CascadiaError


class ReplayError(CascadiaError):
    """Base of the errors raised by the replay tools."""

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data (for ``--json`` output)."""
        return {"error": "replay", "reason": str(self)}


class LogFormatError(ReplayError):
    """A log file that is not a well-formed, intact ``cascadia-log``.

    ``kind`` names the check that failed (one of :data:`FORMAT_ERROR_KINDS`), ``offset``
    is the byte offset of the damaged frame (or of the end of the data) and ``record`` the
    number of the frame counted from 0 for the header (record ``n`` is event ``n``).
    """

    def __init__(
        self, file: str, kind: str, reason: str, offset: int | None = None, record: int | None = None
    ):
        self.file = file
        self.kind = kind
        self.reason = reason
        self.offset = offset
        self.record = record
        where = []
        if record is not None:
            where.append("header" if record == 0 else f"record {record}")
        if offset is not None:
            where.append(f"byte {offset}")
        location = f" ({', '.join(where)})" if where else ""
        super().__init__(f"{file}{location}: {reason}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": "format",
            "kind": self.kind,
            "record": self.record,
            "offset": self.offset,
            "reason": self.reason,
        }


FORMAT_ERROR_KINDS = (
    "magic",  # the file does not start with the log's magic bytes
    "truncated",  # the data ends inside a frame or before the trailer
    "length",  # a frame length of 0 or over the limit
    "count",  # too many records, or the trailer's event count is wrong
    "encoding",  # a frame is not one canonical msgpack value
    "version",  # an unknown format name or format version
    "schema",  # a frame of the wrong shape or with values of the wrong type
    "hash",  # a broken hash chain
    "sequence",  # a record out of sequence
    "trailing",  # data after the trailer
)
"""The values of :attr:`LogFormatError.kind`."""


class AuditDivergence(ReplayError):
    """A well-formed log whose events are not what the rules produce.

    ``seq`` is the sequence number of the first diverging event (``None`` for the header
    or the trailer); ``logged`` is what the log says there and ``expected`` what the
    rules say. ``kind`` is one of :data:`DIVERGENCE_KINDS`.
    """

    def __init__(
        self,
        file: str,
        kind: str,
        seq: int | None,
        logged: Any,
        expected: Any,
        reason: str = "",
    ):
        self.file = file
        self.kind = kind
        self.seq = seq
        self.logged = logged
        self.expected = expected
        self.reason = reason
        where = "header" if kind == "header" else "trailer" if seq is None else f"event {seq}"
        text = (
            f"{file}: diverges at {where} ({kind}): log says {_brief(logged)}; rules say {_brief(expected)}"
        )
        if reason:
            text += f" ({reason})"
        super().__init__(text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": "divergence",
            "kind": self.kind,
            "seq": self.seq,
            "logged": self.logged,
            "expected": self.expected,
            "reason": self.reason,
        }


DIVERGENCE_KINDS = (
    "header",  # the header contradicts the game it starts (rules version, cards ...)
    "illegal",  # a recorded decision that the rules do not allow
    "draw",  # a recorded draw that is not the seed's draw
    "event",  # any other event that differs from the one the rules produce
    "unexpected",  # an event where the rules wait for a decision
    "missing",  # the log ends where the rules still produce events
    "score",  # the trailer's score sheet does not match the boards
)
"""The values of :attr:`AuditDivergence.kind`."""


def _brief(value: Any, limit: int = 300) -> str:
    """A one-line rendering of an event or value for messages."""
    if isinstance(value, dict) and "type" in value and "payload" in value:
        payload = ", ".join(f"{k}={v!r}" for k, v in value["payload"].items())
        text = f"{value['type']}({payload})"
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
