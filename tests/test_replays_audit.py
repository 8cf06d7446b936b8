"""Audit: engine logs pass; tampered logs with an intact hash chain fail at the exact event."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from uuid import uuid4

import pytest
from cascadia.analytics.ingest import ingest_logs
from cascadia.domain.game import Game
from cascadia.domain.options import GameOptions
from cascadia.replays.audit import audit_file
from cascadia.replays.errors import AuditDivergence, LogFormatError
from cascadia.replays.format import HEADER_FIELDS, MAX_DEPTH, LogHeader, encode_log
from cascadia.replays.scores import score_sheet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_replays_helpers import (
    DEEP_MARKER,
    audit_bytes,
    deepen,
    game_events,
    game_log,
    index_of,
    read,
    rechain,
    with_raw_header,
)

DATA = game_log(2)


def divergence(data: bytes) -> AuditDivergence:
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(data)
    return raised.value


def changed(records, index, **fields):
    records[index] = [records[index][0], records[index][1], {**records[index][2], **fields}]
    return records


# -- valid logs ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_engine_logs_pass_audit(players):
    events = game_events(players, seed=20 + players)
    assert audit_bytes(game_log(players, seed=20 + players)) == events


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"market_of_three": True}),
        (3, {"secret_cards": True, "nature_cost_two": True}),
        (1, {"no_starter": True}),
        (4, {"two_card_sets": True, "must_match": True}),
        (2, {"balanced_bag": True, "cards": "family", "no_token_on_new_tile": True}),
        (3, {"must_not_match": True, "corridors_of_three": True, "cards": "A,B,C,D,A"}),
    ],
)
def test_engine_logs_with_options_pass_audit(players, options):
    assert audit_bytes(game_log(players, seed=5, **options)) == game_events(players, seed=5, **options)


def test_an_unfinished_game_passes_audit():
    events = game_events(2)[:100]
    header = LogHeader.from_events(events)
    assert audit_bytes(encode_log(header, events, None)) == events
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(encode_log(header, events, {"players": []}))
    assert (raised.value.kind, raised.value.seq) == ("score", None)


def test_audit_file_reports_instead_of_raising(tmp_path):
    good = tmp_path / "good.cascadia"
    good.write_bytes(DATA)
    bad = tmp_path / "bad.cascadia"
    bad.write_bytes(DATA[:-3])
    ok = audit_file(good)
    assert ok.valid and ok.finished and ok.events == len(game_events(2)) and len(ok.totals) == 2
    failed = audit_file(bad)
    assert not failed.valid and isinstance(failed.error, LogFormatError)
    assert failed.to_dict()["error"]["kind"] == "truncated"
    missing = audit_file(tmp_path / "absent.cascadia")
    assert not missing.valid and "absent.cascadia" in missing.message


# -- the tampered corpus: the exact divergence ---------------------------------------------


def test_illegal_tile_placement():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TilePlaced", 3)
    error = divergence(rechain(DATA, lambda rs: changed(rs, i, q=50, r=50)))
    assert (error.kind, error.seq) == ("illegal", i + 1)
    assert "does not share an edge" in str(error)


def test_illegal_pair_without_free_choice():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "PairTaken", 0)
    other = (body[i][2]["tile_slot"] + 1) % 4
    error = divergence(rechain(DATA, lambda rs: changed(rs, i, wildlife_slot=other)))
    assert (error.kind, error.seq) == ("illegal", i + 1)
    assert "not a pair" in str(error)


def test_wildlife_on_a_tile_that_does_not_show_it():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "WildlifePlaced", 2)
    taken = body[i][2]

    def edit(rs):
        for q, r in [(0, 0), (-1, 1), (0, 1)]:  # the starter hexes: one of them refuses
            if (q, r) != (taken["q"], taken["r"]):
                return changed(rs, i, q=q, r=r)
        raise AssertionError

    error = divergence(rechain(DATA, edit))
    assert error.seq == i + 1 and error.kind in ("illegal", "event")


def test_draw_that_does_not_match_the_seed():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "MarketRefilled", 5)
    fills = [list(f) for f in body[i][2]["fills"]]
    fills[0][2] = "bear" if fills[0][2] != "bear" else "elk"
    error = divergence(rechain(DATA, lambda rs: changed(rs, i, fills=fills)))
    assert (error.kind, error.seq) == ("draw", i + 1)
    first = divergence(rechain(DATA, lambda rs: changed(rs, 5, seat=1 - rs[5][2]["seat"])))
    assert (first.kind, first.seq) == ("draw", 6)
    cards = divergence(
        rechain(
            DATA,
            lambda rs: changed(
                rs, 2, cards={**rs[2][2]["cards"], "bear": "D" if rs[2][2]["cards"]["bear"] != "D" else "C"}
            ),
            header=lambda h: h,
        )
    )
    assert cards.kind in ("draw", "header")


def test_wrong_player_in_a_decision():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TilePlaced", 4)
    error = divergence(rechain(DATA, lambda rs: changed(rs, i, player=1 - rs[i][2]["player"])))
    assert (error.kind, error.seq) == ("event", i + 1)
    assert error.logged["payload"]["player"] != error.expected["payload"]["player"]


def test_removed_record_renumbered():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TurnEnded", 3)
    error = divergence(rechain(DATA, lambda rs: rs[:i] + rs[i + 1 :], renumber=True))
    assert (error.kind, error.seq) == ("event", i + 1)
    assert error.expected["type"] == "TurnEnded"


def test_duplicated_turn_end_renumbered():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TurnEnded", 2)
    assert body[i + 1][1] == "PairTaken"
    error = divergence(rechain(DATA, lambda rs: [*rs[: i + 1], rs[i], *rs[i + 1 :]], renumber=True))
    assert (error.kind, error.seq) == ("unexpected", i + 2)


def test_reordered_decisions_renumbered():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "PairTaken", 6)
    assert body[i + 1][1] in ("TilePlaced", "WildlifePlaced")
    error = divergence(rechain(DATA, lambda rs: [*rs[:i], rs[i + 1], rs[i], *rs[i + 2 :]], renumber=True))
    assert (error.kind, error.seq) == ("illegal", i + 1)
    assert "take a tile and a token before" in str(error)


def test_record_from_another_game_spliced_in_and_rechained():
    _, records, _ = read(DATA)
    _, others, _ = read(game_log(2, seed=12))
    i = index_of([[r.seq, r.type, r.payload] for r in records], "MarketRefilled", 8)
    j = index_of([[r.seq, r.type, r.payload] for r in others], "MarketRefilled", 8)
    spliced = [others[j].seq, others[j].type, dict(others[j].payload)]
    error = divergence(rechain(DATA, lambda rs: [*rs[:i], [i + 1, spliced[1], spliced[2]], *rs[i + 1 :]]))
    assert (error.kind, error.seq) == ("draw", i + 1)


def test_log_cut_short_and_rechained():
    events = game_events(2)
    error = divergence(rechain(DATA, lambda rs: rs[:-1]))  # GameEnded dropped
    assert (error.kind, error.seq) == ("missing", len(events))
    assert error.expected["type"] == "GameEnded"


def test_event_after_the_end():
    error = divergence(
        rechain(DATA, lambda rs: [*rs, [len(rs) + 1, "WildlifeReturned", {"player": 0, "wildlife": "elk"}]])
    )
    assert (error.kind, error.seq) == ("unexpected", len(game_events(2)) + 1)


def test_score_that_does_not_match_the_board():
    def inflate(scores):
        players = [dict(p) for p in scores["players"]]
        players[1]["total"] += 5
        return {**scores, "players": players}

    error = divergence(rechain(DATA, scores=inflate))
    assert (error.kind, error.seq) == ("score", None)
    assert "players[1].total" in str(error)
    assert divergence(rechain(DATA, scores=lambda s: None)).kind == "score"


def test_header_that_contradicts_the_game():
    def cards(h):
        return replace(h, cards={**h.cards, "fox": "A" if h.cards["fox"] != "A" else "B"})

    assert divergence(rechain(DATA, header=cards)).kind == "header"
    rules = divergence(rechain(DATA, header=lambda h: replace(h, rules_version="v0")))
    assert (rules.kind, rules.seq) == ("header", None)
    four = divergence(
        rechain(
            DATA,
            header=lambda h: replace(h, options={**h.options, "balanced_bag": True}, names=["a"] * 4),
        )
    )
    assert four.kind == "header"
    seed = divergence(rechain(DATA, header=lambda h: replace(h, seed=h.seed + 1)))
    assert (seed.kind, seed.seq) == ("header", None)  # the new seed draws other cards
    names = divergence(rechain(DATA, header=lambda h: replace(h, names=["x", "y"])))
    assert (names.kind, names.seq) == ("header", None)  # the id is derived from the old names
    assert "game_id" in str(names)
    random_id = uuid4()
    renamed = divergence(rechain(DATA, header=lambda h: replace(h, names=["x", "y"], game_id=random_id)))
    assert (renamed.kind, renamed.seq) == ("event", 1)  # GameStarted records the old names


def test_message_is_one_line_with_both_versions():
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TilePlaced", 4)
    error = divergence(rechain(DATA, lambda rs: changed(rs, i, rotation=6)))
    text = str(error)
    assert "\n" not in text
    assert f"event {i + 1}" in text and "log says TilePlaced(" in text and "rules say" in text


def test_a_different_legal_decision_is_a_different_valid_game():
    """The audit checks legality, draws and scores; only the hash chain, not the rules,
    can tell that a legal decision was edited (and a rebuilt chain hides that)."""
    _, records, _ = read(DATA)
    body = [[r.seq, r.type, dict(r.payload)] for r in records]
    i = index_of(body, "TilePlaced", 4)
    edited = rechain(DATA, lambda rs: changed(rs, i, rotation=(rs[i][2]["rotation"] + 3) % 6))
    try:
        events = audit_bytes(edited)
    except AuditDivergence as error:
        assert error.kind == "score"  # the new rotation changed a corridor
    else:
        assert events[i].rotation != game_events(2)[i].rotation


# -- random record mutations with a rebuilt chain: typed errors only ----------------------

SMALL = game_log(1, seed=4)
SMALL_EVENTS = game_events(1, seed=4)
SMALL_RECORDS = [[r.seq, r.type, dict(r.payload)] for r in read(SMALL)[1]]

values = st.one_of(
    st.integers(-3, 90),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["bear", "elk", "salmon", "hawk", "fox", "wipe", "free_choice"]),
    st.lists(st.integers(-1, 5), max_size=4),
    st.lists(
        st.lists(st.one_of(st.integers(-1, 90), st.none(), st.text(max_size=3)), max_size=4), max_size=3
    ),
    st.dictionaries(st.text(max_size=6), st.text(max_size=2), max_size=3),
)


@st.composite
def mutations(draw):
    records = [list(r) for r in SMALL_RECORDS]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(records) - 1))
        action = draw(st.sampled_from(["field", "drop", "duplicate", "swap", "retype", "move", "deep"]))
        if action in ("field", "deep") and records[i][2]:
            name = draw(st.sampled_from(sorted(records[i][2])))
            value = DEEP_MARKER if action == "deep" else draw(values)
            records[i] = [records[i][0], records[i][1], {**records[i][2], name: value}]
        elif action == "drop":
            del records[i]
        elif action == "duplicate":
            records.insert(i, list(records[i]))
        elif action == "swap" and i + 1 < len(records):
            records[i], records[i + 1] = records[i + 1], records[i]
        elif action == "retype":
            records[i] = [records[i][0], draw(st.sampled_from([r[1] for r in SMALL_RECORDS])), records[i][2]]
        elif action == "move":
            j = draw(st.integers(0, len(records) - 1))
            records.insert(j, records.pop(i))
        if not records:
            records = [list(SMALL_RECORDS[0])]
    return records, draw(st.booleans()), draw(st.sampled_from([MAX_DEPTH + 1, 500, 1500]))


def ingested(data: bytes) -> bool:
    """Whether ``ingest`` adds the game of the log ``data`` to fresh analytics tables."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.cascadia"
        path.write_bytes(data)
        report = ingest_logs(Path(folder) / "home", [path])
    assert report.ingested + len(report.problems) == 1
    return report.ingested == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_random_record_mutations_are_detected_or_harmless(mutation):
    """Also: a value nested too deeply is a format error (never a RecursionError), and
    ingest admits a mutated log exactly when the audit does."""
    records, renumber, depth = mutation
    data = deepen(rechain(SMALL, lambda _: records, renumber=renumber), depth)
    try:
        events = audit_bytes(data)
    except (LogFormatError, AuditDivergence):
        assert not ingested(data)
        return
    # Harmless: another legal decision (a different rotation, say) is a different valid
    # game; the audit confirms exactly the engine's events for it, scores included.
    assert encode_log(LogHeader.from_events(events), events, read(data)[2].scores) == data
    assert ingested(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(HEADER_FIELDS),
    st.one_of(
        values,
        st.just(DEEP_MARKER),
        st.dictionaries(st.sampled_from(["cards", "balanced_bag", "no_starter", "x"]), values),
    ),
)
def test_random_header_mutations_are_detected_or_harmless(field, value):
    data = deepen(with_raw_header(SMALL, lambda body: {**body, field: value}), 600)
    try:
        events = audit_bytes(data)
    except (LogFormatError, AuditDivergence):
        assert not ingested(data)
        return
    assert events == SMALL_EVENTS
    assert ingested(data)


