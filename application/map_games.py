"""Games played for an achievement map (RULES.md 8.1), one policy for every interface
(the server, ``cascadia play --map``, ``simulate --map``): which game may be created for
a map, the bot of a seat in such a game, and the end of the game.

The end (:func:`settle_map_game`): once the game is over it is recorded on its map (so
the campaign counts it), then each winner on the map may mark one of the achievements
the map lets them mark; who chooses is the caller's (:data:`Chooser`): a bot by its
rule (:func:`~cascadia.bots.marking.bot_mark`), a human at the terminal, or nobody yet
(a server's human marks later by their seat's token). A seat handed to a bot during the
game (the server's ``SeatHandedToBot``: its creator's choice, or its turn time ran out)
marks nothing for its player: a win the bot played for them is not theirs to mark
(docs/ACHIEVEMENTS.md, "A seat handed to a bot"); the game still counts on the map. It
is idempotent: a game already recorded is not recorded again, a winner who has marked
for it has nothing left to mark, and a process that loses a race to another finds the
work done.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from uuid import UUID

from cascadia.application.maps import load_map, mark_achievement, record_game, stored_game_facts
from cascadia.application.setup import MAP_PLAYERS, InvalidSetupError
from cascadia.application.store import GameConflictError, GameStore
from cascadia.bots.base import Bot
from cascadia.bots.hunter_bot import HunterBot
from cascadia.bots.marking import bot_mark
from cascadia.bots.registry import bot_for_turn
from cascadia.domain.achievement_map import (
    AchievementMap,
    AchievementMapError,
    GameFacts,
    NotAWinnerError,
    PlayerPath,
)
from cascadia.domain.errors import CascadiaError
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState
from cascadia.projections.achievements import ACHIEVEMENTS

log = logging.getLogger("cascadia.maps")

Chooser = Callable[[int, str, list[str]], str | None]
"""Chooses what a winner marks: ``(seat, player, what they may mark)`` to one of those,
or ``None`` (nothing, or not now)."""


class NotForAMapError(CascadiaError):
    """A map's use case asked of a game that was not played for an achievement map."""


@dataclass(frozen=True)
class WinnerMark:
    """What one winner of a map's game was offered, and marked (``None``: nothing);
    ``handed``: the seat was handed to a bot during the game, so it was offered nothing."""

    seat: int
    player: str
    choices: tuple[str, ...]
    achievement: str | None = None
    cell: int | None = None
    handed: bool = False


@dataclass(frozen=True)
class SettledGame:
    """A map's game after :func:`settle_map_game`: its facts, the map as it stands now,
    whether the game is recorded on it (if not, why: ``refusal``), and the winners' marks
    made now."""

    facts: GameFacts
    map: AchievementMap
    recorded: bool
    refusal: CascadiaError | None = None
    winners: tuple[WinnerMark, ...] = ()


def open_standard(path: PlayerPath) -> list[str]:
    """The standard achievements (RULES.md 8) the player has not marked, in order."""
    return [a for a in ACHIEVEMENTS if not path.marked(a)]


def pursue_open(bot: Bot, path: PlayerPath | None) -> Bot:
    """A goal-directed bot (:class:`~cascadia.bots.hunter_bot.HunterBot`) of a map player
    pursues that player's open standard achievements; other bots are left as they are."""
    if path is not None and isinstance(bot, HunterBot):
        bot.pursue(open_standard(path))
    return bot


def map_bot_for_turn(store: GameStore, map_id: UUID | None, state: GameState) -> Bot:
    """The bot of the active seat's turn (:func:`~cascadia.bots.registry.bot_for_turn`);
    in a game for a map, a hunter pursues its map player's open standard achievements."""
    bot = bot_for_turn(state)
    if map_id is None or not isinstance(bot, HunterBot):
        return bot
    return pursue_open(bot, load_map(store, map_id).state.paths.get(state.names[state.current]))


