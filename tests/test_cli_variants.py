"""The variants on the command line: ``cascadia rules``, ``simulate --rule`` and the other
option flags (stored in ``GameStarted``), refusals in one line, and what ``show`` and
``score`` print for variant games."""

from __future__ import annotations

import json
from dataclasses import fields
from uuid import UUID

import pytest
from cascadia.application.store import GameStore
from cascadia.domain import events as ev
from cascadia.domain.game import Game
from cascadia.domain.options import RESTRICTIONS, RULES_VERSION, GameOptions
from cascadia.projections.game_scores import score_state

OPTION_NAMES = [
    "cards",
    "balanced_bag",
    "salmon_runs",
    "elk_rings",
    "majority_bonus",
    "must_match",
    "must_not_match",
    "corridors_of_three",
    "corridors_min_five",
    "market_of_three",
    "two_card_sets",
    "no_starter",
    "nature_cost_two",
    "no_token_on_new_tile",
    "secret_cards",
    "achievement_mode",
]
DEFAULTS = {
    "cards": "random",
    "balanced_bag": False,
    "salmon_runs": "strict",
    "elk_rings": "arc",
    "majority_bonus": True,
    **dict.fromkeys(OPTION_NAMES[5:-1], False),
    "achievement_mode": None,
}
RECORDED_DEFAULTS = {k: v for k, v in DEFAULTS.items() if k != "achievement_mode"}
"""The options a game records: an unset achievement mode is left out (earlier logs keep their bytes)."""


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0]


def stored(tmp_path) -> list[tuple[UUID, dict]]:
    return list(GameStore(tmp_path).started_games())


def events_of(tmp_path, game_id: UUID) -> list[ev.GameEvent]:
    return GameStore(tmp_path).game_events(game_id)


# -- cascadia rules ------------------------------------------------------------------------


def test_rules_json_lists_every_option_with_its_default(cli):
    code, out, _ = cli("rules", "--json", home=False)
    assert code == 0
    data = json.loads(out)
    assert data["rules_version"] == RULES_VERSION
    rows = data["options"]
    assert [row["option"] for row in rows] == OPTION_NAMES
    assert {row["option"]: row["default"] for row in rows} == DEFAULTS
    assert [row["option"] for row in rows if row["restriction"]] == list(RESTRICTIONS)
    assert all(row["meaning"].strip() for row in rows)
    # the list is the options' own: nothing missing, nothing extra
    assert [f.name for f in fields(GameOptions)] == OPTION_NAMES


def test_rules_text_names_every_option(cli):
    code, out, _ = cli("rules", home=False)
    assert code == 0
    assert RULES_VERSION in out
    for name in OPTION_NAMES:
        assert name in out


# -- cascadia simulate with options --------------------------------------------------------


@pytest.mark.parametrize("name", RESTRICTIONS)
def test_simulate_rule_stores_games_under_the_option(cli, tmp_path, name):
    code, out, err = cli("simulate", "-n", "2", "-p", "2", "--seed", "3", "--rule", name, "--json")
    assert code == 0, err
    ids = [UUID(json.loads(line)["id"]) for line in out.splitlines()]
    games = stored(tmp_path)
    assert [gid for gid, _ in games] == ids
    for game_id, payload in games:
        assert payload["options"] == {**RECORDED_DEFAULTS, name: True}
        events = events_of(tmp_path, game_id)
        assert events[0].options == {**RECORDED_DEFAULTS, name: True}
        state = Game.replay(events).state
        assert state.finished and getattr(state.options, name) is True


def test_simulate_several_rules_and_hyphens(cli, tmp_path):
    code, _, err = cli(
        "simulate",
        "-p",
        "3",
        "--rule",
        "no-starter",
        "--rule",
        "secret_cards",
        "--rule",
        "corridors-of-three",
    )
    assert code == 0, err
    ((_, payload),) = stored(tmp_path)
    changed = {k: v for k, v in payload["options"].items() if DEFAULTS[k] != v}
    assert changed == {"no_starter": True, "secret_cards": True, "corridors_of_three": True}


def test_simulate_other_option_flags_are_stored(cli, tmp_path):
    code, _, err = cli(
        "simulate",
        "-p",
        "3",
        "--cards",
        "intermediate",
        "--no-majority",
        "--balanced-bag",
        "--salmon-runs",
        "lenient",
        "--elk-rings",
        "any-subset",
    )
    assert code == 0, err
    ((game_id, payload),) = stored(tmp_path)
    assert payload["options"] == {
        **RECORDED_DEFAULTS,
        "cards": "intermediate",
        "majority_bonus": False,
        "balanced_bag": True,
        "salmon_runs": "lenient",
        "elk_rings": "any-subset",
    }
    state = Game.replay(events_of(tmp_path, game_id)).state
    assert state.cards == dict.fromkeys(state.cards, "intermediate")
    assert all(p.bonus_total == 0 for p in score_state(state).players)


def test_the_same_seed_under_different_rules_is_a_different_game(cli, tmp_path):
    assert cli("simulate", "-p", "2", "--seed", "9")[0] == 0
    assert cli("simulate", "-p", "2", "--seed", "9", "--rule", "must_match")[0] == 0
    code, out, _ = cli("simulate", "-p", "2", "--seed", "9", "--rule", "must_match")
    assert code == 0 and out.strip().startswith("0 game(s) stored, 1 already stored")
    assert len(stored(tmp_path)) == 2


