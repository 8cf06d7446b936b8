"""The games of a shard as logs: recorded from a finished game, re-derived, audited, exported.

A shard game is its seed and decisions (replays/shard.py). :func:`derive_game` sets the
game up from the shard's setup and the seed, executes every decision (the engine draws
every tile and token from the seed, and refuses an illegal decision), and encodes the
``.cascadia`` log of the events it emits with the final score sheet; the SHA-256 of that
log must be the digest the shard recorded, so the log is the recorded one, byte for byte.
Any difference is an :class:`~cascadia.replays.errors.AuditDivergence` naming the game.

A game of a shard is named ``SHARD#ID`` wherever a log file is expected (``replay``,
``view``, ``analyse``, ``rerun``, ``diff``; :func:`~cascadia.replays.format.open_log`):
the shard's path, ``#``, and the game's id or at least its first 4 characters.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cascadia.domain.commands import Command
from cascadia.domain.decisions import decisions_of
from cascadia.domain.errors import CascadiaError
from cascadia.domain.events import GameEvent
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.replays.audit import AuditResult, game_id_problem
from cascadia.replays.errors import AuditDivergence, ReplayError
from cascadia.replays.format import LogEncoder, LogHeader, LogReader
from cascadia.replays.scores import final_score_sheet, totals
from cascadia.replays.shard import GAME_SEPARATOR, ShardGame, ShardHeader, ShardReader, ShardSetup

MIN_PREFIX = 4


class ShardGameNotFoundError(ReplayError, LookupError):
    """No game (or more than one) of a shard has the id asked for."""


def log_frames(events: Sequence[GameEvent], scores: dict[str, Any] | None) -> tuple[list[bytes], bytes]:
    """The frames of the log of a game's events and final scores, and the log's digest
    (the hash of its trailer frame, which covers every byte before it)."""
    encoder = LogEncoder(LogHeader.from_events(events))
    frames = [encoder.preamble, *(encoder.event(event) for event in events), encoder.trailer(scores)]
    return frames, encoder.head


def record_game(
    game: Game, events: Sequence[GameEvent], scores: dict[str, Any], decisions: list[Command] | None = None
) -> ShardGame:
    """What a shard keeps of a finished game whose events (all of them) are ``events`` and
    whose final score sheet is ``scores``; ``decisions``: the commands the game executed,
    if they were kept while it was played (else they are read from the events)."""
    digest = LogEncoder(LogHeader.from_events(events)).digest(events, scores)
    return ShardGame(
        seed=game.state.seed,
        game_id=game.id,
        decisions=[d.command for d in decisions_of(events)] if decisions is None else list(decisions),
        log_digest=digest,
        totals=totals(scores) or [],
    )


@dataclass(frozen=True)
class DerivedGame:
    """A shard game played again: the finished game, its events and its log's bytes."""

    game: Game
    events: list[GameEvent]
    log: bytes


def derive_game(setup: ShardSetup, shard_game: ShardGame, name: str) -> DerivedGame:
    """Play ``shard_game`` again from its seed and check it against the shard (module
    docstring); ``name`` names it in errors (``SHARD#ID``)."""
    game, events = _execute(setup, shard_game, name)
    header = LogHeader.from_events(events)
    problem = game_id_problem(header, GameOptions.from_dict(dict(setup.options)))
    if problem:
        raise AuditDivergence(name, "header", None, f"game_id {shard_game.game_id}", problem)
    scores = final_score_sheet(game.state)
    if scores is None:
        raise AuditDivergence(
            name, "missing", None, f"{len(shard_game.decisions)} decisions", "the game is not over after them"
        )
    frames, digest = log_frames(events, scores)
    if digest != shard_game.log_digest:
        raise AuditDivergence(
            name,
            "event",
            None,
            f"log digest {shard_game.log_digest.hex()}",
            f"the seed and decisions give a log with digest {digest.hex()}",
        )
    if totals(scores) != shard_game.totals:
        raise AuditDivergence(name, "score", None, f"totals {shard_game.totals}", f"totals {totals(scores)}")
    return DerivedGame(game, events, b"".join(frames))


