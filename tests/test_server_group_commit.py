"""Group commit: concurrent appends are each stored exactly once, atomically, and a race
for one position fails exactly the losers, however the appends were batched."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from uuid import uuid4

from cascadia.domain.events import GameEvent, TurnEnded
from cascadia.server.group_commit import GroupCommit


class Conflict(Exception):
    pass


class FakeStore:
    """Positions (game, version) taken; a write of several events is all or nothing."""

    def __init__(self) -> None:
        self.events: dict[tuple[object, int], GameEvent] = {}
        self.lock = threading.Lock()

    def write(self, events: Sequence[GameEvent]) -> None:
        with self.lock:
            keys = [(e.originator_id, e.originator_version) for e in events]
            if len(set(keys)) != len(keys) or any(k in self.events for k in keys):
                raise Conflict(str(keys))
            self.events.update(zip(keys, events, strict=True))


def _events(game: object, version: int, mark: int) -> list[GameEvent]:
    return [TurnEnded(game, version, player=mark, turn=1), TurnEnded(game, version + 1, player=mark, turn=1)]


def test_each_append_once_and_only_the_losers_of_a_race_fail() -> None:
    store = FakeStore()
    writer = GroupCommit(store.write, Conflict)
    games = [uuid4() for _ in range(6)]
    jobs = [(game, mark) for game in games for mark in (0, 1)]  # two appends race per game
    outcome: dict[tuple[object, int], str] = {}
    gate = threading.Barrier(len(jobs))

    def append(game: object, mark: int) -> None:
        gate.wait()
        try:
            writer.append(_events(game, 5, mark))
            outcome[(game, mark)] = "stored"
        except Conflict:
            outcome[(game, mark)] = "conflict"

    threads = [threading.Thread(target=append, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    for game in games:
        results = sorted(outcome[(game, mark)] for mark in (0, 1))
        assert results == ["conflict", "stored"]
        winner = next(mark for mark in (0, 1) if outcome[(game, mark)] == "stored")
        assert [store.events[(game, v)].player for v in (5, 6)] == [winner, winner]  # type: ignore[attr-defined]
    assert len(store.events) == 2 * len(games)


def test_an_error_of_the_store_reaches_every_append_of_its_batch() -> None:
    def broken(events: Sequence[GameEvent]) -> None:
        raise OSError("disk full")

    writer = GroupCommit(broken, Conflict)
    try:
        writer.append(_events(uuid4(), 1, 0))
    except OSError as error:
        assert "disk full" in str(error)
    else:
        raise AssertionError("the error was lost")
