"""Use case: a study, many bot games played straight into shards and the analytics dataset.

A study is a seed range played by the same seats (bots) under the same options, cut into
shards of ``shard_size`` consecutive seeds. Shard ``k`` is played by :func:`play_shard`,
a pure function of the study's spec and ``k`` (it can run in any process, on any
machine): it gives the shard file's bytes (replays/SHARD.md) and the rows of its games
for the analytics tables. :class:`StudyFolder` writes them, Parquet batch first and the
shard file last, each atomically; **a shard is done exactly when its file exists and
verifies**. No event store is involved.

Layout of a study folder (it is also a data home: ``cascadia stats --home DIR``)::

    studies/<study id>.json                       the spec of each study in the folder
    shards/<study id>/<k:06d>.cascadia-shard      shard k: seeds start + k*size ...
    analytics/...                                 the dataset; batch <study id>-<k:06d>

The same spec always gives the same study id, shard bytes and Parquet rows, so an
interrupted study is resumed by running it again: done shards are skipped, the others
played again (a Parquet batch written before the interruption is replaced, not doubled).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

import pyarrow as pa
from cascadia.analytics.collector import collector_paused
from cascadia.analytics.rows import BatchColumns
from cascadia.analytics.storage import AnalyticsStore, EncodedBatch, encode_batch
from cascadia.bots.registry import bot_game_id, check_bot_names, play_game, recorded_bots
from cascadia.domain.commands import Command
from cascadia.domain.errors import CascadiaError, InvalidOptionError
from cascadia.domain.game import check_setup
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.domain.rng import check_seed
from cascadia.projections.game_scores import score_state
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import atomic_output, canonical, loads_bounded, read_regular
from cascadia.replays.schema import fields_problem
from cascadia.replays.shard import SHARD_EXTENSION, ShardReader, ShardSetup, encode_shard
from cascadia.replays.shard_games import record_game

STUDY_FORMAT = "cascadia-study"
STUDY_VERSION = 1
STUDIES_DIR = "studies"
SHARDS_DIR = "shards"
DEFAULT_SHARD_SIZE = 1000
MAX_SHARD_SIZE = 100_000
MAX_SPEC_BYTES = 1 << 20
ROWS_CHUNK = 250
"""Games whose analytics rows a worker keeps as Python lists before turning them into
Arrow columns, which bounds a worker's memory whatever the shard size."""


class StudyMixError(CascadiaError):
    """A study folder that holds another study's shards, without leave to add to it."""


class StudySpecError(CascadiaError):
    """A study spec file that is not one this version reads."""


