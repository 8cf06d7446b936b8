"""The log format: canonical bytes, the frame reader's checks, damaged files."""

from __future__ import annotations

import io
from dataclasses import replace

import msgpack
import pytest
from cascadia.bots.registry import play_game
from cascadia.domain.options import GameOptions
from cascadia.replays import format as fmt
from cascadia.replays.audit import verify
from cascadia.replays.errors import AuditDivergence, LogFormatError
from cascadia.replays.format import (
    MAGIC,
    MAX_FRAME,
    LogEncoder,
    LogHeader,
    LogReader,
    canonical,
    chain,
    record_body,
    record_bytes,
    write_log,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_replays_helpers import (
    audit_bytes,
    frame_offset,
    frames,
    game_events,
    game_log,
    raw_frame,
    read,
    rechain,
)


def format_error(data: bytes) -> LogFormatError:
    with pytest.raises(LogFormatError) as raised:
        audit_bytes(data)
    return raised.value


# -- canonical bytes and round trips -----------------------------------------------------


def test_canonical_orders_keys_by_their_encoding():
    assert canonical({"bb": 1, "a": 2, "c": 3}) == canonical({"a": 2, "c": 3, "bb": 1})
    assert list(msgpack.unpackb(canonical({"bb": 1, "a": 2, "c": 3}))) == ["a", "c", "bb"]
    assert canonical((1, [2, {"y": 1, "x": 2}])) == canonical([1, [2, {"x": 2, "y": 1}]])


def test_log_reads_back_as_written():
    events = game_events(2)
    data = game_log(2)
    reader, records, trailer = read(data)
    assert reader.header == LogHeader.from_events(events)
    assert [r.to_event(reader.header.game_id) for r in records] == events
    assert trailer.events == len(events)
    assert trailer.head == records[-1].digest
    assert trailer.scores is not None and len(trailer.scores["players"]) == 2


def test_hash_chain_links_every_frame():
    data = game_log(1)
    reader, records, trailer = read(data)
    head = chain(b"", canonical(reader.header.body()))
    for record in records:
        head = chain(head, record.body)
        assert record.digest == head
    assert trailer.digest == chain(
        head, canonical({"events": trailer.events, "head": head, "scores": trailer.scores})
    )


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path):
    events = game_events(2)
    target = tmp_path / "game.cascadia"
    target.write_bytes(b"old content")

    def failing():
        yield from events[:10]
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        write_log(target, LogHeader.from_events(events), failing(), None)
    assert target.read_bytes() == b"old content"
    assert [p.name for p in tmp_path.iterdir()] == ["game.cascadia"]
    size = write_log(target, LogHeader.from_events(events), events, None)
    assert target.stat().st_size == size


def test_reader_streams_one_frame_at_a_time():
    data = game_log(4)

    class CountingStream(io.BytesIO):
        largest = 0

        def read(self, size=-1):
            assert 0 <= size <= MAX_FRAME, "the reader never asks for an unbounded read"
            CountingStream.largest = max(CountingStream.largest, size)
            return super().read(size)

    reader = LogReader(CountingStream(data))
    assert sum(1 for _ in reader.records()) == len(game_events(4))
    assert CountingStream.largest < 10_000


# -- damaged files: the exact error --------------------------------------------------------


def test_wrong_magic():
    error = format_error(b"PK\x03\x04" + game_log(1)[4:])
    assert (error.kind, error.offset) == ("magic", 0)
    assert format_error(b"").kind == "magic"


def test_truncated_anywhere():
    data = game_log(1)
    _, found = frames(data)
    last = len(found) - 1  # the trailer's frame index
    cases = {
        5: ("truncated", None),  # inside the magic
        len(MAGIC): ("truncated", 0),  # no header
        len(MAGIC) + 2: ("truncated", 0),  # inside a length
        len(data) - len(found[-1]): ("truncated", last),  # at a frame boundary, no trailer
        len(data) - 1: ("truncated", last),  # inside the trailer
        frame_offset(data, 3) + 20: ("truncated", 3),  # inside record 3
    }
    for size, (kind, record) in cases.items():
        error = format_error(data[:size])
        assert (error.kind, error.record) == (kind, record), size


