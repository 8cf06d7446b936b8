"""Export/import round trips, rerun, what-if, diff and step-through replay."""

from __future__ import annotations

import pytest
from cascadia.application.game_logs import ImportConflictError, export_game, import_log
from cascadia.application.store import GameStore
from cascadia.bots.registry import play_game
from cascadia.cli.replay_commands import bots_finish
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.game import Game, derive_game_id
from cascadia.domain.options import GameOptions
from cascadia.replays.diff import diff_logs
from cascadia.replays.errors import AuditDivergence, LogFormatError
from cascadia.replays.files import export_targets
from cascadia.replays.format import LogHeader, encode_log
from cascadia.replays.replay import ReplayRangeError, replay_log
from cascadia.replays.rerun import RerunError, rerun, rerun_from_turn, what_if_names
from test_replays_helpers import audit_bytes, game_events, game_log, index_of, read, rechain


def write(path, data):
    path.write_bytes(data)
    return path


# -- store -> log -> store -> log ----------------------------------------------------------


@pytest.mark.parametrize("players", [1, 4])
def test_round_trip_store_log_store_log_is_byte_identical(tmp_path, players):
    first, second = GameStore(tmp_path / "one"), GameStore(tmp_path / "two")
    game = play_game(31, ["random"] * players)
    first.save_game(game)
    exported = export_game(first, game.id, tmp_path / "a.cascadia")
    assert exported.finished and exported.events == game.version
    result = import_log(second, exported.path)
    assert result.imported and result.events == game.version
    again = export_game(second, game.id, tmp_path / "b.cascadia")
    assert (tmp_path / "a.cascadia").read_bytes() == (tmp_path / "b.cascadia").read_bytes()
    assert again.bytes == exported.bytes
    assert [e.payload() for e in second.game_events(game.id)] == [
        e.payload() for e in first.game_events(game.id)
    ]


def test_importing_twice_is_a_no_op(tmp_path):
    store = GameStore(tmp_path / "store")
    path = write(tmp_path / "g.cascadia", game_log(2))
    assert import_log(store, path).imported
    again = import_log(store, path)
    assert not again.imported and again.events == len(game_events(2))
    assert len(store.game_events(again.game_id)) == len(game_events(2))


def test_import_racing_another_writer_is_a_no_op(tmp_path, monkeypatch):
    store = GameStore(tmp_path / "store")
    path = write(tmp_path / "g.cascadia", game_log(2))
    import_log(store, path)
    monkeypatch.setattr(store, "has_game", lambda game_id: False)  # stored "meanwhile"
    result = import_log(store, path)
    assert not result.imported and len(store.game_events(result.game_id)) == result.events


def test_import_of_a_failing_log_writes_nothing(tmp_path):
    store = GameStore(tmp_path / "store")
    data = game_log(2)
    _, records, _ = read(data)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    late = index_of(body, "TilePlaced", 35)  # fails near the end: the earlier events must not be saved
    forged = rechain(
        data, lambda rs: [*rs[:late], [rs[late][0], "TilePlaced", {**rs[late][2], "q": 99}], *rs[late + 1 :]]
    )
    with pytest.raises(AuditDivergence):
        import_log(store, write(tmp_path / "forged.cascadia", forged))
    with pytest.raises(LogFormatError):
        import_log(store, write(tmp_path / "cut.cascadia", data[:-100]))
    assert list(store.started_games()) == []


def test_import_refuses_a_different_game_under_the_same_id(tmp_path):
    store = GameStore(tmp_path / "store")
    data = game_log(2)
    import_log(store, write(tmp_path / "g.cascadia", data))
    # the same id and seed with other (legal) decisions: a different valid game
    events = game_events(2)
    game = Game.start(11, ["random", "random"], game_id=events[0].originator_id, bots=events[0].bots)
    game.take(0)
    q, r = game.legal_tile_positions()[0]
    game.place_tile(q, r, 0)
    game.return_wildlife()
    other = game.collect_events()
    path = write(tmp_path / "other.cascadia", encode_log(LogHeader.from_events(other), other, None))
    with pytest.raises(ImportConflictError):
        import_log(store, path)


def test_export_targets(tmp_path):
    ids = [game_events(1)[0].originator_id, game_events(2)[0].originator_id]
    assert export_targets(ids[:1], tmp_path / "x" / "one.cascadia", folder=False) == [
        tmp_path / "x" / "one.cascadia"
    ]
    many = export_targets(ids, tmp_path / "many", folder=False)
    assert [p.parent for p in many] == [tmp_path / "many"] * 2 and (tmp_path / "many").is_dir()
    assert many[0].name == f"{ids[0]}.cascadia"


# -- rerun ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_rerun_is_byte_identical(tmp_path, players):
    data = game_log(players, seed=40 + players)
    source = write(tmp_path / "in.cascadia", data)
    result = rerun(source, tmp_path / "out.cascadia")
    assert (tmp_path / "out.cascadia").read_bytes() == data
    assert result.events == len(game_events(players, seed=40 + players)) and result.bytes == len(data)