@dataclass(frozen=True)
class StudySpec:
    """What a study plays: seats (bot names), options, rules version, seeds
    ``start <= s < stop``, cut into shards of ``shard_size`` seeds."""

    names: tuple[str, ...]
    options: GameOptions
    start: int
    stop: int
    shard_size: int = DEFAULT_SHARD_SIZE
    rules_version: str = RULES_VERSION

    def check(self) -> None:
        """Raise :class:`InvalidOptionError` for seats, options or seeds that cannot be played."""
        check_bot_names(self.names)
        check_setup(list(self.names), self.options)
        check_seed(self.start)
        check_seed(self.stop - 1)
        if self.stop <= self.start:
            raise InvalidOptionError(f"seed range {self.start}:{self.stop} is empty")
        if not 1 <= self.shard_size <= MAX_SHARD_SIZE:
            raise InvalidOptionError(f"a shard holds 1 to {MAX_SHARD_SIZE} games, not {self.shard_size}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STUDY_FORMAT,
            "version": STUDY_VERSION,
            "names": list(self.names),
            "options": self.options.to_dict(),
            "rules_version": self.rules_version,
            "seeds": [self.start, self.stop],
            "shard_size": self.shard_size,
        }

    @classmethod
    def from_dict(cls, data: Any) -> StudySpec:
        if not isinstance(data, dict) or data.get("format") != STUDY_FORMAT:
            raise StudySpecError(f"not a {STUDY_FORMAT} spec")
        if data.get("version") != STUDY_VERSION:
            raise StudySpecError(f"unsupported study version {data.get('version')!r}")
        expected = {"names": list[str], "seeds": list[int], "shard_size": int, "rules_version": str}
        missing = sorted({*expected, "options"} - set(data))
        problem = f"missing {', '.join(missing)}" if missing else fields_problem(data, expected)
        if problem is None and len(data["seeds"]) != 2:
            problem = "seeds must be [start, stop]"
        if problem:
            raise StudySpecError(f"malformed study spec: {problem}")
        start, stop = data["seeds"]
        return cls(
            tuple(data["names"]),
            GameOptions.from_dict(data["options"]),
            start,
            stop,
            data["shard_size"],
            data["rules_version"],
        )

    @property
    def id(self) -> str:
        """16 hex digits of the SHA-256 of the spec: the same spec, the same id."""
        return sha256(canonical(self.to_dict())).hexdigest()[:16]

    @property
    def games(self) -> int:
        return self.stop - self.start

    @property
    def shard_count(self) -> int:
        return -(-self.games // self.shard_size)

    def shard_seeds(self, index: int) -> range:
        first = self.start + index * self.shard_size
        return range(first, min(self.stop, first + self.shard_size))

    def batch(self, index: int) -> str:
        """The id of shard ``index``'s Parquet batch: deterministic, so a replayed shard
        replaces its batch."""
        return f"{self.id}-{index:06d}"

    @property
    def source(self) -> str:
        """The study's partition of the analytics dataset (``source=study-<id>``)."""
        return f"study-{self.id}"

    @property
    def setup(self) -> ShardSetup:
        return ShardSetup(
            list(self.names), recorded_bots(self.names), self.options.to_dict(), self.rules_version
        )


@dataclass(frozen=True)
class ShardOutput:
    """Shard ``index`` played: the shard file's bytes and its games' analytics batch, both
    encoded where the games were played (a few hundred bytes and ~2 kB a game)."""

    index: int
    games: int
    shard: bytes = field(repr=False)
    batch: EncodedBatch = field(repr=False)


def play_shard(spec: StudySpec, index: int) -> ShardOutput:
    """Play the games of shard ``index`` of ``spec`` (anywhere: nothing is read or written).

    Each game is scored once; the shard keeps its decisions and log digest and the
    analytics rows are built from its events, which are never stored. The garbage
    collector is paused meanwhile (:func:`~cascadia.analytics.collector.collector_paused`):
    a game leaves no cycle, so only the shard's end has anything for it."""
    with collector_paused():
        return _play_shard(spec, index)


def _play_shard(spec: StudySpec, index: int) -> ShardOutput:
    columns = BatchColumns()
    chunks: list[dict[str, pa.Table]] = []
    games = []
    for seed in spec.shard_seeds(index):
        if len(columns) == ROWS_CHUNK:  # rows as Arrow take a fifth of the memory of Python lists
            chunks.append(columns.tables(spec.batch(index)))
            columns = BatchColumns()
        game_id = bot_game_id(seed, spec.names, spec.options, spec.rules_version)
        decisions: list[Command] = []
        game = play_game(seed, spec.names, spec.options, game_id, spec.rules_version, decisions)
        events = game.collect_events()
        scored = score_state(game.state)
        games.append(record_game(game, events, scored.to_dict(), decisions))
        columns.add_game(events, game.state, scored)
    shard = encode_shard(spec.id, index, spec.setup, games)
    batch = spec.batch(index)
    chunks.append(columns.tables(batch))
    tables = {name: pa.concat_tables([chunk[name] for chunk in chunks]) for name in chunks[0]}
    return ShardOutput(index, len(games), shard, encode_batch(tables, batch, spec.source))


@dataclass(frozen=True)
class Resume:
    """What a study folder already holds of a study: the shards done, and those whose
    file is there but damaged (they are played again), each with the reason."""

    done: list[int]
    damaged: dict[int, str]


class StudyFolder:
    """A folder of studies (module docstring): their specs, shards and dataset."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.analytics = AnalyticsStore(self.root)

    def spec_file(self, study: str) -> Path:
        return self.root / STUDIES_DIR / f"{study}.json"

    def shard_file(self, spec: StudySpec, index: int) -> Path:
        return self.root / SHARDS_DIR / spec.id / f"{index:06d}{SHARD_EXTENSION}"

    def studies(self) -> list[StudySpec]:
        """The specs of the studies in the folder (their files, sorted by id)."""
        folder = self.root / STUDIES_DIR
        if not folder.is_dir():
            return []
        specs = []
        for path in sorted(folder.glob("*.json")):
            try:
                specs.append(
                    StudySpec.from_dict(loads_bounded(read_regular(path, "study spec", MAX_SPEC_BYTES)))
                )
            except (OSError, ValueError, ReplayError) as error:
                raise StudySpecError(f"{path}: {error}") from None
        return specs

    def register(self, spec: StudySpec, allow_mix: bool = False) -> None:
        """Record ``spec`` in the folder; :class:`StudyMixError` if another study is there
        and ``allow_mix`` is not given."""
        others = [other for other in self.studies() if other.id != spec.id]
        if others and not allow_mix:
            described = ", ".join(f"{o.id} ({','.join(o.names)}, seeds {o.start}:{o.stop})" for o in others)
            raise StudyMixError(
                f"{self.root} holds another study ({described}); give --add to add this one "
                "to it, or choose another folder"
            )
        target = self.spec_file(spec.id)
        if not target.exists():
            with atomic_output(target) as out:
                out.write(json.dumps(spec.to_dict(), indent=2, sort_keys=True).encode() + b"\n")

    def resume(self, spec: StudySpec) -> Resume:
        """Which shards of ``spec`` are done, and which files are damaged."""
        done: list[int] = []
        damaged: dict[int, str] = {}
        for index in range(spec.shard_count):
            path = self.shard_file(spec, index)
            if not os.path.lexists(path):
                continue
            problem = self._shard_problem(spec, index, path)
            if problem is None:
                done.append(index)
            else:
                damaged[index] = problem
        return Resume(done, damaged)

    @staticmethod
    def _shard_problem(spec: StudySpec, index: int, path: Path) -> str | None:
        try:
            reader = ShardReader(path)
            reader.verify()
        except ReplayError as error:
            return str(error)
        except OSError as error:
            return f"{path}: {error.strerror or error}"
        header = reader.header
        if header.study != spec.id or header.index != index or header.seeds != list(spec.shard_seeds(index)):
            return f"{path}: holds shard {header.index} of study {header.study}, not {index} of {spec.id}"
        return None

    def write(self, spec: StudySpec, output: ShardOutput) -> None:
        """Write a played shard: its Parquet batch (replacing one of the same id), then the
        shard file; both atomically, so an interruption leaves the shard not done."""
        self.analytics.write_encoded(output.batch)
        with atomic_output(self.shard_file(spec, output.index)) as out:
            out.write(output.shard)
