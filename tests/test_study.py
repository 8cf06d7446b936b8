"""Studies (application/study.py): bot games played straight into shards and Parquet.

What a user relies on: a shard's games are the recorded games (their logs come back byte
for byte and audit), damage is reported with where and why, a study resumes after any
interruption with every game written exactly once, and where the shards were played
(one process or several) changes no byte.
"""

from __future__ import annotations

import errno
import gc
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest
from cascadia.analytics.collector import collector_paused
from cascadia.analytics.storage import AnalyticsStore
from cascadia.application import study as study_module
from cascadia.application.study import StudyFolder, StudyMixError, StudySpec, play_shard
from cascadia.application.study_runner import WorkerLostError, run_study
from cascadia.bots import registry
from cascadia.bots.registry import bot_for_turn, bot_game_id, play_game
from cascadia.domain.commands import (
    NatureFreeChoice,
    NatureWipe,
    PlaceTile,
    PlaceWildlife,
    ReturnWildlife,
    Take,
    WipeThree,
)
from cascadia.domain.decisions import decisions_of
from cascadia.domain.errors import CommandFormatError
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.game_scores import score_state as score
from cascadia.replays.audit import audit_file
from cascadia.replays.errors import AuditDivergence
from cascadia.replays.format import LogHeader, encode_log
from cascadia.replays.scores import final_score_sheet
from cascadia.replays.shard import (
    ShardFormatError,
    ShardReader,
    decode_decision,
    encode_decision,
    encode_shard,
)
from cascadia.replays.shard_games import audit_shard, derive_game, shard_game_log

RANDOM4 = ("random",) * 4
CASCADIA = str(Path(sys.executable).with_name("cascadia"))


def spec_of(games: int = 6, shard_size: int = 3, names: tuple[str, ...] = RANDOM4, **options) -> StudySpec:
    return StudySpec(names, GameOptions(**options), 100, 100 + games, shard_size)


def run(folder: Path, spec: StudySpec, **kwargs) -> None:
    run_study(StudyFolder(folder), spec, **kwargs)


def shard_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "shards").rglob("*.cascadia-shard"))}


def parquet_rows(folder: Path, table: str) -> list[tuple]:
    files = [str(p) for p in sorted((folder / "analytics" / table).rglob("*.parquet"))]
    query = f"SELECT * EXCLUDE (batch) FROM read_parquet({files!r}, union_by_name = true) ORDER BY ALL"
    return duckdb.sql(query).fetchall()


# -- the shard format ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        Take(1, 3),
        Take(2, 2),
        PlaceTile(-3, 2, 5),
        PlaceWildlife(0, -1),
        ReturnWildlife(),
        WipeThree(),
        NatureFreeChoice(),
        NatureWipe((0, 2, 3)),
    ],
)
def test_every_command_is_stored_and_read_back(command):
    assert decode_decision(encode_decision(command)) == command


@pytest.mark.parametrize("value", [[], [9], [0, 1], [1, 0, 0, "r"], "take 1", [True, 1, 1], [3, 1]])
def test_a_malformed_decision_is_refused(value):
    with pytest.raises(CommandFormatError):
        decode_decision(value)


def test_a_shards_game_gives_back_the_log_of_the_game_byte_for_byte(tmp_path):
    spec = spec_of(games=3, shard_size=3, cards="all-a", secret_cards=True)
    output = play_shard(spec, 0)
    path = tmp_path / "s.cascadia-shard"
    path.write_bytes(output.shard)
    for seed in spec.shard_seeds(0):
        game = play_game(seed, spec.names, spec.options, bot_game_id(seed, spec.names, spec.options))
        events = game.collect_events()
        expected = encode_log(LogHeader.from_events(events), events, final_score_sheet(game.state))
        name, log = shard_game_log(path, str(game.id)[:8])
        assert log == expected
        assert name.endswith(f"#{game.id}")


