"""Where the commands keep their data (issue 24): ``--home`` (after the command, else
before it), else ``$CASCADIA_HOME``, else an existing ``./.cascadia`` (with a note), else
the platform's user data folder; a reading command that finds nothing says where it
looked, and a writing command says where it creates the data directory."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
import pytest
from cascadia.application.settings import default_home

NEW = ("new", "--seat-names", "greedy,random", "--seed", "1", "--json")


def game_ids(out: str) -> list[str]:
    return [json.loads(line)["id"] for line in out.splitlines()]


def test_the_default_is_the_platform_user_data_folder(tmp_path, monkeypatch, app_cli, clean_env):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert default_home() == Path(platformdirs.user_data_dir("cascadia")) == tmp_path / "xdg" / "cascadia"
    code, out, err = app_cli(*NEW)
    assert code == 0
    assert err == (
        f"note: creating the data directory {tmp_path / 'xdg' / 'cascadia'} (the default data home); "
        "pass --home DIR or set CASCADIA_HOME to choose\n"
    )
    assert (tmp_path / "xdg" / "cascadia" / "events.sqlite").is_file()
    assert not (tmp_path / ".cascadia").exists()
    code, out_games, err = app_cli("games", "--json")
    assert code == 0 and err == "" and game_ids(out_games) == game_ids(out)


def test_an_existing_dot_cascadia_here_is_still_read_with_a_note(tmp_path, monkeypatch, app_cli, clean_env):
    monkeypatch.chdir(tmp_path)
    code, out, _ = app_cli(*NEW, "--home", ".cascadia")
    assert code == 0
    code, listed, err = app_cli("games", "--json")
    assert code == 0 and game_ids(listed) == game_ids(out)
    assert err == (
        f"note: using ./.cascadia (found here); the default is now {default_home()}; pass --home to choose\n"
    )
    monkeypatch.setenv("CASCADIA_HOME", str(tmp_path / "elsewhere"))  # CASCADIA_HOME wins, silently
    code, _, err = app_cli("games")
    assert (
        code == 1
        and "note:" not in err
        and f"no games in {tmp_path / 'elsewhere'} (from $CASCADIA_HOME)" in err
    )


def test_home_before_or_after_the_command(tmp_path, app_cli, clean_env):
    first, second = tmp_path / "first", tmp_path / "second"
    made = app_cli(*NEW, "--home", str(first))[1]
    assert (
        app_cli("--home", str(first), "games", "--json")[1]
        == app_cli("games", "--json", "--home", str(first))[1]
    )
    assert game_ids(app_cli("--home", str(first), "games", "--json")[1]) == game_ids(made)
    code, _, err = app_cli("--home", str(first), "games", "--home", str(second))  # the one after wins
    assert code == 1 and f"no games in {second}:" in err
    code, _, err = app_cli("--home", str(second), "stats", "cards")  # a command of a group too
    assert code == 1 and f"no games in {second}:" in err
    code, out, _ = app_cli("--home", str(second), "stats", "cards", "--home", str(first))
    assert code == 0 and "no games match" in out  # first exists (nothing ingested yet)


@pytest.mark.parametrize("command", [("games",), ("show", "abcd"), ("stats", "cards"), ("sql", "SELECT 1")])
def test_no_data_names_the_folder_and_how_to_choose_another(
    tmp_path, monkeypatch, app_cli, clean_env, command
):
    monkeypatch.chdir(tmp_path)
    code, out, err = app_cli(*command)
    assert code == 1 and out == ""
    assert err == (
        f"error: no games in {default_home()} (the default data home): the folder does not exist; "
        "pass --home DIR or set CASCADIA_HOME\n"
    )
    assert not default_home().exists()


def test_a_data_directory_named_by_home_is_created_without_a_note(tmp_path, app_cli, clean_env):
    assert app_cli(*NEW, "--home", str(tmp_path / "new"))[2] == ""
    assert (tmp_path / "new" / "events.sqlite").is_file()


def test_play_and_ingest_say_where_they_create_the_data_directory(tmp_path, monkeypatch, app_cli, clean_env):
    source = str(tmp_path / "source")
    assert app_cli("simulate", "-n", "1", "-p", "2", "--bot", "random", "--home", source)[0] == 0
    assert app_cli("export", "--all", "-o", str(tmp_path / "logs"), "--home", source)[0] == 0
    monkeypatch.setenv("CASCADIA_HOME", str(tmp_path / "env"))
    code, _, err = app_cli("ingest", str(tmp_path / "logs"))
    assert code == 0
    assert err == (
        f"note: creating the data directory {tmp_path / 'env'} (from $CASCADIA_HOME); "
        "pass --home DIR or set CASCADIA_HOME to choose\n"
    )
    monkeypatch.delenv("CASCADIA_HOME")
    code, _, err = app_cli("new", "--seed", "3")  # `new` stores the game that `play` plays
    assert code == 0 and err.startswith(f"note: creating the data directory {default_home()} (the default")


def test_play_finds_the_game_before_it_creates_anything(tmp_path, monkeypatch, app_cli, clean_env):
    monkeypatch.chdir(tmp_path)
    code, out, err = app_cli("play", "abcd")
    assert (code, out) == (1, "")
    assert err == (
        f"error: no games in {default_home()} (the default data home): the folder does not exist; "
        "pass --home DIR or set CASCADIA_HOME\n"
    )
    assert not default_home().exists()
