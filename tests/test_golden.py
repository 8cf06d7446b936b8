"""Golden games: the exact events of a few seeded games, pinned by their SHA-256.

Same seed and same decisions must give the same events, byte for byte, on any machine
and any supported Python. These digests were recorded once; any change to the draws,
the event payloads or the bots' choices changes them. If a change is intended (a new
rules version), record the new digests and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from cascadia.bots.registry import play_game
from cascadia.domain.options import GameOptions


def event_digest(seed: int, bots: list[str], options: GameOptions) -> str:
    """SHA-256 of the game's events as canonical JSON lines (type, version, payload)."""
    digest = hashlib.sha256()
    for event in play_game(seed, bots, options).collect_events():
        line = [event.type, event.originator_version, event.payload()]
        digest.update(json.dumps(line, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    return digest.hexdigest()


GOLDEN = [
    (
        0,
        ["random"] * 4,
        GameOptions(),
        "7ad0b6326fd26843e1fb3f6484833742914ed8771ab48b8e372f7f883ef06efb",
    ),
    (
        1,
        ["random"],
        GameOptions(cards="all-a"),
        "dd48d3c85c6bc6d9e5461d2bc17d999304631f0c23c08f0d4777c5ebe37a7bd6",
    ),
    (
        2,
        ["greedy", "random"],
        GameOptions(),
        "908bcd85c3254530a14ac60dc4685d69f9086ea8c49ac36d664a70199a355e84",
    ),
    (
        3,
        ["greedy"] * 3,
        GameOptions(cards="A,B,C,D,A", market_of_three=True, secret_cards=True),
        "1cf9645cf0a8ebeafb970dcf336f2c5adc4ad9f6ddbe31e2a5ef8581f2861af5",
    ),
]


@pytest.mark.parametrize(("seed", "bots", "options", "expected"), GOLDEN)
def test_seeded_games_are_the_same_everywhere(seed, bots, options, expected) -> None:
    assert event_digest(seed, bots, options) == expected
