"""Helpers for the game-server tests: an in-process client, live ``cascadia serve``
processes, SSE reading, and checks that hidden values appear nowhere.

"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
from cascadia.domain.components import WILDLIFE
from cascadia.domain.events import GameStarted, SecretCardsDealt
from fastapi.testclient import TestClient

SEAT_NAMES = ("ann", "bob")
CARD_LETTERS = ("A", "B", "C", "D")
CARD_CHOICE = re.compile(r"[A-D?](,[A-D?]){4}")
"""A card choice as ``options.cards`` gives it, one letter per species (``?``: masked)."""


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def create_game(
    client: Any,
    seats: list[dict[str, str]] | None = None,
    rules: list[str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    body = {"seats": seats or [{"name": n} for n in SEAT_NAMES], "options": {"rules": rules or [], **options}}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def tokens(created: dict[str, Any]) -> list[str | None]:
    return [seat["token"] for seat in created["seats"]]


def hidden_values(client: TestClient, game_id: str) -> dict[str, Any]:
    """What the server keeps from the players of a running game, read from its store."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    gid = UUID(game_id)
    events = store.events(gid)
    started = next(e for e in events if isinstance(e, GameStarted))
    dealt = next((e for e in events if isinstance(e, SecretCardsDealt)), None)
    return {
        "seed": started.seed,
        "salt": store.record(gid).salt,
        "secret_cards": None if dealt is None else list(dealt.species),
    }


def seed_spellings(seed: int) -> list[str]:
    """The seed as a number, in hex, and as its 8 bytes in hex (how it might leak)."""
    return [str(seed), f"{seed:x}", seed.to_bytes(8, "big").hex()]


def assert_hides(text: str, hidden: dict[str, Any], viewer: int | None) -> None:
    """No spelling of the seed or salt in ``text``, and no JSON list in it, of one entry
    per seat, that shows the secret card of a seat other than ``viewer``.

    (A game played by :func:`play_turns` spends no nature token, so the only lists of
    one species per seat in its answers are secret-card lists.)"""
    for spelling in seed_spellings(hidden["seed"]):
        assert spelling not in text, f"the seed ({spelling}) leaks"
    assert hidden["salt"] not in text, "the salt leaks"
    cards = hidden["secret_cards"]
    if cards is None:
        return
    secret = {species for seat, species in enumerate(cards) if seat != viewer}
    for document in _json_documents(text):
        _assert_no_card_of(document, secret)
        for value in _lists(document):
            if len(value) != len(cards) or not all(v is None or v in WILDLIFE for v in value):
                continue
            for seat, card in enumerate(cards):
                assert seat == viewer or value[seat] != card, f"seat {seat}'s secret card leaks: {value}"


def _assert_no_card_of(document: Any, secret: set[str]) -> None:
    """By value, in every field: no map from species to card letter gives the letter of a
    ``secret`` species, no card choice (``A,B,C,D,A``: bear, elk, salmon, hawk, fox) shows
    it, and no sentence names it (``Scoring cards: bear A, ...``)."""
    for value in _values(document):
        if isinstance(value, dict):
            for species in secret & set(value):
                letter = value[species]
                assert not (isinstance(letter, str) and letter in CARD_LETTERS), (
                    f"{species}'s card leaks: {value}"
                )
        elif isinstance(value, str) and CARD_CHOICE.fullmatch(value):
            for species, letter in zip(WILDLIFE, value.split(","), strict=True):
                assert species not in secret or letter == "?", f"{species}'s card leaks in {value!r}"
        elif isinstance(value, str):
            for species in secret:
                assert not re.search(rf"\b{species} [{''.join(CARD_LETTERS)}]\b", value), (
                    f"{species}'s card leaks in {value!r}"
                )


def _values(value: Any) -> Iterator[Any]:
    """``value`` and every value nested in it."""
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from _values(child)


def _json_documents(text: str) -> Iterator[Any]:
    """The JSON of an answer, or of each ``data:`` line of an SSE stream."""
    try:
        yield json.loads(text)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        if line.startswith("data: "):
            yield json.loads(line[6:])


def _lists(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)


def next_command(view: dict[str, Any]) -> dict[str, Any]:
    """A legal command of a seat's view that spends no nature token (the first take, tile
    placement or token placement listed)."""
    commands = [c["command"] for c in view["legal_commands"]]
    return next(c for c in commands if not c["type"].startswith("nature_"))