def check_map_game(store: GameStore, map_id: UUID, names: Sequence[str], options: GameOptions) -> None:
    """A new game for the map: the map exists (``MapNotFoundError``), the game names its
    achievement mode and counts for achievements (RULES.md 8: 2-4 players, no balanced
    bag), and someone at the table is on the map; else :class:`InvalidSetupError`."""
    on_map = set(load_map(store, map_id).state.paths)
    low, high = MAP_PLAYERS
    if options.achievement_mode is None:
        raise InvalidSetupError("a game for a map names its achievement_mode")
    if not low <= len(names) <= high or options.balanced_bag:
        raise InvalidSetupError(
            f"only a game of {low}-{high} players without the balanced bag counts for a map (RULES.md 8)"
        )
    if not on_map.intersection(names):
        raise InvalidSetupError(
            f"nobody at the table is on the map (its players: {', '.join(sorted(on_map)) or 'none'})"
        )


def bots_choose(bots: Sequence[bool]) -> Chooser:
    """A :data:`Chooser` by which the bots' seats (``bots``: per seat) mark by their rule
    and nobody else marks now."""
    return lambda seat, _, choices: bot_mark(choices) if bots[seat] else None


def settle_map_game(
    store: GameStore,
    map_id: UUID,
    game_id: UUID,
    choose: Chooser,
    facts: GameFacts | None = None,
    handed: Collection[int] = (),
) -> SettledGame:
    """Once the stored game ``game_id`` is over: record it on the map, then offer each
    winner what they may mark and mark what ``choose`` picks (a refused or raced mark is
    left out). A game still in play is left as it is. ``facts``: the game's facts, if the
    caller has them (:func:`~cascadia.application.maps.stored_game_facts`). ``handed``:
    the seats handed to a bot during the game; a winner there is offered nothing, so
    neither the bot's rule nor anyone marks for its player (docs/ACHIEVEMENTS.md)."""
    facts = facts or stored_game_facts(store, game_id)
    current = load_map(store, map_id)
    if not facts.finished:
        return SettledGame(facts, current, False)
    if str(game_id) not in current.state.games:
        try:
            current = record_game(store, map_id, game_id, facts)
        except (AchievementMapError, GameConflictError) as error:
            current = load_map(store, map_id)  # another process may have recorded it
            if str(game_id) not in current.state.games:
                log.warning("game %s not recorded on map %s: %s", game_id, map_id, error)
                return SettledGame(facts, current, False, error)
    winners = []
    for seat, player in enumerate(facts.seat_names):
        if player not in facts.winners:
            continue
        if seat in handed:
            winners.append(WinnerMark(seat, player, (), handed=True))
            continue
        choices = current.markable(player, facts)
        choice = choose(seat, player, choices) if choices else None
        if choice is None:
            winners.append(WinnerMark(seat, player, tuple(choices)))
            continue
        try:
            current = mark_achievement(store, map_id, player, game_id, choice, facts=facts)
        except (AchievementMapError, GameConflictError) as error:  # e.g. another process marked
            log.info("%s did not mark game %s: %s", player, game_id, error)
            current = load_map(store, map_id)
            winners.append(WinnerMark(seat, player, tuple(choices)))
            continue
        cell = current.path(player).marks[-1].cell
        winners.append(WinnerMark(seat, player, tuple(choices), choice, cell))
    return SettledGame(facts, current, True, None, tuple(winners))


def mark_won_game(
    store: GameStore,
    map_id: UUID,
    facts: GameFacts,
    player: str,
    achievement: str,
    expected_version: int | None = None,
) -> AchievementMap:
    """``player`` marks ``achievement`` for the game of ``facts`` (RULES.md 8.1): a player
    who did not win a finished game is refused first (:class:`NotAWinnerError`), then
    as :func:`~cascadia.application.maps.mark_achievement` refuses."""
    if facts.finished and player not in facts.winners:
        raise NotAWinnerError(f"{player!r} did not win this game: only a winner marks (RULES.md 8.1)")
    return mark_achievement(
        store, map_id, player, UUID(facts.game_id), achievement, expected_version, facts=facts
    )
