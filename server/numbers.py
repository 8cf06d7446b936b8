"""Numbers and ids from clients: one strict parser for every query parameter, path
segment, header and stream-ticket field that holds a number, and one for game and map ids.

A number is written in canonical decimal: ASCII digits only, no sign, no spaces, no
leading zero (``0`` itself excepted), and it lies in ``[low, high]`` (at most
:data:`MAX_NUMBER`, the largest integer SQLite stores). Anything else is refused, so
that each number has exactly one spelling: Arabic-Indic, full-width or superscript
digits, a sign, spaces or a leading zero are not a number, and a text keyed on (a used
stream ticket) cannot be respelled.

An id is a UUID in its canonical form only (lower-case hex, dashed, no braces, no
``urn:uuid:``): any other spelling names no game or map (404), so that each game has
one URL.
"""

from __future__ import annotations

import re
from uuid import UUID

from cascadia.server.problems import Problem

MAX_NUMBER = 2**63 - 1
"""The largest number a client may send (SQLite's largest integer)."""
_CANONICAL = re.compile(r"(?:0|[1-9][0-9]{0,18})")


def parse_number(text: str, low: int = 0, high: int = MAX_NUMBER) -> int | None:
    """``text`` as a number if it is one in canonical decimal within ``[low, high]``,
    else ``None``."""
    if _CANONICAL.fullmatch(text) is None:
        return None
    value = int(text)
    return value if low <= value <= high else None


def client_number(text: str, name: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    """``text`` (the value of the request's ``name``) as a number, or a 400 ``bad-request``
    problem saying what a valid one is."""
    value = parse_number(text, low, high)
    if value is None:
        raise Problem(
            400,
            "bad-request",
            "Bad request",
            f"{name} is a whole number from {low} to {high} in ASCII digits",
        )
    return value


def parse_id(text: str) -> UUID | None:
    """``text`` as a UUID if it is one in canonical form, else ``None``."""
    try:
        value = UUID(text)
    except ValueError:
        return None
    return value if str(value) == text else None
