"""Step-through replay of a log: the game state after any event, or turn after turn.

A log is audited in full before anything is shown (so a tampered log is reported, not
rendered); then its events are folded with ``evolve`` in a second streaming pass.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cascadia.domain.decisions import Decision, with_decisions
from cascadia.domain.state import GameState, evolve
from cascadia.domain.timeline import TurnPoints
from cascadia.projections.player_view import EVERYTHING, player_view
from cascadia.replays.audit import Audit
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import LogHeader, open_log
from cascadia.replays.scores import score_sheet


class ReplayRangeError(ReplayError):
    """An event number outside the log."""


@dataclass
class Snapshot:
    """The state of a game at one point of its log, with the scores of its boards there."""

    version: int
    """The number of events applied."""
    turn: int
    """Completed turns (0: the end of setup)."""
    state: GameState
    scores: dict[str, Any]
    decisions: list[Decision] = field(default_factory=list)
    """The decisions made since the previous snapshot (none for the first)."""

    @property
    def label(self) -> str:
        if self.state.finished:
            return f"game over after turn {self.turn} (event {self.version})"
        if self.turn == 0:
            return f"after setup (event {self.version})"
        return f"after turn {self.turn} (event {self.version})"

    def to_dict(self) -> dict[str, Any]:
        view = player_view(self.state, EVERYTHING)
        return {
            "version": self.version,
            "turn": self.turn,
            "finished": self.state.finished,
            "scores": view.pop("scores"),
            "state": view,
            "decisions": [decision.to_dict() for decision in self.decisions],
        }


def _snapshot(state: GameState, decisions: list[Decision]) -> Snapshot:
    completed = state.turn if state.finished else state.turn - 1
    return Snapshot(state.version, max(completed, 0), state.copy(), score_sheet(state), list(decisions))


def replay_log(path: str | os.PathLike[str], to: int | None = None) -> tuple[LogHeader, Iterator[Snapshot]]:
    """Audit the log, then return its header and its snapshots: the state after event
    ``to`` alone, or the state after setup and after each turn (a turn's automatic
    events, such as a mandatory wipe, included) and at the end of the log."""
    with open_log(path) as reader:
        audit = Audit(reader)
        for _ in audit.events():
            pass
        total = audit.count
    if to is not None and not 1 <= to <= total:
        raise ReplayRangeError(f"{path}: the log has events 1 to {total}, not {to}")
    return audit.header, _snapshots(path, audit.header, to)


def _snapshots(path: str | os.PathLike[str], header: LogHeader, to: int | None) -> Iterator[Snapshot]:
    state = GameState(header.game_id)
    points = TurnPoints()
    decisions: list[Decision] = []
    shown = -1
    with open_log(path) as reader:
        events = (record.to_event(header.game_id) for record in reader.records())
        for event, decision in with_decisions(events):
            if points.before(event) is not None and to is None:
                yield _snapshot(state, decisions)
                decisions.clear()
                shown = state.version
            evolve(state, event)
            if decision is not None:
                decisions.append(decision)
            if event.originator_version == to:
                yield _snapshot(state, decisions)
                return
    if to is None and shown != state.version:
        yield _snapshot(state, decisions)