def test_unknown_rule_exits_1_with_one_line_and_stores_nothing(cli, tmp_path):
    code, _, err = cli("simulate", "-p", "2", "--rule", "no_bears")
    assert_one_line_error(code, err, "no_bears", "must_match")
    assert stored(tmp_path) == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rule", "must_match", "--rule", "must_not_match"], ["exclude"]),
        (["--rule", "corridors_of_three", "--rule", "corridors_min_five"], ["exclude"]),
        (["--rule", "two_card_sets", "--cards", "family"], ["two_card_sets"]),
        (["-p", "4", "--balanced-bag"], ["2 or 3 players"]),
        (["-p", "1", "--balanced-bag"], ["2 or 3 players"]),
    ],
)
def test_impossible_option_sets_exit_1_with_one_line(cli, tmp_path, args, words):
    code, _, err = cli("simulate", *args)
    assert_one_line_error(code, err, *words)
    assert stored(tmp_path) == []


# -- show and score of variant games -----------------------------------------------------------


def revealed_by_turn(events: list[ev.GameEvent]) -> dict[int, set[int]]:
    """The seats whose secret card is revealed at the end of each turn."""
    revealed: set[int] = set()
    by_turn = {0: set()}
    for event in events:
        if isinstance(event, ev.SecretCardRevealed):
            revealed.add(event.player)
        elif isinstance(event, ev.TurnEnded):
            by_turn[event.turn] = set(revealed)
    return by_turn


def test_show_as_player_hides_unrevealed_secret_cards(cli, tmp_path):
    code, out, err = cli("simulate", "-p", "4", "--seed", "2", "--rule", "secret_cards", "--json")
    assert code == 0, err
    game_id = json.loads(out)["id"]
    events = events_of(tmp_path, UUID(game_id))
    (dealt,) = [e for e in events if isinstance(e, ev.SecretCardsDealt)]
    by_turn = revealed_by_turn(events)
    turn = min(t for t, seats in by_turn.items() if seats)  # the first reveal
    revealed = by_turn[turn]
    assert 0 < len(revealed) < 4
    for seat in range(4):
        code, out, _ = cli("show", game_id, "--json", "--as-player", str(seat), "--turn", str(turn))
        assert code == 0
        shown = json.loads(out)["secret_cards"]
        assert shown == [
            card if other == seat or other in revealed else None for other, card in enumerate(dealt.species)
        ]
    code, out, _ = cli("show", game_id, "--json", "--turn", str(turn))
    assert json.loads(out)["secret_cards"] == dealt.species
    # at setup nobody has revealed anything
    code, out, _ = cli("show", game_id, "--json", "--as-player", "1", "--turn", "0")
    assert json.loads(out)["secret_cards"] == [None, dealt.species[1], None, None]
    code, out, _ = cli("show", game_id, "--as-player", "1", "--turn", "0")
    assert f"secret card {dealt.species[1]}" in out
    assert out.count("secret card hidden") == 3
    # at the end, the seats that spent a token are revealed
    code, out, _ = cli("show", game_id, "--json", "--as-player", "0")
    final = {e.player for e in events if isinstance(e, ev.SecretCardRevealed)}
    assert json.loads(out)["secret_cards"] == [
        card if other == 0 or other in final else None for other, card in enumerate(dealt.species)
    ]


def test_show_prints_the_options_and_the_second_set(cli, tmp_path):
    code, out, _ = cli(
        "simulate", "-p", "2", "--rule", "two_card_sets", "--rule", "market_of_three", "--json"
    )
    game_id = json.loads(out)["id"]
    code, out, _ = cli("show", game_id, "--turn", "3")
    assert code == 0
    assert "second set: " in out
    assert "two_card_sets=True" in out and "market_of_three=True" in out
    assert "[2]" in out and "[3]" not in out  # a market of three slots


def test_score_json_of_a_two_card_sets_game(cli, tmp_path):
    code, out, _ = cli("simulate", "-p", "3", "--seed", "5", "--rule", "two_card_sets", "--json")
    game_id = json.loads(out)["id"]
    code, out, _ = cli("score", game_id, "--json")
    assert code == 0
    data = json.loads(out)
    state = Game.replay(events_of(tmp_path, UUID(game_id))).state
    assert data["second_cards"] == state.second_cards
    assert data["options"]["two_card_sets"] is True
    assert [p["card_set"] for p in data["players"]] == [p.card_set for p in score_state(state).players]


@pytest.mark.parametrize("seed", [1, 2])
def test_score_of_a_solo_game_gives_its_rating(cli, tmp_path, seed):
    code, out, _ = cli("simulate", "-p", "1", "--seed", str(seed), "--bot", "greedy", "--json")
    assert code == 0
    game_id = json.loads(out)["id"]
    code, out, _ = cli("score", game_id, "--json")
    assert code == 0
    data = json.loads(out)
    total = data["players"][0]["total"]
    floors = [
        (110, "incredible"),
        (100, "outstanding"),
        (90, "excellent"),
        (80, "great"),
        (70, "got the gist"),
    ]
    expected = next((name for floor, name in [*floors, (60, "good start")] if total >= floor), None)
    if expected is None:
        assert data["solo_rating"] not in {name for _, name in floors} | {"good start"}
    else:
        assert data["solo_rating"] == expected
    _, out, _ = cli("score", game_id)
    assert f"solo rating: {data['solo_rating']}" in out
