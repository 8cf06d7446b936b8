"""The replay commands: exit codes, output, and one-line errors for bad input."""

from __future__ import annotations

import json
import sys

import pytest
from cascadia.cli.app import app
from cascadia.cli.common import run_app
from test_replays_helpers import frame_offset, game_log, rechain


def cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """Run ``cascadia ARGS`` as the console script does: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["cascadia", *map(str, args)])
    code = run_app(app)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def logs(tmp_path):
    good = tmp_path / "good.cascadia"
    good.write_bytes(game_log(2))
    flipped = bytearray(game_log(2))
    flipped[frame_offset(bytes(flipped), 12) + 20] ^= 0x10
    damaged = tmp_path / "damaged.cascadia"
    damaged.write_bytes(bytes(flipped))
    return tmp_path, good, damaged


def test_audit_exit_codes_and_json(monkeypatch, capsys, logs):
    folder, good, damaged = logs
    code, out, err = cli(monkeypatch, capsys, "audit", good)
    assert code == 0 and "valid (2 players" in out and err == ""
    code, out, err = cli(monkeypatch, capsys, "audit", damaged)
    assert code == 1 and out == ""
    line = one_line_error(err)
    assert "damaged.cascadia (record 12, byte" in line and "hash chain is broken" in line
    code, out, err = cli(monkeypatch, capsys, "audit", good, damaged, "--json")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["valid"] for r in results] == [True, False]
    assert results[1]["error"] == {**results[1]["error"], "error": "format", "kind": "hash", "record": 12}
    code, out, err = cli(monkeypatch, capsys, "audit", folder, "--quiet")
    assert code == 1 and "1 valid, 1 failed" in out and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "content",
    [b"", b"hello world", game_log(1)[:-7], game_log(1) + b"x", game_log(1)[:13] + b"\xff\xff\xff\xff"],
)
def test_every_malformed_file_gets_one_line(monkeypatch, capsys, tmp_path, content):
    path = tmp_path / "bad.cascadia"
    path.write_bytes(content)
    for command in (
        ["audit"],
        ["replay"],
        ["import", "--home", tmp_path / "h"],
        ["rerun", "-o", tmp_path / "o"],
    ):
        code, _, err = cli(monkeypatch, capsys, *command, path)
        assert code == 1, command
        assert "bad.cascadia" in one_line_error(err)
    assert not (tmp_path / "o").exists()


def test_missing_file_and_bad_options(monkeypatch, capsys, logs):
    folder, good, _ = logs
    code, _, err = cli(monkeypatch, capsys, "replay", folder / "nope.cascadia")
    assert code == 1 and "nope.cascadia" in one_line_error(err)
    code, _, err = cli(monkeypatch, capsys, "rerun", good, "-o", folder / "x.cascadia", "--bot", "random")
    assert code == 1 and "--from-turn" in one_line_error(err)
    code, _, err = cli(monkeypatch, capsys, "replay", good, "--to", "100000")
    assert code == 1 and "events 1 to" in one_line_error(err)
    code, _, err = cli(monkeypatch, capsys, "export", "--home", folder / "h")
    assert code == 1 and "--all" in one_line_error(err)


def test_export_import_round_trip(monkeypatch, capsys, tmp_path):
    home, other = tmp_path / "home", tmp_path / "other"
    code, _, _ = cli(monkeypatch, capsys, "simulate", "-n", "2", "-p", "2", "--home", home)
    assert code == 0
    code, out, _ = cli(
        monkeypatch, capsys, "export", "--all", "-o", tmp_path / "logs", "--home", home, "--json"
    )
    exported = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(exported) == 2 and all(e["finished"] for e in exported)
    code, out, _ = cli(monkeypatch, capsys, "import", tmp_path / "logs", "--home", other)
    assert code == 0 and out.count("imported game") == 2
    code, out, _ = cli(monkeypatch, capsys, "import", tmp_path / "logs", "--home", other)
    assert code == 0 and out.count("already stored; nothing to do") == 2
    first = exported[0]["game_id"]
    code, out, _ = cli(
        monkeypatch, capsys, "export", first[:8], "-o", tmp_path / "one.cascadia", "--home", other
    )
    assert (
        code == 0
        and (tmp_path / "one.cascadia").read_bytes() == (tmp_path / "logs" / f"{first}.cascadia").read_bytes()
    )


def test_import_goes_on_after_a_failing_log(monkeypatch, capsys, tmp_path):
    (tmp_path / "a.cascadia").write_bytes(game_log(2)[:-1])
    (tmp_path / "b.cascadia").write_bytes(game_log(2))
    code, out, err = cli(
        monkeypatch,
        capsys,
        "import",
        tmp_path / "a.cascadia",
        tmp_path / "b.cascadia",
        "--home",
        tmp_path / "h",
    )
    assert code == 1 and "a.cascadia" in one_line_error(err) and "b.cascadia: imported game" in out


def test_import_of_a_forged_log_fails_and_writes_nothing(monkeypatch, capsys, tmp_path):
    forged = tmp_path / "forged.cascadia"
    forged.write_bytes(rechain(game_log(2), scores=lambda s: {**s, "winners": [5]}))
    code, _, err = cli(monkeypatch, capsys, "import", forged, "--home", tmp_path / "h")
    assert code == 1 and "diverges at trailer (score)" in one_line_error(err)
    code, out, _ = cli(monkeypatch, capsys, "games", "--json", "--home", tmp_path / "h")
    assert out == ""  # JSON lines: no game, no line


def test_replay_rerun_diff(monkeypatch, capsys, logs):
    folder, good, _ = logs
    code, out, _ = cli(monkeypatch, capsys, "replay", good, "--to", "40")
    assert code == 0 and "after turn" in out and "seat 1" in out and "score" in out
    code, out, _ = cli(monkeypatch, capsys, "replay", good, "--json")
    states = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and states[0]["turn"] == 0 and states[-1]["finished"] and len(states) == 41
    code, out, _ = cli(monkeypatch, capsys, "rerun", good, "-o", folder / "same.cascadia")
    assert code == 0 and (folder / "same.cascadia").read_bytes() == good.read_bytes()
    code, out, _ = cli(monkeypatch, capsys, "diff", good, folder / "same.cascadia")
    assert code == 0 and out.startswith("identical")
    what_if = folder / "what-if.cascadia"
    code, out, _ = cli(
        monkeypatch, capsys, "rerun", good, "-o", what_if, "--bot", "random", "--from-turn", "30"
    )
    assert code == 0
    code, out, _ = cli(monkeypatch, capsys, "diff", good, what_if, "--json")
    result = json.loads(out)
    assert code == 1 and not result["identical"] and result["first_divergence"]["seq"] > 100
