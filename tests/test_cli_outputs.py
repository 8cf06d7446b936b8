"""Files the commands write, and what ``games`` and ``import`` say.

One rule for every output (``-o``): missing parent folders are created; a path on the
way that is not a folder, or an output that is a folder, is refused in one line naming
the path as the user gave it, and nothing is left behind."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from cascadia.application.store import GameStore
from cascadia.domain.game import Game


def _ids(cli, *args: str) -> list[str]:
    code, out, err = cli("simulate", "--json", *args)
    assert code == 0, err
    return [json.loads(line)["id"] for line in out.splitlines()]


def _one_line_error(code: int, err: str) -> str:
    assert code == 1 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def _no_temporaries(folder: Path) -> None:
    assert not [p for p in folder.rglob("*") if "cascadia-tmp" in p.name]


@pytest.fixture
def stored(cli, tmp_path):
    """Two finished 2-player games and their logs in ``tmp_path/logs``."""
    ids = _ids(cli, "-n", "2", "-p", "2", "--seed", "0")
    assert cli("export", "--all", "-o", str(tmp_path / "logs"))[0] == 0
    return ids, sorted((tmp_path / "logs").glob("*.cascadia"))


def test_every_output_creates_its_missing_folders(cli, tmp_path, stored):
    ids, logs = stored
    out = tmp_path / "new" / "deeper"
    runs = [
        (("view", str(logs[0]), "-o", str(out / "v" / "a.html")), False, out / "v" / "a.html"),
        (("board", ids[0][:8], "-o", str(out / "b" / "a.svg")), True, out / "b" / "a.svg"),
        (("rerun", str(logs[0]), "-o", str(out / "r" / "a.cascadia")), False, out / "r" / "a.cascadia"),
        (("export", ids[0][:8], "-o", str(out / "e" / "a.cascadia")), True, out / "e" / "a.cascadia"),
        (("export", ids[0][:8], ids[1][:8], "-o", str(out / "two")), True, out / "two"),
    ]
    for args, home, target in runs:
        code, _, err = cli(*args, home=home)
        assert code == 0, (args, err)
        assert target.exists(), args
    assert len(list((out / "two").glob("*.cascadia"))) == 2


def test_a_file_on_the_way_is_refused_naming_the_path_given(cli, tmp_path, stored, monkeypatch):
    ids, logs = stored
    monkeypatch.chdir(tmp_path)
    Path("plain").write_text("not a folder")
    for args, home in [
        (("view", str(logs[0]), "-o", "plain/a.html"), False),
        (("board", ids[0][:8], "-o", "plain/sub/a.svg"), True),
        (("rerun", str(logs[0]), "-o", "plain/a.cascadia"), False),
        (("export", ids[0][:8], "-o", "plain/a.cascadia"), True),
    ]:
        code, _, err = cli(*args, home=home)
        line = _one_line_error(code, err)
        assert f"cannot write {args[-1]}: plain is not a folder" in line, line
    _no_temporaries(tmp_path)
    Path("folder").mkdir()
    code, _, err = cli("board", ids[0][:8], "-o", "folder")
    assert "error: folder is a folder, not a regular file" in _one_line_error(code, err)


def test_several_games_are_not_exported_to_one_file(cli, tmp_path, stored, monkeypatch):
    ids, _ = stored
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("export", ids[0][:8], ids[1][:8], "-o", "one.cascadia")
    assert "several games are exported to a folder" in _one_line_error(code, err)
    assert not Path("one.cascadia").exists()
    Path("file.txt").write_text("x")
    code, _, err = cli("export", "--all", "-o", "file.txt")
    assert "file.txt is a file" in _one_line_error(code, err)


def test_import_and_audit_agree_on_a_folder_without_logs(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, err = cli("import", str(tmp_path / "empty"))
    assert "no log files to import" in _one_line_error(code, err) and out == ""
    code, out, err = cli("audit", str(tmp_path / "empty"), home=False)
    assert "no log files to audit" in _one_line_error(code, err) and out == ""


def test_import_ends_with_a_summary_line(cli, tmp_path, stored):
    home = tmp_path / "other"
    code, out, err = cli("import", str(tmp_path / "logs"), "--home", str(home), home=False)
    assert code == 0, err
    assert out.splitlines()[-2] == "2 logs: 2 imported, 0 already stored, 0 failed"
    assert out.splitlines()[-1] == f"store: sqlite:{home / 'events.sqlite'}"
    code, out, _ = cli("import", str(tmp_path / "logs"), "--home", str(home), home=False)
    assert out.splitlines()[-2] == "2 logs: 0 imported, 2 already stored, 0 failed"


# -- games --------------------------------------------------------------------------------


def test_games_says_status_winner_score_and_the_cards_drawn(cli, tmp_path):
    finished = _ids(cli, "-n", "2", "-p", "2", "--seed", "0", "--bot", "greedy")
    code, out, _ = cli("new", "--seat-names", "ann,greedy,greedy", "--seed", "3", "--json")
    unfinished = json.loads(out)["id"]
    code, out, _ = cli("games")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines[:-1]) <= 80  # the last line names the store
    store = GameStore(tmp_path)
    for game_id in finished:
        state = store.game(UUID(game_id)).state
        row = next(line for line in lines if line.strip().startswith(game_id[:8]))
        cards = "".join(state.cards.values())
        assert "finished" in row and cards in row and "random" not in row
        code, js, _ = cli("score", game_id[:8], "--json")
        sheet = json.loads(js)
        best = max(p["total"] for p in sheet["players"])
        assert f"{best}" in row
    row = next(line for line in lines if line.strip().startswith(unfinished[:8]))
    assert "round 1/20" in row and "tied 10" in row
    assert lines[-2] == "3 game(s)" and lines[-1].startswith("store: sqlite:")


def test_the_short_id_is_taken_by_every_command(cli, tmp_path):
    (game_id,) = _ids(cli, "-n", "1", "-p", "1", "--seed", "0")
    code, out, _ = cli("games", "--json")
    short = json.loads(out)["short_id"]
    assert len(short) == 8 and game_id.startswith(short)
    log = str(tmp_path / "x.cascadia")
    for args in (["show", short], ["score", short], ["achievements", short], ["export", short, "-o", log]):
        code, _, err = cli(*args)
        assert code == 0, (args, err)


def test_games_filters_and_limit(cli, tmp_path):
    _ids(cli, "-n", "3", "-p", "2", "--seed", "0")
    _ids(cli, "-n", "2", "-p", "3", "--seed", "0")
    cli("new", "--seat-names", "ann,greedy", "--seed", "1")

    def listed(*args: str) -> list[dict]:
        code, out, err = cli("games", "--json", *args)
        assert code == 0, err
        return [json.loads(line) for line in out.splitlines()]

    assert len(listed()) == 6
    assert [g["seed"] for g in listed("--players", "3")] == [0, 1]
    assert all(g["finished"] for g in listed("--finished"))
    assert [g["players"] for g in listed("--unfinished")] == [["ann", "greedy"]]
    assert [g["seed"] for g in listed("--limit", "2")] == [1, 1]  # the last two stored
    code, out, _ = cli("games", "--limit", "2")
    assert "2 of 6 game(s) (--limit 0 shows all)" in out
    code, out, _ = cli("games", "--players", "4")
    assert code == 0 and out.startswith("no games match in ") and "widen the filters" in out


def test_games_in_an_empty_store_gives_a_hint(cli, tmp_path):
    cli("new", "--seat-names", "ann", "--seed", "1")
    store_file = tmp_path / "events.sqlite"
    assert store_file.exists()
    code, out, _ = cli("games", "--players", "2")
    assert code == 0 and "create one with `cascadia new` or `cascadia simulate`" in out


def test_the_json_of_games_matches_the_stored_game(cli, tmp_path):
    (game_id,) = _ids(cli, "-n", "1", "-p", "2", "--seed", "4", "--cards", "all-a")
    code, out, _ = cli("games", "--json")
    row = json.loads(out)
    assert code == 0
    state = Game.replay(GameStore(tmp_path).game_events(UUID(game_id))).state
    assert row["options"] == {"cards": "all-a"} and row["cards"] == state.cards
    assert row["finished"] and row["turns"] == 40 and len(row["scores"]) == 2 and row["winners"]


def test_reading_commands_leave_the_data_folder_as_they_found_it(cli, tmp_path, stored):
    """games, show, export (its output aside) and score open the store read-only and
    create nothing next to it: no -wal or -shm file."""
    ids, _ = stored
    before = sorted(p.name for p in tmp_path.glob("events.sqlite*"))
    assert before == ["events.sqlite"]
    for args in (
        ["games"],
        ["show", ids[0][:8]],
        ["export", ids[0][:8], "-o", str(tmp_path / "one.cascadia")],
        ["score", ids[0][:8]],
    ):
        code, _, err = cli(*args)
        assert code == 0, err
        assert sorted(p.name for p in tmp_path.glob("events.sqlite*")) == before, args
