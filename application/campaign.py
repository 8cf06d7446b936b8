"""Use case: simulate an achievement campaign (RULES.md 8.1) on a stored map.

The map's players are bots (each player's name is a bot's name, and it sits at every
game: a map of 2 to 4 players). Game after game, with seeds S, S+1, ...: the mode is
chosen before the game (:func:`next_mode`), the game is played by the bots, stored and
recorded on the map (so the campaign counts every game), and each winner marks by the
bots' rule (:func:`cascadia.bots.marking.bot_mark`), each mark checked by the map
against the stored game like any other.

The ``campaign`` schedule: the modes still open for some player on the map (standard
while someone has an open standard achievement, then each restriction of RULES.md 7
someone has not marked), taken in turn: game ``i`` plays the ``i mod n``-th of the
``n`` modes open before it. A fixed mode (``standard`` or a restriction) plays every
game in that mode.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from uuid import UUID

from cascadia.application.maps import load_map, mark_achievement, record_game, stored_game_facts
from cascadia.application.store import GameStore
from cascadia.bots.marking import bot_mark
from cascadia.bots.registry import check_bot_names, play_game
from cascadia.domain.achievement_map import ACHIEVEMENT_MODES, STANDARD_MODE, MapState
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.projections.achievements import ACHIEVEMENTS

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


def open_modes(state: MapState) -> list[str]:
    """The modes in which some player of the map can still mark something."""
    modes = []
    if any(
        any(a not in {m.achievement for m in p.marks} for a in ACHIEVEMENTS) for p in state.paths.values()
    ):
        modes.append(STANDARD_MODE)
    for restriction in RESTRICTIONS:
        if any(not p.marked(restriction) for p in state.paths.values()):
            modes.append(restriction)
    return modes


def next_mode(schedule: str, state: MapState, index: int) -> str | None:
    """The mode of the ``index``-th game of the campaign (``None``: nothing is open)."""
    if schedule != CAMPAIGN:
        return schedule
    modes = open_modes(state)
    return modes[index % len(modes)] if modes else None


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
        mode = next_mode(schedule, load_map(store, map_id).state, index)
        if mode is None:
            return
        game = play_game(seed, players, mode_options(base, mode))
        stored = store.save_new_game(game.collect_events())
        facts = stored_game_facts(store, game.id)
        if str(game.id) not in load_map(store, map_id).state.games:
            record_game(store, map_id, game.id)
        marks = []
        for winner in facts.winners:
            achievement = bot_mark(load_map(store, map_id).markable(winner, facts))
            if achievement is not None:
                mark_achievement(store, map_id, winner, game.id, achievement)
                marks.append((winner, achievement))
        yield CampaignGame(seed, game.id, mode, stored, facts.winners, tuple(marks))
