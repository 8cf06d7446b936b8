"""docs/CLI.md's command examples run as written, and its command table matches the CLI.

Every ``cascadia ...`` line of docs/CLI.md's example block is run, in order, in a
temporary directory with its own data directory (``GAME`` replaced by the first stored
game's id); each must exit 0 and print something; every command of the command table
has an example there, but for :data:`NOT_RUN`. Every row of the command table names a
real command, and every option it shows is in that command's ``--help``; docs/CLI.md's
list of commands without ``--home`` is exactly the commands that lack it.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import typer.main
from cascadia.cli.app import app
from cascadia.cli.common import run_app

CLI_DOC = Path(__file__).resolve().parents[1] / "docs" / "CLI.md"
"""The command line's document (docs/CLI.md's front page points to it)."""
NOT_RUN = {"play", "serve", "verify-commitment", "bot"}
"""Not run here: ``play`` is interactive, ``serve`` runs until stopped, and
``verify-commitment`` and ``bot`` need a server game (their own tests run them)."""


EXAMPLES = "# the examples: tests/test_cli_doc_examples.py runs every line of this block"


def readme_commands() -> list[str]:
    """The ``cascadia`` lines of docs/CLI.md's example blocks (``sh`` blocks that start
    with :data:`EXAMPLES`; the other blocks show syntax, with placeholders)."""
    blocks = re.findall(
        r"```sh\n" + re.escape(EXAMPLES) + r"\n(.*?)```", CLI_DOC.read_text(encoding="utf-8"), flags=re.S
    )
    lines = [line.split(" #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("cascadia ")]


def command_table() -> list[tuple[str, str]]:
    """``(command name, syntax cell)`` of each row of docs/CLI.md's command table."""
    text = CLI_DOC.read_text(encoding="utf-8")
    return re.findall(r"^\| `([a-z-]+)([^`]*)`", text, flags=re.M)


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]):
    monkeypatch.setattr(sys, "argv", ["cascadia", *args])
    capsys.readouterr()
    code = run_app(app)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_readme_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CASCADIA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    commands = readme_commands()
    assert len(commands) >= 20
    game = None
    ran = set()
    for line in commands:
        args = shlex.split(line)[1:]
        if args[0] in NOT_RUN:
            continue
        if "GAME" in line:
            if game is None:
                code, out, _ = run(monkeypatch, capsys, ["games", "--json"])
                game = json.loads(out.splitlines()[0])["id"]
            args = [a.replace("GAME", game) for a in args]
        code, out, err = run(monkeypatch, capsys, args)
        assert code == 0, f"{line}: exit {code}: {err}"
        assert out.strip(), f"{line}: printed nothing"
        ran.add(args[0])
    every = {name for name, _ in command_table()}
    assert every - ran <= NOT_RUN, f"commands without an example in docs/CLI.md: {every - ran - NOT_RUN}"


def _help(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str) -> str:
    code, out, _ = run(monkeypatch, capsys, [*name.split(), "--help"])
    assert code == 0
    return out


def test_the_command_table_names_real_commands_and_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = command_table()
    assert len(rows) >= 20
    for name, syntax in rows:
        text = _help(monkeypatch, capsys, name)
        if name == "stats":
            text += "".join(_help(monkeypatch, capsys, f"stats {sub}") for sub in ("cards", "scores"))
        for option in re.findall(r"--[a-z][a-z-]*", syntax):
            assert option in text, f"docs/CLI.md: `{name}` shows {option}, which its --help does not have"


def test_the_readme_says_which_commands_have_no_home() -> None:
    group = typer.main.get_command(app)
    without = set()
    for name, command in group.commands.items():
        subcommands = getattr(command, "commands", None) or {name: command}
        for sub in subcommands.values():
            if not any("--home" in param.opts for param in sub.params):
                without.add(name)
    text = CLI_DOC.read_text(encoding="utf-8")
    sentence = re.search(r"The commands that work on\s+log files only \(([^)]*)\)\s+and\s+`rules`", text)
    assert sentence, "docs/CLI.md's --home sentence moved"
    listed = set(re.findall(r"`([a-z-]+)`", sentence.group(1))) | {"rules"}
    assert without == listed
