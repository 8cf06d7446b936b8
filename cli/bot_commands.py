"""``cascadia bot``: one of this project's bots plays a seat of a server game over HTTP.

The protocol is docs/REMOTE_BOTS.md's: the join link gives the server, game, seat and
token; the seat's event stream says when others have moved; at the seat's turn the bot
decides on the game rebuilt from the seat's own (masked) events
(:mod:`cascadia.bots.seat_game`) and posts its command with the version it decided on.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Annotated, Any
from uuid import UUID

import typer
from cascadia.bots.base import Bot
from cascadia.bots.registry import bot_factory, turn_seed, unknown_bot_message
from cascadia.bots.seat_game import project, seat_game
from cascadia.cli.common import console, err_console, fail
from cascadia.cli.remote_seat import RemoteError, SeatClient, follow, parse_join_link, problem_text
from cascadia.domain.game import Game

WAKING_EVENTS = frozenset({"TurnEnded", "FirstPlayerChosen", "GameEnded"})
"""Events after which the seat may be the one to move (or the game is over)."""


class RemoteSeat:
    """Plays one seat of a server game with a bot until the game is over."""

    def __init__(
        self, client: SeatClient, make_bot: Callable[[int, int], Bot], seed: int, say: Callable[[str], None]
    ) -> None:
        self.client = client
        self.make_bot = make_bot
        self.seed = seed
        self.say = say
        self.game: Game | None = None
        self.bot: Bot | None = None
        self.stream: Iterator[dict[str, Any]] = follow(client.stream_lines, note=say)

    def play(self) -> dict[str, Any]:
        """Play to the end; returns the final score sheet."""
        while True:
            view = self.client.view()
            if view["seat"] != self.client.link.seat:
                raise RemoteError(f"the token is seat {view['seat']}'s, not seat {self.client.link.seat}'s")
            if view["finished"]:
                return self.client.score()
            if view["your_turn"]:
                self.decide(view["version"])
            else:
                self.wait(view["version"])

    def decide(self, version: int) -> None:
        """Post the bot's next command for the game at ``version``."""
        if self.game is None or self.bot is None or self.game.version != version:
            self.game = seat_game(UUID(self.client.link.game_id), self.client.events())
            self.bot = self.make_bot(turn_seed(self.seed, self.game.state.turn), self.client.link.seat)
        command = self.bot.choose(self.game)
        turn = self.game.state.turn
        answer = self.client.post(command.to_dict(), self.game.version)
        if answer.status == 200:
            project(self.game, answer.body["events"])
            self.say(f"turn {turn} version {version}: {command}")
        elif answer.status == 409:
            self.say(f"version {version}: {problem_text(answer.body)}; reading the game again")
            self.game = None
        else:
            raise RemoteError(f"{command} refused: {answer.status} {problem_text(answer.body)}")

    def wait(self, version: int) -> None:
        """Read the stream until the seat may be to move after ``version``."""
        for message in self.stream:
            if message["event"] == "game-over":
                return
            data = message["data"]
            if data["version"] > version and data["type"] in WAKING_EVENTS:
                return


def bot(
    link: Annotated[
        str,
        typer.Option(
            "--link", help="The seat's join link: http://HOST:PORT/play.html?game=ID&seat=N#token=T."
        ),
    ],
    bot_name: Annotated[
        str, typer.Option("--bot", help="The bot that plays the seat: random, greedy, search@200, ...")
    ] = "greedy",
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help="The bot's budget (--bot search --budget 200 is search@200)."),
    ] = None,
    server: Annotated[
        str | None,
        typer.Option("--server", help="The server's address, for a link without it (/play.html?...)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="The bot's seed (default: a random one).")
    ] = None,
) -> None:
    """Play a seat of a server game with a bot, over HTTP (docs/REMOTE_BOTS.md).

    One line per decision on stderr; the final scores on stdout at the end. A dropped
    event stream is reopened after the last event seen."""
    name = bot_name if budget is None else f"{bot_name}@{budget}"
    make_bot = bot_factory(name)
    if make_bot is None:
        raise fail(unknown_bot_message(name))
    client = SeatClient(parse_join_link(link, server), note=_say)
    seat = RemoteSeat(client, make_bot, secrets.randbits(63) if seed is None else seed, _say)
    sheet = seat.play()
    for player in sheet["players"]:
        won = ", won" if player.get("won") else ""
        console.print(f"seat {player['seat']}: {player['total']} (rank {player['rank']}{won})", markup=False)


def _say(line: str) -> None:
    err_console.print(line, markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command("bot", short_help="Play a seat of a server game with a bot, over HTTP.")(bot)
