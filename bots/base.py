"""What a bot is: something that plays the active player's whole turn with legal commands."""

from __future__ import annotations

from typing import Protocol

from cascadia.domain.game import Game
from cascadia.domain.rng import DrawStream


class Bot(Protocol):
    """A player that takes the active seat's turn by issuing legal commands on ``game``."""

    name: str

    def play_turn(self, game: Game) -> None: ...


def bot_stream(name: str, seed: int, seat: int) -> DrawStream:
    """A bot's own draw stream, separate from the game's, so that a bot's choices are
    reproducible from the game seed and its seat without touching the game's draws."""
    return DrawStream(seed, stream=f"cascadia-bot/{name}/{seat}/v1".encode())
