"""Real ``cascadia serve`` processes on 127.0.0.1: a kill -9 loses no acknowledged
command and a resumed stream misses nothing; two processes on one PostgreSQL database
serve the same games (streams across processes, one winner of a race)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_support import LiveServer, bearer, next_command, read_sse

pytest_plugins = ["store_backends"]


@pytest.fixture
def live_servers() -> Iterator[list[LiveServer]]:
    """A list to put started servers in; each is stopped after the test."""
    servers: list[LiveServer] = []
    yield servers
    for server in servers:
        server.stop()


def _create(url: str, seats: list[dict[str, str]] | None = None) -> dict[str, Any]:
    body = {"seats": seats or [{"name": "ann"}, {"name": "bob"}]}
    answer = httpx.post(f"{url}/api/games", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def _move(url: str, game: dict[str, Any]) -> httpx.Response | None:
    """One command of the seat to move (``None`` when the game is over)."""
    gid = game["game_id"]
    public = httpx.get(f"{url}/api/games/{gid}", timeout=10).json()
    if public["finished"]:
        return None
    token = game["seats"][public["current_player"]]["token"]
    view = httpx.get(f"{url}/api/games/{gid}", headers=bearer(token), timeout=10).json()
    body = {"command": next_command(view), "expected_version": view["version"]}
    return httpx.post(f"{url}/api/games/{gid}/commands", headers=bearer(token), json=body, timeout=10)


def _stream(url: str, gid: str, until: int, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The game-event messages of a stream opened with ``headers``, up to version ``until``."""
    with httpx.stream("GET", f"{url}/api/games/{gid}/stream", headers=headers or {}, timeout=20) as answer:
        assert answer.status_code == 200
        return read_sse(answer.iter_lines(), lambda m: int(m[-1].get("id", 0)) >= until)


def _watch(url: str, gid: str, after: int, into: list[dict[str, Any]], ready: threading.Event) -> None:
    """Open the stream after version ``after``; put its first game event in ``into``."""
    with httpx.stream("GET", f"{url}/api/games/{gid}/stream?after={after}", timeout=20) as answer:
        ready.set()
        into.extend(read_sse(answer.iter_lines(), lambda m: m[-1].get("event") == "game-event"))


def test_kill_9_loses_no_acknowledged_command(tmp_path: Path, live_servers: list[LiveServer]) -> None:
    """Commands are posted while the server is killed with SIGKILL; after a restart every
    acknowledged command's events are stored, and a stream resumed with Last-Event-ID
    continues exactly after the last event it saw."""
    server = LiveServer(tmp_path / "home")
    live_servers.append(server.start())
    game = _create(server.url)
    gid = game["game_id"]
    for _ in range(6):
        assert _move(server.url, game).status_code == 200
    seen = _stream(server.url, gid, until=game["version"] + 3)
    last_seen = int(seen[-1]["id"])

    acknowledged: list[dict[str, Any]] = []
    stop = threading.Event()

    def keep_playing() -> None:
        while not stop.is_set():
            try:
                answer = _move(server.url, game)
            except httpx.HTTPError:
                return  # the server is gone
            if answer is not None and answer.status_code == 200:
                acknowledged.append(answer.json())

    player = threading.Thread(target=keep_playing)
    player.start()
    while len(acknowledged) < 10 and player.is_alive():
        threading.Event().wait(0.01)
    server.kill()
    stop.set()
    player.join(30)
    assert len(acknowledged) >= 10

    server.start()
    stored = httpx.get(f"{server.url}/api/games/{gid}/events", timeout=10).json()
    by_version = {event["version"]: event for event in stored["events"]}
    assert sorted(by_version) == list(range(1, stored["version"] + 1))
    for answer in acknowledged:
        for event in answer["events"]:
            assert by_version[event["version"]] == event
    resumed = _stream(server.url, gid, until=stored["version"], headers={"Last-Event-ID": str(last_seen)})
    assert [int(m["id"]) for m in resumed] == list(range(last_seen + 1, stored["version"] + 1))
    assert [m["data"] for m in resumed] == [
        by_version[v] for v in range(last_seen + 1, stored["version"] + 1)
    ]