def test_simulate_then_export_gives_the_same_log_as_the_shard(cli, tmp_path):
    spec = spec_of(games=1, shard_size=1)
    shard = tmp_path / "one.cascadia-shard"
    shard.write_bytes(play_shard(spec, 0).shard)
    code, _, _ = cli("simulate", "--seed", "100", "-n", "1")
    assert code == 0
    code, _, _ = cli("export", "--all", "-o", str(tmp_path / "logs"))
    assert code == 0
    (exported,) = (tmp_path / "logs").glob("*.cascadia")
    assert shard_game_log(shard, exported.stem)[1] == exported.read_bytes()
    assert audit_file(f"{shard}#{exported.stem[:6]}").valid


def test_the_same_games_give_the_same_shard_bytes():
    spec = spec_of(games=2, shard_size=2)
    assert play_shard(spec, 0).shard == play_shard(spec, 0).shard


def test_a_shard_is_played_with_the_collector_paused(monkeypatch):
    """The collector makes no pass during a shard, not even between chunks of rows
    (``ROWS_CHUNK`` games); it is on again after, and stays off after if it was off before."""
    seen, passes = [], []

    def scored(state):
        seen.append(gc.isenabled())
        return score(state)

    monkeypatch.setattr(study_module, "score_state", scored)
    monkeypatch.setattr(study_module, "ROWS_CHUNK", 2)
    gc.callbacks.append(counted := lambda phase, info: passes.append((len(seen), phase)))
    try:
        assert gc.isenabled()
        play_shard(spec_of(games=5, shard_size=5), 0)
    finally:
        gc.callbacks.remove(counted)
    assert seen == [False] * 5
    assert [games for games, _ in passes if 0 < games < 5] == []  # none between games
    assert (5, "stop") in passes  # the one at the end
    assert gc.isenabled()
    gc.disable()
    try:
        play_shard(spec_of(games=1, shard_size=1), 0)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_pauses_of_the_collector_end_with_it_as_it_was():
    """Two shards played on two threads of one process: the collector stays off until the
    last one ends, then is on again (an inner pause's end does not turn it on early, nor
    the outer one's leave it off)."""
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


CARD_SETS = ("all-a", "random", "family", "intermediate")


@pytest.mark.parametrize(
    ("bot", "cards"),
    [*((bot, cards) for bot in ("random", "greedy") for cards in CARD_SETS), ("builder", "random")],
)
def test_study_games_leave_no_garbage_in_cycles(bot, cards, monkeypatch):
    """What lets a shard be played with the collector paused: playing, scoring, recording
    and the rows of a game free everything they made by reference counting alone. The
    games and their bots are gone as soon as the shard lets go of them, with the collector
    off (a suspended plan holding its bot was such a cycle, which a collection freed
    without reporting it: generators are finalised before garbage is counted)."""
    spec = StudySpec((bot,) * 4, GameOptions(cards=cards), 0, 2, 2)
    play_shard(spec, 0)  # caches filled once
    watched: list[weakref.ref] = []
    monkeypatch.setattr(registry, "make_bots", watching(registry.make_bots, watched, each=True))
    monkeypatch.setattr(study_module, "play_game", watching(study_module.play_game, watched))
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        study_module._play_shard(StudySpec((bot,) * 4, GameOptions(cards=cards), 2, 4, 2), 0)
        alive = [type(thing).__name__ for ref in watched if (thing := ref()) is not None]
        gc.collect()
        garbage = [type(thing).__name__ for thing in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert len(watched) == 2 * 5 and alive == []
    assert garbage == []


def watching(make: Callable[..., Any], refs: list[weakref.ref], each: bool = False) -> Callable[..., Any]:
    """``make``, keeping a weak reference to what it returns (``each``: to each item of it)."""

    def made(*args: Any, **kwargs: Any) -> Any:
        result = make(*args, **kwargs)
        refs.extend(map(weakref.ref, result if each else [result]))
        return result

    return made


def test_a_bot_that_played_a_turn_is_freed_with_the_collector_off():
    """As a server plays a bot's turn: a bot made for the turn, dropped after it."""
    game = Game.start(5, ["greedy", "random", "builder"])
    gc.disable()
    try:
        for _ in range(6):
            bot = bot_for_turn(game.state)
            bot.play_turn(game)
            ref = weakref.ref(bot)
            del bot
            assert ref() is None
    finally:
        gc.enable()


def write_one_shard(tmp_path: Path, games: int = 2) -> Path:
    path = tmp_path / "s.cascadia-shard"
    path.write_bytes(play_shard(spec_of(games=games, shard_size=games), 0).shard)
    return path


@pytest.mark.parametrize(
    ("damage", "kind", "where"),
    [
        (lambda data: data[:-10], "truncated", "byte"),
        (lambda data: data[:10], "truncated", "byte 0"),
        (lambda data: data + b"x", "trailing", "byte"),
        (lambda data: data[:-5] + bytes([data[-5] ^ 1]) + data[-4:], "hash", "byte"),
        (lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:], "hash", "byte"),
        (lambda data: b"\x89CASCADIA\r\n\x1a\n" + data[13:], "magic", "byte 0"),
        (lambda data: b"", "magic", "byte 0"),
    ],
)
def test_a_damaged_shard_is_refused_with_where_and_why(tmp_path, damage, kind, where):
    path = write_one_shard(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ShardFormatError) as raised:
        ShardReader(path).games()
    assert raised.value.kind == kind
    assert str(path) in str(raised.value) and where in str(raised.value)
    (result,) = audit_shard(path)
    assert not result.valid and str(path) in result.message


