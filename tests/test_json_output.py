"""Every ``--json`` output follows one convention (README, "The command line"): JSON
Lines, one object per line on stdout; a command about one thing prints exactly one.

The commands are found by walking the typer application, so a new command with
``--json`` must be added to :data:`RUNS` (the test fails until it is)."""

from __future__ import annotations

import json

import typer.main
from cascadia.cli.app import app

ONE = "one"
"""A command about one thing: exactly one object."""
LINES = "lines"
"""A command over many things: one object per thing."""

RUNS: dict[str, tuple[list[str], str, bool]] = {
    # command: (arguments, kind, whether it takes --home)
    "simulate": (["simulate", "-n", "2", "-p", "2", "--seed", "0", "--bot", "greedy"], LINES, True),
    "study": (["study", "{tmp}/study", "-n", "2", "--shard-size", "1"], ONE, False),
    "new": (["new", "--seat-names", "ann,greedy", "--seed", "5"], ONE, True),
    "games": (["games"], LINES, True),
    "show": (["show", "{game}"], ONE, True),
    "score": (["score", "{game}", "--turn", "5"], ONE, True),
    "achievements": (["achievements", "{game}"], ONE, True),
    "final-scores": (["final-scores"], ONE, True),
    "rules": (["rules"], ONE, False),
    "cards": (["cards", "{game}"], LINES, True),
    "export": (["export", "--all", "-o", "{tmp}/logs"], LINES, True),
    "import": (["import", "{tmp}/logs"], LINES, True),
    "replay": (["replay", "{log}", "--to", "40"], LINES, False),
    "audit": (["audit", "{tmp}/logs"], LINES, False),
    "rerun": (["rerun", "{log}", "-o", "{tmp}/out/rerun.cascadia"], ONE, False),
    "diff": (["diff", "{log}", "{log}"], ONE, False),
    "analyse": (["analyse", "{log}", "--budget", "1", "--seat", "0"], LINES, False),
    "view": (["view", "{log}", "-o", "{tmp}/out/view.html"], ONE, False),
    "board": (["board", "{game}", "-o", "{tmp}/out/board.svg"], ONE, True),
    "ingest": (["ingest", "--from-store"], ONE, True),
    "sql": (["sql", "SELECT game_id, players FROM games ORDER BY game_id"], LINES, True),
    "migrate": (["migrate", "--to", "sqlite:{tmp}/copy"], ONE, True),
    "stats cards": (["stats", "cards"], LINES, True),
    "stats seats": (["stats", "seats"], LINES, True),
    "stats bots": (["stats", "bots"], LINES, True),
    "stats nature": (["stats", "nature"], ONE, True),
    "stats overpopulation": (["stats", "overpopulation"], ONE, True),
    "stats scores": (["stats", "scores"], ONE, True),
    "stats achievements": (["stats", "achievements"], ONE, True),
    "tournament": (["tournament", "--bots", "random,greedy", "-p", "2", "-n", "1", "-s", "50"], ONE, True),
    "map new": (["map", "new", "family", "--player", "ann"], ONE, True),
    "map join": (["map", "join", "family", "bob"], ONE, True),
    "map show": (["map", "show", "family"], ONE, True),
    "map list": (["map", "list"], LINES, True),
    "map mark": (["map", "mark", "family", "ann", "{game}"], ONE, True),
    "map audit": (["map", "audit", "{tmp}/family.cascadia-map"], ONE, True),
}
"""In the order they run (later ones use what earlier ones stored)."""


def json_commands() -> set[str]:
    """Every command of the application that has a ``--json`` option."""
    found: set[str] = set()

    def walk(command, prefix: str) -> None:
        if hasattr(command, "commands"):
            for name, sub in command.commands.items():
                walk(sub, f"{prefix} {name}".strip())
        elif any("--json" in getattr(param, "opts", []) for param in command.params):
            found.add(prefix)

    walk(typer.main.get_command(app), "")
    return found


def test_every_json_command_is_covered():
    assert json_commands() == set(RUNS)


def test_every_json_output_is_one_object_per_line(cli, tmp_path):
    """Each command's stdout: every line a JSON object; one line for a single result."""
    values = {"tmp": str(tmp_path)}
    for name, (args, kind, takes_home) in RUNS.items():
        if name == "map audit":
            assert cli("map", "export", "family", "-o", f"{tmp_path}/family.cascadia-map")[0] == 0
        argv = [arg.format(**values) for arg in args]
        code, out, err = cli(*argv, "--json", home=takes_home)
        assert code == 0, (name, err)
        lines = out.splitlines()
        objects = [json.loads(line) for line in lines]
        assert all(isinstance(o, dict) for o in objects), name
        if kind == ONE:
            assert len(objects) == 1, (name, out)
        if name == "simulate":
            assert [o["already_stored"] for o in objects] == [False, False]
            values["game"] = objects[0]["id"][:8]
        if name == "export":
            values["log"] = objects[0]["file"]
        if name == "games":
            assert len(objects) == 3 and objects[0]["short_id"] == values["game"]
        if name == "new":
            new_options = objects[0]["options"]
    code, out, _ = cli("games", "--json", "--players", "2", "--unfinished")
    assert json.loads(out)["options"] == new_options  # the same names as `new --json`
    code, out, _ = cli("simulate", "-n", "1", "-p", "2", "--seed", "0", "--bot", "greedy", "--json")
    assert json.loads(out)["already_stored"] is True


def test_floats_are_rounded(cli):
    cli("simulate", "-n", "3", "-p", "2", "--seed", "0", "--ingest")
    code, out, _ = cli("sql", "SELECT 1.0 / 3 AS third", "--json")
    assert code == 0 and json.loads(out) == {"third": 0.3333}


def test_an_empty_list_prints_no_line(cli):
    cli("simulate", "-n", "1", "-p", "1", "--seed", "0")
    code, out, _ = cli("games", "--json", "--players", "4")
    assert code == 0 and out == ""