def play_turns(client: Any, game_id: str, seat_tokens: list[str | None], commands: int) -> list[str]:
    """Play ``commands`` commands of the human seats (whoever is to move); returns every
    answer's text."""
    texts = []
    for _ in range(commands):
        for token in seat_tokens:
            view = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
            if view["your_turn"]:
                answer = client.post(
                    f"/api/games/{game_id}/commands",
                    headers=bearer(token),
                    json={"command": next_command(view), "expected_version": view["version"]},
                )
                assert answer.status_code == 200, answer.text
                texts.append(answer.text)
                break
    return texts


def read_sse(lines: Iterator[str], stop: Any) -> list[dict[str, Any]]:
    """SSE messages (``{"id", "event", "data"}``) read until ``stop(messages)`` is true."""
    messages: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in lines:
        if line == "":
            if current:
                messages.append(current)
                current = {}
                if stop(messages):
                    return messages
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(": ")
        current[key] = json.loads(value) if key == "data" else value
    return messages


# -- live servers ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A ``cascadia serve`` process on 127.0.0.1 and a free port (``args``: more options)."""

    def __init__(
        self,
        home: Path,
        env: dict[str, str] | None = None,
        log: Path | None = None,
        args: list[str] | None = None,
    ) -> None:
        self.home = home
        self.args = args or []
        self.env = {**os.environ, **(env or {})}
        self.log = log or home.parent / f"server-{id(self)}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.port = free_port()
        command = [
            str(Path(sys.executable).parent / "cascadia"),
            "serve",
            "--port",
            str(self.port),
            "--home",
            str(self.home),
            *self.args,
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start in 30 s")

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flushing."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


# -- games played to the end for an achievement map ---------------------------------------


class GreedyHand:
    """Plays a human seat as the greedy bot would (a test's strong, reproducible player):
    one bot per turn, asked for each command of the turn in order."""

    def __init__(self) -> None:
        self._bots: dict[tuple[int, int], Any] = {}

    def command(self, game: Any) -> dict[str, Any]:
        """The next command of the active seat of ``game`` (a full game, not a view)."""
        from cascadia.bots.registry import bot_factory, bot_seed

        key = (game.state.current, game.state.turn)
        if key not in self._bots:
            make = bot_factory("greedy")
            assert make is not None
            self._bots[key] = make(bot_seed(game.state), game.state.current)
        return self._bots[key].choose(game).to_dict()


def first_command(game: Any) -> Any:
    """The first legal command that spends no nature token (as :func:`next_command`)."""
    return next(c for c in game.legal_commands() if not c.to_dict()["type"].startswith("nature_"))


def simulated_winners(
    seed: int, names: list[str], options: dict[str, Any], strong: set[int]
) -> tuple[str, ...]:
    """The winners of the game the server plays with ``seed`` when the human seats of
    ``strong`` play as :class:`GreedyHand`, the other humans the first legal command
    (:func:`next_command`) and the bot seats themselves: the same game, played locally."""
    from cascadia.bots.registry import bot_for_turn, is_bot_name
    from cascadia.domain.commands import from_dict
    from cascadia.domain.game import Game
    from cascadia.domain.options import GameOptions
    from cascadia.projections.achievement_progress import game_facts

    game = Game.start(seed, names, GameOptions.from_dict(options))
    hand = GreedyHand()
    while not game.finished:
        seat = game.state.current
        if is_bot_name(names[seat]):
            bot_for_turn(game.state).play_turn(game)
        elif seat in strong:
            game.execute(from_dict(hand.command(game)))
        else:
            game.execute(first_command(game))
    return game_facts(game.state).winners


def play_to_end(
    client: Any, store: Any, game_id: str, seat_tokens: list[str | None], strong: set[int]
) -> None:
    """Play the human seats through the API (``client``: a TestClient, or an httpx client
    of a live server) until the game is over, as :func:`simulated_winners` plays them,
    reading the game from the server's ``store``; the bots move on their own."""
    import time
    from uuid import UUID

    from cascadia.domain.game import Game

    gid = UUID(game_id)
    game = store.game(gid)  # one copy, kept up to date: a bot's plan reads the game it began on
    hand = GreedyHand()
    while True:
        Game.project(game, store.events(gid, after=game.version))
        if game.finished:
            return
        seat = game.state.current
        token = seat_tokens[seat]
        if token is None:  # a bot's turn: a live server's bots move after its answer
            time.sleep(0.01)
            continue
        command = hand.command(game) if seat in strong else first_command(game).to_dict()
        answer = client.post(
            f"/api/games/{game_id}/commands",
            headers=bearer(token),
            json={"command": command, "expected_version": game.version},
        )
        assert answer.status_code == 200, answer.text