def rewrite(path: Path, change) -> None:
    """Re-encode a shard with its games changed by ``change`` (hashes made anew: a forger's edit)."""
    reader = ShardReader(path)
    header = reader.header
    games = change(reader.games())
    path.write_bytes(encode_shard(header.study, header.index, header.setup, games))


def test_a_forged_decision_is_caught_by_the_audit(tmp_path):
    path = write_one_shard(tmp_path)

    def move_first_tile(games):
        first = games[0]
        decisions = list(first.decisions)
        place = next(i for i, c in enumerate(decisions) if isinstance(c, PlaceTile))
        decisions[place] = PlaceTile(40, 40, 0)
        return [replace(first, decisions=decisions), *games[1:]]

    rewrite(path, move_first_tile)
    first, second = audit_shard(path)
    assert not first.valid and isinstance(first.error, AuditDivergence)
    assert first.error.kind == "illegal" and "decision" in first.message
    assert second.valid


def test_a_forged_digest_or_total_is_caught(tmp_path):
    path = write_one_shard(tmp_path)
    rewrite(path, lambda games: [replace(games[0], log_digest=bytes(32)), games[1]])
    reader = ShardReader(path)
    with pytest.raises(AuditDivergence, match="digest"):
        derive_game(reader.header.setup, reader.games()[0], "x")
    rewrite(path, lambda games: [replace(games[0], totals=[0, 0, 0, 0]), games[1]])
    assert [r.valid for r in audit_shard(path)] == [False, True]


def test_a_game_cut_short_is_caught(tmp_path):
    path = write_one_shard(tmp_path)
    rewrite(path, lambda games: [replace(games[0], decisions=games[0].decisions[:-3]), games[1]])
    (result, _) = audit_shard(path)
    assert result.error.kind == "missing"


# -- the command line ----------------------------------------------------------------------


def test_study_audit_replay_and_stats_from_the_command_line(app_cli, tmp_path):
    folder = tmp_path / "study"
    code, out, _ = app_cli("study", str(folder), "-n", "6", "--seed", "5", "--shard-size", "4")
    assert code == 0, out
    assert "6 games played" in out
    shards = sorted((folder / "shards").rglob("*.cascadia-shard"))
    assert len(shards) == 2
    code, out, _ = app_cli("audit", str(folder / "shards"))
    assert code == 0 and "6 valid, 0 failed" in out
    game_id = ShardReader(shards[1]).header.game_ids[0]
    reference = f"{shards[1]}#{str(game_id)[:8]}"
    code, out, _ = app_cli("replay", reference, "--to", "30")
    assert code == 0 and str(game_id) in out
    code, out, _ = app_cli("rerun", reference, "-o", str(tmp_path / "g.cascadia"))
    assert code == 0
    assert (tmp_path / "g.cascadia").read_bytes() == shard_game_log(shards[1], str(game_id))[1]
    code, out, _ = app_cli("sql", "SELECT count(*) AS n FROM games", "--home", str(folder))
    assert code == 0 and "6" in out
    code, out, _ = app_cli("stats", "cards", "--home", str(folder))
    assert code == 0 and "bear" in out
    code, _, err = app_cli("replay", f"{shards[1]}#ffffffff")
    assert code == 1 and "no game of the shard" in err


