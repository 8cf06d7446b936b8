"""A game records the bot of each seat in its first event (issue 12: "bot name, version
and budget recorded in the game's first event, and queryable in the analytics tables"):
``GameStarted.bots``, in the log's header, in the derived game id and in the analytics
``players`` table; a game without bots, and every log written before, keeps its bytes."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from cascadia.application.games import start_game
from cascadia.application.store import GameStore
from cascadia.bots import registry
from cascadia.bots.registry import bot_game_id, bot_record, play_game, recorded_bots
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import GameOptions
from cascadia.replays.errors import AuditDivergence, LogFormatError
from cascadia.replays.format import LogHeader
from test_replays_helpers import audit_bytes, game_log, rechain, with_raw_header

GREEDY = {"name": "greedy", "version": registry.VERSIONS["greedy"], "budget": None}


def test_every_bot_has_a_version_and_a_seat_names_its_bot_and_budget() -> None:
    assert set(registry.VERSIONS) == set(registry.BOTS)
    assert bot_record("greedy") == GREEDY
    assert bot_record("search@250") == {
        "name": "search",
        "version": registry.VERSIONS["search"],
        "budget": 250,
    }
    assert bot_record("ann") is None and bot_record("search@0") is None
    assert recorded_bots(["ann", "greedy"]) == [None, GREEDY]
    assert recorded_bots(["ann", "bob"]) is None


def test_a_person_and_a_bot_at_one_table(tmp_path) -> None:
    """``cascadia new`` (the application's start_game): the bot seat is recorded, the
    person's is not; a table of people records nothing (its first event keeps its form)."""
    store = GameStore(tmp_path / "store")
    mixed = store.game_events(start_game(store, 3, ["ann", "greedy"]).id)[0]
    people = store.game_events(start_game(store, 3, ["ann", "bob"]).id)[0]
    assert mixed.bots == [None, GREEDY] and mixed.payload()["bots"] == [None, GREEDY]
    assert people.bots is None and "bots" not in people.payload()


@pytest.mark.parametrize(
    "bots",
    [
        [GREEDY],
        "greedy",
        [{"name": "greedy", "version": 2}, None],
        [{**GREEDY, "version": 0}, None],
        [{**GREEDY, "version": True}, None],
        [{**GREEDY, "budget": -1}, None],
        [{**GREEDY, "name": ""}, None],
        [{**GREEDY, "name": "x" * 41}, None],
    ],
)
def test_a_malformed_bot_record_is_refused(bots: Any) -> None:
    with pytest.raises(InvalidOptionError):
        Game.start(1, ["ann", "greedy"], bots=bots)


def test_another_version_of_a_bot_plays_another_game(monkeypatch) -> None:
    """The version is part of the derived id: simulating the same seed again after a
    bot changed stores a new game instead of skipping it as already stored."""
    options = GameOptions()
    before = bot_game_id(7, ["greedy", "random"], options)
    monkeypatch.setitem(registry.VERSIONS, "greedy", registry.VERSIONS["greedy"] + 1)
    after = bot_game_id(7, ["greedy", "random"], options)
    assert before != after == play_game(7, ["greedy", "random"], options).id
    assert derive_game_id(7, ["greedy", "random"], options) not in (before, after)


def test_the_log_header_holds_the_bots_and_the_audit_binds_them() -> None:
    data = game_log(2, seed=11)
    events = audit_bytes(data)
    assert LogHeader.from_events(events).bots == events[0].bots == [bot_record("random")] * 2

    def newer(header: LogHeader) -> LogHeader:
        return replace(header, bots=[{**b, "version": b["version"] + 1} for b in header.bots])

    with pytest.raises(AuditDivergence) as raised:  # another version claimed: the derived id differs
        audit_bytes(rechain(data, header=newer))
    assert raised.value.kind == "header"
    assert LogHeader.from_events(events).body()["version"] == 2
    with pytest.raises(LogFormatError, match="bots"):
        audit_bytes(with_raw_header(data, lambda body: {**body, "bots": "random"}))

    def without_bots(body: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in body.items() if k != "bots"}

    for edit in (lambda body: {**body, "version": 1}, without_bots):  # version 1 with bots, 2 without
        with pytest.raises(LogFormatError, match="only one, holds the seats' bots"):
            audit_bytes(with_raw_header(data, edit))


def test_a_bots_field_written_as_nil_is_not_the_canonical_record() -> None:
    data = game_log(2, seed=11)

    def nil_bots(records):
        seq, type_name, payload = records[0]
        return [[seq, type_name, {**payload, "bots": None}], *records[1:]]

    def no_bots(header: LogHeader) -> LogHeader:
        game_id = derive_game_id(header.seed, header.names, GameOptions.from_dict(header.options))
        return replace(header, bots=None, game_id=game_id, version=1)

    with pytest.raises(LogFormatError, match="left out, not written as nil"):
        audit_bytes(rechain(data, nil_bots, header=no_bots))


def test_the_analytics_players_table_holds_each_seats_bot(cli) -> None:
    code, _, err = cli("simulate", "--games", "1", "--players", "2", "--bot", "greedy,search@2", "--ingest")
    assert code in (0, None), err
    query = "SELECT name, bot, bot_version, bot_budget FROM players ORDER BY seat"
    code, out, err = cli("sql", query, "--format", "json")
    assert code in (0, None), err
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [
        {"name": "greedy", "bot": "greedy", "bot_version": GREEDY["version"], "bot_budget": None},
        {"name": "search@2", "bot": "search", "bot_version": registry.VERSIONS["search"], "bot_budget": 2},
    ]


def test_the_first_event_is_described_with_each_bots_version() -> None:
    from cascadia.projections.describe import describe_event

    started = Game.start(1, ["ann", "search@2"], bots=recorded_bots(["ann", "search@2"])).collect_events()[0]
    version = registry.VERSIONS["search"]
    assert describe_event(started, started.names).endswith(f": ann, search@2 (bot v{version}).")
