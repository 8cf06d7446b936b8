"""One seat of a server game, over HTTP (docs/REMOTE_BOTS.md): its join link, its view,
its events, its commands, and its event stream followed across dropped connections.

The standard library's ``urllib`` is enough for JSON requests and for reading a
Server-Sent Events stream line by line, so ``cascadia bot`` adds no dependency.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from cascadia.domain.errors import CascadiaError

READ_TIMEOUT = 40.0
"""Seconds of silence after which a stream counts as dropped (the server sends a
keep-alive comment every 15 s)."""
RETRY_SECONDS = 1.0
MAX_RETRIES = 30
"""Reconnections in a row without a new message before giving up."""


class RemoteError(CascadiaError):
    """The server cannot be reached, or refused a request a seat's client needs."""


@dataclass(frozen=True)
class JoinLink:
    """What a seat's join link holds: the server, the game, the seat and its token."""

    server: str
    game_id: str
    seat: int
    token: str


def parse_join_link(link: str, server: str | None = None) -> JoinLink:
    """The parts of ``link`` (``http://HOST:PORT/play.html?game=ID&seat=N#token=T``; the
    server's answer gives it relative, then ``server`` is its address)."""
    absolute = urljoin(server.rstrip("/") + "/", link) if server else link
    parts = urlsplit(absolute)
    query = parse_qs(parts.query)
    fragment = parse_qs(parts.fragment)
    game, seat, token = query.get("game"), query.get("seat"), fragment.get("token")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RemoteError(f"the link has no server address ({link!r}): give the full URL, or --server URL")
    if not game or not seat or not seat[0].isdigit() or not token:
        raise RemoteError(f"not a join link ({link!r}): expected ...?game=ID&seat=N#token=TOKEN")
    return JoinLink(f"{parts.scheme}://{parts.netloc}", game[0], int(seat[0]), token[0])


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status and its JSON body (problem details for an error)."""

    status: int
    body: dict[str, Any]


class SeatClient:
    """The requests of one seat (its token in every ``Authorization`` header). A request
    the server does not answer (down, restarting) is sent again, ``retries`` times at
    most, each time told to ``note``: safe for a command too, which names the version it
    was decided on (stored already, it is refused with 409 the second time)."""

    def __init__(
        self,
        link: JoinLink,
        timeout: float = 30.0,
        retries: int = MAX_RETRIES,
        note: Callable[[str], None] = lambda line: None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.link = link
        self.timeout = timeout
        self.retries = retries
        self.note = note
        self.sleep = sleep
        self.base = f"{link.server}/api/games/{link.game_id}"

    def _request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.link.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        return request

    def _json(self, method: str, path: str, body: Any = None) -> Answer:
        failures = 0
        while True:
            try:
                return self._send(self._request(method, path, body))
            except (OSError, http.client.HTTPException) as error:
                reason = getattr(error, "reason", error)
                if failures == self.retries:
                    raise RemoteError(f"cannot reach {self.link.server}: {reason}") from None
                failures += 1
                self.note(f"{method} {path or '/'}: no answer ({reason}); trying again")
                self.sleep(RETRY_SECONDS)

    def _send(self, request: urllib.request.Request) -> Answer:
        """One request: its answer, a refusal's problem details included."""
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return Answer(response.status, json.load(response))
        except urllib.error.HTTPError as error:
            with error:
                text = error.read()
            try:
                return Answer(error.code, json.loads(text))
            except ValueError:
                return Answer(error.code, {"detail": text.decode(errors="replace")})

    def _ok(self, answer: Answer, what: str) -> dict[str, Any]:
        if answer.status != 200:
            raise RemoteError(f"{what}: {answer.status} {problem_text(answer.body)}")
        return answer.body

    def view(self) -> dict[str, Any]:
        """The token's seat's view: ``seat``, ``state``, ``your_turn``, ``legal_commands``,
        ``version`` (``GET /api/games/{id}``, which also wakes a bot seat left to move)."""
        return self._ok(self._json("GET", ""), "the seat's view")

    def events(self, after: int = 0) -> list[dict[str, Any]]:
        """The game's events after version ``after``, as this seat may see them."""
        return self._ok(self._json("GET", f"/events?after={after}"), "the events")["events"]

    def score(self) -> dict[str, Any]:
        """The final score sheet (after the end)."""
        return self._ok(self._json("GET", "/score"), "the score sheet")

    def post(self, command: dict[str, Any], expected_version: int) -> Answer:
        """Post ``command`` for the game at ``expected_version``: 200, or a problem."""
        return self._json("POST", "/commands", {"command": command, "expected_version": expected_version})

    def stream_lines(self, after: int) -> Iterator[str]:
        """The lines of the seat's event stream from after version ``after`` (sent as
        ``Last-Event-ID``, as a browser reconnecting does)."""
        request = self._request("GET", "/stream", headers={"Last-Event-ID": str(after)})
        try:
            with urllib.request.urlopen(request, timeout=READ_TIMEOUT) as response:
                for raw in response:
                    yield raw.decode().rstrip("\r\n")
        except urllib.error.HTTPError as error:
            with error:
                problem = json.loads(error.read())
            raise RemoteError(f"the stream: {error.code} {problem_text(problem)}") from None


def problem_text(body: dict[str, Any]) -> str:
    """A problem's name and detail, in one line."""
    name = str(body.get("type", "")).rsplit("/", 1)[-1]
    return f"{name}: {body.get('detail', '')}".strip(": ")


def sse_messages(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The messages of an SSE stream (``{"event", "id", "data"}``, data parsed as JSON);
    comments (keep-alives) are skipped."""
    message: dict[str, Any] = {}
    for line in lines:
        if not line:
            if message:
                yield message
            message = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(":")
            value = value.removeprefix(" ")
            message[key] = json.loads(value) if key == "data" else value


def follow(
    open_lines: Callable[[int], Iterable[str]],
    after: int = 0,
    sleep: Callable[[float], None] = time.sleep,
    retries: int = MAX_RETRIES,
    note: Callable[[str], None] = lambda line: None,
) -> Iterator[dict[str, Any]]:
    """Every game event after version ``after``, then ``{"event": "game-over"}``; a
    stream that drops (closes early, times out, or the server restarts) is opened again
    after the last event seen (``open_lines(last)``), ``retries`` times in a row at most,
    each time told to ``note``. A refusal (:class:`RemoteError`: a bad token) ends it."""
    failures = 0
    while True:
        try:
            for message in sse_messages(open_lines(after)):
                if message.get("event") == "game-over":
                    yield message
                    return
                if message.get("event") == "game-event":
                    after = int(message["id"])
                    failures = 0
                    yield message
        except (OSError, http.client.HTTPException):
            pass  # dropped (reset, timed out, cut mid-message): as a stream that ended early
        failures += 1
        if failures > retries:
            raise RemoteError(f"the stream dropped {retries} times in a row after version {after}")
        note(f"the stream dropped after version {after}; reconnecting")
        sleep(RETRY_SECONDS)
