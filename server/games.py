"""The server's games: create one, read it as a viewer, play a seat's command, let the
bots move. An adapter: the use cases are the application layer's
(:mod:`cascadia.application.games`, :mod:`cascadia.application.setup`); their typed
errors become :class:`~cascadia.server.problems.Problem` answers through
:mod:`cascadia.server.errors`. What is the server's own stays here: tokens, the seed
commitment and its salt, each viewer's masks, the views rendered lately
(:mod:`cascadia.server.view_cache`).

A server game gets a seed from :mod:`secrets`, a random id (UUID4) and a commitment to
its seed (:mod:`cascadia.replays.commitment`); its seed and salt stay in the store and
are served only once the game has ended. Its creator gets a token of their own, which
re-issues a seat's link (:meth:`GameService.reissue`) or hands a human seat to a bot
(:meth:`GameService.hand_to_bot`). A game may have a turn time limit: a human seat to
move that lets it run out is handed to a bot (:meth:`GameService.expire_turns`, on the
clock of :mod:`cascadia.server.turn_clock`).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from cascadia.application.games import (
    BotFor,
    GameNotOverError,
    apply_command,
    bot_to_move,
    run_bots,
    start_game,
)
from cascadia.application.setup import HUMAN, SeatSpec, bot_seats, check_bot_choice, game_options, seats_of
from cascadia.bots.registry import bot_playing
from cascadia.domain.commands import from_dict
from cascadia.domain.options import GameOptions
from cascadia.projections.turns import game_round
from cascadia.replays.commitment import SALT_BYTES, SCHEME, seed_commitment
from cascadia.replays.format import LogHeader, encode_log
from cascadia.replays.scores import final_score_sheet, totals
from cascadia.server.errors import answering, game_not_found
from cascadia.server.problems import Problem
from cascadia.server.store import (
    LISTED_GAMES,
    GameConflictError,
    RecordState,
    ServerGameOpened,
    ServerStore,
    record_id,
)
from cascadia.server.tokens import new_token, same_token, token_digest
from cascadia.server.turn_clock import HANDOVER_BOT, MAX_TURN_SECONDS, MIN_TURN_SECONDS, TurnClock
from cascadia.server.view_cache import RenderedView, ViewCache
from cascadia.server.views import RenderedEvents, SheetTexts, json_text, legal_json, masks_for, state_text

if TYPE_CHECKING:  # the types only: the use cases play the games
    from cascadia.bots.base import Bot
    from cascadia.domain.events import GameEvent
    from cascadia.domain.game import Game
    from cascadia.domain.state import GameState

__all__ = ["CREATOR", "HUMAN", "TIME_LIMIT", "CreatedGame", "GameService", "Played", "SeatSpec", "not_found"]

log = logging.getLogger("cascadia.server")
not_found = game_not_found
CREATOR = "creator"
TIME_LIMIT = "time-limit"
"""Why a seat was handed to a bot: its creator did it, or its turn time ran out."""


def game_result(state: GameState) -> dict[str, Any] | None:
    """A finished game's ``{"scores": [each seat's total], "winners": [seats]}``;
    ``None`` while it is played (its running scores could tell a secret card)."""
    sheet = final_score_sheet(state)
    return None if sheet is None else {"scores": totals(sheet), "winners": sheet["winners"]}


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
        return any(bot_seats(self.record.kinds))


@dataclass(frozen=True)
class Played:
    """A seat's command, stored."""

    version: int
    events: list[dict[str, Any]]
    """the stored events as that seat sees them"""
    follow_up: bool
    """a bot is to move or the game is over: :meth:`GameService.run_bots` and the map's
    settling have work to do (a game of humans only in play has none)"""


