"""The command line tells the truth and fits the screen: one-line errors of every kind,
help that fits 80 columns with plain placeholders, ``--version``, the rules reference
(docs/RULES.md) that every citation points to and that ships with the package, and
``cascadia cards``."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer.main
from cascadia.application.documents import DOCUMENTS, document, sections
from cascadia.cli.app import COMMAND_MODULES, app, build_app, modules_for, package_version
from cascadia.domain.options import RULES_VERSION
from cascadia.projections.card_texts import CARD_SCORES, all_cards

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app_cli, clean_env):
    """``cli(*args)`` -> (exit code, stdout, stderr), at 80 columns, in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    return app_cli


def json_lines(out: str) -> list[Any]:
    """The objects of JSON Lines output (every --json prints one object per line)."""
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def one_error_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["simulate", "--players", "5"], ["--players", "'5'", "less than or equal to 4"]),
        (["simulate", "--players", "x"], ["--players", "'x'"]),
        (["simulate", "--seed", "-1"], ["--seed", "-1", "2^64"]),
        (["new", "--seed", str(2**64)], ["--seed", str(2**64)]),
        (["simulate", "--bogus"], ["--bogus"]),
        (["show"], ["GAME"]),
        (["stats", "scores", "--bin", "0"], ["--bin", "'0'"]),
        (["sql", "-- comment\nSELECT 1"], ["'-- comment\\nSELECT 1'", "--"]),
        (["ingest"], ["--from-store"]),
        (["nosuchcommand"], ["nosuchcommand"]),
    ],
)
def test_usage_errors_are_one_line_with_exit_code_2(cli, args: list[str], names: list[str]) -> None:
    code, out, err = cli(*args)
    assert code == 2 and out == ""
    line = one_error_line(err)
    for name in names:
        assert name in line, (name, line)
    assert "╭" not in err and "Usage:" not in err


def test_a_refusal_of_the_rules_is_one_line_with_exit_code_1(cli, tmp_path: Path) -> None:
    code, _, err = cli("simulate", "--players", "4", "--balanced-bag", "--home", str(tmp_path))
    assert code == 1 and "RULES.md 3.1" in one_error_line(err)


