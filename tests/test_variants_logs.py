"""Options travel with the game: stored in ``GameStarted``, replayed, kept by the event
store, and carried by game logs that export, audit, import, replay and rerun cleanly.
An audit enforces the options: a log whose header claims an option its game broke
fails."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from cascadia.application.game_logs import export_game, import_log
from cascadia.application.store import GameStore
from cascadia.bots.registry import bot_game_id, play_game
from cascadia.domain import events as ev
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import RESTRICTIONS, GameOptions
from cascadia.projections.game_scores import score_state
from cascadia.replays.audit import audit_file
from cascadia.replays.errors import AuditDivergence
from cascadia.replays.format import LogHeader, encode_log, open_log
from cascadia.replays.replay import replay_log
from cascadia.replays.rerun import rerun
from cascadia.replays.scores import final_score_sheet
from test_variants_helpers import of_type

VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    *[(name, {name: True}, 3) for name in RESTRICTIONS],
    ("family", {"cards": "family"}, 2),
    ("intermediate-no-majority", {"cards": "intermediate", "majority_bonus": False}, 3),
    ("balanced-bag", {"balanced_bag": True}, 3),
    ("lenient-any-subset", {"salmon_runs": "lenient", "elk_rings": "any-subset", "cards": "A,D,A,A,A"}, 2),
    (
        "many-at-once",
        {
            "must_match": True,
            "corridors_min_five": True,
            "market_of_three": True,
            "two_card_sets": True,
            "no_starter": True,
            "nature_cost_two": True,
            "no_token_on_new_tile": True,
            "secret_cards": True,
        },
        4,
    ),
    ("solo-secret-no-starter", {"secret_cards": True, "no_starter": True, "must_not_match": True}, 1),
]


@pytest.fixture
def stores(tmp_path, clean_env):
    return GameStore(tmp_path / "one"), GameStore(tmp_path / "two")


@pytest.mark.parametrize(("label", "options", "players"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variant_game_round_trips_through_store_and_log(tmp_path, stores, label, options, players):
    first, second = stores
    game_options = GameOptions(**options)
    game = play_game(13, ["random"] * players, game_options)
    live = game.state.copy()
    events = list(game.collect_events())
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    assert started.options == game_options.to_dict()
    assert game.id == bot_game_id(13, ["random"] * players, game_options)
    assert Game.replay(events).state == live

    first.save_events(events)
    stored = first.game_events(game.id)
    assert stored[0].options == game_options.to_dict()
    assert Game.replay(stored).state == live
    assert next(o for gid, o in first.started_games() if gid == game.id)["options"] == game_options.to_dict()

    exported = export_game(first, game.id, tmp_path / "game.cascadia")
    assert exported.finished and exported.events == len(events)
    with open_log(exported.path) as reader:
        assert reader.header.options == game_options.to_dict()
        assert reader.header.second_cards == live.second_cards
    audit = audit_file(exported.path)
    assert audit.valid, audit.message
    assert audit.finished and audit.events == len(events)
    assert audit.totals == [p.total for p in score_state(live).players]

    imported = import_log(second, exported.path)
    assert imported.imported and imported.game_id == game.id
    assert Game.replay(second.game_events(game.id)).state == live

    header, snapshots = replay_log(exported.path)
    assert header.options == game_options.to_dict()
    last = list(snapshots)[-1]
    assert last.state == live

    copy = rerun(exported.path, tmp_path / "rerun.cascadia")
    assert copy.totals == audit.totals
    assert (tmp_path / "rerun.cascadia").read_bytes() == exported.path.read_bytes()


def test_secret_cards_log_keeps_the_cards_and_replays_the_reveals(tmp_path, stores):
    first, _ = stores
    game = play_game(2, ["random"] * 4, GameOptions(secret_cards=True))
    events = game.collect_events()
    revealed = of_type(events, ev.SecretCardRevealed)
    assert revealed, "the bots spent nature tokens"
    first.save_events(events)
    path = export_game(first, game.id, tmp_path / "s.cascadia").path
    _, snapshots = replay_log(path)
    states = [s.state for s in snapshots]
    assert states[0].secret_cards == of_type(events, ev.SecretCardsDealt)[0].species
    assert states[0].secret_revealed == [False] * 4
    assert states[-1].secret_revealed == [seat in {e.player for e in revealed} for seat in range(4)]


# -- a header that claims an option its game broke fails the audit ---------------------------


def relabelled(events: list[ev.GameEvent], **changes: Any) -> bytes:
    """The log of ``events`` with ``changes`` made to the options in ``GameStarted``
    (the header follows, with the game id derived from the new options), and the
    trailer's scores of the original game."""
    started = events[0]
    options = {**started.options, **changes}
    game_id = derive_game_id(
        started.seed, started.names, GameOptions.from_dict(options), started.rules_version, started.bots
    )
    forged = [dataclasses.replace(started, options=options, originator_id=game_id), *events[1:]]
    return encode_log(LogHeader.from_events(forged), forged, final_score_sheet(Game.replay(events).state))


def audit_data(tmp_path, data: bytes):
    path = tmp_path / "forged.cascadia"
    path.write_bytes(data)
    return audit_file(path)


def test_an_honest_relabel_of_a_scoring_neutral_setting_still_needs_equal_scores(tmp_path):
    game = play_game(5, ["greedy"] * 2, GameOptions())
    events = game.collect_events()
    # same moves, but corridors of three score differently: the trailer no longer matches
    result = audit_data(tmp_path, relabelled(events, corridors_of_three=True))
    assert not result.valid
    assert isinstance(result.error, AuditDivergence) and result.error.kind == "score"
    # the unchanged log is valid
    assert audit_data(tmp_path, relabelled(events)).valid


@pytest.mark.parametrize(
    ("changes", "kinds"),
    [
        ({"must_match": True}, {"illegal"}),
        ({"must_not_match": True}, {"illegal"}),
        ({"no_token_on_new_tile": True}, {"illegal"}),
        ({"nature_cost_two": True}, {"illegal", "event"}),
        ({"market_of_three": True}, {"event", "draw"}),
        ({"no_starter": True}, {"event", "draw"}),
        ({"secret_cards": True}, {"event", "draw"}),
        ({"two_card_sets": True}, {"header"}),
        ({"balanced_bag": True}, {"draw", "event"}),
    ],
)
def test_a_game_relabelled_with_an_option_it_broke_fails_the_audit(tmp_path, changes, kinds):
    game = play_game(7, ["random"] * 3, GameOptions())
    events = game.collect_events()
    assert of_type(events, ev.NatureTokenSpent), "the game must spend nature tokens"
    result = audit_data(tmp_path, relabelled(events, **changes))
    assert not result.valid
    assert isinstance(result.error, AuditDivergence)
    assert result.error.kind in kinds, result.message


@pytest.mark.parametrize("name", ["secret_cards", "no_starter", "market_of_three", "two_card_sets"])
def test_a_variant_game_relabelled_as_standard_fails_the_audit(tmp_path, name):
    game = play_game(7, ["random"] * 2, GameOptions(**{name: True}))
    result = audit_data(tmp_path, relabelled(game.collect_events(), **{name: False}))
    assert not result.valid and isinstance(result.error, AuditDivergence)
