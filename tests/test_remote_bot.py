"""Remote bots (docs/REMOTE_BOTS.md): a game rebuilt from a seat's masked events decides
as the full game does; ``cascadia bot`` and a plain node bot play whole games against a
live server; a dropped stream is followed on; garbage and a sleeping client harm nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import server_support
from cascadia.bots.registry import bot_for_turn
from cascadia.bots.seat_game import seat_game
from cascadia.cli.remote_seat import RemoteError, SeatClient, follow, parse_join_link
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.projections.player_view import player_view
from cascadia.projections.turns import game_round
from cascadia.replays.audit import audit_file
from cascadia.server.views import event_for, masks_for
from server_support import LiveServer, bearer, next_command

ROOT = Path(__file__).resolve().parents[1]
CASCADIA = str(Path(sys.executable).parent / "cascadia")
GUESSED = ("options", "cards", "second_cards", "scores")
"""The parts of a seat's view that a rebuilt game guesses (hidden letters)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "home").start()
    yield live
    live.stop()


def _create(url: str, seats: list[dict[str, str]], rules: list[str] | None = None) -> dict[str, Any]:
    body = {"seats": seats, "options": {"rules": rules or []}}
    answer = httpx.post(f"{url}/api/games", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def _link(url: str, game: dict[str, Any], seat: int) -> str:
    return url + game["seats"][seat]["join_link"]


def _assert_audits(url: str, game_id: str, path: Path) -> None:
    """The finished game's log, downloaded, passes the audit (chain, rules, draws, scores)."""
    answer = httpx.get(f"{url}/api/games/{game_id}/log", timeout=10)
    assert answer.status_code == 200, answer.text
    path.write_bytes(answer.content)
    result = audit_file(path)
    assert result.valid and result.finished, result.message


def _play(link: str, bot: str = "random") -> subprocess.CompletedProcess[str]:
    command = [CASCADIA, "bot", "--link", link, "--bot", bot, "--seed", "5"]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


# -- a game rebuilt from a seat's events ------------------------------------------------


@pytest.mark.parametrize("options", [GameOptions(), GameOptions(secret_cards=True, cards="A,B,C,D,A")])
def test_a_seats_events_rebuild_its_game(options: GameOptions) -> None:
    """At every turn of a whole game, the game rebuilt from the active seat's masked
    events shows that seat what the real game shows it (all but the guessed letters) and
    has the same legal commands; another seat's reveal (SecretCardRevealed) folds in."""
    game = Game.start(3, ["random", "random"], options)
    events = game.collect_events()
    while not game.finished:
        seat = game.state.current
        masks = masks_for(game.state, seat)
        served = [event_for(event, masks, game.state.names, game_round(game.state).of) for event in events]
        rebuilt = seat_game(game.id, served)
        seen, real = player_view(rebuilt.state, seat), player_view(game.state, seat)
        assert {k: v for k, v in seen.items() if k not in GUESSED} == {
            k: v for k, v in real.items() if k not in GUESSED
        }
        assert rebuilt.legal_commands() == game.legal_commands()
        bot_for_turn(game.state).play_turn(game)
        events += game.collect_events()
    assert not options.secret_cards or any(e.type == "SecretCardRevealed" for e in events)


# -- the client's pieces --------------------------------------------------------------


def test_join_links() -> None:
    link = parse_join_link("http://h:8/play.html?game=g1&seat=1#token=abc")
    assert (link.server, link.game_id, link.seat, link.token) == ("http://h:8", "g1", 1, "abc")
    assert parse_join_link("/play.html?game=g1&seat=0#token=t", "http://h:8/").server == "http://h:8"
    for bad in ("/play.html?game=g1&seat=0#token=t", "http://h/play.html?game=g1&seat=0"):
        with pytest.raises(RemoteError):
            parse_join_link(bad)


def _messages(first: int, last: int, over: bool = False) -> list[str]:
    lines = [": keep-alive", ""]
    for version in range(first, last + 1):
        lines += [f"id: {version}", "event: game-event", f'data: {{"version": {version}}}', ""]
    return lines + (["event: game-over", f'data: {{"version": {last}}}', ""] if over else [])


def test_a_dropped_stream_is_reopened_after_the_last_event() -> None:
    """A stream that closes early, or breaks, is opened again after the last event seen:
    every event arrives once, in order, and game-over ends it."""
    asked: list[int] = []

    def open_lines(after: int) -> Iterator[str]:
        asked.append(after)
        if len(asked) == 1:
            yield from _messages(after + 1, after + 4)  # then closes without game-over
        elif len(asked) == 2:
            yield from _messages(after + 1, after + 2)
            raise ConnectionResetError("reset by peer")
        else:
            yield from _messages(after + 1, 10, over=True)

    notes: list[str] = []
    messages = list(follow(open_lines, after=2, sleep=lambda _: None, note=notes.append))
    assert asked == [2, 6, 8]
    assert [m["data"]["version"] for m in messages] == [*range(3, 11), 10]
    assert messages[-1]["event"] == "game-over" and len(notes) == 2


def test_a_stream_that_keeps_dropping_is_given_up() -> None:
    def open_lines(after: int) -> Iterator[str]:
        raise ConnectionRefusedError("refused")
        yield ""  # a generator, as the client's

    with pytest.raises(RemoteError, match="3 times in a row after version 4"):
        list(follow(open_lines, after=4, sleep=lambda _: None, retries=3))


def test_a_request_the_server_does_not_answer_is_sent_again() -> None:
    """Nothing listens on the port: each request is tried ``retries`` more times, each
    retry noted, then the client gives up with one error."""
    link = parse_join_link(f"http://127.0.0.1:{server_support.free_port()}/play.html?game=g&seat=0#token=t")
    notes: list[str] = []
    client = SeatClient(link, retries=2, note=notes.append, sleep=lambda _: None)
    with pytest.raises(RemoteError, match="cannot reach"):
        client.view()
    assert len(notes) == 2 and all("trying again" in note for note in notes)


# -- whole games against a live server -------------------------------------------------


def test_cascadia_bot_plays_a_whole_game(server: LiveServer, tmp_path: Path) -> None:
    """``cascadia bot`` plays seat 0 of a secret-cards game against a server bot to the
    end: one line per decision on stderr, the final scores on stdout, and the log audits."""
    game = _create(server.url, [{"name": "remote"}, {"bot": "random"}], rules=["secret_cards"])
    done = _play(_link(server.url, game, 0), bot="greedy")
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["seat 0", "seat 1"]
    decisions = done.stderr.splitlines()
    assert len(decisions) >= 3 * 20 and all(line.startswith("turn ") for line in decisions)
    _assert_audits(server.url, game["game_id"], tmp_path / "game.cascadia")


def test_cascadia_bot_follows_its_game_across_a_server_restart(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stops (its streams end with ``server-closing``) while ``cascadia bot``
    waits for the other seat, and starts again on the same port: the bot reconnects
    after the last event it saw and plays on to the end."""
    game = _create(server.url, [{"name": "remote"}, {"name": "human"}])
    gid, token = game["game_id"], game["seats"][1]["token"]
    command = [CASCADIA, "bot", "--link", _link(server.url, game, 0), "--bot", "random", "--seed", "5"]
    bot = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while _play_human(server.url, gid, token)["state"]["turn"] < 3:
            pass  # until the bot has waited for a turn of the human's: its stream is open
        server.stop()
        monkeypatch.setattr(server_support, "free_port", lambda: server.port)
        server.start()
        while not _play_human(server.url, gid, token)["finished"]:
            pass
        out, err = bot.communicate(timeout=60)
    finally:
        bot.kill()
    assert bot.returncode == 0, err
    assert "the stream dropped after version" in err and len(out.splitlines()) == 2
    _assert_audits(server.url, gid, tmp_path / "game.cascadia")


def _play_human(url: str, game_id: str, token: str) -> dict[str, Any]:
    """Once ``token``'s seat is to move (or the game is over), its view; then, unless the
    game is over, the seat's next command (:func:`next_command`) is posted."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = httpx.get(f"{url}/api/games/{game_id}", headers=bearer(token), timeout=10).json()
        if view["finished"]:
            return view
        if view["your_turn"]:
            body = {"command": next_command(view), "expected_version": view["version"]}
            post = f"{url}/api/games/{game_id}/commands"
            answer = httpx.post(post, headers=bearer(token), json=body, timeout=10)
            assert answer.status_code == 200, answer.text
            return view
        time.sleep(0.05)
    raise AssertionError("the seat was not to move within 60 s")


def test_cascadia_bot_refuses_an_unknown_bot_and_a_bad_link() -> None:
    done = _play("http://127.0.0.1:9/play.html?game=g&seat=0#token=t", bot="greedyy")
    assert done.returncode == 1 and "did you mean 'greedy'" in done.stderr
    done = _play("/play.html?game=g&seat=0#token=t")
    assert done.returncode == 1 and done.stderr.startswith("error: the link has no server address")


def _node() -> str:
    """The path of node 18 or later (its built-in ``fetch``); the test is skipped without
    it, unless ``CASCADIA_REQUIRE_NODE=1`` (CI) makes that a failure."""
    node = shutil.which("node")
    asked = None if node is None else subprocess.run([node, "--version"], capture_output=True, text=True)
    version = "" if asked is None else asked.stdout
    major = version.strip().removeprefix("v").split(".")[0]
    if node is not None and major.isdigit() and int(major) >= 18:
        return node
    reason = f"node 18 or later is not installed (found: {version.strip() or 'none'})"
    if os.environ.get("CASCADIA_REQUIRE_NODE") == "1":
        pytest.fail(f"{reason} and CASCADIA_REQUIRE_NODE=1")
    pytest.skip(f"{reason}; CASCADIA_REQUIRE_NODE=1 makes this a failure")


def test_a_node_bot_plays_a_whole_game(server: LiveServer, tmp_path: Path) -> None:
    """tests/remote_bot.js (plain JavaScript, no packages) plays seat 1 to the end."""
    node = _node()
    game = _create(server.url, [{"bot": "random"}, {"name": "node"}])
    command = [node, str(ROOT / "tests" / "remote_bot.js"), _link(server.url, game, 1)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2
    _assert_audits(server.url, game["game_id"], tmp_path / "game.cascadia")


def _public(url: str, game_id: str) -> dict[str, Any]:
    return httpx.get(f"{url}/api/games/{game_id}", timeout=10).json()


def _bots_done(url: str, game_id: str, seconds: float = 60) -> dict[str, Any]:
    """The game's public view once no bot is to move (a bot seated first moves in the
    background after the game is created)."""
    deadline = time.monotonic() + seconds
    while (view := _public(url, game_id))["bot_to_move"]:
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)
    return view


def test_garbage_and_a_sleeping_client_harm_nothing(server: LiveServer, tmp_path: Path) -> None:
    """A client that posts garbage gets 4xx and changes nothing; one that sleeps on its
    turn, its stream open and unread, holds only its own game: another game is played
    to the end meanwhile, and the sleeper's game then finishes and audits."""
    url = server.url
    game = _create(url, [{"name": "sleepy"}, {"bot": "random"}])
    gid, token = game["game_id"], game["seats"][0]["token"]
    before = _bots_done(url, gid)  # the sleeper's turn, whoever was seated first
    post, version = f"{url}/api/games/{gid}/commands", before["version"]
    garbage: list[dict[str, Any]] = [
        {"content": b"\xff\xfe not json", "headers": {"Content-Type": "application/json"}},
        {"json": {"command": "take 1"}},
        {"json": {"command": {"type": "fly"}, "expected_version": version}},
        {"json": {"command": {"type": "take", "tile_slot": 9}, "expected_version": version}},
        {"json": {"command": {"type": "place_wildlife", "q": 0, "r": 0}, "expected_version": version}},
        {"json": {"command": {"type": "wipe_three"}, "expected_version": version - 1}},
        {"json": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]},
        {"content": b"{" + b" " * 70_000 + b"}", "headers": {"Content-Type": "application/json"}},
    ]
    for request in garbage:
        headers = {**bearer(token), **request.pop("headers", {})}
        answer = httpx.post(post, headers=headers, timeout=10, **request)
        assert 400 <= answer.status_code < 500, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
    body = {"command": {"type": "wipe_three"}, "expected_version": version}
    forged = httpx.post(post, headers=bearer("x" * 43), json=body, timeout=10)
    assert forged.status_code == 401
    assert _public(url, gid) == before

    with httpx.stream("GET", f"{url}/api/games/{gid}/stream", headers=bearer(token), timeout=30) as sleeping:
        assert sleeping.status_code == 200  # opened, never read
        other = _create(url, [{"bot": "random"}, {"name": "busy"}])
        done = _play(_link(url, other, 1))
        assert done.returncode == 0, done.stderr
        assert _public(url, gid) == before  # nobody moved for the sleeper
    done = _play(_link(url, game, 0))
    assert done.returncode == 0, done.stderr
    _assert_audits(url, gid, tmp_path / "sleeper.cascadia")
    _assert_audits(url, other["game_id"], tmp_path / "other.cascadia")
