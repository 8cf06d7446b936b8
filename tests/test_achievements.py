"""Achievements (RULES.md 8): each one is detected on a board built to earn it and not
on one built to miss it; only the winners of finished games get them; the
``cascadia achievements`` command.

The boards: two players, seat 0 built for the case and meant to win, seat 1 empty
unless the case says otherwise. Score parts come straight from ``build_sheet`` (wildlife
points and corridor sizes given); tokens lie on real tiles of seat 0's environment.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any
from uuid import UUID

import pytest
from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game
from cascadia.domain.components import HABITATS, TILES, WILDLIFE
from cascadia.domain.environment import Environment
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.domain.state import GameState, PlayerState
from cascadia.projections.achievements import ACHIEVEMENTS, player_achievements, winner_achievements
from cascadia.projections.describe import plural
from cascadia.projections.game_scores import score_state
from cascadia.projections.scoresheet import build_sheet
from test_variants_helpers import ALL_A, NO_WILDLIFE, corridors

GAME_ID = UUID("00000000-0000-4000-8000-0000000000ac")
DUAL = 41  # mountain/wetland (bear, elk, salmon): not a keystone
KEYSTONE = 0  # mountain keystone (bear)


def tokens(*species: str, keystone_at: int | None = None) -> Environment:
    """Tokens in a row ``(0, 0), (2, 0), (4, 0) ...``, each on a dual tile (the
    ``keystone_at``-th on a keystone tile instead)."""
    environment = Environment()
    for i, s in enumerate(species):
        h = (2 * i, 0)
        environment.tiles[h] = (KEYSTONE if i == keystone_at else DUAL, 0)
        environment.wildlife[h] = s
    return environment


def finished(environments: list[Environment], nature: list[int], done: bool = True) -> GameState:
    players = [
        PlayerState(f"p{i}", env, nature_tokens=n)
        for i, (env, n) in enumerate(zip(environments, nature, strict=True))
    ]
    return GameState(GAME_ID, names=[p.name for p in players], players=players, finished=done)


def achieved(
    *,
    wildlife: dict[str, int] | None = None,
    habitats: dict[str, list[int]] | None = None,
    nature: int = 0,
    env: Environment | None = None,
    other_habitats: dict[str, list[int]] | None = None,
    other_wildlife: dict[str, int] | None = None,
    players: int = 2,
) -> list[str]:
    """The achievements of seat 0, which must be the only winner."""
    own_wildlife = {**NO_WILDLIFE, "elk": 1, **(wildlife or {})}
    lines_wildlife = [own_wildlife, {**NO_WILDLIFE, **(other_wildlife or {})}][:players]
    lines_corridors = [corridors(**(habitats or {})), corridors(**(other_habitats or {}))][:players]
    natures = [nature, 0][:players]
    sheet = build_sheet(lines_wildlife, lines_corridors, natures, ALL_A, GameOptions())
    state = finished([env or Environment(), Environment()][:players], natures)
    earned = winner_achievements(state, sheet)
    assert list(earned) == [0], f"seat 0 must win alone: {[p.total for p in sheet.players]}"
    return earned[0]


FIVE_EACH = {h: [5] for h in HABITATS}

# name: (arguments of a board that earns it, arguments of one that misses it)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    **{
        f"score_{n}": ({"wildlife": {"bear": n - 1}}, {"wildlife": {"bear": n - 2}})  # + elk 1
        for n in (80, 85, 90, 95, 100, 105, 110)
    },
    "no_nature_tokens_left": ({"nature": 0}, {"nature": 1}),
    **{
        f"no_{s}": (
            {"env": tokens(*(o for o in WILDLIFE if o != s))},
            {"env": tokens(*(o for o in WILDLIFE if o != s), s)},
        )
        for s in WILDLIFE
    },
    "eleven_of_one_species": ({"env": tokens(*["elk"] * 11)}, {"env": tokens(*["elk"] * 10, *["fox"] * 10)}),
    "largest_corridor_in_three_habitats": (
        {
            "habitats": {"mountain": [5], "forest": [5], "prairie": [5]},
            "other_habitats": {"mountain": [4], "forest": [4], "prairie": [4], "wetland": [6], "river": [6]},
            "wildlife": {"elk": 20},
        },
        {  # prairie is only tied: not strictly larger
            "habitats": {"mountain": [5], "forest": [5], "prairie": [4], "wetland": [1]},
            "other_habitats": {"mountain": [4], "forest": [4], "prairie": [4], "wetland": [3]},
        },
    ),
    "five_in_every_habitat": (
        {"habitats": FIVE_EACH},
        {"habitats": {**FIVE_EACH, "river": [4]}, "other_habitats": {"river": [6]}},
    ),
    "twelve_in_one_habitat": (
        {"habitats": {"mountain": [12]}, "other_habitats": {"mountain": [13]}, "wildlife": {"elk": 10}},
        {"habitats": {"mountain": [11]}, "other_habitats": {"mountain": [12]}, "wildlife": {"elk": 10}},
    ),
    "fifteen_in_one_habitat": (
        {"habitats": {"forest": [15, 3]}, "other_habitats": {"forest": [16]}, "wildlife": {"elk": 10}},
        {"habitats": {"forest": [14]}, "other_habitats": {"forest": [15]}, "wildlife": {"elk": 10}},
    ),
    "ten_for_every_species": (
        {"wildlife": dict.fromkeys(WILDLIFE, 10)},
        {"wildlife": {**dict.fromkeys(WILDLIFE, 10), "hawk": 9}},
    ),
    "twenty_for_two_species": (
        {"wildlife": {"bear": 20, "elk": 20}},
        {"wildlife": {"bear": 20, "elk": 19, "fox": 19}},
    ),
    "thirty_for_one_species": ({"wildlife": {"fox": 30}}, {"wildlife": {"fox": 29, "bear": 29}}),
    "five_nature_tokens": ({"nature": 5}, {"nature": 4}),
    "ten_nature_tokens": ({"nature": 10}, {"nature": 9}),
    "no_token_on_keystone": (
        {"env": tokens("bear", "elk", "fox")},
        {"env": tokens("bear", "elk", "fox", keystone_at=0)},
    ),
    "exactly_three_species": (
        {"env": tokens("bear", "elk", "elk", "fox")},
        {"env": tokens("bear", "elk", "fox", "hawk")},
    ),
}


def test_every_achievement_has_a_case():
    assert set(CASES) == set(ACHIEVEMENTS)
    assert len(ACHIEVEMENTS) == 7 + 1 + 5 + 1 + 1 + 3 + 3 + 2 + 1 + 1  # RULES.md 8, in its order
    assert all(isinstance(text, str) and text for text, _ in ACHIEVEMENTS.values())


@pytest.mark.parametrize("name", list(CASES))
def test_achievement_is_detected_when_earned(name):
    earn, _ = CASES[name]
    assert name in achieved(**earn)


@pytest.mark.parametrize("name", list(CASES))
def test_achievement_is_not_detected_when_missed(name):
    _, miss = CASES[name]
    assert name not in achieved(**miss)


def test_two_species_placed_is_not_exactly_three():
    assert "exactly_three_species" not in achieved(env=tokens("bear", "elk"))
    assert "exactly_three_species" not in achieved(env=tokens())


def test_habitat_points_include_the_majority_bonus():
    # our ruling: points in a habitat are the corridor and its bonus, as on the score pad
    assert "five_in_every_habitat" in achieved(
        habitats={**FIVE_EACH, "river": [4]}, other_habitats={"river": [3]}
    )
    assert "twelve_in_one_habitat" in achieved(habitats={"mountain": [10]})  # 10 + 2
    assert "twelve_in_one_habitat" not in achieved(habitats={"mountain": [9]})  # 9 + 2


def test_thresholds_together():
    earned = achieved(wildlife={"bear": 94})  # total 95
    assert [n for n in earned if n.startswith("score_")] == ["score_80", "score_85", "score_90", "score_95"]


def test_solo_corridors_count_as_the_largest():
    board = {"mountain": [2], "forest": [1], "river": [3]}
    assert "largest_corridor_in_three_habitats" in achieved(habitats=board, players=1)
    assert "largest_corridor_in_three_habitats" not in achieved(
        habitats={"river": [3], "forest": [1]}, players=1
    )


# -- only winners, only finished games -----------------------------------------------------


def sheet_of(totals: list[int], nature: list[int]):
    return build_sheet(
        [{**NO_WILDLIFE, "bear": t - n} for t, n in zip(totals, nature, strict=True)],
        [corridors()] * len(totals),
        nature,
        ALL_A,
        GameOptions(),
    )


def test_only_the_winner_is_listed():
    sheet = sheet_of([90, 120, 100], [0, 0, 0])
    state = finished([Environment()] * 3, [0, 0, 0])
    earned = winner_achievements(state, sheet)
    assert list(earned) == [1]
    assert "score_110" in earned[1]
    # seat 2 qualifies for score_100 but did not win
    assert "score_100" in player_achievements(state, sheet, 2)


def test_tie_on_total_goes_to_nature_tokens():
    sheet = sheet_of([95, 95], [3, 5])
    earned = winner_achievements(finished([Environment()] * 2, [3, 5]), sheet)
    assert list(earned) == [1]
    assert "five_nature_tokens" in earned[1]


def test_shared_winners_each_get_their_list():
    state = finished([tokens("bear"), tokens("fox", "fox")], [2, 2])
    earned = winner_achievements(state, sheet_of([85, 85], [2, 2]))
    assert sorted(earned) == [0, 1]
    assert "no_bear" in earned[1] and "no_bear" not in earned[0]
    assert "no_fox" in earned[0] and "no_fox" not in earned[1]


def test_no_achievements_before_the_game_ends():
    state = finished([Environment()] * 2, [0, 0], done=False)
    assert winner_achievements(state, sheet_of([120, 0], [0, 0])) == {}


def test_an_unfinished_real_game_has_none_and_the_finished_one_has_its_winners():
    game = Game.start(3, 2)
    assert winner_achievements(game.state, score_state(game.state)) == {}
    game = play_game(3, ["greedy", "random"])
    sheet = score_state(game.state)
    earned = winner_achievements(game.state, sheet)
    assert sorted(earned) == sorted(sheet.winners) and earned


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_games_achievements_by_independent_checks(seed):
    game = play_game(seed, ["greedy"] * 3)
    state = game.state
    sheet = score_state(state)
    earned = winner_achievements(state, sheet)
    for seat, names in earned.items():
        line = sheet.players[seat]
        environment = state.players[seat].environment
        counts = Counter(environment.wildlife.values())
        points = [line.habitat_points[h] + line.habitat_bonuses[h] for h in HABITATS]
        others = [p.corridors for p in sheet.players if p.seat != seat]
        expected = {
            **{f"score_{n}": line.total >= n for n in (80, 85, 90, 95, 100, 105, 110)},
            "no_nature_tokens_left": line.nature_tokens == 0,
            **{f"no_{s}": counts[s] == 0 for s in WILDLIFE},
            "eleven_of_one_species": max(counts.values()) >= 11,
            "largest_corridor_in_three_habitats": sum(
                all(line.corridors[h] > o[h] for o in others) for h in HABITATS
            )
            >= 3,
            "five_in_every_habitat": min(points) >= 5,
            "twelve_in_one_habitat": max(points) >= 12,
            "fifteen_in_one_habitat": max(points) >= 15,
            "ten_for_every_species": min(line.wildlife.values()) >= 10,
            "twenty_for_two_species": sorted(line.wildlife.values())[-2] >= 20,
            "thirty_for_one_species": max(line.wildlife.values()) >= 30,
            "five_nature_tokens": line.nature_tokens >= 5,
            "ten_nature_tokens": line.nature_tokens >= 10,
            "no_token_on_keystone": all(
                len(TILES[environment.tiles[h][0]].habitats) == 2 for h in environment.wildlife
            ),
            "exactly_three_species": len(counts) == 3,
        }
        assert names == [name for name in ACHIEVEMENTS if expected[name]]


# -- cascadia achievements GAME ---------------------------------------------------------------


def stored_achievements(tmp_path, game_id: str) -> dict[int, list[str]]:
    store = GameStore(tmp_path)
    state = Game.replay(store.game_events(UUID(game_id))).state
    return winner_achievements(state, score_state(state))


@pytest.mark.parametrize("players", [1, 3])
def test_cli_achievements(cli, tmp_path, players):
    code, out, _ = cli("simulate", "-n", "1", "-p", str(players), "--seed", "4", "--bot", "greedy", "--json")
    assert code == 0
    game_id = json.loads(out)["id"]
    expected = stored_achievements(tmp_path, game_id)
    assert expected
    code, out, err = cli("achievements", game_id[:8], "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game_id"] == game_id
    names_of = GameStore(tmp_path).game(UUID(game_id)).state.names
    assert data["winners"] == [
        {"seat": seat, "name": names_of[seat], "achievements": names} for seat, names in expected.items()
    ]
    code, out, _ = cli("achievements", game_id)
    assert code == 0
    for seat, names in expected.items():
        assert f"seat {seat} " in out and plural(len(names), "achievement") in out
        for name in names:
            assert f"{name}: {ACHIEVEMENTS[name][0]}" in out


def test_cli_achievements_of_an_unknown_game(cli):
    code, _, err = cli("achievements", "ffffffff")
    assert code == 1
    assert err.strip().startswith("error: ") and len(err.strip().splitlines()) == 1
