"""A game rebuilt from one seat's events, for a bot that plays that seat from afar.

The server sends a seat its game's events masked (server/API.md, "Hidden information"):
``GameStarted`` without its seed, and with ``secret_cards`` the letters of the other
seats' unrevealed cards ``null`` (``?`` in a fixed card choice) and their species
``null`` in ``SecretCardsDealt``. Every drawn tile and token is in the events, so the
fold of :func:`~cascadia.domain.state.evolve` needs the seed only for draws still to come,
which a bot never reads (the search bot re-samples them: ``bots/search_bot.py``).

:func:`seat_game` determinises the hidden parts, as a guess the seat could make itself:
seed 0, an unknown letter ``A`` (``B`` in a second set whose first letter is ``A``), an
unknown species left unknown until its ``SecretCardRevealed`` says it. Bots decide from
their own seat's view only (tests/test_bots_hidden.py), so a bot given this game makes
the decisions it would make on the server's full game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from cascadia.domain.components import CARD_LETTERS
from cascadia.domain.events import GameEvent, SecretCardRevealed, make_event
from cascadia.domain.game import Game
from cascadia.domain.state import GameState, evolve

GUESSED_SEED = 0
GUESSED_LETTER = CARD_LETTERS[0]


def seat_event(game_id: UUID, event: dict[str, Any]) -> GameEvent:
    """One event as the server sends it (``{"version", "type", "payload"}``), its hidden
    parts replaced by the guesses above."""
    payload = dict(event["payload"])
    if event["type"] == "GameStarted":
        payload["seed"] = GUESSED_SEED
        options = dict(payload["options"])
        if isinstance(options.get("cards"), str):
            options["cards"] = options["cards"].replace("?", GUESSED_LETTER)
        payload["options"] = options
    elif event["type"] == "ScoringCardsDrawn":
        cards = {species: letter or GUESSED_LETTER for species, letter in payload["cards"].items()}
        payload["cards"] = cards
        if payload.get("second_cards") is not None:
            payload["second_cards"] = {
                species: letter or next(other for other in CARD_LETTERS if other != cards[species])
                for species, letter in payload["second_cards"].items()
            }
    return make_event(event["type"], game_id, event["version"], payload)


def project(game: Game, events: Iterable[dict[str, Any]]) -> Game:
    """Fold a seat's further ``events`` into ``game`` (those it has already are skipped).

    The letter of a card revealed meanwhile stays guessed here (no event says it; the
    server unmasks it in the events it sends from then on): a client rebuilds the game
    with :func:`seat_game` when others have moved."""
    for event in events:
        if event["version"] <= game.version:
            continue  # seen already (a stream resumed, or an answer's events streamed too)
        _apply(game.state, seat_event(game.state.game_id, event))
    return game


def seat_game(game_id: UUID, events: Iterable[dict[str, Any]]) -> Game:
    """The game of a seat's events from the first (``GET /api/games/{id}/events``)."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None:
        raise ValueError("a game needs at least its GameStarted event")
    game = Game(evolve(GameState(game_id), seat_event(game_id, first)))
    return project(game, iterator)


def _apply(state: GameState, event: GameEvent) -> None:
    """``evolve``, after learning the species a reveal shows of a card dealt unseen."""
    if isinstance(event, SecretCardRevealed) and state.secret_cards[event.player] is None:
        state.secret_cards[event.player] = event.species
    evolve(state, event)
