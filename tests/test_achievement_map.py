"""The achievement map (RULES.md 8.1): joining, each marking rule accepted and refused,
shared victories, milestones, replay equals the live map, and the game mode option."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

import pytest
from cascadia.bots.registry import continue_game, make_bots
from cascadia.domain.achievement_map import (
    MAX_MAP_PLAYERS,
    MILESTONES,
    AchievementMap,
    AchievementMarked,
    AchievementNotMetError,
    AlreadyMarkedError,
    GameAlreadyMarkedError,
    GameFacts,
    GameNotFinishedError,
    MapPlayerError,
    NotAWinnerError,
    RecordError,
    WrongModeError,
)
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.projections.achievement_progress import game_facts, map_progress
from cascadia.projections.achievements import ACHIEVEMENTS
from cascadia.replays.format import LogHeader, write_log
from cascadia.replays.map_file import (
    MapAuditError,
    MapFileError,
    audit_map,
    facts_from_logs,
    read_map_file,
    write_map_file,
)
from cascadia.replays.scores import final_score_sheet

MAP_ID = UUID("00000000-0000-4000-8000-00000000aa01")
STANDARD = list(ACHIEVEMENTS)


def facts(
    game: str = "g1",
    mode: str | None = "standard",
    winners: tuple[str, ...] = ("ann",),
    met: dict[str, tuple[str, ...]] | None = None,
    finished: bool = True,
    seats: tuple[str, ...] = ("ann", "bob"),
    balanced_bag: bool = False,
) -> GameFacts:
    return GameFacts(
        game_id=game,
        finished=finished,
        mode=mode,
        players=len(seats),
        balanced_bag=balanced_bag,
        seat_names=seats,
        winners=winners,
        met=met if met is not None else {w: ("score_80", "no_bear") for w in winners},
    )


def new_map(*players: str) -> AchievementMap:
    achievement_map = AchievementMap.create(MAP_ID, "family")
    for player in players or ("ann", "bob"):
        achievement_map.join(player)
    return achievement_map


def refused(achievement_map: AchievementMap, error: type[Exception], *args: object) -> None:
    before = (achievement_map.version, len(achievement_map._pending))
    with pytest.raises(error):
        achievement_map.mark(*args)  # type: ignore[arg-type]
    assert (achievement_map.version, len(achievement_map._pending)) == before


# -- joining -------------------------------------------------------------------------


def test_players_join_in_order_on_paths_0_to_4_and_a_sixth_is_refused():
    achievement_map = new_map("a", "b", "c", "d", "e")
    assert [p.path for p in achievement_map.state.paths.values()] == list(range(MAX_MAP_PLAYERS))
    with pytest.raises(MapPlayerError, match="5 players"):
        achievement_map.join("f")


@pytest.mark.parametrize("name", ["ann", " ann ", "", "   ", "x" * 25, "tab\there", 7])
def test_names_are_unique_printable_and_short(name):
    achievement_map = new_map("ann")
    with pytest.raises(MapPlayerError):
        achievement_map.join(name)
    assert achievement_map.version == 2


# -- marking: each rule accepted and refused --------------------------------------------


def test_a_standard_winner_marks_an_achievement_met_and_fills_the_first_cell():
    achievement_map = new_map()
    achievement_map.mark("ann", facts(), "score_80")
    path = achievement_map.path("ann")
    assert [(m.cell, m.achievement, m.game_id, m.mode) for m in path.marks] == [
        (1, "score_80", "g1", "standard")
    ]


def test_a_player_not_on_the_map_cannot_mark():
    refused(new_map(), MapPlayerError, "cid", facts(), "score_80")


def test_an_unfinished_game_cannot_be_marked():
    refused(new_map(), GameNotFinishedError, "ann", facts(finished=False), "score_80")


def test_a_game_not_played_for_achievements_cannot_be_marked():
    refused(new_map(), WrongModeError, "ann", facts(mode=None), "score_80")


@pytest.mark.parametrize("seats, balanced", [(("ann",), False), (("ann", "bob"), True)])
def test_solo_and_balanced_bag_games_do_not_count(seats, balanced):
    refused(new_map(), WrongModeError, "ann", facts(seats=seats, balanced_bag=balanced), "score_80")


def test_only_a_winner_marks():
    refused(new_map(), NotAWinnerError, "bob", facts(), "score_80")


def test_a_player_who_did_not_sit_at_the_table_cannot_mark():
    refused(
        new_map("ann", "cid"),
        NotAWinnerError,
        "cid",
        facts(winners=("cid",), seats=("ann", "bob")),
        "score_80",
    )


def test_an_achievement_not_met_is_refused():
    refused(new_map(), AchievementNotMetError, "ann", facts(), "score_110")


def test_a_restriction_cannot_be_marked_after_a_standard_game():
    refused(new_map(), WrongModeError, "ann", facts(), "must_match")


def test_a_restriction_game_marks_its_restriction_only():
    achievement_map = new_map()
    refused(achievement_map, WrongModeError, "ann", facts(mode="must_match"), "score_80")
    refused(achievement_map, WrongModeError, "ann", facts(mode="must_match"), "secret_cards")
    achievement_map.mark("ann", facts(mode="must_match"), "must_match")
    assert achievement_map.path("ann").marks[-1].achievement == "must_match"


def test_an_achievement_is_marked_once_per_player():
    achievement_map = new_map()
    achievement_map.mark("ann", facts("g1"), "score_80")
    refused(achievement_map, AlreadyMarkedError, "ann", facts("g2"), "score_80")
    achievement_map.mark("ann", facts("g2"), "no_bear")
    refused(achievement_map, AlreadyMarkedError, "ann", facts("g3"), "no_bear")


def test_each_restriction_once_per_player():
    achievement_map = new_map()
    achievement_map.mark("ann", facts("g1", mode="secret_cards"), "secret_cards")
    refused(achievement_map, AlreadyMarkedError, "ann", facts("g2", mode="secret_cards"), "secret_cards")


def test_at_most_one_mark_per_player_per_game():
    achievement_map = new_map()
    achievement_map.mark("ann", facts(), "score_80")
    refused(achievement_map, GameAlreadyMarkedError, "ann", facts(), "no_bear")


def test_in_a_shared_victory_every_winner_may_mark():
    achievement_map = new_map()
    shared = facts(winners=("ann", "bob"))
    achievement_map.mark("ann", shared, "score_80")
    achievement_map.mark("bob", shared, "score_80")
    assert achievement_map.path("bob").marks[0].cell == 1


def test_a_name_at_the_table_twice_is_ambiguous():
    refused(new_map(), NotAWinnerError, "ann", facts(seats=("ann", "ann")), "score_80")


def test_markable_lists_exactly_what_mark_accepts():
    achievement_map = new_map()
    achievement_map.mark("ann", facts("g0"), "score_80")
    game = facts("g1", met={"ann": ("score_80", "no_bear", "no_fox")})
    assert achievement_map.markable("ann", game) == ["no_bear", "no_fox"]
    assert achievement_map.markable("bob", game) == []
    assert achievement_map.markable("ann", facts("g2", mode="no_starter")) == ["no_starter"]


# -- milestones and the projection --------------------------------------------------------


def campaign(marks: int) -> AchievementMap:
    """Ann marks ``marks`` achievements: the 25 standard ones, then the 10 restrictions."""
    achievement_map = new_map()
    for n, achievement in enumerate((STANDARD + list(RESTRICTIONS))[:marks]):
        mode = "standard" if achievement in ACHIEVEMENTS else achievement
        achievement_map.mark("ann", facts(f"g{n}", mode=mode, met={"ann": (achievement,)}), achievement)
    return achievement_map


def test_milestones_at_8_16_24_32_with_the_game_that_reached_them():
    progress = map_progress(campaign(35).state)
    ann = progress["players"][0]
    assert ann["filled"] == 35
    assert [(m["cells"], m["name"], m["game_id"]) for m in ann["milestones"]] == [
        (8, "river explorer", "g7"),
        (16, "wetland explorer", "g15"),
        (24, "forest explorer", "g23"),
        (32, "mountain explorer", "g31"),
    ]
    assert ann["next_milestone"] == {"cells": 40, "name": MILESTONES[40]}
    assert ann["open_standard"] == [] and ann["open_restrictions"] == []
    assert progress["reachable"] == 35


def test_progress_before_any_mark_and_at_any_point_of_history():
    live = campaign(9)
    events = live.collect_events()  # created, two joins, nine marks
    assert map_progress(AchievementMap.replay(events[:1]).state)["players"] == []
    seven = map_progress(AchievementMap.replay(events[: 3 + 7]).state)["players"][0]
    assert seven["filled"] == 7 and seven["milestones"] == []
    assert map_progress(live.state)["players"][0]["milestones"][0]["cells"] == 8


def test_replay_of_the_map_equals_the_live_state():
    live = campaign(20)
    events = live.collect_events()
    assert AchievementMap.replay(events).state == live.state


# -- the game's mode, recorded in its options ------------------------------------------------


def test_the_mode_is_recorded_in_the_first_event_only_when_set():
    plain = Game.start(1, ["ann", "bob"]).collect_events()[0]
    assert "achievement_mode" not in plain.options
    game = Game.start(1, ["ann", "bob"], GameOptions(achievement_mode="standard"))
    assert game.collect_events()[0].options["achievement_mode"] == "standard"
    assert (
        GameOptions.from_dict(GameOptions(achievement_mode="standard").to_dict()).achievement_mode
        == "standard"
    )


@pytest.mark.parametrize(
    "options",
    [
        {"achievement_mode": "standard", "must_match": True},
        {"achievement_mode": "must_match"},
        {"achievement_mode": "must_match", "must_match": True, "no_starter": True},
        {"achievement_mode": "standard", "cards": "family"},
        {"achievement_mode": "scenario"},
    ],
)
def test_a_mode_must_fit_the_options(options):
    with pytest.raises(InvalidOptionError):
        GameOptions(**options)


@pytest.mark.parametrize("players, balanced", [(["solo"], False), (["ann", "bob"], True)])
def test_solo_and_balanced_bag_games_are_not_played_for_achievements(players, balanced):
    with pytest.raises(InvalidOptionError, match=r"RULES\.md 8"):
        Game.start(1, players, GameOptions(achievement_mode="standard", balanced_bag=balanced))


def test_facts_of_a_real_game_come_from_the_achievements_projection():
    game = Game.start(3, ["ann", "bob", "cid"], GameOptions(achievement_mode="standard"))
    continue_game(game, make_bots(["greedy"] * 3, 3))
    found = game_facts(game.state)
    assert found.finished and found.mode == "standard" and found.seat_names == ("ann", "bob", "cid")
    assert found.winners
    achievement_map = new_map("ann", "bob", "cid")
    winner = found.winners[0]
    for achievement in found.met[winner]:
        assert achievement_map.markable(winner, found)
        achievement_map.mark(winner, found, achievement)
        break
    loser = next(name for name in found.seat_names if name not in found.winners)
    with pytest.raises(NotAWinnerError):
        achievement_map.mark(loser, found, STANDARD[0])


# -- map files and their audit across aggregates -------------------------------------------


def test_a_map_file_round_trips_and_audits(tmp_path):
    live = campaign(12)
    events = live.collect_events()
    path = tmp_path / "family.cascadia-map"
    write_map_file(path, events)
    assert read_map_file(path) == events
    result = audit_map(str(path), read_map_file(path), campaign_facts)
    assert (result.players, result.marks, result.games) == (2, 12, 12)


def campaign_facts(game_id: str) -> GameFacts:
    """The facts of the games of :func:`campaign` (game ``g<n>`` won by ann)."""
    n = int(game_id[1:])
    achievement = (STANDARD + list(RESTRICTIONS))[n]
    mode = "standard" if achievement in ACHIEVEMENTS else achievement
    return facts(game_id, mode=mode, met={"ann": (achievement,)})


def test_a_mark_moved_to_a_game_the_player_lost_fails_audit_with_the_mark_named(tmp_path):
    events = campaign(5).collect_events()
    mark = events[5]
    assert isinstance(mark, AchievementMarked)
    events[5] = replace(mark, player="bob")  # bob did not win g2
    path = tmp_path / "tampered.cascadia-map"
    write_map_file(path, events)  # re-chained: the file is intact, the history is not
    with pytest.raises(MapAuditError, match=r"event 6\).*'score_90' by 'bob' for game g2.*did not win"):
        audit_map(str(path), read_map_file(path), campaign_facts)


def test_a_mark_of_an_achievement_not_met_fails_audit(tmp_path):
    events = campaign(3).collect_events()
    events[3] = replace(events[3], achievement="score_110")
    with pytest.raises(MapAuditError, match="did not meet 'score_110'"):
        audit_map("m", events, campaign_facts)


def test_a_skipped_cell_fails_audit():
    events = campaign(3).collect_events()
    events[4] = replace(events[4], cell=7)
    with pytest.raises(MapAuditError, match=r"event 5\).*the rules record"):
        audit_map("m", events, campaign_facts)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda lines: [*lines[:-1], lines[-1][:-1]], "truncated"),
        (lambda lines: [lines[0], *lines[2:]], "where event 1 belongs"),
        (lambda lines: [lines[0], lines[1].replace('"family"', '"other"'), *lines[2:]], "hash chain"),
        (lambda lines: ["{}\n", *lines[1:]], "not a cascadia-map file"),
        (lambda lines: [lines[0], "[" * 100_000 + "\n"], "longer than"),
        (lambda lines: [lines[0], "[" * 5_000 + "]" * 5_000 + "\n"], "line 2"),
    ],
)
def test_a_damaged_map_file_is_refused_with_its_line(tmp_path, damage, message):
    path = tmp_path / "m.cascadia-map"
    write_map_file(path, campaign(2).collect_events())
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(damage(lines)))
    with pytest.raises(MapFileError, match=message):
        read_map_file(path)


def test_marks_are_checked_against_audited_game_logs(tmp_path):
    game = Game.start(5, ["ann", "bob"], GameOptions(achievement_mode="standard"))
    continue_game(game, make_bots(["greedy", "random"], 5))
    events = game.collect_events()
    log = tmp_path / "g.cascadia"
    write_log(log, LogHeader.from_events(events), events, final_score_sheet(game.state))
    found = game_facts(game.state)
    achievement_map = new_map("ann", "bob")
    winner = found.winners[0]
    achievement_map.mark(winner, found, found.met[winner][0])
    map_events = achievement_map.collect_events()
    facts_of = facts_from_logs([log])
    assert audit_map("m", map_events, facts_of).marks == 1
    loser = "bob" if winner == "ann" else "ann"
    with pytest.raises(MapAuditError, match="did not win"):
        audit_map("m", [*map_events[:-1], replace(map_events[-1], player=loser)], facts_of)
    with pytest.raises(MapAuditError, match="no log of game"):
        audit_map("m", [*map_events[:-1], replace(map_events[-1], game_id=str(UUID(int=1)))], facts_of)


def test_a_recorded_game_counts_for_every_map_player_at_the_table_once():
    achievement_map = new_map("ann", "bob", "cid")
    achievement_map.record_game(facts("g1"))
    assert [p.games for p in achievement_map.state.paths.values()] == [1, 1, 0]
    with pytest.raises(RecordError, match="already recorded"):
        achievement_map.record_game(facts("g1"))
    with pytest.raises(RecordError, match="nobody at the table"):
        achievement_map.record_game(facts("g2", seats=("dan", "eve"), winners=("dan",)))
    with pytest.raises(GameNotFinishedError):
        achievement_map.record_game(facts("g3", finished=False))
    achievement_map.mark("ann", facts("g1"), "score_80")
    progress = map_progress(achievement_map.state)
    assert progress["games"] == 1 and progress["players"][0]["games_played"] == 1
    assert achievement_map.path("ann").marks[0].games == 1
