"""Every command that reads a file named on its command line opens it one way
(``open_regular``): a FIFO, a device, a folder or an oversized file is refused in one
line naming the path, with a non-zero exit, and never hangs (an alarm turns a blocking
open into a failure)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from cascadia.replays.format import MAX_DEPTH, MAX_LOG_BYTES, PARSED_DEPTH, loads_bounded
from cascadia.replays.map_file import MAX_MAP_BYTES
from test_replays_cli import cli, one_line_error
from test_replays_helpers import game_log

F = "{file}"
COMMANDS = {
    "audit": ["audit", F],
    "replay": ["replay", F],
    "import": ["import", "--home", "{home}", F],
    "ingest": ["ingest", "--home", "{home}", F],
    "view": ["view", F, "-o", "{out}"],
    "view --analysis": ["view", "{good}", "-o", "{out}", "--analysis", F],
    "analyse": ["analyse", F],
    "rerun": ["rerun", F, "-o", "{out}"],
    "diff a": ["diff", F, "{good}"],
    "diff b": ["diff", "{good}", F],
    "verify-commitment": ["verify-commitment", F, "--commitment", "0" * 64, "--salt", "0" * 64],
    "map audit": ["map", "audit", F],
}
TAKE_FOLDERS = {"audit", "import", "ingest"}
"""Commands for which a folder stands for the logs under it (replays/files.py)."""
OVERSIZED = {"map audit": MAX_MAP_BYTES, "view --analysis": 16 << 20}


def odd_file(tmp_path: Path, kind: str, command: str) -> Path:
    """A path of the given kind where a regular file is expected."""
    if kind == "fifo":
        path = tmp_path / "pipe.cascadia"
        os.mkfifo(path)
        return path
    if kind == "folder":
        path = tmp_path / "folder.cascadia"
        path.mkdir()
        return path
    if kind == "oversized":  # sparse: no disk used
        path = tmp_path / "big.cascadia"
        with open(path, "wb") as out:
            out.truncate(OVERSIZED.get(command, MAX_LOG_BYTES) + 1)
        return path
    return Path(kind)


KINDS = ["fifo", "folder", "oversized"] + [d for d in ("/dev/zero", "/dev/null") if os.path.exists(d)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_user_named_file_is_a_regular_file_of_bounded_size(tmp_path, monkeypatch, capsys, command, kind):
    if kind == "folder" and command in TAKE_FOLDERS:
        pytest.skip("a folder of logs is an input of this command")
    good = tmp_path / "good.cascadia"
    good.write_bytes(game_log(2))
    path = odd_file(tmp_path, kind, command)
    names = {"file": path, "home": tmp_path / "home", "out": tmp_path / "out.x", "good": good}
    args = [part.format(**names) for part in COMMANDS[command]]

    def hung(*_: object) -> None:
        raise TimeoutError(f"{command} hung on {kind}")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        code, _, err = cli(monkeypatch, capsys, *args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert code != 0
    # ingest goes on past a log it cannot read: its one line says "skipped PATH: why"
    line = err.strip() if command == "ingest" else one_line_error(err)
    assert "\n" not in line and "Traceback" not in line and str(path) in line
    assert not (tmp_path / "out.x").exists()


# -- nested JSON: one bounded parser (loads_bounded), a one-line error ---------------------


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_map_file_nesting_deep_in_its_header_is_one_line(tmp_path, monkeypatch, capsys):
    header = '{"format":"cascadia-map","version":1,"map_id":"%s","name":%s}\n'
    path = tmp_path / "deep.cascadia-map"
    path.write_text(header % ("0" * 8 + "-0000-4000-8000-" + "0" * 12, nested(700)))
    code, _, err = cli(monkeypatch, capsys, "map", "audit", path)
    assert code == 1 and "nest deeper" in one_line_error(err) and str(path) in err


@pytest.mark.parametrize("text", [nested(700) + "\n", '{"turn": ' + nested(5000) + "}\n"])
def test_an_analysis_nesting_deep_is_one_line(tmp_path, monkeypatch, capsys, text):
    good = tmp_path / "good.cascadia"
    good.write_bytes(game_log(2))
    analysis = tmp_path / "deep.jsonl"
    analysis.write_text(text)
    code, _, err = cli(monkeypatch, capsys, "view", good, "-o", tmp_path / "o.html", "--analysis", analysis)
    assert code == 1 and "nest deeper" in one_line_error(err)


def test_loads_bounded_refuses_depth_invalid_utf8_and_bad_json():
    assert loads_bounded(nested(MAX_DEPTH)) is not None
    for data in (nested(MAX_DEPTH + 1), nested(100_000), b'"\xff"', "{"):
        with pytest.raises(ValueError):
            loads_bounded(data)


def test_loads_bounded_never_parses_text_deeper_than_the_parser_may_recurse(monkeypatch):
    """Text nesting deeper than PARSED_DEPTH is refused before json.loads sees it (the
    parser would recurse to the interpreter's limit: a garbage collection then fails every
    finalizer it runs); brackets inside strings do not count."""
    parsed = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda text: parsed.append(text) or real_loads(text))
    for data in (nested(PARSED_DEPTH + 1), nested(100_000).encode(), "[" * 5000):
        with pytest.raises(ValueError, match=f"nest deeper than {MAX_DEPTH} levels"):
            loads_bounded(data)
    assert parsed == []
    inside = '["' + "[{" * 1000 + '\\"]"]'
    assert loads_bounded(inside) == ["[{" * 1000 + '"]']
    with pytest.raises(ValueError, match="nest deeper"):
        loads_bounded(nested(PARSED_DEPTH))  # parsed (no deeper than the bound), then refused
    assert len(parsed) == 2
