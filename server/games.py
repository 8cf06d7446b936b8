"""The server's use cases: create a game, read it as a viewer, play a seat's command,
let the bots move. Each raises :class:`~cascadia.server.problems.Problem` for a refusal.

A server game gets a seed from :mod:`secrets`, a random id (UUID4) and a commitment to
its seed (:mod:`cascadia.replays.commitment`); its seed and salt stay in the store and
are served only once the game has ended. Its creator gets a token of their own, which
re-issues a seat's link (:meth:`GameService.reissue`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any
from uuid import UUID, uuid4

from cascadia.bots.base import Bot
from cascadia.bots.registry import BOTS, bot_for_turn, is_bot_name, recorded_bots
from cascadia.domain.commands import from_dict
from cascadia.domain.errors import CommandFormatError, IllegalMoveError, InvalidOptionError
from cascadia.domain.game import MAX_PLAYERS, Game
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.turns import game_round
from cascadia.replays.commitment import SALT_BYTES, SCHEME, seed_commitment
from cascadia.replays.format import LogHeader, encode_log
from cascadia.replays.scores import final_score_sheet
from cascadia.server.problems import Problem
from cascadia.server.store import (
    GameConflictError,
    GameNotFoundError,
    ServerGameOpened,
    ServerStore,
    record_id,
)
from cascadia.server.tokens import new_token, same_token, token_digest
from cascadia.server.views import Masks, event_for, masks_for, state_for

HUMAN = "human"
log = logging.getLogger("cascadia.server")


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a new game: a human's name, or a bot's name."""

    name: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class CreatedGame:
    game_id: UUID
    record: ServerGameOpened
    names: list[str]
    tokens: list[str | None]
    creator_token: str
    version: int

    @property
    def has_bots(self) -> bool:
        """Whether a seat is a bot's (then the bots may have a turn to play at once)."""
        return any(kind != HUMAN for kind in self.record.kinds)


@dataclass(frozen=True)
class Played:
    """A seat's command, stored."""

    version: int
    events: list[dict[str, Any]]
    """the stored events as that seat sees them"""
    follow_up: bool
    """a bot is to move or the game is over: :meth:`GameService.run_bots` and the map's
    settling have work to do (a game of humans only in play has none)"""


def not_found(game_id: object) -> Problem:
    return Problem(404, "game-not-found", "Game not found", f"no game {str(game_id)[:64]}")


def _invalid_options(detail: str) -> Problem:
    return Problem(422, "invalid-options", "Invalid game", detail)


def game_options(options: dict[str, Any]) -> GameOptions:
    """The game options of a create request (the command line's options; ``rules`` a list)."""
    settings = dict(options)
    for name in settings.pop("rules", None) or []:
        key = str(name).strip().replace("-", "_")
        if key not in RESTRICTIONS:
            raise _invalid_options(f"unknown rule {str(name)[:40]!r}; choose from {', '.join(RESTRICTIONS)}")
        settings[key] = True
    try:
        return GameOptions.from_dict(settings)
    except (InvalidOptionError, TypeError) as error:
        raise _invalid_options(str(error)) from None


def seat_names(seats: list[SeatSpec]) -> tuple[list[str], list[str]]:
    """Seat names and kinds (``human`` or the bot's name) of a create request."""
    if not 1 <= len(seats) <= MAX_PLAYERS:
        raise _invalid_options(f"a game has 1 to {MAX_PLAYERS} seats, not {len(seats)}")
    names, kinds = [], []
    for seat in seats:
        if (seat.name is None) == (seat.bot is None):
            raise _invalid_options("each seat is {'name': ...} (a human) or {'bot': ...}")
        if seat.bot is not None:
            if seat.bot not in BOTS:  # by plain name: no budgets chosen by the caller
                raise _invalid_options(
                    f"unknown bot {seat.bot[:40]!r}; choose from {', '.join(sorted(BOTS))}"
                )
            names.append(seat.bot)
            kinds.append(seat.bot)
            continue
        name = (seat.name or "").strip()
        if not name:
            raise _invalid_options("a human seat needs a name")
        if is_bot_name(name.lower()):
            raise _invalid_options(f"{name!r} is a bot's name; name a human seat otherwise")
        names.append(name)
        kinds.append(HUMAN)
    humans = [n for n, k in zip(names, kinds, strict=True) if k == HUMAN]
    if len(set(humans)) != len(humans):
        raise _invalid_options("two human seats have the same name")
    return names, kinds