def start_game(setup: ShardSetup, shard_game: ShardGame) -> Game:
    """A shard's game set up from its seed and the shard's setup, before any decision."""
    return Game.start(
        shard_game.seed,
        list(setup.names),
        GameOptions.from_dict(dict(setup.options)),
        game_id=shard_game.game_id,
        rules_version=setup.rules_version,
        bots=setup.bots,
    )


def _execute(setup: ShardSetup, shard_game: ShardGame, name: str) -> tuple[Game, list[GameEvent]]:
    try:
        game = start_game(setup, shard_game)
    except (CascadiaError, TypeError) as error:
        raise AuditDivergence(name, "header", None, "the shard's game setup", f"invalid: {error}") from None
    events = game.collect_events()
    for number, command in enumerate(shard_game.decisions, 1):
        if game.finished:
            raise AuditDivergence(
                name, "unexpected", len(events) + 1, f"decision {number}: {command}", "the game is over"
            )
        try:
            game.execute(command)
        except CascadiaError as error:
            raise AuditDivergence(
                name, "illegal", len(events) + 1, f"decision {number}: {command}", f"illegal: {error}"
            ) from None
        events.extend(game.collect_events())
    return game, events


# -- finding games -------------------------------------------------------------------------


def find_in_shard(header: ShardHeader, prefix: str, name: str) -> int:
    """The position of the one game whose id is or starts with ``prefix``."""
    text = prefix.strip().lower().replace("-", "")
    if len(text) < MIN_PREFIX:
        raise ShardGameNotFoundError(f"{name}: give at least {MIN_PREFIX} characters of a game id")
    matches = [i for i, game_id in enumerate(header.game_ids) if game_id.hex.startswith(text)]
    if len(matches) != 1:
        found = "no game" if not matches else f"{len(matches)} games"
        raise ShardGameNotFoundError(f"{name}: {found} of the shard has an id starting with {prefix!r}")
    return matches[0]


def shard_game_log(path: str | os.PathLike[str], prefix: str) -> tuple[str, bytes]:
    """The name (``SHARD#ID``) and the ``.cascadia`` log bytes of one game of a shard."""
    reader = ShardReader(path)
    position = find_in_shard(reader.header, prefix, str(path))
    shard_game = reader.games()[position]
    name = f"{path}{GAME_SEPARATOR}{shard_game.game_id}"
    return name, derive_game(reader.header.setup, shard_game, name).log


def open_shard_game(path: str | os.PathLike[str], prefix: str) -> LogReader:
    """A log reader over the re-derived log of a game of a shard (see :func:`shard_game_log`)."""
    name, log = shard_game_log(path, prefix)
    return LogReader(io.BytesIO(log), name)


# -- audit ---------------------------------------------------------------------------------


def audit_shard(path: str | os.PathLike[str], game: str | None = None) -> Iterator[AuditResult]:
    """Audit every game of a shard (or the one whose id starts with ``game``), one result
    each; a shard that cannot be read gives one failed result naming the shard."""
    try:
        reader = ShardReader(path)
        positions = (
            [find_in_shard(reader.header, game, str(path))]
            if game is not None
            else range(len(reader.header.game_ids))
        )
        games = reader.games()
    except ReplayError as error:
        yield AuditResult(str(path), valid=False, error=error)
        return
    except OSError as error:
        yield AuditResult(str(path), valid=False, io_error=f"{path}: {error.strerror or error}")
        return
    for position in positions:
        yield audit_game(reader.header.setup, games[position], f"{path}{GAME_SEPARATOR}")


def audit_game(setup: ShardSetup, shard_game: ShardGame, prefix: str) -> AuditResult:
    """The audit of one game of a shard (``prefix``: the shard's name and separator)."""
    name = f"{prefix}{shard_game.game_id}"
    result = AuditResult(name, valid=False, game_id=str(shard_game.game_id), players=len(setup.names))
    try:
        derived = derive_game(setup, shard_game, name)
    except ReplayError as error:
        result.error = error
        return result
    result.valid = True
    result.events = len(derived.events)
    result.finished = True
    result.totals = list(shard_game.totals)
    return result
