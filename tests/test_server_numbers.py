"""Numbers from clients have one spelling (server/numbers.py): every query parameter,
path segment, header and stream-ticket field holding a number is parsed strictly, a bad
one is a 400 ``bad-request`` problem (never a 500 or a broken stream), and a used stream
ticket cannot be opened again by respelling its numbers."""

from __future__ import annotations

import pytest
from cascadia.server.numbers import MAX_NUMBER, parse_number
from fastapi.testclient import TestClient
from server_support import bearer, create_game, tokens

SUPERSCRIPT_TWO, ARABIC_INDIC_ZERO, FULL_WIDTH_ZERO = "\u00b2", 0x0660, 0xFF10
BAD_NUMBERS = [
    *(str(MAX_NUMBER + 1), str(2**64), SUPERSCRIPT_TWO, chr(ARABIC_INDIC_ZERO + 1), chr(FULL_WIDTH_ZERO + 1)),
    *("+1", "-1", " 1", "1 ", "01", "1_0", "0x1", ""),
]


def test_parse_number_takes_canonical_ascii_decimal_in_range() -> None:
    assert [parse_number(t) for t in ("0", "7", str(MAX_NUMBER))] == [0, 7, MAX_NUMBER]
    assert all(parse_number(text) is None for text in BAD_NUMBERS)
    assert parse_number("3", low=1, high=2) is None and parse_number("0", low=1) is None


@pytest.mark.parametrize("text", BAD_NUMBERS)
def test_every_number_a_client_sends_is_parsed_strictly(api: TestClient, text: str) -> None:
    game = create_game(api)
    gid, token = game["game_id"], tokens(game)[0]
    mid = api.post("/api/maps", json={"name": "m"}).json()["map_id"]
    requests = [
        ("/api/games", {"limit": text}, {}),
        (f"/api/games/{gid}/events", {"after": text}, {}),
        (f"/api/games/{gid}/stream", {"after": text}, {}),
        (f"/api/games/{gid}/stream", {}, {"Last-Event-ID": text}),
        (f"/api/maps/{mid}/stream", {"after": text}, {}),
        (f"/api/maps/{mid}/stream", {}, {"Last-Event-ID": text}),
        (f"/api/maps/{mid}/svg", {"columns": text}, {}),
        (f"/api/games/{gid}/seats/{text}", {}, bearer(token)),
        (f"/api/games/{gid}/seats/{text}/markable", {}, bearer(token)),
    ]
    for url, params, headers in requests:
        if url.endswith("/") or "/seats//" in url:
            continue  # an empty path segment is another path
        answer = api.get(url, params=params, headers={k: v.encode() for k, v in headers.items()})
        assert answer.status_code == 400, (url, params, headers, answer.text)
        assert answer.json()["type"].endswith("/bad-request")


def test_the_largest_version_is_a_valid_empty_answer(api: TestClient) -> None:
    gid = create_game(api)["game_id"]
    answer = api.get(f"/api/games/{gid}/events", params={"after": str(MAX_NUMBER)})
    assert answer.status_code == 200 and answer.json()["events"] == []


def respellings(ticket: str) -> list[str]:
    seat, expiry, nonce, mac = ticket.split(".")
    digits = {ord("0") + d: ARABIC_INDIC_ZERO + d for d in range(10)}
    wide = {ord("0") + d: FULL_WIDTH_ZERO + d for d in range(10)}
    return [
        f"0{seat}.{expiry}.{nonce}.{mac}",
        f"{seat}.0{expiry}.{nonce}.{mac}",
        f"{seat.translate(digits)}.{expiry}.{nonce}.{mac}",
        f"{seat.translate(wide)}.{expiry}.{nonce}.{mac}",
        f"{seat}.{expiry.translate(wide)}.{nonce}.{mac}",
        f"+{seat}.{expiry}.{nonce}.{mac}",
        f"{seat}.{expiry}.{nonce}.{mac.upper()}",
    ]


def test_a_used_ticket_stays_used_however_it_is_spelled(api: TestClient) -> None:
    game = create_game(api, rules=["secret_cards"])
    gid = game["game_id"]
    ticket = api.post(f"/api/games/{gid}/stream-tickets", headers=bearer(tokens(game)[1])).json()["ticket"]
    with api.stream("GET", f"/api/games/{gid}/stream", params={"ticket": ticket}) as answer:
        assert answer.status_code == 200
    for spelling in respellings(ticket):
        answer = api.get(f"/api/games/{gid}/stream", params={"ticket": spelling})
        assert answer.status_code == 401, spelling
