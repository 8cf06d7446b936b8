"""Hostile and odd input: a clear one-line error, nothing written, no hang.

The corpus is generated here from engine-written logs (no binary file is checked in):
deeply nested values in each kind of frame, chain-valid logs that the rules refuse,
FIFOs, devices, symbolic links and folders where files are expected, read-only and
missing data directories. The tampered-log corpus of ``test_replays_audit.py`` checks
the exact divergence of each rule; this one checks that every tool gives up cleanly.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from uuid import UUID, uuid4, uuid5

import pytest
from cascadia.analytics.ingest import ingest_logs
from cascadia.analytics.storage import AnalyticsStore
from cascadia.application.game_logs import import_log
from cascadia.application.store import GameStore
from cascadia.domain.components import TILES
from cascadia.domain.game import Game
from cascadia.replays.audit import audit_file
from cascadia.replays.errors import AuditDivergence, LogFormatError
from cascadia.replays.format import MAX_DEPTH, TEMP_MARK
from test_replays_cli import cli, one_line_error
from test_replays_helpers import (
    DEEP_MARKER,
    audit_bytes,
    deepen,
    game_events,
    game_log,
    index_of,
    read,
    rechain,
    with_raw_header,
)

SMALL = game_log(1, seed=4)
SMALL_RECORDS = [[r.seq, r.type, dict(r.payload)] for r in read(SMALL)[1]]
GOOD = game_log(2)


def changed(records, index, **fields):
    records[index] = [records[index][0], records[index][1], {**records[index][2], **fields}]
    return records


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# -- deep nesting: a format error with its location -----------------------------------


def deep_log(where: str, depth: int) -> tuple[bytes, int]:
    """A log with a value nested ``depth`` levels deep in the header (a name), the
    options, record 5 or the trailer; and the number of that frame (0: the header)."""
    if where == "header":
        data = with_raw_header(SMALL, lambda body: {**body, "names": [DEEP_MARKER]})
        return deepen(data, depth), 0
    if where == "options":
        data = with_raw_header(
            SMALL, lambda body: {**body, "options": {**body["options"], "cards": DEEP_MARKER}}
        )
        return deepen(data, depth), 0
    if where == "record":
        first = next(iter(SMALL_RECORDS[4][2]))
        return deepen(rechain(SMALL, lambda rs: changed(rs, 4, **{first: DEEP_MARKER})), depth), 5
    return deepen(rechain(SMALL, scores=lambda _: DEEP_MARKER), depth), len(SMALL_RECORDS) + 1


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500, 5000])
@pytest.mark.parametrize("where", ["header", "options", "record", "trailer"])
def test_deep_nesting_is_a_format_error_at_its_frame(where, depth):
    data, frame = deep_log(where, depth)
    with pytest.raises(LogFormatError) as raised:
        read(data)
    error = raised.value
    assert (error.kind, error.record) == ("encoding", frame)
    assert "nest deeper" in error.reason or "StackError" in error.reason


def test_the_deepest_engine_value_is_within_the_bound():
    assert audit_bytes(game_log(4, seed=3, two_card_sets=True)) == game_events(4, seed=3, two_card_sets=True)


def test_deep_nesting_in_audit_import_ingest_and_the_cli(tmp_path, monkeypatch, capsys):
    data, _ = deep_log("record", 600)
    path = write(tmp_path / "deep.cascadia", data)
    result = audit_file(path)
    assert not result.valid and "record 5" in result.message
    store = GameStore(tmp_path / "home")
    with pytest.raises(LogFormatError):
        import_log(store, path)
    assert list(store.started_games()) == []
    report = ingest_logs(tmp_path / "home", [path])
    assert report.ingested == 0 and "record 5" in report.corrupt[0].reason
    code, _, err = cli(monkeypatch, capsys, "audit", path)
    assert code == 1 and "deep.cascadia (record 5, byte" in one_line_error(err)


# -- ingest admits exactly what audit admits -------------------------------------------


def refused_logs() -> dict[str, bytes]:
    """Chain-valid logs that the audit refuses, each of a kind that ingest once took."""
    spend = index_of(SMALL_RECORDS, "NatureTokenSpent", where=lambda p: p["action"] == "free_choice")
    placed = index_of(SMALL_RECORDS, "TilePlaced", 3)
    dropped = index_of(SMALL_RECORDS, "WildlifePlaced", 5)
    return {
        "spent on D": rechain(SMALL, lambda rs: changed(rs, spend, action="D")),
        "record dropped": rechain(SMALL, lambda rs: rs[:dropped] + rs[dropped + 1 :], renumber=True),
        "q=100000": rechain(SMALL, lambda rs: changed(rs, placed, q=100000)),
        "q=2**63": rechain(SMALL, lambda rs: changed(rs, placed, q=2**63)),
        "q=-2**63": rechain(SMALL, lambda rs: changed(rs, placed, q=-(2**63))),
        "r=2**64-1": rechain(SMALL, lambda rs: changed(rs, placed, r=2**64 - 1)),
        "options {}": with_raw_header(SMALL, lambda body: {**body, "options": {}}),
        "other game id": rechain(SMALL, header=lambda h: replace(h, game_id=uuid5(h.game_id, "copy"))),
    }


@pytest.mark.parametrize("name", sorted(refused_logs()))
def test_ingest_refuses_what_audit_refuses_and_ingests_the_rest(tmp_path, name):
    folder = tmp_path / "logs"
    folder.mkdir()
    bad = write(folder / "a-bad.cascadia", refused_logs()[name])
    write(folder / "b-good.cascadia", GOOD)
    assert not audit_file(bad).valid
    report = ingest_logs(tmp_path / "home", [folder])
    assert report.ingested == 1 and [p.source for p in report.corrupt] == [str(bad)]
    assert AnalyticsStore(tmp_path / "home").ingested_game_ids() == {str(game_events(2)[0].originator_id)}
    again = ingest_logs(tmp_path / "home", [folder])  # the next run is no different
    assert (again.ingested, again.already, len(again.corrupt)) == (0, 1, 1)


# -- FIFOs and folders named like logs: read only regular files ------------------------


def test_a_fifo_is_never_opened_for_reading(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "logs"
    folder.mkdir()
    write(folder / "good.cascadia", GOOD)
    fifo = folder / "pipe.cascadia"
    os.mkfifo(fifo)
    (folder / "dir.cascadia").mkdir()
    for command in (["audit"], ["import", "--home", tmp_path / "home"]):
        code, _, err = cli(monkeypatch, capsys, *command, fifo)
        assert code == 1 and "pipe.cascadia is a FIFO, not a log file" in one_line_error(err)
        code, out, err = cli(monkeypatch, capsys, *command, folder)
        # a folder named like a log is searched like any folder; the FIFO is not opened,
        # and an entry not read is a failure of the command
        assert code == 1 and "good.cascadia" in out
        assert err.splitlines() == [f"skipped {fifo}: a FIFO, not a log file"]
    report = ingest_logs(tmp_path / "home", [folder])
    assert report.already == 0 and report.ingested == 1 and not report.problems
    for command in ("replay", "audit"):
        code, _, err = cli(monkeypatch, capsys, command, folder / "dir.cascadia")
        assert code == 1 and one_line_error(err)


def test_a_skipped_entry_fails_audit_import_and_ingest_with_a_json_record(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "logs"
    folder.mkdir()
    write(folder / "good.cascadia", GOOD)
    fifo = folder / "pipe.cascadia"
    os.mkfifo(fifo)
    record = {"file": str(fifo), "skipped": True, "error": "a FIFO, not a log file"}
    for command in (["audit"], ["import", "--home", tmp_path / "home"]):
        code, out, _ = cli(monkeypatch, capsys, *command, "--json", folder)
        lines = [json.loads(line) for line in out.splitlines()]
        assert (
            code == 1
            and record in lines
            and any(line.get("file", "").endswith("good.cascadia") for line in lines)
        )
    code, out, _ = cli(monkeypatch, capsys, "ingest", "--home", tmp_path / "home", "--json", folder)
    assert code == 1 and json.loads(out)["skipped"] == [record]


def test_an_empty_folder_fails_audit_import_and_ingest(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    home = ["--home", tmp_path / "home"]
    for verb, options in (("audit", []), ("import", home), ("ingest", home)):
        code, _, err = cli(monkeypatch, capsys, verb, *options, empty)
        assert code == 1 and f"no log files to {verb}" in one_line_error(err)


def test_an_unreadable_log_is_one_line(tmp_path, monkeypatch, capsys):
    path = write(tmp_path / "locked.cascadia", GOOD)
    real_open = os.open

    def refuse(name, *args, **kwargs):
        if Path(name) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    for command in (["audit"], ["replay"], ["import", "--home", tmp_path / "home"]):
        code, _, err = cli(monkeypatch, capsys, *command, path)
        assert code == 1 and "Permission denied" in one_line_error(err) and "locked.cascadia" in err


# -- outputs: only a regular file (or nothing) is replaced -----------------------------


@pytest.fixture
def odd_targets(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    victim = write(tmp_path / "victim.txt", b"keep me")
    link = tmp_path / "link.cascadia"
    link.symlink_to(victim)
    folder = tmp_path / "folder.cascadia"
    folder.mkdir()
    targets = [fifo, link]
    if Path("/dev/full").exists():
        targets.append(Path("/dev/full"))
    return targets, victim


def test_writing_commands_never_replace_a_device_fifo_or_link(tmp_path, monkeypatch, capsys, odd_targets):
    targets, victim = odd_targets
    source = write(tmp_path / "in.cascadia", GOOD)
    home = tmp_path / "home"
    assert cli(monkeypatch, capsys, "import", source, "--home", home)[0] == 0
    game = str(game_events(2)[0].originator_id)[:8]
    for target in targets:
        before = os.lstat(target)
        for command in (
            ["export", game, "-o", target, "--home", home],
            ["rerun", source, "-o", target],
            ["view", source, "-o", target],
        ):
            code, out, err = cli(monkeypatch, capsys, *command)
            assert code == 1 and out == ""
            assert f"{target} is a " in one_line_error(err) and "not a regular file" in err
            after = os.lstat(target)
            assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert victim.read_bytes() == b"keep me"
    assert not list(tmp_path.glob(f".*{TEMP_MARK}")) and not list(Path("/dev").glob(f".*{TEMP_MARK}"))


def test_a_write_error_names_the_file_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    source = write(tmp_path / "in.cascadia", GOOD)

    def full(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "out.cascadia"
    code, _, err = cli(monkeypatch, capsys, "rerun", source, "-o", out)
    assert code == 1 and f"cannot write {out}: No space left on device" in one_line_error(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cascadia"]


def test_temporary_files_of_a_killed_write_are_removed_next_time(tmp_path, monkeypatch, capsys):
    source = write(tmp_path / "in.cascadia", GOOD)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])  # a writer that is gone
    dead.wait()
    stale = write(tmp_path / f".out.cascadia.{dead.pid}.x1y2{TEMP_MARK}", b"half a log")
    alive = write(tmp_path / f".out.cascadia.{os.getppid()}.z3w4{TEMP_MARK}", b"another writer's")
    other = write(tmp_path / f".other.cascadia.{dead.pid}.q5{TEMP_MARK}", b"not ours to judge now")
    assert cli(monkeypatch, capsys, "rerun", source, "-o", tmp_path / "out.cascadia")[0] == 0
    assert not stale.exists() and alive.exists() and other.exists()


# -- the data directory ------------------------------------------------------------------


def test_a_missing_data_directory_is_reported_and_not_created(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "missing" / "deeper"
    for command in (["games"], ["stats", "cards"], ["sql", "SELECT 1"], ["export", "--all", "-o", tmp_path]):
        code, _, err = cli(monkeypatch, capsys, *command, "--home", missing)
        assert code == 1 and f"no games in {missing}: the folder does not exist" in one_line_error(err)
    assert not (tmp_path / "missing").exists()


def test_a_data_directory_that_is_a_file_is_refused(tmp_path, monkeypatch, capsys):
    home = write(tmp_path / "home", b"not a folder")
    source = write(tmp_path / "in.cascadia", GOOD)
    commands = (
        ["games"],
        ["stats", "cards"],
        ["sql", "SELECT 1"],
        ["simulate", "--games", "1", "--players", "1"],
        ["import", source],
        ["final-scores"],
        ["ingest", source],
    )
    for command in commands:
        for where in (home, home / "nested"):
            code, _, err = cli(monkeypatch, capsys, *command, "--home", where)
            assert code == 1 and f"the data directory {home} is a file" in one_line_error(err), command
    assert home.read_bytes() == b"not a folder"


@pytest.fixture
def immutable(tmp_path):
    """A data directory with two games that nobody, root included, may change (the
    immutable attribute, which root respects unlike file modes); skipped where
    ``chattr`` is not available."""
    home = tmp_path / "home"
    store = GameStore(home)
    for seed in (1, 2):
        store.save_new_game(Game.start(seed, 2).collect_events())
    store.close()
    paths = [home, *home.iterdir()]
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not available")
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not permitted here: {done.stderr.decode().strip()}")
    try:
        if os.access(home, os.W_OK):
            pytest.skip("the immutable attribute does not stop writes here")
        yield home
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


def test_a_read_only_data_directory_is_read_and_not_written(tmp_path, monkeypatch, capsys, immutable):
    home = immutable
    code, out, _ = cli(monkeypatch, capsys, "games", "--home", home)
    assert code == 0 and "2 game(s)" in out
    code, out, _ = cli(monkeypatch, capsys, "export", "--all", "-o", tmp_path / "out", "--home", home)
    assert code == 0 and len(list((tmp_path / "out").iterdir())) == 2
    code, out, _ = cli(monkeypatch, capsys, "stats", "cards", "--home", home)
    assert code == 0
    source = write(tmp_path / "in.cascadia", GOOD)
    for command in (
        ["simulate", "--games", "1", "--players", "1"],
        ["import", source],
        ["final-scores"],
        ["ingest", source],
        ["new", "--seed", "5"],
    ):
        code, _, err = cli(monkeypatch, capsys, *command, "--home", home)
        assert code == 1 and f"cannot write {home}" in one_line_error(err), command


# -- the game id and the canonical header ---------------------------------------------


def test_a_log_rechained_under_another_derived_id_is_refused(tmp_path):
    copy = rechain(GOOD, header=lambda h: replace(h, game_id=uuid5(h.game_id, "copy")))
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(copy)
    assert raised.value.kind == "header" and "game_id" in str(raised.value)
    store = GameStore(tmp_path / "home")
    with pytest.raises(AuditDivergence):
        import_log(store, write(tmp_path / "copy.cascadia", copy))
    assert import_log(store, write(tmp_path / "good.cascadia", GOOD)).imported


def test_random_ids_are_accepted_and_other_uuid_versions_refused():
    random_id = uuid4()
    events = audit_bytes(rechain(SMALL, header=lambda h: replace(h, game_id=random_id)))
    assert events[0].originator_id == random_id
    time_based = UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")  # version 1
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(rechain(SMALL, header=lambda h: replace(h, game_id=time_based)))
    assert "version 1" in str(raised.value)


@pytest.mark.parametrize("options", [{}, "one missing"])
def test_a_header_without_every_option_is_refused(options):
    def edit(body):
        written = {k: v for k, v in body["options"].items() if k != "cards"} if options else {}
        return {**body, "options": written}

    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(with_raw_header(SMALL, edit))
    assert raised.value.kind == "header" and "options" in str(raised.value)


def keystone_placement(records) -> int:
    return index_of(records, "TilePlaced", where=lambda p: TILES[p["tile"]].keystone)


@pytest.mark.parametrize("rotation", [1, 3, 5])
def test_a_keystone_has_one_rotation(rotation):
    i = keystone_placement(SMALL_RECORDS)
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(rechain(SMALL, lambda rs: changed(rs, i, rotation=rotation)))
    assert (raised.value.kind, raised.value.seq) == ("event", i + 1)
    # the engine records any rotation of a keystone as rotation 0
    events = game_events(1, seed=4)
    game = Game.replay(events[:i])
    placed = events[i]
    game.place_tile(placed.q, placed.r, rotation)
    assert game.collect_events()[0].rotation == 0


# -- simulate --ingest after an interruption -------------------------------------------


def test_simulate_ingest_completes_the_analytics_of_an_interrupted_run(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    # the run that was interrupted stored two games but ingested none of them
    assert cli(monkeypatch, capsys, "simulate", "--games", "2", "--players", "1", "--home", home)[0] == 0
    code, out, _ = cli(monkeypatch, capsys, "simulate", "-n", "3", "-p", "1", "--ingest", "--home", home)
    assert code == 0 and "analytics: 3 game(s) ingested, 0 already there" in out
    assert len(AnalyticsStore(home).ingested_game_ids()) == 3
    code, out, _ = cli(monkeypatch, capsys, "simulate", "-n", "3", "-p", "1", "--ingest", "--home", home)
    assert code == 0 and "analytics: 0 game(s) ingested" in out
    assert len(AnalyticsStore(home).ingested_game_ids()) == 3


# -- a copy re-chained under a random id is not a second game ----------------------------


def test_a_log_rechained_under_a_random_id_is_the_same_game(tmp_path):
    original = write(tmp_path / "original.cascadia", SMALL)
    copy = write(tmp_path / "copy.cascadia", rechain(SMALL, header=lambda h: replace(h, game_id=uuid4())))
    assert audit_file(copy).valid  # a random id is bound only by the chain
    store = GameStore(tmp_path / "home")
    first, second = import_log(store, original), import_log(store, copy)
    assert first.imported and not second.imported and second.game_id == first.game_id
    assert [gid for gid, _ in store.started_games()] == [first.game_id]
    report = ingest_logs(tmp_path / "home", [original, copy])
    assert (report.ingested, report.already) == (1, 1)