def test_a_postgresql_connection_error_is_one_line(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setenv("CASCADIA_DATABASE_URL", "postgresql://postgres@127.0.0.1:1/test")  # no server
    code, _, err = cli("games")
    line = one_error_line(err)
    assert code == 1 and "127.0.0.1:1" in line and "Is the server running" in line


@pytest.mark.parametrize("name", ["events.sqlite", "read_models.sqlite"])
def test_a_corrupt_store_file_is_named(cli, tmp_path: Path, name: str) -> None:
    home = tmp_path / "home"
    assert cli("simulate", "--players", "2", "--home", str(home))[0] == 0
    (home / name).write_bytes(b"this is not a database, it is a text file\n" * 100)
    code, _, err = cli("final-scores", "--home", str(home))
    line = one_error_line(err)
    assert code == 1 and str(home / name) in line and "file is not a database" in line
    assert "internal error" not in line


def test_an_unexpected_error_is_still_one_line(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("first line\nsecond line")

    monkeypatch.setattr("cascadia.cli.rules_commands.document", broken)
    code, _, err = cli("rules", "--full")
    assert code == 1 and "internal error (RuntimeError: first line; second line)" in one_error_line(err)


# -- help -----------------------------------------------------------------------------------


def every_command() -> list[str]:
    group = typer.main.get_command(app)
    names = []
    for name, command in group.commands.items():
        names.append(name)
        names += [f"{name} {sub}" for sub in getattr(command, "commands", {})]
    return names


def test_help_fits_80_columns_with_plain_placeholders(cli) -> None:
    assert len(every_command()) >= 27
    for name in ["", *every_command()]:
        code, out, err = cli(*name.split(), "--help")
        assert code == 0 and err == "", name
        wide = [line for line in out.splitlines() if len(line) > 80]
        assert not wide, (name, wide)
        for bad in ("<bool>", "<int", "<str>", "<list[", "<Path>", "18446744073709551615", "{", "╭"):
            assert bad not in out, (name, bad)


def test_command_lists_are_not_cut(cli) -> None:
    """Every command list (``cascadia``, ``map``, ``stats``) shows each command's whole
    one-line summary: click cuts a summary that does not fit with "..."."""
    for group in ("", "map", "stats"):
        _, out, _ = cli(*group.split(), "--help")
        listed = out.split("Commands:")[1].splitlines()[1:]
        assert len(listed) >= 7, group
        for line in listed:
            assert not line.endswith("..."), (group, line)


def test_help_paragraphs_are_rewrapped(cli) -> None:
    """A docstring's own line breaks are not kept: in every command's description, a
    line is broken only where the next word would not fit (the old help broke lines
    mid-sentence, "every\nevent compared")."""
    for name in ["", *every_command()]:
        _, out, _ = cli(*name.split(), "--help")
        description = out.split("\n\n", 1)[1].split("\nOptions:")[0].split("\nArguments:")[0]
        lines = description.splitlines()
        for line, following in itertools.pairwise(lines):
            if line.strip() and following.strip() and not following.startswith("   "):
                assert len(line.rstrip()) + 1 + len(following.split()[0]) > 78, (name, line, following)
    _, out, _ = cli("audit", "--help")
    assert re.search(r"seed and every\s+event compared", out)


def test_game_commands_come_first_and_version(cli) -> None:
    code, out, _ = cli("--help")
    listed = re.findall(r"^  ([a-z-]+)  ", out.split("Commands:")[1], flags=re.M)
    assert listed[:5] == ["new", "play", "simulate", "games", "show"]
    assert listed.index("score") < listed.index("export") < listed.index("stats")
    code, out, _ = cli("--version")
    assert code == 0 and out == f"cascadia {package_version()} (rules {RULES_VERSION})\n"
    assert package_version() != "unknown"
    code, out, _ = cli()
    assert code == 0 and out.startswith("Usage: cascadia")


def test_each_command_module_registers_the_commands_it_is_listed_with() -> None:
    """``COMMAND_MODULES`` says which module registers each command, so that a command line
    imports only the module of its command: the table must match what they register."""
    for module, names in COMMAND_MODULES.items():
        registered = typer.main.get_command(build_app([module])).commands  # type: ignore[attr-defined]
        assert sorted(registered) == sorted(names), module
    assert modules_for(["--home", "sql", "sql", "SELECT 1"]) == ("cascadia.cli.sql_commands",)
    assert modules_for(["--home=x", "rules"]) == ("cascadia.cli.rules_commands",)
    assert modules_for(["--help"]) == modules_for(["sqll"]) == tuple(COMMAND_MODULES)


def test_a_quick_command_does_not_import_the_analytics_or_the_server() -> None:
    """``cascadia rules`` starts without DuckDB, pyarrow or the web server in memory."""
    probe = (
        "import sys; from cascadia.cli.app import build_app, modules_for; "
        "build_app(modules_for(['rules', '--full'])); "
        "print(sorted(m for m in ('duckdb', 'pyarrow', 'fastapi', 'cascadia.server') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


# -- the rules reference ----------------------------------------------------------------------


def cited_sections() -> set[str]:
    """Every section number cited as "RULES.md N" (or "RULES.md N-M") in the code, the
    tests, the README and the other documents (docs/, but the reference itself)."""
    cited: set[str] = set()
    folders = ("domain", "projections", "replays", "analytics", "bots", "application", "cli", "tests")
    documents = [ROOT / "README.md", *(p for p in (ROOT / "docs").glob("*.md") if p.name != "RULES.md")]
    paths = [*documents, *(p for folder in folders for p in (ROOT / folder).rglob("*.[pm][yd]"))]
    citation = re.compile(r"RULES\.md (?:section )?(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?")
    for path in paths:
        for match in citation.finditer(path.read_text(encoding="utf-8")):
            cited.update(group for group in match.groups() if group)
    return cited


def reference_sections() -> set[str]:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    found = set()
    for level in (2, 3):
        for heading, _ in sections(text, level):
            number = heading.split(" ")[0].rstrip(".")
            if re.fullmatch(r"\d+(\.\d+)?", number):
                found.add(number)
    return found


def test_every_citation_points_to_a_section_of_docs_rules() -> None:
    cited = cited_sections()
    assert {"4.1", "4.3", "5.8", "7.10", "8"} <= cited
    missing = cited - reference_sections()
    assert not missing, f"cited but not in docs/RULES.md: {sorted(missing)}"


def test_the_reference_describes_rules_version_2_of_overpopulation_and_the_lengths() -> None:
    text = " ".join(document("rules").split())
    overpopulation = text[text.index("### 4.1") : text.index("### 4.2")]
    assert "return to the bag only after that" in overpopulation
    assert "the whole wipe is over" in overpopulation
    assert "Rules version 1" in overpopulation and "after each single wipe" in overpopulation
    assert "each player has 18 turns (solo 19)" in text and "18 turns per player (solo 19)" in text


def test_rules_says_what_the_sections_refer_to_and_prints_the_reference(cli) -> None:
    code, out, _ = cli("rules")
    flat = " ".join(out.split())
    assert code == 0 and "are sections of docs/RULES.md" in flat and "cascadia rules --full" in flat
    assert "is 18 turns a player (solo 19)" in flat
    assert "the stack has one tile fewer (20 x players + 2), so still 20 turns a player" in flat
    assert all(len(line) <= 80 for line in out.splitlines())
    code, out, _ = cli("rules", "--full")
    assert code == 0 and out.strip() == (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8").strip()
    code, out, _ = cli("rules", "--json")
    assert json_lines(out)[0]["rules_reference"] == "docs/RULES.md"


def test_the_documents_are_package_data(tmp_path: Path) -> None:
    """setuptools' build step (what a wheel is made of), run on a copy of the sources,
    puts every document the CLI prints into the built packages."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (source / name).write_bytes((ROOT / name).read_bytes())
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for folder in config["tool"]["setuptools"]["package-dir"].values():
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    build = tmp_path / "build"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from setuptools import setup; setup()",
            "-q",
            "build_py",
            "--build-lib",
            str(build),
        ],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for package, filename in DOCUMENTS.values():
        assert (build / package.replace(".", "/") / filename).is_file(), (package, filename)


# -- cards ------------------------------------------------------------------------------------


def test_cards_lists_the_21_cards(cli) -> None:
    cards = all_cards()  # 20 lettered cards and the two sides of the variant card: 21 cards
    assert len(cards) == len(CARD_SCORES) == 22
    assert [c["card"] for c in cards if c["species"] == "all"] == ["family", "intermediate"]
    code, out, _ = cli("cards")
    assert code == 0 and all(len(line) <= 80 for line in out.splitlines()) and "…" not in out
    for card in cards:
        assert re.search(rf"^ ?{card['card']} ", out, flags=re.M), card["card"]
    code, out, _ = cli("cards", "--json")
    assert [c["card"] for c in json_lines(out)] == [c["card"] for c in cards]


@pytest.mark.parametrize(
    ("flags", "marked"),
    [
        (
            ["--cards", "A,B,C,D,A"],
            {"bear A": "1", "elk B": "1", "salmon C": "1", "hawk D": "1", "fox A": "1"},
        ),
        (["--cards", "family"], {"family": "1"}),
    ],
)
def test_cards_of_a_game_are_marked(cli, tmp_path: Path, flags: list[str], marked: dict[str, str]) -> None:
    home = str(tmp_path / "home")
    assert cli("simulate", "--players", "2", *flags, "--home", home)[0] == 0
    game = json_lines(cli("games", "--json", "--home", home)[1])[0]["id"]
    code, out, _ = cli("cards", game[:8], "--json", "--home", home)
    shown = {c["card"]: c["set"] for c in json_lines(out) if c["set"]}
    assert code == 0 and shown == marked
    code, out, _ = cli("cards", game[:8], "--home", home)
    assert code == 0 and game in out
    for card in marked:
        assert re.search(rf"^ ?{card}\s+1\s+5\.\d", out, flags=re.M), card


def test_cards_of_a_two_card_sets_game_mark_both_sets(cli, tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    assert cli("simulate", "--players", "2", "--rule", "two_card_sets", "--home", home)[0] == 0
    game = json_lines(cli("games", "--json", "--home", home)[1])[0]["id"]
    state = json_lines(cli("show", game, "--json", "--home", home)[1])[0]
    rows = json_lines(cli("cards", game, "--json", "--home", home)[1])
    marks = {c["card"]: c["set"] for c in rows if c["set"]}
    assert sorted(marks.values()) == ["1"] * 5 + ["2"] * 5
    for species, letter in state["cards"].items():
        assert marks[f"{species} {letter}"] == "1"


def test_the_game_tables_fit_80_columns(cli, tmp_path: Path) -> None:
    """Whole ids (what the other commands take) and long names, nothing cut."""
    home = str(tmp_path / "home")
    assert cli("new", "--seat-names", "annabelle,greedy,random,bartholomew", "--home", home)[0] == 0
    assert (
        cli("simulate", "--players", "4", "--seed", str(2**64 - 2), "--bot", "greedy,random", "--home", home)[
            0
        ]
        == 0
    )
    games = json_lines(cli("games", "--json", "--home", home)[1])
    for args in (["games"], ["score", games[0]["id"][:8]], ["cards", games[1]["id"][:8]], ["rules"]):
        code, out, _ = cli(*args, "--home", home) if args[0] != "rules" else cli(*args)
        assert code == 0 and "…" not in out, args
        assert all(len(line.rstrip()) <= 80 for line in out.splitlines() if home not in line), args
        if args == ["games"]:
            assert all(game["id"][:8] in out for game in games) and "bartholomew" in out
