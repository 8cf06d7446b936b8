"""Use case: simulate an achievement campaign (RULES.md 8.1) on a stored map.

The map's players are bots (each player's name is a bot's name, and it sits at every
game: a map of 2 to 4 players). Game after game, with seeds S, S+1, ...: the mode is
chosen before the game (:func:`next_mode`), the game is played by the bots and stored,
and its end is settled as every map's game is
(:func:`~cascadia.application.map_games.settle_map_game`: recorded on the map, so the
campaign counts every game, then each winner marks by the bots' rule), each mark
checked by the map against the stored game like any other.

The ``campaign`` schedule plays for the player furthest along their path (most cells
filled, the first path on a tie) among those with something still open: the modes
still open for them (standard while they have an open standard achievement, then each
restriction of RULES.md 7 they have not marked), taken in turn: game ``i`` plays the
``i mod n``-th of the ``n`` modes open before it. So a strong player is not held back
by games played for a weaker one's open restrictions. A fixed mode (``standard`` or a
restriction) plays every game in that mode. A seed already played for the map keeps
the mode it was played in, and its game is not played again (a rerun plays nothing
twice).

A goal-directed bot (:class:`~cascadia.bots.hunter_bot.HunterBot`) is told before each
game which standard achievements its map player has not marked, and pursues the
first of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from uuid import UUID

from cascadia.application.map_games import bots_choose, open_standard, pursue_open, settle_map_game
from cascadia.application.maps import load_map
from cascadia.application.store import GameStore
from cascadia.bots.base import Bot
from cascadia.bots.registry import bot_game_id, check_bot_names, continue_game, make_bots, recorded_bots
from cascadia.domain.achievement_map import ACHIEVEMENT_MODES, STANDARD_MODE, MapState, PlayerPath
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions

CAMPAIGN = "campaign"


@dataclass(frozen=True)
class CampaignGame:
    """One game of a campaign: its seed, id, mode, winners and the marks it brought."""

    seed: int
    game_id: UUID
    mode: str
    stored: bool
    winners: tuple[str, ...]
    marks: tuple[tuple[str, str], ...]
    """(player, achievement) for each mark made after this game."""


def open_modes(path: PlayerPath) -> list[str]:
    """The modes in which the player can still mark something."""
    modes = [STANDARD_MODE] if open_standard(path) else []
    return modes + [r for r in RESTRICTIONS if not path.marked(r)]


def played_for(state: MapState) -> PlayerPath | None:
    """The player the campaign plays for: the furthest along their path (the first
    path on a tie) of those with something open; ``None`` when nothing is open."""
    candidates = [p for p in sorted(state.paths.values(), key=lambda p: p.path) if open_modes(p)]
    return max(candidates, key=lambda p: len(p.marks), default=None)


def next_mode(schedule: str, state: MapState, index: int) -> str | None:
    """The mode of the ``index``-th game of the campaign (``None``: nothing is open)."""
    if schedule != CAMPAIGN:
        return schedule
    path = played_for(state)
    if path is None:
        return None
    modes = open_modes(path)
    return modes[index % len(modes)]


def seat_bots(state: MapState, players: list[str], seed: int) -> list[Bot]:
    """The map's bot players for one game; each hunter pursues its player's open
    standard achievements."""
    return [
        pursue_open(bot, state.paths[player])
        for bot, player in zip(make_bots(players, seed), players, strict=True)
    ]


def mode_options(base: GameOptions, mode: str) -> GameOptions:
    """The options of a game played in ``mode``: the base options, plus the restriction
    of a restriction game."""
    extra = {} if mode == STANDARD_MODE else {mode: True}
    return replace(base, achievement_mode=mode, **extra)


def simulate_campaign(
    store: GameStore, map_id: UUID, seeds: range, base: GameOptions, schedule: str = CAMPAIGN
) -> Iterator[CampaignGame]:
    """Play and store one game per seed among the map's bot players, and let each
    winner mark; yields each game as it is done (stops early when nothing is open)."""
    if schedule != CAMPAIGN and schedule not in ACHIEVEMENT_MODES:
        raise InvalidOptionError(f"a campaign's mode is {CAMPAIGN} or one of {', '.join(ACHIEVEMENT_MODES)}")
    players = [p.player for p in sorted(load_map(store, map_id).state.paths.values(), key=lambda p: p.path)]
    if not 2 <= len(players) <= 4:
        raise InvalidOptionError(f"a campaign seats every player of the map: 2 to 4, not {len(players)}")
    check_bot_names(players)
    for index, seed in enumerate(seeds):
        state = load_map(store, map_id).state
        mode = recorded_mode(state, seed, players, base) or next_mode(schedule, state, index)
        if mode is None:
            return
        options = mode_options(base, mode)
        game_id = bot_game_id(seed, players, options)
        stored = False
        if str(game_id) not in state.games:
            game = Game.start(seed, players, options, game_id, bots=recorded_bots(players))
            continue_game(game, seat_bots(state, players, seed))
            stored = store.save_new_game(game.collect_events())
        settled = settle_map_game(store, map_id, game_id, bots_choose([True] * len(players)))
        if settled.refusal is not None:
            raise settled.refusal
        marks = tuple((w.player, w.achievement) for w in settled.winners if w.achievement is not None)
        yield CampaignGame(seed, game_id, mode, stored, settled.facts.winners, marks)


def recorded_mode(state: MapState, seed: int, players: list[str], base: GameOptions) -> str | None:
    """The mode in which the game of ``seed`` was already played for the map, if it was
    (a rerun of a campaign plays nothing twice: it keeps that game and its mode)."""
    for mode in ACHIEVEMENT_MODES:
        if str(bot_game_id(seed, players, mode_options(base, mode))) in state.games:
            return mode
    return None
