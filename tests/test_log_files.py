"""One rule finds logs on disk for ``audit``, ``import`` and ``ingest``: files as given,
folders searched recursively for regular ``*.cascadia`` files, sorted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cascadia.replays.files import LogPathError, log_files

pytest_plugins = ["store_backends"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "logs"
    for name in ("b.cascadia", "a.cascadia", "nested/deeper/c.cascadia", "nested/a.cascadia", "notes.txt"):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    (root / "folder.cascadia").mkdir()  # a folder with a log's name is no log
    return root


def test_a_folder_stands_for_its_logs_at_any_depth_sorted(folder: Path):
    assert [p.relative_to(folder).as_posix() for p in log_files([folder])] == [
        "a.cascadia",
        "b.cascadia",
        "nested/a.cascadia",
        "nested/deeper/c.cascadia",
    ]


def test_files_are_taken_as_given_in_order(folder: Path):
    text = folder / "notes.txt"
    assert log_files([folder / "b.cascadia", text, str(folder / "nested")]) == [
        folder / "b.cascadia",
        text,
        folder / "nested" / "a.cascadia",
        folder / "nested" / "deeper" / "c.cascadia",
    ]


def test_a_missing_path_is_a_typed_error(folder: Path):
    with pytest.raises(LogPathError, match="no such log file or folder"):
        log_files([folder / "missing.cascadia"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_only_regular_files_are_found_in_a_folder(folder: Path):
    os.mkfifo(folder / "pipe.cascadia")
    assert folder / "pipe.cascadia" not in log_files([folder])


def test_audit_import_and_ingest_find_nested_logs(cascadia, tmp_path: Path):
    home = tmp_path / "home"
    code, _, err = cascadia("simulate", "-n", "2", "-p", "2", "--home", str(home))
    assert code == 0, err
    logs = tmp_path / "logs"
    code, _, err = cascadia("export", "--all", "-o", str(logs / "nested"), "--home", str(home))
    assert code == 0, err
    code, out, err = cascadia("audit", str(logs), "--json")
    assert code == 0, err
    assert len(out.splitlines()) == 2
    code, out, err = cascadia("import", str(logs), "--json", "--home", str(tmp_path / "imported"))
    assert code == 0, err
    assert len(out.splitlines()) == 2
    code, out, err = cascadia("ingest", str(logs), "--json", "--home", str(tmp_path / "ingested"))
    assert code == 0, err
    assert '"ingested": 2' in out