@pytest.mark.parametrize("record", [0, 1, 7, 40])
def test_flipped_byte_breaks_the_chain_at_that_record(record):
    data = bytearray(game_log(2))
    position = frame_offset(bytes(data), record) + 30
    data[position] ^= 0x01
    error = format_error(bytes(data))
    assert error.record == record
    assert error.kind in ("hash", "encoding", "version", "schema")
    if record:
        assert error.kind == "hash"
    assert str(error).startswith("test.cascadia (")


def test_flipped_hash_byte():
    data = bytearray(game_log(2))
    position = frame_offset(bytes(data), 5 + 1) - 1  # the last byte of record 5's hash
    data[position] ^= 0x80
    error = format_error(bytes(data))
    assert (error.kind, error.record) == ("hash", 5)


def test_reordered_removed_duplicated_and_spliced_records():
    data = game_log(2)
    magic, found = frames(data)

    def joined(parts):
        return magic + b"".join(parts)

    swapped = [*found[:10], found[11], found[10], *found[12:]]
    assert (format_error(joined(swapped)).kind, format_error(joined(swapped)).record) == ("hash", 10)
    removed = found[:10] + found[11:]
    assert (format_error(joined(removed)).kind, format_error(joined(removed)).record) == ("hash", 10)
    duplicated = [*found[:11], found[10], *found[11:]]
    assert (format_error(joined(duplicated)).kind, format_error(joined(duplicated)).record) == ("hash", 11)
    _, other = frames(game_log(2, seed=12))
    spliced = [*found[:10], other[10], *found[11:]]
    assert (format_error(joined(spliced)).kind, format_error(joined(spliced)).record) == ("hash", 10)
    no_trailer = found[:-1]
    assert format_error(joined(no_trailer)).kind == "truncated"


def test_unknown_format_version():
    events = game_events(1)
    header = LogHeader.from_events(events)
    future = replace(header, version=3)
    error = format_error(fmt.encode_log(future, events, None))
    assert (error.kind, error.record) == ("version", 0)
    assert "unsupported format version 3 (this reader knows 1, 2)" in str(error)


def test_not_our_format_name():
    body = canonical({"format": "other-log", "version": 1})
    error = format_error(MAGIC + raw_frame(body, b""))
    assert (error.kind, error.record) == ("version", 0)


def test_oversized_length_field():
    data = bytearray(game_log(1))
    position = frame_offset(bytes(data), 4)
    data[position : position + 4] = b"\xff\xff\xff\xff"
    error = format_error(bytes(data))
    assert (error.kind, error.record, error.offset) == ("length", 4, position)
    data[position : position + 4] = (MAX_FRAME + 1).to_bytes(4, "big")
    assert format_error(bytes(data)).kind == "length"
    data[position : position + 4] = b"\x00\x00\x00\x00"
    assert format_error(bytes(data)).kind == "length"


def test_oversized_count_inside_a_frame():
    """A frame whose msgpack claims 4 billion array elements (hash intact)."""
    data = game_log(1)
    magic, found = frames(data)
    _, records, _ = read(data)
    bad = raw_frame(b"\xdd\xff\xff\xff\xff", records[0].digest)
    error = format_error(magic + b"".join(found[:2]) + bad)
    assert (error.kind, error.record) == ("encoding", 2)


def test_too_many_records(monkeypatch):
    monkeypatch.setattr(fmt, "MAX_RECORDS", 20)
    error = format_error(game_log(1))
    assert (error.kind, error.record) == ("count", 21)


def test_trailer_event_count_and_trailing_data():
    data = game_log(1)
    events = game_events(1)
    header = LogHeader.from_events(events)
    encoder = LogEncoder(header)
    parts = [encoder.preamble] + [encoder.event(e) for e in events]
    encoder.count += 1  # the trailer claims one event more
    error = format_error(b"".join([*parts, encoder.trailer(None)]))
    assert (error.kind, error.record) == ("count", len(events) + 1)
    error = format_error(data + b"\x00")
    assert error.kind == "trailing"


