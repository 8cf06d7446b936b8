"""An operator's server: health and readiness, Prometheus metrics, an access log a request
cannot forge, a taken port, SIGTERM, and several worker processes on PostgreSQL."""

from __future__ import annotations

import json
import logging
import re
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_support import LiveServer, bearer, create_game, free_port, next_command, read_sse, tokens

pytest_plugins = ["store_backends"]


def _metric(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels, as written) in an exposition."""
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert match, f"{name} not in the metrics"
    return float(match.group(1))


def _command(client: Any, game: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """The headers and body of the next command of the seat to move."""
    public = client.get(f"/api/games/{game['game_id']}").json()
    headers = bearer(tokens(game)[public["current_player"]])
    view = client.get(f"/api/games/{game['game_id']}", headers=headers).json()
    return headers, {"command": next_command(view), "expected_version": view["version"]}


def test_health_and_readiness(api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert api.get("/healthz").json() == {"status": "ok"}
    assert api.get("/readyz").json() == {"status": "ready"}

    def unreachable() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(api.app.state.service.store, "ping", unreachable)  # type: ignore[attr-defined]
    answer = api.get("/readyz")
    assert answer.status_code == 503
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"].endswith("/not-ready") and "store" in answer.json()["detail"]
    assert api.get("/healthz").status_code == 200  # alive all the same
    monkeypatch.undo()

    api.app.state.hub.draining = True  # type: ignore[attr-defined]
    answer = api.get("/readyz")
    assert answer.status_code == 503 and "shutting down" in answer.json()["detail"]


def test_metrics_count_commands_and_games(api: TestClient) -> None:
    before = api.get("/metrics")
    assert before.status_code == 200 and before.headers["content-type"].startswith("text/plain")
    for name in (
        "cascadia_commands_total",
        "cascadia_command_seconds",
        "cascadia_open_streams",
        "cascadia_games_in_play",
        "cascadia_conflicts_total",
    ):
        assert f"# TYPE {name.removesuffix('_total')}" in before.text
    applied = _metric(before.text, 'cascadia_commands_total{outcome="applied"}')
    conflicts = _metric(before.text, 'cascadia_commands_total{outcome="conflict"}')
    timed = _metric(before.text, "cascadia_command_seconds_count")
    assert _metric(before.text, "cascadia_games_in_play") == 0

    game = create_game(api)
    headers, body = _command(api, game)
    assert api.post(f"/api/games/{game['game_id']}/commands", headers=headers, json=body).status_code == 200
    assert api.post(f"/api/games/{game['game_id']}/commands", headers=headers, json=body).status_code == 409

    after = api.get("/metrics").text
    assert _metric(after, 'cascadia_commands_total{outcome="applied"}') == applied + 1
    assert _metric(after, 'cascadia_commands_total{outcome="conflict"}') == conflicts + 1
    assert _metric(after, "cascadia_command_seconds_count") == timed + 2
    assert _metric(after, "cascadia_games_in_play") == 1

    bots = create_game(api, seats=[{"bot": "random"}])  # played to the end before the answer
    assert api.get(f"/api/games/{bots['game_id']}").json()["finished"]
    assert _metric(api.get("/metrics").text, "cascadia_games_in_play") == 1


def test_the_access_log_cannot_be_forged(api: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """CR, LF and NUL in a path come out escaped: one JSON object per line, whatever the
    request; a token in a path or a ticket in a query is redacted."""
    token = "Q0x" + "a" * 40
    paths = [
        '/api/games/x%0a{"status":200}',
        "/api/games/x%0d%0aINFO fake line",
        "/api/games/x%00y",
        f"/api/games/{token}/seats/0",
        "/api/games/1?ticket=0.1.nonce.mac&after=%0a3",
    ]
    with caplog.at_level(logging.INFO, logger="cascadia.server.access"):
        for path in paths:
            api.get(path)
    lines = [r.getMessage() for r in caplog.records if r.name == "cascadia.server.access"]
    assert len(lines) == len(paths)
    for line in lines:
        assert not set(line) & {"\r", "\n", "\x00"} and line.isascii()
        entry = json.loads(line)
        assert set(entry) == {"time", "method", "path", "query", "status", "duration_ms", "client"}
    logged = [json.loads(line) for line in lines]
    assert logged[0]["path"] == '/api/games/x\n{"status":200}' and logged[0]["status"] == 404
    assert logged[1]["path"] == "/api/games/x\r\nINFO fake line"
    assert logged[2]["path"] == "/api/games/x\x00y"
    assert token not in "".join(lines) and logged[3]["path"] == "/api/games/[redacted]/seats/0"
    assert logged[4]["query"] == "ticket=[redacted]&after=\n3"


def test_a_taken_port_is_one_line_before_any_address(cascadia: Any, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = cascadia("serve", "--port", str(port), "--home", str(tmp_path / "home"))
    assert code != 0
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: cannot listen on 127.0.0.1:{port}")


def test_workers_need_postgresql(cascadia: Any, tmp_path: Path) -> None:
    code, out, err = cascadia("serve", "--workers", "2", "--port", str(free_port()), "--home", str(tmp_path))
    assert code == 1 and out == "" and err.count("\n") == 1 and "needs PostgreSQL" in err


def _follow(url: str, into: list[dict[str, Any]], ready: threading.Event) -> None:
    """Read the stream until the server ends it; every message goes into ``into``."""
    with httpx.stream("GET", url, timeout=30) as answer:
        lines = answer.iter_lines()
        into.extend(read_sse(lines, lambda messages: True))  # the first message: it is open
        ready.set()
        into.extend(read_sse(lines, lambda messages: False))


def test_sigterm_ends_streams_with_a_retry_hint_and_exits_0(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "home").start()
    try:
        game = httpx.post(f"{server.url}/api/games", json={"seats": [{"name": "ann"}]}, timeout=10).json()
        messages: list[dict[str, Any]] = []
        ready = threading.Event()
        stream = f"{server.url}/api/games/{game['game_id']}/stream"
        follower = threading.Thread(target=_follow, args=(stream, messages, ready))
        follower.start()
        assert ready.wait(20)
        for forged in (
            b"GET /api/games/x%0d%0ay HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 1.2.3.4\r\n\r\n",
            b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 1.2.3.4\x00\r\n\r\n",
        ):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
                raw.sendall(forged)
                raw.recv(1024)
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        follower.join(20)
        assert not follower.is_alive()
        assert server.process.wait(20) == 0
    finally:
        server.stop()
    last = messages[-1]
    assert last["event"] == "server-closing" and last["retry"] == "1000"
    assert [m["event"] for m in messages[:-1]] == ["game-event"] * (len(messages) - 1)
    access = [line for line in server.log.read_text().splitlines() if line.startswith("{")]
    logged = [json.loads(line) for line in access]
    forged_path = next(entry for entry in logged if entry["path"].startswith("/api/games/x"))
    assert forged_path["path"] == "/api/games/x\r\ny" and forged_path["client"] == "1.2.3.4"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_race_on_postgresql_has_one_winner(workers: int, tmp_path: Path, postgres_url: str) -> None:
    """Two clients send the same command at once, to two server processes (two servers of
    one worker, or one server of two workers): one is applied, the other is a 409; the
    metrics of all the processes count both; each server exits 0 on SIGTERM."""
    env = {"CASCADIA_DATABASE_URL": postgres_url}
    args = ["--workers", str(workers)]
    servers = [LiveServer(tmp_path / f"s{i}", env, tmp_path / f"s{i}.log", args) for i in range(3 - workers)]
    try:
        for server in servers:
            server.start()
        urls = [server.url for server in servers] * workers
        with httpx.Client(base_url=urls[0], timeout=10) as client:
            game = create_game(client)
            headers, body = _command(client, game)
        commands = f"/api/games/{game['game_id']}/commands"
        statuses: list[int] = []
        barrier = threading.Barrier(2)

        def post(url: str) -> None:
            with httpx.Client(timeout=10) as client:  # a connection of its own
                barrier.wait()
                answer = client.post(f"{url}{commands}", headers=headers, json=body)
                statuses.append(answer.status_code)

        racers = [threading.Thread(target=post, args=(url,)) for url in urls]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(20)
        assert sorted(statuses) == [200, 409]
        scraped = [httpx.get(f"{url}/metrics", timeout=10).text for url in {*urls}]
        for outcome in ("applied", "conflict"):
            sample = f'cascadia_commands_total{{outcome="{outcome}"}}'
            assert sum(_metric(text, sample) for text in scraped) == 1
        for server in servers:  # SIGTERM: the supervisor of several workers exits 0 too
            assert server.process is not None
            server.process.terminate()
            assert server.process.wait(30) == 0
    finally:
        for server in servers:
            server.stop()