def test_a_folder_with_one_bad_shard_still_audits_the_others(app_cli, tmp_path):
    folder = tmp_path / "study"
    assert app_cli("study", str(folder), "-n", "4", "--shard-size", "2")[0] == 0
    first, _ = sorted((folder / "shards").rglob("*.cascadia-shard"))
    first.write_bytes(first.read_bytes()[:-1])
    code, out, err = app_cli("audit", str(folder))
    assert code == 1
    assert "2 valid, 1 failed" in out
    assert f"{first}" in err and "ends inside the body" in err


# -- resuming, mixing, workers -------------------------------------------------------------


def test_a_study_run_again_skips_what_is_written_and_replays_what_is_damaged(app_cli, tmp_path):
    folder = tmp_path / "study"
    args = ("study", str(folder), "-n", "6", "--shard-size", "2")
    assert app_cli(*args)[0] == 0
    before = shard_bytes(folder)
    rows = parquet_rows(folder, "players")
    shards = sorted((folder / "shards").rglob("*.cascadia-shard"))
    shards[1].unlink()
    shards[2].write_bytes(b"garbage")
    code, out, err = app_cli(*args)
    assert code == 0
    assert "1 shard (2 games) already written, skipped" in err
    assert "shard 2 is damaged and is played again" in err
    assert "4 games played" in out
    assert shard_bytes(folder) == before
    assert parquet_rows(folder, "players") == rows


def test_another_study_in_the_same_folder_is_refused_unless_added(app_cli, tmp_path):
    folder = tmp_path / "study"
    assert app_cli("study", str(folder), "-n", "2")[0] == 0
    code, _, err = app_cli("study", str(folder), "-n", "2", "--players", "2")
    assert code == 1 and "holds another study" in err and "--add" in err
    code, _, _ = app_cli("study", str(folder), "-n", "2", "--players", "2", "--add")
    assert code == 0
    assert len(parquet_rows(folder, "games")) == 4


def test_two_worker_processes_write_what_one_process_writes(tmp_path):
    spec = spec_of(games=8, shard_size=2)
    run(tmp_path / "one", spec)
    run(tmp_path / "two", spec, workers=2)
    assert shard_bytes(tmp_path / "one") == shard_bytes(tmp_path / "two")
    for table in ("games", "players", "events", "placements"):
        assert parquet_rows(tmp_path / "one", table) == parquet_rows(tmp_path / "two", table)


def test_a_full_disk_stops_the_study_with_one_line_and_keeps_finished_shards(app_cli, tmp_path, monkeypatch):
    folder = tmp_path / "study"
    real_write = study_module.StudyFolder.write
    written = []

    def write(self, spec, output):
        if len(written) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(self.shard_file(spec, output.index)))
        written.append(output.index)
        real_write(self, spec, output)

    monkeypatch.setattr(study_module.StudyFolder, "write", write)
    code, _, err = app_cli("study", str(folder), "-n", "8", "--shard-size", "2")
    assert code == 1
    assert err.count("\n") == 1 and "No space left on device" in err
    monkeypatch.setattr(study_module.StudyFolder, "write", real_write)
    assert [r.valid for r in audit_shard(next((folder / "shards").rglob("000001.cascadia-shard")))] == [
        True
    ] * 2
    code, _, err = app_cli("study", str(folder), "-n", "8", "--shard-size", "2")
    assert code == 0 and "2 shards (4 games) already written" in err
    assert len(parquet_rows(folder, "games")) == 8


