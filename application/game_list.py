"""The stored games as a list: who plays, where each game stands, who won.

Filters read only the games' first and last events (``GameStarted``, ``GameEnded``), so
choosing among many stored games stays cheap; only the games listed are rebuilt, for
their turn, cards and scores.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any
from uuid import UUID

from cascadia.application.store import GameStore
from cascadia.domain.events import GameEnded
from cascadia.domain.state import GameState
from cascadia.projections.game_scores import score_state
from cascadia.projections.turns import Round, game_round, game_turns

SHORT_ID = 8
"""Characters of a game id shown in lists: every command takes a prefix of an id."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the list of stored games."""

    game_id: UUID
    short_id: str
    seed: int
    names: list[str]
    options: dict[str, Any]
    """The options that differ from the defaults (as ``new --json`` prints them)."""
    cards: dict[str, str]
    finished: bool
    turn: int
    """The turn being played (over all players), or the number of turns once finished."""
    turns: int
    """The turns of the whole game (over all players)."""
    round: Round
    """The round being played (the last once finished): how the game is numbered for people."""
    totals: list[int]
    """Each seat's score: final, or running while the game goes on."""
    winners: list[int] | None
    """The seats that won, once the game is over."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.game_id),
            "short_id": self.short_id,
            "seed": self.seed,
            "players": self.names,
            "options": self.options,
            "cards": self.cards,
            "finished": self.finished,
            "turn": self.turn,
            "turns": self.turns,
            "round": asdict(self.round),
            "scores": self.totals,
            "winners": self.winners,
        }


def finished_games(store: GameStore) -> set[UUID]:
    """The ids of the stored games that have ended (one ``GameEnded`` each)."""
    return {n.originator_id for n in store.notifications_of(GameEnded)}  # type: ignore[misc]


def short_ids(ids: list[UUID], length: int = SHORT_ID) -> dict[UUID, str]:
    """Each id's first ``length`` characters, or more where two ids share them."""
    texts = [str(game_id) for game_id in ids]
    while len({text[:length] for text in texts}) < len(texts) and length < 36:
        length += 1
    return {game_id: text[:length] for game_id, text in zip(ids, texts, strict=True)}


def list_games(
    store: GameStore,
    finished: bool | None = None,
    players: int | None = None,
    limit: int | None = None,
) -> tuple[list[GameSummary], int]:
    """The stored games that match (``finished``: only finished or only unfinished ones;
    ``players``: only games of that many seats), in the order they were stored, the last
    ``limit`` of them; and how many match in all."""
    started = list(store.started_games())
    short = short_ids([game_id for game_id, _ in started])
    ended = finished_games(store) if finished is not None else set()
    matching = [
        (game_id, payload)
        for game_id, payload in started
        if (players is None or len(payload["names"]) == players)
        and (finished is None or (game_id in ended) == finished)
    ]
    shown = matching[-limit:] if limit else matching
    return [_summary(store, game_id, short[game_id], payload) for game_id, payload in shown], len(matching)


def _summary(store: GameStore, game_id: UUID, short: str, payload: dict[str, Any]) -> GameSummary:
    state: GameState = store.game(game_id).state
    sheet = score_state(state)
    return GameSummary(
        game_id=game_id,
        short_id=short,
        seed=payload["seed"],
        names=list(payload["names"]),
        options=state.options.changed(),
        cards=dict(state.cards),
        finished=state.finished,
        turn=state.turn,
        turns=game_turns(state),
        round=game_round(state),
        totals=[p.total for p in sheet.players],
        winners=list(sheet.winners) if sheet.final else None,
    )
