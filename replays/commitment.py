"""The seed commitment of a server game: published at creation, checked after the end.

A game played on the server has a secret seed: it decides every future draw, so it is
kept from the players until the game ends. To show that the seed was fixed before the
first move and not chosen afterwards, the server publishes at creation::

    commitment = SHA-256( b"cascadia-seed-commitment/v1" || 0x00
                          || seed as 8 bytes, unsigned big-endian
                          || salt (32 random bytes) )

as 64 lower-case hex digits. At the end it reveals the seed (in the game's log header)
and the salt; anyone can recompute the commitment (:func:`check_commitment`) and audit
the log, which re-derives every draw from the seed. The salt keeps the seed from being
found by trying all seeds against the commitment.
"""

from __future__ import annotations

import hmac
import os
from hashlib import sha256

from cascadia.domain.rng import check_seed
from cascadia.replays.audit import verify
from cascadia.replays.errors import ReplayError
from cascadia.replays.format import open_log

SCHEME = "cascadia-seed-commitment/v1"
SALT_BYTES = 32
_PREFIX = SCHEME.encode() + b"\x00"


class CommitmentError(ReplayError):
    """A commitment or salt that is malformed, or a seed that does not match its commitment."""


def seed_commitment(seed: int, salt: bytes) -> str:
    """The commitment to ``seed`` with ``salt`` (64 hex digits)."""
    check_seed(seed)
    if len(salt) != SALT_BYTES:
        raise CommitmentError(f"a salt is {SALT_BYTES} bytes, not {len(salt)}")
    return sha256(_PREFIX + seed.to_bytes(8, "big") + salt).hexdigest()


def parse_hex(text: str, size: int, what: str) -> bytes:
    """``size`` bytes written as ``2 * size`` hex digits; :class:`CommitmentError` otherwise."""
    cleaned = text.strip().lower()
    try:
        value = bytes.fromhex(cleaned)
    except ValueError:
        raise CommitmentError(f"the {what} is not hex: {text[:80]!r}") from None
    if len(value) != size:
        raise CommitmentError(f"the {what} is {2 * size} hex digits, not {len(cleaned)}")
    return value


def check_commitment(seed: int, commitment: str, salt: str) -> None:
    """Raise :class:`CommitmentError` unless ``seed`` with ``salt`` (hex) gives ``commitment`` (hex)."""
    expected = parse_hex(commitment, 32, "commitment").hex()
    actual = seed_commitment(seed, parse_hex(salt, SALT_BYTES, "salt"))
    if not hmac.compare_digest(expected, actual):
        raise CommitmentError(
            f"the seed {seed} with this salt commits to {actual}, not to the published {expected}"
        )


def verify_log_commitment(path: str | os.PathLike[str], commitment: str, salt: str) -> int:
    """Audit the log at ``path`` in full (every draw re-derived from its seed), then check
    that its seed is the one ``commitment`` was made to with ``salt``; returns the seed.

    Raises the audit's error (:class:`ReplayError`) or :class:`CommitmentError`."""
    with open_log(path) as reader:
        verify(reader)
        seed = reader.header.seed
    check_commitment(seed, commitment, salt)
    return seed