@pytest.mark.parametrize(
    "options",
    [{"market_of_three": True}, {"secret_cards": True}, {"no_starter": True, "two_card_sets": True}],
)
def test_rerun_with_options_is_byte_identical(tmp_path, options):
    data = game_log(3, seed=9, **options)
    rerun(write(tmp_path / "in.cascadia", data), tmp_path / "out.cascadia")
    assert (tmp_path / "out.cascadia").read_bytes() == data


def test_rerun_of_a_failing_log_writes_nothing(tmp_path):
    source = write(tmp_path / "in.cascadia", rechain(game_log(2), scores=lambda s: None))
    with pytest.raises(AuditDivergence):
        rerun(source, tmp_path / "out.cascadia")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cascadia"]


def test_what_if_keeps_the_turns_before_and_is_reproducible(tmp_path):
    data = game_log(2)
    source = write(tmp_path / "in.cascadia", data)
    one = rerun_from_turn(source, tmp_path / "a.cascadia", 21, "random", bots_finish("random"))
    two = rerun_from_turn(source, tmp_path / "b.cascadia", 21, "random", bots_finish("random"))
    assert (tmp_path / "a.cascadia").read_bytes() == (tmp_path / "b.cascadia").read_bytes()
    original = game_events(2)
    started = original[0]
    names = what_if_names(started.names, "random", 21)
    options = GameOptions.from_dict(started.options)
    derived = derive_game_id(started.seed, names, options, started.rules_version)
    assert one.game_id == derived != started.originator_id
    new = audit_bytes((tmp_path / "a.cascadia").read_bytes())
    assert new[-1].type == "GameEnded" and two.events == len(new)
    assert new[0].names == ["random (then random from turn 21)"] * 2
    # every event up to the end of turn 20 is the original's
    end_of_20 = next(e.originator_version for e in original if e.type == "TurnEnded" and e.turn == 20)
    assert [e.payload() for e in new[1:end_of_20]] == [e.payload() for e in original[1:end_of_20]]
    diff = diff_logs(source, tmp_path / "a.cascadia")
    assert diff.first_seq is not None and diff.first_seq > end_of_20
    # a what-if's seats are no bot's (it records none): a version 1 header
    assert set(diff.header) == {"game_id", "names", "bots", "version"} and diff.header["bots"][1] is None


def test_what_if_rejects_bad_turns_and_bots(tmp_path):
    source = write(tmp_path / "in.cascadia", game_log(1))
    with pytest.raises(RerunError):
        rerun_from_turn(source, tmp_path / "o.cascadia", 0, "random", bots_finish("random"))
    with pytest.raises(RerunError):
        rerun_from_turn(source, tmp_path / "o.cascadia", 999, "random", bots_finish("random"))
    with pytest.raises(RerunError):
        rerun_from_turn(source, tmp_path / "o.cascadia", 3, "nobody", lambda game: None)
    with pytest.raises(InvalidOptionError):
        bots_finish("no-such-bot")
    assert not (tmp_path / "o.cascadia").exists()


# -- diff ----------------------------------------------------------------------------------


def test_diff_identical_and_divergent(tmp_path):
    a = write(tmp_path / "a.cascadia", game_log(2))
    same = diff_logs(a, write(tmp_path / "same.cascadia", game_log(2)))
    assert same.identical and same.differing_events == 0
    _, records, _ = read(game_log(2))
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TilePlaced", 10)
    edited = rechain(
        game_log(2), lambda rs: [*rs[:i], [rs[i][0], rs[i][1], {**rs[i][2], "rotation": 5}], *rs[i + 1 :]]
    )
    b = write(tmp_path / "b.cascadia", edited)
    result = diff_logs(a, b)
    assert not result.identical and result.first_seq == i + 1
    assert result.first_a["payload"]["rotation"] != 5 and result.first_b["payload"]["rotation"] == 5
    shorter = diff_logs(a, write(tmp_path / "c.cascadia", rechain(game_log(2), lambda rs: rs[:-5])))
    assert shorter.first_seq == len(body) - 4 and shorter.first_b is None and shorter.differing_events == 5
    other = diff_logs(a, write(tmp_path / "d.cascadia", game_log(2, seed=12)))
    assert "seed" in other.header and other.first_seq is not None
    with pytest.raises(LogFormatError):
        diff_logs(a, write(tmp_path / "e.cascadia", game_log(2)[:50]))


# -- replay --------------------------------------------------------------------------------


def test_replay_turn_by_turn_and_to_an_event(tmp_path):
    path = write(tmp_path / "g.cascadia", game_log(2))
    events = game_events(2)
    header, snapshots = replay_log(path)
    shots = list(snapshots)
    assert header.game_id == events[0].originator_id
    assert [s.turn for s in shots] == list(range(0, 41))
    assert shots[0].version == next(e.originator_version for e in events if e.kind == "decision") - 1
    assert shots[-1].state.finished and shots[-1].version == len(events)
    assert shots[-1].scores == read(game_log(2))[2].scores
    _, one = replay_log(path, to=50)
    (only,) = list(one)
    assert only.version == 50 and only.to_dict()["state"]["version"] == 50
    with pytest.raises(ReplayRangeError):
        replay_log(path, to=len(events) + 1)


def test_replay_refuses_a_tampered_log(tmp_path):
    path = write(tmp_path / "g.cascadia", rechain(game_log(2), scores=lambda s: None))
    with pytest.raises(AuditDivergence):
        replay_log(path)