class GameService:
    """The server's games over one :class:`ServerStore`."""

    def __init__(self, store: ServerStore, clock: TurnClock | None = None) -> None:
        self.store = store
        self.clock = clock or TurnClock()
        self._views = ViewCache()
        self._sheets = SheetTexts()
        self._events = RenderedEvents()
        self._results: dict[UUID, dict[str, Any]] = {}
        """The results of the last :data:`LISTED_GAMES` finished games listed (a finished
        game's never changes), oldest first."""
        self._results_lock = threading.Lock()

    # -- creating -----------------------------------------------------------------------

    def create(
        self,
        seats: list[SeatSpec],
        options: dict[str, Any],
        check: Callable[[list[str], GameOptions], None] | None = None,
        map_id: UUID | None = None,
        turn_seconds: int | None = None,
    ) -> CreatedGame:
        """A new game; ``check`` may refuse its seat names and options (a typed error of
        the use cases, or a Problem) before anything is stored; ``map_id``: the
        achievement map it is played for; ``turn_seconds``: its turn time limit."""
        if turn_seconds is not None and not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise Problem(
                422,
                "invalid-options",
                "Invalid game",
                f"turn_seconds is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}, or null for no limit",
            )
        with answering(map_id):
            chosen = seats_of(seats)
            settings = game_options(options)
            if check is not None:
                check(chosen.names, settings)
        seed = secrets.randbits(64)
        salt = secrets.token_bytes(SALT_BYTES)
        game_id = uuid4()
        tokens = [new_token() if kind == HUMAN else None for kind in chosen.kinds]
        creator_token = new_token()
        record = ServerGameOpened(
            originator_id=record_id(game_id),
            originator_version=1,
            game_id=game_id,
            kinds=chosen.kinds,
            token_hashes=[None if t is None else token_digest(t) for t in tokens],
            commitment=seed_commitment(seed, salt),
            salt=salt.hex(),
            map_id=map_id,
            creator_hash=token_digest(creator_token),
            turn_seconds=turn_seconds,
        )
        with answering(game_id):
            game = start_game(self.store, seed, chosen.names, settings, game_id, beside=[record])
        log.info("game %s created: %s", game_id, ", ".join(chosen.kinds))
        self.clock.saw(game_id, game.version, turn_seconds)
        return CreatedGame(game_id, record, chosen.names, tokens, creator_token, game.version)

    def reissue(self, game_id: UUID, seat: int, creator_token: str) -> str:
        """A new token for a human seat, asked for with the creator's token; from now on
        the seat's earlier tokens are refused (401 ``link-replaced``)."""
        self._check_creator(self.record(game_id), creator_token)
        _check_human(self.record_now(game_id).record, seat)
        token = new_token()
        try:
            self.store.replace_link(game_id, seat, token_digest(token))
        except GameConflictError:
            raise Problem(
                409, "stale-version", "Stale version", "another link was re-issued at once; try again"
            ) from None
        log.info("game %s: seat %d's link re-issued", game_id, seat)
        return token

    def hand_to_bot(self, game_id: UUID, seat: int, creator_token: str, bot: str = HANDOVER_BOT) -> None:
        """The creator hands a human seat to ``bot``: the seat's token no longer acts
        (401 ``seat-handed-to-bot``), the bot plays its turns (:meth:`run_bots`)."""
        self._check_creator(self.record(game_id), creator_token)
        state = self.record_now(game_id)
        if self._load(state.record).finished:
            raise Problem(409, "game-over", "Game over", "the game is over: no seat changes hands")
        _check_human(state.record, seat)
        with answering(game_id):
            check_bot_choice(bot)
        if not self._hand_over(state, seat, bot, CREATOR):
            raise Problem(409, "stale-version", "Stale version", "the seats changed just then; try again")

    def _hand_over(self, state: RecordState, seat: int, bot: str, reason: str) -> bool:
        """Store the handover after the record ``state``; ``False`` if another change of
        the record (on any process) was stored first."""
        game_id = state.record.game_id
        try:
            self.store.hand_to_bot(game_id, seat, bot, reason, state)
        except GameConflictError:
            return False
        log.info("game %s: seat %d handed to %s (%s)", game_id, seat, bot, reason)
        return True

    def expire_turns(self) -> list[UUID]:
        """Hand to a bot each human seat to move whose turn time ran out (by this
        process's :class:`~cascadia.server.turn_clock.TurnClock`); the games handed over.
        A game that moved meanwhile starts its clock again; one that is over is forgotten;
        a handover another process stored first is left to it."""
        handed = []
        for game_id, version in self.clock.due():
            state = self.record_now(game_id)
            game = self._load(state.record)
            if game.finished:
                self.clock.forget(game_id)
                continue
            seat = game.state.current
            if game.version != version or state.record.kinds[seat] != HUMAN:
                self.clock.forget(game_id)  # its clock starts again (a bot's turn: a read starts it)
                self.clock.saw(game_id, game.version, state.record.turn_seconds)
                continue
            if self._hand_over(state, seat, HANDOVER_BOT, TIME_LIMIT):
                handed.append(game_id)
        return handed

    @staticmethod
    def _check_creator(record: ServerGameOpened, token: str) -> None:
        if record.creator_hash is None or not same_token(token, record.creator_hash):
            raise Problem(
                403, "not-the-creator", "Not the creator", "only the game's creator changes its seats"
            )

    # -- reading ------------------------------------------------------------------------

    def record(self, game_id: UUID) -> ServerGameOpened:
        with answering(game_id):
            return self.store.record(game_id)

    def record_now(self, game_id: UUID) -> RecordState:
        """The record as stored now: the seats' current kinds, and the handovers."""
        with answering(game_id):
            return self.store.record_state(game_id)

    def seat_hashes(self, game_id: UUID) -> tuple[list[str | None], dict[str, str]]:
        """Each seat's current token digest and the revoked ones (each with why), as
        stored now."""
        with answering(game_id):
            return self.store.seat_hashes(game_id)

    def game(self, game_id: UUID) -> Game:
        """A server game as stored now, to read only (404 for an id that is no server
        game's)."""
        return self._load(self.record(game_id))

    def _load(self, record: ServerGameOpened) -> Game:
        """The game of ``record`` as stored now, to read only (the cached state, no copy:
        :meth:`~cascadia.server.store.ServerStore.current`)."""
        with answering(record.game_id):
            return self.store.current(record.game_id)

    def view_text(self, game_id: UUID, seat: int | None, now: RecordState | None = None) -> tuple[str, bool]:
        """The JSON of the game as a spectator (``seat=None``) or one seat sees it, and
        whether a bot is to move; ``now``: its record as the request read it already (to
        check the seat's token), else read here. Rendered once per version of the game
        and of its record and kept (:class:`~cascadia.server.view_cache.ViewCache`); the
        turn's seconds left are added to each answer."""
        now = now or self.record_now(game_id)
        record = now.record
        game = self._load(record)
        rendered = self._views.get(game_id, seat, game.version, record.originator_version)
        if rendered is None:
            rendered = self._render(now, game, seat)
            self._views.keep(game_id, seat, rendered)
        left = None
        if rendered.finished:
            self.clock.forget(game_id)
        elif rendered.human_to_move:
            left = self.clock.saw(game_id, rendered.version, record.turn_seconds)
        return rendered.text(None if left is None else round(left)), rendered.bot_to_move

    def _render(self, now: RecordState, game: Game, seat: int | None) -> RenderedView:
        """The view of ``game`` by ``seat`` under the record ``now``, but for the clock:
        ``{summary..., "turn_seconds_left", "state", "seat", "your_turn",
        "legal_commands", "bot_to_move"}``, encoded in pieces (the legal commands'
        entries are kept encoded: :func:`~cascadia.server.views.legal_json`)."""
        record, state = now.record, game.state
        your_turn, legal = None, "null"  # a spectator's
        if seat is not None:
            your_turn = not state.finished and state.current == seat
            legal = legal_json(game.legal_commands() if your_turn else [])
        bot = self.bot_due(game, record)
        viewer = state_text(state, seat, self._sheets)
        return RenderedView(
            version=game.version,
            record_version=record.originator_version,
            head=json_text(self.summary(record, game, now))[:-1],
            tail=f'"state":{viewer},"seat":{json_text(seat)},"your_turn":{json_text(your_turn)},'
            f'"legal_commands":{legal},"bot_to_move":{json_text(bot)}}}',
            finished=state.finished,
            human_to_move=not state.finished and record.kinds[state.current] == HUMAN,
            bot_to_move=bot,
        )

    def summary(self, record: ServerGameOpened, game: Game, now: RecordState | None = None) -> dict[str, Any]:
        """What a list of games and a view say of a game; ``now``: its record as stored
        now, with the seats handed to a bot (else ``record`` as last read)."""
        state = game.state
        handed = {h.seat: {"bot": h.bot, "reason": h.reason} for h in (now.handovers if now else ())}
        kinds = (now.record if now else record).kinds
        return {
            "game_id": str(record.game_id),
            "commitment": record.commitment,
            "version": state.version,
            "turn": state.turn,
            "round": game_round(state).to_dict(),
            "current_player": state.current,
            "finished": state.finished,
            "map_id": None if record.map_id is None else str(record.map_id),
            "achievement_mode": state.options.achievement_mode,
            "turn_seconds": record.turn_seconds,
            "seats": [
                {
                    "seat": seat,
                    "name": name,
                    "kind": "human" if kind == HUMAN else "bot",
                    "handed": handed.get(seat),
                }
                for seat, (name, kind) in enumerate(zip(state.names, kinds, strict=True))
            ],
        }

    def games(self, limit: int) -> tuple[list[dict[str, Any]], int]:
        """The ``limit`` newest server games (what :meth:`summary` says of each, and once
        one is over its ``result``: each seat's final score and the winning seats), and
        how many there are. Only the games listed are read (the ids of the newest come
        from the notification log, read from where the last list stopped)."""
        ids, total = self.store.newest_games(limit)
        listed = []
        for game_id in ids:
            now = self.record_now(game_id)
            game = self._load(now.record)
            listed.append(
                {**self.summary(now.record, game, now), "result": self._result(game_id, game.state)}
            )
        return listed, total

    def _result(self, game_id: UUID, state: GameState) -> dict[str, Any] | None:
        """:func:`game_result`, worked out once per finished game among the last listed."""
        if not state.finished:
            return None
        with self._results_lock:
            kept = self._results.get(game_id)
        if kept is None:
            kept = game_result(state)
            with self._results_lock:
                self._results[game_id] = kept
                if len(self._results) > LISTED_GAMES:
                    del self._results[next(iter(self._results))]
        return kept

    def events(self, game_id: UUID, seat: int | None, after: int) -> tuple[int, list[dict[str, Any]], bool]:
        """``(version, events after ``after`` as the viewer sees them, finished)``, as
        stored now (one read of the events: the game is the cached one with them)."""
        self.record(game_id)
        events = self.store.events(game_id, after=max(after, 0))
        game = self.store.game_after(game_id, max(after, 0), events)
        return self._events_for(game, events, seat, after)

    def recent_events(
        self, game_id: UUID, seat: int | None, after: int, version: int
    ) -> tuple[list[dict[str, Any]], bool] | None:
        """``(events after ``after`` as the viewer sees them, finished)`` up to at least
        ``version``, from what this process keeps in memory (no read of the store: quick
        enough for the event loop); ``None`` if it does not keep them all. For a stream
        its hub woke: the hub knows the game is stored up to ``version``, and wakes the
        stream again for anything stored later."""
        recent = self.store.recent(game_id, after)
        if recent is None or recent[0].version < version:
            return None
        game, events = recent
        if events and not game.finished and game.state.options.secret_cards:
            return None  # their masks need the player view: work for a worker thread
        _, rendered, finished = self._events_for(game, events, seat, after)
        return rendered, finished

    def finished_game(self, game_id: UUID) -> Game:
        game = self.game(game_id)
        if not game.finished:
            with answering(game_id):
                raise GameNotOverError("the game is still being played")
        return game

    def score(self, game_id: UUID) -> dict[str, Any]:
        return final_score_sheet(self.finished_game(game_id).state) or {}

    def log_bytes(self, game_id: UUID) -> bytes:
        game = self.finished_game(game_id)
        events = self.store.events(game_id)
        return encode_log(LogHeader.from_events(events), events, final_score_sheet(game.state))

    def fairness(self, game_id: UUID) -> dict[str, Any]:
        record = self.record(game_id)
        game = self._load(record)
        over = game.finished
        return {
            "scheme": SCHEME,
            "commitment": record.commitment,
            "seed": game.state.seed if over else None,
            "salt": record.salt if over else None,
        }

    # -- playing ------------------------------------------------------------------------

    def play(self, game_id: UUID, seat: int, data: Any, expected_version: int) -> Played:
        """Apply one seat's command (:func:`~cascadia.application.games.apply_command`,
        at the version the seat saw): the new version, the stored events as that seat
        sees them, and whether the bots have a turn to play or the game is over (the
        work :meth:`run_bots` and the map's settling do after the answer)."""
        with answering(game_id):
            command = from_dict(data)
        record = self.record(game_id)
        with answering(game_id, command):
            applied = apply_command(
                self.store, game_id, command, expected_version=expected_version, seat=seat
            )
        game = applied.game
        self.store.stored(game, applied.events)
        self.clock.saw(game_id, game.version, record.turn_seconds)
        masks = masks_for(game.state, seat)
        follow_up = game.finished or self.bot_due(game, record)
        rounds = game_round(game.state).of
        events = [self._events.render(e, masks, game.state.names, rounds) for e in applied.events]
        return Played(game.version, events, follow_up)

    def _events_for(
        self, game: Game, events: list[GameEvent], seat: int | None, after: int
    ) -> tuple[int, list[dict[str, Any]], bool]:
        """``(version, events as the viewer sees them, finished)`` of ``events`` (stored
        after version ``after``) under ``game`` (the game with them, or later)."""
        if not events:  # nothing new
            return game.version, [], game.version == after and game.finished
        version = events[-1].originator_version
        finished = events[-1].type == "GameEnded"
        state = game.state
        masks = None if finished else masks_for(state, seat)
        rounds = game_round(state).of
        return version, [self._events.render(e, masks, state.names, rounds) for e in events], finished

    def bot_due(self, game: Game, record: ServerGameOpened) -> bool:
        return bot_to_move(game.state, bot_seats(record.kinds))

    def run_bots(self, game_id: UUID, bot_for: BotFor | None = None) -> int | None:
        """Let the bots play while it is a bot's turn, one stored turn at a time
        (:func:`~cascadia.application.games.run_bots`); returns the game's version if
        they moved. ``bot_for`` makes the bot of a bot seat's turn (default:
        :func:`~cascadia.bots.registry.bot_for_turn`); a seat handed to a bot is played
        by that bot."""
        record = self.record_now(game_id).record

        def playing(gid: UUID, state: GameState) -> Bot:
            kind = record.kinds[state.current]
            if bot_for is None or kind != state.names[state.current]:  # or a person's seat handed over
                return bot_playing(state, kind)
            return bot_for(gid, state)

        with answering(game_id):
            version = run_bots(self.store, game_id, bot_seats(record.kinds), playing)
        if version is not None:
            self.clock.saw(game_id, version, record.turn_seconds)
        return version


def _check_human(record: ServerGameOpened, seat: int) -> None:
    """422 ``not-a-human-seat`` unless ``seat`` is a seat a person plays now."""
    if not 0 <= seat < len(record.kinds) or record.kinds[seat] != HUMAN:
        raise Problem(422, "not-a-human-seat", "Not a human seat", f"seat {seat} is not a human seat")
