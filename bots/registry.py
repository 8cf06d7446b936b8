"""Bots by name, and playing whole games with them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

from cascadia.bots.base import Bot
from cascadia.bots.greedy_bot import GreedyBot
from cascadia.bots.random_bot import RandomBot
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import RULES_VERSION, GameOptions
from cascadia.domain.rng import MAX_SEED, draw
from cascadia.domain.state import GameState

BOTS: dict[str, Callable[[int, int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
"""Bot factories by name: ``factory(seed, seat) -> Bot``."""
BOT_SEED_STREAM = b"cascadia-play/bot-turn/v1"


def check_bot_names(names: Sequence[str]) -> None:
    """Raise :class:`InvalidOptionError` naming every unknown bot of ``names``."""
    unknown = sorted({n for n in names if n not in BOTS})
    if unknown:
        raise InvalidOptionError(
            f"unknown bot(s) {', '.join(unknown)}; choose from {', '.join(sorted(BOTS))}"
        )


def make_bots(names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per seat, each seeded from the game seed and its seat."""
    check_bot_names(names)
    return [BOTS[name](seed, seat) for seat, name in enumerate(names)]


def seat_bots(bot_spec: str, players: int) -> list[str]:
    """``random`` for every seat, or a comma list cycled over the seats (``greedy,random``)."""
    names = [n.strip() for n in bot_spec.split(",") if n.strip()]
    if not names:
        raise InvalidOptionError("name at least one bot")
    return [names[seat % len(names)] for seat in range(players)]


def play_game(
    seed: int,
    bot_names: Sequence[str],
    options: GameOptions | None = None,
    game_id: UUID | None = None,
    rules_version: str = RULES_VERSION,
) -> Game:
    """Set up a game with one seat per bot (``game_id``: its id if already derived) under
    ``rules_version`` and let the bots play it to the end."""
    bots = make_bots(bot_names, seed)
    game = Game.start(seed, list(bot_names), options, game_id, rules_version=rules_version)
    continue_game(game, bots)
    return game


def continue_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let ``bots`` (one per seat) play ``game`` from where it stands to the end."""
    while not game.finished:
        bots[game.current_player].play_turn(game)
    return game


def bot_seed(state: GameState) -> int:
    """The seed of the bot that plays the current turn of a game with human seats: draw
    number ``turn`` of its own stream of the game seed, so that a game resumed (or
    continued by another process) makes the same bot choices."""
    return draw(state.seed, state.turn, MAX_SEED + 1, BOT_SEED_STREAM)


def bot_for_turn(state: GameState) -> Bot:
    """A bot for the active seat's current turn (the seat's name is the bot's name)."""
    return BOTS[state.names[state.current]](bot_seed(state), state.current)