def test_records_out_of_sequence_with_an_intact_chain():
    data = rechain(game_log(2), lambda records: [*records[:10], records[11], records[10], *records[12:]])
    error = format_error(data)
    assert (error.kind, error.record) == ("sequence", 11)
    assert "record 11 has sequence number 12" in str(error)


def test_wrong_payload_fields_and_types_with_an_intact_chain():
    def edit(field, value, type_name="TilePlaced"):
        def change(records):
            for record in records:
                if record[1] == type_name:
                    record[2] = {**record[2], field: value}
                    break
            return records

        return change

    data = game_log(2)
    for field, value in [("q", "3"), ("q", True), ("extra", 1), ("rotation", None)]:
        error = format_error(rechain(data, edit(field, value)))
        assert error.kind == "schema", (field, value)
    unknown = rechain(data, lambda records: [*records[:5], [6, "Teleported", {}], *records[6:]])
    assert format_error(unknown).kind == "schema"
    bad_header = rechain(data, header=lambda h: replace(h, game_id="not-a-uuid"))
    assert (format_error(bad_header).kind, format_error(bad_header).record) == ("schema", 0)


def test_floats_and_extension_types_are_rejected():
    data = game_log(1)
    magic, found = frames(data)
    for value in (1.5, msgpack.ExtType(1, b"x")):
        body = msgpack.packb([1, "GameStarted", {"seed": value}], use_bin_type=True)
        error = format_error(magic + found[0] + raw_frame(body, found[0][-32:]) + b"".join(found[2:]))
        assert (error.kind, error.record) == ("encoding", 1)
        assert "holds no" in error.reason
    with pytest.raises(TypeError):
        canonical({"x": 0.5})


def test_non_canonical_frame_is_rejected():
    """Record 1 with its sequence number as int8 (0xd0 0x01): same value, longer form."""
    data = game_log(1)
    magic, found = frames(data)
    reader, records, _ = read(data)
    assert records[0].body.startswith(b"\x93\x01")
    body = b"\x93\xd0\x01" + records[0].body[2:]
    header_hash = chain(b"", canonical(reader.header.body()))
    error = format_error(magic + found[0] + raw_frame(body, header_hash) + b"".join(found[2:]))
    assert (error.kind, error.record) == ("encoding", 1)


# -- random damage: detected or harmless, never a crash ------------------------------------

SMALL_LOG = game_log(1, seed=3)
SMALL_EVENTS = game_events(1, seed=3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(0, len(SMALL_LOG) - 1), st.integers(1, 255)),
        min_size=1,
        max_size=4,
    )
)
def test_random_byte_flips_are_detected(flips):
    data = bytearray(SMALL_LOG)
    for position, mask in flips:
        data[position] ^= mask
    try:
        events = audit_bytes(bytes(data))
    except (LogFormatError, AuditDivergence):
        return
    assert bytes(data) == SMALL_LOG and events == SMALL_EVENTS


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(SMALL_LOG)),
    st.integers(0, 64),
    st.binary(max_size=64),
)
def test_random_cuts_and_insertions_are_detected(position, cut, inserted):
    data = SMALL_LOG[:position] + inserted + SMALL_LOG[position + cut :]
    try:
        events = audit_bytes(data)
    except (LogFormatError, AuditDivergence):
        return
    assert data == SMALL_LOG and events == SMALL_EVENTS


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_after_the_magic(tail):
    with pytest.raises(LogFormatError):
        audit_bytes(MAGIC + tail)


def test_verify_returns_the_engine_events():
    audit, events = verify(LogReader(io.BytesIO(SMALL_LOG)))
    assert events == SMALL_EVENTS
    assert audit.game.finished


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(),
        GameOptions(cards="all-a", secret_cards=True, two_card_sets=True),
        GameOptions(no_starter=True, nature_cost_two=True, market_of_three=True),
    ],
)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_record_bytes_are_the_canonical_bytes_of_every_event(options, players):
    """The fast path of :func:`record_bytes` gives what sorting every map would give."""
    for seed in range(3):
        game = play_game(seed, ["random"] * players, options)
        for event in game.collect_events():
            assert record_bytes(event) == canonical(record_body(event)), event.type