class GameService:
    """The use cases over one :class:`ServerStore`."""

    def __init__(self, store: ServerStore) -> None:
        self.store = store

    # -- creating -----------------------------------------------------------------------

    def create(
        self,
        seats: list[SeatSpec],
        options: dict[str, Any],
        check: Callable[[list[str], GameOptions], None] | None = None,
        map_id: UUID | None = None,
    ) -> CreatedGame:
        """A new game; ``check`` may refuse its seat names and options (a Problem) before
        anything is stored; ``map_id``: the achievement map it is played for."""
        names, kinds = seat_names(seats)
        game_options_ = game_options(options)
        if check is not None:
            check(names, game_options_)
        seed = secrets.randbits(64)
        salt = secrets.token_bytes(SALT_BYTES)
        game_id = uuid4()
        try:
            game = Game.start(seed, names, game_options_, game_id=game_id, bots=recorded_bots(names))
        except InvalidOptionError as error:
            raise _invalid_options(str(error)) from None
        tokens = [new_token() if kind == HUMAN else None for kind in kinds]
        creator_token = new_token()
        record = ServerGameOpened(
            originator_id=record_id(game_id),
            originator_version=1,
            game_id=game_id,
            kinds=kinds,
            token_hashes=[None if t is None else token_digest(t) for t in tokens],
            commitment=seed_commitment(seed, salt),
            salt=salt.hex(),
            map_id=map_id,
            creator_hash=token_digest(creator_token),
        )
        events = game.collect_events()
        self.store.create(events, record)
        log.info("game %s created: %s", game_id, ", ".join(kinds))
        return CreatedGame(game_id, record, names, tokens, creator_token, events[-1].originator_version)

    def reissue(self, game_id: UUID, seat: int, creator_token: str) -> str:
        """A new token for a human seat, asked for with the creator's token; from now on
        the seat's earlier tokens are refused (401 ``link-replaced``)."""
        record = self.record(game_id)
        if record.creator_hash is None or not same_token(creator_token, record.creator_hash):
            raise Problem(
                403, "not-the-creator", "Not the creator", "only the game's creator re-issues links"
            )
        if not 0 <= seat < len(record.kinds) or record.kinds[seat] != HUMAN:
            raise Problem(422, "not-a-human-seat", "Not a human seat", f"seat {seat} is not a human seat")
        token = new_token()
        try:
            self.store.replace_link(game_id, seat, token_digest(token))
        except GameConflictError:
            raise Problem(
                409, "stale-version", "Stale version", "another link was re-issued at once; try again"
            ) from None
        log.info("game %s: seat %d's link re-issued", game_id, seat)
        return token

    # -- reading ------------------------------------------------------------------------

    def record(self, game_id: UUID) -> ServerGameOpened:
        try:
            return self.store.record(game_id)
        except GameNotFoundError:
            raise not_found(game_id) from None

    def seat_hashes(self, game_id: UUID) -> tuple[list[str | None], frozenset[str]]:
        """Each seat's current token digest and the replaced ones, as stored now."""
        try:
            return self.store.seat_hashes(game_id)
        except GameNotFoundError:
            raise not_found(game_id) from None

    def game(self, game_id: UUID) -> Game:
        self.record(game_id)
        try:
            return self.store.game(game_id)
        except GameNotFoundError:
            raise not_found(game_id) from None

    def view(self, game_id: UUID, seat: int | None) -> dict[str, Any]:
        """The game as a spectator (``seat=None``) or one seat sees it."""
        record = self.record(game_id)
        game = self.game(game_id)
        state = game.state
        view = {
            **self.summary(record, game),
            "state": state_for(state, seat),
            "seat": seat,
            "your_turn": None,
            "legal_commands": None,
            "bot_to_move": self.bot_due(game, record),
        }
        if seat is not None:
            mine = not state.finished and state.current == seat
            view["your_turn"] = mine
            view["legal_commands"] = (
                [{"command": c.to_dict(), "text": str(c)} for c in game.legal_commands()] if mine else []
            )
        return view

    def summary(self, record: ServerGameOpened, game: Game) -> dict[str, Any]:
        state = game.state
        return {
            "game_id": str(record.game_id),
            "commitment": record.commitment,
            "version": state.version,
            "turn": state.turn,
            "round": asdict(game_round(state)),
            "current_player": state.current,
            "finished": state.finished,
            "map_id": None if record.map_id is None else str(record.map_id),
            "achievement_mode": state.options.achievement_mode,
            "seats": [
                {"seat": seat, "name": name, "kind": "human" if kind == HUMAN else "bot"}
                for seat, (name, kind) in enumerate(zip(state.names, record.kinds, strict=True))
            ],
        }

    def games(self, limit: int) -> list[dict[str, Any]]:
        records = list(self.store.records())[-limit:]
        return [self.summary(record, self.store.game(record.game_id)) for record in reversed(records)]

    def events(self, game_id: UUID, seat: int | None, after: int) -> tuple[int, list[dict[str, Any]], bool]:
        """``(version, events after ``after`` as the viewer sees them, finished)``."""
        self.record(game_id)
        events = self.store.events(game_id, after=max(after, 0))
        if events:
            version = events[-1].originator_version
            finished = events[-1].type == "GameEnded"
        else:
            version = self.store.version(game_id)
            finished = version == after and self.store.game(game_id).finished
        masks = self._masks(game_id, seat, finished)
        return version, [event_for(e, masks) for e in events], finished

    def _masks(self, game_id: UUID, seat: int | None, finished: bool) -> Masks:
        """What ``seat`` may not see of the game's events (from the game as it stands)."""
        if finished:
            return None
        if not self.store.options(game_id).secret_cards:
            return {}
        return masks_for(self.store.game(game_id).state, seat)

    def finished_game(self, game_id: UUID) -> Game:
        game = self.game(game_id)
        if not game.finished:
            raise Problem(409, "game-not-over", "Game not over", "the game is still being played")
        return game

    def score(self, game_id: UUID) -> dict[str, Any]:
        return final_score_sheet(self.finished_game(game_id).state) or {}

    def log_bytes(self, game_id: UUID) -> bytes:
        game = self.finished_game(game_id)
        events = self.store.events(game_id)
        return encode_log(LogHeader.from_events(events), events, final_score_sheet(game.state))

    def fairness(self, game_id: UUID) -> dict[str, Any]:
        record = self.record(game_id)
        game = self.game(game_id)
        over = game.finished
        return {
            "scheme": SCHEME,
            "commitment": record.commitment,
            "seed": game.state.seed if over else None,
            "salt": record.salt if over else None,
        }

    # -- playing ------------------------------------------------------------------------

    def play(self, game_id: UUID, seat: int, data: Any, expected_version: int) -> Played:
        """Apply one seat's command: the new version, the stored events as that seat
        sees them, and whether the bots have a turn to play or the game is over (the
        work :meth:`run_bots` and the map's settling do after the answer)."""
        try:
            command = from_dict(data)
        except CommandFormatError as error:
            raise Problem(422, "invalid-command", "Invalid command", str(error)) from None
        game = self.game(game_id)
        if game.version != expected_version:
            raise _stale(game.version, expected_version)
        if not game.finished and game.state.current != seat:
            raise Problem(403, "not-your-turn", "Not your turn", f"it is seat {game.state.current}'s turn")
        try:
            game.execute(command)
        except IllegalMoveError as error:
            extra: dict[str, Any] = {"error": type(error).__name__, "rule": error.rule}
            if hasattr(command, "q"):
                extra["hex"] = [command.q, command.r]
            raise Problem(422, "illegal-move", "Illegal move", str(error), **extra) from None
        try:
            events = self.store.append(game)
        except GameConflictError:
            raise _stale(None, expected_version) from None
        masks = masks_for(game.state, seat)
        follow_up = game.finished or self.bot_due(game, self.record(game_id))
        return Played(game.version, [event_for(e, masks) for e in events], follow_up)

    def bot_due(self, game: Game, record: ServerGameOpened) -> bool:
        return not game.finished and record.kinds[game.state.current] != HUMAN

    def run_bots(self, game_id: UUID, bot_for: Callable[[UUID, GameState], Bot] | None = None) -> int | None:
        """Let the bots play while it is a bot's turn, one stored turn at a time; returns
        the game's version if they moved. ``bot_for`` makes the bot of a turn (default:
        :func:`bot_for_turn`). Another process doing the same is harmless: the loser of a
        race stops."""
        record = self.record(game_id)
        game = self.store.game(game_id)
        moved = None
        while self.bot_due(game, record):
            bot = bot_for_turn(game.state) if bot_for is None else bot_for(game_id, game.state)
            bot.play_turn(game)
            try:
                self.store.append(game)
            except GameConflictError:
                break
            moved = game.version
        return moved


def _stale(actual: int | None, expected: int) -> Problem:
    now = "" if actual is None else f" (it is now at version {actual})"
    return Problem(
        409,
        "stale-version",
        "Stale version",
        f"the game has moved on since version {expected}{now}; reload it and try again",
    )