def test_two_processes_on_postgresql(
    tmp_path: Path, postgres_url: str, live_servers: list[LiveServer]
) -> None:
    """A command posted to either process appears in the other's stream; two commands
    racing for one game version: one is stored, the other gets 409."""
    env = {"CASCADIA_DATABASE_URL": postgres_url}
    a = LiveServer(tmp_path / "a", env, tmp_path / "a.log").start()
    live_servers.append(a)
    b = LiveServer(tmp_path / "b", env, tmp_path / "b.log").start()
    live_servers.append(b)
    game = _create(a.url)
    gid = game["game_id"]
    assert httpx.get(f"{b.url}/api/games/{gid}", timeout=10).json()["version"] == game["version"]

    for poster, watcher in ((a, b), (b, a), (a, b)):
        version = httpx.get(f"{watcher.url}/api/games/{gid}", timeout=10).json()["version"]
        received: list[dict[str, Any]] = []
        ready = threading.Event()

        thread = threading.Thread(target=_watch, args=(watcher.url, gid, version, received, ready))
        thread.start()
        ready.wait(10)
        answer = _move(poster.url, game)
        assert answer is not None and answer.status_code == 200
        thread.join(20)
        assert received and received[0]["data"] == answer.json()["events"][0]

    public = httpx.get(f"{a.url}/api/games/{gid}", timeout=10).json()
    token = game["seats"][public["current_player"]]["token"]
    view = httpx.get(f"{a.url}/api/games/{gid}", headers=bearer(token), timeout=10).json()
    body = {"command": next_command(view), "expected_version": view["version"]}
    results: list[int] = []
    barrier = threading.Barrier(2)

    def post(url: str) -> None:
        barrier.wait()
        answer = httpx.post(f"{url}/api/games/{gid}/commands", headers=bearer(token), json=body, timeout=10)
        results.append(answer.status_code)

    racers = [threading.Thread(target=post, args=(server.url,)) for server in (a, b)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(20)
    assert sorted(results) == [200, 409]
    after = httpx.get(f"{b.url}/api/games/{gid}/events?after={view['version']}", timeout=10).json()
    assert len({e["version"] for e in after["events"]}) == len(after["events"])


def _watch_map(url: str, map_id: str, after: int, into: list[dict[str, Any]], ready: threading.Event) -> None:
    """Open the map's stream after version ``after``; put its first message in ``into``."""
    with httpx.stream("GET", f"{url}/api/maps/{map_id}/stream?after={after}", timeout=20) as answer:
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
        ready.set()
        into.extend(read_sse(answer.iter_lines(), lambda messages: True))


def test_a_map_stream_shows_each_change_made_by_any_process(tmp_path: Path, live_servers) -> None:
    """The map page's live view: a change of the map made by another process (here the
    command line on the same store) reaches an open stream as the map's new progress."""
    import subprocess
    import sys

    home = tmp_path / "home"
    server = LiveServer(home).start()
    live_servers.append(server)
    created = httpx.post(f"{server.url}/api/maps", json={"name": "duo", "players": ["ann"]}, timeout=10)
    assert created.status_code == 201, created.text
    the_map = created.json()
    into: list[dict[str, Any]] = []
    ready = threading.Event()
    watcher = threading.Thread(
        target=_watch_map, args=(server.url, the_map["map_id"], the_map["version"], into, ready)
    )
    watcher.start()
    assert ready.wait(20)
    cascadia = str(Path(sys.executable).parent / "cascadia")
    joined = subprocess.run(
        [cascadia, "map", "join", "duo", "bob", "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert joined.returncode == 0, joined.stderr
    watcher.join(20)
    assert not watcher.is_alive()
    (message,) = into
    assert message["event"] == "map" and int(message["id"]) == message["data"]["version"] > the_map["version"]
    assert [p["player"] for p in message["data"]["players"]] == ["ann", "bob"]
    with httpx.stream("GET", f"{server.url}/api/maps/{the_map['map_id']}/stream", timeout=20) as answer:
        (first,) = read_sse(answer.iter_lines(), lambda messages: True)  # from the start: the map now
    assert first["data"] == message["data"]
    assert httpx.get(f"{server.url}/api/maps/{'0' * 32}/stream", timeout=10).status_code == 404