def test_kill_9_at_any_moment_then_run_again_writes_every_game_once(tmp_path):
    """A study killed while it writes, then run again, ends as an uninterrupted run."""
    args = ["-n", "40", "--shard-size", "4", "--seed", "7"]
    reference = tmp_path / "reference"
    subprocess.run([CASCADIA, "study", str(reference), *args], check=True)
    folder = tmp_path / "killed"
    for delay in (0.8, 1.6):
        process = subprocess.Popen(
            [CASCADIA, "study", str(folder), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
    done = subprocess.run(
        [CASCADIA, "study", str(folder), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "40 games" in done.stdout
    assert shard_bytes(folder) == shard_bytes(reference)
    for table in ("games", "players", "events", "placements"):
        assert parquet_rows(folder, table) == parquet_rows(reference, table)
    leftovers = [p for p in folder.rglob("*") if p.name.startswith(".") and p.is_file()]
    assert [p for p in leftovers if not p.name.startswith(".lock")] == []


def test_the_dataset_names_each_game_once(tmp_path):
    spec = spec_of(games=5, shard_size=2)
    run(tmp_path, spec)
    run(tmp_path, spec)
    ids = AnalyticsStore(tmp_path).ingested_game_ids()
    assert len(ids) == 5
    assert sorted(ids) == sorted(
        str(i)
        for r in (0, 1, 2)
        for i in ShardReader(StudyFolder(tmp_path).shard_file(spec, r)).header.game_ids
    )


def test_a_study_refuses_what_cannot_be_played(tmp_path):
    with pytest.raises(Exception, match="unknown bot"):
        run(tmp_path, spec_of(names=("random", "nobody")))
    assert not os.path.exists(tmp_path / "shards")


def test_mixing_is_refused_at_the_api_too(tmp_path):
    run(tmp_path, spec_of(games=1, shard_size=1))
    with pytest.raises(StudyMixError):
        run(tmp_path, spec_of(games=2, shard_size=1))


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(),
        GameOptions(cards="all-a", secret_cards=True, nature_cost_two=True),
        GameOptions(two_card_sets=True, market_of_three=True, no_starter=True),
    ],
)
@pytest.mark.parametrize("names", [RANDOM4, ("random", "greedy"), ("random",)])
def test_the_decisions_kept_while_playing_are_those_the_events_tell(options, names):
    for seed in range(4):
        kept: list = []
        game = play_game(seed, names, options, decisions=kept)
        assert kept == [d.command for d in decisions_of(game.collect_events())]


def test_a_worker_process_killed_mid_study_is_one_error_and_the_study_resumes(tmp_path):
    # Many more shards than the pool holds at once (workers * (1 + AHEAD)), so work is
    # still to be handed out when the worker dies, however fast the first shards finish.
    spec = spec_of(games=60, shard_size=2)
    killed: list[int] = []

    def kill_a_worker(_output) -> None:
        if not killed:
            worker = multiprocessing.active_children()[0]
            os.kill(worker.pid, signal.SIGKILL)
            killed.append(worker.pid)

    with pytest.raises(WorkerLostError, match="run the study again to resume"):
        run(tmp_path / "study", spec, workers=2, on_shard=kill_a_worker)
    run(tmp_path / "study", spec, workers=2)
    run(tmp_path / "reference", spec)
    assert shard_bytes(tmp_path / "study") == shard_bytes(tmp_path / "reference")
    assert parquet_rows(tmp_path / "study", "players") == parquet_rows(tmp_path / "reference", "players")


@pytest.mark.parametrize(
    "change", [{"seeds": [0.5, 10]}, {"shard_size": "5"}, {"seeds": [0]}, {"names": "random"}]
)
def test_a_tampered_study_spec_is_one_clear_error(app_cli, tmp_path, change):
    folder = tmp_path / "study"
    assert app_cli("study", str(folder), "-n", "2")[0] == 0
    (spec_file,) = (folder / "studies").glob("*.json")
    spec_file.write_text(json.dumps({**json.loads(spec_file.read_text()), **change}))
    code, _, err = app_cli("study", str(folder), "-n", "2")
    assert code == 1 and "malformed study spec" in err and err.count("\n") == 1
