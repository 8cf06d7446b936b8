"""Seeded draws: the algorithm documented in cascadia.domain.rng, reproduced independently."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from cascadia.domain.errors import InvalidOptionError
from cascadia.domain.rng import MAX_SEED, DrawStream, check_seed, draw
from hypothesis import given, settings
from hypothesis import strategies as st

SPAN = 2**64


def digest_word(seed: int, position: int, attempt: int, tag: bytes = b"cascadia/v1") -> int:
    message = tag + seed.to_bytes(8, "big") + position.to_bytes(8, "big") + attempt.to_bytes(4, "big")
    return int.from_bytes(hashlib.sha256(message).digest()[:8], "big")


def reference_draw(seed: int, position: int, bound: int, tag: bytes = b"cascadia/v1") -> tuple[int, int]:
    """The documented algorithm: (value, attempts rejected before it)."""
    limit = SPAN - SPAN % bound
    attempt = 0
    while True:
        x = digest_word(seed, position, attempt, tag)
        if x < limit:
            return x % bound, attempt
        attempt += 1


# Known draws, computed once with the reference algorithm above (seed, position, bound, value).
KNOWN = [
    (0, 0, 6, 1),
    (0, 1, 6, 4),
    (1, 0, 100, 6),
    (42, 7, 4, 1),
    (MAX_SEED, 123456, 85, 0),
    (12345, 0, 2**63 + 1, 6849128392242739722),
]


@pytest.mark.parametrize(("seed", "position", "bound", "value"), KNOWN)
def test_known_draws(seed, position, bound, value):
    assert draw(seed, position, bound) == value
    assert reference_draw(seed, position, bound)[0] == value


@settings(max_examples=200)
@given(st.integers(0, MAX_SEED), st.integers(0, 10**6), st.integers(1, 2**40))
def test_draw_follows_the_documented_algorithm(seed, position, bound):
    assert draw(seed, position, bound) == reference_draw(seed, position, bound)[0]


def test_rejection_sampling_path():
    # With bound 2**63 + 1 about half of all 64-bit words lie at or above the limit,
    # so the first attempt is often rejected and the next attempt decides.
    bound = 2**63 + 1
    limit = SPAN - SPAN % bound
    rejected = [p for p in range(40) if digest_word(5, p, 0) >= limit]
    assert rejected, "expected some first attempts to be rejected"
    for position in rejected:
        value, attempts = reference_draw(5, position, bound)
        assert attempts >= 1
        assert draw(5, position, bound) == value
        assert value != digest_word(5, position, 0) % bound
    # position 0 of seed 5 needs four attempts (three rejected).
    assert reference_draw(5, 0, bound)[1] == 3
    assert draw(5, 0, bound) == 2367476632176618090


def test_bound_one_and_bad_bounds():
    assert draw(3, 9, 1) == 0
    with pytest.raises(ValueError):
        draw(3, 9, 0)
    with pytest.raises(ValueError):
        draw(3, 9, -4)


def test_uniformity_sanity():
    counts = Counter(draw(2024, n, 6) for n in range(6000))
    assert set(counts) == set(range(6))
    chi_square = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    # 5 degrees of freedom: chi-square above 20.5 has probability 0.001.
    assert chi_square < 20.5, counts
    halves = Counter(draw(77, n, 2) for n in range(4000))
    assert abs(halves[0] - 2000) < 130


def test_draws_depend_on_seed_and_position():
    a = [draw(1, n, 10**9) for n in range(20)]
    b = [draw(2, n, 10**9) for n in range(20)]
    assert a != b
    assert len(set(a)) == 20


def test_draw_stream_advances_one_position_per_draw():
    stream = DrawStream(99)
    values = [stream.next(52) for _ in range(10)]
    assert stream.position == 10
    assert values == [draw(99, n, 52) for n in range(10)]
    resumed = DrawStream(99, position=4)
    assert resumed.next(52) == values[4]


def test_streams_of_one_seed_interleaved_draw_as_each_alone():
    """Streams of one seed share the hashing state they start from: drawing from one
    (rejections too) leaves the draws of the other as the algorithm gives them."""
    first, second = DrawStream(7), DrawStream(7)
    bounds = [2**63 + 1, 6, 85, 2**63 + 1, 3]
    drawn = [(first.next(bound), second.next(bound), second.next(bound)) for bound in bounds]
    for i, (bound, (a, b, c)) in enumerate(zip(bounds, drawn, strict=True)):
        assert a == reference_draw(7, i, bound)[0]
        assert (b, c) == (reference_draw(7, 2 * i, bound)[0], reference_draw(7, 2 * i + 1, bound)[0])


def test_separate_streams_are_other_tags():
    tag = b"cascadia-bot/random/0/v1"
    stream = DrawStream(8, stream=tag)
    values = [stream.next(1000) for _ in range(5)]
    assert values == [reference_draw(8, n, 1000, tag)[0] for n in range(5)]
    assert values != [draw(8, n, 1000) for n in range(5)]


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, True, 1.0, "3", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(InvalidOptionError):
        check_seed(seed)
    with pytest.raises(InvalidOptionError):
        DrawStream(seed)


def test_good_seeds():
    assert check_seed(0) == 0
    assert check_seed(MAX_SEED) == MAX_SEED == 2**64 - 1