def test_score_sheet_is_deterministic():
    events = game_events(3, seed=8)
    state = Game.replay(events).state
    assert score_sheet(state) == score_sheet(state.copy())
    assert GameOptions.from_dict(events[0].options) == state.options


# -- a wipe's slots are read from the record after it: that record is blamed --------------


def _wipe_log() -> tuple[bytes, int]:
    """A solo log with a nature-token wipe, and the sequence number of its NatureTokenSpent."""
    data = game_log(1, seed=1)
    spent = next(
        r.seq for r in read(data)[1] if r.type == "NatureTokenSpent" and r.payload["action"] == "wipe"
    )
    return data, spent


def _replace_at(seq: int, record: list | None):
    def edit(records: list) -> list:
        index = next(i for i, r in enumerate(records) if r[0] == seq)
        return records[:index] + ([] if record is None else [record]) + records[index + 1 :]

    return edit


@pytest.mark.parametrize("forgery", ["removed", "no slots", "slot 9", "slots twice"])
def test_a_removed_or_forged_wipe_record_is_blamed_not_the_spend(forgery):
    data, spent = _wipe_log()
    replaced = next(r for r in read(data)[1] if r.seq == spent + 1)
    assert replaced.type == "WildlifeReplaced"
    payload = dict(replaced.payload)
    forged = {
        "removed": None,
        "no slots": [spent + 1, "WildlifeReplaced", {**payload, "slots": []}],
        "slot 9": [spent + 1, "WildlifeReplaced", {**payload, "slots": [9]}],
        "slots twice": [spent + 1, "WildlifeReplaced", {**payload, "slots": [0, 0]}],
    }[forgery]
    tampered = rechain(data, _replace_at(spent + 1, forged), renumber=forgery == "removed")
    with pytest.raises(AuditDivergence) as raised:
        audit_bytes(tampered)
    error = raised.value
    assert error.seq == spent + 1 and error.kind == "event", str(error)
    assert f"decision of event {spent}" in str(error)
