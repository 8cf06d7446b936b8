"""Deterministic rerun: play a log's decisions again from its seed and write a new log.

A plain rerun writes exactly the events the engine emits while the log is audited, so
the output of a valid log is byte-identical to it. A what-if rerun keeps the recorded
decisions of the turns before ``from_turn`` and lets other players (a bot in every seat,
from the command line) play on from there; the new game gets seat names that record the
change, and so its own id, derived from its setup like every game's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from cascadia.domain.decisions import decisions_of
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.replays.audit import Audit
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import LogEncoder, LogHeader, atomic_output, open_log, write_log
from cascadia.replays.scores import final_score_sheet, totals


class RerunError(ReplayError):
    """A what-if rerun that cannot be made (for example a turn outside the game)."""


@dataclass(frozen=True)
class RerunResult:
    source: str
    output: Path
    game_id: UUID
    events: int
    bytes: int
    totals: list[int] | None


def rerun(path: str | os.PathLike[str], output: str | os.PathLike[str]) -> RerunResult:
    """Re-execute the log's decisions from its seed (auditing them) and write the events
    the engine emits as a new log at ``output``; nothing is written if the audit fails."""
    size = 0
    with open_log(path) as reader, atomic_output(output) as out:
        audit = Audit(reader)
        encoder = LogEncoder(audit.header)
        size += out.write(encoder.preamble)
        for _, body in audit.confirmed():
            size += out.write(encoder.event_body(body))
        size += out.write(encoder.trailer(audit.scores))
    return RerunResult(str(path), Path(output), audit.game.id, audit.count, size, totals(audit.scores))


def what_if_names(names: list[str], label: str, from_turn: int) -> list[str]:
    """Seat names that record the change: ``"alice (then greedy from turn 12)"``."""
    return [f"{name} (then {label} from turn {from_turn})" for name in names]


def rerun_from_turn(
    path: str | os.PathLike[str],
    output: str | os.PathLike[str],
    from_turn: int,
    label: str,
    finish: Callable[[Game], object],
) -> RerunResult:
    """Keep the log's decisions before turn ``from_turn``, then let ``finish`` play the
    game to its end (for example bots in every seat: the command line passes them, so
    that this package does not depend on the bots); write the new game's log at ``output``.

    The log is audited first (a what-if starts only from a valid game). The new game has
    the seat names :func:`what_if_names`, and the id derived from them (its log audits
    like any other: replays/FORMAT.md, "The game id")."""
    with open_log(path) as reader:
        audit = Audit(reader)
        for _ in audit.events():
            pass
        header = reader.header
    last_turn = audit.game.state.turn
    if not 1 <= from_turn <= last_turn:
        raise RerunError(f"{path}: --from-turn must be between 1 and {last_turn}, not {from_turn}")
    game = Game.start(
        header.seed,
        what_if_names(header.names, label, from_turn),
        GameOptions.from_dict(dict(header.options)),
        rules_version=header.rules_version,
    )
    with open_log(path) as reader:
        events = (record.to_event(header.game_id) for record in reader.records())
        for decision in decisions_of(events):
            if game.state.turn >= from_turn:
                break
            game.execute(decision.command)
    finish(game)
    if not game.finished:
        raise RerunError(f"{path}: the new players stopped before the end of the game")
    events = game.collect_events()
    scores = final_score_sheet(game.state)
    size = write_log(output, LogHeader.from_events(events), events, scores)
    return RerunResult(str(path), Path(output), game.id, len(events), size, totals(scores))
