"""Seat tokens and stream tickets.

A seat token is ``secrets.token_urlsafe(32)`` (256 random bits); the server stores only
its SHA-256 and compares digests in constant time. A stream ticket lets ``EventSource``
(which cannot send headers) open one seat's stream, once, for a short while:
``<seat>.<expiry>.<nonce>.<mac>`` where ``mac`` is HMAC-SHA-256, keyed with the seat's
token digest (kept only in the store), of the game id, the seat, the expiry (Unix
seconds) and a random nonce (so that no two tickets are alike). Any server process on
the same database can check it; it grants nothing but the stream, and the server lets
each ticket open one stream (``ServerStore.use_ticket``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from uuid import UUID

from cascadia.server.numbers import parse_number

TOKEN_BYTES = 32
TICKET_SECONDS = 60
NONCE_BYTES = 12


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, digest: str) -> bool:
    """Whether ``token`` is the one whose stored digest is ``digest`` (constant time)."""
    return hmac.compare_digest(token_digest(token), digest)


def seat_of_token(token: str, digests: list[str | None]) -> int | None:
    """The seat whose stored digest matches ``token`` (``None``: no seat). Every digest
    is compared, in constant time each, so the answer's timing does not tell which."""
    digest = token_digest(token)
    found = None
    for seat, stored in enumerate(digests):
        if stored is not None and hmac.compare_digest(stored, digest):
            found = seat
    return found


def _ticket_mac(game_id: UUID, seat: int, expiry: int, nonce: str, digest: str) -> str:
    message = f"cascadia-stream-ticket/v2|{game_id}|{seat}|{expiry}|{nonce}".encode()
    return hmac.new(bytes.fromhex(digest), message, hashlib.sha256).hexdigest()


def new_ticket(game_id: UUID, seat: int, digest: str, now: float | None = None) -> str:
    expiry = int(time.time() if now is None else now) + TICKET_SECONDS
    nonce = secrets.token_hex(NONCE_BYTES)
    return f"{seat}.{expiry}.{nonce}.{_ticket_mac(game_id, seat, expiry, nonce, digest)}"


def seat_of_ticket(
    ticket: str, game_id: UUID, digests: list[str | None], now: float | None = None
) -> int | None:
    """The seat a valid, unexpired ticket of this game stands for (``None`` otherwise).

    Its numbers are parsed strictly (:func:`~cascadia.server.numbers.parse_number`) and
    its MAC is lower-case hex compared exactly, so a valid ticket has one spelling only:
    the text the server keys "used once" on."""
    parts = ticket.split(".")
    if len(parts) != 4:
        return None
    seat, expiry, nonce, mac = parse_number(parts[0]), parse_number(parts[1]), parts[2], parts[3]
    if seat is None or expiry is None or seat >= len(digests) or digests[seat] is None:
        return None
    if expiry < (time.time() if now is None else now):
        return None
    expected = _ticket_mac(game_id, seat, expiry, nonce, digests[seat])  # type: ignore[arg-type]
    return seat if hmac.compare_digest(expected, mac) else None
